// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: peers not heard from yet (the start-up race).
 *
 * A peer whose socket is not bound yet (a server started after its
 * client, or at the same moment) refuses what it is sent: its kernel
 * answers port unreachable and Wind fails every message queued to it
 * with ECONNREFUSED (wind(7)).  A reliable endpoint must not lose those.
 * Until the peer's kernel has been heard from (WIND_PEER_INFO's
 * wpi_remote_tag, the peer's tag towards us, is known), each message the
 * endpoint sends it whole is also kept here (up to WFI_PEER_HOLD_MAX
 * bytes; beyond, sends to it wait: -FI_EAGAIN).  A refusal of a peer
 * never heard from, whose lost messages are all kept ones, sends them
 * again in order after a backoff (10 ms, doubling up to 500 ms), for
 * FI_WIND_CONNECT_MS (default 10 s) after its first refusal; sends to
 * it meanwhile are kept behind them and go with them.  Once the peer is
 * heard from, its copies are dropped and its fi_addr_t marked, so that
 * sends to it take no detour.  Any other refusal (a peer heard from, a
 * lost message not kept: chunked sends, RMA requests) is a dead peer,
 * as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/wind.h>

#include "wind_fi.h"

#define WFI_PEER_HOLD_MAX	(4u << 20)
#define WFI_PEER_BACKOFF_MIN	10
#define WFI_PEER_BACKOFF_MAX	500

struct wfi_held {
	struct wfi_list		link;
	bool			sent;
	size_t			len;	/* header and payload */
	char			data[];
};

static struct wfi_peer *peer_find(struct wfi_ep *ep, const union wfi_addr *a)
{
	struct wfi_list *pos;

	for (pos = ep->peers.next; pos != &ep->peers; pos = pos->next) {
		struct wfi_peer *p = wfi_container_of(pos, struct wfi_peer, link);

		if (wfi_addr_same(&p->addr, a))
			return p;
	}
	return NULL;
}

static void peer_free(struct wfi_peer *p)
{
	wfi_list_del(&p->link);
	while (!wfi_list_empty(&p->held)) {
		struct wfi_list *e = p->held.next;

		wfi_list_del(e);
		free(wfi_container_of(e, struct wfi_held, link));
	}
	free(p);
}

void wfi_peers_free(struct wfi_ep *ep)
{
	while (!wfi_list_empty(&ep->peers))
		peer_free(wfi_container_of(ep->peers.next, struct wfi_peer, link));
	free(ep->known);
	ep->known = NULL;
	ep->nknown = 0;
}

/* Has @a's kernel been heard from (its tag towards us is known)? */
static bool peer_heard(struct wfi_ep *ep, const union wfi_addr *a)
{
	struct wind_peer_info pi = { .wpi_version = WIND_PEER_INFO_VERSION };
	socklen_t pl = sizeof(pi);

	memcpy(&pi.wpi_addr, a, wfi_addr_len(a));
	if (a->sa.sa_family == AF_INET && ep->name.sa.sa_family == AF_INET6) {
		union wfi_addr m;

		wfi_addr_to(ep, a, &m);
		memcpy(&pi.wpi_addr, &m, sizeof(m.sin6));
	}
	if (getsockopt(ep->fd, SOL_WIND, WIND_PEER_INFO, &pi, &pl))
		return false;	/* no state for it yet: never heard */
	return pl >= offsetof(struct wind_peer_info, wpi_sync_waiters) &&
	       pi.wpi_remote_tag != 0;
}

static void mark_known(struct wfi_ep *ep, fi_addr_t dest)
{
	if (dest >= ep->nknown) {
		size_t n = ep->nknown ? ep->nknown : 64;
		bool *k;

		while (n <= dest)
			n *= 2;
		k = realloc(ep->known, n * sizeof(*k));
		if (!k)
			return;		/* the detour again next time */
		memset(k + ep->nknown, 0, (n - ep->nknown) * sizeof(*k));
		ep->known = k;
		ep->nknown = n;
	}
	ep->known[dest] = true;
}

static ssize_t held_send(struct wfi_ep *ep, const struct wfi_peer *p,
			 const struct wfi_held *m)
{
	union wfi_addr to;
	socklen_t tl = wfi_addr_to(ep, &p->addr, &to);
	ssize_t n;

	do {
		n = sendto(ep->fd, m->data, m->len, MSG_DONTWAIT | MSG_NOSIGNAL,
			   &to.sa, tl);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/**
 * wfi_peer_send() - send a whole message to a peer maybe not up yet
 * @ep: the endpoint, lock held
 * @dest: its fi_addr_t
 * @sin: its address
 * @h: the header
 * @iov: the payload
 * @count: entries of @iov
 * @total: bytes of @iov
 *
 * Return: 0 if @dest was heard from (the caller sends as usual), 1 if the
 * message was sent (or queued behind a resend) and kept, or -errno: not
 * sent (-EAGAIN: the peer holds WFI_PEER_HOLD_MAX bytes of copies).
 */
int wfi_peer_send(struct wfi_ep *ep, fi_addr_t dest, const union wfi_addr *sin,
		  const struct wfi_hdr *h, const struct iovec *iov,
		  size_t count, size_t total)
{
	struct wfi_peer *p;
	struct wfi_held *m;
	size_t i, off;
	ssize_t n;

	if (dest < ep->nknown && ep->known[dest])
		return 0;
	p = peer_find(ep, sin);
	if (!p || !p->resend_at) {
		if (peer_heard(ep, sin)) {
			if (p)
				peer_free(p);
			mark_known(ep, dest);
			return 0;
		}
	}
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return 0;	/* unprotected, as a send always was */
		p->addr = *sin;
		wfi_list_init(&p->held);
		wfi_list_add_tail(&ep->peers, &p->link);
	}
	p->dest = dest;
	if (p->held_bytes + total > WFI_PEER_HOLD_MAX)
		return -EAGAIN;
	m = malloc(sizeof(*m) + sizeof(*h) + total);
	if (!m)
		return -ENOBUFS;
	m->len = sizeof(*h) + total;
	memcpy(m->data, h, sizeof(*h));
	for (i = 0, off = sizeof(*h); i < count; i++) {
		memcpy(m->data + off, iov[i].iov_base, iov[i].iov_len);
		off += iov[i].iov_len;
	}
	m->sent = false;
	if (!p->resend_at) {
		n = held_send(ep, p, m);
		if (n < 0) {
			free(m);
			return n;
		}
		m->sent = true;
		p->nsent++;
	}
	wfi_list_add_tail(&p->held, &m->link);
	p->held_bytes += total;
	return 1;
}

/**
 * wfi_peer_refused() - a peer refused @lost messages (ECONNREFUSED)
 * @ep: the endpoint, lock held
 * @peer: the peer
 * @lost: how many messages the kernel dropped
 *
 * Return: true if they are kept copies of a peer never heard from, to
 * be sent again; false if the peer is dead (the caller fails what waits
 * on it).
 */
bool wfi_peer_refused(struct wfi_ep *ep, const union wfi_addr *peer,
		      unsigned int lost)
{
	struct wfi_peer *p = wfi_list_empty(&ep->peers) ? NULL :
			     peer_find(ep, peer);
	int64_t now = wfi_now_ms();
	struct wfi_list *pos;
	unsigned int k = 0;
	char name[WFI_ADDRSTRLEN];

	if (!p)
		return false;
	if (!lost || lost > p->nsent || peer_heard(ep, peer) ||
	    (p->first_refusal && now - p->first_refusal > ep->connect_ms)) {
		peer_free(p);
		return false;
	}
	if (!p->first_refusal)
		p->first_refusal = now;
	/* the oldest @lost sent ones (the kernel queues in order) */
	for (pos = p->held.next; pos != &p->held && k < lost; pos = pos->next) {
		struct wfi_held *m = wfi_container_of(pos, struct wfi_held, link);

		if (m->sent) {
			m->sent = false;
			k++;
		}
	}
	p->nsent -= k;
	p->backoff = p->backoff ? p->backoff * 2 : WFI_PEER_BACKOFF_MIN;
	if (p->backoff > WFI_PEER_BACKOFF_MAX)
		p->backoff = WFI_PEER_BACKOFF_MAX;
	p->resend_at = now + p->backoff;
	FI_INFO(&wfi_prov, FI_LOG_EP_DATA,
		"%s refused %u message(s) before it was ever heard from: sending them again in %u ms\n",
		wfi_addr_str(peer, name, sizeof(name)), lost, p->backoff);
	return true;
}

/**
 * wfi_peer_held() - are messages to @a kept (it was never heard from)?
 * @ep: the endpoint, lock held
 * @a: the peer
 *
 * Return: true if so (a probe to it would be one more lost message).
 */
bool wfi_peer_held(struct wfi_ep *ep, const union wfi_addr *a)
{
	return !wfi_list_empty(&ep->peers) && peer_find(ep, a);
}

/**
 * wfi_peer_progress() - send again what was refused, forget peers heard from
 * @ep: the endpoint, lock held, ep->peers not empty
 */
void wfi_peer_progress(struct wfi_ep *ep)
{
	struct wfi_list *pos, *next;
	int64_t now = wfi_now_ms();

	for (pos = ep->peers.next; pos != &ep->peers; pos = next) {
		struct wfi_peer *p = wfi_container_of(pos, struct wfi_peer, link);
		struct wfi_list *q;

		next = pos->next;
		if (!p->resend_at) {
			if (peer_heard(ep, &p->addr)) {
				mark_known(ep, p->dest);
				peer_free(p);
			}
			continue;
		}
		if (now < p->resend_at)
			continue;
		for (q = p->held.next; q != &p->held; q = q->next) {
			struct wfi_held *m = wfi_container_of(q, struct wfi_held, link);
			ssize_t n;

			if (m->sent)
				continue;
			n = held_send(ep, p, m);
			if (n < 0) {
				/* a full buffer, or a report's SO_ERROR (which
				 * sent nothing): the next progress goes on */
				if (n == -EAGAIN || n == -ENOBUFS)
					break;
				/* reading the reports may free peers */
				wfi_failed_by_report(ep, -n);
				return;
			}
			m->sent = true;
			p->nsent++;
		}
		if (q == &p->held)
			p->resend_at = 0;
	}
}
