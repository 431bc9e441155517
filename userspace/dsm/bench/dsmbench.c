// SPDX-License-Identifier: GPL-2.0
/*
 * dsmbench: the micro-benchmarks of the Wind, DSE and Mocha papers over
 * Wind, UDP with a user-level reliability layer, and a TCP full mesh.
 * Run one process per node (scripts/qemu/cluster sets NODE_RANK, NODE_COUNT,
 * NODE_ADDRS); rank 0 prints one JSON line per result.
 *
 *   dsmbench fagus    -p wind|wind-msg|udp|tcp [-s SIZES] [-r ROUNDS]
 *       Fagus barrier (Wind paper, Fig. 7): rank 0 owns a shared area of
 *       S bytes, updates it, sends it to every other node, then all nodes
 *       barrier.  wind: Direct Map (each node registers the area with
 *       WIND_REGION_ADD; the data lands in place in softirq, an ordered
 *       barrier message after it says it is there); wind-msg: the same
 *       over ordinary Wind messages copied in by the process; udp, tcp:
 *       copied in too.  Time per barrier (data + barrier) at rank 0.
 *   dsmbench hotspot  -p wind|udp|tcp [-q REQ] [-R REPLY] [-r REQUESTS]
 *       DSE hot spot: every rank > 0 sends requests to rank 0, which
 *       replies; per-request latency at the clients, requests/s at rank 0.
 *   dsmbench alltoall -p wind|udp|tcp [-m SIZE] [-r ROUNDS] [--hold FILE]
 *       every rank sends SIZE bytes to every other, ROUNDS times; with
 *       --hold, writes the socket count of its network namespace to
 *       FILE.ready.RANK and stays open until FILE exists.
 *
 * Common: --rank R --addrs A,B,C (default: NODE_RANK, NODE_ADDRS; all
 * IPv4 or all IPv6 addresses, as scripts/qemu/cluster --ipv6 gives them),
 * -P PORT (default 7300).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/wind.h>

#include "tp.h"

#define MAXMSG		(1u << 20)

enum { M_DATA = 1, M_BAR, M_ARR, M_REL, M_REQ, M_REP, M_DONE, M_A2A };

struct hdr {
	uint32_t type;
	uint32_t round;
	uint32_t off;
	uint32_t len;
	uint64_t val;
};

static int rank = -1, nodes;
static tp_addr *addrs;
static uint16_t port = 7300;
static const char *proto_s = "wind";
static enum tp_proto proto;
static int direct;			/* fagus over Wind Direct Map */

static void die(const char *m)
{
	fprintf(stderr, "dsmbench: rank %d: %s\n", rank, m);
	exit(1);
}

static void parse_addrs(const char *s)
{
	char *d = strdup(s), *save, *t;

	nodes = 0;
	for (const char *c = s; *c; c++)
		nodes += *c == ',';
	nodes++;
	addrs = calloc((size_t)nodes, sizeof(*addrs));
	int i = 0;

	for (t = strtok_r(d, ",", &save); t; t = strtok_r(NULL, ",", &save), i++) {
		if (tp_addr_parse(&addrs[i], t) ||
		    addrs[i].sa.sa_family != addrs[0].sa.sa_family)
			die("bad address in --addrs (all IPv4 or all IPv6)");
	}
	if (i != nodes)
		die("bad --addrs");
	free(d);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return n ? v[n / 2] : 0;
}

static ssize_t recv_hdr(struct tp *tp, int *peer, void *buf, struct hdr *h)
{
	ssize_t r = tp_recv(tp, peer, buf, MAXMSG + sizeof(*h), 120000);

	if (r <= 0)
		die(r ? "receive failed" : "receive timed out (120 s)");
	if ((size_t)r < sizeof(*h))
		die("short message");
	memcpy(h, buf, sizeof(*h));
	return r;
}

/* --- Fagus barrier ------------------------------------------------------ */

static int send_direct(int fd, const tp_addr *dst, const void *data,
		       size_t len, uint64_t off)
{
	struct wind_dsm dsm = { .mode = WIND_DSM_DIRECT_MAP, .region = 1,
				.offset = off, .key = 0x46616775735f4b31ull };

	if (tp_wind_send_dsm(fd, dst, tp_addr_len(dst), NULL, 0, data, len,
			     &dsm, 0) < 0) {
		perror("wind direct-map sendmsg");
		return -1;
	}
	return 0;
}

static void fagus(struct tp *tp, const char *sizes, int rounds_opt, size_t chunk)
{
	size_t maxs = 0;
	char *d = strdup(sizes), *save, *t;

	for (t = strtok_r(d, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (strtoul(t, NULL, 0) > maxs)
			maxs = strtoul(t, NULL, 0);
	free(d);
	if (!maxs || maxs > MAXMSG * 16)
		die("bad -s");
	size_t area = (maxs + 4095) & ~(size_t)4095;
	unsigned char *shm = mmap(NULL, area, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *buf = malloc(MAXMSG + sizeof(struct hdr) + 64);

	if (shm == MAP_FAILED || !buf)
		die("out of memory");
	memset(shm, 0, area);
	if (direct) {
		struct wind_region reg = { .addr = (uintptr_t)shm, .len = area,
					   .id = 1, .key = 0x46616775735f4b31ull };

		if (setsockopt(tp_fd(tp), SOL_WIND, WIND_REGION_ADD, &reg, sizeof(reg)))
			die("WIND_REGION_ADD failed");
	}
	if (tp_barrier(tp, 0, NULL))
		die("barrier failed");

	d = strdup(sizes);
	for (t = strtok_r(d, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t S = strtoul(t, NULL, 0);
		int rounds = rounds_opt > 0 ? rounds_opt :
			     S <= 16384 ? 30 : S <= 131072 ? 15 : 6;
		uint64_t *tv = calloc((size_t)rounds, sizeof(*tv));
		uint64_t retr0 = tp_retrans(tp), sum_retr = 0;
		int bad = 0;

		for (int r = -1; r < rounds; r++) {	/* r = -1: warm-up */
			uint32_t pat = (uint32_t)(r + 2) & 0xff;
			uint64_t t0 = now_ns();
			struct hdr h;
			int peer;

			if (rank == 0) {
				memset(shm, (int)pat, S);	/* the update */
				for (int p = 1; p < nodes; p++) {
					for (size_t o = 0; o < S; o += chunk) {
						size_t l = S - o < chunk ? S - o : chunk;

						if (direct) {
							tp_addr dst = addrs[p];

							tp_addr_set_port(&dst, port);
							if (send_direct(tp_fd(tp), &dst, shm + o, l, o))
								die("send failed");
							continue;
						}
						h = (struct hdr){ .type = M_DATA, .round = pat,
								  .off = (uint32_t)o, .len = (uint32_t)l };
						memcpy(buf, &h, sizeof(h));
						memcpy(buf + sizeof(h), shm + o, l);
						if (tp_send(tp, p, buf, sizeof(h) + l))
							die("send failed");
					}
					h = (struct hdr){ .type = M_BAR, .round = pat, .len = (uint32_t)S };
					if (tp_send(tp, p, &h, sizeof(h)))
						die("send failed");
				}
				for (int p = 1; p < nodes; p++) {
					recv_hdr(tp, &peer, buf, &h);
					if (h.type != M_ARR || h.round != pat)
						die("expected ARRIVE");
					bad += (int)h.val;
				}
				h = (struct hdr){ .type = M_REL, .round = pat };
				for (int p = 1; p < nodes; p++)
					if (tp_send(tp, p, &h, sizeof(h)))
						die("send failed");
				if (r >= 0)
					tv[r] = now_ns() - t0;
			} else {
				for (;;) {
					ssize_t l = recv_hdr(tp, &peer, buf, &h);

					if (h.type == M_BAR)
						break;
					if (h.type != M_DATA || h.off + h.len > area ||
					    (size_t)l != sizeof(h) + h.len)
						die("bad DATA message");
					memcpy(shm + h.off, buf + sizeof(h), h.len);
				}
				/* the barrier message is ordered after the data */
				h.val = shm[0] != pat || shm[S - 1] != pat ||
					shm[S / 2] != pat;
				h.type = M_ARR;
				if (tp_send(tp, 0, &h, sizeof(h)))
					die("send failed");
				recv_hdr(tp, &peer, buf, &h);
				if (h.type != M_REL)
					die("expected RELEASE");
			}
		}
		uint64_t my = tp_retrans(tp) - retr0;

		if (tp_barrier(tp, my, &sum_retr))
			die("barrier failed");
		if (rank == 0) {
			uint64_t mn = 0;

			for (int i = 0; i < rounds; i++)
				mn += tv[i];
			mn /= (uint64_t)rounds;
			printf("{\"bench\":\"fagus\",\"proto\":\"%s\",\"nodes\":%d,\"size\":%zu,"
			       "\"rounds\":%d,\"us_median\":%.1f,\"us_mean\":%.1f,"
			       "\"MBps\":%.2f,\"retrans\":%llu,\"bad\":%d}\n",
			       proto_s, nodes, S, rounds, median(tv, rounds) / 1e3, mn / 1e3,
			       (double)S * (nodes - 1) / (mn / 1e3),
			       (unsigned long long)sum_retr, bad);
			fflush(stdout);
		}
		free(tv);
	}
	free(d);
}

/* --- DSE hot spot ------------------------------------------------------- */

static void hotspot(struct tp *tp, size_t qs, size_t rs, int reqs)
{
	unsigned char *buf = calloc(1, MAXMSG + 64);
	struct hdr h;
	int peer;

	if (qs < sizeof(h))
		qs = sizeof(h);
	if (rs < sizeof(h))
		rs = sizeof(h);
	if (!buf || qs > MAXMSG || rs > MAXMSG)
		die("bad sizes");
	uint64_t retr0 = tp_retrans(tp), sum_retr = 0;

	if (tp_barrier(tp, 0, NULL))
		die("barrier failed");
	if (rank == 0) {
		int done = 0;
		uint64_t t0 = now_ns(), served = 0, lat_sum = 0, lat_med_sum = 0;

		while (done < nodes - 1) {
			recv_hdr(tp, &peer, buf, &h);
			if (h.type == M_DONE) {
				lat_sum += h.val;
				lat_med_sum += h.off;
				done++;
				continue;
			}
			if (h.type != M_REQ)
				die("expected REQUEST");
			h.type = M_REP;
			memcpy(buf, &h, sizeof(h));
			if (tp_send(tp, peer, buf, rs))
				die("send failed");
			served++;
		}
		uint64_t el = now_ns() - t0;
		uint64_t my = tp_retrans(tp) - retr0;

		if (tp_barrier(tp, my, &sum_retr))
			die("barrier failed");
		int c = nodes - 1 ? nodes - 1 : 1;

		printf("{\"bench\":\"hotspot\",\"proto\":\"%s\",\"nodes\":%d,\"req\":%zu,"
		       "\"reply\":%zu,\"requests\":%llu,\"req_per_s\":%.1f,"
		       "\"us_mean\":%.1f,\"us_median\":%.1f,\"retrans\":%llu}\n",
		       proto_s, nodes, qs, rs, (unsigned long long)served,
		       served / (el / 1e9), lat_sum / 1e3 / c, lat_med_sum / 1.0 / c,
		       (unsigned long long)sum_retr);
		fflush(stdout);
	} else {
		uint64_t *lv = calloc((size_t)reqs, sizeof(*lv)), sum = 0;

		for (int i = 0; i < reqs; i++) {
			uint64_t t0 = now_ns();

			h = (struct hdr){ .type = M_REQ, .round = (uint32_t)i };
			memcpy(buf, &h, sizeof(h));
			if (tp_send(tp, 0, buf, qs))
				die("send failed");
			ssize_t l = recv_hdr(tp, &peer, buf, &h);

			if (h.type != M_REP || h.round != (uint32_t)i || (size_t)l != rs)
				die("bad REPLY");
			lv[i] = now_ns() - t0;
			sum += lv[i];
		}
		h = (struct hdr){ .type = M_DONE, .val = sum / (uint64_t)reqs,
				  .off = (uint32_t)(median(lv, reqs) / 1000) };
		if (tp_send(tp, 0, &h, sizeof(h)))
			die("send failed");
		if (tp_barrier(tp, tp_retrans(tp) - retr0, NULL))
			die("barrier failed");
		free(lv);
	}
	free(buf);
}

/* --- all-to-all (the DSE port count) ------------------------------------ */

static void alltoall(struct tp *tp, size_t ms, int rounds, const char *hold)
{
	unsigned char *buf = calloc(1, MAXMSG + 64);
	int *cnt = calloc((size_t)rounds + 2, sizeof(int));
	struct hdr h;
	int peer;

	if (ms < sizeof(h))
		ms = sizeof(h);
	if (!buf || !cnt || ms > MAXMSG)
		die("bad sizes");
	if (tp_barrier(tp, 0, NULL))
		die("barrier failed");
	uint64_t t0 = now_ns(), retr0 = tp_retrans(tp), sum_retr = 0;

	for (int r = 0; r < rounds; r++) {
		for (int k = 1; k < nodes; k++) {
			int p = (rank + k) % nodes;

			h = (struct hdr){ .type = M_A2A, .round = (uint32_t)r };
			memcpy(buf, &h, sizeof(h));
			if (tp_send(tp, p, buf, ms))
				die("send failed");
		}
		while (cnt[r] < nodes - 1) {
			recv_hdr(tp, &peer, buf, &h);
			if (h.type != M_A2A || h.round > (uint32_t)r + 1)
				die("bad all-to-all message");
			cnt[h.round]++;
		}
	}
	uint64_t el = now_ns() - t0;

	if (tp_barrier(tp, tp_retrans(tp) - retr0, &sum_retr))
		die("barrier failed");
	if (hold) {
		char f[4096];
		/*
		 * The sockets of this network namespace (one process per
		 * namespace in scripts/benchmarks/bench-dsm-ports): the lines of
		 * /proc/net/{tcp,udp,wind} after the header.
		 */
		const char *pf = proto == TP_TCP ? "/proc/net/tcp" :
				 proto == TP_UDP ? "/proc/net/udp" : "/proc/net/wind";
		FILE *in = fopen(pf, "r");
		long socks = -1;

		if (in) {
			int ch;

			socks = 0;
			while ((ch = fgetc(in)) != EOF)
				socks += ch == '\n';
			socks--;		/* the header */
			fclose(in);
		}
		snprintf(f, sizeof(f), "%s.ready.%d", hold, rank);
		FILE *o = fopen(f, "w");

		if (o) {
			fprintf(o, "%ld\n", socks);
			fclose(o);
		}
		while (access(hold, F_OK))
			usleep(100000);
	}
	if (rank == 0) {
		printf("{\"bench\":\"alltoall\",\"proto\":\"%s\",\"procs\":%d,\"size\":%zu,"
		       "\"rounds\":%d,\"ms\":%.1f,\"us_per_round\":%.1f,\"retrans\":%llu}\n",
		       proto_s, nodes, ms, rounds, el / 1e6, el / 1e3 / rounds,
		       (unsigned long long)sum_retr);
		fflush(stdout);
	}
	free(cnt);
	free(buf);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: dsmbench fagus|hotspot|alltoall [-p PROTO] [--rank R] [--addrs A,B,..] [-P PORT]\n"
		"  fagus:    -p wind|wind-msg|udp|tcp -s SIZES (4096,65536,...) [-r ROUNDS] [-c CHUNK]\n"
		"  hotspot:  -p wind|udp|tcp -q REQ -R REPLY -r REQUESTS\n"
		"  alltoall: -p wind|udp|tcp -m SIZE -r ROUNDS [--hold FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "rank", required_argument, NULL, 'i' },
		{ "addrs", required_argument, NULL, 'a' },
		{ "hold", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sizes = "4096,16384,65536,262144,1048576", *hold = NULL;
	const char *a = getenv("NODE_ADDRS"), *e = getenv("NODE_RANK");
	size_t chunk = 65536, qs = 64, rs = 64, ms = 4096;
	int rounds = 0, c;

	if (argc < 2)
		usage();
	const char *bench = argv[1];

	argv++;
	argc--;
	if (e)
		rank = atoi(e);
	while ((c = getopt_long(argc, argv, "p:s:r:c:q:R:m:P:", lo, NULL)) != -1) {
		switch (c) {
		case 'p': proto_s = optarg; break;
		case 's': sizes = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'c': chunk = strtoul(optarg, NULL, 0); break;
		case 'q': qs = strtoul(optarg, NULL, 0); break;
		case 'R': rs = strtoul(optarg, NULL, 0); break;
		case 'm': ms = strtoul(optarg, NULL, 0); break;
		case 'P': port = (uint16_t)atoi(optarg); break;
		case 'i': rank = atoi(optarg); break;
		case 'a': a = optarg; break;
		case 'H': hold = optarg; break;
		default: usage();
		}
	}
	if (!a || rank < 0)
		die("no --rank/--addrs (or NODE_RANK/NODE_ADDRS)");
	parse_addrs(a);
	if (rank >= nodes)
		die("rank out of range");
	if (!strcmp(proto_s, "wind-msg")) {
		proto = TP_WIND;
	} else if (tp_parse(proto_s, &proto)) {
		die("unknown -p");
	}
	direct = !strcmp(proto_s, "wind") && !strcmp(bench, "fagus");
	if (!chunk || chunk > MAXMSG)
		die("bad -c");

	struct tp *tp = tp_open(proto, rank, nodes, addrs, port);

	if (!tp)
		die("cannot open the transport");
	/* long: 60 processes under TCG start minutes apart (port count) */
	if (tp_start(tp, 600000))
		die("start failed (peers did not answer)");
	if (!strcmp(bench, "fagus"))
		fagus(tp, sizes, rounds, chunk);
	else if (!strcmp(bench, "hotspot"))
		hotspot(tp, qs, rs, rounds > 0 ? rounds : 200);
	else if (!strcmp(bench, "alltoall"))
		alltoall(tp, ms, rounds > 0 ? rounds : 10, hold);
	else
		usage();
	if (tp_barrier(tp, 0, NULL))
		die("final barrier failed");
	tp_close(tp);
	return 0;
}
