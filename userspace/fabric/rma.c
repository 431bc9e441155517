// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: FI_RMA and FI_ATOMIC.
 *
 * fi_write to an MR that is also a Wind region (the target said so in an
 * answer, see WFI_HF_DM in wind_fi.h) is one Direct Map message: the target's
 * kernel writes the payload into the registered pages at reassembly, with
 * no help from the target process, and the send returns once the target
 * acknowledged, i.e. once the data is in place (FI_DELIVERY_COMPLETE).
 * With remote CQ data it is a Header Through message: the header that
 * carries the data is queued to the target's socket and becomes an
 * FI_REMOTE_WRITE completion there.  If the target refuses the Direct Map
 * message (the MR was closed, the range leaves it, or its kernel refuses
 * this sender's DSM for now), the write goes the software way.
 *
 * MR keys carry no flags: 64 random bits (wfi_mr_key).  An initiator
 * learns which keys of a target are regions, and whether that target
 * counts remote writes (FI_RMA_EVENT: Header Through), from the target's
 * answers to its software requests (WFI_HF_DM, WFI_HF_DM_EVENT), and
 * keeps it per target in a bounded cache (ep->dmc).  A key it was not
 * told of goes the software way; so an honest initiator never presents
 * a target's kernel a key it does not hold (which that kernel counts
 * against the sender), but after the MR was closed.
 *
 * Everything else is a request to the target's progress engine (its
 * progress thread, thread.c, or under FI_PROGRESS_MANUAL the target's own
 * CQ reads): software writes, fi_read, and atomics.  The target checks the key, the access and the range against
 * its MR, applies the operation (atomics with the CPU's atomic
 * instructions, one element at a time, so that they are atomic with
 * respect to the target's own CPU atomics too) and answers WFI_OP_RESP
 * with the data read or fetched; the operation completes at the
 * initiator when that answer arrives.  Requests are async-ordered Wind
 * messages, so a target applies one initiator's requests in the order
 * they were posted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include "wind_fi.h"

static inline struct wfi_ep *to_ep(struct fid_ep *fep)
{
	return wfi_container_of(fep, struct wfi_ep, ep);
}

int wfi_region_add(struct wfi_ep *ep, struct wfi_mr *mr)
{
	struct wind_region r = {
		.addr = (uintptr_t)mr->addr, .len = mr->len,
		.id = mr->region, .key = mr->mr.key,
	};

	/* what the MR's access allows, and how initiators name its bytes */
	if (!(mr->access & FI_REMOTE_WRITE))
		r.flags |= WIND_REGION_F_NO_WRITE;
	/* FI_RMA_EVENT: remote reads and atomics are counted, which only
	 * this process's progress can do; the kernel refuses them, and the
	 * initiator goes the software way */
	if (!(mr->access & FI_REMOTE_READ) || ep->dom->rma_event)
		r.flags |= WIND_REGION_F_NO_READ;
	if (ep->dom->mr_mode & FI_MR_VIRT_ADDR)
		r.flags |= WIND_REGION_F_VADDR;

	if (!mr->region || ep->fd < 0)
		return -FI_EINVAL;
	if (setsockopt(ep->fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r))) {
		FI_INFO(&wfi_prov, FI_LOG_MR,
			"WIND_REGION_ADD %u (%#llx, %llu bytes): %s; fi_write to it goes the software way\n",
			mr->region, (unsigned long long)r.addr,
			(unsigned long long)r.len, strerror(errno));
		return -errno;
	}
	return 0;
}

void wfi_region_del(struct wfi_ep *ep, struct wfi_mr *mr)
{
	if (mr->region && ep->fd >= 0)
		setsockopt(ep->fd, SOL_WIND, WIND_REGION_DEL, &mr->region,
			   sizeof(mr->region));
}

/* --- atomics: the arithmetic --- */

static size_t dt_size(int dt)
{
	switch (dt) {
	case FI_INT8: case FI_UINT8:
		return 1;
	case FI_INT16: case FI_UINT16:
		return 2;
	case FI_INT32: case FI_UINT32: case FI_FLOAT:
		return 4;
	case FI_INT64: case FI_UINT64: case FI_DOUBLE:
		return 8;
	default:
		return 0;
	}
}

static bool dt_is_int(int dt)
{
	return dt >= FI_INT8 && dt <= FI_UINT64;
}

/* Is @op on @dt supported, and which atomic call carries it? */
enum { AK_WRITE, AK_FETCH, AK_COMPARE };

static bool op_valid(int dt, int op, int kind)
{
	if (!dt_size(dt))
		return false;
	switch (op) {
	case FI_MIN: case FI_MAX: case FI_SUM: case FI_PROD:
	case FI_ATOMIC_WRITE:
		return kind != AK_COMPARE;
	case FI_LOR: case FI_LAND: case FI_LXOR:
	case FI_BOR: case FI_BAND: case FI_BXOR:
		return kind != AK_COMPARE && dt_is_int(dt);
	case FI_ATOMIC_READ:
		return kind == AK_FETCH;
	case FI_CSWAP: case FI_CSWAP_NE: case FI_CSWAP_LE:
	case FI_CSWAP_LT: case FI_CSWAP_GE: case FI_CSWAP_GT:
		return kind == AK_COMPARE;
	case FI_MSWAP:
		return kind == AK_COMPARE && dt_is_int(dt);
	default:
		return false;
	}
}

/* new value of @cur under @op; false: leave the target as it is */
#define CALC_COMMON(T)							\
	T c, o = 0, k = 0, r;						\
	memcpy(&c, cur, sizeof(T));					\
	memcpy(&o, opnd, sizeof(T));					\
	if (cmp)							\
		memcpy(&k, cmp, sizeof(T));				\
	switch (op) {							\
	case FI_MIN: r = o < c ? o : c; break;				\
	case FI_MAX: r = o > c ? o : c; break;				\
	case FI_SUM: r = c + o; break;					\
	case FI_PROD: r = c * o; break;					\
	case FI_ATOMIC_WRITE: r = o; break;				\
	case FI_CSWAP: if (!(k == c)) return false; r = o; break;	\
	case FI_CSWAP_NE: if (!(k != c)) return false; r = o; break;	\
	case FI_CSWAP_LE: if (!(k <= c)) return false; r = o; break;	\
	case FI_CSWAP_LT: if (!(k < c)) return false; r = o; break;	\
	case FI_CSWAP_GE: if (!(k >= c)) return false; r = o; break;	\
	case FI_CSWAP_GT: if (!(k > c)) return false; r = o; break;

#define CALC_INT(name, T)						\
static bool calc_##name(int op, const void *cur, const void *opnd,	\
			const void *cmp, void *out)			\
{									\
	CALC_COMMON(T)							\
	case FI_LOR: r = c || o; break;					\
	case FI_LAND: r = c && o; break;				\
	case FI_LXOR: r = !c != !o; break;				\
	case FI_BOR: r = c | o; break;					\
	case FI_BAND: r = c & o; break;					\
	case FI_BXOR: r = c ^ o; break;					\
	case FI_MSWAP: r = (o & k) | (c & ~k); break;			\
	default: return false;						\
	}								\
	memcpy(out, &r, sizeof(T));					\
	return true;							\
}

#define CALC_FLT(name, T)						\
static bool calc_##name(int op, const void *cur, const void *opnd,	\
			const void *cmp, void *out)			\
{									\
	CALC_COMMON(T)							\
	default: return false;						\
	}								\
	memcpy(out, &r, sizeof(T));					\
	return true;							\
}

CALC_INT(i8, int8_t)
CALC_INT(u8, uint8_t)
CALC_INT(i16, int16_t)
CALC_INT(u16, uint16_t)
CALC_INT(i32, int32_t)
CALC_INT(u32, uint32_t)
CALC_INT(i64, int64_t)
CALC_INT(u64, uint64_t)
CALC_FLT(flt, float)
CALC_FLT(dbl, double)

typedef bool (*calc_fn)(int, const void *, const void *, const void *, void *);

static calc_fn calc_of(int dt)
{
	static const calc_fn fns[] = {
		[FI_INT8] = calc_i8, [FI_UINT8] = calc_u8,
		[FI_INT16] = calc_i16, [FI_UINT16] = calc_u16,
		[FI_INT32] = calc_i32, [FI_UINT32] = calc_u32,
		[FI_INT64] = calc_i64, [FI_UINT64] = calc_u64,
		[FI_FLOAT] = calc_flt, [FI_DOUBLE] = calc_dbl,
	};

	return dt >= 0 && dt <= FI_DOUBLE ? fns[dt] : NULL;
}

/* One element at @dst: a compare-and-swap loop, so that the update is
 * atomic with respect to any other CPU atomic on that word. */
#define APPLY_N(T)							\
	do {								\
		T cur = __atomic_load_n((T *)dst, __ATOMIC_SEQ_CST), nw; \
		do {							\
			if (op == FI_ATOMIC_READ ||			\
			    !f(op, &cur, opnd, cmp, &nw))		\
				break;					\
		} while (!__atomic_compare_exchange_n((T *)dst, &cur, nw, \
				false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)); \
		if (old)						\
			memcpy(old, &cur, sizeof(T));			\
	} while (0)

static void apply_elem(calc_fn f, int op, size_t sz, void *dst,
		       const void *opnd, const void *cmp, void *old)
{
	switch (sz) {
	case 1: APPLY_N(uint8_t); break;
	case 2: APPLY_N(uint16_t); break;
	case 4: APPLY_N(uint32_t); break;
	case 8: APPLY_N(uint64_t); break;
	}
}

/* --- completions of the initiator's operations --- */

static void pend_complete(struct wfi_ep *ep, struct wfi_pend *p, int err,
			  int prov_errno, size_t len)
{
	struct wfi_cq *cq = ep->tx_cq;
	struct wfi_cntr *cntr = p->is_read ? ep->read_cntr : ep->write_cntr;
	struct wfi_cqe c = {
		.e = { .op_context = p->context, .flags = p->cqflags, .len = len },
		.src = FI_ADDR_NOTAVAIL,
		.err = err, .prov_errno = prov_errno,
	};

	ep->dom->events++;
	if (err) {
		if (cq)
			wfi_cq_push(cq, &c);
		if (cntr)
			cntr->errs++;
		return;
	}
	if (cq && (!ep->tx_selective || (p->flags & FI_COMPLETION)) &&
	    !(p->flags & WFI_INJECT_CALL))
		wfi_cq_push(cq, &c);
	if (cntr)
		cntr->value++;
}

void wfi_rma_peer_failed(struct wfi_ep *ep, const union wfi_addr *peer,
			 int err)
{
	struct wfi_list *pos, *next;

	for (pos = ep->pending.next; pos != &ep->pending; pos = next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);

		next = pos->next;
		if (!wfi_addr_same(&p->to, peer))
			continue;
		wfi_list_del(&p->link);
		if (p->dm || p->resend || p->kernel)
			ep->ndm--;
		pend_complete(ep, p, err == ETIMEDOUT ? FI_ETIMEDOUT : FI_EIO,
			      err, 0);
		free(p);
	}
}

void wfi_rma_free(struct wfi_ep *ep)
{
	ep->ndm = 0;
	while (!wfi_list_empty(&ep->pending)) {
		struct wfi_list *e = ep->pending.next;

		wfi_list_del(e);
		free(wfi_container_of(e, struct wfi_pend, link));
	}
}

/* --- the initiator --- */

/* sendmsg() of @mh, not waiting.  Return: 0; -FI_EAGAIN when it may go
 * later (a full buffer, or a failure report's SO_ERROR that said all);
 * else -errno. */
static ssize_t send_nowait(struct wfi_ep *ep, struct msghdr *mh)
{
	ssize_t n;

	do {
		n = sendmsg(ep->fd, mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n >= 0)
		return 0;
	if (errno == EAGAIN || errno == ENOBUFS ||
	    wfi_failed_by_report(ep, errno))
		return -FI_EAGAIN;
	return -errno;
}

/* Send a request; on success it waits on ep->pending for its answer.
 * -FI_EAGAIN: not sent, try again (after progress).  Lock held. */
static ssize_t send_request_once(struct wfi_ep *ep, fi_addr_t dest, uint8_t op,
				 uint16_t hflags, uint64_t data,
				 const struct wfi_rma *rma,
				 const struct iovec *pay, size_t npay,
				 struct wfi_pend *p)
{
	struct iovec iov[2 * WFI_IOV_LIMIT + 2];
	struct wfi_hdr h = {
		.version = WFI_HDR_VERSION, .op = op, .flags = hflags,
		.tag = 0, .data = data,
	};
	const union wfi_addr *sin;
	union wfi_addr to;
	struct msghdr mh = { .msg_name = &to, .msg_namelen = sizeof(to),
			     .msg_iov = iov };
	ssize_t n;

	if (!ep->enabled)
		return -FI_EOPBADSTATE;
	sin = wfi_av_addr(ep->av, dest);
	if (!sin)
		return -FI_EINVAL;
	mh.msg_namelen = wfi_addr_to(ep, sin, &to);
	p->id = ++ep->next_id;
	p->dest = dest;
	p->to = *sin;
	p->key = rma->key;
	h.tag = p->id;
	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)rma;
	iov[1].iov_len = sizeof(*rma);
	memcpy(&iov[2], pay, npay * sizeof(*pay));
	mh.msg_iovlen = 2 + npay;
	n = send_nowait(ep, &mh);
	if (n == -FI_EAGAIN)
		return n;
	if (n < 0) {
		int err = -n;

		if (err == EMSGSIZE)
			return -FI_EMSGSIZE;
		pend_complete(ep, p, wfi_map_errno(err), err, 0);
		free(p);
		return 0;
	}
	p->probe_at = wfi_now_ms() + ep->probe_ms;
	wfi_list_add_tail(&ep->pending, &p->link);
	return 0;
}

static ssize_t send_request(struct wfi_ep *ep, fi_addr_t dest, uint8_t op,
			    uint16_t hflags, uint64_t data,
			    const struct wfi_rma *rma,
			    const struct iovec *pay, size_t npay,
			    struct wfi_pend *p)
{
	ssize_t ret = send_request_once(ep, dest, op, hflags, data, rma, pay,
					npay, p);

	if (ret == -FI_EAGAIN)
		wfi_ep_progress(ep);
	return ret;
}

static struct wfi_pend *pend_new(void *context, uint64_t flags,
				 uint64_t cqflags, bool is_read)
{
	struct wfi_pend *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->context = context;
	p->flags = flags;
	p->cqflags = cqflags;
	p->is_read = is_read;
	return p;
}

/* --- what the targets said of their keys (ep->dmc) --- */

/* The entry of @key of @dest, or NULL.  Scanned: an fi_write's cost is
 * its system call; the entry of the last one is looked at first. */
static struct wfi_dmc *dmc_find(struct wfi_ep *ep, fi_addr_t dest,
				uint64_t key)
{
	struct wfi_dmc *d = &ep->dmc[ep->dmc_last];
	unsigned int i;

	if (d->mode && d->key == key && d->dest == dest)
		return d;
	for (i = 0; i < WFI_DMC_SIZE; i++) {
		d = &ep->dmc[i];
		if (d->mode && d->key == key && d->dest == dest) {
			ep->dmc_last = i;
			return d;
		}
	}
	return NULL;
}

/* 0, or WFI_HF_DM (| WFI_HF_DM_EVENT): how to write @key of @dest */
static uint32_t dmc_lookup(struct wfi_ep *ep, fi_addr_t dest, uint64_t key)
{
	struct wfi_dmc *d = dmc_find(ep, dest, key);

	if (!d)
		return 0;
	d->used = ++ep->dmc_clock;
	return d->mode;
}

/* Remember @mode (0: forget) for @key of @dest; when every entry is
 * taken, the least recently used one goes */
static void dmc_store(struct wfi_ep *ep, fi_addr_t dest, uint64_t key,
		      uint32_t mode)
{
	struct wfi_dmc *d = dmc_find(ep, dest, key);
	unsigned int i;

	if (!d && !mode)
		return;
	if (!d) {
		d = &ep->dmc[0];
		for (i = 0; i < WFI_DMC_SIZE && d->mode; i++)
			if (!ep->dmc[i].mode || ep->dmc[i].used < d->used)
				d = &ep->dmc[i];
	}
	*d = (struct wfi_dmc){ .key = key, .dest = dest, .mode = mode,
			       .used = ++ep->dmc_clock };
}

/* Whether a failed Direct Map send was the target's refusal of the
 * message (EACCES, ERANGE, EINVAL, or any other answer of its kernel,
 * such as one refusing all DSM from this sender for a while): such a
 * write goes the software way.  Not: the peer's death or a local error. */
static bool dm_refusal(int err)
{
	switch (err) {
	case EAGAIN: case ENOBUFS: case ENOMEM: case EMSGSIZE: case EFAULT:
	case ETIMEDOUT: case ECONNREFUSED: case ECONNRESET: case EPIPE:
	case EHOSTUNREACH: case ENETUNREACH: case ENETDOWN: case EHOSTDOWN:
	case ENOTCONN: case EBADF: case EINTR: case EOPNOTSUPP:
		return false;
	}
	return true;
}

/* A Direct Map write.  Sync: returns 0 once the target's kernel wrote it,
 * 1 if the target refused it (*@why: the errno), or -errno; the
 * domain lock is dropped while the send waits for the acknowledgment.
 * Async (@p): returns 0 once the kernel queued it, with p->dm_idx set,
 * 1 if it was refused at once, or -errno (-EAGAIN: try again).
 * @event: the target counts remote writes. */
static int dm_write(struct wfi_ep *ep, const union wfi_addr *to,
		    const struct iovec *iov, size_t count, uint64_t addr,
		    uint64_t key, bool has_data, uint64_t data, bool event,
		    struct wfi_pend *p, int *why)
{
	/* Header Through when the target wants to know: CQ data, or a
	 * count of remote writes (FI_RMA_EVENT) */
	bool hdr = has_data || event;
	struct iovec v[WFI_IOV_LIMIT + 1];
	char cbuf[CMSG_SPACE(sizeof(struct wind_dsm)) +
		  CMSG_SPACE(sizeof(uint32_t))];
	struct wfi_hdr h = {
		.version = WFI_HDR_VERSION, .op = WFI_OP_WDATA,
		.flags = has_data ? WFI_HF_DATA : 0, .data = data,
	};
	struct wind_dsm dsm = {
		.mode = hdr ? WIND_DSM_HEADER_THROUGH : WIND_DSM_DIRECT_MAP,
		.region = WFI_KEY_REGION(key),
		.offset = addr,		/* the region is the MR's bytes */
		.key = key,
		.hdr_len = hdr ? sizeof(h) : 0,
	};
	union wfi_addr dst;
	struct msghdr mh = {
		.msg_name = &dst, .msg_namelen = wfi_addr_to(ep, to, &dst),
		.msg_iov = v, .msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	size_t n = 0;
	ssize_t r;
	int fd = ep->fd, err;

	if (hdr) {
		v[n].iov_base = &h;
		v[n++].iov_len = sizeof(h);
	}
	memcpy(&v[n], iov, count * sizeof(*iov));
	mh.msg_iovlen = n + count;
	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_DSM;
	cm->cmsg_len = CMSG_LEN(sizeof(dsm));
	memcpy(CMSG_DATA(cm), &dsm, sizeof(dsm));
	mh.msg_controllen = CMSG_SPACE(sizeof(dsm));

	if (p) {
		struct wind_peer_info pi = { .wpi_version = WIND_PEER_INFO_VERSION };
		socklen_t pl = sizeof(pi);
		uint32_t msgid;

		/* the id a refusal's report names (ee_data): never 0 */
		p->id = ++ep->next_id;
		if (!(uint32_t)p->id)
			p->id = ++ep->next_id;
		msgid = (uint32_t)p->id;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_NXTHDR(&mh, cm);
		cm->cmsg_level = SOL_WIND;
		cm->cmsg_type = WIND_CMSG_MSGID;
		cm->cmsg_len = CMSG_LEN(sizeof(msgid));
		memcpy(CMSG_DATA(cm), &msgid, sizeof(msgid));
		do {
			r = sendmsg(fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
		} while (r < 0 && errno == EINTR);
		if (r < 0) {
			err = errno;
			if (err == EAGAIN || err == ENOBUFS ||
			    wfi_failed_by_report(ep, err))
				return -EAGAIN;
			goto failed;
		}
		/* which of the messages queued to the target it is */
		memcpy(&pi.wpi_addr, to, wfi_addr_len(to));
		if (getsockopt(fd, SOL_WIND, WIND_PEER_INFO, &pi, &pl) == 0 &&
		    pl >= offsetof(struct wind_peer_info, wpi_rx_messages))
			p->dm_idx = pi.wpi_tx_messages;
		else
			p->dm_idx = UINT64_MAX;	/* resolved once none is queued */
		return 0;
	}
	pthread_mutex_unlock(&ep->dom->lock);
	do {
		r = sendmsg(fd, &mh, MSG_WIND_SYNC | MSG_NOSIGNAL);
	} while (r < 0 && errno == EINTR);
	err = errno;
	pthread_mutex_lock(&ep->dom->lock);
	if (r >= 0)
		return 0;
failed:
	*why = err;
	if (dm_refusal(err))
		return 1;
	return -err;
}

/* How many async Direct Map writes to @dest are unresolved.  A target's
 * kernel holds 16 refusals of one sender (wind.rst): with at most 15 of
 * them, and a sync one, every refusal is reported. */
#define WFI_DM_INFLIGHT_MAX	15
static unsigned int dm_unresolved(struct wfi_ep *ep, fi_addr_t dest)
{
	struct wfi_list *pos;
	unsigned int n = 0;

	if (!ep->ndm)
		return 0;
	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);

		if (p->dm && p->dest == dest)
			n++;
	}
	return n;
}

static ssize_t do_write(struct wfi_ep *ep, const struct iovec *iov,
			size_t count, fi_addr_t dest, uint64_t addr,
			uint64_t key, bool has_data, uint64_t data,
			void *context, uint64_t flags)
{
	size_t len = wfi_iov_total(iov, count);
	struct wfi_rma rma = { .key = key, .addr = addr, .len = len };
	struct wfi_pend *p;
	uint32_t mode;
	ssize_t ret;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (len > WFI_MAX_MSG)
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) && len > WFI_INJECT_SIZE)
		return -FI_EMSGSIZE;
	p = pend_new(context, flags, FI_RMA | FI_WRITE, false);
	if (!p)
		return -FI_ENOMEM;
	pthread_mutex_lock(&ep->dom->lock);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto out_free;
	}
	/* Direct Map if the target said the key is a region there */
	mode = len ? dmc_lookup(ep, dest, key) : 0;
	if (mode & WFI_HF_DM) {
		const union wfi_addr *sin = wfi_av_addr(ep->av, dest);
		union wfi_addr to;
		bool async;
		int r, why = 0;

		if (!sin) {
			ret = -FI_EINVAL;
			goto out_free;
		}
		to = *sin;
		/* async unless the buffer is the caller's again at once
		 * (inject) or 15 are unresolved to this target: each
		 * refusal's report names its write (msgid) */
		async = !(flags & FI_INJECT) &&
			dm_unresolved(ep, dest) < WFI_DM_INFLIGHT_MAX;
		r = dm_write(ep, &to, iov, count, addr, key, has_data, data,
			     mode & WFI_HF_DM_EVENT, async ? p : NULL, &why);
		if (r == 0 && async) {
			p->dm = true;
			p->dest = dest;
			p->to = to;
			p->probe_at = wfi_now_ms() + ep->probe_ms;
			memcpy(p->wiov, iov, count * sizeof(*iov));
			p->nwiov = count;
			p->wrma = rma;
			p->whas_data = has_data;
			p->wdata = data;
			wfi_list_add_tail(&ep->pending, &p->link);
			ep->ndm++;
			pthread_mutex_unlock(&ep->dom->lock);
			return 0;
		}
		if (r == 0) {
			ep->stat_dm_writes++;
			pend_complete(ep, p, 0, 0, 0);
			ret = 0;
			goto out_free;
		}
		if (r < 0) {
			if (r == -EAGAIN || r == -ENOBUFS) {
				if (async)
					wfi_ep_progress(ep);
				ret = -FI_EAGAIN;
				goto out_free;
			}
			if (flags & WFI_INJECT_CALL) {
				ret = -wfi_map_errno(-r);
				goto out_free;
			}
			pend_complete(ep, p, wfi_map_errno(-r), -r, 0);
			ret = 0;
			goto out_free;
		}
		/* refused: the software way; a key its kernel does not
		 * hold (the MR was closed) is forgotten, any other refusal
		 * (the range, or DSM from us refused for now) is not */
		if (why == EACCES)
			dmc_store(ep, dest, key, 0);
	}
	ret = send_request(ep, dest, WFI_OP_WRITE, has_data ? WFI_HF_DATA : 0,
			   data, &rma, iov, count, p);
	if (!ret)	/* a write the caller tries again is counted then */
		ep->stat_sw_writes++;
	pthread_mutex_unlock(&ep->dom->lock);
	if (ret)
		free(p);
	return ret;
out_free:
	pthread_mutex_unlock(&ep->dom->lock);
	free(p);
	return ret;
}

/**
 * wfi_rma_refused() - a peer's kernel refused a message (error queue)
 * @ep: the endpoint, lock held
 * @peer: the peer
 * @err: why (EACCES, ERANGE, EINVAL, EMSGSIZE ...)
 * @msgid: the report's ee_data: the WIND_CMSG_MSGID of the message, 0 if
 *	it had none
 *
 * Only an async Direct Map write is waiting for such an answer, and each
 * was sent with its own id: the write the report names is sent again the
 * software way (at the next progress), where the target checks it
 * against the MR itself and applies it or answers the error that fails
 * it.  Every other write in flight to that peer goes on.
 *
 * Return: 1 if the report named such a write, else 0.
 */
unsigned int wfi_rma_refused(struct wfi_ep *ep, const union wfi_addr *peer,
			     int err, uint32_t msgid)
{
	struct wfi_list *pos;

	if (!msgid)
		return 0;
	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);
		char name[WFI_ADDRSTRLEN];

		if (!(p->dm || p->kernel) || (uint32_t)p->id != msgid)
			continue;
		if (!wfi_addr_same(&p->to, peer))
			continue;
		if (p->kernel) {
			FI_INFO(&wfi_prov, FI_LOG_EP_DATA,
				"one-sided request %u refused by %s's kernel (%s): sending it the software way\n",
				msgid, wfi_addr_str(peer, name, sizeof(name)),
				strerror(err));
			p->kernel = false;
			p->resend = true;
			/* its answer will say what the key is */
			dmc_store(ep, p->dest, p->key, 0);
			return 1;
		}
		FI_INFO(&wfi_prov, FI_LOG_EP_DATA,
			"Direct Map write %u refused by %s (%s): sending it the software way\n",
			msgid, wfi_addr_str(peer, name, sizeof(name)),
			strerror(err));
		p->dm = false;
		p->resend = true;
		ep->stat_dm_refused++;
		if (err == EACCES)	/* not a region there (any more) */
			dmc_store(ep, p->dest, p->wrma.key, 0);
		return 1;
	}
	return 0;
}

/**
 * wfi_rma_dm_progress() - resolve the async Direct Map writes
 * @ep: the endpoint, lock held, ep->ndm > 0
 *
 * Wind acknowledges a peer's messages in order, and queues a refusal on
 * the error queue before the acknowledgment that covers the message: a
 * write the target acknowledged (its peer info says that at least
 * dm_idx messages left the queue) and that no report refused completes.
 */
void wfi_rma_dm_progress(struct wfi_ep *ep)
{
	struct wfi_list *pos, *next;
	fi_addr_t last = FI_ADDR_NOTAVAIL;
	uint64_t acked = 0;
	bool none_queued = false, any = false;

	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);

		if (!p->dm)
			continue;
		if (p->dest != last) {
			struct wind_peer_info pi = {
				.wpi_version = WIND_PEER_INFO_VERSION,
			};
			const union wfi_addr *a = &p->to;
			socklen_t pl = sizeof(pi);

			last = p->dest;
			none_queued = true;	/* no such peer: nothing queued */
			acked = 0;
			{
				memcpy(&pi.wpi_addr, a, wfi_addr_len(a));
				if (getsockopt(ep->fd, SOL_WIND, WIND_PEER_INFO,
					       &pi, &pl) == 0) {
					none_queued = !pi.wpi_queued_msgs;
					acked = pi.wpi_tx_messages -
						pi.wpi_queued_msgs;
				}
			}
		}
		p->dm_acked = none_queued || acked >= p->dm_idx;
		any |= p->dm_acked;
	}
	/* the refusals (and deaths) reported before those acknowledgments */
	if (any)
		wfi_drain_errqueue(ep, 0);
	for (pos = ep->pending.next; pos != &ep->pending; pos = next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);

		next = pos->next;
		if (p->dm && p->dm_acked) {
			wfi_list_del(&p->link);
			ep->ndm--;
			ep->stat_dm_writes++;
			pend_complete(ep, p, 0, 0, 0);
			free(p);
		} else if (p->resend) {
			ssize_t r;

			wfi_list_del(&p->link);
			p->resend = false;
			if (p->rop)
				r = send_request_once(ep, p->dest, p->rop,
						      p->rhflags, 0, &p->wrma,
						      p->wiov, p->nwiov, p);
			else
				r = send_request_once(ep, p->dest, WFI_OP_WRITE,
						      p->whas_data ? WFI_HF_DATA : 0,
						      p->wdata, &p->wrma, p->wiov,
						      p->nwiov, p);
			if (r == -FI_EAGAIN) {
				/* the next progress tries again */
				p->resend = true;
				wfi_list_add_tail(&ep->pending, &p->link);
				continue;
			}
			ep->ndm--;
			if (!p->rop)
				ep->stat_sw_writes++;
			if (r < 0) {
				pend_complete(ep, p, -r, -r, 0);
				free(p);
			}
		}
	}
}

/* May a read or an atomic on @key of @dest go to the target's kernel?
 * When its answers said so; and before any answer, when this domain
 * makes its MRs regions (provider keys), as the target's, being this
 * provider's, does: a target that never calls into libfabric has no
 * answer to give.  A key that is no region there is refused (EACCES,
 * one of the key failures its kernel allows this address) and learnt. */
static bool kernel_ok(struct wfi_ep *ep, fi_addr_t dest, uint64_t key)
{
	uint32_t mode = dmc_lookup(ep, dest, key);

	if (wfi_kernel_rma == 0)
		return false;
	if (mode & WFI_DMC_KNOWN)
		return mode & WFI_HF_KRMA;
	return (ep->dom->mr_mode & FI_MR_PROV_KEY) && WFI_KEY_REGION(key);
}

/* Post @req (its cookie set here) to @dest's kernel for @p, which waits
 * on ep->pending for the completion.  Return: 0; -FI_EAGAIN (not sent:
 * try again); another error, for which the caller goes the software way.
 * Lock held. */
static ssize_t kernel_request(struct wfi_ep *ep, fi_addr_t dest,
			      struct wind_rma *req, struct wfi_pend *p)
{
	char cbuf[CMSG_SPACE(sizeof(*req)) + CMSG_SPACE(sizeof(uint32_t))];
	const union wfi_addr *sin = wfi_av_addr(ep->av, dest);
	union wfi_addr to;
	struct msghdr mh = { .msg_name = &to, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	uint32_t msgid;
	ssize_t n;

	if (!ep->enabled)
		return -FI_EOPBADSTATE;
	if (!sin)
		return -FI_EINVAL;
	mh.msg_namelen = wfi_addr_to(ep, sin, &to);
	/* the id a refusal's report names (ee_data): never 0 */
	p->id = ++ep->next_id;
	if (!(uint32_t)p->id)
		p->id = ++ep->next_id;
	msgid = (uint32_t)p->id;
	req->cookie = p->id;
	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_RMA;
	cm->cmsg_len = CMSG_LEN(sizeof(*req));
	memcpy(CMSG_DATA(cm), req, sizeof(*req));
	cm = CMSG_NXTHDR(&mh, cm);
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_MSGID;
	cm->cmsg_len = CMSG_LEN(sizeof(msgid));
	memcpy(CMSG_DATA(cm), &msgid, sizeof(msgid));
	n = send_nowait(ep, &mh);
	if (n < 0)
		return n;
	p->dest = dest;
	p->to = *sin;
	p->key = req->key;
	p->kernel = true;
	p->probe_at = wfi_now_ms() + ep->probe_ms;
	wfi_list_add_tail(&ep->pending, &p->link);
	ep->ndm++;
	return 0;
}

/**
 * wfi_rma_kernel_done() - the target's kernel answered one of our requests
 * @ep: the endpoint, lock held
 * @rma: the completion (WIND_CMSG_RMA) of the socket's next message
 * @len: that message's length: the bytes read or the old value
 *
 * Reads the message into the request's result buffers and completes it.
 */
void wfi_rma_kernel_done(struct wfi_ep *ep, const struct wind_rma *rma,
			 size_t len)
{
	struct wfi_pend *p = NULL;
	struct iovec iov[WFI_IOV_LIMIT];
	struct msghdr mh = { .msg_iov = iov };
	struct wfi_list *pos;

	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *q = wfi_container_of(pos, struct wfi_pend, link);

		if (q->kernel && q->id == rma->cookie) {
			p = q;
			break;
		}
	}
	if (!p) {
		wfi_discard_next(ep);
		return;
	}
	memcpy(iov, p->res, p->nres * sizeof(*iov));
	mh.msg_iovlen = p->nres;
	wfi_recv_next(ep, &mh, 0);
	wfi_list_del(&p->link);
	ep->ndm--;
	if (rma->op == WIND_RMA_READ)
		ep->stat_kreads++;
	else
		ep->stat_katomics++;
	/* a key its kernel served is a region there, in a domain that
	 * counts nothing (WFI_HF_KRMA): Direct Map may write it too, until
	 * a refusal or an answer of the target's says otherwise */
	if (!rma->status && !(dmc_lookup(ep, p->dest, p->key) & WFI_DMC_KNOWN))
		dmc_store(ep, p->dest, p->key,
			  WFI_DMC_KNOWN | WFI_HF_KRMA | WFI_HF_DM);
	if (rma->status)
		pend_complete(ep, p, wfi_map_errno(-rma->status), -rma->status,
			      0);
	else if (p->nres && len != p->reslen)
		pend_complete(ep, p, FI_EIO, EPROTO, 0);
	else
		pend_complete(ep, p, 0, 0, p->is_read ? len : 0);
	free(p);
}

static ssize_t do_read(struct wfi_ep *ep, const struct iovec *iov,
		       size_t count, fi_addr_t src, uint64_t addr, uint64_t key,
		       void *context, uint64_t flags)
{
	size_t len = wfi_iov_total(iov, count);
	struct wfi_rma rma = { .key = key, .addr = addr, .len = len };
	struct wfi_pend *p;
	ssize_t ret;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (len > WFI_MAX_MSG)
		return -FI_EMSGSIZE;
	p = pend_new(context, flags, FI_RMA | FI_READ, true);
	if (!p)
		return -FI_ENOMEM;
	memcpy(p->res, iov, count * sizeof(*iov));
	p->nres = count;
	p->reslen = len;
	pthread_mutex_lock(&ep->dom->lock);
	if (len && len <= WIND_RMA_READ_MAX && kernel_ok(ep, src, key)) {
		struct wind_rma req = {
			.op = WIND_RMA_READ, .region = WFI_KEY_REGION(key),
			.offset = addr, .key = key, .len = len,
		};

		p->rop = WFI_OP_READ;
		p->wrma = rma;
		ret = kernel_request(ep, src, &req, p);
		if (ret == 0 || ret == -FI_EAGAIN) {
			if (ret)
				wfi_ep_progress(ep);
			else
				ep->stat_reads++;
			pthread_mutex_unlock(&ep->dom->lock);
			if (ret)
				free(p);
			return ret;
		}
	}
	ret = send_request(ep, src, WFI_OP_READ, 0, 0, &rma, NULL, 0, p);
	if (!ret)
		ep->stat_reads++;
	pthread_mutex_unlock(&ep->dom->lock);
	if (ret)
		free(p);
	return ret;
}

/* fi_ioc arrays to iovecs of bytes */
static int ioc_to_iov(const struct fi_ioc *ioc, size_t count, size_t sz,
		      struct iovec *out, size_t *elems)
{
	size_t i;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	*elems = 0;
	for (i = 0; i < count; i++) {
		out[i].iov_base = ioc[i].addr;
		out[i].iov_len = ioc[i].count * sz;
		*elems += ioc[i].count;
	}
	return 0;
}

/* The kernel's atomic for @op on @dt, one element: true with *@kop set */
static bool kernel_op(enum fi_datatype dt, enum fi_op op, int kind,
		      size_t elems, uint32_t *kop)
{
	if ((dt != FI_UINT64 && dt != FI_INT64) || elems != 1)
		return false;
	switch (op) {
	case FI_SUM:
		*kop = WIND_RMA_FETCH_ADD;
		return kind != AK_COMPARE;
	case FI_ATOMIC_READ:
		*kop = WIND_RMA_FETCH_ADD;	/* of 0 */
		return kind == AK_FETCH;
	case FI_ATOMIC_WRITE:
		*kop = WIND_RMA_SWAP;
		return kind != AK_COMPARE;
	case FI_CSWAP:
		*kop = WIND_RMA_CMP_SWAP;
		return kind == AK_COMPARE;
	default:
		return false;
	}
}

/* An atomic the target's kernel may serve, posted there: true when it
 * went (or must be tried again: *@ret -FI_EAGAIN), false for the
 * software way.  The operands are copied into @p, for a refused one to
 * go the software way after the caller's buffers are its own again
 * (FI_INJECT).  Lock held. */
static bool kernel_atomic(struct wfi_ep *ep, const struct fi_ioc *opv,
			  const struct fi_ioc *cmpv, size_t elems,
			  enum fi_datatype dt, enum fi_op op, int kind,
			  fi_addr_t dest, uint64_t addr, uint64_t key,
			  const struct wfi_rma *rma, uint16_t hflags,
			  struct wfi_pend *p, ssize_t *ret)
{
	struct wind_rma req = {
		.region = WFI_KEY_REGION(key), .offset = addr, .key = key,
		.len = 8,
	};
	size_t n = 0;

	if (!kernel_op(dt, op, kind, elems, &req.op) ||
	    !kernel_ok(ep, dest, key) || (addr & 7))
		return false;
	if (op != FI_ATOMIC_READ) {
		memcpy(&p->kbuf[0], opv[0].addr, 8);
		p->wiov[n].iov_base = &p->kbuf[0];
		p->wiov[n++].iov_len = 8;
	}
	if (kind == AK_COMPARE) {
		memcpy(&p->kbuf[1], cmpv[0].addr, 8);
		p->wiov[n].iov_base = &p->kbuf[1];
		p->wiov[n++].iov_len = 8;
	}
	req.operand = op == FI_ATOMIC_READ ? 0 : p->kbuf[0];
	req.compare = p->kbuf[1];
	p->nwiov = n;
	p->wrma = *rma;
	p->rop = WFI_OP_ATOMIC;
	p->rhflags = hflags;
	*ret = kernel_request(ep, dest, &req, p);
	if (*ret == -FI_EAGAIN)
		wfi_ep_progress(ep);
	return *ret == 0 || *ret == -FI_EAGAIN;
}

static ssize_t do_atomic(struct wfi_ep *ep, const struct fi_ioc *opv,
			 size_t opc, const struct fi_ioc *cmpv, size_t cmpc,
			 struct fi_ioc *resv, size_t resc, fi_addr_t dest,
			 uint64_t addr, uint64_t key, enum fi_datatype dt,
			 enum fi_op op, void *context, uint64_t flags, int kind)
{
	struct iovec pay[2 * WFI_IOV_LIMIT];
	size_t sz = dt_size(dt), n_op = 0, n_cmp = 0, n_res = 0, npay = 0;
	struct wfi_rma rma = { .key = key, .addr = addr, .datatype = dt, .aop = op };
	uint16_t hflags = 0;
	struct wfi_pend *p;
	ssize_t ret;

	if (!op_valid(dt, op, kind))
		return -FI_EOPNOTSUPP;
	if (ioc_to_iov(opv, opc, sz, pay, &n_op))
		return -FI_EINVAL;
	npay = opc;
	if (op == FI_ATOMIC_READ) {
		/* no operand travels: only the count */
		npay = 0;
	}
	if (kind == AK_COMPARE) {
		if (ioc_to_iov(cmpv, cmpc, sz, pay + npay, &n_cmp) || n_cmp != n_op)
			return -FI_EINVAL;
		npay += cmpc;
		hflags |= WFI_HF_COMPARE;
	}
	if (!n_op || n_op * sz > WFI_ATOMIC_MAX)
		return -FI_EINVAL;
	if ((flags & FI_INJECT) && n_op * sz > WFI_INJECT_SIZE)
		return -FI_EMSGSIZE;
	rma.len = n_op * sz;
	p = pend_new(context, flags,
		     FI_ATOMIC | (kind == AK_WRITE ? FI_WRITE : FI_READ),
		     kind != AK_WRITE);
	if (!p)
		return -FI_ENOMEM;
	if (kind != AK_WRITE) {
		hflags |= WFI_HF_FETCH;
		if (ioc_to_iov(resv, resc, sz, p->res, &n_res) || n_res != n_op) {
			free(p);
			return -FI_EINVAL;
		}
		p->nres = resc;
		p->reslen = n_op * sz;
	}
	pthread_mutex_lock(&ep->dom->lock);
	if (kernel_atomic(ep, opv, cmpv, n_op, dt, op, kind, dest, addr, key,
			  &rma, hflags, p, &ret)) {
		if (!ret)
			ep->stat_atomics++;
		pthread_mutex_unlock(&ep->dom->lock);
		if (ret)
			free(p);
		return ret;
	}
	ret = send_request(ep, dest, WFI_OP_ATOMIC, hflags, 0, &rma, pay, npay, p);
	if (!ret)
		ep->stat_atomics++;
	pthread_mutex_unlock(&ep->dom->lock);
	if (ret)
		free(p);
	return ret;
}

/* --- the target --- */

static struct wfi_mr *mr_find(struct wfi_domain *dom, uint64_t key)
{
	struct wfi_list *pos;

	for (pos = dom->mrs.next; pos != &dom->mrs; pos = pos->next) {
		struct wfi_mr *mr = wfi_container_of(pos, struct wfi_mr, link);

		if (mr->mr.key == key)
			return mr;
	}
	return NULL;
}

/* FI_RMA_EVENT: count a remote operation applied to @mr through @ep */
static void rma_event(struct wfi_ep *ep, struct wfi_mr *mr, bool write)
{
	struct wfi_cntr *c = write ? ep->rwrite_cntr : ep->rread_cntr;

	ep->dom->events++;
	if (c && (ep->info->caps & FI_RMA_EVENT))
		c->value++;
	if (mr) {
		c = write ? mr->wr_cntr : mr->rd_cntr;
		if (c)
			c->value++;
	}
}

/* The target memory of a request, or NULL with *err set; *mrp its MR. */
static char *rma_target(struct wfi_ep *ep, const struct wfi_rma *r,
			uint64_t access, int *err, struct wfi_mr **mrp)
{
	struct wfi_mr *mr = mr_find(ep->dom, r->key);
	uint64_t off;

	*mrp = mr;
	if (!mr) {
		*err = FI_EKEYREJECTED;
		return NULL;
	}
	if ((mr->access & access) != access) {
		*err = FI_EACCES;
		return NULL;
	}
	off = r->addr;
	if (ep->dom->mr_mode & FI_MR_VIRT_ADDR)
		off -= (uintptr_t)mr->addr;	/* wraps when below: refused next */
	if (off > mr->len || r->len > mr->len - off) {
		*err = FI_EINVAL;
		return NULL;
	}
	*err = 0;
	return mr->addr + off;
}

/* What an answer tells the initiator of the MR its request named: a
 * region on every socket of the domain, which Direct Map may write (with
 * a header when the domain counts remote writes) */
static uint16_t mr_hint(struct wfi_ep *ep, const struct wfi_mr *mr)
{
	uint16_t h = 0;

	if (!mr || !mr->kregion)
		return 0;
	if (mr->access & FI_REMOTE_WRITE)
		h = WFI_HF_DM | (ep->dom->rma_event ? WFI_HF_DM_EVENT : 0);
	/* nothing here counts what the kernel serves */
	if (!ep->dom->rma_event && !mr->rd_cntr && !mr->wr_cntr)
		h |= WFI_HF_KRMA;
	return h;
}

static void reply(struct wfi_ep *ep, const union wfi_addr *to,
		  uint64_t id, int err, const void *data, size_t len,
		  uint16_t hflags)
{
	struct wfi_hdr h = {
		.version = WFI_HDR_VERSION, .op = WFI_OP_RESP,
		.flags = hflags, .reserved = err, .tag = id,
	};
	struct iovec iov[2] = { { &h, sizeof(h) }, { (void *)data, len } };
	union wfi_addr dst;
	struct msghdr mh = { .msg_name = &dst,
			     .msg_namelen = wfi_addr_to(ep, to, &dst),
			     .msg_iov = iov, .msg_iovlen = err ? 1 : 2 };
	ssize_t n;

	/* blocking: the answer must not be lost to a full send buffer,
	 * which the peer's kernel empties whatever its process does */
	do {
		n = sendmsg(ep->fd, &mh, MSG_NOSIGNAL);
		/* EINTR, or a failure report's SO_ERROR: nothing was sent */
	} while (n < 0 && (errno == EINTR || wfi_failed_by_report(ep, errno)));
	if (n < 0)
		FI_INFO(&wfi_prov, FI_LOG_EP_DATA, "RMA answer lost: %s\n",
			strerror(errno));
}

static void remote_cq_data(struct wfi_ep *ep, uint64_t data, size_t len,
			   const union wfi_addr *from)
{
	struct wfi_cqe c = {
		.e = { .flags = FI_REMOTE_WRITE | FI_RMA | FI_REMOTE_CQ_DATA,
		       .len = len, .data = data },
	};

	wfi_av_reverse(ep->av, from, &c.src);
	ep->dom->events++;
	if (ep->rx_cq)
		wfi_cq_push(ep->rx_cq, &c);
}

/* Read the next message, which is @len bytes after the header, into
 * @buf (at least len bytes). */
static ssize_t recv_all(struct wfi_ep *ep, void *buf, size_t len,
			void *ctl, size_t ctllen, size_t *ctlout)
{
	struct wfi_hdr h;
	struct iovec iov[2] = { { &h, sizeof(h) }, { buf, len } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2,
			     .msg_control = ctl, .msg_controllen = ctllen };
	ssize_t n;

	n = wfi_recv_next(ep, &mh, 0);
	if (ctlout)
		*ctlout = mh.msg_controllen;
	return n;
}

static void handle_resp(struct wfi_ep *ep, const struct wfi_hdr *h, size_t len)
{
	struct wfi_list *pos;
	struct wfi_pend *p = NULL;
	struct iovec iov[WFI_IOV_LIMIT + 1];
	struct wfi_hdr hh;
	struct msghdr mh = { .msg_iov = iov };

	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *q = wfi_container_of(pos, struct wfi_pend, link);

		if (q->id == h->tag) {
			p = q;
			break;
		}
	}
	if (!p) {
		wfi_discard_next(ep);
		return;
	}
	iov[0].iov_base = &hh;
	iov[0].iov_len = sizeof(hh);
	memcpy(&iov[1], p->res, p->nres * sizeof(*iov));
	mh.msg_iovlen = 1 + p->nres;
	wfi_recv_next(ep, &mh, 0);
	wfi_list_del(&p->link);
	/* what the target says of the key: a region there (written by
	 * Direct Map, read by its kernel), or not */
	dmc_store(ep, p->dest, p->key, WFI_DMC_KNOWN |
		  (h->flags & (WFI_HF_DM | WFI_HF_DM_EVENT | WFI_HF_KRMA)));
	if (h->reserved)
		pend_complete(ep, p, h->reserved, h->reserved, 0);
	else if (len != p->reslen)
		pend_complete(ep, p, FI_EIO, EPROTO, 0);
	else
		pend_complete(ep, p, 0, 0, p->is_read ? len : 0);
	free(p);
}

static void handle_wdata(struct wfi_ep *ep, const struct wfi_hdr *h,
			 const union wfi_addr *from)
{
	char cbuf[CMSG_SPACE(sizeof(struct wind_dsm)) +
		  CMSG_SPACE(sizeof(uint32_t))];
	struct wfi_hdr hh;
	struct iovec iov = { &hh, sizeof(hh) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct wfi_mr *mr = NULL;
	size_t written = 0;

	if (wfi_recv_next(ep, &mh, 0) < 0)
		return;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		struct wind_dsm d;
		struct wfi_list *pos;

		if (cm->cmsg_level != SOL_WIND || cm->cmsg_type != WIND_CMSG_DSM)
			continue;
		memcpy(&d, CMSG_DATA(cm), sizeof(d));
		written = d.data_len;
		for (pos = ep->dom->mrs.next; pos != &ep->dom->mrs; pos = pos->next) {
			struct wfi_mr *m = wfi_container_of(pos, struct wfi_mr, link);

			if (m->region == d.region) {
				mr = m;
				break;
			}
		}
	}
	/* the kernel wrote the data: a remote write, with CQ data or
	 * only to be counted (FI_RMA_EVENT) */
	rma_event(ep, mr, true);
	if (h->flags & WFI_HF_DATA)
		remote_cq_data(ep, h->data, written, from);
}

static void handle_write(struct wfi_ep *ep, const struct wfi_hdr *h,
			 size_t len, const union wfi_addr *from)
{
	struct {
		struct wfi_hdr h;
		struct wfi_rma r;
	} pk;
	struct iovec iov[3];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 1 };
	struct wfi_mr *mr;
	char *dst;
	int err;

	iov[0].iov_base = &pk;
	iov[0].iov_len = sizeof(pk);
	if (wfi_recv_next(ep, &mh, MSG_PEEK) != (ssize_t)sizeof(pk) ||
	    len - sizeof(pk.r) != pk.r.len) {
		wfi_discard_next(ep);
		reply(ep, from, h->tag, FI_EINVAL, NULL, 0, 0);
		return;
	}
	dst = rma_target(ep, &pk.r, FI_REMOTE_WRITE, &err, &mr);
	if (!dst) {
		wfi_discard_next(ep);
		reply(ep, from, h->tag, err, NULL, 0, mr_hint(ep, mr));
		return;
	}
	iov[1].iov_base = dst;
	iov[1].iov_len = pk.r.len;
	mh.msg_iovlen = 2;
	wfi_recv_next(ep, &mh, 0);
	rma_event(ep, mr, true);
	if (h->flags & WFI_HF_DATA)
		remote_cq_data(ep, h->data, pk.r.len, from);
	reply(ep, from, h->tag, 0, NULL, 0, mr_hint(ep, mr));
}

static void handle_read(struct wfi_ep *ep, const struct wfi_hdr *h,
			size_t len, const union wfi_addr *from)
{
	struct wfi_rma r;
	struct wfi_mr *mr;
	char *src;
	int err;

	if (len != sizeof(r) || recv_all(ep, &r, sizeof(r), NULL, 0, NULL) < 0) {
		reply(ep, from, h->tag, FI_EINVAL, NULL, 0, 0);
		return;
	}
	src = rma_target(ep, &r, FI_REMOTE_READ, &err, &mr);
	if (src)
		rma_event(ep, mr, false);
	reply(ep, from, h->tag, err, src, src ? r.len : 0,
	      mr_hint(ep, mr));
}

static void handle_atomic(struct wfi_ep *ep, const struct wfi_hdr *h,
			  size_t len, const union wfi_addr *from)
{
	char *buf = malloc(len ? len : 1), *old = NULL, *opnd, *cmp = NULL, *dst;
	struct wfi_rma *r = (struct wfi_rma *)buf;
	bool fetch = h->flags & WFI_HF_FETCH;
	int kind = (h->flags & WFI_HF_COMPARE) ? AK_COMPARE :
		   fetch ? AK_FETCH : AK_WRITE;
	size_t sz, n, i, need;
	struct wfi_mr *mr = NULL;
	calc_fn f;
	int err;

	if (!buf) {
		wfi_discard_next(ep);
		reply(ep, from, h->tag, FI_ENOMEM, NULL, 0, 0);
		return;
	}
	if (recv_all(ep, buf, len, NULL, 0, NULL) != (ssize_t)(sizeof(*h) + len) ||
	    len < sizeof(*r)) {
		err = FI_EINVAL;
		goto out;
	}
	sz = dt_size(r->datatype);
	f = calc_of(r->datatype);
	if (!op_valid(r->datatype, r->aop, kind) || !f || !sz ||
	    r->len % sz || r->len > WFI_ATOMIC_MAX) {
		err = FI_EOPNOTSUPP;
		goto out;
	}
	n = r->len / sz;
	need = sizeof(*r) + (r->aop == FI_ATOMIC_READ ? 0 : r->len) +
	       (kind == AK_COMPARE ? r->len : 0);
	if (len != need) {
		err = FI_EINVAL;
		goto out;
	}
	dst = rma_target(ep, r, fetch ? FI_REMOTE_READ | FI_REMOTE_WRITE :
				 FI_REMOTE_WRITE, &err, &mr);
	if (!dst)
		goto out;
	if ((uintptr_t)dst % sz) {
		err = FI_EINVAL;	/* atomics need naturally aligned elements */
		goto out;
	}
	opnd = buf + sizeof(*r);
	if (kind == AK_COMPARE)
		cmp = opnd + r->len;
	if (fetch) {
		old = malloc(r->len);
		if (!old) {
			err = FI_ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < n; i++)
		apply_elem(f, r->aop, sz, dst + i * sz,
			   r->aop == FI_ATOMIC_READ ? NULL : opnd + i * sz,
			   cmp ? cmp + i * sz : NULL, old ? old + i * sz : NULL);
	/* an atomic is a remote write, FI_ATOMIC_READ a remote read */
	rma_event(ep, mr, r->aop != FI_ATOMIC_READ);
	reply(ep, from, h->tag, 0, old, fetch ? r->len : 0, mr_hint(ep, mr));
	free(old);
	free(buf);
	return;
out:
	reply(ep, from, h->tag, err, NULL, 0, mr_hint(ep, mr));
	free(buf);
}

void wfi_rma_incoming(struct wfi_ep *ep, const struct wfi_hdr *h, size_t len,
		      const union wfi_addr *from)
{
	switch (h->op) {
	case WFI_OP_RESP:
		handle_resp(ep, h, len);
		break;
	case WFI_OP_WDATA:
		handle_wdata(ep, h, from);
		break;
	case WFI_OP_WRITE:
		ep->stat_served++;
		handle_write(ep, h, len, from);
		break;
	case WFI_OP_READ:
		ep->stat_served++;
		handle_read(ep, h, len, from);
		break;
	case WFI_OP_ATOMIC:
		ep->stat_served++;
		handle_atomic(ep, h, len, from);
		break;
	default:
		wfi_discard_next(ep);
	}
}

/* --- FI_RMA entry points --- */

static uint64_t rma_rma_key(const struct fi_rma_iov *r)
{
	return r->key;
}

static ssize_t rma_read(struct fid_ep *fep, void *buf, size_t len, void *desc,
			fi_addr_t src, uint64_t addr, uint64_t key, void *context)
{
	struct iovec iov = { buf, len };

	(void)desc;
	return do_read(to_ep(fep), &iov, 1, src, addr, key, context,
		       to_ep(fep)->tx_op_flags);
}

static ssize_t rma_readv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src,
			 uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return do_read(to_ep(fep), iov, count, src, addr, key, context,
		       to_ep(fep)->tx_op_flags);
}

static ssize_t rma_readmsg(struct fid_ep *fep, const struct fi_msg_rma *msg,
			   uint64_t flags)
{
	if (msg->rma_iov_count != 1)
		return -FI_EINVAL;
	return do_read(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		       msg->rma_iov[0].addr, rma_rma_key(msg->rma_iov),
		       msg->context, flags);
}

static ssize_t rma_write(struct fid_ep *fep, const void *buf, size_t len,
			 void *desc, fi_addr_t dest, uint64_t addr,
			 uint64_t key, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_write(to_ep(fep), &iov, 1, dest, addr, key, false, 0,
			context, to_ep(fep)->tx_op_flags);
}

static ssize_t rma_writev(struct fid_ep *fep, const struct iovec *iov,
			  void **desc, size_t count, fi_addr_t dest,
			  uint64_t addr, uint64_t key, void *context)
{
	(void)desc;
	return do_write(to_ep(fep), iov, count, dest, addr, key, false, 0,
			context, to_ep(fep)->tx_op_flags);
}

static ssize_t rma_writemsg(struct fid_ep *fep, const struct fi_msg_rma *msg,
			    uint64_t flags)
{
	if (msg->rma_iov_count != 1)
		return -FI_EINVAL;
	return do_write(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
			msg->rma_iov[0].addr, rma_rma_key(msg->rma_iov),
			flags & FI_REMOTE_CQ_DATA, msg->data, msg->context,
			flags & ~WFI_INJECT_CALL);
}

static ssize_t rma_inject(struct fid_ep *fep, const void *buf, size_t len,
			  fi_addr_t dest, uint64_t addr, uint64_t key)
{
	struct iovec iov = { (void *)buf, len };

	return do_write(to_ep(fep), &iov, 1, dest, addr, key, false, 0, NULL,
			FI_INJECT | WFI_INJECT_CALL);
}

static ssize_t rma_writedata(struct fid_ep *fep, const void *buf, size_t len,
			     void *desc, uint64_t data, fi_addr_t dest,
			     uint64_t addr, uint64_t key, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_write(to_ep(fep), &iov, 1, dest, addr, key, true, data,
			context, to_ep(fep)->tx_op_flags);
}

static ssize_t rma_injectdata(struct fid_ep *fep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest, uint64_t addr,
			      uint64_t key)
{
	struct iovec iov = { (void *)buf, len };

	return do_write(to_ep(fep), &iov, 1, dest, addr, key, true, data, NULL,
			FI_INJECT | WFI_INJECT_CALL);
}

struct fi_ops_rma wfi_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = rma_read,
	.readv = rma_readv,
	.readmsg = rma_readmsg,
	.write = rma_write,
	.writev = rma_writev,
	.writemsg = rma_writemsg,
	.inject = rma_inject,
	.writedata = rma_writedata,
	.injectdata = rma_injectdata,
};

/* --- FI_ATOMIC entry points --- */

static ssize_t at_write(struct fid_ep *fep, const void *buf, size_t count,
			void *desc, fi_addr_t dest, uint64_t addr, uint64_t key,
			enum fi_datatype dt, enum fi_op op, void *context)
{
	struct fi_ioc ioc = { (void *)buf, count };

	(void)desc;
	return do_atomic(to_ep(fep), &ioc, 1, NULL, 0, NULL, 0, dest, addr, key,
			 dt, op, context, to_ep(fep)->tx_op_flags, AK_WRITE);
}

static ssize_t at_writev(struct fid_ep *fep, const struct fi_ioc *iov,
			 void **desc, size_t count, fi_addr_t dest,
			 uint64_t addr, uint64_t key, enum fi_datatype dt,
			 enum fi_op op, void *context)
{
	(void)desc;
	return do_atomic(to_ep(fep), iov, count, NULL, 0, NULL, 0, dest, addr,
			 key, dt, op, context, to_ep(fep)->tx_op_flags, AK_WRITE);
}

static ssize_t at_writemsg(struct fid_ep *fep, const struct fi_msg_atomic *msg,
			   uint64_t flags)
{
	if (msg->rma_iov_count != 1)
		return -FI_EINVAL;
	return do_atomic(to_ep(fep), msg->msg_iov, msg->iov_count, NULL, 0,
			 NULL, 0, msg->addr, msg->rma_iov[0].addr,
			 msg->rma_iov[0].key, msg->datatype, msg->op,
			 msg->context, flags & ~WFI_INJECT_CALL, AK_WRITE);
}

static ssize_t at_inject(struct fid_ep *fep, const void *buf, size_t count,
			 fi_addr_t dest, uint64_t addr, uint64_t key,
			 enum fi_datatype dt, enum fi_op op)
{
	struct fi_ioc ioc = { (void *)buf, count };

	return do_atomic(to_ep(fep), &ioc, 1, NULL, 0, NULL, 0, dest, addr, key,
			 dt, op, NULL, FI_INJECT | WFI_INJECT_CALL, AK_WRITE);
}

static ssize_t at_readwrite(struct fid_ep *fep, const void *buf, size_t count,
			    void *desc, void *result, void *result_desc,
			    fi_addr_t dest, uint64_t addr, uint64_t key,
			    enum fi_datatype dt, enum fi_op op, void *context)
{
	struct fi_ioc ioc = { (void *)buf, count }, res = { result, count };

	(void)desc; (void)result_desc;
	return do_atomic(to_ep(fep), &ioc, 1, NULL, 0, &res, 1, dest, addr,
			 key, dt, op, context, to_ep(fep)->tx_op_flags, AK_FETCH);
}

static ssize_t at_readwritev(struct fid_ep *fep, const struct fi_ioc *iov,
			     void **desc, size_t count, struct fi_ioc *resultv,
			     void **result_desc, size_t result_count,
			     fi_addr_t dest, uint64_t addr, uint64_t key,
			     enum fi_datatype dt, enum fi_op op, void *context)
{
	(void)desc; (void)result_desc;
	return do_atomic(to_ep(fep), iov, count, NULL, 0, resultv, result_count,
			 dest, addr, key, dt, op, context,
			 to_ep(fep)->tx_op_flags, AK_FETCH);
}

static ssize_t at_readwritemsg(struct fid_ep *fep,
			       const struct fi_msg_atomic *msg,
			       struct fi_ioc *resultv, void **result_desc,
			       size_t result_count, uint64_t flags)
{
	(void)result_desc;
	if (msg->rma_iov_count != 1)
		return -FI_EINVAL;
	return do_atomic(to_ep(fep), msg->msg_iov, msg->iov_count, NULL, 0,
			 resultv, result_count, msg->addr, msg->rma_iov[0].addr,
			 msg->rma_iov[0].key, msg->datatype, msg->op,
			 msg->context, flags, AK_FETCH);
}

static ssize_t at_compwrite(struct fid_ep *fep, const void *buf, size_t count,
			    void *desc, const void *compare, void *compare_desc,
			    void *result, void *result_desc, fi_addr_t dest,
			    uint64_t addr, uint64_t key, enum fi_datatype dt,
			    enum fi_op op, void *context)
{
	struct fi_ioc ioc = { (void *)buf, count }, cmp = { (void *)compare, count },
		      res = { result, count };

	(void)desc; (void)compare_desc; (void)result_desc;
	return do_atomic(to_ep(fep), &ioc, 1, &cmp, 1, &res, 1, dest, addr, key,
			 dt, op, context, to_ep(fep)->tx_op_flags, AK_COMPARE);
}

static ssize_t at_compwritev(struct fid_ep *fep, const struct fi_ioc *iov,
			     void **desc, size_t count,
			     const struct fi_ioc *comparev, void **compare_desc,
			     size_t compare_count, struct fi_ioc *resultv,
			     void **result_desc, size_t result_count,
			     fi_addr_t dest, uint64_t addr, uint64_t key,
			     enum fi_datatype dt, enum fi_op op, void *context)
{
	(void)desc; (void)compare_desc; (void)result_desc;
	return do_atomic(to_ep(fep), iov, count, comparev, compare_count,
			 resultv, result_count, dest, addr, key, dt, op,
			 context, to_ep(fep)->tx_op_flags, AK_COMPARE);
}

static ssize_t at_compwritemsg(struct fid_ep *fep,
			       const struct fi_msg_atomic *msg,
			       const struct fi_ioc *comparev,
			       void **compare_desc, size_t compare_count,
			       struct fi_ioc *resultv, void **result_desc,
			       size_t result_count, uint64_t flags)
{
	(void)compare_desc; (void)result_desc;
	if (msg->rma_iov_count != 1)
		return -FI_EINVAL;
	return do_atomic(to_ep(fep), msg->msg_iov, msg->iov_count, comparev,
			 compare_count, resultv, result_count, msg->addr,
			 msg->rma_iov[0].addr, msg->rma_iov[0].key,
			 msg->datatype, msg->op, msg->context, flags,
			 AK_COMPARE);
}

static int valid(enum fi_datatype dt, enum fi_op op, size_t *count, int kind)
{
	if (!op_valid(dt, op, kind))
		return -FI_EOPNOTSUPP;
	if (count)
		*count = WFI_ATOMIC_MAX / dt_size(dt);
	return 0;
}

static int at_writevalid(struct fid_ep *ep, enum fi_datatype dt,
			 enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(dt, op, count, AK_WRITE);
}

static int at_readwritevalid(struct fid_ep *ep, enum fi_datatype dt,
			     enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(dt, op, count, AK_FETCH);
}

static int at_compwritevalid(struct fid_ep *ep, enum fi_datatype dt,
			     enum fi_op op, size_t *count)
{
	(void)ep;
	return valid(dt, op, count, AK_COMPARE);
}

struct fi_ops_atomic wfi_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = at_write,
	.writev = at_writev,
	.writemsg = at_writemsg,
	.inject = at_inject,
	.readwrite = at_readwrite,
	.readwritev = at_readwritev,
	.readwritemsg = at_readwritemsg,
	.compwrite = at_compwrite,
	.compwritev = at_compwritev,
	.compwritemsg = at_compwritemsg,
	.writevalid = at_writevalid,
	.readwritevalid = at_readwritevalid,
	.compwritevalid = at_compwritevalid,
};

int wfi_query_atomic(struct fid_domain *domain, enum fi_datatype dt,
		     enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags)
{
	int kind = (flags & FI_COMPARE_ATOMIC) ? AK_COMPARE :
		   (flags & FI_FETCH_ATOMIC) ? AK_FETCH : AK_WRITE;

	(void)domain;
	if (flags & ~(FI_COMPARE_ATOMIC | FI_FETCH_ATOMIC | FI_TAGGED))
		return -FI_EBADFLAGS;
	if (!op_valid(dt, op, kind))
		return -FI_EOPNOTSUPP;
	attr->size = dt_size(dt);
	attr->count = WFI_ATOMIC_MAX / attr->size;
	return 0;
}

/* --- MR keys --- */

int wfi_mr_key(struct wfi_domain *dom, struct wfi_mr *mr)
{
	uint64_t key;
	ssize_t n;

	(void)dom;
	/* the kernel's random source, or no key: no weaker fallback */
	do {
		n = getrandom(&key, sizeof(key), 0);
	} while (n < 0 && errno == EINTR);
	if (n != sizeof(key)) {
		WFI_WARN(FI_LOG_MR, "getrandom: %s: no MR key\n",
			 n < 0 ? strerror(errno) : "short read");
		return -FI_EIO;
	}
	mr->mr.key = key;
	return 0;
}
