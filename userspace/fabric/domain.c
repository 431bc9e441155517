// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: the domain, local memory registration and address vectors.
 *
 * An AV holds socket addresses (union wfi_addr: a struct sockaddr_in or
 * sockaddr_in6, an endpoint's name; fi_av_insert takes an array of them,
 * each as long as its family says, so FI_SOCKADDR_IN and FI_SOCKADDR_IN6
 * arrays alike); fi_addr_t is the index of an entry for FI_AV_TABLE and FI_AV_MAP
 * alike (a map's values are opaque to the caller).  Reverse lookups (the
 * source of a received message) scan the table: MPI jobs here have tens of
 * peers, not millions.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "wind_fi.h"

/* --- memory registration ---
 *
 * An MR is what fi_mr_reg() names; one with FI_REMOTE_WRITE is also, when
 * keys are the provider's (FI_MR_PROV_KEY), a Wind region on the socket
 * of every endpoint of the domain (now, or when the endpoint opens):
 * exactly its bytes, its id the key's low 32 bits, its key the MR key.
 * Remote operations name an MR by key and an offset into it (the
 * provider does not ask for FI_MR_VIRT_ADDR).
 */

static int mr_close(struct fid *fid)
{
	struct wfi_mr *mr = wfi_container_of(fid, struct wfi_mr, mr.fid);
	struct wfi_domain *dom = mr->dom;
	struct wfi_list *pos;

	pthread_mutex_lock(&dom->lock);
	for (pos = dom->eps.next; pos != &dom->eps; pos = pos->next)
		wfi_region_del(wfi_container_of(pos, struct wfi_ep, dlink), mr);
	if (mr->rd_cntr) {
		mr->rd_cntr->refs--;
		mr->rd_cntr->mr_refs--;
	}
	if (mr->wr_cntr) {
		mr->wr_cntr->refs--;
		mr->wr_cntr->mr_refs--;
	}
	wfi_list_del(&mr->link);
	dom->refs--;
	pthread_mutex_unlock(&dom->lock);
	free(mr);
	return 0;
}

/* fi_mr_bind: a counter of the remote operations on an MR, whatever
 * flags the MR was registered with (fi_mr(3): counting needs the
 * FI_RMA_EVENT capability, which the domain has; FI_RMA_EVENT in
 * fi_mr_reg's flags is not asked for).  flags 0 counts what the MR's
 * access lets peers do: remote writes and atomics with FI_REMOTE_WRITE,
 * remote reads with FI_REMOTE_READ. */
static int mr_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct wfi_mr *mr = wfi_container_of(fid, struct wfi_mr, mr.fid);
	struct wfi_cntr *c;
	int ret = 0;

	if (bfid->fclass != FI_CLASS_CNTR)
		return -FI_EINVAL;
	if (!mr->dom->rma_event) {
		WFI_WARN(FI_LOG_MR, "fi_mr_bind of a counter: the domain has no FI_RMA_EVENT\n");
		return -FI_EINVAL;
	}
	if (flags & ~(FI_REMOTE_READ | FI_REMOTE_WRITE))
		return -FI_EBADFLAGS;
	if (!flags)
		flags = mr->access & (FI_REMOTE_READ | FI_REMOTE_WRITE);
	c = wfi_container_of(bfid, struct wfi_cntr, cntr.fid);
	pthread_mutex_lock(&mr->dom->lock);
	if (((flags & FI_REMOTE_READ) && mr->rd_cntr) ||
	    ((flags & FI_REMOTE_WRITE) && mr->wr_cntr)) {
		ret = -FI_EINVAL;
	} else {
		if (flags & FI_REMOTE_READ) {
			mr->rd_cntr = c;
			c->refs++;
			c->mr_refs++;
		}
		if (flags & FI_REMOTE_WRITE) {
			mr->wr_cntr = c;
			c->refs++;
			c->mr_refs++;
		}
	}
	pthread_mutex_unlock(&mr->dom->lock);
	return ret;
}

/* fi_mr_enable: nothing to do (FI_MR_RMA_EVENT is not required) */
static int mr_control(struct fid *fid, int command, void *arg)
{
	(void)fid; (void)arg;
	return command == FI_ENABLE ? 0 : -FI_ENOSYS;
}

static struct fi_ops mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = mr_close,
	.bind = mr_bind,
	.control = mr_control,
	.ops_open = wfi_no_ops_open,
};

static bool key_used(struct wfi_domain *dom, uint64_t key)
{
	struct wfi_list *pos;

	for (pos = dom->mrs.next; pos != &dom->mrs; pos = pos->next)
		if (wfi_container_of(pos, struct wfi_mr, link)->mr.key == key)
			return true;
	return false;
}

/* A region id (a provider key's low 32 bits) another MR of @dom has */
static bool region_used(struct wfi_domain *dom, uint32_t region)
{
	struct wfi_list *pos;

	for (pos = dom->mrs.next; pos != &dom->mrs; pos = pos->next)
		if (WFI_KEY_REGION(wfi_container_of(pos, struct wfi_mr, link)->mr.key) == region)
			return true;
	return false;
}

static int mr_reg(struct fid *fid, const void *buf, size_t len,
		  uint64_t access, uint64_t offset, uint64_t requested_key,
		  uint64_t flags, struct fid_mr **mrp, void *context)
{
	struct wfi_domain *dom = wfi_container_of(fid, struct wfi_domain, domain.fid);
	struct wfi_list *pos;
	struct wfi_mr *mr;

	(void)offset;
	if (flags & ~FI_RMA_EVENT)
		return -FI_EBADFLAGS;
	if ((flags & FI_RMA_EVENT) && !dom->rma_event)
		return -FI_EINVAL;	/* not in the domain's caps */
	if (!access)
		access = FI_SEND | FI_RECV | FI_READ | FI_WRITE |
			 FI_REMOTE_READ | FI_REMOTE_WRITE;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -FI_ENOMEM;
	mr->mr.fid.fclass = FI_CLASS_MR;
	mr->mr.fid.context = context;
	mr->mr.fid.ops = &mr_fi_ops;
	mr->flags = flags;
	mr->mr.mem_desc = NULL;
	mr->dom = dom;
	mr->addr = (char *)buf;
	mr->len = len;
	mr->access = access;

	pthread_mutex_lock(&dom->lock);
	if (dom->mr_mode & FI_MR_PROV_KEY) {
		int err;

		/* 64 random bits, whose low 32 are the region id: unique
		 * (and not 0) in the domain, so the key is too */
		do {
			err = wfi_mr_key(dom, mr);
			if (err) {
				pthread_mutex_unlock(&dom->lock);
				free(mr);
				return err;
			}
		} while (!WFI_KEY_REGION(mr->mr.key) ||
			 region_used(dom, WFI_KEY_REGION(mr->mr.key)));
		/* Direct Map and the kernel's reads and atomics name the MR
		 * offset, or with FI_MR_VIRT_ADDR the address: the region is
		 * exactly the MR's bytes (WIND_REGION_F_VADDR), with the
		 * MR's remote access (wfi_region_add()) */
		if ((access & (FI_REMOTE_WRITE | FI_REMOTE_READ)) && len &&
		    len <= (1ULL << 30)) {
			mr->region = WFI_KEY_REGION(mr->mr.key);
			mr->kregion = true;
			/* no socket that refuses it (it overlaps another
			 * region, or RLIMIT_MEMLOCK) may be told a Direct Map
			 * target: the answers of this domain's endpoints say
			 * "Direct Map" only while every socket took it */
			for (pos = dom->eps.next; pos != &dom->eps; pos = pos->next)
				if (wfi_region_add(wfi_container_of(pos, struct wfi_ep, dlink), mr))
					mr->kregion = false;
		}
	} else {
		if (key_used(dom, requested_key)) {
			pthread_mutex_unlock(&dom->lock);
			free(mr);
			return -FI_ENOKEY;
		}
		mr->mr.key = requested_key;
	}
	wfi_list_add_tail(&dom->mrs, &mr->link);
	dom->refs++;
	pthread_mutex_unlock(&dom->lock);
	*mrp = &mr->mr;
	return 0;
}

static int mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
		   uint64_t access, uint64_t offset, uint64_t requested_key,
		   uint64_t flags, struct fid_mr **mr, void *context)
{
	if (count > 1)
		return -FI_EINVAL;
	return mr_reg(fid, count ? iov->iov_base : NULL, count ? iov->iov_len : 0,
		      access, offset, requested_key, flags, mr, context);
}

static int mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
		      uint64_t flags, struct fid_mr **mr)
{
	return mr_regv(fid, attr->mr_iov, attr->iov_count, attr->access,
		       attr->offset, attr->requested_key, flags, mr,
		       attr->context);
}

static struct fi_ops_mr domain_mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = mr_reg,
	.regv = mr_regv,
	.regattr = mr_regattr,
};

/* --- addresses --- */

socklen_t wfi_addr_len(const union wfi_addr *a)
{
	return a->sa.sa_family == AF_INET6 ? sizeof(a->sin6) : sizeof(a->sin);
}

/* An IPv4 peer v4-mapped (an AF_INET6 socket's view) as a sockaddr_in;
 * the padding zeroed. */
void wfi_addr_norm(union wfi_addr *a)
{
	if (a->sa.sa_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&a->sin6.sin6_addr)) {
		struct sockaddr_in sin = {
			.sin_family = AF_INET, .sin_port = a->sin6.sin6_port,
		};

		memcpy(&sin.sin_addr, &a->sin6.sin6_addr.s6_addr[12], 4);
		memset(a, 0, sizeof(*a));
		a->sin = sin;
	} else if (a->sa.sa_family == AF_INET) {
		memset(a->sin.sin_zero, 0, sizeof(a->sin.sin_zero));
	} else if (a->sa.sa_family == AF_INET6) {
		a->sin6.sin6_flowinfo = 0;
	}
}

bool wfi_addr_same(const union wfi_addr *a, const union wfi_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET6)
		return a->sin6.sin6_port == b->sin6.sin6_port &&
		       !memcmp(&a->sin6.sin6_addr, &b->sin6.sin6_addr,
			       sizeof(a->sin6.sin6_addr)) &&
		       (!a->sin6.sin6_scope_id || !b->sin6.sin6_scope_id ||
			a->sin6.sin6_scope_id == b->sin6.sin6_scope_id);
	return a->sin.sin_port == b->sin.sin_port &&
	       a->sin.sin_addr.s_addr == b->sin.sin_addr.s_addr;
}

/* "10.0.0.1:7000" or "[fd00::1]:7000" */
const char *wfi_addr_str(const union wfi_addr *a, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";

	if (a->sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &a->sin6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, ntohs(a->sin6.sin6_port));
	} else {
		inet_ntop(AF_INET, &a->sin.sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, ntohs(a->sin.sin_port));
	}
	return buf;
}

/**
 * wfi_addr_to() - a peer's address as the endpoint's socket takes it
 * @ep: the endpoint
 * @a: the peer (normalized)
 * @out: where to put it
 *
 * An IPv4 peer of an AF_INET6 endpoint goes v4-mapped; an IPv6 peer of
 * an AF_INET one stays as it is, and the send fails (EAFNOSUPPORT).
 *
 * Return: its length.
 */
socklen_t wfi_addr_to(const struct wfi_ep *ep, const union wfi_addr *a,
		      union wfi_addr *out)
{
	if (ep->name.sa.sa_family == AF_INET6 && a->sa.sa_family == AF_INET) {
		memset(out, 0, sizeof(*out));
		out->sin6.sin6_family = AF_INET6;
		out->sin6.sin6_port = a->sin.sin_port;
		out->sin6.sin6_addr.s6_addr[10] = 0xff;
		out->sin6.sin6_addr.s6_addr[11] = 0xff;
		memcpy(&out->sin6.sin6_addr.s6_addr[12], &a->sin.sin_addr, 4);
		return sizeof(out->sin6);
	}
	*out = *a;
	return wfi_addr_len(a);
}

/* --- address vectors --- */

static int av_grow(struct wfi_av *av, size_t want)
{
	size_t cap = av->cap ? av->cap : 16;
	union wfi_addr *a;
	bool *u;

	while (cap < want)
		cap *= 2;
	if (cap == av->cap)
		return 0;
	a = realloc(av->addrs, cap * sizeof(*a));
	if (!a)
		return -FI_ENOMEM;
	av->addrs = a;
	u = realloc(av->used, cap * sizeof(*u));
	if (!u)
		return -FI_ENOMEM;
	memset(u + av->cap, 0, (cap - av->cap) * sizeof(*u));
	av->used = u;
	av->cap = cap;
	return 0;
}

static int av_insert(struct fid_av *fav, const void *addr, size_t count,
		     fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct wfi_av *av = wfi_container_of(fav, struct wfi_av, av);
	const char *p = addr;
	size_t i;
	int n = 0;

	(void)context;
	if (flags & ~(FI_MORE | FI_SYNC_ERR))
		return -FI_EBADFLAGS;
	pthread_mutex_lock(&av->dom->lock);
	if (av_grow(av, av->count + count)) {
		pthread_mutex_unlock(&av->dom->lock);
		return -FI_ENOMEM;
	}
	for (i = 0; i < count; i++) {
		union wfi_addr a = { 0 };
		sa_family_t family;

		memcpy(&family, p, sizeof(family));
		if (family == AF_INET) {
			memcpy(&a.sin, p, sizeof(a.sin));
			p += sizeof(a.sin);
		} else if (family == AF_INET6) {
			memcpy(&a.sin6, p, sizeof(a.sin6));
			p += sizeof(a.sin6);
		} else {
			/* the rest cannot be told apart */
			for (; i < count; i++)
				if (fi_addr)
					fi_addr[i] = FI_ADDR_NOTAVAIL;
			break;
		}
		wfi_addr_norm(&a);
		av->addrs[av->count] = a;
		av->used[av->count] = true;
		if (fi_addr)
			fi_addr[i] = av->count;
		av->count++;
		n++;
	}
	pthread_mutex_unlock(&av->dom->lock);
	return n;
}

static int av_insertsvc(struct fid_av *fav, const char *node,
			const char *service, fi_addr_t *fi_addr,
			uint64_t flags, void *context)
{
	struct fi_info *fi = NULL;
	int ret;

	ret = wfi_getinfo(WFI_API_VERSION, node, service, 0, NULL, &fi);
	if (ret)
		return ret;
	ret = av_insert(fav, fi->dest_addr, 1, fi_addr, flags, context);
	fi_freeinfo(fi);
	return ret;
}

static int av_insertsym(struct fid_av *fav, const char *node, size_t nodecnt,
			const char *service, size_t svccnt, fi_addr_t *fi_addr,
			uint64_t flags, void *context)
{
	struct in6_addr base6;
	struct in_addr base;
	size_t i, j;
	int port, n = 0, ret;
	bool v6 = false;

	if (inet_pton(AF_INET, node, &base) != 1) {
		if (inet_pton(AF_INET6, node, &base6) != 1)
			return -FI_EINVAL;
		v6 = true;
	}
	port = atoi(service);
	for (i = 0; i < nodecnt; i++) {
		for (j = 0; j < svccnt; j++) {
			union wfi_addr a = { 0 };

			if (v6) {
				uint32_t last;

				/* the i-th after node: in its last 32 bits */
				a.sin6.sin6_family = AF_INET6;
				a.sin6.sin6_addr = base6;
				memcpy(&last, &base6.s6_addr[12], 4);
				last = htonl(ntohl(last) + i);
				memcpy(&a.sin6.sin6_addr.s6_addr[12], &last, 4);
				a.sin6.sin6_port = htons(port + j);
			} else {
				a.sin.sin_family = AF_INET;
				a.sin.sin_addr.s_addr = htonl(ntohl(base.s_addr) + i);
				a.sin.sin_port = htons(port + j);
			}
			ret = av_insert(fav, &a, 1, fi_addr ? &fi_addr[n] : NULL,
					flags, context);
			if (ret < 0)
				return ret;
			n++;
		}
	}
	return n;
}

static int av_remove(struct fid_av *fav, fi_addr_t *fi_addr, size_t count,
		     uint64_t flags)
{
	struct wfi_av *av = wfi_container_of(fav, struct wfi_av, av);
	size_t i;

	(void)flags;
	pthread_mutex_lock(&av->dom->lock);
	for (i = 0; i < count; i++)
		if (fi_addr[i] < av->count)
			av->used[fi_addr[i]] = false;
	pthread_mutex_unlock(&av->dom->lock);
	return 0;
}

const union wfi_addr *wfi_av_addr(struct wfi_av *av, fi_addr_t addr)
{
	if (!av || addr >= av->count || !av->used[addr])
		return NULL;
	return &av->addrs[addr];
}

int wfi_av_reverse(struct wfi_av *av, const union wfi_addr *sin,
		   fi_addr_t *out)
{
	size_t i;

	for (i = 0; av && i < av->count; i++) {
		if (av->used[i] && wfi_addr_same(&av->addrs[i], sin)) {
			*out = i;
			return 0;
		}
	}
	*out = FI_ADDR_NOTAVAIL;
	return -FI_ENODATA;
}

static int av_lookup(struct fid_av *fav, fi_addr_t fi_addr, void *addr,
		     size_t *addrlen)
{
	struct wfi_av *av = wfi_container_of(fav, struct wfi_av, av);
	const union wfi_addr *sin;
	size_t want = *addrlen, len = 0;

	pthread_mutex_lock(&av->dom->lock);
	sin = wfi_av_addr(av, fi_addr);
	if (sin) {
		len = wfi_addr_len(sin);
		memcpy(addr, sin, want < len ? want : len);
	}
	pthread_mutex_unlock(&av->dom->lock);
	if (!sin)
		return -FI_EINVAL;
	*addrlen = len;
	return 0;
}

static const char *av_straddr(struct fid_av *fav, const void *addr,
			      char *buf, size_t *len)
{
	union wfi_addr a = { 0 };
	char s[WFI_ADDRSTRLEN];
	sa_family_t family;
	int n;

	(void)fav;
	memcpy(&family, addr, sizeof(family));
	memcpy(&a, addr, family == AF_INET6 ? sizeof(a.sin6) : sizeof(a.sin));
	wfi_addr_str(&a, s, sizeof(s));
	n = snprintf(buf, *len, "%s://%s",
		     family == AF_INET6 ? "fi_sockaddr_in6" : "fi_sockaddr_in", s);
	*len = n + 1;
	return buf;
}

static int av_close(struct fid *fid)
{
	struct wfi_av *av = wfi_container_of(fid, struct wfi_av, av.fid);

	if (av->refs)
		return -FI_EBUSY;
	pthread_mutex_lock(&av->dom->lock);
	av->dom->refs--;
	pthread_mutex_unlock(&av->dom->lock);
	free(av->addrs);
	free(av->used);
	free(av);
	return 0;
}

static struct fi_ops av_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = av_close,
	.bind = wfi_no_bind,
	.control = wfi_no_control,
	.ops_open = wfi_no_ops_open,
};

static int av_no_set(struct fid_av *av, struct fi_av_set_attr *attr,
		     struct fid_av_set **av_set, void *context)
{
	(void)av; (void)attr; (void)av_set; (void)context;
	return -FI_ENOSYS;
}

static struct fi_ops_av av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = av_insert,
	.insertsvc = av_insertsvc,
	.insertsym = av_insertsym,
	.remove = av_remove,
	.lookup = av_lookup,
	.straddr = av_straddr,
	.av_set = av_no_set,
};

int wfi_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		struct fid_av **avp, void *context)
{
	struct wfi_domain *dom = wfi_container_of(domain, struct wfi_domain, domain);
	struct wfi_av *av;

	if (attr->type != FI_AV_UNSPEC && attr->type != FI_AV_MAP &&
	    attr->type != FI_AV_TABLE)
		return -FI_EINVAL;
	if (attr->flags & (FI_EVENT | FI_READ) || attr->name || attr->rx_ctx_bits)
		return -FI_ENOSYS;
	av = calloc(1, sizeof(*av));
	if (!av)
		return -FI_ENOMEM;
	av->type = attr->type == FI_AV_UNSPEC ? FI_AV_TABLE : attr->type;
	if (attr->count && av_grow(av, attr->count)) {
		free(av);
		return -FI_ENOMEM;
	}
	av->dom = dom;
	av->av.fid.fclass = FI_CLASS_AV;
	av->av.fid.context = context;
	av->av.fid.ops = &av_fi_ops;
	av->av.ops = &av_ops;
	pthread_mutex_lock(&dom->lock);
	dom->refs++;
	pthread_mutex_unlock(&dom->lock);
	*avp = &av->av;
	return 0;
}

/* --- domain --- */

static int domain_close(struct fid *fid)
{
	struct wfi_domain *dom = wfi_container_of(fid, struct wfi_domain, domain.fid);

	if (dom->refs)
		return -FI_EBUSY;
	wfi_thread_stop(dom);
	pthread_mutex_destroy(&dom->lock);
	free(dom);
	return 0;
}

static struct fi_ops domain_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = domain_close,
	.bind = wfi_no_bind,
	.control = wfi_no_control,
	.ops_open = wfi_no_ops_open,
};

static int no_scalable_ep(struct fid_domain *d, struct fi_info *i,
			  struct fid_ep **e, void *c)
{
	(void)d; (void)i; (void)e; (void)c;
	return -FI_ENOSYS;
}

static int no_poll_open(struct fid_domain *d, struct fi_poll_attr *a,
			struct fid_poll **p)
{
	(void)d; (void)a; (void)p;
	return -FI_ENOSYS;
}

static int no_stx_ctx(struct fid_domain *d, struct fi_tx_attr *a,
		      struct fid_stx **s, void *c)
{
	(void)d; (void)a; (void)s; (void)c;
	return -FI_ENOSYS;
}

static int no_srx_ctx(struct fid_domain *d, struct fi_rx_attr *a,
		      struct fid_ep **e, void *c)
{
	(void)d; (void)a; (void)e; (void)c;
	return -FI_ENOSYS;
}

static int no_query_collective(struct fid_domain *d, enum fi_collective_op op,
			       struct fi_collective_attr *a, uint64_t f)
{
	(void)d; (void)op; (void)a; (void)f;
	return -FI_ENOSYS;
}

static struct fi_ops_domain domain_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = wfi_av_open,
	.cq_open = wfi_cq_open,
	.endpoint = wfi_endpoint,
	.scalable_ep = no_scalable_ep,
	.cntr_open = wfi_cntr_open,
	.poll_open = no_poll_open,
	.stx_ctx = no_stx_ctx,
	.srx_ctx = no_srx_ctx,
	.query_atomic = wfi_query_atomic,
	.query_collective = no_query_collective,
};

int wfi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **domp, void *context)
{
	struct wfi_fabric *fab = wfi_container_of(fabric, struct wfi_fabric, fabric);
	struct wfi_domain *dom;

	if (info && info->domain_attr && info->domain_attr->name &&
	    strcmp(info->domain_attr->name, WFI_NAME))
		return -FI_EINVAL;
	dom = calloc(1, sizeof(*dom));
	if (!dom)
		return -FI_ENOMEM;
	pthread_mutex_init(&dom->lock, NULL);
	wfi_list_init(&dom->mrs);
	wfi_list_init(&dom->eps);
	dom->mr_mode = info && info->domain_attr ? info->domain_attr->mr_mode : 0;
	dom->rma_event = info && (info->caps & FI_RMA_EVENT);
	/* a progress thread unless the application asked for manual
	 * progress (fi_getinfo said which) */
	dom->auto_progress = wfi_progress_auto &&
		!(info && info->domain_attr &&
		  info->domain_attr->data_progress == FI_PROGRESS_MANUAL);
	dom->wake_fd = dom->done_fd = -1;
	if (dom->mr_mode == FI_MR_BASIC)
		dom->mr_mode = FI_MR_PROV_KEY | FI_MR_VIRT_ADDR;
	else if (dom->mr_mode == FI_MR_SCALABLE)
		dom->mr_mode = 0;
	dom->fab = fab;
	dom->api_version = fabric->api_version ? fabric->api_version : fab->api_version;
	dom->domain.fid.fclass = FI_CLASS_DOMAIN;
	dom->domain.fid.context = context;
	dom->domain.fid.ops = &domain_fi_ops;
	dom->domain.ops = &domain_ops;
	dom->domain.mr = &domain_mr_ops;
	*domp = &dom->domain;
	return 0;
}
