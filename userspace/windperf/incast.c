// SPDX-License-Identifier: GPL-2.0
/* windperf: the incast test: -S senders, each in a netns of its own, to one receiver (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- incast: -S senders, each in a netns of its own, to one receiver --
 *
 * The client runs in the receiver's netns (its counters are the
 * receiver's) and forks one sender per netns -E PREFIX1 .. PREFIXn
 * (/var/run/netns, as ip netns names them), each with its own socket to
 * HOST.  A repetition of the row for k senders starts the first k at
 * once; each streams -m byte messages for -d seconds in a session of its
 * own, then asks the server what it got.  The value is the aggregate
 * goodput: the bytes the server got over the time from the start until
 * the last sender's answer.  Rows: -k counts (default 1,n), alternating.
 */
#define WP_MAXSENDERS 64

struct incast_cmd {
	uint32_t session;
	int run;		/* 0: exit */
	double secs;
};

struct incast_res {
	uint64_t sent, bytes, msgs, timeouts;
	double t_end;
	double cd[NCTR];
};

struct incast_kid {
	pid_t pid;
	int cmd, res;		/* pipes: to it, from it */
};

static void read_full(int fd, void *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("incast: a sender is gone");
		buf = (char *)buf + n;
		len -= n;
	}
}

static void write_all(int fd, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };

	write_full(fd, &iov, 1);
}

static void incast_enter_netns(int i)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/var/run/netns/%s%d", opt.netns_prefix,
		 i + 1);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s:", path);
	if (setns(fd, CLONE_NEWNET))
		die("setns(%s):", path);
	close(fd);
}

static _Noreturn void incast_kid_main(enum proto p,
				      const struct sockaddr_storage *server,
				      int port, int i, int size, int cmdfd,
				      int resfd)
{
	struct row r = { .size = size };
	struct incast_cmd cmd;
	struct ctx c;

	/* a sender outlives no parent, and a stalled one ends the run (the
	 * parent sees it gone) rather than hang it
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	incast_enter_netns(i);
	client_open(&c, p, server, port, 1);
	for (;;) {
		struct incast_res res = { 0 };
		double c0[NCTR], c1[NCTR];
		struct wp_stat st;

		read_full(cmdfd, &cmd, sizeof(cmd));
		if (!cmd.run)
			_exit(0);
		counters(p, c0);
		alarm((unsigned int)cmd.secs + 60);
		bulk_send(&c, &r, cmd.secs, cmd.session, &res.sent);
		get_stat(&c, cmd.session, &st, &res.timeouts);
		alarm(0);
		res.t_end = now_s();
		counters(p, c1);
		res.bytes = st.bytes;
		res.msgs = st.msgs;
		for (int j = 0; j < NCTR; j++)
			res.cd[j] = c1[j] - c0[j];
		write_all(resfd, &res, sizeof(res));
	}
}

static void incast_spawn(struct incast_kid *kids, int n, enum proto p,
			 const struct sockaddr_storage *server, int port,
			 int size)
{
	for (int i = 0; i < n; i++) {
		int cp[2], rp[2];

		if (pipe2(cp, O_CLOEXEC) || pipe2(rp, O_CLOEXEC))
			die("pipe:");
		fflush(stdout);
		kids[i].pid = fork();
		if (kids[i].pid < 0)
			die("fork:");
		if (!kids[i].pid) {
			close(cp[1]);
			close(rp[0]);
			incast_kid_main(p, server, port, i, size, cp[0], rp[1]);
		}
		close(cp[0]);
		close(rp[1]);
		kids[i].cmd = cp[1];
		kids[i].res = rp[0];
	}
}

/* Run the first k senders at once for @secs; sums into @r (NULL: warm-up). */
static void incast_go(struct incast_kid *kids, int k, enum proto p,
		      struct row *r, int rep, double secs)
{
	uint32_t base = next_seq;
	double c0[NCTR], c1[NCTR], t0, t_end = 0;
	uint64_t bytes = 0;

	next_seq += k;
	counters(p, c0);
	t0 = now_s();
	for (int i = 0; i < k; i++) {
		struct incast_cmd cmd = {
			.session = base + i, .run = 1, .secs = secs,
		};

		write_all(kids[i].cmd, &cmd, sizeof(cmd));
	}
	for (int i = 0; i < k; i++) {
		struct incast_res res;

		read_full(kids[i].res, &res, sizeof(res));
		if (res.t_end > t_end)
			t_end = res.t_end;
		bytes += res.bytes;
		if (!r)
			continue;
		r->sent += res.sent;
		r->rcvd += res.msgs;
		r->bytes_sent += res.sent * r->size;
		r->bytes_rcvd += res.bytes;
		r->ops += res.sent;
		r->timeouts += res.timeouts;
		for (int j = 0; j < NCTR; j++)
			r->scd[j] += res.cd[j];
	}
	counters(p, c1);
	if (!r)
		return;
	for (int j = 0; j < NCTR; j++)
		r->cd[j] += c1[j] - c0[j];
	r->secs += t_end - t0;
	r->rep[rep] = bytes * 8 / (t_end - t0) / 1e6;
}

static void incast_stop(struct incast_kid *kids, int n)
{
	struct incast_cmd cmd = { .run = 0 };

	for (int i = 0; i < n; i++) {
		write_all(kids[i].cmd, &cmd, sizeof(cmd));
		close(kids[i].cmd);
		close(kids[i].res);
		waitpid(kids[i].pid, NULL, 0);
	}
}

int incast_client(const enum proto *protos, int np, const char *host,
		  int port)
{
	static struct incast_kid kids[3][WP_MAXSENDERS];
	static struct row rows[3][16];
	struct sockaddr_storage server;
	int n = opt.senders, nv, size = opt.sizes[0];

	if (n < 1 || n > WP_MAXSENDERS || !opt.netns_prefix)
		die("-t incast needs -S 1..%d senders and -E netns prefix",
		    WP_MAXSENDERS);
	parse_host(host, &server);
	if (!opt.nks) {
		opt.ks[opt.nks++] = 1;
		if (n > 1)
			opt.ks[opt.nks++] = n;
	}
	nv = opt.nks;
	for (int v = 0; v < nv; v++)
		if (opt.ks[v] < 1 || opt.ks[v] > n)
			die("-k %d: 1..%d senders", opt.ks[v], n);
	for (int k = 0; k < np; k++) {
		int sz = protos[k] == P_UDP && size > 65507 ? 65507 : size;

		incast_spawn(kids[k], n, protos[k], &server, port, sz);
		incast_go(kids[k], n, protos[k], NULL, 0, 0);	/* warm-up */
		for (int v = 0; v < nv; v++) {
			struct row *r = &rows[k][v];

			r->kind = ROW_INCAST;
			r->reps = opt.reps;
			r->best = 1e30;
			r->size = sz;
			r->npeers = opt.ks[v];
		}
	}
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < nv; v++)
			for (int k = 0; k < np; k++)
				incast_go(kids[k], opt.ks[v], protos[k],
					  &rows[k][v], rep, opt.secs);
	for (int k = 0; k < np; k++)
		incast_stop(kids[k], n);
	for (int k = 0; k < np; k++) {
		struct ctx c = { .proto = protos[k] };

		if (opt.json)
			printf("{\"proto\": \"%s\", \"test\": \"incast\", "
			       "\"peers\": %d, \"secs_per_rep\": %.3f, \"rows\": [",
			       proto_names[protos[k]], n, opt.secs);
		for (int v = 0; v < nv; v++)
			print_row(&c, &rows[k][v], true, v == 0);
		if (opt.json)
			printf("]}\n");
	}
	fflush(stdout);
	return 0;
}
