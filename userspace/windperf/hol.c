// SPDX-License-Identifier: GPL-2.0
/* windperf: the hol test: short messages beside a bulk stream on the same socket (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- hol: short messages beside a bulk stream on the same socket -----
 *
 * A ping-pong of -m bytes (default 32) alone, and while a second thread
 * streams -q byte messages (default 65536) to the same server on the
 * same socket (TCP: the same connection, frames kept whole by a lock);
 * the two rows' repetitions alternate.  Wind's pings are async-reliable
 * (MSG_WIND_RELIABLE): delivered as soon as they are in, they may
 * overtake the stream, as the ordered types may not.  After a loaded
 * repetition the stream's session is asked for its count (which also
 * waits for what it queued), for the stream's goodput.
 */
static pthread_mutex_t hol_tx_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	struct ctx *c;
	int size;
	uint32_t session;
	atomic_bool stop;
	uint64_t sent;
} hol_bulk;

static void hol_tx(struct ctx *c, const void *msg, size_t len, int flags)
{
	pthread_mutex_lock(&hol_tx_lock);
	tx(c, c->fd[0], &c->addr[0], msg, len, flags);
	pthread_mutex_unlock(&hol_tx_lock);
}

static void *hol_bulk_main(void *arg)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_SINK, .seq = hol_bulk.session,
	};
	static char *msg;

	(void)arg;
	if (!msg)
		msg = xcalloc(1, WP_MAXMSG);
	memcpy(msg, &h, sizeof(h));
	while (!atomic_load(&hol_bulk.stop)) {
		if (hol_bulk.c->proto == P_TCP)
			hol_tx(hol_bulk.c, msg, hol_bulk.size, 0);
		else
			tx(hol_bulk.c, hol_bulk.c->fd[0], &hol_bulk.c->addr[0],
			   msg, hol_bulk.size, 0);
		hol_bulk.sent++;
	}
	return NULL;
}

/* One ping-pong on the shared socket: exchange() with the lock and
 * Wind's async-reliable type.
 */
static double hol_exchange(struct ctx *c, char *req, int size,
			   uint64_t *timeouts)
{
	struct wp_hdr h = {
		.magic = WP_MAGIC, .op = OP_ECHO, .seq = next_seq++,
		.reply_len = size,
	};
	int flags = c->proto == P_WIND ? MSG_WIND_RELIABLE : 0;
	struct sockaddr_storage from;
	double t0 = now_s();
	char *msg;

	memcpy(req, &h, sizeof(h));
	hol_tx(c, req, size, flags);
	for (;;) {
		ssize_t n = rx(c, c->fd[0], peer_rb(c, 0), &msg, &from);
		struct wp_hdr rh;

		if (n < 0) {		/* UDP: lost, ask again */
			(*timeouts)++;
			hol_tx(c, req, size, flags);
			continue;
		}
		if (n == 0)
			die("connection closed by the server");
		memcpy(&rh, msg, sizeof(rh));
		if (rh.magic == WP_MAGIC && rh.seq == h.seq) {
			if (n != size)
				die("reply of %zd bytes, expected %d", n, size);
			break;
		}
	}
	return (now_s() - t0) * 1e6;
}

static void hol_rep(struct ctx *c, struct row *r, int rep, int bulk_size)
{
	static struct samples s;
	char *req = xcalloc(1, r->size);
	double c0[NCTR], t0, t, tb = 0;
	pthread_t th;

	s.n = 0;
	rep_begin(c, c0);
	if (r->load) {
		hol_bulk.c = c;
		hol_bulk.size = bulk_size;
		hol_bulk.session = next_seq++;
		hol_bulk.sent = 0;
		atomic_store(&hol_bulk.stop, false);
		tb = now_s();
		if (pthread_create(&th, NULL, hol_bulk_main, NULL))
			die("pthread_create");
		usleep(20000);		/* the stream is under way */
	}
	t0 = now_s();
	do {
		t = hol_exchange(c, req, r->size, &r->timeouts);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	if (r->load) {
		struct wp_stat st;

		atomic_store(&hol_bulk.stop, true);
		pthread_join(th, NULL);
		get_stat(c, hol_bulk.session, &st, &r->timeouts);
		r->bulk_bytes += st.bytes;
		r->bulk_secs += now_s() - tb;
	}
	rep_end(c, r, c0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
	free(req);
}

int hol_client(const enum proto *protos, int np, const char *host,
	       int port)
{
	static struct row rows[3][2];
	struct sockaddr_storage server;
	int bulk_size = opt.reply ? opt.reply : 65536;
	struct ctx c[3];

	parse_host(host, &server);
	if (opt.sizes[0] < (int)sizeof(struct wp_hdr) || bulk_size > (int)WP_MAXMSG ||
	    bulk_size < (int)sizeof(struct wp_hdr))
		die("hol: bad sizes");
	for (int k = 0; k < np; k++) {
		char *req = xcalloc(1, opt.sizes[0]);
		uint64_t to = 0;

		client_open(&c[k], protos[k], &server, port, 1);
		for (int i = 0; i < 3; i++)
			hol_exchange(&c[k], req, opt.sizes[0], &to);
		free(req);
		for (int v = 0; v < 2; v++) {
			struct row *r = &rows[k][v];

			r->kind = ROW_HOL;
			r->reps = opt.reps;
			r->best = 1e30;
			r->size = opt.sizes[0];
			r->npeers = 1;
			r->load = v;
		}
	}
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < 2; v++)
			for (int k = 0; k < np; k++) {
				int bs = protos[k] == P_UDP && bulk_size > 65507 ?
					 65507 : bulk_size;

				hol_rep(&c[k], &rows[k][v], rep, bs);
			}
	for (int k = 0; k < np; k++) {
		if (opt.json)
			printf("{\"proto\": \"%s\", \"test\": \"hol\", "
			       "\"peers\": 1, \"secs_per_rep\": %.3f, "
			       "\"bulk_size\": %d, \"rows\": [",
			       proto_names[protos[k]], opt.secs, bulk_size);
		for (int v = 0; v < 2; v++)
			print_row(&c[k], &rows[k][v], false, v == 0);
		if (opt.json)
			printf("]}\n");
	}
	fflush(stdout);
	return 0;
}

/*
 * The client: for each size, every protocol of -p warms up, then the
 * repetitions alternate between the protocols (wind, udp, tcp, wind, ...)
 * so that they share whatever else the machine does alike.
 */
