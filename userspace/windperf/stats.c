// SPDX-License-Identifier: GPL-2.0
/* windperf: the counters around a repetition, and the results: rows, text and JSON (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- counters ------------------------------------------------------- */


/* Value of @name in a "Name Value" file (/proc/net/wind_stat). */
uint64_t kv_get(const char *file, const char *name)
{
	char line[256], key[128];
	unsigned long long v;
	uint64_t ret = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", key, &v) == 2 &&
		    !strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

/* Value of @name in the @proto section of /proc/net/snmp. */
static uint64_t snmp_file_get(const char *file, const char *proto,
			      const char *name);

uint64_t snmp_get(const char *proto, const char *name)
{
	return snmp_file_get("/proc/net/snmp", proto, name);
}

/* The same out of a file of that layout (/proc/net/netstat: TcpExt). */
static uint64_t snmp_file_get(const char *file, const char *proto,
			      const char *name)
{
	char hdr[8192], val[8192], *hs, *vs, *h, *v;
	size_t plen = strlen(proto);
	uint64_t ret = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 0;
	while (fgets(hdr, sizeof(hdr), f) && fgets(val, sizeof(val), f)) {
		if (strncmp(hdr, proto, plen) || hdr[plen] != ':')
			continue;
		h = strtok_r(hdr + plen + 1, " \n", &hs);
		v = strtok_r(val + plen + 1, " \n", &vs);
		while (h && v) {
			if (!strcmp(h, name))
				ret = strtoull(v, NULL, 10);
			h = strtok_r(NULL, " \n", &hs);
			v = strtok_r(NULL, " \n", &vs);
		}
	}
	fclose(f);
	return ret;
}

/* Packets through every interface but lo (/proc/net/dev). */
static void link_packets(uint64_t *txp, uint64_t *rxp)
{
	char line[512], name[64];
	unsigned long long v[16];
	FILE *f = fopen("/proc/net/dev", "r");

	*txp = *rxp = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = ' ';
		if (sscanf(line, "%63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9]) != 11 || !strcmp(name, "lo"))
			continue;
		*rxp += v[1];
		*txp += v[9];
	}
	fclose(f);
}

/* Busy and idle time of the whole machine, in seconds. */
static void cpu_times(double *busy, double *idle)
{
	unsigned long long u, ni, sy, id, io, irq, sirq, st;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");

	*busy = *idle = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni,
		   &sy, &id, &io, &irq, &sirq, &st) == 8) {
		*busy = (double)(u + ni + sy + irq + sirq + st) / hz;
		*idle = (double)(id + io) / hz;
	}
	fclose(f);
}

void counters(enum proto p, double *c)
{
	uint64_t t, r;

	memset(c, 0, NCTR * sizeof(*c));
	switch (p) {
	case P_WIND:
		c[C_OUT] = kv_get("/proc/net/wind_stat", "OutPackets");
		c[C_IN] = kv_get("/proc/net/wind_stat", "InPackets");
		c[C_OUTACK] = kv_get("/proc/net/wind_stat", "OutAcks");
		c[C_INACK] = kv_get("/proc/net/wind_stat", "InAcks");
		c[C_RETRANS] = kv_get("/proc/net/wind_stat", "OutRetransmits");
		c[C_RCVERR] = kv_get("/proc/net/wind_stat", "InErrRcvbuf");
		c[C_RTO] = kv_get("/proc/net/wind_stat", "OutTimeouts");
		break;
	case P_UDP:
		if (opt.wire6) {
			c[C_OUT] = kv_get("/proc/net/snmp6", "Udp6OutDatagrams");
			c[C_IN] = kv_get("/proc/net/snmp6", "Udp6InDatagrams");
			c[C_RCVERR] = kv_get("/proc/net/snmp6", "Udp6RcvbufErrors");
			c[C_SNDERR] = kv_get("/proc/net/snmp6", "Udp6SndbufErrors");
			break;
		}
		c[C_OUT] = snmp_get("Udp", "OutDatagrams");
		c[C_IN] = snmp_get("Udp", "InDatagrams");
		c[C_RCVERR] = snmp_get("Udp", "RcvbufErrors");
		c[C_SNDERR] = snmp_get("Udp", "SndbufErrors");
		break;
	case P_TCP:
		c[C_OUT] = snmp_get("Tcp", "OutSegs");
		c[C_IN] = snmp_get("Tcp", "InSegs");
		c[C_RETRANS] = snmp_get("Tcp", "RetransSegs");
		c[C_RTO] = snmp_file_get("/proc/net/netstat", "TcpExt",
					 "TCPTimeouts");
		break;
	default:
		kp_counters(proto_names[p], &c[C_OUT], &c[C_IN], &c[C_RETRANS]);
		break;
	}
	c[C_IPFRAG] = opt.wire6 ? kv_get("/proc/net/snmp6", "Ip6FragCreates") :
				  snmp_get("Ip", "FragCreates");
	link_packets(&t, &r);
	c[C_LINKTX] = t;
	c[C_LINKRX] = r;
	cpu_times(&c[C_CPU], &c[C_IDLE]);
}

/* ---- results ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}


void add_sample(struct samples *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("out of memory");
	}
	s->v[s->n++] = x;
}


/* Counters around one repetition: only its own traffic is counted. */
void rep_begin(struct ctx *c, double *c0)
{
	counters(c->proto, c0);
}

void rep_end(struct ctx *c, struct row *r, const double *c0)
{
	double c1[NCTR];

	counters(c->proto, c1);
	for (int i = 0; i < NCTR; i++)
		r->cd[i] += c1[i] - c0[i];
}

void print_row(struct ctx *c, struct row *r, bool goodput, bool first)
{
	double v[64], med, lo, hi, ops = r->ops ? r->ops : 1;
	double d[NCTR];
	const char *unit = !strcmp(opt.test, "msgs") ? "msg/s" :
			   goodput ? "Mbit/s" : "us";

	for (int i = 0; i < NCTR; i++)
		d[i] = r->cd[i] / ops;
	memcpy(v, r->rep, r->reps * sizeof(*v));
	med = median(v, r->reps);
	lo = v[0];
	hi = v[r->reps - 1];
	if (!opt.json) {
		printf("%-4s %-5s %6d", proto_names[c->proto], opt.test,
		       r->size);
		if (r->reply)
			printf("/%d", r->reply);
		if (r->kind == ROW_READ)
			printf(" B %s", r->land ? "landed" : "recvmsg");
		if (r->npeers > 1)
			printf(" B, %d peers", r->npeers);
		printf(" B: %9.1f %s (min %.1f max %.1f) pkts/op out %.2f "
		       "in %.2f, acks out %.2f in %.2f, rtx %.3f, cpu %.1f us/op",
		       med, unit, lo, hi, d[C_OUT], d[C_IN], d[C_OUTACK],
		       d[C_INACK], d[C_RETRANS], d[C_CPU] * 1e6);
		if (goodput)
			printf(" sent %" PRIu64 " rcvd %" PRIu64 " (loss %.2f%%)",
			       r->sent, r->rcvd,
			       r->sent ? 100.0 * (r->sent - r->rcvd) / r->sent : 0);
		if (r->timeouts)
			printf(" timeouts %" PRIu64, r->timeouts);
		if (r->srv_cpu)
			printf(" server cpu %.2f us/op (user %.2f sys %.2f), "
			       "wake-ups %.0f", r->srv_cpu_us / ops,
			       r->srv_user_us / ops, r->srv_sys_us / ops,
			       r->srv_wakeups);
		printf("\n");
		fflush(stdout);
		return;
	}
	printf("%s{\"size\": %d, \"reply\": %d, \"peers\": %d, \"reps\": %d, "
	       "\"unit\": \"%s\", \"median\": %.3f, \"min\": %.3f, \"max\": %.3f, "
	       "\"rep_values\": [",
	       first ? "" : ", ", r->size, r->reply, r->npeers, r->reps, unit,
	       med, lo, hi);
	for (int i = 0; i < r->reps; i++)
		printf("%s%.3f", i ? ", " : "", r->rep[i]);
	printf("], \"ops\": %.0f, \"secs\": %.4f, \"best_us\": %.3f, "
	       "\"pkts_out\": %.4f, \"pkts_in\": %.4f, \"acks_out\": %.4f, "
	       "\"acks_in\": %.4f, \"retrans\": %.4f, \"link_tx\": %.4f, "
	       "\"link_rx\": %.4f, \"ip_frags\": %.4f, \"rcvbuf_errors\": %.4f, "
	       "\"sndbuf_errors\": %.4f, \"cpu_us\": %.3f, \"cpu_busy_pct\": %.1f",
	       r->ops, r->secs, r->best > 1e29 ? 0 : r->best, d[C_OUT],
	       d[C_IN], d[C_OUTACK], d[C_INACK], d[C_RETRANS], d[C_LINKTX],
	       d[C_LINKRX], d[C_IPFRAG], d[C_RCVERR], d[C_SNDERR],
	       d[C_CPU] * 1e6,
	       100.0 * r->cd[C_CPU] / (r->cd[C_CPU] + r->cd[C_IDLE] + 1e-9));
	if (goodput)
		printf(", \"sent\": %" PRIu64 ", \"rcvd\": %" PRIu64
		       ", \"bytes_sent\": %" PRIu64 ", \"bytes_rcvd\": %" PRIu64
		       ", \"loss_pct\": %.3f",
		       r->sent, r->rcvd, r->bytes_sent, r->bytes_rcvd,
		       r->sent ? 100.0 * (r->sent - r->rcvd) / r->sent : 0);
	if (r->all.n) {
		double sum = 0;

		for (int i = 0; i < r->all.n; i++)
			sum += r->all.v[i];
		qsort(r->all.v, r->all.n, sizeof(*r->all.v), cmp_double);
		printf(", \"mean_us\": %.3f, \"p99_us\": %.3f",
		       sum / r->all.n, r->all.v[(r->all.n - 1) * 99 / 100]);
	}
	if (r->kind == ROW_INCAST)
		printf(", \"senders\": %d, \"rcv_retrans\": %.0f, \"rcv_rto\": %.0f"
		       ", \"snd_retrans\": %.0f, \"snd_rto\": %.0f, "
		       "\"snd_pkts_out\": %.0f",
		       r->npeers, r->cd[C_RETRANS], r->cd[C_RTO],
		       r->scd[C_RETRANS], r->scd[C_RTO], r->scd[C_OUT]);
	if (r->kind == ROW_HOL)
		printf(", \"load\": %d, \"bulk_mbps\": %.3f, \"retrans_total\": %.0f"
		       ", \"rto\": %.0f",
		       r->load, r->bulk_secs ? r->bulk_bytes * 8 / r->bulk_secs / 1e6 : 0,
		       r->cd[C_RETRANS], r->cd[C_RTO]);
	if (r->kind == ROW_READ)
		printf(", \"variant\": \"%s\"", r->land ? "landed" : "recvmsg");
	if (r->srv_cpu)
		printf(", \"srv_user_us\": %.3f, \"srv_sys_us\": %.3f, "
		       "\"srv_cpu_us\": %.3f, \"srv_wakeups\": %.0f, "
		       "\"srv_nivcsw\": %.0f",
		       r->srv_user_us / ops, r->srv_sys_us / ops,
		       r->srv_cpu_us / ops, r->srv_wakeups, r->srv_nivcsw);
	printf(", \"timeouts\": %" PRIu64 "}", r->timeouts);
}
