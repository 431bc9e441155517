// SPDX-License-Identifier: GPL-2.0
/*
 * windperf: Wind beside UDP and TCP, in the style of netperf/iperf3.
 *
 *   windperf -s [-6] -p PROTO [-P PORT] [-n N] [-b BYTES] [-A ADDR]
 *   windperf -c HOST [-6] -p PROTO[,PROTO...] -t TEST [-P PORT] [-n N]
 *            [-r REPS] [-d SECS] [-m SIZES] [-q BYTES] [-b BYTES] [-T MS]
 *            [-W SECS] [-j] [-S SENDERS -E NETNS-PREFIX] [-N]
 *
 * PROTO is wind, udp or tcp; one code path serves all three: a message is
 * one sendto()/recvfrom() for Wind and UDP, and a 4-byte length prefix plus
 * the payload for TCP (TCP_NODELAY, received through a buffer).  Every
 * message starts with a 16-byte struct wp_hdr telling the server what to do.
 * The kernel's own message transports take the datagram path too, with
 * what is their own in kpeers.c: sctp (one-to-many SOCK_SEQPACKET,
 * SCTP_NODELAY), tipc (SOCK_RDM to the service {0x57504600, port}: HOST
 * is not used, the name table finds the server) and rds (over TCP; a
 * server binds -A ADDR, by default its first IPv4 address).  They run the
 * tests rtt, bulk, rr, peers and msgs.  -N: Nagle on for TCP and SCTP
 * (the way to send a stream of small one-way messages).
 *
 * IPv4 or IPv6, for the three alike.  HOST is a numeric address of either
 * family (an IPv6 link-local one with its %scope); an IPv6 address makes
 * the client's sockets AF_INET6, as -6 does, and with -6 an IPv4 address
 * is reached as a v4-mapped one (::ffff:a.b.c.d) from a dual-stack
 * AF_INET6 socket.  A server with -6 binds AF_INET6 sockets to [::] with
 * IPV6_V6ONLY: it serves IPv6 only, beside an IPv4 server of the same
 * protocol and port.  Counters over IPv6: UDP's and the fragments from
 * /proc/net/snmp6 (TCP's and Wind's count both families).
 *
 * Tests (-t):
 *   rtt    ping-pong, -m sizes (default 16,32,128,1024): time per exchange
 *   sync   Wind only: sendmsg(MSG_WIND_SYNC) of -m bytes (default 32) to a
 *          sink: time per send (it returns when the peer's kernel acked)
 *   bulk   one-way messages of -m sizes (default 1024,8192,65536) for -d
 *          seconds, then the server says what it received: goodput is the
 *          bytes the receiver got over the time until it said so
 *   rr     request -q bytes (default 64), reply -m bytes (default 8192):
 *          a DSM page fetch
 *   read   Wind only: one-sided reads of -m bytes (default 8192) of a
 *          1 MiB region of the server's (OP_REGION: registered when first
 *          asked for, its key from getrandom), at offsets going round it,
 *          each waited for, which the server's kernel serves in softirq:
 *          two rows a size, landed in the client's own region
 *          (WIND_RMA_F_LAND) and into recvmsg() (see read_one())
 *   peers  ping-pong of -m bytes (default 32), round robin over -n server
 *          ports (one client socket; TCP needs one connection per peer);
 *          -k 2,256: one row per peer count, round robin over the first k
 *          of the -n, the rows' repetitions alternating too
 *   mem    Wind only: one socket talks once to each of -n ports, then the
 *          kernel's slab use per peer (see mem_test())
 *   msgs   small one-way messages (-m, default 64 B) from -S senders
 *          (default 1; processes, a socket or connection each) to the one
 *          server port for -d seconds: messages per second the server
 *          received, counted until it said so (Wind's senders close, which
 *          waits for the ACKs, first); -M: Wind sends each batch of 16
 *          with MSG_MORE on all but the last (bundling, wind(7))
 *   incast -S senders, one per netns -E PREFIX1..n, stream -m byte
 *          messages (default 65536) to HOST at once; rows per -k count
 *          (default 1,n): aggregate goodput (see incast_client())
 *   hol    ping-pong of -m bytes (default 32) alone and beside a stream of
 *          -q byte messages (default 65536) on the same socket (see
 *          hol_client())
 *
 * Each test runs -r repetitions of -d seconds; with several protocols
 * (-p wind,udp,tcp: one server each, on the same port number) their
 * repetitions alternate, so that they share alike whatever else the
 * machine does.  -j prints one JSON line per protocol.  Latencies: per
 * repetition the median exchange; reported is the median of those with
 * their min and max, and in JSON the mean and the 99th percentile of
 * every exchange of every repetition (mean_us, p99_us).  Goodput: per repetition; median, min, max.  Per
 * operation, the client-side counter deltas over the repetitions (each
 * counted around its own repetition only): /proc/net/wind_stat
 * (Wind), /proc/net/snmp (UDP, TCP), /proc/net/dev (packets on the links,
 * all protocols), and the busy CPU time of the whole machine (/proc/stat).
 * rr (Wind, UDP, TCP) and read add the server process's CPU per
 * operation, out of its getrusage() and CLOCK_PROCESS_CPUTIME_ID before
 * and after each repetition (OP_RUSAGE; srv_user_us, srv_sys_us,
 * srv_cpu_us), and how often it woke over the repetitions, those two
 * exchanges' own wake-ups left out (srv_wakeups: voluntary context
 * switches, a total; see struct wp_info).
 *
 * UDP loses messages: a UDP request waits -T ms (default 20) for its reply,
 * then sends the request again (counted as a timeout); replies to old
 * requests are discarded.  Wind and TCP never time out.
 */
#define _GNU_SOURCE
#include "windperf.h"

struct wp_opt opt = { .family = AF_INET,  .reps = 5, .secs = 1.0, .udp_timeout_ms = 20,
	    .senders = 1 };

static int parse_sizes(const char *s)
{
	char *dup = strdup(s), *tok, *save;

	opt.nsizes = 0;
	for (tok = strtok_r(dup, ",", &save); tok && opt.nsizes < 16;
	     tok = strtok_r(NULL, ",", &save))
		opt.sizes[opt.nsizes++] = atoi(tok);
	free(dup);
	return opt.nsizes;
}

static void set_default_sizes(void)
{
	static const struct {
		const char *test, *sizes;
	} d[] = {
		{ "rtt", "16,32,128,1024" }, { "sync", "32" },
		{ "bulk", "1024,8192,65536" }, { "rr", "8192" },
		{ "peers", "32" }, { "mem", "32" }, { "msgs", "64" },
		{ "incast", "65536" }, { "hol", "32" }, { "read", "8192" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (!strcmp(opt.test, d[i].test)) {
			if (!opt.nsizes)
				parse_sizes(d[i].sizes);
			return;
		}
	die("unknown test %s (rtt, sync, bulk, rr, read, peers, mem, msgs, incast, hol)",
	    opt.test);
}

/*
 * The server's address (port 0) out of a numeric HOST of either family.
 * An IPv6 one sets opt.family to AF_INET6; with -6 an IPv4 one becomes
 * v4-mapped.  opt.wire6: what goes on the wire is IPv6.
 */
void parse_host(const char *host, struct sockaddr_storage *ss)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC, .ai_flags = AI_NUMERICHOST,
	}, *ai;

	if (getaddrinfo(host, NULL, &hints, &ai) || !ai)
		die("bad address %s (numeric IPv4 or IPv6)", host);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (ss->ss_family == AF_INET6) {
		opt.family = AF_INET6;
		opt.wire6 = true;
	} else if (opt.family == AF_INET6) {
		struct sockaddr_in sin;
		struct sockaddr_in6 *sin6 = (void *)ss;

		memcpy(&sin, ss, sizeof(sin));
		memset(ss, 0, sizeof(*ss));
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr.s6_addr[10] = 0xff;
		sin6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&sin6->sin6_addr.s6_addr[12], &sin.sin_addr, 4);
	}
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
}

void client_open(struct ctx *c, enum proto p,
		 const struct sockaddr_storage *server, int port, int n)
{
	c->proto = p;
	c->n = n;
	c->fd = xcalloc(n, sizeof(int));
	c->addr = xcalloc(n, sizeof(*c->addr));
	c->buf = xcalloc(1, WP_MAXMSG);
	for (int i = 0; i < n; i++) {
		c->addr[i] = *server;
		if (p == P_TIPC)
			kp_tipc_addr(&c->addr[i], port + i);
		else
			set_port(&c->addr[i], port + i);
	}
	if (p == P_TCP) {
		c->rb = xcalloc(n, sizeof(*c->rb));
		for (int i = 0; i < n; i++) {
			c->fd[i] = open_socket(p);
			if (connect(c->fd[i], (void *)&c->addr[i],
				    sa_len(&c->addr[i])))
				die("connect to port %d:", port + i);
			rb_init(&c->rb[i]);
		}
		return;
	}
	c->fd[0] = open_socket(p);
	if (kpeer(p))
		kp_client_bind(c->fd[0], proto_names[p], server);
	if (p == P_TIPC) {
		/* an overloaded TIPC receiver returns what it cannot queue,
		 * and a reply can come back to the server as well, which
		 * then has nothing to send again: a request unanswered for
		 * a second is asked again (counted as a timeout)
		 */
		struct timeval tv = { 1, 0 };

		if (setsockopt(c->fd[0], SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)))
			die("SO_RCVTIMEO:");
	}
	if (p == P_UDP) {
		struct timeval tv = {
			opt.udp_timeout_ms / 1000,
			opt.udp_timeout_ms % 1000 * 1000,
		};

		if (setsockopt(c->fd[0], SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)))
			die("SO_RCVTIMEO:");
	}
}

static int client(const enum proto *protos, int np, const char *host,
		  int port, int n)
{
	static struct row rows[NPROTO][16];
	struct ctx c[NPROTO];
	struct sockaddr_storage server;
	bool goodput, mem, msgs, rdt;
	int nv;

	set_default_sizes();
	seq_init();
	for (int k = 0; k < np; k++)
		if (kpeer(protos[k]) && (!strcmp(opt.test, "incast") ||
					 !strcmp(opt.test, "hol")))
			die("-t %s: wind, udp, tcp only", opt.test);
	if (!strcmp(opt.test, "incast"))
		return incast_client(protos, np, host, port);
	if (!strcmp(opt.test, "hol"))
		return hol_client(protos, np, host, port);
	parse_host(host, &server);
	msgs = !strcmp(opt.test, "msgs");
	goodput = !strcmp(opt.test, "bulk") || msgs;
	mem = !strcmp(opt.test, "mem");
	rdt = !strcmp(opt.test, "read");
	if (rdt && np != 1)
		die("-t read: -p wind alone");
	for (int k = 0; k < np; k++) {
		if ((!strcmp(opt.test, "sync") || mem || rdt) &&
		    protos[k] != P_WIND)
			die("-t %s is for Wind only", opt.test);
		if (protos[k] == P_RDS && server.ss_family != AF_INET)
			die("-p rds: an IPv4 server address");
		client_open(&c[k], protos[k], &server, port, n);
	}
	if (mem) {
		if (opt.json)
			printf("{\"proto\": \"wind\", \"test\": \"mem\", "
			       "\"peers\": %d, \"rows\": [", n);
		mem_test(&c[0]);
		if (opt.json)
			printf("]}\n");
		return 0;
	}
	/* the rows: one per size, or for peers with -k one per peer count;
	 * read: two per size, landed and into recvmsg()
	 */
	nv = opt.nks ? opt.nks : rdt ? 2 * opt.nsizes : opt.nsizes;
	if (nv > 16)
		die("too many rows");
	if (rdt)
		read_setup(&c[0]);
	for (int v = 0; v < nv; v++) {
		int size = opt.nks ? opt.sizes[0] : opt.sizes[rdt ? v / 2 : v];

		if (rdt && (size < 1 || size > WIND_RMA_READ_MAX ||
			    size > (int)WP_REGION_LEN))
			die("read size %d out of range (1..%u)", size,
			    WIND_RMA_READ_MAX);
		if (!rdt && (size < (int)sizeof(struct wp_hdr) ||
			     size > (int)WP_MAXMSG))
			die("size %d out of range (%zu..%u)", size,
			    sizeof(struct wp_hdr), WP_MAXMSG);
		if (opt.nks && (opt.ks[v] < 1 || opt.ks[v] > n))
			die("-k %d: 1..%d peers", opt.ks[v], n);
		for (int k = 0; k < np; k++) {
			struct row *r = &rows[k][v];

			r->reps = opt.reps;
			r->best = 1e30;
			r->size = size;
			r->npeers = opt.nks ? opt.ks[v] : n;
			if (!strcmp(opt.test, "rr")) {
				r->size = opt.reply ? opt.reply : 64;
				r->reply = size;
				r->srv_cpu = protos[k] <= P_TCP;
			}
			if (rdt) {
				r->kind = ROW_READ;
				r->land = !(v % 2);
				r->srv_cpu = true;
			}
			if (goodput && protos[k] == P_UDP && size > 65507)
				r->size = 65507;	/* the largest datagram */
			cur_proto = protos[k];
			if (!strcmp(opt.test, "sync"))
				sync_warm(&c[k], r);
			else if (rdt)
				read_warm(&c[k], r);
			else if (msgs)
				msgs_warm(&c[k], r);
			else if (goodput)
				bulk_warm(&c[k], r);
			else
				pp_warm(&c[k], r);
		}
	}
	/* rounds: each runs one repetition of every row and protocol */
	for (int rep = 0; rep < opt.reps; rep++)
		for (int v = 0; v < nv; v++)
			for (int k = 0; k < np; k++) {
				struct row *r = &rows[k][v];

				cur_proto = protos[k];
				if (!strcmp(opt.test, "sync"))
					sync_rep(&c[k], r, rep);
				else if (rdt)
					read_rep(&c[k], r, rep);
				else if (msgs)
					msgs_rep(&c[k], r, rep);
				else if (goodput)
					bulk_rep(&c[k], r, rep);
				else
					pp_rep(&c[k], r, rep);
			}
	for (int v = 0; v < nv; v++)
		for (int k = 0; k < np; k++) {
			if (!strcmp(opt.test, "sync"))
				sync_check(&c[k], &rows[k][v]);
			if (!opt.json)
				print_row(&c[k], &rows[k][v], goodput, true);
		}
	/* JSON: one line per protocol */
	for (int k = 0; opt.json && k < np; k++) {
		printf("{\"proto\": \"%s\", \"test\": \"%s\", %s\"peers\": %d, "
		       "\"secs_per_rep\": %.3f, ",
		       proto_names[protos[k]], opt.test,
		       opt.wire6 ? "\"family\": \"ipv6\", " :
		       opt.family == AF_INET6 ? "\"family\": \"ipv4-mapped\", " : "",
		       n, opt.secs);
		if (msgs)
			printf("\"senders\": %d, \"more\": %s, ", opt.senders,
			       opt.more && protos[k] == P_WIND ? "true" : "false");
		if (protos[k] == P_TCP || protos[k] == P_SCTP)
			printf("\"nagle\": %s, ", opt.nagle ? "true" : "false");
		printf("\"rows\": [");
		for (int v = 0; v < nv; v++)
			print_row(&c[k], &rows[k][v], goodput, v == 0);
		printf("]}\n");
	}
	fflush(stdout);
	return 0;
}

static _Noreturn void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: windperf -s [-6] -p wind|udp|tcp|sctp|tipc|rds [-P port] [-n sockets]\n"
		"                [-b bytes] [-A bind address (rds)]\n"
		"       windperf -c HOST [-6] -p PROTO[,PROTO...]\n"
		"                -t rtt|sync|bulk|rr|read|peers|mem|msgs|incast|hol\n"
		"                [-P port] [-n peers] [-k peers,... (peers test)]\n"
		"                [-r reps] [-d secs/rep]\n"
		"                [-m size,...] [-q request bytes (rr)] [-b bytes]\n"
		"                [-T udp timeout ms] [-W watchdog secs] [-j]\n"
		"                [-S senders (msgs, incast)] [-M: Wind MSG_MORE (msgs)]\n"
		"                [-E netns-prefix (incast)] [-N: Nagle on (tcp, sctp)]\n"
		"HOST: numeric IPv4 or IPv6 address (fe80::1%%eth0 for link-local);\n"
		"an IPv6 one makes the client's sockets AF_INET6.\n"
		"-6: AF_INET6 sockets; a server binds [::] with IPV6_V6ONLY (beside an\n"
		"IPv4 server on the same port), a client reaches an IPv4 HOST v4-mapped.\n");
	exit(status);
}

int main(int argc, char **argv)
{
	const char *host = NULL;
	int port = 5201, n = 1, ch, watchdog = 600, np = 0;
	bool srv_mode = false;
	enum proto protos[NPROTO];
	char *save, *tok;

	while ((ch = getopt(argc, argv, "s6c:p:P:n:k:t:r:d:m:q:b:T:W:jhS:ME:NA:")) != -1) {
		switch (ch) {
		case 's': srv_mode = true; break;
		case '6': opt.family = AF_INET6; break;
		case 'c': host = optarg; break;
		case 'p':
			np = 0;
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				int p = -1;

				for (int i = 0; i < NPROTO; i++)
					if (!strcmp(tok, proto_names[i]))
						p = i;
				if (p < 0 || np == NPROTO)
					die("bad protocol list at %s", tok);
				protos[np++] = p;
			}
			break;
		case 'P': port = atoi(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 'k':
			opt.nks = 0;
			for (tok = strtok_r(optarg, ",", &save);
			     tok && opt.nks < 16; tok = strtok_r(NULL, ",", &save))
				opt.ks[opt.nks++] = atoi(tok);
			break;
		case 't': opt.test = optarg; break;
		case 'r': opt.reps = atoi(optarg); break;
		case 'd': opt.secs = atof(optarg); break;
		case 'm':
			if (!parse_sizes(optarg))
				die("bad -m");
			break;
		case 'q': opt.reply = atoi(optarg); break;
		case 'b': opt.bufsize = atoi(optarg); break;
		case 'T': opt.udp_timeout_ms = atoi(optarg); break;
		case 'W': watchdog = atoi(optarg); break;
		case 'j': opt.json = true; break;
		case 'S': opt.senders = atoi(optarg); break;
		case 'M': opt.more = true; break;
		case 'E': opt.netns_prefix = optarg; break;
		case 'N': opt.nagle = true; break;
		case 'A': {
			struct sockaddr_in *sin = (void *)&opt.local;

			memset(&opt.local, 0, sizeof(opt.local));
			sin->sin_family = AF_INET;
			if (inet_pton(AF_INET, optarg, &sin->sin_addr) != 1)
				die("-A: a numeric IPv4 address");
			opt.have_local = true;
			break;
		}
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (!np || n < 1 || n > WP_MAXPEERS || port < 1 || port + n > 65536)
		usage(2);
	if (opt.reps < 1 || opt.reps > 64 || opt.secs <= 0)
		die("-r must be 1..64 and -d positive");
	if (opt.senders < 1 || opt.senders > 64)
		die("-S must be 1..64");
	if (srv_mode) {
		if (np != 1)
			die("a server serves one protocol");
		return server(protos[0], port, n);
	}
	if (!host || !opt.test)
		usage(2);
	/* a hung transport must not hang the benchmark */
	signal(SIGALRM, watchdog_fired);
	alarm(watchdog);
	return client(protos, np, host, port, n);
}
