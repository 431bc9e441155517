// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: the provider's entry point, fi_getinfo() and the fabric.
 *
 * fi_getinfo() matches the hints itself (an external provider has none of
 * libfabric's internal helpers): every attribute a caller asks for is
 * compared with what the provider really does, and one fi_info is
 * returned, or -FI_ENODATA.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "wind_fi.h"

int wfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	(void)fid; (void)bfid; (void)flags;
	return -FI_ENOSYS;
}

int wfi_no_control(struct fid *fid, int command, void *arg)
{
	(void)fid; (void)command; (void)arg;
	return -FI_ENOSYS;
}

int wfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		    void **ops, void *context)
{
	(void)fid; (void)name; (void)flags; (void)ops; (void)context;
	return -FI_ENOSYS;
}

size_t wfi_param_size(const char *name, size_t dflt)
{
	size_t v;

	if (fi_param_get_size_t(&wfi_prov, name, &v) == 0)
		return v;
	return dflt;
}

#define NOMATCH(why) do { \
	FI_INFO(&wfi_prov, FI_LOG_CORE, "hints not met: %s\n", why); \
	return false; \
} while (0)

/* true if every bit of @want is in @have */
static bool subset(uint64_t want, uint64_t have)
{
	return (want & ~have) == 0;
}

/* node/service as an address of @family: AF_INET, AF_INET6, or
 * AF_UNSPEC for IPv4 if the node has an IPv4 address, else IPv6. */
static int resolve(const char *node, const char *service, bool passive,
		   int family, union wfi_addr *out)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res;
	int ret;

	if (passive)
		hints.ai_flags = AI_PASSIVE;
	hints.ai_family = family == AF_INET6 ? AF_INET6 : AF_INET;
	ret = getaddrinfo(node, service, &hints, &res);
	if (ret && family == AF_UNSPEC) {
		hints.ai_family = AF_INET6;
		ret = getaddrinfo(node, service, &hints, &res);
	}
	if (ret)
		return -FI_ENODATA;
	memset(out, 0, sizeof(*out));
	memcpy(out, res->ai_addr, res->ai_addrlen < sizeof(*out) ?
				  res->ai_addrlen : sizeof(*out));
	freeaddrinfo(res);
	wfi_addr_norm(out);
	return 0;
}

static bool tx_ok(const struct fi_tx_attr *h)
{
	if (!h)
		return true;
	if (h->caps && !subset(h->caps, WFI_CAPS))
		NOMATCH("(h->caps && !subset(h->caps, WFI_CAPS))");
	if (!subset(h->msg_order, FI_ORDER_SAS))
		NOMATCH("(!subset(h->msg_order, FI_ORDER_SAS))");
	if (!subset(h->comp_order, FI_ORDER_STRICT))
		NOMATCH("(!subset(h->comp_order, FI_ORDER_STRICT))");
	if (h->inject_size > WFI_INJECT_SIZE || h->size > WFI_QUEUE_SIZE ||
	    h->iov_limit > WFI_IOV_LIMIT || h->rma_iov_limit > 1)
		NOMATCH("(h->inject_size > WFI_INJECT_SIZE || h->size > WFI_QUEUE_SIZE || h->iov_limit > WFI_IOV_LIMIT || h->rma_iov_limit > 1)");
	return true;
}

static bool rx_ok(const struct fi_rx_attr *h, size_t unexp_max)
{
	if (!h)
		return true;
	if (h->caps && !subset(h->caps, WFI_CAPS))
		NOMATCH("(h->caps && !subset(h->caps, WFI_CAPS))");
	if (!subset(h->msg_order, FI_ORDER_SAS))
		NOMATCH("(!subset(h->msg_order, FI_ORDER_SAS))");
	if (!subset(h->comp_order, FI_ORDER_STRICT))
		NOMATCH("(!subset(h->comp_order, FI_ORDER_STRICT))");
	if (h->total_buffered_recv > unexp_max || h->size > WFI_QUEUE_SIZE ||
	    h->iov_limit > WFI_IOV_LIMIT)
		NOMATCH("(h->total_buffered_recv > unexp_max || h->size > WFI_QUEUE_SIZE || h->iov_limit > WFI_IOV_LIMIT)");
	return true;
}

static bool ep_ok(const struct fi_ep_attr *h)
{
	if (!h)
		return true;
	if (h->type != FI_EP_UNSPEC && h->type != FI_EP_RDM)
		NOMATCH("(h->type != FI_EP_UNSPEC && h->type != FI_EP_RDM)");
	if (h->protocol != FI_PROTO_UNSPEC)
		NOMATCH("(h->protocol != FI_PROTO_UNSPEC)");
	if (h->max_msg_size > WFI_MAX_MSG || h->msg_prefix_size ||
	    h->max_order_raw_size || h->max_order_war_size ||
	    h->max_order_waw_size)
		NOMATCH("(h->max_msg_size > WFI_MAX_MSG || h->msg_prefix_size || h->max_order_raw_size || h->max_order_war_size || h->max_order_waw_size)");
	if (h->tx_ctx_cnt > 1 || h->rx_ctx_cnt > 1 || h->auth_key_size)
		NOMATCH("(h->tx_ctx_cnt > 1 || h->rx_ctx_cnt > 1 || h->auth_key_size)");
	return true;
}

static bool domain_ok(const struct fi_domain_attr *h)
{
	if (!h)
		return true;
	if (h->name && strcmp(h->name, WFI_NAME))
		NOMATCH("(h->name && strcmp(h->name, WFI_NAME))");
	/* automatic progress is the progress thread's, unless
	 * FI_WIND_PROGRESS=manual turned it off; manual when asked for */
	if (!wfi_progress_auto && h->data_progress == FI_PROGRESS_AUTO)
		NOMATCH("(!wfi_progress_auto && h->data_progress == FI_PROGRESS_AUTO)");
	if (h->av_type != FI_AV_UNSPEC && h->av_type != FI_AV_MAP &&
	    h->av_type != FI_AV_TABLE)
		NOMATCH("(h->av_type != FI_AV_UNSPEC && h->av_type != FI_AV_MAP && h->av_type != FI_AV_TABLE)");
	/* mr_mode: the modes the caller copes with; we require none */
	if (h->cq_data_size > WFI_CQ_DATA_SIZE || h->tx_ctx_cnt > 1024 ||
	    h->rx_ctx_cnt > 1024 || h->max_ep_tx_ctx > 1 ||
	    h->max_ep_rx_ctx > 1 || h->max_ep_stx_ctx || h->max_ep_srx_ctx ||
	    h->auth_key_size || h->mr_key_size > 8)
		NOMATCH("(h->cq_data_size > WFI_CQ_DATA_SIZE || h->tx_ctx_cnt > 1024 || h->rx_ctx_cnt > 1024 || h->max_ep_tx_ctx > 1 || h->max_ep_rx_ctx > 1 || h->max_ep_stx_ctx || h->max_ep_srx_ctx || h->auth_key_size || h->mr_key_size > 8)");
	if (h->caps && !subset(h->caps, FI_LOCAL_COMM | FI_REMOTE_COMM))
		NOMATCH("(h->caps && !subset(h->caps, FI_LOCAL_COMM | FI_REMOTE_COMM))");
	return true;
}

static int fill_info(struct fi_info *fi, uint32_t version,
		     const struct fi_info *hints)
{
	const struct fi_domain_attr *hd = hints ? hints->domain_attr : NULL;
	size_t unexp_max = wfi_param_size("unexp_max", 64u << 20);
	uint64_t caps = WFI_CAPS;

	if (hints && hints->caps) {
		/* primary capabilities as asked (FI_DIRECTED_RECV is one,
		 * fi_getinfo(3): without it a receive's src_addr is
		 * ignored); the secondary ones we have */
		caps = hints->caps | (WFI_CAPS & (FI_SOURCE |
				FI_LOCAL_COMM | FI_REMOTE_COMM));
		if (!(caps & (FI_SEND | FI_RECV)))
			caps |= FI_SEND | FI_RECV;
		if ((caps & (FI_RMA | FI_ATOMIC)) &&
		    !(caps & (FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)))
			caps |= FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
	}
	fi->caps = caps;
	fi->mode = 0;
	fi->addr_format = FI_SOCKADDR_IN;

	fi->tx_attr->caps = caps & ~(FI_RECV | FI_DIRECTED_RECV | FI_SOURCE |
				     FI_MULTI_RECV | FI_REMOTE_READ |
				     FI_REMOTE_WRITE | FI_RMA_EVENT);
	fi->tx_attr->op_flags = hints && hints->tx_attr ? hints->tx_attr->op_flags : 0;
	fi->tx_attr->msg_order = FI_ORDER_SAS;
	/* sends complete in order; a Direct Map write completes in the
	 * call, before reads and atomics posted earlier whose answers are
	 * still on their way: with FI_RMA or FI_ATOMIC, no completion order */
	fi->tx_attr->comp_order = (caps & (FI_RMA | FI_ATOMIC)) ?
				  FI_ORDER_NONE : FI_ORDER_STRICT;
	fi->tx_attr->inject_size = WFI_INJECT_SIZE;
	fi->tx_attr->size = WFI_QUEUE_SIZE;
	fi->tx_attr->iov_limit = WFI_IOV_LIMIT;
	fi->tx_attr->rma_iov_limit = (caps & (FI_RMA | FI_ATOMIC)) ? 1 : 0;

	fi->rx_attr->caps = caps & ~(FI_SEND | FI_READ | FI_WRITE);
	fi->rx_attr->op_flags = hints && hints->rx_attr ? hints->rx_attr->op_flags : 0;
	fi->rx_attr->msg_order = FI_ORDER_SAS;
	fi->rx_attr->comp_order = FI_ORDER_NONE;
	fi->rx_attr->total_buffered_recv = unexp_max;
	fi->rx_attr->size = WFI_QUEUE_SIZE;
	fi->rx_attr->iov_limit = WFI_IOV_LIMIT;

	fi->ep_attr->type = FI_EP_RDM;
	fi->ep_attr->protocol = FI_PROTO_UNSPEC;
	fi->ep_attr->protocol_version = WFI_HDR_VERSION;
	fi->ep_attr->max_msg_size = WFI_MAX_MSG;
	fi->ep_attr->mem_tag_format = ~0ULL;	/* all 64 bits match */
	fi->ep_attr->tx_ctx_cnt = 1;
	fi->ep_attr->rx_ctx_cnt = 1;

	fi->domain_attr->name = strdup(WFI_NAME);
	fi->domain_attr->threading = FI_THREAD_SAFE;
	/* data: the progress thread's (thread.c) unless manual is asked
	 * for; control: no control operation needs progress (AV, MR and
	 * endpoint calls complete in the call), so either is true and the
	 * caller's wish, else the data's, is said */
	fi->domain_attr->data_progress =
		wfi_progress_auto && !(hd && hd->data_progress == FI_PROGRESS_MANUAL) ?
		FI_PROGRESS_AUTO : FI_PROGRESS_MANUAL;
	fi->domain_attr->control_progress =
		hd && hd->control_progress != FI_PROGRESS_UNSPEC ?
		hd->control_progress : fi->domain_attr->data_progress;
	fi->domain_attr->resource_mgmt = FI_RM_ENABLED;
	fi->domain_attr->av_type = hd ? hd->av_type : FI_AV_UNSPEC;
	/* Keys of our own (FI_MR_PROV_KEY) when the caller copes with them:
	 * they make fi_write a Direct Map message.  Remote addresses are
	 * offsets into the MR (no FI_MR_VIRT_ADDR), except in FI_MR_BASIC. */
	if (FI_VERSION_LT(version, FI_VERSION(1, 5)))
		fi->domain_attr->mr_mode = hd && hd->mr_mode ? hd->mr_mode : FI_MR_SCALABLE;
	else if (hd && (hd->mr_mode == FI_MR_BASIC || hd->mr_mode == FI_MR_SCALABLE))
		fi->domain_attr->mr_mode = hd->mr_mode;
	else if (hd && (hd->mr_mode & FI_MR_PROV_KEY))
		fi->domain_attr->mr_mode = FI_MR_PROV_KEY;
	else
		fi->domain_attr->mr_mode = 0;
	fi->domain_attr->mr_key_size = 8;
	fi->domain_attr->cq_data_size = WFI_CQ_DATA_SIZE;
	fi->domain_attr->cq_cnt = 1024;
	fi->domain_attr->ep_cnt = 1024;
	fi->domain_attr->tx_ctx_cnt = 1024;
	fi->domain_attr->rx_ctx_cnt = 1024;
	fi->domain_attr->max_ep_tx_ctx = 1;
	fi->domain_attr->max_ep_rx_ctx = 1;
	fi->domain_attr->cntr_cnt = 1024;
	fi->domain_attr->mr_iov_limit = 1;
	fi->domain_attr->caps = FI_LOCAL_COMM | FI_REMOTE_COMM;
	fi->domain_attr->mr_cnt = 65536;

	fi->fabric_attr->name = strdup(WFI_NAME);
	fi->fabric_attr->prov_version = WFI_VERSION;
	fi->fabric_attr->api_version = version;
	if (!fi->domain_attr->name || !fi->fabric_attr->name)
		return -FI_ENOMEM;
	return 0;
}

static int set_addr(void **dst, size_t *dstlen, const union wfi_addr *a)
{
	size_t len = wfi_addr_len(a);

	*dst = malloc(len);
	if (!*dst)
		return -FI_ENOMEM;
	memcpy(*dst, a, len);
	*dstlen = len;
	return 0;
}

/* The address family a hint's address has (0: none), -1 if it is no
 * address of ours or not of @format. */
static int addr_family(const void *addr, size_t len, uint32_t format)
{
	const struct sockaddr *sa = addr;

	if (!addr)
		return 0;
	if (len < sizeof(struct sockaddr_in))
		return -1;
	if (sa->sa_family == AF_INET &&
	    (format == FI_FORMAT_UNSPEC || format == FI_SOCKADDR_IN ||
	     format == FI_SOCKADDR))
		return AF_INET;
	if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6) &&
	    (format == FI_FORMAT_UNSPEC || format == FI_SOCKADDR_IN6 ||
	     format == FI_SOCKADDR))
		return AF_INET6;
	return -1;
}

/* A hint's address as we keep it (an IPv4 one that is v4-mapped too). */
static void hint_addr(union wfi_addr *out, const void *addr, int family)
{
	memset(out, 0, sizeof(*out));
	memcpy(out, addr, family == AF_INET6 ? sizeof(out->sin6) :
					       sizeof(out->sin));
	wfi_addr_norm(out);
}

int wfi_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info)
{
	union wfi_addr sin, src = { 0 }, dst = { 0 };
	int family = AF_UNSPEC, sf = 0, df = 0;
	struct fi_info *fi;
	int ret;

	*info = NULL;
	if (FI_VERSION_LT(WFI_API_VERSION, version))
		return -FI_ENODATA;
	if (hints) {
		size_t unexp_max = wfi_param_size("unexp_max", 64u << 20);

		if (!subset(hints->caps, WFI_CAPS))
			return -FI_ENODATA;
		if (hints->addr_format == FI_SOCKADDR_IN)
			family = AF_INET;
		else if (hints->addr_format == FI_SOCKADDR_IN6)
			family = AF_INET6;
		else if (hints->addr_format != FI_FORMAT_UNSPEC &&
			 hints->addr_format != FI_SOCKADDR)
			return -FI_ENODATA;
		sf = addr_family(hints->src_addr, hints->src_addrlen,
				 hints->addr_format);
		df = addr_family(hints->dest_addr, hints->dest_addrlen,
				 hints->addr_format);
		if (sf < 0 || df < 0 || (sf && df && sf != df)) {
			FI_INFO(&wfi_prov, FI_LOG_CORE,
				"hints not met: src_addr or dest_addr\n");
			return -FI_ENODATA;
		}
		if (sf)
			hint_addr(&src, hints->src_addr, sf);
		if (df)
			hint_addr(&dst, hints->dest_addr, df);
		/* an IPv4 address given as v4-mapped is IPv4 */
		if (sf)
			family = src.sa.sa_family;
		else if (df)
			family = dst.sa.sa_family;
		if (hints->fabric_attr && hints->fabric_attr->name &&
		    strcmp(hints->fabric_attr->name, WFI_NAME))
			return -FI_ENODATA;
		if ((hints->caps & (FI_RMA | FI_ATOMIC)) && hints->tx_attr &&
		    hints->tx_attr->comp_order)
			return -FI_ENODATA;	/* see fill_info() */
		if (!ep_ok(hints->ep_attr) || !tx_ok(hints->tx_attr) ||
		    !rx_ok(hints->rx_attr, unexp_max) ||
		    !domain_ok(hints->domain_attr))
			return -FI_ENODATA;
	}

	fi = fi_allocinfo();
	if (!fi)
		return -FI_ENOMEM;
	ret = fill_info(fi, version, hints);
	if (ret)
		goto err;

	if (sf) {
		ret = set_addr(&fi->src_addr, &fi->src_addrlen, &src);
		if (ret)
			goto err;
	}
	if (df) {
		ret = set_addr(&fi->dest_addr, &fi->dest_addrlen, &dst);
		if (ret)
			goto err;
	}
	if (node || service) {
		bool src = flags & FI_SOURCE;

		ret = resolve(node, service, src, family, &sin);
		if (ret)
			goto err;
		if (family != AF_UNSPEC && sin.sa.sa_family != family) {
			ret = -FI_ENODATA;	/* an IPv4 node for IPv6 */
			goto err;
		}
		family = sin.sa.sa_family;
		if (src) {
			free(fi->src_addr);
			ret = set_addr(&fi->src_addr, &fi->src_addrlen, &sin);
		} else {
			free(fi->dest_addr);
			ret = set_addr(&fi->dest_addr, &fi->dest_addrlen, &sin);
		}
		if (ret)
			goto err;
	}
	/* IPv6 when asked for (FI_SOCKADDR_IN6) or when the addresses are */
	fi->addr_format = family == AF_INET6 ? FI_SOCKADDR_IN6 : FI_SOCKADDR_IN;
	*info = fi;
	return 0;
err:
	fi_freeinfo(fi);
	return ret;
}

static int fabric_close(struct fid *fid)
{
	free(wfi_container_of(fid, struct wfi_fabric, fabric.fid));
	return 0;
}

static struct fi_ops fabric_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = fabric_close,
	.bind = wfi_no_bind,
	.control = wfi_no_control,
	.ops_open = wfi_no_ops_open,
};

static int no_passive_ep(struct fid_fabric *fabric, struct fi_info *info,
			 struct fid_pep **pep, void *context)
{
	(void)fabric; (void)info; (void)pep; (void)context;
	return -FI_ENOSYS;
}

static int no_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
			struct fid_wait **waitset)
{
	(void)fabric; (void)attr; (void)waitset;
	return -FI_ENOSYS;
}

static int fabric_trywait(struct fid_fabric *fabric, struct fid **fids, int count)
{
	(void)fabric; (void)fids; (void)count;
	/* No wait objects (FI_GETWAIT has none): read the CQs, or
	 * fi_cq_sread() them. */
	return -FI_EAGAIN;
}

static struct fi_ops_fabric fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = wfi_domain_open,
	.passive_ep = no_passive_ep,
	.eq_open = wfi_eq_open,
	.wait_open = no_wait_open,
	.trywait = fabric_trywait,
};

int wfi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
		    void *context)
{
	struct wfi_fabric *fab;

	if (attr->name && strcmp(attr->name, WFI_NAME))
		return -FI_EINVAL;
	fab = calloc(1, sizeof(*fab));
	if (!fab)
		return -FI_ENOMEM;
	fab->fabric.fid.fclass = FI_CLASS_FABRIC;
	fab->fabric.fid.context = context;
	fab->fabric.fid.ops = &fabric_fi_ops;
	fab->fabric.ops = &fabric_ops;
	fab->api_version = attr->api_version ? attr->api_version : WFI_API_VERSION;
	*fabric = &fab->fabric;
	return 0;
}

int wfi_yield = 1;
int wfi_stats;
int wfi_progress_auto = 1;
int wfi_kernel_rma = 1;

static void wfi_cleanup(void)
{
}

struct fi_provider wfi_prov = {
	.name = WFI_NAME,
	.version = WFI_VERSION,
	.fi_version = WFI_API_VERSION,
	.getinfo = wfi_getinfo,
	.fabric = wfi_fabric_open,
	.cleanup = wfi_cleanup,
};

FI_EXT_INI
{
	fi_param_define(&wfi_prov, "unexp_max", FI_PARAM_SIZE_T,
			"Bytes of unexpected messages an endpoint buffers before it leaves further messages in the Wind socket (default 64 MiB)");
	fi_param_define(&wfi_prov, "sndbuf", FI_PARAM_SIZE_T,
			"SO_SNDBUF of an endpoint's Wind socket (default 64 MiB; forced when privileged)");
	fi_param_define(&wfi_prov, "rcvbuf", FI_PARAM_SIZE_T,
			"SO_RCVBUF of an endpoint's Wind socket (default 64 MiB; forced when privileged)");
	fi_param_define(&wfi_prov, "iface", FI_PARAM_STRING,
			"Interface whose address (of the endpoint's family; IPv6: not link-local) endpoints bind to (default: the first up non-loopback one, else 127.0.0.1 or ::1)");
	fi_param_define(&wfi_prov, "probe_ms", FI_PARAM_SIZE_T,
			"A directed receive waiting this long probes its peer, so that a dead peer is found and the receive fails (default 2000; 0: never)");
	fi_param_define(&wfi_prov, "connect_ms", FI_PARAM_SIZE_T,
			"How long after its first refusal a peer never heard from (its endpoint not open yet) is sent again what it refused (default 10000)");
	fi_param_define(&wfi_prov, "chunk", FI_PARAM_SIZE_T,
			"A message larger than this many bytes goes as pieces of this size, each placed at the receiver while the next is on the wire (default 65536; at least 16384; 0: every message whole)");
	fi_param_define(&wfi_prov, "yield", FI_PARAM_BOOL,
			"Yield the CPU when a CQ read finds nothing while more tasks are runnable than there are CPUs (default 1: ranks sharing a core let each other run)");
	fi_param_define(&wfi_prov, "stats", FI_PARAM_BOOL,
			"Print each endpoint's RMA and atomic counts to stderr when it closes (default 0)");
	fi_param_define(&wfi_prov, "progress", FI_PARAM_STRING,
			"auto: a progress thread per domain serves what comes while the application does not read its CQs (FI_PROGRESS_AUTO; default); manual: only the application's CQ and counter reads do (FI_PROGRESS_MANUAL)");
	fi_param_get_bool(&wfi_prov, "yield", &wfi_yield);
	{
		char *mode = NULL;

		if (!fi_param_get_str(&wfi_prov, "progress", &mode) && mode &&
		    !strcmp(mode, "manual"))
			wfi_progress_auto = 0;
	}
	fi_param_define(&wfi_prov, "kernel_rma", FI_PARAM_BOOL,
			"Send reads and 64-bit atomics (sum, swap, read, compare-and-swap) on a target's regions to its kernel, which serves them without the target process (default 1; 0: every one to the target's progress)");
	fi_param_get_bool(&wfi_prov, "stats", &wfi_stats);
	fi_param_get_bool(&wfi_prov, "kernel_rma", &wfi_kernel_rma);
	return &wfi_prov;
}
