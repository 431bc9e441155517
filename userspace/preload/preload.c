// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libwind-preload.so: run an unmodified UDP program over Wind.
 *
 *   LD_PRELOAD=libwind-preload.so program ...
 *
 * socket(AF_INET, SOCK_DGRAM[|SOCK_NONBLOCK|SOCK_CLOEXEC], 0 or IPPROTO_UDP)
 * becomes socket(AF_INET, SOCK_WIND|same flags, IPPROTO_WIND), and an
 * AF_INET6 one socket(AF_INET6, SOCK_WIND|same flags, IPPROTO_WIND) (dual
 * stack as UDP's, IPV6_V6ONLY and all): a real kernel socket, so select/poll/epoll, O_NONBLOCK, SIGIO (O_ASYNC with
 * F_SETOWN), SO_SNDBUF/SO_RCVBUF, recvfrom/sendto and their errors are
 * the kernel's.  The shim only keeps up the appearance of UDP where a
 * program may look:
 *
 *   getsockopt(SO_TYPE) says SOCK_DGRAM, getsockopt(SO_PROTOCOL) says
 *   IPPROTO_UDP;
 *   setsockopt(IPPROTO_UDP, ...): options that do not change what the
 *   program sends or receives (UDP_GRO, UDP_NO_CHECK6_TX/RX, UDP_CORK and
 *   UDP_SEGMENT set to 0) succeed and do nothing, getsockopt reports them
 *   as 0 (which is the truth); the others (UDP_CORK, UDP_SEGMENT on,
 *   UDP_ENCAP) fail with ENOPROTOOPT;
 *   send/sendto/sendmsg/sendmmsg with MSG_MORE fail with EOPNOTSUPP (UDP's
 *   MSG_MORE joins sends into one datagram, Wind's does not);
 *   setsockopt(SOL_IP, IP_RECVERR) and setsockopt(SOL_IPV6, IPV6_RECVERR)
 *   also set WIND_RECVERR, so that lost messages are reported on the
 *   error queue the program reads (an AF_INET6 socket's with SOL_IPV6 /
 *   IPV6_RECVERR and a sockaddr_in6 offender, as UDP's).
 *
 * WIND_PRELOAD_PORTS=7000,7002-7005 converts only sockets later bound to
 * one of those ports.  Such a socket is created as UDP; at bind() the shim
 * creates the Wind socket of its family, replays on it the socket options the program
 * set so far, copies the owner (F_SETOWN_EX), the signal (F_SETSIG), the
 * file status flags O_NONBLOCK and O_ASYNC and FD_CLOEXEC, binds it and
 * dup3()s it over the program's fd.  A socket that is never bind()ed, or
 * bound elsewhere, stays UDP.
 *
 * If the Wind socket cannot be created (no wind.ko), socket() or bind()
 * fails with the kernel's error and a message on stderr: the program was
 * started to get reliable delivery, it does not silently lose it.
 * WIND_PRELOAD_FALLBACK=1 keeps UDP instead (still with the message).
 * WIND_PRELOAD_DEBUG=1 logs every conversion on stderr.
 *
 * The shim recognises the sockets it converted by their inode (which a
 * dup() or fork() shares), so it never disguises a Wind socket that the
 * program opened itself.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/wind.h>

#define EXPORT		__attribute__((visibility("default")))
#define TAG		"libwind-preload: "

static int (*real_socket)(int, int, int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_getsockopt)(int, int, int, void *, socklen_t *);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static int (*real_sendmmsg)(int, struct mmsghdr *, unsigned int, int);

static bool opt_debug, opt_fallback, ports_mode;
static uint8_t port_map[65536 / 8];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n, e = errno;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	(void)!write(STDERR_FILENO, buf, n);
	errno = e;
}

#define debug(...) do { if (opt_debug) say(__VA_ARGS__); } while (0)

static bool port_listed(unsigned int port)
{
	return port_map[port / 8] & (1u << (port % 8));
}

/* "7000,7002-7005": sets the bits, complains about what it cannot read */
static void parse_ports(const char *s)
{
	while (*s) {
		char *end;
		unsigned long lo, hi;

		lo = strtoul(s, &end, 10);
		hi = lo;
		if (end != s && *end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
		}
		if (end == s || lo > 65535 || hi > 65535 || lo > hi ||
		    (*end && *end != ',')) {
			say(TAG "WIND_PRELOAD_PORTS: cannot read \"%s\"", s);
			return;
		}
		for (; lo <= hi; lo++)
			port_map[lo / 8] |= 1u << (lo % 8);
		s = *end ? end + 1 : end;
	}
}

static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static void init_once(void)
{
	const char *ports;

	real_socket = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	real_bind = (int (*)(int, const struct sockaddr *, socklen_t))
		dlsym(RTLD_NEXT, "bind");
	real_setsockopt = (int (*)(int, int, int, const void *, socklen_t))
		dlsym(RTLD_NEXT, "setsockopt");
	real_getsockopt = (int (*)(int, int, int, void *, socklen_t *))
		dlsym(RTLD_NEXT, "getsockopt");
	real_send = (ssize_t (*)(int, const void *, size_t, int))
		dlsym(RTLD_NEXT, "send");
	real_sendto = (ssize_t (*)(int, const void *, size_t, int,
				   const struct sockaddr *, socklen_t))
		dlsym(RTLD_NEXT, "sendto");
	real_sendmsg = (ssize_t (*)(int, const struct msghdr *, int))
		dlsym(RTLD_NEXT, "sendmsg");
	real_sendmmsg = (int (*)(int, struct mmsghdr *, unsigned int, int))
		dlsym(RTLD_NEXT, "sendmmsg");
	if (!real_socket || !real_bind || !real_setsockopt ||
	    !real_getsockopt || !real_send || !real_sendto || !real_sendmsg ||
	    !real_sendmmsg) {
		say(TAG "dlsym(RTLD_NEXT) failed: %s", dlerror());
		abort();
	}
	opt_debug = env_on("WIND_PRELOAD_DEBUG");
	opt_fallback = env_on("WIND_PRELOAD_FALLBACK");
	ports = getenv("WIND_PRELOAD_PORTS");
	if (ports && *ports) {
		ports_mode = true;
		parse_ports(ports);
	}
}

static void init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, init_once);
}

/* ---- sockets we converted, by inode ------------------------------------ */

struct sock_id {
	dev_t dev;
	ino_t ino;
};

static struct sock_id *conv;	/* open addressing, ino 0 = empty */
static size_t conv_size, conv_used;

static bool sock_id_of(int fd, struct sock_id *id)
{
	struct stat st;
	int e = errno;

	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		errno = e;
		return false;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return true;
}

static size_t conv_slot(const struct sock_id *id, size_t size)
{
	return (size_t)((uint64_t)id->ino * 0x9e3779b97f4a7c15ull >> 20) &
	       (size - 1);
}

static bool conv_find_locked(const struct sock_id *id)
{
	size_t i;

	if (!conv_size)
		return false;
	for (i = conv_slot(id, conv_size); conv[i].ino;
	     i = (i + 1) & (conv_size - 1)) {
		if (conv[i].ino == id->ino && conv[i].dev == id->dev)
			return true;
	}
	return false;
}

static void conv_put(struct sock_id *tab, size_t size,
		     const struct sock_id *id)
{
	size_t i;

	for (i = conv_slot(id, size); tab[i].ino; i = (i + 1) & (size - 1))
		if (tab[i].ino == id->ino && tab[i].dev == id->dev)
			return;
	tab[i] = *id;
}

/* Remember fd as converted; false if out of memory */
static bool conv_add(int fd)
{
	struct sock_id id;
	bool ok = true;

	if (!sock_id_of(fd, &id))
		return false;
	pthread_mutex_lock(&lock);
	if ((conv_used + 1) * 2 > conv_size) {
		size_t size = conv_size ? conv_size * 2 : 64, i;
		struct sock_id *tab = calloc(size, sizeof(*tab));

		if (!tab) {
			ok = false;
			goto out;
		}
		for (i = 0; i < conv_size; i++)
			if (conv[i].ino)
				conv_put(tab, size, &conv[i]);
		free(conv);
		conv = tab;
		conv_size = size;
	}
	if (!conv_find_locked(&id)) {
		conv_put(conv, conv_size, &id);
		conv_used++;
	}
out:
	pthread_mutex_unlock(&lock);
	return ok;
}

static bool converted(int fd)
{
	struct sock_id id;
	bool found;

	if (!sock_id_of(fd, &id))
		return false;
	pthread_mutex_lock(&lock);
	found = conv_find_locked(&id);
	pthread_mutex_unlock(&lock);
	return found;
}

/* ---- UDP sockets waiting for bind() (WIND_PRELOAD_PORTS) ------------- */

#define MAX_OPTS	32
#define MAX_OPTLEN	64

struct saved_opt {
	int level, name;
	socklen_t len;
	unsigned char val[MAX_OPTLEN];
};

struct pending {
	struct pending *next;
	int fd;
	struct sock_id id;
	int nopts;
	bool overflow;		/* an option we could not keep */
	struct saved_opt opts[MAX_OPTS];
};

static struct pending *pending_list;

/* The record of fd if it still is the socket it was made for; locked */
static struct pending **pending_find_locked(int fd)
{
	struct pending **pp;
	struct sock_id id;

	for (pp = &pending_list; *pp; pp = &(*pp)->next)
		if ((*pp)->fd == fd)
			break;
	if (!*pp)
		return NULL;
	if (!sock_id_of(fd, &id) || id.ino != (*pp)->id.ino ||
	    id.dev != (*pp)->id.dev) {
		struct pending *stale = *pp;	/* fd was closed and reused */

		*pp = stale->next;
		free(stale);
		return NULL;
	}
	return pp;
}

static void pending_add(int fd)
{
	struct pending *p = calloc(1, sizeof(*p)), **pp;

	if (!p || !sock_id_of(fd, &p->id)) {
		free(p);
		debug(TAG "fd %d: cannot track it: it stays UDP", fd);
		return;
	}
	p->fd = fd;
	pthread_mutex_lock(&lock);
	for (pp = &pending_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->fd == fd) {		/* a closed one's record */
			struct pending *old = *pp;

			*pp = old->next;
			free(old);
			break;
		}
	}
	p->next = pending_list;
	pending_list = p;
	pthread_mutex_unlock(&lock);
}

/* ---- UDP appearances on a converted socket --------------------------- */

static int set_int(void *optval, socklen_t *optlen, int v)
{
	socklen_t n = *optlen < sizeof(int) ? *optlen : sizeof(int);

	memcpy(optval, &v, n);
	*optlen = n;
	return 0;
}

static int wind_udp_setsockopt(int fd, int level, int name, const void *val,
			       socklen_t len)
{
	int v = 0, r;

	if (level == IPPROTO_UDP) {
		if (!val || len < sizeof(int)) {
			errno = EINVAL;
			return -1;
		}
		memcpy(&v, val, sizeof(v));
		switch (name) {
		case UDP_GRO:		/* we never coalesce: the truth */
		case UDP_NO_CHECK6_TX:	/* IPv6 only */
		case UDP_NO_CHECK6_RX:
			return 0;
		case UDP_CORK:		/* off is harmless, on is not */
		case UDP_SEGMENT:
			if (!v)
				return 0;
			break;
		}
		errno = ENOPROTOOPT;
		return -1;
	}
	r = real_setsockopt(fd, level, name, val, len);
	if (!r && ((level == SOL_IP && name == IP_RECVERR) ||
		   (level == SOL_IPV6 && name == IPV6_RECVERR)) &&
	    len >= sizeof(int)) {
		memcpy(&v, val, sizeof(v));
		v = !!v;
		r = real_setsockopt(fd, SOL_WIND, WIND_RECVERR, &v, sizeof(v));
	}
	return r;
}

/* ---- conversion ------------------------------------------------------- */

static int wind_socket_like(int domain, int type)
{
	int fd, e;

	fd = real_socket(domain, SOCK_WIND | (type & (SOCK_NONBLOCK | SOCK_CLOEXEC)),
			 IPPROTO_WIND);
	if (fd >= 0)
		return fd;
	e = errno;
	say(TAG "socket(%s, SOCK_WIND, IPPROTO_WIND): %s (is wind.ko installed?)%s",
	    domain == AF_INET6 ? "AF_INET6" : "AF_INET", strerror(e),
	    opt_fallback ? "; WIND_PRELOAD_FALLBACK: UDP instead" : "");
	errno = e;
	return -1;
}

/* At bind(): a Wind socket in place of the UDP socket fd; locked */
static int convert_at_bind(int fd, const struct pending *p,
			   const struct sockaddr *addr, socklen_t len)
{
	struct f_owner_ex owner;
	int w, fl, fdfl, sig, i, e, domain;
	socklen_t dlen = sizeof(domain);

	fl = fcntl(fd, F_GETFL);
	fdfl = fcntl(fd, F_GETFD);
	if (fl < 0 || fdfl < 0 ||
	    real_getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) < 0)
		return -1;
	if (p->overflow) {
		say(TAG "fd %d: too many socket options to carry over to Wind", fd);
		errno = ENOMEM;
		return -1;
	}
	w = wind_socket_like(domain, SOCK_CLOEXEC);
	if (w < 0)
		return -1;
	for (i = 0; i < p->nopts; i++) {
		const struct saved_opt *o = &p->opts[i];

		if (wind_udp_setsockopt(w, o->level, o->name, o->val, o->len)) {
			e = errno;
			say(TAG "fd %d: socket option %d/%d: %s on Wind",
			    fd, o->level, o->name, strerror(e));
			goto fail;
		}
	}
	if (fcntl(fd, F_GETOWN_EX, &owner) == 0 && owner.pid &&
	    fcntl(w, F_SETOWN_EX, &owner) < 0)
		goto fail_errno;
	sig = fcntl(fd, F_GETSIG);
	if (sig > 0 && fcntl(w, F_SETSIG, sig) < 0)
		goto fail_errno;
	if (fcntl(w, F_SETFL, fl & (O_NONBLOCK | O_ASYNC)) < 0)
		goto fail_errno;
	if (real_bind(w, addr, len) < 0)
		goto fail_errno;
	if (dup3(w, fd, (fdfl & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0)
		goto fail_errno;
	close(w);
	return 0;
fail_errno:
	e = errno;
fail:
	close(w);
	errno = e;
	return -1;
}

/* ---- the interposed calls --------------------------------------------- */

static bool is_udp(int domain, int type, int protocol)
{
	return (domain == AF_INET || domain == AF_INET6) &&
	       (type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) == SOCK_DGRAM &&
	       (protocol == 0 || protocol == IPPROTO_UDP);
}

EXPORT int socket(int domain, int type, int protocol)
{
	int fd;

	init();
	if (!is_udp(domain, type, protocol))
		return real_socket(domain, type, protocol);
	if (ports_mode) {
		fd = real_socket(domain, type, protocol);
		if (fd >= 0)
			pending_add(fd);
		return fd;
	}
	fd = wind_socket_like(domain, type);
	if (fd < 0) {
		if (opt_fallback)
			return real_socket(domain, type, protocol);
		return -1;
	}
	if (!conv_add(fd))
		debug(TAG "fd %d: out of memory: it will look like Wind", fd);
	debug(TAG "fd %d: %s UDP socket created as Wind", fd,
	      domain == AF_INET6 ? "AF_INET6" : "AF_INET");
	return fd;
}

/* The port of an AF_INET or AF_INET6 address (host order), or -1 */
static int addr_port(const struct sockaddr *addr, socklen_t len)
{
	if (!addr || len < sizeof(sa_family_t))
		return -1;
	if (addr->sa_family == AF_INET && len >= sizeof(struct sockaddr_in))
		return ntohs(((const struct sockaddr_in *)addr)->sin_port);
	if (addr->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		return ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
	return -1;
}

EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct pending **pp, *p;
	int r, port;

	init();
	if (!ports_mode)
		return real_bind(fd, addr, len);
	pthread_mutex_lock(&lock);
	pp = pending_find_locked(fd);
	if (!pp) {
		pthread_mutex_unlock(&lock);
		return real_bind(fd, addr, len);
	}
	p = *pp;
	port = addr_port(addr, len);
	if (port < 0 || !port_listed(port)) {
		*pp = p->next;		/* it stays UDP */
		free(p);
		pthread_mutex_unlock(&lock);
		return real_bind(fd, addr, len);
	}
	r = convert_at_bind(fd, p, addr, len);
	if (r < 0 && opt_fallback && errno != EADDRINUSE &&
	    errno != EADDRNOTAVAIL && errno != EACCES) {
		*pp = p->next;
		free(p);
		pthread_mutex_unlock(&lock);
		return real_bind(fd, addr, len);
	}
	if (r == 0) {
		*pp = p->next;
		free(p);
	}
	pthread_mutex_unlock(&lock);
	if (r == 0) {
		if (!conv_add(fd))
			debug(TAG "fd %d: out of memory: it will look like Wind", fd);
		debug(TAG "fd %d: UDP socket turned into Wind at bind() to port %d",
		      fd, port);
	}
	return r;
}

EXPORT int setsockopt(int fd, int level, int name, const void *val,
		      socklen_t len)
{
	struct pending **pp;
	int r;

	init();
	if (ports_mode) {
		pthread_mutex_lock(&lock);
		pp = pending_find_locked(fd);
		if (pp) {
			struct pending *p = *pp;

			r = real_setsockopt(fd, level, name, val, len);
			if (!r) {
				if (p->nopts < MAX_OPTS && len <= MAX_OPTLEN &&
				    (val || !len)) {
					struct saved_opt *o = &p->opts[p->nopts++];

					o->level = level;
					o->name = name;
					o->len = len;
					if (len)
						memcpy(o->val, val, len);
				} else {
					p->overflow = true;
				}
			}
			pthread_mutex_unlock(&lock);
			return r;
		}
		pthread_mutex_unlock(&lock);
	}
	if (converted(fd))
		return wind_udp_setsockopt(fd, level, name, val, len);
	return real_setsockopt(fd, level, name, val, len);
}

EXPORT int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	int r, v;

	init();
	if (level == IPPROTO_UDP && converted(fd)) {
		if (!val || !len) {
			errno = EFAULT;
			return -1;
		}
		switch (name) {
		case UDP_GRO:
		case UDP_NO_CHECK6_TX:
		case UDP_NO_CHECK6_RX:
		case UDP_CORK:
		case UDP_SEGMENT:
			return set_int(val, len, 0);
		}
		errno = ENOPROTOOPT;
		return -1;
	}
	r = real_getsockopt(fd, level, name, val, len);
	if (r || level != SOL_SOCKET || (name != SO_TYPE && name != SO_PROTOCOL) ||
	    *len != sizeof(int))
		return r;
	memcpy(&v, val, sizeof(v));
	if ((name == SO_TYPE && v == SOCK_WIND) ||
	    (name == SO_PROTOCOL && v == IPPROTO_WIND)) {
		if (converted(fd))
			set_int(val, len, name == SO_TYPE ? SOCK_DGRAM : IPPROTO_UDP);
	}
	return r;
}

/*
 * UDP's MSG_MORE appends to one datagram; Wind's sends a message of its
 * own that may share a packet (wind(7), WIND_CORK).  A UDP program that
 * asks for UDP's meaning gets EOPNOTSUPP, as before Wind knew the flag,
 * rather than its datagram in pieces.  Looked up only when the flag is set.
 */
static bool udp_more(int fd, int flags)
{
	if (!(flags & MSG_MORE) || !converted(fd))
		return false;
	errno = EOPNOTSUPP;
	return true;
}

EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	init();
	if (udp_more(fd, flags))
		return -1;
	return real_send(fd, buf, len, flags);
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen)
{
	init();
	if (udp_more(fd, flags))
		return -1;
	return real_sendto(fd, buf, len, flags, to, tolen);
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	init();
	if (udp_more(fd, flags))
		return -1;
	return real_sendmsg(fd, msg, flags);
}

EXPORT int sendmmsg(int fd, struct mmsghdr *vec, unsigned int n, int flags)
{
	init();
	if (udp_more(fd, flags))
		return -1;
	return real_sendmmsg(fd, vec, n, flags);
}
