// SPDX-License-Identifier: GPL-2.0
/*
 * The subcommands of windctl: parse their arguments, ask nl.c, print.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "windctl.h"

/* The names of /proc/net/wind_stat, in its order */
static const struct {
	int attr;
	const char *name;
} stat_names[] = {
	{ WIND_A_STATS_IN_PACKETS,		"InPackets" },
	{ WIND_A_STATS_IN_MESSAGES,		"InMessages" },
	{ WIND_A_STATS_IN_ACKS,			"InAcks" },
	{ WIND_A_STATS_IN_DUPLICATES,		"InDuplicates" },
	{ WIND_A_STATS_IN_ERR_SHORT,		"InErrShort" },
	{ WIND_A_STATS_IN_ERR_LENGTH,		"InErrLength" },
	{ WIND_A_STATS_IN_ERR_CHECKSUM,		"InErrChecksum" },
	{ WIND_A_STATS_IN_ERR_HEADER,		"InErrHeader" },
	{ WIND_A_STATS_IN_ERR_NOPORT,		"InErrNoPort" },
	{ WIND_A_STATS_IN_ERR_RCVBUF,		"InErrRcvbuf" },
	{ WIND_A_STATS_IN_ERR_WINDOW,		"InErrWindow" },
	{ WIND_A_STATS_IN_ERR_TAG,		"InErrTag" },
	{ WIND_A_STATS_IN_REFUSED,		"InRefused" },
	{ WIND_A_STATS_IN_DSM_WRITES,		"InDsmWrites" },
	{ WIND_A_STATS_IN_DSM_BYTES,		"InDsmBytes" },
	{ WIND_A_STATS_OUT_PACKETS,		"OutPackets" },
	{ WIND_A_STATS_OUT_MESSAGES,		"OutMessages" },
	{ WIND_A_STATS_OUT_ACKS,		"OutAcks" },
	{ WIND_A_STATS_OUT_RETRANSMITS,		"OutRetransmits" },
	{ WIND_A_STATS_OUT_ERRORS,		"OutErrors" },
	{ WIND_A_STATS_PEERS_CREATED,		"PeersCreated" },
	{ WIND_A_STATS_PEERS_FREED,		"PeersFreed" },
	{ WIND_A_STATS_PEERS_UNREACHABLE,	"PeersUnreachable" },
	{ WIND_A_STATS_PEERS_RESET,		"PeersReset" },
	{ WIND_A_STATS_OUT_PROBES,		"OutProbes" },
	{ WIND_A_STATS_OUT_CWND_CUTS,		"OutCwndCuts" },
	{ WIND_A_STATS_OUT_GSO_PACKETS,		"OutGsoPackets" },
	{ WIND_A_STATS_IN_GSO_PACKETS,		"InGsoPackets" },
	{ WIND_A_STATS_OUT_CHALLENGES,		"OutChallenges" },
	{ WIND_A_STATS_IN_NO_STATE,		"InNoState" },
	{ WIND_A_STATS_IN_FILTERED,		"InFiltered" },
	{ WIND_A_STATS_IN_GRO_PACKETS,		"InGroPackets" },
	{ WIND_A_STATS_OUT_BUNDLES,		"OutBundles" },
	{ WIND_A_STATS_OUT_BUNDLED,		"OutBundled" },
	{ WIND_A_STATS_IN_BUNDLES,		"InBundles" },
	{ WIND_A_STATS_IN_BUNDLED,		"InBundled" },
	{ WIND_A_STATS_IN_ERR_BUNDLE,		"InErrBundle" },
	{ WIND_A_STATS_OUT_TIMEOUTS,		"OutTimeouts" },
	{ WIND_A_STATS_IN_ERR_BACKLOG,		"InErrBacklog" },
	{ WIND_A_STATS_OUT_WIN_PROBES,		"OutWinProbes" },
	{ WIND_A_STATS_IN_ERR_ACK,		"InErrAck" },
	{ WIND_A_STATS_OUT_DUPACKS_LIMITED,	"OutDupAcksLimited" },
	{ WIND_A_STATS_IN_DSM_UNVERIFIED,	"InDsmUnverified" },
	{ WIND_A_STATS_IN_DSM_LIMITED,		"InDsmLimited" },
	{ WIND_A_STATS_PEERS_EVICTED,		"PeersEvicted" },
	{ WIND_A_STATS_IN_RMA_READS,		"InRmaReads" },
	{ WIND_A_STATS_IN_RMA_ATOMICS,		"InRmaAtomics" },
	{ WIND_A_STATS_IN_RMA_COMPLETIONS,	"InRmaCompletions" },
};

/* The tunables, named as their sysctls net.wind.NAME */
static const char *const param_names[WIND_A_PARAMS_MAX + 1] = {
	[WIND_A_PARAMS_RTO_MIN_MS]	= "rto_min_ms",
	[WIND_A_PARAMS_RTO_MAX_MS]	= "rto_max_ms",
	[WIND_A_PARAMS_RETRIES]		= "retries",
	[WIND_A_PARAMS_WINDOW]		= "window",
	[WIND_A_PARAMS_DELACK_MS]	= "delack_ms",
	[WIND_A_PARAMS_PEER_IDLE_S]	= "peer_idle_s",
	[WIND_A_PARAMS_UNVERIFIED_MAX]	= "unverified_max",
	[WIND_A_PARAMS_DUPACK_MS]	= "dupack_ms",
	[WIND_A_PARAMS_PEERS_PER_ADDR_MAX] = "peers_per_addr_max",
	[WIND_A_PARAMS_PEERS_MAX]	= "peers_max",
	[WIND_A_PARAMS_NAGLE_US]	= "nagle_us",
};

static const char *const peer_status_names[] = {
	[WIND_PEER_STATUS_IDLE]		= "idle",
	[WIND_PEER_STATUS_ACTIVE]	= "active",
	[WIND_PEER_STATUS_RETRYING]	= "retrying",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int report(struct wc_nl *nl, const char *what, int err,
		  const char *const *attr_names, size_t nnames)
{
	const struct wc_nl_error *e = wc_nl_last_error(nl);

	fprintf(stderr, "windctl: %s: %s", what, strerror(-err));
	if (e->err == err && e->msg[0])
		fprintf(stderr, ": %s", e->msg);
	if (e->err == err && e->bad_attr > 0 && (size_t)e->bad_attr < nnames &&
	    attr_names && attr_names[e->bad_attr]) {
		fprintf(stderr, " (%s", attr_names[e->bad_attr]);
		if (e->has_range)
			fprintf(stderr, ": %" PRId64 "..%" PRId64, e->min, e->max);
		fputc(')', stderr);
	}
	if (err == -EPERM)
		fputs(" (changing Wind's tunables needs CAP_NET_ADMIN)", stderr);
	fputc('\n', stderr);
	return 1;
}

int wc_fail(struct wc_nl *nl, const char *what, int err)
{
	return report(nl, what, err, NULL, 0);
}

/* Room for any address, and for one in brackets with ":65535" */
#define ADDR_LEN	INET6_ADDRSTRLEN
#define ADDR_PORT_LEN	(INET6_ADDRSTRLEN + 8)

/* An address as text: dotted quad, or IPv6 (none sent: 0.0.0.0) */
static const char *ip(const struct wc_addr *a, char *buf)
{
	if (a->family == AF_INET6)
		return inet_ntop(AF_INET6, &a->v6, buf, ADDR_LEN);
	if (a->family == AF_INET)
		return inet_ntop(AF_INET, &a->v4, buf, ADDR_LEN);
	return strcpy(buf, "0.0.0.0");
}

/* "10.0.0.1:7000", or "[fd00::1]:7000" for an IPv6 address */
static const char *ip_port(const struct wc_addr *a, unsigned int port,
			   char *buf)
{
	char s[ADDR_LEN];

	ip(a, s);
	snprintf(buf, ADDR_PORT_LEN, a->family == AF_INET6 ? "[%s]:%u" : "%s:%u",
		 s, port);
	return buf;
}

/* a as IPv6 (an IPv4 address v4-mapped), to compare the two families */
static struct in6_addr as_v6(const struct wc_addr *a)
{
	struct in6_addr m;

	if (a->family == AF_INET6)
		return a->v6;
	memset(&m, 0, sizeof(m));
	m.s6_addr[10] = 0xff;
	m.s6_addr[11] = 0xff;
	if (a->family == AF_INET)
		memcpy(&m.s6_addr[12], &a->v4, 4);
	return m;
}

/* Order: IPv4 (and none) first, by number, then IPv6, by bytes */
static int cmp_addr(const struct wc_addr *x, const struct wc_addr *y)
{
	bool x6 = x->family == AF_INET6, y6 = y->family == AF_INET6;

	if (x6 != y6)
		return x6 ? 1 : -1;
	if (x6)
		return memcmp(&x->v6, &y->v6, sizeof(x->v6));
	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	return ntohl(x->v4.s_addr) < ntohl(y->v4.s_addr) ? -1 :
	       ntohl(x->v4.s_addr) > ntohl(y->v4.s_addr);
}

/* The same host: 10.0.0.2 is ::ffff:10.0.0.2, as for a dual-stack socket */
static bool same_addr(const struct wc_addr *x, const struct wc_addr *y)
{
	struct in6_addr a = as_v6(x), b = as_v6(y);

	return !memcmp(&a, &b, sizeof(a));
}

/* "12.345ms" from microseconds */
static char *usecs(uint32_t us, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%03ums", us / 1000, us % 1000);
	return buf;
}

/* A port number 1..65535, strictly */
static int parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 65535 || *s == '-' ||
	    *s == '+') {
		fprintf(stderr, "windctl: \"%s\" is not a port (1..65535)\n", s);
		return -1;
	}
	*port = v;
	return 0;
}

/*
 * A peer: ADDR, ADDR:PORT, [ADDR6] or [ADDR6]:PORT; an IPv6 address may
 * stand without brackets when no port follows (fd00::2).  *port 0: any.
 */
static int parse_peer(const char *s, struct wc_addr *a, uint16_t *port)
{
	char buf[ADDR_PORT_LEN + 1];
	const char *p = NULL;
	char *host = buf, *end;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	*port = 0;
	if (buf[0] == '[') {
		end = strchr(buf, ']');
		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		*end = '\0';
		host = buf + 1;
		if (end[1])
			p = end + 2;
	} else if ((end = strchr(buf, ':')) && !strchr(end + 1, ':')) {
		*end = '\0';		/* one colon: IPv4 and a port */
		p = end + 1;
	}
	memset(a, 0, sizeof(*a));
	if (buf[0] != '[' && inet_pton(AF_INET, host, &a->v4) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, host, &a->v6) == 1)
		a->family = AF_INET6;
	else
		goto bad;
	if (p && parse_port(p, port))
		return -1;
	return 0;
bad:
	fprintf(stderr, "windctl: \"%s\" is not a peer (ADDR, ADDR:PORT, [ADDR6]:PORT)\n",
		s);
	return -1;
}

static int cmp_sock(const void *a, const void *b)
{
	const struct wc_sock *x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return cmp_addr(&x->addr, &y->addr);
}

static int cmp_peer(const void *a, const void *b)
{
	const struct wc_peer *x = a, *y = b;
	int c;

	if (x->sock_port != y->sock_port)
		return x->sock_port < y->sock_port ? -1 : 1;
	c = cmp_addr(&x->addr, &y->addr);
	if (c)
		return c;
	return x->port < y->port ? -1 : x->port > y->port;
}

static void show_json(const struct wc_sock *s, size_t n)
{
	char a[ADDR_LEN];
	size_t i;

	wc_json_begin_array(stdout);
	for (i = 0; i < n; i++) {
		wc_json_key(stdout, NULL);
		wc_json_begin_object(stdout);
		wc_json_uint(stdout, "port", s[i].port);
		wc_json_str(stdout, "addr", ip(&s[i].addr, a));
		if (s[i].has_peer) {
			wc_json_str(stdout, "peer_addr", ip(&s[i].peer_addr, a));
			wc_json_uint(stdout, "peer_port", s[i].peer_port);
		} else {
			wc_json_null(stdout, "peer_addr");
			wc_json_null(stdout, "peer_port");
		}
		wc_json_uint(stdout, "peers", s[i].peers);
		wc_json_uint(stdout, "rmem", s[i].rmem);
		wc_json_uint(stdout, "rmem_limit", s[i].rmem_limit);
		wc_json_uint(stdout, "wmem", s[i].wmem);
		wc_json_uint(stdout, "wmem_limit", s[i].wmem_limit);
		wc_json_uint(stdout, "drops", s[i].drops);
		wc_json_uint(stdout, "uid", s[i].uid);
		wc_json_uint(stdout, "inode", s[i].inode);
		/* the kernel shows tags only to CAP_NET_ADMIN; never 0 */
		if (s[i].incarnation)
			wc_json_uint(stdout, "incarnation", s[i].incarnation);
		wc_json_end_object(stdout);
	}
	wc_json_end_array(stdout);
	wc_json_end(stdout);
}

static void show_table(const struct wc_sock *s, size_t n)
{
	static const char *const hdr[] = {
		"LOCAL", "DEFAULT-PEER", "PEERS", "RECV-Q", "RCVBUF",
		"SEND-Q", "SNDBUF", "DROPS", "UID", "INODE",
	};
	static const enum wc_align al[] = {
		WC_LEFT, WC_LEFT, WC_RIGHT, WC_RIGHT, WC_RIGHT,
		WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT,
	};
	struct wc_table *t = wc_table_new(ARRAY_SIZE(hdr), hdr, al);
	char a[ADDR_PORT_LEN];
	size_t i;

	if (!t)
		return;
	for (i = 0; i < n; i++) {
		wc_table_cell(t, "%s", ip_port(&s[i].addr, s[i].port, a));
		if (s[i].has_peer)
			wc_table_cell(t, "%s", ip_port(&s[i].peer_addr,
						       s[i].peer_port, a));
		else
			wc_table_cell(t, "-");
		wc_table_cell(t, "%u", s[i].peers);
		wc_table_cell(t, "%u", s[i].rmem);
		wc_table_cell(t, "%u", s[i].rmem_limit);
		wc_table_cell(t, "%u", s[i].wmem);
		wc_table_cell(t, "%u", s[i].wmem_limit);
		wc_table_cell(t, "%u", s[i].drops);
		wc_table_cell(t, "%u", s[i].uid);
		wc_table_cell(t, "%" PRIu64, s[i].inode);
	}
	wc_table_print(t, stdout);
	wc_table_free(t);
}

static int cmd_show(struct wc_nl *nl, const struct wc_opts *o, int argc,
		    char **argv)
{
	struct wc_sock *s;
	size_t n;
	int err;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "windctl: show takes no arguments\n");
		return 2;
	}
	err = wc_nl_socks(nl, &s, &n);
	if (err)
		return wc_fail(nl, "show", err);
	qsort(s, n, sizeof(*s), cmp_sock);
	if (o->json)
		show_json(s, n);
	else
		show_table(s, n);
	free(s);
	return 0;
}

static const char *status_name(uint32_t status)
{
	if (status < ARRAY_SIZE(peer_status_names) && peer_status_names[status])
		return peer_status_names[status];
	return "unknown";
}

static void peers_json(const struct wc_peer *p, size_t n)
{
	char a[ADDR_LEN];
	size_t i;

	wc_json_begin_array(stdout);
	for (i = 0; i < n; i++) {
		wc_json_key(stdout, NULL);
		wc_json_begin_object(stdout);
		wc_json_uint(stdout, "sock_port", p[i].sock_port);
		wc_json_str(stdout, "local_addr", ip(&p[i].local_addr, a));
		wc_json_str(stdout, "addr", ip(&p[i].addr, a));
		wc_json_uint(stdout, "port", p[i].port);
		wc_json_str(stdout, "status", status_name(p[i].status));
		wc_json_uint(stdout, "in_flight", p[i].in_flight);
		wc_json_uint(stdout, "wq_packets", p[i].wq_packets);
		wc_json_uint(stdout, "rq_packets", p[i].rq_packets);
		wc_json_uint(stdout, "srtt_us", p[i].srtt_us);
		wc_json_uint(stdout, "rttvar_us", p[i].rttvar_us);
		wc_json_uint(stdout, "rto_us", p[i].rto_us);
		wc_json_uint(stdout, "retries", p[i].retries);
		wc_json_uint(stdout, "mss", p[i].mss);
		if (p[i].local_tag) {	/* CAP_NET_ADMIN only */
			wc_json_uint(stdout, "local_tag", p[i].local_tag);
			wc_json_uint(stdout, "remote_tag", p[i].remote_tag);
		}
		wc_json_uint(stdout, "last_active_ms", p[i].last_active_ms);
		wc_json_uint(stdout, "retransmits", p[i].retransmits);
		wc_json_uint(stdout, "duplicates", p[i].duplicates);
		wc_json_uint(stdout, "drops", p[i].drops);
		wc_json_uint(stdout, "tx_packets", p[i].tx_packets);
		wc_json_uint(stdout, "rx_packets", p[i].rx_packets);
		wc_json_uint(stdout, "tx_messages", p[i].tx_messages);
		wc_json_uint(stdout, "rx_messages", p[i].rx_messages);
		wc_json_end_object(stdout);
	}
	wc_json_end_array(stdout);
	wc_json_end(stdout);
}

static void peers_table(const struct wc_peer *p, size_t n)
{
	static const char *const hdr[] = {
		"PORT", "PEER", "STATUS", "INFLIGHT", "WQ", "RQ", "SRTT",
		"RTTVAR", "RTO", "RETRIES", "RETRANS", "DUPS", "DROPS",
		"TX-PKTS", "RX-PKTS", "TX-MSGS", "RX-MSGS", "IDLE",
	};
	static const enum wc_align al[] = {
		WC_RIGHT, WC_LEFT, WC_LEFT, WC_RIGHT, WC_RIGHT, WC_RIGHT,
		WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT,
		WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT, WC_RIGHT,
	};
	struct wc_table *t = wc_table_new(ARRAY_SIZE(hdr), hdr, al);
	char a[ADDR_PORT_LEN], b[32];
	size_t i;

	if (!t)
		return;
	for (i = 0; i < n; i++) {
		wc_table_cell(t, "%u", p[i].sock_port);
		wc_table_cell(t, "%s", ip_port(&p[i].addr, p[i].port, a));
		wc_table_cell(t, "%s", status_name(p[i].status));
		wc_table_cell(t, "%u", p[i].in_flight);
		wc_table_cell(t, "%u", p[i].wq_packets);
		wc_table_cell(t, "%u", p[i].rq_packets);
		wc_table_cell(t, "%s", usecs(p[i].srtt_us, b, sizeof(b)));
		wc_table_cell(t, "%s", usecs(p[i].rttvar_us, b, sizeof(b)));
		wc_table_cell(t, "%s", usecs(p[i].rto_us, b, sizeof(b)));
		wc_table_cell(t, "%u", p[i].retries);
		wc_table_cell(t, "%" PRIu64, p[i].retransmits);
		wc_table_cell(t, "%" PRIu64, p[i].duplicates);
		wc_table_cell(t, "%" PRIu64, p[i].drops);
		wc_table_cell(t, "%" PRIu64, p[i].tx_packets);
		wc_table_cell(t, "%" PRIu64, p[i].rx_packets);
		wc_table_cell(t, "%" PRIu64, p[i].tx_messages);
		wc_table_cell(t, "%" PRIu64, p[i].rx_messages);
		wc_table_cell(t, "%u.%03us", p[i].last_active_ms / 1000,
			      p[i].last_active_ms % 1000);
	}
	wc_table_print(t, stdout);
	wc_table_free(t);
}

static int cmd_peers(struct wc_nl *nl, const struct wc_opts *o, int argc,
		     char **argv)
{
	struct wc_addr peer;
	struct wc_peer *p;
	uint16_t port = 0, peer_port = 0;
	bool by_peer = false;
	size_t n, i, kept;
	int err, arg = 1;

	if (argc > 3) {
		fprintf(stderr, "windctl: peers takes at most a port and a peer\n");
		return 2;
	}
	/* a local port is all digits; a peer never is */
	if (arg < argc && argv[arg][strspn(argv[arg], "0123456789")] == '\0') {
		if (parse_port(argv[arg], &port))
			return 2;
		arg++;
	}
	if (arg < argc) {
		if (parse_peer(argv[arg], &peer, &peer_port))
			return 2;
		by_peer = true;
		arg++;
	}
	if (arg < argc) {
		fprintf(stderr, "windctl: peers: \"%s\" unexpected (PORT first, then the peer)\n",
			argv[arg]);
		return 2;
	}
	err = wc_nl_peers(nl, port, &p, &n);
	if (err)
		return wc_fail(nl, "peers", err);
	for (i = kept = 0; i < n && by_peer; i++)
		if (same_addr(&p[i].addr, &peer) &&
		    (!peer_port || p[i].port == peer_port))
			p[kept++] = p[i];
	if (by_peer)
		n = kept;
	qsort(p, n, sizeof(*p), cmp_peer);
	if (o->json)
		peers_json(p, n);
	else
		peers_table(p, n);
	free(p);
	return 0;
}

static int cmd_stats(struct wc_nl *nl, const struct wc_opts *o, int argc,
		     char **argv)
{
	static const char *const hdr[] = { "COUNTER", "VALUE" };
	static const enum wc_align al[] = { WC_LEFT, WC_RIGHT };
	struct wc_stats s;
	struct wc_table *t = NULL;
	size_t i;
	int err;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "windctl: stats takes no arguments\n");
		return 2;
	}
	err = wc_nl_stats(nl, &s);
	if (err)
		return wc_fail(nl, "stats", err);
	if (o->json)
		wc_json_begin_object(stdout);
	else
		t = wc_table_new(2, hdr, al);
	for (i = 0; i < ARRAY_SIZE(stat_names); i++) {
		int attr = stat_names[i].attr;

		if (!s.present[attr])
			continue;
		if (o->json)
			wc_json_uint(stdout, stat_names[i].name, s.value[attr]);
		else if (t) {
			wc_table_cell(t, "%s", stat_names[i].name);
			wc_table_cell(t, "%" PRIu64, s.value[attr]);
		}
	}
	if (o->json) {
		wc_json_end_object(stdout);
		wc_json_end(stdout);
	} else if (t) {
		wc_table_print(t, stdout);
		wc_table_free(t);
	}
	return 0;
}

static int cmd_get(struct wc_nl *nl, const struct wc_opts *o, int argc,
		   char **argv)
{
	static const char *const hdr[] = { "TUNABLE", "VALUE" };
	static const enum wc_align al[] = { WC_LEFT, WC_RIGHT };
	struct wc_table *t = NULL;
	struct wc_params p;
	int i, err;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "windctl: get takes no arguments\n");
		return 2;
	}
	err = wc_nl_params_get(nl, &p);
	if (err)
		return wc_fail(nl, "get", err);
	if (o->json)
		wc_json_begin_object(stdout);
	else
		t = wc_table_new(2, hdr, al);
	for (i = 1; i <= WIND_A_PARAMS_MAX; i++) {
		if (!p.present[i] || !param_names[i])
			continue;
		if (o->json)
			wc_json_uint(stdout, param_names[i], p.value[i]);
		else if (t) {
			wc_table_cell(t, "%s", param_names[i]);
			wc_table_cell(t, "%u", p.value[i]);
		}
	}
	if (o->json) {
		wc_json_end_object(stdout);
		wc_json_end(stdout);
	} else if (t) {
		wc_table_print(t, stdout);
		wc_table_free(t);
	}
	return 0;
}

/* rto_min_ms, rto-min-ms and net.wind.rto_min_ms all name one tunable */
static int param_lookup(const char *name)
{
	char buf[64];
	size_t i;
	int a;

	if (!strncmp(name, "net.wind.", 9))
		name += 9;
	snprintf(buf, sizeof(buf), "%s", name);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '-')
			buf[i] = '_';
	for (a = 1; a <= WIND_A_PARAMS_MAX; a++)
		if (param_names[a] && !strcmp(buf, param_names[a]))
			return a;
	return -1;
}

static int cmd_set(struct wc_nl *nl, const struct wc_opts *o, int argc,
		   char **argv)
{
	struct wc_params p = { 0 };
	int i, a, err;

	(void)o;
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "windctl: usage: windctl set NAME VALUE [NAME VALUE]...\n");
		return 2;
	}
	for (i = 1; i < argc; i += 2) {
		const char *v = argv[i + 1];
		unsigned long long val;
		char *end;

		a = param_lookup(argv[i]);
		if (a < 0) {
			fprintf(stderr, "windctl: unknown tunable \"%s\" (known:", argv[i]);
			for (a = 1; a <= WIND_A_PARAMS_MAX; a++)
				if (param_names[a])
					fprintf(stderr, " %s", param_names[a]);
			fputs(")\n", stderr);
			return 2;
		}
		if (p.present[a]) {
			fprintf(stderr, "windctl: %s given twice\n", param_names[a]);
			return 2;
		}
		errno = 0;
		val = strtoull(v, &end, 10);
		if (errno || end == v || *end || *v == '-' || *v == '+' ||
		    val > UINT32_MAX) {
			fprintf(stderr, "windctl: %s: \"%s\" is not a number\n",
				param_names[a], v);
			return 2;
		}
		p.present[a] = true;
		p.value[a] = val;
	}
	err = wc_nl_params_set(nl, &p);
	if (err)
		return report(nl, "set", err, param_names, ARRAY_SIZE(param_names));
	return 0;
}

static const char *const event_names[] = {
	[WIND_PEER_EVENT_UP]		= "up",
	[WIND_PEER_EVENT_RESTART]	= "restart",
	[WIND_PEER_EVENT_FAILED]	= "failed",
	[WIND_PEER_EVENT_FREED]		= "freed",
	[WIND_PEER_EVENT_DSM_REFUSED]	= "dsm-refused",
};

/* One event, one line: a table row's worth, or a JSON object */
static int print_event(const struct wc_event *ev, void *arg)
{
	const struct wc_opts *o = arg;
	const char *name = ev->event < ARRAY_SIZE(event_names) &&
			   event_names[ev->event] ? event_names[ev->event] : NULL;
	const char *ename = ev->error ? strerrorname_np(ev->error) : NULL;
	char a[ADDR_LEN], l[ADDR_LEN], ap[ADDR_PORT_LEN], num[16];

	if (!name) {
		snprintf(num, sizeof(num), "%u", ev->event);
		name = num;
	}
	ip(&ev->addr, a);
	ip(&ev->local_addr, l);
	if (o->json) {
		wc_json_begin_object(stdout);
		wc_json_str(stdout, "event", name);
		wc_json_uint(stdout, "sock_port", ev->sock_port);
		wc_json_str(stdout, "local_addr", l);
		wc_json_str(stdout, "addr", a);
		wc_json_uint(stdout, "port", ev->port);
		wc_json_uint(stdout, "error", ev->error);
		if (ename)
			wc_json_str(stdout, "error_name", ename);
		else
			wc_json_null(stdout, "error_name");
		wc_json_end_object(stdout);
		wc_json_end(stdout);
	} else {
		printf("%-11s sock %u peer %s local %s", name, ev->sock_port,
		       ip_port(&ev->addr, ev->port, ap), l);
		if (ev->error)
			printf(" error %s (%s)", ename ? ename : "?",
			       strerror(ev->error));
		printf("\n");
	}
	/* a pipe sees each event as it comes */
	if (fflush(stdout))
		return -errno;
	return 0;
}

static int cmd_monitor(struct wc_nl *nl, const struct wc_opts *o, int argc,
		       char **argv)
{
	int err;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "peers"))) {
		fprintf(stderr, "windctl: monitor takes only \"peers\"\n");
		return 2;
	}
	err = wc_nl_monitor(nl, print_event, (void *)o);
	return wc_fail(nl, "monitor", err);
}

const struct wc_command wc_commands[] = {
	{ "show", "", "list the bound Wind sockets", cmd_show },
	{ "peers", "[PORT] [PEER]", "per-peer state, of one local port or all", cmd_peers },
	{ "stats", "", "the namespace's counters (/proc/net/wind_stat)", cmd_stats },
	{ "get", "", "the tunables (net.wind.*)", cmd_get },
	{ "set", "NAME VALUE [NAME VALUE]...", "set tunables, all or none", cmd_set },
	{ "monitor", "[peers]", "print peer events as they happen", cmd_monitor },
	{ NULL, NULL, NULL, NULL },
};
