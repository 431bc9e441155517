// SPDX-License-Identifier: GPL-2.0
/* windperf: the client's exchanges and the rtt, rr, sync and bulk tests (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- client ---------------------------------------------------------- */

/*
 * Sequence and session numbers.  The servers outlive their clients, so a
 * client starts from a random number: a session of an earlier client
 * that the server still counts must never look like one of ours.
 */
uint32_t next_seq;

void seq_init(void)
{
	if (getrandom(&next_seq, sizeof(next_seq), 0) != sizeof(next_seq))
		next_seq = (uint32_t)getpid() << 16 ^ (uint32_t)time(NULL);
	next_seq |= 1;	/* never the server's initial session 0 */
}

struct rbuf *peer_rb(struct ctx *c, int i)
{
	return c->proto == P_TCP ? &c->rb[i] : NULL;
}

int peer_fd(struct ctx *c, int i)
{
	return c->proto == P_TCP ? c->fd[i] : c->fd[0];
}

/* One request/reply with peer i: returns the time in us.  UDP resends
 * after the timeout (counted in *timeouts); stale replies are skipped.
 */
double exchange(struct ctx *c, int i, char *req, int size, int reply,
		uint64_t *timeouts)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_ECHO, .seq = next_seq++,
		.reply_len = reply,
	};
	struct sockaddr_storage from;
	double t0 = now_s();
	char *msg;

	memcpy(req, &h, sizeof(h));
	tx(c, peer_fd(c, i), &c->addr[i], req, size, 0);
	for (;;) {
		ssize_t n = rx(c, peer_fd(c, i), peer_rb(c, i), &msg, &from);
		struct wp_hdr rh;

		if (n < 0) {		/* UDP: lost, ask again */
			(*timeouts)++;
			tx(c, peer_fd(c, i), &c->addr[i], req, size, 0);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(&rh, msg, sizeof(rh));
		if (rh.magic == WP_MAGIC && rh.seq == h.seq) {
			if (n != reply)
				die("reply of %zd bytes, expected %d", n, reply);
			break;
		}
	}
	return (now_s() - t0) * 1e6;
}

char *scratch(size_t size)
{
	static char *buf;

	if (!buf)
		buf = xcalloc(1, WP_MAXMSG);
	memset(buf, 0, size);
	return buf;
}

/* ---- the server's CPU (rr, read) ------------------------------------- */

/* Ask the server @op of exchange @seq; its answer, @len bytes that start
 * with the same wp_hdr, into @out (UDP: asked again until it answers). */
static void ask_server(struct ctx *c, uint8_t op, uint32_t seq, void *out,
		       size_t len, uint64_t *timeouts)
{
	struct wp_hdr h = { .magic = WP_MAGIC, .op = op, .seq = seq };
	struct wp_hdr *got = out;
	struct sockaddr_storage from;
	char *msg;
	int tries = 0;

	tx(c, peer_fd(c, 0), &c->addr[0], &h, sizeof(h), 0);
	for (;;) {
		ssize_t n = rx(c, peer_fd(c, 0), peer_rb(c, 0), &msg, &from);

		if (n < 0) {
			if (++tries > 500)
				die("no answer to %s", op == OP_REGION ? "REGION" :
				    op == OP_RUSAGE ? "RUSAGE" : "STAT");
			(*timeouts)++;
			tx(c, peer_fd(c, 0), &c->addr[0], &h, sizeof(h), 0);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(out, msg, (size_t)n < len ? (size_t)n : len);
		if ((size_t)n == len && got->op == op && got->seq == seq)
			return;
	}
}

/* Ask the server for OP_REGION or OP_RUSAGE */
void get_info(struct ctx *c, uint8_t op, struct wp_info *in,
	      uint64_t *timeouts)
{
	ask_server(c, op, next_seq++, in, sizeof(*in), timeouts);
}

/* The server's CPU around one repetition (its own exchanges excepted) */
void srv_cpu_begin(struct ctx *c, struct row *r, struct wp_info *in)
{
	if (r->srv_cpu)
		get_info(c, OP_RUSAGE, in, &r->timeouts);
}

void srv_cpu_end(struct ctx *c, struct row *r, const struct wp_info *in0)
{
	struct wp_info in;

	if (!r->srv_cpu)
		return;
	get_info(c, OP_RUSAGE, &in, &r->timeouts);
	r->srv_user_us += in.utime_us - in0->utime_us;
	r->srv_sys_us += in.stime_us - in0->stime_us;
	r->srv_cpu_us += (in.cpu_ns - in0->cpu_ns) / 1e3;
	/* the server sleeps once after answering in0's request */
	r->srv_wakeups += in.nvcsw - in0->nvcsw - 1.0;
	r->srv_nivcsw += in.nivcsw - in0->nivcsw;
}

/* Ping-pong (rtt, rr, peers): exchanges with the peers in turn for
 * opt.secs; the repetition's value is its median exchange.
 */
void pp_warm(struct ctx *c, struct row *r)
{
	char *req = scratch(r->size);
	uint64_t to = 0;

	/* every peer's state exists, routes and caches are hot */
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < c->n; i++)
			exchange(c, i, req, r->size, r->reply ? r->reply : r->size,
				 &to);
}

void pp_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	int reply = r->reply ? r->reply : r->size;
	char *req = scratch(r->size);
	struct wp_info srv0;
	double c0[NCTR], t0, t;
	int i = 0;

	s.n = 0;
	srv_cpu_begin(c, r, &srv0);
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t = exchange(c, i, req, r->size, reply, &r->timeouts);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
		i = (i + 1) % r->npeers;
	} while (now_s() - t0 < opt.secs || s.n < r->npeers);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	srv_cpu_end(c, r, &srv0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Ask the server what it received in the session */
void get_stat(struct ctx *c, uint32_t session, struct wp_stat *st,
	      uint64_t *timeouts)
{
	ask_server(c, OP_STAT, session, st, sizeof(*st), timeouts);
}

/* Bulk: one-way messages for opt.secs, then the server's count; the
 * repetition's value is the goodput the receiver saw.
 */
void bulk_send(struct ctx *c, struct row *r, double secs,
	       uint32_t session, uint64_t *sent)
{
	char *msg = scratch(r->size);
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK, .seq = session };
	double t0 = now_s();

	memcpy(msg, &h, sizeof(h));
	do {
		for (int k = 0; k < 8; k++)
			if (!tx(c, peer_fd(c, 0), &c->addr[0], msg, r->size, 0))
				(*sent)++;
	} while (now_s() - t0 < secs);
}

void bulk_warm(struct ctx *c, struct row *r)
{
	uint32_t session = next_seq++;
	struct wp_stat st;
	uint64_t sent = 0, to = 0;

	bulk_send(c, r, 0, session, &sent);
	get_stat(c, session, &st, &to);
}

void bulk_rep(struct ctx *c, struct row *r, int rep)
{
	uint32_t session = next_seq++;
	double c0[NCTR], t0, t;
	struct wp_stat st;
	uint64_t sent = 0;

	rep_begin(c, c0);
	t0 = now_s();
	bulk_send(c, r, opt.secs, session, &sent);
	get_stat(c, session, &st, &r->timeouts);
	t = now_s() - t0;
	rep_end(c, r, c0);
	r->secs += t;
	r->sent += sent;
	r->rcvd += st.msgs;
	r->bytes_sent += sent * r->size;
	r->bytes_rcvd += st.bytes;
	r->ops += sent;
	r->rep[rep] = st.bytes * 8 / t / 1e6;
}

/* Wind's sync-ordered send: returns when the peer's kernel acked it. */
static uint32_t sync_session;

void sync_warm(struct ctx *c, struct row *r)
{
	struct wp_hdr h = { .magic = WP_MAGIC, .op = OP_SINK };
	char *msg = scratch(r->size);

	sync_session = h.seq = next_seq++;
	memcpy(msg, &h, sizeof(h));
	for (int k = 0; k < 3; k++)
		tx(c, c->fd[0], &c->addr[0], msg, r->size, MSG_WIND_SYNC);
	r->sent = 3;
}

void sync_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_SINK, .seq = sync_session,
	};
	char *msg = scratch(r->size);
	double c0[NCTR], t0, t1, t;

	memcpy(msg, &h, sizeof(h));
	s.n = 0;
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t1 = now_s();
		tx(c, c->fd[0], &c->addr[0], msg, r->size, MSG_WIND_SYNC);
		t = (now_s() - t1) * 1e6;
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	r->ops += s.n;
	r->sent += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Everything sent synchronously arrived (and the server is still there). */
void sync_check(struct ctx *c, struct row *r)
{
	struct wp_stat st;

	get_stat(c, sync_session, &st, &r->timeouts);
	r->rcvd = st.msgs;
	if (st.msgs != r->sent)
		die("sync: the server got %" PRIu64 " of %" PRIu64 " messages",
		    st.msgs, r->sent);
}
