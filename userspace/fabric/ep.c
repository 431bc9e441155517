// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: endpoints, FI_MSG and FI_TAGGED, and progress.
 *
 * An endpoint is one Wind socket bound to an ephemeral port; its name is
 * that socket's struct sockaddr_in.  A send is one sendmsg() of a struct
 * wfi_hdr and the payload (async-ordered: Wind delivers it once, in order
 * per peer, or reports the peer on the error queue); it completes when the
 * kernel took the bytes (FI_INJECT_COMPLETE semantics).
 *
 * Receiving (progress, under the domain lock): the next message is peeked
 * (its header and, with MSG_TRUNC, its length); if a posted receive
 * matches, the message is read straight into the receive's buffers; if
 * not, it is read into a buffer of its own on the unexpected list, as long
 * as the unexpected bytes stay under FI_WIND_UNEXP_MAX (the first one is
 * always taken).  Beyond that, messages wait in the socket, where Wind's
 * window holds their senders back.  Posted receives look at the
 * unexpected list first, so matching follows arrival order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include "wind_fi.h"

/* --- completions --- */

static void complete(struct wfi_ep *ep, bool tx, uint64_t opflags,
		     const struct wfi_cqe *cqe)
{
	struct wfi_cq *cq = tx ? ep->tx_cq : ep->rx_cq;
	struct wfi_cntr *cntr = tx ? ep->send_cntr : ep->recv_cntr;
	bool selective = tx ? ep->tx_selective : ep->rx_selective;

	if (cqe->err) {
		if (cq)
			wfi_cq_push(cq, cqe);
		if (cntr)
			cntr->errs++;
		return;
	}
	if (cq && (!selective || (opflags & FI_COMPLETION)) &&
	    !(opflags & FI_INJECT))
		wfi_cq_push(cq, cqe);
	if (cntr)
		cntr->value++;
}

static int map_errno(int err)
{
	switch (err) {
	case ETIMEDOUT:
		return FI_ETIMEDOUT;
	case ECONNREFUSED:
		return FI_ECONNREFUSED;
	case ECONNRESET:
		return FI_ECONNRESET;
	case EMSGSIZE:
		return FI_EMSGSIZE;
	default:
		return FI_EIO;
	}
}

static size_t iov_total(const struct iovec *iov, size_t count)
{
	size_t i, n = 0;

	for (i = 0; i < count; i++)
		n += iov[i].iov_len;
	return n;
}

static void copy_to_iov(const struct iovec *iov, size_t count,
			const char *src, size_t len)
{
	size_t i, n;

	for (i = 0; i < count && len; i++) {
		n = iov[i].iov_len < len ? iov[i].iov_len : len;
		memcpy(iov[i].iov_base, src, n);
		src += n;
		len -= n;
	}
}

static bool same_addr(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
	return a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr;
}

static uint64_t op_flag(uint8_t op)
{
	return op == WFI_OP_TAGGED ? FI_TAGGED : FI_MSG;
}

/* Does a message of @op/@tag from @from satisfy @rx? */
static bool rx_match(struct wfi_ep *ep, const struct wfi_rx *rx, uint64_t tag,
		     const struct sockaddr_in *from)
{
	const struct sockaddr_in *want;

	if (rx->op == WFI_OP_TAGGED && ((rx->tag ^ tag) & ~rx->ignore))
		return false;
	if (rx->src == FI_ADDR_UNSPEC || !(ep->info->caps & FI_DIRECTED_RECV))
		return true;
	want = wfi_av_addr(ep->av, rx->src);
	return want && same_addr(want, from);
}

static fi_addr_t source_of(struct wfi_ep *ep, const struct sockaddr_in *from)
{
	fi_addr_t a;

	wfi_av_reverse(ep->av, from, &a);
	return a;
}

/* Complete @rx with a message of @len bytes of which @got were placed. */
static void rx_done(struct wfi_ep *ep, struct wfi_rx *rx,
		    const struct wfi_hdr *h, size_t len, size_t got,
		    const struct sockaddr_in *from)
{
	struct wfi_cqe c = {
		.e = {
			.op_context = rx->context,
			.flags = FI_RECV | op_flag(rx->op),
			.len = got,
			.tag = h->tag,
		},
		.src = source_of(ep, from),
	};

	if (h->flags & WFI_HF_DATA) {
		c.e.flags |= FI_REMOTE_CQ_DATA;
		c.e.data = h->data;
	}
	if (len > got) {
		c.err = FI_ETRUNC;
		c.prov_errno = EMSGSIZE;
		c.olen = len - got;
	}
	complete(ep, false, rx->flags, &c);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static bool is_directed(const struct wfi_ep *ep, const struct wfi_rx *rx)
{
	return rx->src != FI_ADDR_UNSPEC && (ep->info->caps & FI_DIRECTED_RECV);
}

/* Take @rx off its posted list. */
static void rx_unpost(struct wfi_ep *ep, struct wfi_rx *rx)
{
	wfi_list_del(&rx->link);
	if (is_directed(ep, rx))
		ep->ndirected--;
}

/* --- progress --- */

static void peer_failed(struct wfi_ep *ep, const struct sockaddr_in *peer,
			int err, unsigned int lost)
{
	struct wfi_list *pos, *next;
	int op;

	FI_INFO(&wfi_prov, FI_LOG_EP_DATA,
		"peer %s:%u failed: %s (%u messages lost)\n",
		inet_ntoa(peer->sin_addr), ntohs(peer->sin_port),
		strerror(err), lost);
	/* Receives directed at the dead peer would never complete. */
	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED; op++) {
		for (pos = ep->posted[op].next; pos != &ep->posted[op]; pos = next) {
			struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);
			const struct sockaddr_in *a;
			struct wfi_cqe c = { 0 };

			next = pos->next;
			if (rx->src == FI_ADDR_UNSPEC)
				continue;
			a = wfi_av_addr(ep->av, rx->src);
			if (!a || !same_addr(a, peer))
				continue;
			rx_unpost(ep, rx);
			c.e.op_context = rx->context;
			c.e.flags = FI_RECV | op_flag(rx->op);
			c.e.tag = rx->tag;
			c.src = rx->src;
			c.err = err == ETIMEDOUT ? FI_ETIMEDOUT : FI_EIO;
			c.prov_errno = err;
			complete(ep, false, rx->flags, &c);
			free(rx);
		}
	}
}

static void drain_errqueue(struct wfi_ep *ep)
{
	for (;;) {
		char cbuf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				     sizeof(struct sockaddr_in))];
		struct sockaddr_in from;
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm;
		int soerr;
		socklen_t sl = sizeof(soerr);

		if (recvmsg(ep->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			/* clear SO_ERROR too: the reports above said it all */
			getsockopt(ep->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
			return;
		}
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			struct sock_extended_err ee;

			if (cm->cmsg_level != SOL_IP || cm->cmsg_type != IP_RECVERR)
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			peer_failed(ep, &from, ee.ee_errno, ee.ee_info);
		}
	}
}

static void discard_next(struct wfi_ep *ep)
{
	char b;
	struct iovec iov = { &b, 0 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	recvmsg(ep->fd, &mh, MSG_DONTWAIT);
}

/* Read the next message into @rx, which matched its peeked header. */
static void recv_into(struct wfi_ep *ep, struct wfi_rx *rx, size_t len)
{
	struct iovec iov[WFI_IOV_LIMIT + 1];
	struct sockaddr_in from;
	struct wfi_hdr h;
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = iov, .msg_iovlen = rx->iov_count + 1,
	};
	ssize_t n;

	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	memcpy(&iov[1], rx->iov, rx->iov_count * sizeof(*iov));
	do {
		n = recvmsg(ep->fd, &mh, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < (ssize_t)sizeof(h))
		return;		/* cannot happen: we peeked it under our lock */
	rx_unpost(ep, rx);
	rx_done(ep, rx, &h, len, len < rx->len ? len : rx->len, &from);
	free(rx);
}

/* Read the next message onto the unexpected list. */
static int recv_unexpected(struct wfi_ep *ep, size_t len, int op)
{
	struct wfi_unexp *u = calloc(1, sizeof(*u));
	struct iovec iov[2];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	ssize_t n;

	if (!u)
		return -FI_ENOMEM;
	u->buf = malloc(len ? len : 1);
	if (!u->buf) {
		free(u);
		return -FI_ENOMEM;
	}
	mh.msg_name = &u->from;
	mh.msg_namelen = sizeof(u->from);
	iov[0].iov_base = &u->hdr;
	iov[0].iov_len = sizeof(u->hdr);
	iov[1].iov_base = u->buf;
	iov[1].iov_len = len;
	do {
		n = recvmsg(ep->fd, &mh, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(u->hdr) + len)) {
		free(u->buf);
		free(u);
		return -FI_EIO;
	}
	u->len = len;
	ep->unexp_bytes += len;
	ep->stat_unexp++;
	wfi_list_add_tail(&ep->unexp[op], &u->link);
	return 0;
}

/* Probe the peers that directed receives have waited on too long: a
 * message to a dead peer makes Wind declare it unreachable (within its
 * documented bound) and report it, which fails those receives. */
static void send_probes(struct wfi_ep *ep)
{
	int64_t now = now_ms();
	fi_addr_t last = FI_ADDR_NOTAVAIL;
	int op;

	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED; op++) {
		struct wfi_list *pos;

		for (pos = ep->posted[op].next; pos != &ep->posted[op]; pos = pos->next) {
			struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);
			struct wfi_hdr h = { .version = WFI_HDR_VERSION, .op = WFI_OP_PROBE };
			const struct sockaddr_in *sin;

			if (!is_directed(ep, rx) || now < rx->probe_at)
				continue;
			rx->probe_at = now + ep->probe_ms;
			sin = wfi_av_addr(ep->av, rx->src);
			if (!sin || rx->src == last)
				continue;
			last = rx->src;
			sendto(ep->fd, &h, sizeof(h), MSG_DONTWAIT | MSG_NOSIGNAL,
			       (const struct sockaddr *)sin, sizeof(*sin));
		}
	}
}

void wfi_ep_progress(struct wfi_ep *ep)
{
	bool errs = false;
	int i;

	if (ep->fd < 0 || !ep->enabled)
		return;
	/* A failure report also sets SO_ERROR, which the next read of an
	 * empty socket returns: the error queue is read then, and every
	 * 64th time in case the socket never runs empty. */
	if (++ep->progress_calls % 64 == 0) {
		errs = true;
		if (ep->ndirected && ep->probe_ms)
			send_probes(ep);
	}
	for (i = 0; i < 256; i++) {
		struct sockaddr_in from;
		struct wfi_hdr h;
		struct iovec iov = { &h, sizeof(h) };
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		struct wfi_list *pos;
		struct wfi_rx *rx = NULL;
		ssize_t n;
		size_t len;

		n = recvmsg(ep->fd, &mh, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				errs = true;	/* a pending SO_ERROR */
			break;
		}
		if (n < (ssize_t)sizeof(h) || h.version != WFI_HDR_VERSION ||
		    (h.op != WFI_OP_MSG && h.op != WFI_OP_TAGGED)) {
			if (n != sizeof(h) || h.op != WFI_OP_PROBE)
				WFI_WARN(FI_LOG_EP_DATA, "dropping a malformed message\n");
			discard_next(ep);
			continue;
		}
		len = n - sizeof(h);
		for (pos = ep->posted[h.op].next; pos != &ep->posted[h.op];
		     pos = pos->next) {
			struct wfi_rx *r = wfi_container_of(pos, struct wfi_rx, link);

			if (rx_match(ep, r, h.tag, &from)) {
				rx = r;
				break;
			}
		}
		if (rx) {
			recv_into(ep, rx, len);
			continue;
		}
		if (ep->unexp_bytes &&
		    ep->unexp_bytes + len > ep->unexp_max)
			break;	/* leave it in the socket */
		if (recv_unexpected(ep, len, h.op))
			break;
	}
	if (errs)
		drain_errqueue(ep);
}

/* --- data transfer --- */

static ssize_t do_send(struct wfi_ep *ep, const struct iovec *uiov, size_t count,
		       fi_addr_t dest, uint8_t op, uint64_t tag, uint64_t data,
		       bool has_data, void *context, uint64_t flags)
{
	struct iovec iov[WFI_IOV_LIMIT + 1];
	struct wfi_hdr h = {
		.version = WFI_HDR_VERSION, .op = op,
		.flags = has_data ? WFI_HF_DATA : 0, .tag = tag, .data = data,
	};
	struct sockaddr_in to;
	struct msghdr mh = { .msg_name = &to, .msg_namelen = sizeof(to),
			     .msg_iov = iov, .msg_iovlen = count + 1 };
	const struct sockaddr_in *sin;
	size_t total = iov_total(uiov, count);
	ssize_t ret = 0, n;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (total > WFI_MAX_MSG)
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) && total > WFI_INJECT_SIZE)
		return -FI_EMSGSIZE;
	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	memcpy(&iov[1], uiov, count * sizeof(*iov));

	pthread_mutex_lock(&ep->dom->lock);
	if (!ep->enabled) {
		ret = -FI_EOPBADSTATE;
		goto out;
	}
	sin = wfi_av_addr(ep->av, dest);
	if (!sin) {
		ret = -FI_EINVAL;
		goto out;
	}
	to = *sin;
	do {
		n = sendmsg(ep->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		struct wfi_cqe c = { 0 };

		switch (errno) {
		case EAGAIN:
		case ENOBUFS:
		/* a pending SO_ERROR of another peer's failure, which the
		 * error queue reports; this message was not sent: retry */
		case ETIMEDOUT:
		case ECONNREFUSED:
		case ECONNRESET:
			wfi_ep_progress(ep);
			ret = -FI_EAGAIN;
			goto out;
		case EMSGSIZE:
			ret = -FI_EMSGSIZE;
			goto out;
		}
		if (flags & FI_INJECT) {
			ret = -map_errno(errno);
			goto out;
		}
		c.e.op_context = context;
		c.e.flags = FI_SEND | op_flag(op);
		c.e.tag = tag;
		c.err = map_errno(errno);
		c.prov_errno = errno;
		complete(ep, true, flags, &c);
		goto out;
	}
	{
		struct wfi_cqe c = {
			.e = { .op_context = context, .flags = FI_SEND | op_flag(op) },
			.src = FI_ADDR_NOTAVAIL,
		};

		complete(ep, true, flags, &c);
	}
out:
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static struct wfi_unexp *find_unexp(struct wfi_ep *ep, const struct wfi_rx *rx)
{
	struct wfi_list *pos;

	for (pos = ep->unexp[rx->op].next; pos != &ep->unexp[rx->op];
	     pos = pos->next) {
		struct wfi_unexp *u = wfi_container_of(pos, struct wfi_unexp, link);

		if (!u->claim && rx_match(ep, rx, u->hdr.tag, &u->from))
			return u;
	}
	return NULL;
}

static void unexp_free(struct wfi_ep *ep, struct wfi_unexp *u)
{
	wfi_list_del(&u->link);
	ep->unexp_bytes -= u->len;
	free(u->buf);
	free(u);
}

/* Deliver unexpected message @u to @rx (whose buffers take what fits). */
static void unexp_deliver(struct wfi_ep *ep, struct wfi_rx *rx,
			  struct wfi_unexp *u, bool discard)
{
	size_t got = discard ? 0 : (u->len < rx->len ? u->len : rx->len);

	copy_to_iov(rx->iov, rx->iov_count, u->buf, got);
	rx_done(ep, rx, &u->hdr, discard ? 0 : u->len, got, &u->from);
	unexp_free(ep, u);
}

static ssize_t do_recv(struct wfi_ep *ep, const struct iovec *iov, size_t count,
		       fi_addr_t src, uint8_t op, uint64_t tag, uint64_t ignore,
		       void *context, uint64_t flags)
{
	struct wfi_rx *rx;
	struct wfi_unexp *u;
	ssize_t ret = 0;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -FI_ENOMEM;
	rx->context = context;
	rx->flags = flags;
	rx->op = op;
	rx->src = src;
	rx->tag = tag;
	rx->ignore = ignore;
	rx->iov_count = count;
	memcpy(rx->iov, iov, count * sizeof(*iov));
	rx->len = iov_total(iov, count);

	pthread_mutex_lock(&ep->dom->lock);
	if (src != FI_ADDR_UNSPEC && (ep->info->caps & FI_DIRECTED_RECV) &&
	    !wfi_av_addr(ep->av, src)) {
		ret = -FI_EINVAL;
		goto out_free;
	}
	if (flags & FI_CLAIM && !(flags & FI_PEEK)) {
		/* the message an earlier FI_PEEK | FI_CLAIM set aside */
		struct fi_context *fc = context;

		u = fc ? fc->internal[0] : NULL;
		if (!u) {
			ret = -FI_EINVAL;
			goto out_free;
		}
		unexp_deliver(ep, rx, u, flags & FI_DISCARD);
		goto out_free;
	}
	if (flags & FI_PEEK) {
		wfi_ep_progress(ep);
		u = find_unexp(ep, rx);
		if (!u) {
			struct wfi_cqe c = {
				.e = { .op_context = context,
				       .flags = FI_RECV | op_flag(op), .tag = tag },
				.err = FI_ENOMSG,
			};

			complete(ep, false, flags, &c);
		} else if (flags & FI_DISCARD) {
			unexp_deliver(ep, rx, u, true);
		} else {
			struct wfi_cqe c = {
				.e = { .op_context = context,
				       .flags = FI_RECV | op_flag(op),
				       .len = u->len, .tag = u->hdr.tag },
				.src = source_of(ep, &u->from),
			};

			if (u->hdr.flags & WFI_HF_DATA) {
				c.e.flags |= FI_REMOTE_CQ_DATA;
				c.e.data = u->hdr.data;
			}
			if (flags & FI_CLAIM) {
				u->claim = context;
				((struct fi_context *)context)->internal[0] = u;
			}
			complete(ep, false, flags | FI_COMPLETION, &c);
		}
		goto out_free;
	}
	u = find_unexp(ep, rx);
	if (u) {
		unexp_deliver(ep, rx, u, false);
		goto out_free;
	}
	if (is_directed(ep, rx)) {
		rx->probe_at = now_ms() + ep->probe_ms;
		ep->ndirected++;
	}
	wfi_list_add_tail(&ep->posted[op], &rx->link);
	wfi_ep_progress(ep);
	pthread_mutex_unlock(&ep->dom->lock);
	return 0;
out_free:
	pthread_mutex_unlock(&ep->dom->lock);
	free(rx);
	return ret;
}

static inline struct wfi_ep *to_ep(struct fid_ep *fep)
{
	return wfi_container_of(fep, struct wfi_ep, ep);
}

/* FI_MSG */

static ssize_t msg_recv(struct fid_ep *fep, void *buf, size_t len, void *desc,
			fi_addr_t src, void *context)
{
	struct iovec iov = { buf, len };

	(void)desc;
	return do_recv(to_ep(fep), &iov, 1, src, WFI_OP_MSG, 0, 0, context,
		       to_ep(fep)->rx_op_flags);
}

static ssize_t msg_recvv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src, void *context)
{
	(void)desc;
	return do_recv(to_ep(fep), iov, count, src, WFI_OP_MSG, 0, 0, context,
		       to_ep(fep)->rx_op_flags);
}

static ssize_t msg_recvmsg(struct fid_ep *fep, const struct fi_msg *msg,
			   uint64_t flags)
{
	return do_recv(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		       WFI_OP_MSG, 0, 0, msg->context, flags);
}

static ssize_t msg_send(struct fid_ep *fep, const void *buf, size_t len,
			void *desc, fi_addr_t dest, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, 0, false,
		       context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_sendv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t dest, void *context)
{
	(void)desc;
	return do_send(to_ep(fep), iov, count, dest, WFI_OP_MSG, 0, 0, false,
		       context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_sendmsg(struct fid_ep *fep, const struct fi_msg *msg,
			   uint64_t flags)
{
	return do_send(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		       WFI_OP_MSG, 0, msg->data, flags & FI_REMOTE_CQ_DATA,
		       msg->context, flags);
}

static ssize_t msg_inject(struct fid_ep *fep, const void *buf, size_t len,
			  fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, 0, false,
		       NULL, FI_INJECT);
}

static ssize_t msg_senddata(struct fid_ep *fep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest,
			    void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, data, true,
		       context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_injectdata(struct fid_ep *fep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, data, true,
		       NULL, FI_INJECT);
}

static struct fi_ops_msg msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = msg_recv,
	.recvv = msg_recvv,
	.recvmsg = msg_recvmsg,
	.send = msg_send,
	.sendv = msg_sendv,
	.sendmsg = msg_sendmsg,
	.inject = msg_inject,
	.senddata = msg_senddata,
	.injectdata = msg_injectdata,
};

/* FI_TAGGED */

static ssize_t tag_recv(struct fid_ep *fep, void *buf, size_t len, void *desc,
			fi_addr_t src, uint64_t tag, uint64_t ignore,
			void *context)
{
	struct iovec iov = { buf, len };

	(void)desc;
	return do_recv(to_ep(fep), &iov, 1, src, WFI_OP_TAGGED, tag, ignore,
		       context, to_ep(fep)->rx_op_flags);
}

static ssize_t tag_recvv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src, uint64_t tag,
			 uint64_t ignore, void *context)
{
	(void)desc;
	return do_recv(to_ep(fep), iov, count, src, WFI_OP_TAGGED, tag, ignore,
		       context, to_ep(fep)->rx_op_flags);
}

static ssize_t tag_recvmsg(struct fid_ep *fep, const struct fi_msg_tagged *msg,
			   uint64_t flags)
{
	return do_recv(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		       WFI_OP_TAGGED, msg->tag, msg->ignore, msg->context, flags);
}

static ssize_t tag_send(struct fid_ep *fep, const void *buf, size_t len,
			void *desc, fi_addr_t dest, uint64_t tag, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, 0, false,
		       context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_sendv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t dest, uint64_t tag,
			 void *context)
{
	(void)desc;
	return do_send(to_ep(fep), iov, count, dest, WFI_OP_TAGGED, tag, 0,
		       false, context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_sendmsg(struct fid_ep *fep, const struct fi_msg_tagged *msg,
			   uint64_t flags)
{
	return do_send(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		       WFI_OP_TAGGED, msg->tag, msg->data,
		       flags & FI_REMOTE_CQ_DATA, msg->context, flags);
}

static ssize_t tag_inject(struct fid_ep *fep, const void *buf, size_t len,
			  fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, 0, false,
		       NULL, FI_INJECT);
}

static ssize_t tag_senddata(struct fid_ep *fep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest,
			    uint64_t tag, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, data, true,
		       context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_injectdata(struct fid_ep *fep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return do_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, data, true,
		       NULL, FI_INJECT);
}

static struct fi_ops_tagged tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = tag_recv,
	.recvv = tag_recvv,
	.recvmsg = tag_recvmsg,
	.send = tag_send,
	.sendv = tag_sendv,
	.sendmsg = tag_sendmsg,
	.inject = tag_inject,
	.senddata = tag_senddata,
	.injectdata = tag_injectdata,
};

/* --- endpoint object --- */

static ssize_t ep_cancel(fid_t fid, void *context)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	struct wfi_list *pos;
	ssize_t ret = -FI_ENOENT;
	int op;

	pthread_mutex_lock(&ep->dom->lock);
	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED && ret; op++) {
		for (pos = ep->posted[op].next; pos != &ep->posted[op];
		     pos = pos->next) {
			struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);
			struct wfi_cqe c = { 0 };

			if (rx->context != context)
				continue;
			rx_unpost(ep, rx);
			c.e.op_context = context;
			c.e.flags = FI_RECV | op_flag(op);
			c.e.tag = rx->tag;
			c.err = FI_ECANCELED;
			c.prov_errno = ECANCELED;
			complete(ep, false, rx->flags, &c);
			free(rx);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

static int ep_getopt(fid_t fid, int level, int optname, void *optval,
		     size_t *optlen)
{
	(void)fid; (void)level; (void)optname; (void)optval; (void)optlen;
	return -FI_ENOPROTOOPT;
}

static int ep_setopt(fid_t fid, int level, int optname, const void *optval,
		     size_t optlen)
{
	(void)fid; (void)level; (void)optname; (void)optval; (void)optlen;
	return -FI_ENOPROTOOPT;
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
	.cancel = ep_cancel,
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
	size_t want = *addrlen;

	*addrlen = sizeof(ep->name);
	if (want < sizeof(ep->name))
		return -FI_ETOOSMALL;
	memcpy(addr, &ep->name, sizeof(ep->name));
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

static void free_lists(struct wfi_ep *ep)
{
	int op;

	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED; op++) {
		while (!wfi_list_empty(&ep->posted[op])) {
			struct wfi_list *e = ep->posted[op].next;

			wfi_list_del(e);
			free(wfi_container_of(e, struct wfi_rx, link));
		}
		while (!wfi_list_empty(&ep->unexp[op]))
			unexp_free(ep, wfi_container_of(ep->unexp[op].next,
							struct wfi_unexp, link));
	}
}

static int ep_close(struct fid *fid)
{
	struct wfi_ep *ep = wfi_container_of(fid, struct wfi_ep, ep.fid);
	struct wfi_domain *dom = ep->dom;

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
	if (ep->av)
		ep->av->refs--;
	free_lists(ep);
	dom->refs--;
	pthread_mutex_unlock(&dom->lock);
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

		/* FI_READ, FI_WRITE and the remote ones never fire: no FI_RMA */
		if (flags & ~(FI_SEND | FI_RECV | FI_READ | FI_WRITE |
			      FI_REMOTE_READ | FI_REMOTE_WRITE)) {
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
		if (!ret)
			ep->enabled = true;
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
			ep->tx_op_flags = *flags & ~FI_TRANSMIT;
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
 * non-loopback IPv4 address, else 127.0.0.1. */
static void pick_addr(struct in_addr *out)
{
	struct ifaddrs *ifa, *i;
	char *iface = NULL;

	out->s_addr = htonl(INADDR_LOOPBACK);
	fi_param_get_str(&wfi_prov, "iface", &iface);
	if (getifaddrs(&ifa))
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    !(i->ifa_flags & IFF_UP))
			continue;
		if (iface ? strcmp(iface, i->ifa_name) :
			    !!(i->ifa_flags & IFF_LOOPBACK))
			continue;
		*out = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
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
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	int one = 1;

	if (ep->info->src_addr)
		memcpy(&sin, ep->info->src_addr, sizeof(sin));
	if (sin.sin_addr.s_addr == htonl(INADDR_ANY))
		pick_addr(&sin.sin_addr);
	ep->fd = socket(AF_INET, SOCK_WIND | SOCK_CLOEXEC, 0);
	if (ep->fd < 0) {
		WFI_WARN(FI_LOG_EP_CTRL, "socket(AF_INET, SOCK_WIND): %s\n",
			 strerror(errno));
		return -FI_ENODEV;
	}
	if (setsockopt(ep->fd, SOL_WIND, WIND_RECVERR, &one, sizeof(one)))
		goto err;
	set_buf(ep->fd, SO_SNDBUFFORCE, SO_SNDBUF, wfi_param_size("sndbuf", 64u << 20));
	set_buf(ep->fd, SO_RCVBUFFORCE, SO_RCVBUF, wfi_param_size("rcvbuf", 64u << 20));
	if (bind(ep->fd, (struct sockaddr *)&sin, sizeof(sin)))
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
	ep->probe_ms = wfi_param_size("probe_ms", 2000);
	ep->tx_op_flags = info->tx_attr ? info->tx_attr->op_flags : 0;
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
	ep->ep.msg = &msg_ops;
	ep->ep.tagged = &tagged_ops;
	pthread_mutex_lock(&dom->lock);
	dom->refs++;
	pthread_mutex_unlock(&dom->lock);
	*epp = &ep->ep;
	return 0;
}
