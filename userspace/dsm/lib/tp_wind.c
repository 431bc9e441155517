// SPDX-License-Identifier: GPL-2.0
/*
 * The wind backend: one Wind socket per node talking to every peer.
 *
 * The node's shared region is registered with WIND_REGION_ADD (id
 * DSM_REGION_ID on every node, each node's key drawn at random for the run
 * and sent to every peer in its HELLO).  A fault fetches its page by a
 * one-sided read (WIND_RMA_READ of the home's region, WIND_RMA_F_LAND into
 * our own at the same offset): the home's kernel serves it in softirq,
 * nobody at the home is woken, and our kernel writes the page in place and
 * queues an empty completion, which wakes our service thread (dsm.c's
 * fetch() tells why the read is coherent).  With DSM_FETCH_REQUEST the
 * home's service thread answers a request instead, the page travelling
 * as WIND_DSM_HEADER_THROUGH: the faulting node's kernel writes it into
 * the region at the page's offset and queues only the small header,
 * which wakes the service thread.  Diffs go to the home as
 * WIND_DSM_DIRECT_DIFF: the home's kernel applies them and nobody there is
 * woken; they are async-ordered but for the last one of a flush to each
 * home, which is sync-ordered: when it returns, that diff and (ordered)
 * every earlier one to that home are written.  Requests and control
 * messages are async-ordered.  No acknowledgement, timer or retransmission
 * here: Wind does that, and reports a peer it cannot reach.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "libwind.h"
#include "internal.h"
#include "tp.h"

static struct tp *tp;
static int fd = -1;
/* sockaddr_in, or sockaddr_in6 when a rank's address is IPv6 (dsm_family) */
static tp_addr peer[DSM_MAX_NODES];
static socklen_t peer_len;
/* Our region's key, drawn for this run, and each rank's, from its HELLO:
 * only the ranks of this run can write our heap.  A rank's HELLO is
 * delivered before any message it sends later, so its key is known
 * before its first fetch request or diff.
 */
static uint64_t my_key;
static _Atomic uint64_t peer_key[DSM_MAX_NODES];
static uint64_t retrans0;
/* The cookie of the read in flight (one at a time: the app thread's fault) */
static _Atomic uint64_t read_cookie;

static ssize_t send_dsm(int dest, const void *hdr, size_t hdr_len,
			const void *data, size_t data_len, uint32_t mode,
			uint32_t page, int flags)
{
	struct wind_dsm d = {
		.mode = mode,
		.region = DSM_REGION_ID,
		.offset = (uint64_t)page * DSM_PAGE,
		.key = atomic_load(&peer_key[dest]),
	};

	return DSM_SYS(tp_wind_send_dsm(fd, &peer[dest], peer_len, hdr, hdr_len,
					data, data_len, &d, flags));
}

static void check_sent(ssize_t r, const char *what)
{
	if (r >= 0) {
		atomic_fetch_add(&dsm.messages, 1);
		return;
	}
	if (atomic_load(&dsm.finishing))
		return;		/* a peer that left after its last message */
	dsm_fatal(what, errno);
}

static void w_send(int dest, const struct dsm_msg *m, const void *data,
		   int flags, uint32_t reply_to)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)data, .iov_len = m->len },
	};
	struct msghdr msg = {
		.msg_name = &peer[dest],
		.msg_namelen = peer_len,
		.msg_iov = iov,
		.msg_iovlen = m->len ? 2 : 1,
	};

	(void)reply_to;
	check_sent(DSM_SYS(sendmsg(fd, &msg, flags & TP_SYNC ? MSG_WIND_SYNC : 0)),
		   "wind: send");
}

static void w_send_page(int dest, uint32_t page, uint32_t reply_to)
{
	struct dsm_msg h = { .type = DSM_FETCH_REP, .src = (uint16_t)dsm.cfg.rank,
			     .arg0 = page };

	(void)reply_to;
	check_sent(send_dsm(dest, &h, sizeof(h),
			    dsm.base + (size_t)page * DSM_PAGE, DSM_PAGE,
			    WIND_DSM_HEADER_THROUGH, page, 0),
		   "wind: page reply (Header Through)");
}

/* Fault handler: async-signal-safe (wind_rma_post is a sendmsg) */
static void w_read_page(int home, uint32_t page, uint64_t cookie)
{
	struct wind_rma r = {
		.op = WIND_RMA_READ,
		.region = DSM_REGION_ID,
		.offset = (uint64_t)page * DSM_PAGE,
		.key = atomic_load(&peer_key[home]),
		.len = DSM_PAGE,
		.flags = WIND_RMA_F_LAND,
		.cookie = cookie,
		.dst_region = DSM_REGION_ID,
		.dst_offset = (uint64_t)page * DSM_PAGE,
		.dst_key = my_key,
	};

	atomic_store(&read_cookie, cookie);
	check_sent(DSM_SYS(wind_rma_post(fd, (struct sockaddr *)&peer[home],
					 peer_len, &r, 0)),
		   "wind: page read (one-sided)");
}

/* The completion of w_read_page's read: the page is in place */
static void read_done(const struct wind_rma *r, ssize_t n)
{
	struct dsm_msg m = { .type = DSM_FETCH_REP };

	if (r->status)
		dsm_fatal("wind: page read: landing refused", -r->status);
	if (r->op != WIND_RMA_READ || r->cookie != atomic_load(&read_cookie) ||
	    (r->cookie & 0xffffffffu) >= dsm.npages ||
	    !(r->flags & WIND_RMA_F_LAND) || r->len != DSM_PAGE || n != 0 ||
	    r->offset != (r->cookie & 0xffffffffu) * DSM_PAGE ||
	    r->dst_offset != r->offset)
		dsm_fatal("wind: unexpected one-sided completion", EPROTO);
	m.arg0 = (uint32_t)r->cookie;
	m.src = dsm.home[m.arg0];
	dsm_dispatch(&m, NULL, 0, 0);
}

static void w_send_diff(int home, uint32_t page, const void *diff,
			size_t len, int last)
{
	check_sent(send_dsm(home, NULL, 0, diff, len, WIND_DSM_DIRECT_DIFF,
			    page, last ? MSG_WIND_SYNC : 0),
		   "wind: diff (Direct Diff)");
}

static void w_flush_wait(void)
{
	/* the last diff to each home was sync-ordered */
}

/*
 * One failure report off the error queue, as libwind's wind_recv_error()
 * but for either family: an AF_INET6 socket reports SOL_IPV6/IPV6_RECVERR
 * with the peer as a sockaddr_in6.  0, or -1 (errno EAGAIN: queue empty).
 */
static int recv_error(int *error, uint32_t *lost, char *who)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in6)) + 256];
		struct cmsghdr align;
	} control;
	struct sockaddr_storage off;
	char dummy;
	struct iovec iov = { .iov_base = &dummy, .iov_len = sizeof(dummy) };
	struct msghdr msg = {
		.msg_name = &off,
		.msg_namelen = sizeof(off),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;

	memset(&off, 0, sizeof(off));
	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -1;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		struct sock_extended_err ee;

		if (!((cmsg->cmsg_level == SOL_IP &&
		       cmsg->cmsg_type == IP_RECVERR) ||
		      (cmsg->cmsg_level == SOL_IPV6 &&
		       cmsg->cmsg_type == IPV6_RECVERR)) ||
		    cmsg->cmsg_len < CMSG_LEN(sizeof(ee)))
			continue;
		memcpy(&ee, CMSG_DATA(cmsg), sizeof(ee));
		*error = (int)ee.ee_errno;
		*lost = ee.ee_info;
		dsm_addr_str(&off, who);
		return 0;
	}
	errno = EPROTO;	/* a report without its control message */
	return -1;
}

static void w_init(void)
{
	struct tp_opts o = { .dual_stack = true, .bind_any = true };
	double deadline, left;
	int i, one = 1, r;
	socklen_t sl;

	for (i = 0; i < dsm.cfg.nodes; i++) {
		struct sockaddr_storage ss;

		peer_len = dsm_peer_addr(i, &ss);
		memcpy(&peer[i], &ss, peer_len);
	}
	/* dual stack: IPv4 ranks of the list are v4-mapped peers */
	tp = tp_open_opts(TP_WIND, dsm.cfg.rank, dsm.cfg.nodes, peer,
			  dsm.cfg.port, &o);
	if (!tp)
		dsm_fatal("Wind socket (is wind.ko installed?)", errno);
	fd = tp_fd(tp);
	do {
		if (getrandom(&my_key, sizeof(my_key), 0) != sizeof(my_key))
			dsm_fatal("getrandom (the region key)", errno);
	} while (!my_key);
	if (wind_region_add(fd, dsm.base, dsm.len, DSM_REGION_ID, my_key))
		dsm_fatal("WIND_REGION_ADD of the shared region", errno);
	retrans0 = kstat_wind("OutRetransmits");
	/* every peer must be there before anything async goes to it */
	deadline = dsm_now() + dsm.cfg.timeout_s;
	for (i = 0; i < dsm.cfg.nodes; i++) {
		struct dsm_msg m = { .type = DSM_HELLO,
				     .src = (uint16_t)dsm.cfg.rank,
				     .arg0 = (uint32_t)my_key,
				     .arg1 = (uint32_t)(my_key >> 32) };

		if (i == dsm.cfg.rank)
			continue;
		left = (deadline - dsm_now()) * 1000;
		r = tp_wind_reach(fd, &peer[i], peer_len, &m, sizeof(m),
				  left > 0 ? (int)left : 0, &dsm.syscalls);
		if (r == -1)
			dsm_fatal("wind: hello", errno);
		if (r) {
			char what[128], a[DSM_ADDRSTRLEN];

			snprintf(what, sizeof(what), "cannot reach rank %d at %s",
				 i, dsm_addr_str(&peer[i], a));
			dsm_fatal(what, errno);
		}
		atomic_fetch_add(&dsm.messages, 1);
	}
	/* the refusals of the hello are history */
	sl = sizeof(i);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &i, &sl);
	if (wind_set_recverr(fd, one))
		dsm_fatal("wind: WIND_RECVERR", errno);
}

static void *w_service(void *arg)
{
	union {
		struct dsm_msg m;
		char b[DSM_MAX_MSG];
	} buf;
	struct wind_rma rma;
	struct wind_dsm d;
	ssize_t n;

	(void)arg;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (DSM_SYS(poll(&p, 1, 1000)) < 0 && errno != EINTR)
			dsm_fatal("wind: poll", errno);
		if (p.revents & POLLERR) {
			char who[DSM_ADDRSTRLEN];
			uint32_t lost;
			int error;

			while (DSM_SYS(recv_error(&error, &lost, who)) == 0) {
				char what[128];

				if (atomic_load(&dsm.finishing))
					continue;
				snprintf(what, sizeof(what),
					 "wind: %u message(s) to %s lost",
					 lost, who);
				dsm_fatal(what, error);
			}
			if (!(p.revents & POLLIN)) {
				int err;
				socklen_t sl = sizeof(err);

				DSM_SYS(getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl));
				if (err && !atomic_load(&dsm.finishing))
					dsm_fatal("wind: socket error", err);
				continue;
			}
		}
		if (!(p.revents & POLLIN))
			continue;
		n = DSM_SYS(wind_recvfrom_rma(fd, buf.b, sizeof(buf.b), NULL,
					      NULL, &d, &rma));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			dsm_fatal("wind: recv", errno);
		}
		if (rma.op) {
			read_done(&rma, n);
			continue;
		}
		if ((size_t)n < sizeof(buf.m) || (size_t)n > sizeof(buf.b) ||
		    buf.m.src >= dsm.cfg.nodes)
			dsm_fatal("wind: malformed message", EPROTO);
		if (d.mode == WIND_DSM_HEADER_THROUGH) {
			if (d.data_len != DSM_PAGE || buf.m.type != DSM_FETCH_REP)
				dsm_fatal("wind: bad Header Through", EPROTO);
			dsm_dispatch(&buf.m, NULL, 0, 0);
			continue;
		}
		if (buf.m.len != (size_t)n - sizeof(buf.m))
			dsm_fatal("wind: bad message length", EPROTO);
		if (buf.m.type == DSM_HELLO)
			atomic_store(&peer_key[buf.m.src],
				     buf.m.arg0 | (uint64_t)buf.m.arg1 << 32);
		dsm_dispatch(&buf.m, buf.b + sizeof(buf.m), buf.m.len, 0);
	}
	return NULL;
}

static uint64_t w_retransmissions(void)
{
	return kstat_wind("OutRetransmits") - retrans0;
}

static void w_finish(void)
{
	/* rank 0 sent the last releases sync-ordered: nothing is owed */
}

const struct dsm_transport dsm_tp_wind = {
	.name = "wind",
	.init = w_init,
	.send = w_send,
	.send_page = w_send_page,
	.read_page = w_read_page,
	.send_diff = w_send_diff,
	.flush_wait = w_flush_wait,
	.service = w_service,
	.retransmissions = w_retransmissions,
	.finish = w_finish,
};
