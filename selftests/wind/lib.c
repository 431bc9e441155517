// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the Wind selftests.
 *
 * Topology built by wind_topo_setup(n), all names suffixed with the pid of
 * the test process ("wind0-1234"), so that concurrent or leftover test
 * processes never collide:
 *
 * n == 2, one veth pair:
 *
 *   +------ wind0 ------+                 +------ wind1 ------+
 *   | lo                |                 | lo                |
 *   | eth0 10.77.0.1/24 |<----- veth ---->| eth0 10.77.0.2/24 |
 *   +-------------------+                 +-------------------+
 *
 * any other n, a bridge in a hub namespace:
 *
 *   wind0: eth0 10.77.0.1/24 <-- veth --> v0 --+
 *   wind1: eth0 10.77.0.2/24 <-- veth --> v1 --+-- br0   (windhub)
 *   ...                                        |
 *   wind<n-1>: eth0 10.77.0.n/24 <-> v<n-1> ---+
 *
 * Every eth0 has MTU 1500 and MAC 02:77:00:00:00:(i+1); every node has
 * permanent neighbour entries for all others, so no test waits on ARP.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib.h"

#define NETNS_RUN_DIR	"/var/run/netns"
#define LINK_WAIT_MS	5000

static char node_ns[WIND_MAX_NODES][32];
static char hub_ns[32];
static int node_count;
static pid_t reaper_pid = -1;
static int reaper_fd = -1;
static void (*reaper_cleanup)(void);

/* The namespace each thread came from, while it visits another one */
static __thread int home_netns_fd = -1;

long long wind_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int wind_run(const char *fmt, ...)
{
	char cmd[1024], line[512];
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>&1");

	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		printf("# %s%s", line, strchr(line, '\n') ? "" : "\n");
	fflush(stdout);
	st = pclose(p);
	if (st < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

const char *wind_ns(int i)
{
	if (i < 0 || i >= node_count)
		return NULL;
	return node_ns[i];
}

in_addr_t wind_node_addr(int i)
{
	return htonl(0x0a4d0001u + (uint32_t)i);	/* 10.77.0.(i+1) */
}

static void delete_namespaces(void)
{
	char cmd[WIND_MAX_NODES * 48 + 128];
	size_t len;
	int i;

	/* one ip(8) for all of them; -force: on past one that is gone */
	len = snprintf(cmd, sizeof(cmd), "printf '");
	for (i = 0; i < node_count; i++)
		len += snprintf(cmd + len, sizeof(cmd) - len, "netns del %s\\n",
				node_ns[i]);
	if (hub_ns[0])
		len += snprintf(cmd + len, sizeof(cmd) - len, "netns del %s\\n",
				hub_ns);
	snprintf(cmd + len, sizeof(cmd) - len,
		 "' | ip -force -b - >/dev/null 2>&1");
	(void)!system(cmd);
}

/*
 * The reaper waits on a pipe whose only writer is the test process: a
 * byte means "torn down, nothing to do", end of file means the test died
 * (a failed ASSERT aborts, a timeout kills the process group) and the
 * namespaces are deleted here (by @cleanup, which the reaper runs in its
 * own copy of the test's memory).  It leaves the process group so that the
 * harness's kill does not take it along.
 */
int wind_reaper_start(void (*cleanup)(void))
{
	int p[2];
	pid_t pid;

	reaper_cleanup = cleanup;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		char c;
		ssize_t r;

		setpgid(0, 0);
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		close(p[1]);
		do
			r = read(p[0], &c, 1);
		while (r < 0 && errno == EINTR);
		if (r != 1)
			reaper_cleanup();
		_exit(0);
	}
	close(p[0]);
	reaper_fd = p[1];
	reaper_pid = pid;
	return 0;
}

void wind_reaper_stop(void)
{
	if (reaper_fd >= 0) {
		(void)!write(reaper_fd, "x", 1);
		close(reaper_fd);
		reaper_fd = -1;
	}
	if (reaper_pid > 0) {
		waitpid(reaper_pid, NULL, 0);
		reaper_pid = -1;
	}
}

/* Up and running (operstate UP: carrier on both ends of a veth) */
static bool link_ready(const char *ns, const char *dev)
{
	struct ifreq ifr;
	bool up;
	int fd;

	fd = wind_socket_in(ns, SOCK_DGRAM, 0);
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	up = !ioctl(fd, SIOCGIFFLAGS, &ifr) &&
	     (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) == (IFF_UP | IFF_RUNNING);
	close(fd);
	return up;
}

int wind_link_wait(const char *ns, const char *dev, long long deadline)
{
	while (!link_ready(ns, dev)) {
		if (wind_now_ms() > deadline) {
			printf("# %s %s not up in time\n", ns, dev);
			wind_run("ip -n %s link show dev %s", ns, dev);
			return -1;
		}
		msleep(10);
	}
	return 0;
}

int wind_test_encap(void)
{
	static int encap = -1;
	const char *env, *name;
	size_t n;

	if (encap >= 0)
		return encap;
	encap = WIND_ENCAP_RAW;
	env = getenv("WIND_TEST_ENCAP");
	name = program_invocation_short_name;
	n = strlen(name);
	if ((env && !strcmp(env, "udp")) ||
	    (n > 4 && !strcmp(name + n - 4, "-udp")))
		encap = WIND_ENCAP_UDP;
	return encap;
}

int wind_test_ipv6(void)
{
	static int ipv6 = -1;
	const char *env, *name;
	size_t n;

	if (ipv6 >= 0)
		return ipv6;
	env = getenv("WIND_TEST_IPV6");
	name = program_invocation_short_name;
	n = strlen(name);
	/* NAME-ipv6, or NAME-ipv6-udp: IPv6 inside UDP */
	ipv6 = (env && !strcmp(env, "1")) ||
	       (n > 5 && !strcmp(name + n - 5, "-ipv6")) ||
	       (n > 9 && !strcmp(name + n - 9, "-ipv6-udp"));
	return ipv6;
}

int wind_test_matrix_form(void)
{
	const char *full = getenv("WIND_TEST_FULL_MATRIX");

	if (full && !strcmp(full, "1"))
		return 0;
	return wind_test_encap() == WIND_ENCAP_UDP || wind_test_ipv6();
}

int wind_name_in(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(name, *names))
			return 1;
	return 0;
}

size_t wind_max_single(void)
{
	/* UDP's 8-byte header comes out of every packet's payload, and
	 * IPv6's header is 20 bytes longer than IPv4's
	 */
	return WIND_MAX_SINGLE_RAW -
	       (wind_test_encap() == WIND_ENCAP_UDP ? 8 : 0) -
	       (wind_test_ipv6() ? 20 : 0);
}

void wind_sa_set(wind_sa *sa, in_addr_t addr_be, uint16_t port)
{
	uint32_t a = ntohl(addr_be);

	memset(sa, 0, sizeof(*sa));
	if (!wind_test_ipv6()) {
		wind_sin(&sa->sin, addr_be, port);
		return;
	}
	sa->sin6.sin6_family = AF_INET6;
	sa->sin6.sin6_port = htons(port);
	/* a node's 10.77.0.N is its fd77::N; INADDR_ANY is :: */
	if (a) {
		sa->sin6.sin6_addr.s6_addr[0] = 0xfd;
		sa->sin6.sin6_addr.s6_addr[1] = 0x77;
		sa->sin6.sin6_addr.s6_addr[15] = a & 0xff;
	}
}

uint16_t wind_sa_port(const wind_sa *sa)
{
	return ntohs(sa->sa.sa_family == AF_INET6 ? sa->sin6.sin6_port :
						    sa->sin.sin_port);
}

void wind_sa_set_port(wind_sa *sa, uint16_t port)
{
	if (sa->sa.sa_family == AF_INET6)
		sa->sin6.sin6_port = htons(port);
	else
		sa->sin.sin_port = htons(port);
}

int wind_sa_same(const wind_sa *a, const wind_sa *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return 0;
	if (a->sa.sa_family == AF_INET6)
		return a->sin6.sin6_port == b->sin6.sin6_port &&
		       !memcmp(&a->sin6.sin6_addr, &b->sin6.sin6_addr,
			       sizeof(a->sin6.sin6_addr));
	return a->sin.sin_port == b->sin.sin_port &&
	       a->sin.sin_addr.s_addr == b->sin.sin_addr.s_addr;
}

int wind_cmsg_is_recverr(const struct cmsghdr *c)
{
	return (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
	       (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR);
}

int wind_ns_encap(const char *ns)
{
	int fd;

	if (wind_test_encap() != WIND_ENCAP_UDP)
		return 0;
	/* net.wind exists once the module is loaded: a socket loads it */
	fd = wind_socket_in(ns, SOCK_WIND, 0);
	if (fd >= 0)
		close(fd);
	if (wind_write_file_in(ns, "/proc/sys/net/wind/encap", "1")) {
		printf("# %s: cannot set net.wind.encap\n", ns);
		return -1;
	}
	return wind_run("ip netns exec %s nft 'add table inet windmatrix;"
			" add chain inet windmatrix out"
			" { type filter hook output priority 0; };"
			" add rule inet windmatrix out meta l4proto 253 counter drop'",
			ns) ? -1 : 0;
}

/* The matrix's form on node i: its sockets' default and the drop rule */
static int topo_encap(int i)
{
	if (!i && wind_test_encap() == WIND_ENCAP_UDP)
		printf("# %s: every node sends Wind inside UDP; IP protocol 253 is dropped on its way out\n",
		       program_invocation_short_name);
	if (!i && wind_test_ipv6())
		printf("# %s: every Wind socket is AF_INET6, every node fd77::N: Wind over IPv6\n",
		       program_invocation_short_name);
	return wind_ns_encap(node_ns[i]);
}

long wind_raw_dropped(int i)
{
	char out[512], *p;
	FILE *f;
	size_t n;

	if (wind_test_encap() != WIND_ENCAP_UDP)
		return 0;
	if (i < 0 || i >= node_count)
		return -1;
	snprintf(out, sizeof(out),
		 "ip netns exec %s nft list chain inet windmatrix out 2>&1",
		 node_ns[i]);
	f = popen(out, "r");
	if (!f)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	if (pclose(f))
		return -1;
	p = strstr(out, "packets ");
	return p ? strtol(p + 8, NULL, 10) : -1;
}

static int wait_links(void)
{
	long long deadline = wind_now_ms() + LINK_WAIT_MS;
	int i;

	for (i = 0; i < node_count; i++)
		if (wind_link_wait(node_ns[i], "eth0", deadline))
			return -1;
	return 0;
}

/*
 * A topology is built by three or four ip(8) processes, each running a
 * batch of steps (`ip [-n NS] -b FILE`), not one process a step: under
 * TCG each process costs 0.1 to 0.2 s, and every test builds a topology.
 */
struct ip_batch {
	char buf[8192];
	size_t len;
	bool overflow;
};

static void __attribute__((format(printf, 2, 3)))
batch_add(struct ip_batch *b, const char *fmt, ...)
{
	size_t room = sizeof(b->buf) - b->len;
	va_list ap;
	int n;

	if (b->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 2 > room) {
		b->overflow = true;
		return;
	}
	b->len += n;
	b->buf[b->len++] = '\n';
	b->buf[b->len] = '\0';
}

/*
 * Runs @b in namespace @ns (NULL: the caller's) and empties it.  ip stops
 * at the first step that fails and says which line; the batch is printed
 * then, as KTAP diagnostics.  Returns 0 or -1.
 */
static int batch_run(struct ip_batch *b, const char *ns)
{
	char path[] = "/tmp/wind-ip-batch.XXXXXX";
	const char *line, *end;
	int fd, rc = -1;

	if (b->overflow) {
		printf("# topology: ip batch longer than %zu bytes\n",
		       sizeof(b->buf));
		goto out;
	}
	fd = mkstemp(path);
	if (fd < 0)
		goto out;
	if (write(fd, b->buf, b->len) == (ssize_t)b->len)
		rc = ns ? wind_run("ip -n %s -b %s", ns, path) :
			  wind_run("ip -b %s", path);
	close(fd);
	unlink(path);
	if (rc) {
		printf("# topology step failed, in this batch (ip%s%s -b):\n",
		       ns ? " -n " : "", ns ? ns : "");
		for (line = b->buf; *line; line = end + 1) {
			end = strchr(line, '\n');
			printf("#   %.*s\n", (int)(end - line), line);
		}
		rc = -1;
	}
out:
	b->len = 0;
	b->buf[0] = '\0';
	b->overflow = false;
	return rc;
}

int wind_topo_setup(int n)
{
	/* static: 8 KiB off the stack; a test builds its topology from one
	 * thread, and batch_run() leaves the batch empty
	 */
	static struct ip_batch b;
	pid_t pid = getpid();
	int i, j;

	if (n < 1 || n > WIND_MAX_NODES || node_count)
		return -1;
	node_count = n;
	for (i = 0; i < n; i++)
		snprintf(node_ns[i], sizeof(node_ns[i]), "wind%d-%d", i, pid);
	hub_ns[0] = '\0';
	if (n != 2)
		snprintf(hub_ns, sizeof(hub_ns), "windhub-%d", pid);

	if (wind_reaper_start(delete_namespaces))
		goto fail;

	/* the namespaces, and the veths created in them */
	for (i = 0; i < n; i++)
		batch_add(&b, "netns add %s", node_ns[i]);
	if (n == 2) {
		batch_add(&b, "link add eth0 address 02:77:00:00:00:01 mtu %d netns %s type veth peer name eth0 address 02:77:00:00:00:02 mtu %d netns %s",
			  WIND_MTU, node_ns[0], WIND_MTU, node_ns[1]);
	} else {
		batch_add(&b, "netns add %s", hub_ns);
		for (i = 0; i < n; i++)
			batch_add(&b, "link add eth0 address 02:77:00:00:00:%02x mtu %d netns %s type veth peer name v%d mtu %d netns %s",
				  i + 1, WIND_MTU, node_ns[i], i, WIND_MTU,
				  hub_ns);
	}
	if (batch_run(&b, NULL))
		goto fail;

	if (hub_ns[0]) {
		batch_add(&b, "link set lo up");
		batch_add(&b, "link add br0 mtu %d type bridge stp_state 0",
			  WIND_MTU);
		batch_add(&b, "link set br0 up");
		for (i = 0; i < n; i++)
			batch_add(&b, "link set v%d master br0 up", i);
		if (batch_run(&b, hub_ns))
			goto fail;
	}

	for (i = 0; i < n; i++) {
		batch_add(&b, "link set lo up");
		batch_add(&b, "addr add 10.77.0.%d/24 dev eth0", i + 1);
		batch_add(&b, "link set eth0 up");
		if (wind_test_ipv6())
			batch_add(&b, "addr add fd77::%d/64 dev eth0 nodad",
				  i + 1);
		for (j = 0; j < n; j++) {
			if (j == i)
				continue;
			batch_add(&b, "neigh replace 10.77.0.%d lladdr 02:77:00:00:00:%02x dev eth0 nud permanent",
				  j + 1, j + 1);
			if (wind_test_ipv6())
				batch_add(&b, "neigh replace fd77::%d lladdr 02:77:00:00:00:%02x dev eth0 nud permanent",
					  j + 1, j + 1);
		}
		if (batch_run(&b, node_ns[i]))
			goto fail;
	}

	for (i = 0; i < n; i++)
		if (topo_encap(i))
			goto fail;

	if (wait_links())
		goto fail;
	return 0;
fail:
	wind_topo_teardown();
	return -1;
}

void wind_topo_teardown(void)
{
	long dropped;
	int i;

	if (!node_count)
		return;
	for (i = 0; i < node_count; i++) {
		dropped = wind_raw_dropped(i);
		if (dropped)
			printf("# %s: %ld raw Wind packets dropped by the UDP run's rule\n",
			       node_ns[i], dropped);
	}
	delete_namespaces();
	wind_reaper_stop();
	node_count = 0;
	hub_ns[0] = '\0';
}

int wind_netns_enter(const char *ns)
{
	char path[320];
	int fd, ret;

	if (home_netns_fd < 0) {
		home_netns_fd = open("/proc/thread-self/ns/net",
				     O_RDONLY | O_CLOEXEC);
		if (home_netns_fd < 0)
			return -1;
	}
	snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = setns(fd, CLONE_NEWNET);
	close(fd);
	return ret;
}

int wind_netns_leave(void)
{
	int saved = errno;

	if (home_netns_fd < 0)
		return 0;
	if (setns(home_netns_fd, CLONE_NEWNET) < 0) {
		perror("setns back to the original netns");
		abort();
	}
	errno = saved;
	return 0;
}

int wind_socket_in(const char *ns, int type, int proto)
{
	int fd;

	if (wind_netns_enter(ns) < 0)
		return -1;
	fd = socket(type == SOCK_WIND && wind_test_ipv6() ? AF_INET6 : AF_INET,
		    type, proto);
	wind_netns_leave();
	return fd;
}

void wind_sin(struct sockaddr_in *sa, in_addr_t addr_be, uint16_t port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = addr_be;
	sa->sin_port = htons(port);
}

int wind_bound_socket(const char *ns, uint16_t port, struct sockaddr_in *bound)
{
	socklen_t len = sizeof(wind_sa);
	wind_sa sa;
	int fd;

	fd = wind_socket_in(ns, SOCK_WIND, 0);
	if (fd < 0)
		return -1;
	wind_sa_set(&sa, htonl(INADDR_ANY), port);
	if (bind(fd, &sa.sa, sizeof(sa)) < 0 ||
	    getsockname(fd, &sa.sa, &len) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	/* over IPv6 (the matrix), the port, as an IPv4 wildcard's */
	if (bound && sa.sa.sa_family == AF_INET6)
		wind_sin(bound, htonl(INADDR_ANY), wind_sa_port(&sa));
	else if (bound)
		*bound = sa.sin;
	return fd;
}

int wind_poll(int fd, short events, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	long long deadline = wind_now_ms() + timeout_ms;
	int r;

	for (;;) {
		r = poll(&pfd, 1, timeout_ms);
		if (r >= 0)
			return r ? pfd.revents : 0;
		if (errno != EINTR)
			return -1;
		timeout_ms = (int)(deadline - wind_now_ms());
		if (timeout_ms < 0)
			timeout_ms = 0;
	}
}

static int open_in(const char *ns, const char *path, int flags)
{
	int fd;

	if (ns && wind_netns_enter(ns) < 0)
		return -1;
	fd = open(path, flags | O_CLOEXEC);
	if (ns)
		wind_netns_leave();
	return fd;
}

int wind_read_file_in(const char *ns, const char *path, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;
	int fd;

	if (!size)
		return -1;
	fd = open_in(ns, path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (n + 1 < size) {
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	buf[n] = '\0';
	close(fd);
	return (int)n;
}

int wind_write_file_in(const char *ns, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t r;
	int fd;

	fd = open_in(ns, path, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, val, len);
	close(fd);
	return r == (ssize_t)len ? 0 : -1;
}

int wind_kernel_has_kasan(void)
{
	static int known = -1;
	char line[256];
	FILE *f;

	if (known >= 0)
		return known;
	known = 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return known;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " kasan_report")) {
			known = 1;
			break;
		}
	fclose(f);
	return known;
}

void wind_slab_settle(void)
{
	char path[320];
	struct dirent *de;
	DIR *d;

	wind_write_file_in(NULL, "/proc/sys/vm/drop_caches", "2");
	d = opendir("/sys/kernel/slab");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_name[0] == ':')
			continue;	/* aliases name the same caches */
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", de->d_name);
		wind_write_file_in(NULL, path, "1");
	}
	closedir(d);
}

long wind_stat(const char *ns, const char *name)
{
	static char buf[16384];
	size_t nlen = strlen(name);
	char *line, *save = NULL;

	if (wind_read_file_in(ns, "/proc/thread-self/net/wind_stat", buf,
			      sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		long v;

		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, name, nlen) ||
		    (line[nlen] != ' ' && line[nlen] != '\t' &&
		     line[nlen] != ':'))
			continue;
		line += nlen;
		while (*line == ' ' || *line == '\t' || *line == ':')
			line++;
		errno = 0;
		v = strtol(line, &end, 10);
		if (errno || end == line)
			return -1;
		return v;
	}
	return -1;
}

long wind_stat_wait(const char *ns, const char *name, long target,
		    int timeout_ms)
{
	long long deadline = wind_now_ms() + timeout_ms;
	long v;

	for (;;) {
		v = wind_stat(ns, name);
		if (v >= target || wind_now_ms() > deadline)
			return v;
		msleep(5);
	}
}

static uint32_t prng_seed(uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 0x9e3779b9u;

	return x ? x : 1;
}

static uint32_t prng_next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

void wind_fill(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;
	uint32_t x = prng_seed(seed);
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(prng_next(&x) >> 11);
}

bool wind_fill_ok(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	uint32_t x = prng_seed(seed);
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (uint8_t)(prng_next(&x) >> 11))
			return false;
	return true;
}

#define WIND_MSG_MAGIC	0x57494e44u	/* "WIND" */

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void wind_msg_make(void *buf, size_t len, uint32_t seq)
{
	uint8_t *p = buf;
	uint16_t c;

	if (len < WIND_MSG_MIN)
		return;
	put_be32(p, WIND_MSG_MAGIC);
	put_be32(p + 4, seq);
	put_be32(p + 8, (uint32_t)len);
	wind_fill(p + 12, len - 14, seq ^ (uint32_t)len);
	c = wind_csum_fold(wind_csum_add(0, p, len - 2));
	p[len - 2] = c >> 8;
	p[len - 1] = c & 0xff;
}

long wind_msg_check(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t seq;
	uint16_t c;

	if (len < WIND_MSG_MIN || get_be32(p) != WIND_MSG_MAGIC ||
	    get_be32(p + 8) != len)
		return -1;
	seq = get_be32(p + 4);
	c = wind_csum_fold(wind_csum_add(0, p, len - 2));
	if (p[len - 2] != (c >> 8) || p[len - 1] != (c & 0xff))
		return -1;
	if (!wind_fill_ok(p + 12, len - 14, seq ^ (uint32_t)len))
		return -1;
	return seq;
}

uint32_t wind_csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t s = sum;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		s += (uint32_t)p[len - 1] << 8;
	while (s >> 32)
		s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)s;
}

uint16_t wind_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t wind_l4_csum(in_addr_t saddr, in_addr_t daddr, uint8_t proto,
		      uint16_t pseudo_len, const void *pkt, size_t len)
{
	uint8_t ph[12];
	uint32_t sum;
	uint16_t c;

	memcpy(ph, &saddr, 4);
	memcpy(ph + 4, &daddr, 4);
	ph[8] = 0;
	ph[9] = proto;
	ph[10] = pseudo_len >> 8;
	ph[11] = pseudo_len & 0xff;
	sum = wind_csum_add(0, ph, sizeof(ph));
	sum = wind_csum_add(sum, pkt, len);
	c = wind_csum_fold(sum);
	if (!c)
		c = 0xffff;
	return htons(c);
}

uint16_t wind_pkt_csum(in_addr_t saddr, in_addr_t daddr, uint16_t pseudo_len,
		       const void *pkt, size_t len)
{
	return wind_l4_csum(saddr, daddr, IPPROTO_WIND, pseudo_len, pkt, len);
}

void wind_node_addr6(int i, struct in6_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->s6_addr[0] = 0xfd;
	a->s6_addr[1] = 0x77;
	a->s6_addr[15] = i + 1;
}

uint16_t wind_pkt_csum6(const struct in6_addr *saddr,
			const struct in6_addr *daddr, uint32_t pseudo_len,
			const void *pkt, size_t len)
{
	return wind_l4_csum6(saddr, daddr, IPPROTO_WIND, pseudo_len, pkt,
			     len);
}

uint16_t wind_l4_csum6(const struct in6_addr *saddr,
		       const struct in6_addr *daddr, uint8_t proto,
		       uint32_t pseudo_len, const void *pkt, size_t len)
{
	uint8_t ph[40] = { 0 };
	uint32_t sum;
	uint16_t c;

	memcpy(ph, saddr, 16);
	memcpy(ph + 16, daddr, 16);
	ph[32] = pseudo_len >> 24;
	ph[33] = pseudo_len >> 16;
	ph[34] = pseudo_len >> 8;
	ph[35] = pseudo_len & 0xff;
	ph[39] = proto;
	sum = wind_csum_add(0, ph, sizeof(ph));
	sum = wind_csum_add(sum, pkt, len);
	c = wind_csum_fold(sum);
	if (!c)
		c = 0xffff;
	return htons(c);
}

int wind_forge_open(struct wind_forge *f, int from, int to)
{
	bool udp = wind_test_encap() == WIND_ENCAP_UDP;
	int family = wind_test_ipv6() ? AF_INET6 : AF_INET;
	char port[32] = "9253";
	int e;

	memset(f, 0, sizeof(*f));
	f->from = from;
	f->to = to;
	if (udp && wind_read_file_in(wind_ns(to), "/proc/sys/net/wind/udp_port",
				     port, sizeof(port)) < 0)
		return -1;
	if (wind_netns_enter(wind_ns(from)) < 0)
		return -1;
	f->fd = socket(family, udp ? SOCK_DGRAM : SOCK_RAW,
		       udp ? IPPROTO_UDP : IPPROTO_WIND);
	e = errno;
	wind_netns_leave();
	errno = e;
	if (f->fd < 0)
		return -1;
	if (family == AF_INET6) {
		f->dst.sin6.sin6_family = AF_INET6;
		wind_node_addr6(to, &f->dst.sin6.sin6_addr);
	} else {
		wind_sin(&f->dst.sin, wind_node_addr(to), 0);
	}
	if (udp)
		wind_sa_set_port(&f->dst, atoi(port));
	return 0;
}

uint16_t wind_forge_csum(const struct wind_forge *f, uint32_t pseudo_len,
			 const void *pkt, size_t len)
{
	struct in6_addr s6, d6;

	if (f->dst.sa.sa_family == AF_INET)
		return wind_pkt_csum(wind_node_addr(f->from),
				     wind_node_addr(f->to), pseudo_len, pkt,
				     len);
	wind_node_addr6(f->from, &s6);
	wind_node_addr6(f->to, &d6);
	return wind_pkt_csum6(&s6, &d6, pseudo_len, pkt, len);
}

int wind_forge_send(const struct wind_forge *f, const void *pkt, size_t len)
{
	return sendto(f->fd, pkt, len, 0, &f->dst.sa, sizeof(f->dst)) ==
	       (ssize_t)len ? 0 : -1;
}

void wind_forge_close(struct wind_forge *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

ssize_t wind_recv_wait(int fd, void *buf, size_t len, struct sockaddr_in *from,
		       int timeout_ms)
{
	socklen_t alen = sizeof(*from);
	int ev = wind_poll(fd, POLLIN, timeout_ms);

	if (ev <= 0) {
		errno = ev ? errno : ETIMEDOUT;
		return -1;
	}
	memset(from, 0, sizeof(*from));
	return recvfrom(fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)from,
			&alen);
}

bool wind_rx_empty(int fd)
{
	char c;

	return recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) == -1 && errno == EAGAIN;
}

int wind_node_peer_info(int fd, int node, uint16_t port,
		   struct wind_peer_info *info)
{
	socklen_t len = sizeof(*info);
	struct sockaddr_in sin;

	memset(info, 0, sizeof(*info));
	wind_sin(&sin, wind_node_addr(node), port);
	memcpy(&info->wpi_addr, &sin, sizeof(sin));
	return getsockopt(fd, SOL_WIND, WIND_PEER_INFO, info, &len) ? -1 : 0;
}

int wind_sa_peer_info(int fd, const wind_sa *to, struct wind_peer_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	memcpy(&info->wpi_addr, to, sizeof(*to));
	return getsockopt(fd, SOL_WIND, WIND_PEER_INFO, info, &len) ? -1 : 0;
}

long wind_sa_unsent(int fd, const wind_sa *to)
{
	struct wind_peer_info pi;

	return wind_sa_peer_info(fd, to, &pi) ? -1 : (long)pi.wpi_unsent;
}

int wind_msg_send(int fd, const wind_sa *to, uint32_t seq, size_t len, int flags)
{
	char buf[4096];

	if (len > sizeof(buf))
		return -1;
	wind_msg_make(buf, len, seq);
	return sendto(fd, buf, len, flags, &to->sa, sizeof(*to)) ==
	       (ssize_t)len ? 0 : -1;
}
