// SPDX-License-Identifier: GPL-2.0
/* windperf: the mem test: what the kernel's memory says of many peers (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

static void slab_use(double *sunreclaim, double *slab)
{
	*sunreclaim = kv_get("/proc/meminfo", "SUnreclaim:") * 1024.0;
	*slab = kv_get("/proc/meminfo", "Slab:") * 1024.0;
}

static void settle(void)
{
	/* delayed acks go out, RCU frees what was freed */
	usleep(300 * 1000);
	sync();
	usleep(200 * 1000);
}

/* /proc/slabinfo: active objects and object size of every cache. */
#define MAX_CACHES 512
struct slabs {
	int n;
	char name[MAX_CACHES][48];
	long objs[MAX_CACHES], size[MAX_CACHES];
};

static void slabinfo(struct slabs *s)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	s->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && s->n < MAX_CACHES) {
		long active, total, size;

		if (sscanf(line, "%47s %ld %ld %ld", s->name[s->n], &active,
			   &total, &size) != 4)
			continue;
		s->objs[s->n] = active;
		s->size[s->n] = size;
		s->n++;
	}
	fclose(f);
}

/*
 * Kernel memory per idle peer.  The server has -n sockets (one per port).
 * One client socket exchanges one message with each, so both ends hold
 * one peer state per pair, each having sent and received one message:
 * the growth of the unreclaimable slab (/proc/meminfo SUnreclaim) is
 * 2n peer states, and the cost of one is that over 2n.  The caches that
 * grew by n/2 objects or more (/proc/slabinfo) say what they hold.
 */
void mem_test(struct ctx *c)
{
	static struct slabs a, b;
	double u0, s0, u1, s1, per;
	char req[32] = { 0 };
	uint64_t to = 0;
	bool first = true;

	settle();
	slabinfo(&a);
	slab_use(&u0, &s0);
	for (int i = 0; i < c->n; i++)
		exchange(c, i, req, sizeof(req), sizeof(req), &to);
	settle();
	slab_use(&u1, &s1);
	slabinfo(&b);
	per = (u1 - u0) / (2.0 * c->n);
	if (!opt.json)
		printf("wind mem %d peers: SUnreclaim +%.0f B, Slab +%.0f B: "
		       "%.0f B per peer state (2 per pair); caches:",
		       c->n, u1 - u0, s1 - s0, per);
	else
		printf("{\"peers\": %d, \"sunreclaim_delta\": %.0f, "
		       "\"slab_delta\": %.0f, \"per_peer\": %.1f, "
		       "\"per_peer_slab\": %.1f, \"caches\": {",
		       c->n, u1 - u0, s1 - s0, per, (s1 - s0) / (2.0 * c->n));
	for (int i = 0; i < b.n; i++)
		for (int j = 0; j < a.n; j++) {
			long d = b.objs[i] - a.objs[j];

			if (strcmp(a.name[j], b.name[i]))
				continue;
			if (d >= c->n / 2 || d <= -c->n / 2) {
				if (opt.json)
					printf("%s\"%s\": [%ld, %ld]",
					       first ? "" : ", ", b.name[i], d,
					       b.size[i]);
				else
					printf(" %s %+ld x %ld B", b.name[i],
					       d, b.size[i]);
				first = false;
			}
			break;
		}
	printf(opt.json ? "}}" : "\n");
}
