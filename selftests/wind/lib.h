/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the Wind selftests: a throw-away topology of network
 * namespaces, sockets created inside a namespace, the per-netns counters
 * of /proc/net/wind_stat, payload patterns and the Internet checksum for
 * crafted packets.
 */
#ifndef WIND_SELFTEST_LIB_H
#define WIND_SELFTEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <linux/wind.h>

#define WIND_MAX_NODES		8
#define WIND_MTU		1500
/* The payload of one raw packet: MTU - IPv4 header - windhdr - wind_datahdr */
#define WIND_MAX_SINGLE_RAW	(WIND_MTU - 20 - 32 - 8)
/* The payload of one packet in the form this run sends (wind_test_encap()) */
#define WIND_MAX_SINGLE		wind_max_single()

/*
 * The test matrix.  A test program that uses wind_topo_setup() runs in
 * the form its name asks for: as itself, raw IP protocol 253; invoked as
 * NAME-udp (a link the selftests' Makefile makes), or with
 * WIND_TEST_ENCAP=udp in the environment, every node's net.wind.encap is
 * 1, so every socket sends inside UDP, and an nftables rule in every node
 * drops any IP protocol 253 packet it would send raw, so that nothing
 * passes that did not go through UDP.
 */
int wind_test_encap(void);		/* WIND_ENCAP_RAW or WIND_ENCAP_UDP */
/*
 * The IP version of the matrix.  Invoked as NAME-ipv6 (a link the
 * Makefile makes for IPV6_MATRIX), or NAME-ipv6-udp (IPV6_UDP_MATRIX:
 * IPv6 inside UDP), or with WIND_TEST_IPV6=1, every node
 * of wind_topo_setup() also has fd77::(i+1)/64, wind_socket_in() makes
 * SOCK_WIND sockets AF_INET6, wind_bound_socket() binds them to [::]:port
 * and wind_sa_set() names a node by its IPv6 address: the test's Wind
 * packets are IPv6 packets.  1 or 0.
 */
int wind_test_ipv6(void);
/*
 * A test of the protocol's core, not of the path its packets take (the
 * retransmission machinery under heavy loss, reordering or duplication,
 * a region's pinning and lifetime, a socket's error state and close): in
 * the matrix's other forms (-udp, -ipv6, -ipv6-udp) it would only run
 * the same code again.  WIND_SKIP_CORE(cond, what), first in a FIXTURE_SETUP,
 * before anything is built, ends such a test there as skipped; it runs
 * in the raw IPv4 program.  WIND_TEST_FULL_MATRIX=1 runs it in every
 * form.  (The harness's child exits 255, which it reports as a skip.)
 */
#define WIND_SKIP_CORE(cond, what) do {				\
		if ((cond) && wind_test_matrix_form()) {		\
			SKIP(fflush(NULL); _exit(255),			\
			     "%s: a test of the core, run in the raw IPv4 program", \
			     (what));					\
		}							\
	} while (0)
/* 1 in a -udp, -ipv6 or -ipv6-udp run (unless WIND_TEST_FULL_MATRIX=1) */
int wind_test_matrix_form(void);
/* 1 if @name is one of the NULL-terminated @names */
int wind_name_in(const char *name, const char *const *names);
/* A Wind address of the matrix's family */
typedef union {
	struct sockaddr sa;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
} wind_sa;
/*
 * Node address addr_be (wind_node_addr(i), or INADDR_ANY) and port in the
 * matrix's family: 10.77.0.N, or fd77::N over IPv6.
 */
void wind_sa_set(wind_sa *sa, in_addr_t addr_be, uint16_t port);
uint16_t wind_sa_port(const wind_sa *sa);	/* host byte order */
void wind_sa_set_port(wind_sa *sa, uint16_t port);
/* Same family, address and port: 1, else 0 */
int wind_sa_same(const wind_sa *a, const wind_sa *b);
struct cmsghdr;
/* A Wind error-queue report: SOL_IP/IP_RECVERR, or SOL_IPV6/IPV6_RECVERR */
int wind_cmsg_is_recverr(const struct cmsghdr *c);
size_t wind_max_single(void);
/* The matrix's form in namespace ns (a topology of the test's own): 0 or -1 */
int wind_ns_encap(const char *ns);
/*
 * Raw Wind packets the matrix's nftables rule dropped on node i's way out
 * (0 when the run is raw), or -1 when it cannot be read.
 */
long wind_raw_dropped(int i);

/*
 * Build nodes wind0..wind<n-1> (1 <= n <= WIND_MAX_NODES) in fresh network
 * namespaces whose names carry the calling process's pid, so that test
 * processes never collide.  Node i has eth0 = 10.77.0.(i+1)/24, MTU 1500,
 * MAC 02:77:00:00:00:(i+1), and permanent neighbour entries for all other
 * nodes (no ARP in the way).  Returns 0 once every link is UP and
 * LOWER_UP, or -1 after undoing whatever it had built.
 *
 * A reaper process deletes the namespaces if the test process dies
 * without calling wind_topo_teardown() (failed ASSERT, timeout kill).
 */
int wind_topo_setup(int n);
void wind_topo_teardown(void);
/*
 * A child process that runs cleanup() (deleting namespaces) if the test
 * process dies before wind_reaper_stop(): the reaper wind_topo_setup()
 * uses, for tests that build a topology of their own.  One at a time.
 */
int wind_reaper_start(void (*cleanup)(void));
void wind_reaper_stop(void);
/* Name of node i's namespace (valid after wind_topo_setup) */
const char *wind_ns(int i);
/* Address of node i, network byte order */
in_addr_t wind_node_addr(int i);

/* Move the calling thread into namespace ns, and back */
int wind_netns_enter(const char *ns);
int wind_netns_leave(void);

/* socket(AF_INET, type, proto) created inside namespace ns */
int wind_socket_in(const char *ns, int type, int proto);
/*
 * A Wind socket in ns bound to INADDR_ANY:port (0: ephemeral); *bound gets
 * getsockname()'s answer.  Returns the fd or -1.
 */
int wind_bound_socket(const char *ns, uint16_t port, struct sockaddr_in *bound);

/*
 * Counter name of /proc/net/wind_stat as seen in namespace ns, or -1 when
 * the file or the counter is missing.
 */
long wind_stat(const char *ns, const char *name);
/*
 * Poll the counter until it is >= target or timeout_ms passed; returns
 * the last value read.
 */
long wind_stat_wait(const char *ns, const char *name, long target,
		    int timeout_ms);

/* Read a whole /proc or /sys file as seen in namespace ns (NULL: here) */
int wind_read_file_in(const char *ns, const char *path, char *buf,
		      size_t size);
/* Write a string to a /proc/sys file as seen in namespace ns */
int wind_write_file_in(const char *ns, const char *path, const char *val);
/*
 * Before reading slab figures: drop the reclaimable caches and shrink
 * every slab cache, which also empties KASAN's quarantine of freed
 * objects (on a KASAN kernel they count as in use until it is flushed).
 */
void wind_slab_settle(void);
/*
 * 1 on a KASAN kernel (make check-debug), where every slab object carries
 * redzones and metadata: memory bounds in bytes are scaled for it.
 */
int wind_kernel_has_kasan(void);

/*
 * Run a shell command; its output goes to stdout prefixed with "# " so
 * that it stays a KTAP diagnostic.  Returns the exit status or -1.
 */
int wind_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* wind_run() a topology step; on failure say which and goto fail */
#define RUN_OR_FAIL(...) do {						\
		if (wind_run(__VA_ARGS__)) {				\
			printf("# topology step failed: " __VA_ARGS__);	\
			printf("\n");					\
			goto fail;					\
		}							\
	} while (0)

/*
 * Wait until @dev in netns @ns is up with a carrier, until @deadline
 * (wind_now_ms()).  Returns 0, or -1 after showing the link.
 */
int wind_link_wait(const char *ns, const char *dev, long long deadline);

void wind_sin(struct sockaddr_in *sa, in_addr_t addr_be, uint16_t port);
/* poll() fd for events; returns revents, 0 on timeout, -1 on error */
int wind_poll(int fd, short events, int timeout_ms);
/* WIND_PEER_INFO on fd of the peer at node's port, into *info: 0 or -1 (libwind has a wind_peer_info() of its own) */
int wind_node_peer_info(int fd, int node, uint16_t port,
		   struct wind_peer_info *info);
/* The same for the peer at *to (IPv4 or IPv6); and its wpi_unsent, or -1 */
int wind_sa_peer_info(int fd, const wind_sa *to, struct wind_peer_info *info);
long wind_sa_unsent(int fd, const wind_sa *to);

/*
 * The next message on fd, waiting up to timeout_ms: its length and, in
 * *from, its sender; -1 with errno (ETIMEDOUT when nothing came).
 */
ssize_t wind_recv_wait(int fd, void *buf, size_t len, struct sockaddr_in *from,
		       int timeout_ms);
/* fd holds no message (a non-blocking peek finds EAGAIN) */
bool wind_rx_empty(int fd);
/* Milliseconds on CLOCK_MONOTONIC */
long long wind_now_ms(void);

/* Deterministic pseudo-random bytes derived from seed */
void wind_fill(void *buf, size_t len, uint32_t seed);
bool wind_fill_ok(const void *buf, size_t len, uint32_t seed);

/*
 * Self-describing messages: a 12-byte header (magic, seq, length) plus a
 * pattern derived from seq and a trailing 16-bit checksum, so a receiver
 * can verify a message without knowing what was sent.  len >= 16.
 */
#define WIND_MSG_MIN		16
void wind_msg_make(void *buf, size_t len, uint32_t seq);
/* sendto() *to message seq of len bytes (len <= 4096): 0, or -1 if not all went */
int wind_msg_send(int fd, const wind_sa *to, uint32_t seq, size_t len, int flags);
/* Returns the seq of a well-formed message, -1 if it is damaged */
long wind_msg_check(const void *buf, size_t len);

/* Internet checksum: ones'-complement sum folded and inverted */
uint32_t wind_csum_add(uint32_t sum, const void *buf, size_t len);
uint16_t wind_csum_fold(uint32_t sum);
/*
 * Internet checksum of an IPv4 L4 packet: pseudo-header (saddr, daddr,
 * 0, proto, pseudo_len) + pkt[0..len).  Network byte order, never 0:
 * over a packet whose checksum field is right, 0xffff.
 */
uint16_t wind_l4_csum(in_addr_t saddr, in_addr_t daddr, uint8_t proto,
		      uint16_t pseudo_len, const void *pkt, size_t len);
/* The same for a Wind packet (proto IPPROTO_WIND) */
uint16_t wind_pkt_csum(in_addr_t saddr, in_addr_t daddr, uint16_t pseudo_len,
		       const void *pkt, size_t len);

/* Node i's IPv6 address in the IPv6 matrix: fd77::(i+1) */
void wind_node_addr6(int i, struct in6_addr *a);
/* The same over IPv6: the pseudo-header of RFC 8200 */
uint16_t wind_l4_csum6(const struct in6_addr *saddr,
		       const struct in6_addr *daddr, uint8_t proto,
		       uint32_t pseudo_len, const void *pkt, size_t len);
uint16_t wind_pkt_csum6(const struct in6_addr *saddr,
			const struct in6_addr *daddr, uint32_t pseudo_len,
			const void *pkt, size_t len);

/*
 * A forger: crafted Wind packets (Wind header first, the checksum the
 * caller's) from node from to node to of wind_topo_setup(), in the
 * matrix's form: a raw IPPROTO_WIND socket of the matrix's family, the
 * kernel building the IP header; or, in a UDP run, a UDP socket that
 * sends each packet as the payload of a datagram to the receiver's
 * net.wind.udp_port.  fd is there for socket options (IPv6 extension
 * headers, no UDP checksum).
 */
struct wind_forge {
	int fd, from, to;
	wind_sa dst;
};
int wind_forge_open(struct wind_forge *f, int from, int to);
/* The checksum field's value for pkt (its field 0) from -> to */
uint16_t wind_forge_csum(const struct wind_forge *f, uint32_t pseudo_len,
			 const void *pkt, size_t len);
/* 0 once the whole packet went, else -1 with errno */
int wind_forge_send(const struct wind_forge *f, const void *pkt, size_t len);
void wind_forge_close(struct wind_forge *f);

#endif /* WIND_SELFTEST_LIB_H */
