// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: matching, progress and the data path of an endpoint.
 *
 * A send is one sendmsg() of a struct wfi_hdr and the payload
 * (async-ordered: Wind delivers it once, in order per peer, or reports
 * the peer on the error queue); it completes when the kernel took the
 * bytes (FI_INJECT_COMPLETE semantics).
 *
 * Receiving (progress, under the domain lock, by the application's
 * thread or the progress thread: thread.c): the next message is peeked
 * (its header and, with MSG_TRUNC, its length); if a posted receive
 * matches, the message is read straight into the receive's buffers; if
 * not, it is read into a buffer of its own on the unexpected list, as long
 * as the unexpected bytes stay under FI_WIND_UNEXP_MAX (the first one is
 * always taken).  Beyond that, messages wait in the socket, where Wind's
 * window holds their senders back.  Posted receives look at the
 * unexpected list first, so matching follows arrival order.
 *
 * The stash: after a message of at most WFI_STASH_SMALL bytes, progress
 * reads the next message whole, header and payload in one recvmsg(), into
 * a buffer of the endpoint's (as large as the socket's receive buffer,
 * the largest message Wind queues to it, mapped lazily), and every reader
 * of "the next message" (wfi_recv_next()) takes it from there: a small
 * message costs one system call instead of a peek and a read, which
 * under a busy-polling ping-pong is most of the provider's time.  After
 * a larger message, progress peeks again, so that a large one goes
 * straight into the receive's buffers without a copy.
 *
 * Chunking: a message larger than the endpoint's chunk (FI_WIND_CHUNK,
 * 64 KiB) is sent as several Wind messages (wind_fi.h, WFI_OP_CONT), so
 * that the receiver copies one piece out while the sender copies in the
 * next: Wind delivers a message only once all of it is in, and a 1 MiB
 * one sent whole is copied in, carried and copied out one after the
 * other.  The receiver matches the first piece and places each as it
 * comes (struct wfi_rxc); its completion comes with the last.  A new
 * message from a peer whose chunked message is not complete means that
 * its sender gave up on it (a send error mid-message): the pieces are
 * dropped, a receive they were going into is posted again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include "wind_fi.h"

/* --- completions --- */

void wfi_complete(struct wfi_ep *ep, bool tx, uint64_t opflags,
		  const struct wfi_cqe *cqe)
{
	struct wfi_cq *cq = tx ? ep->tx_cq : ep->rx_cq;
	struct wfi_cntr *cntr = tx ? ep->send_cntr : ep->recv_cntr;
	bool selective = tx ? ep->tx_selective : ep->rx_selective;

	ep->dom->events++;
	if (cqe->err) {
		if (cq)
			wfi_cq_push(cq, cqe);
		if (cntr)
			cntr->errs++;
		return;
	}
	if (cq && (!selective || (opflags & FI_COMPLETION)) &&
	    !(opflags & WFI_INJECT_CALL))
		wfi_cq_push(cq, cqe);
	if (cntr)
		cntr->value++;
}

/**
 * wfi_map_errno() - the libfabric error for a socket call's errno
 * @err: positive errno
 *
 * Return: positive FI_E* value.
 */
int wfi_map_errno(int err)
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
	case EACCES:
		return FI_EACCES;
	default:
		return FI_EIO;
	}
}

/* Bytes in an iovec array */
size_t wfi_iov_total(const struct iovec *iov, size_t count)
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

static uint64_t op_flag(uint8_t op)
{
	return op == WFI_OP_TAGGED ? FI_TAGGED : FI_MSG;
}

/* Does a message of @op/@tag from @from satisfy @rx? */
static bool rx_match(struct wfi_ep *ep, const struct wfi_rx *rx, uint64_t tag,
		     const union wfi_addr *from)
{
	const union wfi_addr *want;

	if (rx->op == WFI_OP_TAGGED && ((rx->tag ^ tag) & ~rx->ignore))
		return false;
	if (rx->src == FI_ADDR_UNSPEC || !(ep->info->caps & FI_DIRECTED_RECV))
		return true;
	want = wfi_av_addr(ep->av, rx->src);
	return want && wfi_addr_same(want, from);
}

static fi_addr_t source_of(struct wfi_ep *ep, const union wfi_addr *from)
{
	fi_addr_t a;

	wfi_av_reverse(ep->av, from, &a);
	return a;
}

/* Where the next message into @rx goes: @out (WFI_IOV_LIMIT entries);
 * returns the count. */
static size_t rx_iov(const struct wfi_rx *rx, struct iovec *out)
{
	if (!rx->multi) {
		memcpy(out, rx->iov, rx->iov_count * sizeof(*out));
		return rx->iov_count;
	}
	out[0].iov_base = (char *)rx->iov[0].iov_base + rx->moff;
	out[0].iov_len = rx->len - rx->moff;
	return 1;
}

/* Bytes the next message into @rx may have */
static size_t rx_room(const struct wfi_rx *rx)
{
	return rx->len - rx->moff;
}

/* Complete @rx with a message of @len bytes of which @got were placed.
 * Return: whether @rx is done with (a multi-receive buffer is done once
 * it is released). */
static bool rx_done(struct wfi_ep *ep, struct wfi_rx *rx,
		    const struct wfi_hdr *h, size_t len, size_t got,
		    const union wfi_addr *from)
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
	bool done = true;

	if (h->flags & WFI_HF_DATA) {
		c.e.flags |= FI_REMOTE_CQ_DATA;
		c.e.data = h->data;
	}
	if (len > got) {
		c.err = FI_ETRUNC;
		c.prov_errno = EMSGSIZE;
		c.olen = len - got;
	}
	if (rx->multi) {
		c.e.buf = (char *)rx->iov[0].iov_base + rx->moff;
		rx->moff += got;
		/* a truncated message used up the buffer */
		done = len > got || rx_room(rx) < rx->mmin;
		if (done)
			c.e.flags |= FI_MULTI_RECV;
	}
	wfi_complete(ep, false, rx->flags, &c);
	return done;
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

static void rxc_abandon(struct wfi_ep *ep, const union wfi_addr *from);
static int txc_push(struct wfi_ep *ep);

/* Take @rx off its posted list. */
static void rx_unpost(struct wfi_ep *ep, struct wfi_rx *rx)
{
	wfi_list_del(&rx->link);
	if (is_directed(ep, rx))
		ep->ndirected--;
}

/* --- progress --- */

static void peer_failed(struct wfi_ep *ep, const union wfi_addr *peer,
			int err, unsigned int lost)
{
	struct wfi_list *pos, *next;
	int op;

	char name[WFI_ADDRSTRLEN];

	FI_INFO(&wfi_prov, FI_LOG_EP_DATA,
		"peer %s failed: %s (%u messages lost)\n",
		wfi_addr_str(peer, name, sizeof(name)), strerror(err), lost);
	wfi_rma_peer_failed(ep, peer, err);
	/* the rest of its chunked message will not come */
	rxc_abandon(ep, peer);
	/* Receives directed at the dead peer would never complete. */
	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED; op++) {
		for (pos = ep->posted[op].next; pos != &ep->posted[op]; pos = next) {
			struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);
			const union wfi_addr *a;
			struct wfi_cqe c = { 0 };

			next = pos->next;
			if (!is_directed(ep, rx))
				continue;
			a = wfi_av_addr(ep->av, rx->src);
			if (!a || !wfi_addr_same(a, peer))
				continue;
			rx_unpost(ep, rx);
			c.e.op_context = rx->context;
			c.e.flags = FI_RECV | op_flag(rx->op) |
				    (rx->multi ? FI_MULTI_RECV : 0);
			c.e.tag = rx->tag;
			c.src = rx->src;
			c.err = err == ETIMEDOUT ? FI_ETIMEDOUT : FI_EIO;
			c.prov_errno = err;
			wfi_complete(ep, false, rx->flags, &c);
			free(rx);
		}
	}
}

/* The Wind errors that say a peer is dead (wind(7), "error queue"):
 * everything queued to it was dropped.  Any other error on the queue
 * (EACCES, ERANGE, EINVAL from a Direct Map message the target's kernel
 * refused, EMSGSIZE from a message larger than the target's receive
 * buffer) refused ee_info messages, and the peer is alive. */
static bool peer_dead_errno(int err)
{
	return err == ETIMEDOUT || err == ECONNREFUSED || err == ECONNRESET;
}

static void message_refused(struct wfi_ep *ep, const union wfi_addr *peer,
			    int err, unsigned int count, uint32_t msgid)
{
	unsigned int n = count == 1 ? wfi_rma_refused(ep, peer, err, msgid) : 0;
	char name[WFI_ADDRSTRLEN];

	if (n < count)
		WFI_WARN(FI_LOG_EP_DATA,
			 "peer %s refused %u message(s) whose sends had completed: %s\n",
			 wfi_addr_str(peer, name, sizeof(name)), count - n,
			 strerror(err));
}

/**
 * wfi_drain_errqueue() - read every failure report of the socket
 * @ep: the endpoint, lock held
 * @match: an errno to count, or 0
 *
 * A dead peer fails what waits on it; a refused message fails (or sends
 * again) only the operation it was.  Clears SO_ERROR too.
 *
 * Return: how many reports carried @match.
 */
unsigned int wfi_drain_errqueue(struct wfi_ep *ep, int match)
{
	unsigned int matched = 0;

	for (;;) {
		char cbuf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				     sizeof(struct sockaddr_in6))];
		union wfi_addr from;
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
			return matched;
		}
		wfi_addr_norm(&from);
		ep->consumed++;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			struct sock_extended_err ee;

			if ((cm->cmsg_level != SOL_IP ||
			     cm->cmsg_type != IP_RECVERR) &&
			    (cm->cmsg_level != SOL_IPV6 ||
			     cm->cmsg_type != IPV6_RECVERR))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_WIND)
				continue;
			if (match && (int)ee.ee_errno == match)
				matched++;
			if (ee.ee_errno == ECONNREFUSED &&
			    wfi_peer_refused(ep, &from, ee.ee_info))
				continue;	/* not up yet: sent again */
			if (peer_dead_errno(ee.ee_errno))
				peer_failed(ep, &from, ee.ee_errno, ee.ee_info);
			else
				message_refused(ep, &from, ee.ee_errno,
						ee.ee_info ? ee.ee_info : 1,
						ee.ee_data);
		}
	}
}

/**
 * wfi_failed_by_report() - did a send fail only because of a report?
 * @ep: the endpoint, lock held
 * @err: the send's errno
 *
 * A failure report sets SO_ERROR, which fails the next send once with
 * that error, sending nothing.  A dead peer's error always counts as
 * such (the send is tried again, and fails properly if its own peer is
 * the dead one); another error counts if the error queue holds a report
 * of it.  The queue is read either way.
 */
bool wfi_failed_by_report(struct wfi_ep *ep, int err)
{
	unsigned int n = wfi_drain_errqueue(ep, err);

	return peer_dead_errno(err) || n > 0;
}

/* --- the stash --- */

/* Messages up to this size (header and payload) make progress read the
 * next one into the stash */
#define WFI_STASH_SMALL		(16u << 10)

_Static_assert(sizeof(((struct wfi_ep *)0)->stash_ctl) >=
	       CMSG_SPACE(sizeof(struct wind_dsm)) + CMSG_SPACE(sizeof(uint32_t)),
	       "stash_ctl holds the control messages handle_wdata() reads");

void wfi_stash_free(struct wfi_ep *ep)
{
	if (ep->stash)
		munmap(ep->stash, ep->stash_cap);
	ep->stash = NULL;
	ep->stash_cap = 0;
	ep->stashed = false;
	ep->stash_next = false;
}

/* Map the stash: room for the largest message the socket can queue
 * (Wind refuses one larger than the receive buffer: EMSGSIZE to its
 * sender), and at least for the largest one this provider sends.
 * Return: 0, or -1 (then progress peeks, as without a stash). */
static int stash_map(struct wfi_ep *ep)
{
	int rcvbuf = 0;
	socklen_t sl = sizeof(rcvbuf);
	size_t cap = sizeof(struct wfi_hdr) + WFI_MAX_MSG + 4096;
	void *p;

	if (!getsockopt(ep->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &sl) &&
	    rcvbuf > 0 && (size_t)rcvbuf > cap)
		cap = rcvbuf;
	p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		ep->stash_off = true;	/* peek, as without it; no retry */
		return -1;
	}
	ep->stash = p;
	ep->stash_cap = cap;
	return 0;
}

/* Read the next message into the stash.  Return: as recvmsg() (with
 * MSG_TRUNC: the message's length). */
static ssize_t stash_fill(struct wfi_ep *ep)
{
	struct iovec iov;
	struct msghdr mh = {
		.msg_name = &ep->stash_from,
		.msg_namelen = sizeof(ep->stash_from),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ep->stash_ctl,
		.msg_controllen = sizeof(ep->stash_ctl),
	};
	ssize_t n;

	iov.iov_base = ep->stash;
	iov.iov_len = ep->stash_cap;
	n = recvmsg(ep->fd, &mh, MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0)
		return n;
	if ((size_t)n > ep->stash_cap) {
		/* cannot happen (see stash_map); its end is lost */
		WFI_WARN(FI_LOG_EP_DATA, "dropping a message of %zd bytes\n", n);
		return 0;
	}
	ep->stash_len = n;
	ep->stash_ctllen = mh.msg_controllen;
	ep->stashed = true;
	return n;
}

/* A stashed message was used up: give back the pages a large one took */
static void stash_consumed(struct wfi_ep *ep)
{
	ep->stashed = false;
	if (ep->stash_len > (1u << 20))
		madvise(ep->stash, ep->stash_len, MADV_DONTNEED);
}

/**
 * wfi_recv_next() - recvmsg() of the socket's next message
 * @ep: the endpoint, lock held
 * @mh: as for recvmsg()
 * @flags: MSG_PEEK and MSG_TRUNC are honoured; MSG_DONTWAIT is implied
 *
 * From the stash when it holds the next message, else from the socket.
 *
 * Return: as recvmsg().
 */
ssize_t wfi_recv_next(struct wfi_ep *ep, struct msghdr *mh, int flags)
{
	size_t i, off = 0;
	ssize_t n;

	if (!ep->stashed) {
		do {
			n = recvmsg(ep->fd, mh, flags | MSG_DONTWAIT);
		} while (n < 0 && errno == EINTR);
		if (n >= 0 && !(flags & MSG_PEEK))
			ep->consumed++;
		return n;
	}
	for (i = 0; i < (size_t)mh->msg_iovlen && off < ep->stash_len; i++) {
		size_t k = ep->stash_len - off;

		if (k > mh->msg_iov[i].iov_len)
			k = mh->msg_iov[i].iov_len;
		memcpy(mh->msg_iov[i].iov_base, ep->stash + off, k);
		off += k;
	}
	if (mh->msg_name) {
		socklen_t k = sizeof(ep->stash_from);

		if (k > mh->msg_namelen)
			k = mh->msg_namelen;
		memcpy(mh->msg_name, &ep->stash_from, k);
		mh->msg_namelen = wfi_addr_len(&ep->stash_from);
	}
	mh->msg_flags = off < ep->stash_len ? MSG_TRUNC : 0;
	if (mh->msg_control) {
		size_t k = ep->stash_ctllen;

		if (k > mh->msg_controllen) {
			k = 0;	/* whole control messages or none */
			mh->msg_flags |= MSG_CTRUNC;
		}
		memcpy(mh->msg_control, ep->stash_ctl, k);
		mh->msg_controllen = k;
	} else {
		mh->msg_controllen = 0;
	}
	if (!(flags & MSG_PEEK)) {
		stash_consumed(ep);
		ep->consumed++;
	}
	return (flags & MSG_TRUNC) ? (ssize_t)ep->stash_len : (ssize_t)off;
}

void wfi_discard_next(struct wfi_ep *ep)
{
	char b;
	struct iovec iov = { &b, 0 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	wfi_recv_next(ep, &mh, 0);
}

/* @out (at most WFI_IOV_LIMIT entries): @len bytes of @iov from @off on */
static size_t iov_slice(const struct iovec *iov, size_t count, size_t off,
			size_t len, struct iovec *out)
{
	size_t i, n = 0;

	for (i = 0; i < count && len; i++) {
		size_t k;

		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		k = iov[i].iov_len - off;
		if (k > len)
			k = len;
		out[n].iov_base = (char *)iov[i].iov_base + off;
		out[n].iov_len = k;
		n++;
		len -= k;
		off = 0;
	}
	return n;
}

/* Read the next message into @rx, which matched its peeked header. */
static void recv_into(struct wfi_ep *ep, struct wfi_rx *rx, size_t len)
{
	struct iovec iov[WFI_IOV_LIMIT + 1];
	union wfi_addr from;
	struct wfi_hdr h;
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = iov,
	};
	ssize_t n;

	size_t room = rx_room(rx);

	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	mh.msg_iovlen = 1 + rx_iov(rx, &iov[1]);
	n = wfi_recv_next(ep, &mh, 0);
	if (n < (ssize_t)sizeof(h))
		return;		/* cannot happen: we peeked it under our lock */
	wfi_addr_norm(&from);
	if (rx_done(ep, rx, &h, len, len < room ? len : room, &from)) {
		rx_unpost(ep, rx);
		free(rx);
	}
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
	n = wfi_recv_next(ep, &mh, 0);
	if (n != (ssize_t)(sizeof(u->hdr) + len)) {
		free(u->buf);
		free(u);
		return -FI_EIO;
	}
	wfi_addr_norm(&u->from);
	u->len = len;
	ep->unexp_bytes += len;
	ep->stat_unexp++;
	wfi_list_add_tail(&ep->unexp[op], &u->link);
	return 0;
}

/* --- chunked messages, receiving --- */

static bool unexp_deliver(struct wfi_ep *ep, struct wfi_rx *rx,
			  struct wfi_unexp *u, bool discard);

static struct wfi_rxc *rxc_find(struct wfi_ep *ep, const union wfi_addr *from)
{
	struct wfi_list *pos;

	for (pos = ep->rxcs.next; pos != &ep->rxcs; pos = pos->next) {
		struct wfi_rxc *c = wfi_container_of(pos, struct wfi_rxc, link);

		if (wfi_addr_same(&c->from, from))
			return c;
	}
	return NULL;
}

/* Give up the chunked message @c: its receive is posted again (first in
 * its list, where it was matched), an unexpected one's buffer freed. */
static void rxc_drop(struct wfi_ep *ep, struct wfi_rxc *c)
{
	wfi_list_del(&c->link);
	if (c->rx) {
		wfi_list_add_tail(ep->posted[c->rx->op].next, &c->rx->link);
		if (is_directed(ep, c->rx))
			ep->ndirected++;
	} else {
		ep->unexp_bytes -= c->total;
		free(c->u->buf);
		free(c->u);
	}
	free(c);
}

/* A message from @from that is not a piece: the sender gave up on the
 * chunked message it was sending us, if any. */
static void rxc_abandon(struct wfi_ep *ep, const union wfi_addr *from)
{
	struct wfi_rxc *c;

	if (wfi_list_empty(&ep->rxcs))
		return;
	c = rxc_find(ep, from);
	if (c)
		rxc_drop(ep, c);
}

/* Read the next message (a piece of @len bytes, header included) into
 * @c at its offset. */
static ssize_t rxc_read(struct wfi_ep *ep, struct wfi_rxc *c, size_t len)
{
	struct iovec iov[WFI_IOV_LIMIT + 1];
	struct wfi_hdr h;
	struct msghdr mh = { .msg_iov = iov };
	size_t n = 1;

	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	if (c->rx) {
		/* what does not fit the receive is cut off (FI_ETRUNC) */
		if (c->off < c->room)
			n += iov_slice(c->rx->iov, c->rx->iov_count, c->off,
				       c->room - c->off, &iov[1]);
	} else {
		iov[1].iov_base = (char *)c->u->buf + c->off;
		iov[1].iov_len = len;
		n++;
	}
	mh.msg_iovlen = n;
	return wfi_recv_next(ep, &mh, MSG_TRUNC);
}

/* The last piece of @c is in: complete its receive, or put the message on
 * the unexpected list, where a posted receive may be waiting for it.
 * Return: how many posted receives this completed. */
static size_t rxc_finish(struct wfi_ep *ep, struct wfi_rxc *c)
{
	struct wfi_list *pos;
	struct wfi_unexp *u = c->u;
	size_t got = c->total < c->room ? c->total : c->room;

	wfi_list_del(&c->link);
	ep->stat_chunked_rx++;
	if (c->rx) {
		/* never a multi-receive buffer: done with it */
		rx_done(ep, c->rx, &c->hdr, c->total, got, &c->from);
		free(c->rx);
		free(c);
		return 1;
	}
	free(c);
	ep->stat_unexp++;
	wfi_list_add_tail(&ep->unexp[u->hdr.op], &u->link);
	for (pos = ep->posted[u->hdr.op].next; pos != &ep->posted[u->hdr.op];
	     pos = pos->next) {
		struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);

		if (rx_match(ep, rx, u->hdr.tag, &u->from)) {
			if (unexp_deliver(ep, rx, u, false)) {
				rx_unpost(ep, rx);
				free(rx);
			}
			return 1;
		}
	}
	return 0;
}

/* The first piece of a chunked message, its header peeked: @h, @len
 * bytes of payload in this piece.  @rx: the posted receive it matched,
 * or NULL.  Return: 0, or -1 to leave it in the socket (the unexpected
 * bytes are at their bound). */
static int rxc_start(struct wfi_ep *ep, const struct wfi_hdr *h, size_t len,
		     const union wfi_addr *from, struct wfi_rx *rx)
{
	struct wfi_rxc *c;
	size_t total = h->reserved;

	if (total <= len || total > WFI_MAX_MSG) {
		WFI_WARN(FI_LOG_EP_DATA, "dropping a malformed message\n");
		wfi_discard_next(ep);
		return 0;
	}
	if (!rx && ep->unexp_bytes && ep->unexp_bytes + total > ep->unexp_max)
		return -1;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->from = *from;
	c->hdr = *h;
	c->hdr.flags &= ~WFI_HF_FIRST;
	c->total = total;
	if (rx) {
		rx_unpost(ep, rx);
		c->rx = rx;
		c->room = rx_room(rx);
	} else {
		c->u = calloc(1, sizeof(*c->u));
		if (c->u)
			c->u->buf = malloc(total);
		if (!c->u || !c->u->buf) {
			if (c->u)
				free(c->u);
			free(c);
			return -1;
		}
		c->u->from = *from;
		c->u->hdr = c->hdr;
		c->u->len = total;
		c->room = total;
		ep->unexp_bytes += total;
	}
	wfi_list_add_tail(&ep->rxcs, &c->link);
	rxc_read(ep, c, len);
	c->off = len;
	return 0;
}

/* A WFI_OP_CONT piece, its header peeked.  Return: as rxc_finish(). */
static size_t rxc_cont(struct wfi_ep *ep, const struct wfi_hdr *h, size_t len,
		       const union wfi_addr *from)
{
	struct wfi_rxc *c = rxc_find(ep, from);

	if (!c || h->tag != c->off || h->reserved != c->total ||
	    len > c->total - c->off || !len) {
		WFI_WARN(FI_LOG_EP_DATA, "dropping a stray message piece\n");
		wfi_discard_next(ep);
		return 0;
	}
	rxc_read(ep, c, len);
	c->off += len;
	return c->off == c->total ? rxc_finish(ep, c) : 0;
}

/* A header-only message the receiver drops: Wind reports @peer if dead */
static void send_probe(struct wfi_ep *ep, const union wfi_addr *peer)
{
	struct wfi_hdr h = { .version = WFI_HDR_VERSION, .op = WFI_OP_PROBE };
	union wfi_addr to;

	sendto(ep->fd, &h, sizeof(h), MSG_DONTWAIT | MSG_NOSIGNAL,
	       &to.sa, wfi_addr_to(ep, peer, &to));
}

/* Probe the peers that directed receives have waited on too long: a
 * message to a dead peer makes Wind declare it unreachable (within its
 * documented bound) and report it, which fails those receives. */
static void send_probes(struct wfi_ep *ep)
{
	int64_t now = now_ms();
	fi_addr_t last = FI_ADDR_NOTAVAIL;
	struct wfi_list *pos;
	int op;

	for (op = WFI_OP_MSG; op <= WFI_OP_TAGGED; op++) {
		for (pos = ep->posted[op].next; pos != &ep->posted[op]; pos = pos->next) {
			struct wfi_rx *rx = wfi_container_of(pos, struct wfi_rx, link);
			const union wfi_addr *sin;

			if (!is_directed(ep, rx) || now < rx->probe_at)
				continue;
			rx->probe_at = now + ep->probe_ms;
			sin = wfi_av_addr(ep->av, rx->src);
			/* a peer not heard from yet: a probe would be one
			 * more refused message (peer.c) */
			if (!sin || rx->src == last || wfi_peer_held(ep, sin))
				continue;
			last = rx->src;
			send_probe(ep, sin);
		}
	}
	/* chunked messages into directed receives: their senders may die
	 * mid-message */
	for (pos = ep->rxcs.next; pos != &ep->rxcs; pos = pos->next) {
		struct wfi_rxc *c = wfi_container_of(pos, struct wfi_rxc, link);

		if (!c->rx || !is_directed(ep, c->rx) || now < c->rx->probe_at)
			continue;
		c->rx->probe_at = now + ep->probe_ms;
		send_probe(ep, &c->from);
	}
	/* RMA requests whose answer is late: the target may have died after
	 * its kernel took the request (or closed without serving it) */
	last = FI_ADDR_NOTAVAIL;
	for (pos = ep->pending.next; pos != &ep->pending; pos = pos->next) {
		struct wfi_pend *p = wfi_container_of(pos, struct wfi_pend, link);
		const union wfi_addr *sin;

		if (now < p->probe_at)
			continue;
		p->probe_at = now + ep->probe_ms;
		sin = &p->to;
		if (p->dest == last)
			continue;
		last = p->dest;
		send_probe(ep, sin);
	}
}

int64_t wfi_now_ms(void)
{
	return now_ms();
}

/* Read what came, serve RMA requests, push what waits to be sent */
static void ep_progress(struct wfi_ep *ep, size_t want, bool thread)
{
	size_t delivered = 0;
	bool errs = false;
	int i;

	if (ep->fd < 0 || !ep->enabled)
		return;
	if (thread) {
		/* a report on the error queue (POLLERR) may have no
		 * SO_ERROR left to make a read fail: read it anyway */
		errs = true;
		if ((ep->ndirected || !wfi_list_empty(&ep->pending) ||
		     !wfi_list_empty(&ep->rxcs)) && ep->probe_ms)
			send_probes(ep);
	}
	if (ep->txc.active)
		txc_push(ep);
	if (!wfi_list_empty(&ep->peers))
		wfi_peer_progress(ep);
	/* A failure report also sets SO_ERROR, which the next read of an
	 * empty socket returns: the error queue is read then, and every
	 * 64th time in case the socket never runs empty. */
	if (++ep->progress_calls % 64 == 0) {
		errs = true;
		if ((ep->ndirected || !wfi_list_empty(&ep->pending) ||
		     !wfi_list_empty(&ep->rxcs)) && ep->probe_ms)
			send_probes(ep);
	}
	for (i = 0; i < 256; i++) {
		union wfi_addr from;
		struct wfi_hdr h;
		struct iovec iov = { &h, sizeof(h) };
		union {
			char buf[CMSG_SPACE(sizeof(struct wind_rma)) + 64];
			struct cmsghdr align;
		} ctl;
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
		};
		struct cmsghdr *cm;
		struct wfi_list *pos;
		struct wfi_rx *rx = NULL;
		ssize_t n;
		size_t len;

		if (ep->stash_next && !ep->stashed && !ep->stash_off &&
		    (ep->stash || !stash_map(ep)))
			n = stash_fill(ep);
		else
			n = 0;
		if (n >= 0)
			n = wfi_recv_next(ep, &mh, MSG_PEEK | MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				errs = true;	/* a pending SO_ERROR */
			break;
		}
		ep->stash_next = (size_t)n <= WFI_STASH_SMALL;
		wfi_addr_norm(&from);
		/* a target's kernel answered a read or an atomic: no header */
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_WIND &&
			    cm->cmsg_type == WIND_CMSG_RMA &&
			    cm->cmsg_len == CMSG_LEN(sizeof(struct wind_rma)))
				break;
		if (cm) {
			struct wind_rma done;

			memcpy(&done, CMSG_DATA(cm), sizeof(done));
			wfi_rma_kernel_done(ep, &done, n);
			continue;
		}
		if (n >= (ssize_t)sizeof(h) && h.version == WFI_HDR_VERSION &&
		    h.op >= WFI_OP_WRITE && h.op <= WFI_OP_WDATA) {
			wfi_rma_incoming(ep, &h, n - sizeof(h), &from);
			continue;
		}
		if (n >= (ssize_t)sizeof(h) && h.version == WFI_HDR_VERSION &&
		    h.op == WFI_OP_CONT) {
			delivered += rxc_cont(ep, &h, n - sizeof(h), &from);
			if (delivered >= want)
				break;
			continue;
		}
		if (n < (ssize_t)sizeof(h) || h.version != WFI_HDR_VERSION ||
		    (h.op != WFI_OP_MSG && h.op != WFI_OP_TAGGED)) {
			if (n != sizeof(h) || h.op != WFI_OP_PROBE)
				WFI_WARN(FI_LOG_EP_DATA, "dropping a malformed message\n");
			wfi_discard_next(ep);
			continue;
		}
		rxc_abandon(ep, &from);
		len = n - sizeof(h);
		for (pos = ep->posted[h.op].next; pos != &ep->posted[h.op];
		     pos = pos->next) {
			struct wfi_rx *r = wfi_container_of(pos, struct wfi_rx, link);

			if (rx_match(ep, r, h.tag, &from)) {
				rx = r;
				break;
			}
		}
		if (h.flags & WFI_HF_FIRST) {
			/* a multi-receive buffer gets it once whole */
			if (rx && rx->multi)
				rx = NULL;
			if (rxc_start(ep, &h, len, &from, rx))
				break;
			continue;
		}
		if (rx) {
			recv_into(ep, rx, len);
			if (++delivered >= want)
				break;
			continue;
		}
		if (ep->unexp_bytes &&
		    ep->unexp_bytes + len > ep->unexp_max)
			break;	/* leave it in the socket */
		if (recv_unexpected(ep, len, h.op))
			break;
	}
	if (errs)
		wfi_drain_errqueue(ep, 0);
	if (ep->ndm)
		wfi_rma_dm_progress(ep);
}

/**
 * wfi_ep_progress_n() - the application's progress of an endpoint
 * @ep: the endpoint, lock held
 * @want: stop once this many messages completed posted receives
 *
 * A CQ read for one completion stops at the message that completes it,
 * so that a ping-pong does not pay a read that finds the socket empty
 * before its next send; the next read goes on.  The progress thread
 * leaves an endpoint the application progresses to it (thread.c).
 */
void wfi_ep_progress_n(struct wfi_ep *ep, size_t want)
{
	ep->app_seq++;
	ep_progress(ep, want, false);
}

void wfi_ep_progress(struct wfi_ep *ep)
{
	wfi_ep_progress_n(ep, SIZE_MAX);
}

/**
 * wfi_ep_progress_auto() - the progress thread's progress of an endpoint
 * @ep: the endpoint, lock held
 *
 * Everything at once: what the socket holds, the error queue, the probes
 * that are due.
 */
void wfi_ep_progress_auto(struct wfi_ep *ep)
{
	ep_progress(ep, SIZE_MAX, true);
}

/* --- data transfer --- */

/* One sendmsg() of @h and @count entries of @uiov.  Return: as sendmsg(),
 * -errno on failure. */
static ssize_t send_one(struct wfi_ep *ep, const struct wfi_hdr *h,
			const struct iovec *uiov, size_t count,
			const union wfi_addr *to, socklen_t tolen)
{
	struct iovec iov[WFI_IOV_LIMIT + 1];
	struct msghdr mh = { .msg_name = (void *)to, .msg_namelen = tolen,
			     .msg_iov = iov, .msg_iovlen = count + 1 };
	ssize_t n;

	iov[0].iov_base = (void *)h;
	iov[0].iov_len = sizeof(*h);
	memcpy(&iov[1], uiov, count * sizeof(*iov));
	do {
		n = sendmsg(ep->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static bool send_later(struct wfi_ep *ep, int err)
{
	/* a pending SO_ERROR of a failure report (another peer's death, a
	 * refused message), which the error queue tells: this message was
	 * not sent: retry */
	return err == EAGAIN || err == ENOBUFS || wfi_failed_by_report(ep, err);
}

/* Send what is left of the endpoint's chunked send, and complete it once
 * it is all out.  Return: 0 (done, or the rest left for progress), or
 * -errno if its first piece could not be sent (it is not started then). */
static int txc_push(struct wfi_ep *ep)
{
	struct wfi_txc *t = &ep->txc;

	while (t->off < t->total) {
		struct iovec piece[WFI_IOV_LIMIT];
		size_t len = t->total - t->off, cnt;
		struct wfi_hdr h = t->hdr;
		ssize_t r;

		if (len > ep->chunk)
			len = ep->chunk;
		if (t->off) {
			h.op = WFI_OP_CONT;
			h.flags = 0;
			h.tag = t->off;
			h.data = 0;
		}
		cnt = iov_slice(t->iov, t->count, t->off, len, piece);
		r = send_one(ep, &h, piece, cnt, &t->to, t->tolen);
		if (r >= 0) {
			t->off += len;
			continue;
		}
		if (!t->off) {
			t->active = false;
			return r;
		}
		if (send_later(ep, -r))
			return 0;
		{
			/* cut off mid-message: the receiver drops the pieces
			 * it has when our next message comes */
			struct wfi_cqe c = {
				.e = { .op_context = t->context,
				       .flags = FI_SEND | op_flag(t->hdr.op),
				       .tag = t->hdr.tag },
				.err = wfi_map_errno(-r),
				.prov_errno = -r,
			};

			t->active = false;
			wfi_complete(ep, true, t->flags, &c);
			return 0;
		}
	}
	{
		struct wfi_cqe c = {
			.e = { .op_context = t->context,
			       .flags = FI_SEND | op_flag(t->hdr.op) },
			.src = FI_ADDR_NOTAVAIL,
		};

		t->active = false;
		ep->stat_chunked_tx++;
		wfi_complete(ep, true, t->flags, &c);
	}
	return 0;
}

ssize_t wfi_send(struct wfi_ep *ep, const struct iovec *uiov, size_t count,
		 fi_addr_t dest, uint8_t op, uint64_t tag, uint64_t data,
		 bool has_data, void *context, uint64_t flags)
{
	struct wfi_hdr h = {
		.version = WFI_HDR_VERSION, .op = op,
		.flags = has_data ? WFI_HF_DATA : 0, .tag = tag, .data = data,
	};
	union wfi_addr to;
	socklen_t tolen;
	const union wfi_addr *sin;
	size_t total = wfi_iov_total(uiov, count);
	ssize_t ret = 0, n;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	if (total > WFI_MAX_MSG)
		return -FI_EMSGSIZE;
	if ((flags & FI_INJECT) && total > WFI_INJECT_SIZE)
		return -FI_EMSGSIZE;

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
	tolen = wfi_addr_to(ep, sin, &to);
	if (ep->txc.active) {
		/* a send to the peer of a chunked one goes after all of it
		 * (and one chunked send at a time); others go on */
		txc_push(ep);
		if (ep->txc.active &&
		    (wfi_addr_same(&ep->txc.to, &to) ||
		     (ep->chunk && total > ep->chunk))) {
			wfi_ep_progress(ep);
			ret = -FI_EAGAIN;
			goto out;
		}
	}
	if (ep->chunk && total > ep->chunk) {
		struct wfi_txc *t = &ep->txc;

		t->active = true;
		t->to = to;
		t->tolen = tolen;
		t->hdr = h;
		t->hdr.flags |= WFI_HF_FIRST;
		t->hdr.reserved = total;
		memcpy(t->iov, uiov, count * sizeof(*uiov));
		t->count = count;
		t->total = total;
		t->off = 0;
		t->context = context;
		t->flags = flags;
		n = txc_push(ep);
	} else {
		/* a peer not heard from yet: sent, and kept (peer.c) */
		n = wfi_peer_send(ep, dest, sin, &h, uiov, count, total);
		if (n == 0)
			n = send_one(ep, &h, uiov, count, &to, tolen);
		if (n >= 0) {
			struct wfi_cqe c = {
				.e = { .op_context = context,
				       .flags = FI_SEND | op_flag(op) },
				.src = FI_ADDR_NOTAVAIL,
			};

			wfi_complete(ep, true, flags, &c);
		}
	}
	if (n < 0) {
		struct wfi_cqe c = { 0 };
		int err = -n;

		if (send_later(ep, err)) {
			wfi_ep_progress(ep);
			ret = -FI_EAGAIN;
			goto out;
		}
		if (err == EMSGSIZE) {
			ret = -FI_EMSGSIZE;
			goto out;
		}
		if (flags & WFI_INJECT_CALL) {
			ret = -wfi_map_errno(err);
			goto out;
		}
		c.e.op_context = context;
		c.e.flags = FI_SEND | op_flag(op);
		c.e.tag = tag;
		c.err = wfi_map_errno(err);
		c.prov_errno = err;
		wfi_complete(ep, true, flags, &c);
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

/* Deliver unexpected message @u to @rx (whose buffers take what fits).
 * Return: whether @rx is done with. */
static bool unexp_deliver(struct wfi_ep *ep, struct wfi_rx *rx,
			  struct wfi_unexp *u, bool discard)
{
	size_t room = rx_room(rx);
	size_t got = discard ? 0 : (u->len < room ? u->len : room);
	struct iovec iov[WFI_IOV_LIMIT];
	bool done;

	copy_to_iov(iov, rx_iov(rx, iov), u->buf, got);
	done = rx_done(ep, rx, &u->hdr, discard ? 0 : u->len, got, &u->from);
	unexp_free(ep, u);
	return done;
}

ssize_t wfi_recv(struct wfi_ep *ep, const struct iovec *iov, size_t count,
		 fi_addr_t src, uint8_t op, uint64_t tag, uint64_t ignore,
		 void *context, uint64_t flags)
{
	struct wfi_rx *rx;
	struct wfi_unexp *u;
	ssize_t ret = 0;

	if (count > WFI_IOV_LIMIT)
		return -FI_EINVAL;
	/* FI_MULTI_RECV is for untagged receives of one buffer */
	if (op != WFI_OP_MSG)
		flags &= ~FI_MULTI_RECV;
	if ((flags & FI_MULTI_RECV) && count != 1)
		return -FI_EINVAL;
	rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -FI_ENOMEM;
	rx->multi = flags & FI_MULTI_RECV;
	rx->context = context;
	rx->flags = flags;
	rx->op = op;
	rx->src = src;
	rx->tag = tag;
	rx->ignore = ignore;
	rx->iov_count = count;
	memcpy(rx->iov, iov, count * sizeof(*iov));
	rx->len = wfi_iov_total(iov, count);

	/* without FI_DIRECTED_RECV, src is ignored; with it, a receive
	 * naming an address not (or no longer) in the AV waits for its
	 * insertion: matching looks the address up for every message */
	if (!(ep->info->caps & FI_DIRECTED_RECV))
		rx->src = FI_ADDR_UNSPEC;
	pthread_mutex_lock(&ep->dom->lock);
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

			wfi_complete(ep, false, flags, &c);
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
			wfi_complete(ep, false, flags | FI_COMPLETION, &c);
		}
		goto out_free;
	}
	if (rx->multi) {
		rx->mmin = ep->min_multi_recv;
		/* the unexpected messages first, in order, while it has room */
		while ((u = find_unexp(ep, rx)))
			if (unexp_deliver(ep, rx, u, false))
				goto out_free;
	} else {
		u = find_unexp(ep, rx);
		if (u) {
			unexp_deliver(ep, rx, u, false);
			goto out_free;
		}
	}
	if (is_directed(ep, rx)) {
		rx->probe_at = now_ms() + ep->probe_ms;
		ep->ndirected++;
	}
	/* no progress here: the message it waits for is read by the next
	 * CQ or counter read, which the caller makes anyway (a ping-pong
	 * posts its receive between a completion and its next send) */
	wfi_list_add_tail(&ep->posted[op], &rx->link);
	pthread_mutex_unlock(&ep->dom->lock);
	return 0;
out_free:
	pthread_mutex_unlock(&ep->dom->lock);
	free(rx);
	return ret;
}

ssize_t wfi_ep_cancel(fid_t fid, void *context)
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
			c.e.flags = FI_RECV | op_flag(op) |
				    (rx->multi ? FI_MULTI_RECV : 0);
			c.e.tag = rx->tag;
			c.err = FI_ECANCELED;
			c.prov_errno = ECANCELED;
			wfi_complete(ep, false, rx->flags, &c);
			free(rx);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ep->dom->lock);
	return ret;
}

void wfi_ep_free_lists(struct wfi_ep *ep)
{
	int op;

	while (!wfi_list_empty(&ep->rxcs))
		rxc_drop(ep, wfi_container_of(ep->rxcs.next, struct wfi_rxc, link));

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
