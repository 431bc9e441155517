// SPDX-License-Identifier: GPL-2.0
/* windperf: the msgs test: small one-way messages from -S senders (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- msgs: small one-way messages from -S senders ------------------- */

struct msgs_res {
	uint64_t sent, rcvd, timeouts;
};

/* One sender: its own socket (TCP: connection) to the server's port;
 * writes what it sent (and, TCP, what its connection's server counted)
 * to @wfd.  Wind's close() waits until the peer acknowledged everything.
 */
static _Noreturn void msgs_child(struct ctx *pc, int size, uint32_t session,
				 double secs, int wfd)
{
	const struct sockaddr_storage *srv_addr = &pc->addr[0];
	int port = srv_addr->ss_family == AF_TIPC ?
		   (int)((const struct sockaddr_tipc *)srv_addr)->addr.name.name.instance :
		   ntohs(srv_addr->ss_family == AF_INET6 ?
			 ((const struct sockaddr_in6 *)srv_addr)->sin6_port :
			 ((const struct sockaddr_in *)srv_addr)->sin_port);
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK, .seq = session };
	struct msgs_res res = { 0 };
	char *msg = scratch(size);
	struct ctx c;
	double t0;

	alarm(600);
	client_open(&c, pc->proto, srv_addr, port, 1);
	memcpy(msg, &h, sizeof(h));
	t0 = now_s();
	do {
		for (int k = 0; k < 16; k++) {
			int flags = c.proto == P_WIND && opt.more && k < 15 ?
				    MSG_MORE : 0;

			if (!tx(&c, peer_fd(&c, 0), &c.addr[0], msg, size, flags))
				res.sent++;
		}
	} while (now_s() - t0 < secs);
	if (c.proto == P_TCP) {
		struct wp_stat st;

		get_stat(&c, session, &st, &res.timeouts);
		res.rcvd = st.msgs;
	} else if (kpeer(c.proto)) {
		/* delivered in order on this socket pair: once the server
		 * answers, it holds every message this sender sent (RDS's
		 * close() would drop what is still queued)
		 */
		struct wp_stat st;

		get_stat(&c, session, &st, &res.timeouts);
	}
	close(c.fd[0]);
	if (write(wfd, &res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

/* -S senders for @secs; what they sent and the server received, and the
 * time until the server said so.
 */
static void msgs_run(struct ctx *c, int size, double secs,
		     struct msgs_res *tot, double *t)
{
	uint32_t session = next_seq++;
	int pfd[2], status;
	double t0;

	memset(tot, 0, sizeof(*tot));
	if (pipe(pfd))
		die("pipe:");
	fflush(stdout);
	t0 = now_s();
	for (int i = 0; i < opt.senders; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork:");
		if (!pid) {
			close(pfd[0]);
			msgs_child(c, size, session, secs, pfd[1]);
		}
	}
	close(pfd[1]);
	for (int i = 0; i < opt.senders; i++) {
		struct msgs_res res;

		if (read(pfd[0], &res, sizeof(res)) != sizeof(res))
			die("a sender failed");
		tot->sent += res.sent;
		tot->rcvd += res.rcvd;
		tot->timeouts += res.timeouts;
	}
	close(pfd[0]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			die("a sender failed");
	/* datagrams: the server's one socket counted every sender's */
	if (c->proto != P_TCP) {
		struct wp_stat st;

		get_stat(c, session, &st, &tot->timeouts);
		tot->rcvd = st.msgs;
	}
	*t = now_s() - t0;
}

void msgs_warm(struct ctx *c, struct row *r)
{
	struct msgs_res tot;
	double t;

	msgs_run(c, r->size, 0.05, &tot, &t);
}

void msgs_rep(struct ctx *c, struct row *r, int rep)
{
	struct msgs_res tot;
	double c0[NCTR], t;

	rep_begin(c, c0);
	msgs_run(c, r->size, opt.secs, &tot, &t);
	rep_end(c, r, c0);
	r->secs += t;
	r->sent += tot.sent;
	r->rcvd += tot.rcvd;
	r->bytes_sent += tot.sent * r->size;
	r->bytes_rcvd += tot.rcvd * r->size;
	r->timeouts += tot.timeouts;
	r->ops += tot.sent;
	r->rep[rep] = tot.rcvd / t;
}
