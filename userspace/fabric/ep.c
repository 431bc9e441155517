// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: the endpoint object.  An endpoint is one Wind socket
 * bound to an ephemeral port (WIND_RECVERR on, large buffers); its name is
 * that socket's address (sockaddr_in or sockaddr_in6).  Binding, enabling, op flags, names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include "wind_fi.h"

/* --- endpoint object --- */

static int ep_getopt(fid_t fid, int level, int optname, void *optval,
		     size_t *optlen)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);

	if (level != FI_OPT_ENDPOINT || optname != FI_OPT_MIN_MULTI_RECV)
		return -FI_ENOPROTOOPT;
	if (!optval || !optlen || *optlen < sizeof(size_t))
		return -FI_EINVAL;
	pthread_mutex_lock(&ep->dom->lock);
	*(size_t *)optval = ep->min_multi_recv;
	pthread_mutex_unlock(&ep->dom->lock);
	*optlen = sizeof(size_t);
	return 0;
}

static int ep_setopt(fid_t fid, int level, int optname, const void *optval,
		     size_t optlen)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);

	if (level != FI_OPT_ENDPOINT || optname != FI_OPT_MIN_MULTI_RECV)
		return -FI_ENOPROTOOPT;
	if (!optval || optlen != sizeof(size_t))
		return -FI_EINVAL;
	/* buffers posted from now on */
	pthread_mutex_lock(&ep->dom->lock);
	ep->min_multi_recv = *(const size_t *)optval;
	pthread_mutex_unlock(&ep->dom->lock);
	return 0;
}

static int no_ctx(struct fid_ep *sep, int index, void *attr,
		  struct fid_ep **ep, void *context)
{
	(void)sep; (void)index; (void)attr; (void)ep; (void)context;
	return -FI_ENOSYS;
}

static int no_tx_ctx(struct fid_ep *sep, int index, struct fi_tx_attr *attr,
		     struct fid_ep **ep, void *context)
{
	return no_ctx(sep, index, attr, ep, context);
}

static int no_rx_ctx(struct fid_ep *sep, int index, struct fi_rx_attr *attr,
		     struct fid_ep **ep, void *context)
{
	return no_ctx(sep, index, attr, ep, context);
}

static ssize_t ep_size_left(struct fid_ep *ep)
{
	(void)ep;
	return WFI_QUEUE_SIZE;
}

static struct fi_ops_ep ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = wfi_ep_cancel,
	.getopt = ep_getopt,
	.setopt = ep_setopt,
	.tx_ctx = no_tx_ctx,
	.rx_ctx = no_rx_ctx,
	.rx_size_left = ep_size_left,
	.tx_size_left = ep_size_left,
};

static int ep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	size_t want = *addrlen, len = wfi_addr_len(&ep->name);

	*addrlen = len;
	if (want < len)
		return -FI_ETOOSMALL;
	memcpy(addr, &ep->name, len);
	return 0;
}

static int cm_nosys(void)
{
	return -FI_ENOSYS;
}

static int cm_setname(fid_t fid, void *addr, size_t addrlen)
{
	(void)fid; (void)addr; (void)addrlen;
	return cm_nosys();
}

static int cm_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen)
{
	(void)ep; (void)addr; (void)addrlen;
	return cm_nosys();
}

static int cm_connect(struct fid_ep *ep, const void *addr, const void *param,
		      size_t paramlen)
{
	(void)ep; (void)addr; (void)param; (void)paramlen;
	return cm_nosys();
}

static int cm_listen(struct fid_pep *pep)
{
	(void)pep;
	return cm_nosys();
}

static int cm_accept(struct fid_ep *ep, const void *param, size_t paramlen)
{
	(void)ep; (void)param; (void)paramlen;
	return cm_nosys();
}

static int cm_reject(struct fid_pep *pep, fid_t handle, const void *param,
		     size_t paramlen)
{
	(void)pep; (void)handle; (void)param; (void)paramlen;
	return cm_nosys();
}

static int cm_shutdown(struct fid_ep *ep, uint64_t flags)
{
	(void)ep; (void)flags;
	return cm_nosys();
}

static int cm_join(struct fid_ep *ep, const void *addr, uint64_t flags,
		   struct fid_mc **mc, void *context)
{
	(void)ep; (void)addr; (void)flags; (void)mc; (void)context;
	return cm_nosys();
}

static struct fi_ops_cm cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = cm_setname,
	.getname = ep_getname,
	.getpeer = cm_getpeer,
	.connect = cm_connect,
	.listen = cm_listen,
	.accept = cm_accept,
	.reject = cm_reject,
	.shutdown = cm_shutdown,
	.join = cm_join,
};

static int ep_close(struct fid *fid)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	struct wfi_domain *dom = ep->dom;

	if (wfi_stats) {
		char name[WFI_ADDRSTRLEN];

		fprintf(stderr, "fi_wind: endpoint %s: RMA writes %llu Direct Map, %llu software (%llu refused as Direct Map); reads %llu; atomics %llu; requests served %llu; messages chunked %llu sent, %llu received; one-sided by the targets' kernels: %llu reads, %llu atomic operations\n",
			wfi_addr_str(&ep->name, name, sizeof(name)),
			(unsigned long long)ep->stat_dm_writes,
			(unsigned long long)ep->stat_sw_writes,
			(unsigned long long)ep->stat_dm_refused,
			(unsigned long long)ep->stat_reads,
			(unsigned long long)ep->stat_atomics,
			(unsigned long long)ep->stat_served,
			(unsigned long long)ep->stat_chunked_tx,
			(unsigned long long)ep->stat_chunked_rx,
			(unsigned long long)ep->stat_kreads,
			(unsigned long long)ep->stat_katomics);
	}
	pthread_mutex_lock(&dom->lock);
	if (ep->tx_cq) {
		wfi_detach(ep->tx_cq->eps, &ep->tx_cq->neps, ep);
		ep->tx_cq->refs--;
	}
	if (ep->rx_cq) {
		if (ep->rx_cq != ep->tx_cq)
			wfi_detach(ep->rx_cq->eps, &ep->rx_cq->neps, ep);
		ep->rx_cq->refs--;
	}
	if (ep->send_cntr) {
		wfi_detach(ep->send_cntr->eps, &ep->send_cntr->neps, ep);
		ep->send_cntr->refs--;
	}
	if (ep->recv_cntr) {
		if (ep->recv_cntr != ep->send_cntr)
			wfi_detach(ep->recv_cntr->eps, &ep->recv_cntr->neps, ep);
		ep->recv_cntr->refs--;
	}
	if (ep->read_cntr) {
		wfi_detach(ep->read_cntr->eps, &ep->read_cntr->neps, ep);
		ep->read_cntr->refs--;
	}
	if (ep->write_cntr) {
		if (ep->write_cntr != ep->read_cntr)
			wfi_detach(ep->write_cntr->eps, &ep->write_cntr->neps, ep);
		ep->write_cntr->refs--;
	}
	if (ep->rread_cntr) {
		wfi_detach(ep->rread_cntr->eps, &ep->rread_cntr->neps, ep);
		ep->rread_cntr->refs--;
	}
	if (ep->rwrite_cntr) {
		wfi_detach(ep->rwrite_cntr->eps, &ep->rwrite_cntr->neps, ep);
		ep->rwrite_cntr->refs--;
	}
	if (ep->av)
		ep->av->refs--;
	wfi_ep_free_lists(ep);
	wfi_rma_free(ep);
	wfi_stash_free(ep);
	wfi_peers_free(ep);
	wfi_list_del(&ep->dlink);
	dom->refs--;
	pthread_mutex_unlock(&dom->lock);
	/* off the list: the progress thread no longer looks at it, and
	 * polls the others without its socket */
	wfi_thread_kick(dom);
	/* close() flushes: Wind delivers what we queued, or gives up on a
	 * dead peer within its documented bound */
	if (ep->fd >= 0)
		close(ep->fd);
	fi_freeinfo(ep->info);
	free(ep);
	return 0;
}

static int ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	int ret = 0;

	pthread_mutex_lock(&ep->dom->lock);
	switch (bfid->fclass) {
	case FI_CLASS_AV: {
		struct wfi_av *av = wfi_container_of(bfid, struct wfi_av, av.fid);

		if (ep->av) {
			ret = -FI_EINVAL;
			break;
		}
		ep->av = av;
		av->refs++;
		break;
	}
	case FI_CLASS_CQ: {
		struct wfi_cq *cq = wfi_container_of(bfid, struct wfi_cq, cq.fid);

		if (flags & ~(FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION)) {
			ret = -FI_EBADFLAGS;
			break;
		}
		if (((flags & FI_TRANSMIT) && ep->tx_cq) ||
		    ((flags & FI_RECV) && ep->rx_cq)) {
			ret = -FI_EINVAL;
			break;
		}
		ret = wfi_attach(&cq->eps, &cq->neps, ep);
		if (ret)
			break;
		if (flags & FI_TRANSMIT) {
			ep->tx_cq = cq;
			ep->tx_selective = flags & FI_SELECTIVE_COMPLETION;
			cq->refs++;
		}
		if (flags & FI_RECV) {
			ep->rx_cq = cq;
			ep->rx_selective = flags & FI_SELECTIVE_COMPLETION;
			cq->refs++;
		}
		break;
	}
	case FI_CLASS_CNTR: {
		struct wfi_cntr *c = wfi_container_of(bfid, struct wfi_cntr, cntr.fid);

		/* FI_REMOTE_READ and FI_REMOTE_WRITE need FI_RMA_EVENT,
		 * which makes Direct Map writes leave a header for us */
		if (flags & ~(FI_SEND | FI_RECV | FI_READ | FI_WRITE |
			      FI_REMOTE_READ | FI_REMOTE_WRITE) ||
		    ((flags & (FI_REMOTE_READ | FI_REMOTE_WRITE)) &&
		     !(ep->info->caps & FI_RMA_EVENT))) {
			ret = -FI_EBADFLAGS;
			break;
		}
		ret = wfi_attach(&c->eps, &c->neps, ep);
		if (ret)
			break;
		if (flags & FI_SEND) {
			if (ep->send_cntr)
				ep->send_cntr->refs--;
			ep->send_cntr = c;
			c->refs++;
		}
		if (flags & FI_RECV) {
			if (ep->recv_cntr)
				ep->recv_cntr->refs--;
			ep->recv_cntr = c;
			c->refs++;
		}
		if (flags & FI_READ) {
			if (ep->read_cntr)
				ep->read_cntr->refs--;
			ep->read_cntr = c;
			c->refs++;
		}
		if (flags & FI_WRITE) {
			if (ep->write_cntr)
				ep->write_cntr->refs--;
			ep->write_cntr = c;
			c->refs++;
		}
		if (flags & FI_REMOTE_READ) {
			if (ep->rread_cntr)
				ep->rread_cntr->refs--;
			ep->rread_cntr = c;
			c->refs++;
		}
		if (flags & FI_REMOTE_WRITE) {
			if (ep->rwrite_cntr)
				ep->rwrite_cntr->refs--;
			ep->rwrite_cntr = c;
			c->refs++;
		}
		break;
	}
	case FI_CLASS_EQ:
		break;		/* an RDM endpoint has no connection events */
	default:
		ret = -FI_EINVAL;
	}
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static int ep_control(struct fid *fid, int command, void *arg)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	uint64_t *flags = arg;
	int ret = 0;

	pthread_mutex_lock(&ep->dom->lock);
	switch (command) {
	case FI_ENABLE:
		if (!ep->av || (!ep->tx_cq && !ep->send_cntr) ||
		    (!ep->rx_cq && !ep->recv_cntr))
			ret = -FI_ENOCQ;
		if (!ep->av)
			ret = -FI_ENOAV;
		if (!ret && ep->dom->auto_progress)
			ret = wfi_thread_start(ep->dom);
		if (!ret) {
			ep->enabled = true;
			/* the thread polls its socket from now on */
			wfi_thread_kick(ep->dom);
		}
		break;
	case FI_GETOPSFLAG:
		if (*flags & FI_TRANSMIT)
			*flags = ep->tx_op_flags;
		else if (*flags & FI_RECV)
			*flags = ep->rx_op_flags;
		else
			ret = -FI_EINVAL;
		break;
	case FI_SETOPSFLAG:
		if (*flags & FI_TRANSMIT)
			ep->tx_op_flags = *flags & ~(FI_TRANSMIT | WFI_INJECT_CALL);
		else if (*flags & FI_RECV)
			ep->rx_op_flags = *flags & ~FI_RECV;
		else
			ret = -FI_EINVAL;
		break;
	default:
		ret = -FI_ENOSYS;
	}
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static struct fi_ops ep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = ep_close,
	.bind = ep_bind,
	.control = ep_control,
	.ops_open = wfi_no_ops_open,
};

/* The address an endpoint binds to: FI_WIND_IFACE's, else the first up
 * non-loopback address of the family (IPv6: not link-local), else the
 * loopback address. */
static void pick_addr(union wfi_addr *out)
{
	int family = out->sa.sa_family;
	struct ifaddrs *ifa, *i;
	char *iface = NULL;

	if (family == AF_INET6)
		out->sin6.sin6_addr = in6addr_loopback;
	else
		out->sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fi_param_get_str(&wfi_prov, "iface", &iface);
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != family ||
		    !(i->ifa_flags & IFF_UP))
			continue;
		if (iface ? strcmp(iface, i->ifa_name) :
			    !!(i->ifa_flags & IFF_LOOPBACK))
			continue;
		if (family == AF_INET6) {
			const struct sockaddr_in6 *s6 = (void *)i->ifa_addr;

			if (IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr))
				continue;
			out->sin6.sin6_addr = s6->sin6_addr;
		} else {
			out->sin.sin_addr = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		}
		break;
	}
	freeifaddrs(ifa);
}

static void set_buf(int fd, int force, int plain, size_t want)
{
	int v = want > (size_t)(1 << 30) ? 1 << 30 : (int)want;

	if (setsockopt(fd, SOL_SOCKET, force, &v, sizeof(v)))
		setsockopt(fd, SOL_SOCKET, plain, &v, sizeof(v));
}

static int open_socket(struct wfi_ep *ep)
{
	union wfi_addr sin = { .sa.sa_family = AF_INET };
	socklen_t sl = sizeof(ep->name);
	int one = 1;

	/* the family: src_addr's, else the info's address format */
	if (ep->info->src_addr && ep->info->src_addrlen >= sizeof(sa_family_t)) {
		const struct sockaddr *sa = ep->info->src_addr;

		if (sa->sa_family == AF_INET6 &&
		    ep->info->src_addrlen >= sizeof(sin.sin6))
			memcpy(&sin.sin6, sa, sizeof(sin.sin6));
		else if (sa->sa_family == AF_INET &&
			 ep->info->src_addrlen >= sizeof(sin.sin))
			memcpy(&sin.sin, sa, sizeof(sin.sin));
		else
			return -FI_EINVAL;
	} else if (ep->info->addr_format == FI_SOCKADDR_IN6) {
		sin.sa.sa_family = AF_INET6;
	}
	if (sin.sa.sa_family == AF_INET6 ?
	    IN6_IS_ADDR_UNSPECIFIED(&sin.sin6.sin6_addr) :
	    sin.sin.sin_addr.s_addr == htonl(INADDR_ANY))
		pick_addr(&sin);
	ep->fd = socket(sin.sa.sa_family, SOCK_WIND | SOCK_CLOEXEC, 0);
	if (ep->fd < 0) {
		WFI_WARN(FI_LOG_EP_CTRL, "socket(%s, SOCK_WIND): %s\n",
			 sin.sa.sa_family == AF_INET6 ? "AF_INET6" : "AF_INET",
			 strerror(errno));
		return -FI_ENODEV;
	}
	if (setsockopt(ep->fd, SOL_WIND, WIND_RECVERR, &one, sizeof(one)))
		goto err;
	set_buf(ep->fd, SO_SNDBUFFORCE, SO_SNDBUF, wfi_param_size("sndbuf", 64u << 20));
	set_buf(ep->fd, SO_RCVBUFFORCE, SO_RCVBUF, wfi_param_size("rcvbuf", 64u << 20));
	if (bind(ep->fd, &sin.sa, wfi_addr_len(&sin)))
		goto err;
	if (getsockname(ep->fd, (struct sockaddr *)&ep->name, &sl))
		goto err;
	return 0;
err:
	WFI_WARN(FI_LOG_EP_CTRL, "Wind socket setup: %s\n", strerror(errno));
	close(ep->fd);
	ep->fd = -1;
	return -errno;
}

int wfi_endpoint(struct fid_domain *domain, struct fi_info *info,
		 struct fid_ep **epp, void *context)
{
	struct wfi_domain *dom = wfi_container_of(domain, struct wfi_domain, domain);
	struct wfi_ep *ep;
	int op, ret;

	if (!info || !info->ep_attr || info->ep_attr->type != FI_EP_RDM)
		return -FI_EINVAL;
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -FI_ENOMEM;
	ep->info = fi_dupinfo(info);
	if (!ep->info) {
		free(ep);
		return -FI_ENOMEM;
	}
	ep->dom = dom;
	ep->fd = -1;
	for (op = 0; op < 3; op++) {
		wfi_list_init(&ep->posted[op]);
		wfi_list_init(&ep->unexp[op]);
	}
	ep->unexp_max = wfi_param_size("unexp_max", 64u << 20);
	ep->min_multi_recv = WFI_MIN_MULTI_RECV;
	ep->probe_ms = wfi_param_size("probe_ms", 2000);
	ep->chunk = wfi_param_size("chunk", WFI_CHUNK_DEFAULT);
	if (ep->chunk && ep->chunk < WFI_CHUNK_MIN)
		ep->chunk = WFI_CHUNK_MIN;
	wfi_list_init(&ep->rxcs);
	wfi_list_init(&ep->peers);
	ep->connect_ms = wfi_param_size("connect_ms", 10000);
	ep->tx_op_flags = info->tx_attr ?
			  info->tx_attr->op_flags & ~WFI_INJECT_CALL : 0;
	ep->rx_op_flags = info->rx_attr ? info->rx_attr->op_flags : 0;
	ret = open_socket(ep);
	if (ret) {
		fi_freeinfo(ep->info);
		free(ep);
		return ret;
	}
	ep->ep.fid.fclass = FI_CLASS_EP;
	ep->ep.fid.context = context;
	ep->ep.fid.ops = &ep_fi_ops;
	ep->ep.ops = &ep_ops;
	ep->ep.cm = &cm_ops;
	ep->ep.msg = &wfi_msg_ops;
	ep->ep.tagged = &wfi_tagged_ops;
	ep->ep.rma = &wfi_rma_ops;
	ep->ep.atomic = &wfi_atomic_ops;
	wfi_list_init(&ep->pending);
	pthread_mutex_lock(&dom->lock);
	dom->refs++;
	wfi_list_add_tail(&dom->eps, &ep->dlink);
	/* the MRs registered before this endpoint: regions on its socket */
	{
		struct wfi_list *pos;

		for (pos = dom->mrs.next; pos != &dom->mrs; pos = pos->next) {
			struct wfi_mr *mr = wfi_container_of(pos, struct wfi_mr, link);

			/* a socket that refuses it: no endpoint of the
			 * domain tells initiators "Direct Map" for it */
			if (mr->region && wfi_region_add(ep, mr))
				mr->kregion = false;
		}
	}
	pthread_mutex_unlock(&dom->lock);
	*epp = &ep->ep;
	return 0;
}
