// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libwind: the socket helpers.  Each one is a single system call (two for
 * wind_socket() with WIND_SOCK_BIND) and adds nothing to the protocol.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/errqueue.h>

#include "libwind.h"
#include "internal.h"

WIND_EXPORT int wind_socket_af(int family, int flags)
{
	int fd;

	if (family != AF_INET && family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC | WIND_SOCK_BIND)) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(family, SOCK_WIND | (flags & (SOCK_NONBLOCK | SOCK_CLOEXEC)),
		    IPPROTO_WIND);
	if (fd < 0)
		return -1;
	if ((flags & WIND_SOCK_BIND) && wind_bind(fd, 0) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

WIND_EXPORT int wind_socket(int flags)
{
	return wind_socket_af(AF_INET, flags);
}

/* The socket's family (SO_DOMAIN), or -1 */
static int sock_family(int fd)
{
	socklen_t len = sizeof(int);
	int family;

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &family, &len) < 0)
		return -1;
	return family;
}

WIND_EXPORT int wind_bind(int fd, uint16_t port)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	if (sock_family(fd) == AF_INET6) {
		memset(&sin6, 0, sizeof(sin6));
		sin6.sin6_family = AF_INET6;
		sin6.sin6_addr = in6addr_any;
		sin6.sin6_port = htons(port);
		return bind(fd, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_ANY);
	sin.sin_port = htons(port);
	return bind(fd, (struct sockaddr *)&sin, sizeof(sin));
}

WIND_EXPORT int wind_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -1;
	if (ss.ss_family == AF_INET && len >= sizeof(struct sockaddr_in))
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	errno = EAFNOSUPPORT;
	return -1;
}

WIND_EXPORT int wind_sockaddr(const char *addr, uint16_t port,
			      struct sockaddr_storage *out)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;
	struct sockaddr_in *sin = (struct sockaddr_in *)out;
	char host[INET6_ADDRSTRLEN];
	const char *scope;
	size_t n;

	if (!addr || !out) {
		errno = EINVAL;
		return -1;
	}
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return sizeof(*sin);
	}
	scope = strchr(addr, '%');
	n = scope ? (size_t)(scope - addr) : strlen(addr);
	if (n >= sizeof(host))
		goto inval;
	memcpy(host, addr, n);
	host[n] = '\0';
	if (inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1)
		goto inval;
	if (scope) {
		char *end;
		unsigned long idx;

		scope++;
		errno = 0;
		idx = strtoul(scope, &end, 10);
		if (!*scope)
			goto inval;
		if (*end || errno || idx > UINT32_MAX) {
			idx = if_nametoindex(scope);
			if (!idx) {
				memset(out, 0, sizeof(*out));
				errno = ENODEV;
				return -1;
			}
		}
		sin6->sin6_scope_id = (uint32_t)idx;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	return sizeof(*sin6);
inval:
	memset(out, 0, sizeof(*out));
	errno = EINVAL;
	return -1;
}

/*
 * What recvmsg() put in ss (len bytes) as a struct sockaddr_in for the
 * calls of the IPv4 era: an AF_INET address as it is, a v4-mapped one
 * unmapped; an IPv6 one, which a sockaddr_in cannot hold, as sin_family
 * AF_INET6 with its port and nothing else.
 */
static void to_sin(const struct sockaddr_storage *ss, socklen_t len,
		   struct sockaddr_in *sin)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	memset(sin, 0, sizeof(*sin));
	if (ss->ss_family == AF_INET && len >= sizeof(*sin)) {
		memcpy(sin, ss, sizeof(*sin));
	} else if (ss->ss_family == AF_INET6 && len >= sizeof(*sin6)) {
		sin->sin_port = sin6->sin6_port;
		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			sin->sin_family = AF_INET;
			memcpy(&sin->sin_addr, &sin6->sin6_addr.s6_addr[12], 4);
		} else {
			sin->sin_family = AF_INET6;
		}
	}
}

static int type_flags(enum wind_msgtype type)
{
	switch (type) {
	case WIND_ASYNC_ORDERED:
		return 0;
	case WIND_ASYNC_RELIABLE:
		return MSG_WIND_RELIABLE;
	case WIND_SYNC_ORDERED:
		return MSG_WIND_SYNC;
	}
	return -1;
}

WIND_EXPORT ssize_t wind_sendto(int fd, const struct sockaddr *dst,
				socklen_t dstlen, const void *buf, size_t len,
				enum wind_msgtype type)
{
	int flags = type_flags(type);

	if (flags < 0) {
		errno = EINVAL;
		return -1;
	}
	return sendto(fd, buf, len, flags, dst, dst ? dstlen : 0);
}

WIND_EXPORT ssize_t wind_send(int fd, const struct sockaddr_in *dst,
			      const void *buf, size_t len,
			      enum wind_msgtype type)
{
	return wind_sendto(fd, (const struct sockaddr *)dst, sizeof(*dst), buf,
			   len, type);
}

WIND_EXPORT ssize_t wind_sendto_dsm(int fd, const struct sockaddr *dst,
				    socklen_t dstlen,
				    const void *hdr, size_t hdr_len,
				    const void *data, size_t data_len,
				    const struct wind_dsm *dsm)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_dsm))];
		struct cmsghdr align;
	} control;
	struct iovec iov[2] = {
		{ .iov_base = (void *)hdr, .iov_len = hdr_len },
		{ .iov_base = (void *)data, .iov_len = data_len },
	};
	struct msghdr msg = {
		.msg_name = (void *)dst,
		.msg_namelen = dst ? dstlen : 0,
		.msg_iov = iov,
		.msg_iovlen = 2,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct wind_dsm d;
	struct cmsghdr *cmsg;

	if (!dsm || hdr_len > UINT32_MAX || (hdr_len && !hdr) ||
	    (data_len && !data)) {
		errno = EINVAL;
		return -1;
	}
	d = *dsm;
	d.hdr_len = (__u32)hdr_len;
	d.data_len = 0;
	memset(&control, 0, sizeof(control));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_WIND;
	cmsg->cmsg_type = WIND_CMSG_DSM;
	cmsg->cmsg_len = CMSG_LEN(sizeof(d));
	memcpy(CMSG_DATA(cmsg), &d, sizeof(d));
	return sendmsg(fd, &msg, 0);
}

WIND_EXPORT ssize_t wind_send_dsm(int fd, const struct sockaddr_in *dst,
				  const void *hdr, size_t hdr_len,
				  const void *data, size_t data_len,
				  const struct wind_dsm *dsm)
{
	return wind_sendto_dsm(fd, (const struct sockaddr *)dst, sizeof(*dst),
			       hdr, hdr_len, data, data_len, dsm);
}

WIND_EXPORT ssize_t wind_recvfrom_rma(int fd, void *buf, size_t len,
				      struct sockaddr *from, socklen_t *fromlen,
				      struct wind_dsm *dsm, struct wind_rma *rma)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_rma)) + 256];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct sockaddr_storage ss;
	struct msghdr msg = {
		.msg_name = &ss,
		.msg_namelen = sizeof(ss),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	if (from && !fromlen) {
		errno = EINVAL;
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	n = recvmsg(fd, &msg, MSG_TRUNC);
	if (n < 0)
		return -1;
	if (from) {
		memcpy(from, &ss, msg.msg_namelen < *fromlen ?
		       msg.msg_namelen : *fromlen);
		*fromlen = msg.msg_namelen;
	} else if (fromlen) {
		*fromlen = msg.msg_namelen;
	}
	if (dsm) {
		memset(dsm, 0, sizeof(*dsm));
		dsm->mode = WIND_DSM_MESSAGE_THROUGH;
	}
	if (rma)
		memset(rma, 0, sizeof(*rma));
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_WIND)
			continue;
		if (dsm && cmsg->cmsg_type == WIND_CMSG_DSM &&
		    cmsg->cmsg_len >= CMSG_LEN(sizeof(*dsm)))
			memcpy(dsm, CMSG_DATA(cmsg), sizeof(*dsm));
		if (rma && cmsg->cmsg_type == WIND_CMSG_RMA &&
		    cmsg->cmsg_len >= CMSG_LEN(sizeof(*rma)))
			memcpy(rma, CMSG_DATA(cmsg), sizeof(*rma));
	}
	return n;
}

WIND_EXPORT ssize_t wind_recvfrom(int fd, void *buf, size_t len,
				  struct sockaddr *from, socklen_t *fromlen,
				  struct wind_dsm *dsm)
{
	return wind_recvfrom_rma(fd, buf, len, from, fromlen, dsm, NULL);
}

WIND_EXPORT int wind_rma_post(int fd, const struct sockaddr *dst,
			      socklen_t dstlen, const struct wind_rma *req,
			      int flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_rma))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = {
		.msg_name = (void *)dst,
		.msg_namelen = dst ? dstlen : 0,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;

	if (!req) {
		errno = EINVAL;
		return -1;
	}
	memset(&control, 0, sizeof(control));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_WIND;
	cmsg->cmsg_type = WIND_CMSG_RMA;
	cmsg->cmsg_len = CMSG_LEN(sizeof(*req));
	memcpy(CMSG_DATA(cmsg), req, sizeof(*req));
	return sendmsg(fd, &msg, flags) < 0 ? -1 : 0;
}

WIND_EXPORT ssize_t wind_recv(int fd, void *buf, size_t len,
			      struct sockaddr_in *from, struct wind_dsm *dsm)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	ssize_t n;

	memset(&ss, 0, sizeof(ss));
	n = wind_recvfrom(fd, buf, len, (struct sockaddr *)&ss, &sslen, dsm);
	if (n >= 0 && from)
		to_sin(&ss, sslen, from);
	return n;
}

WIND_EXPORT int wind_region_add(int fd, void *addr, size_t len, uint32_t id,
				uint64_t key)
{
	struct wind_region r;

	memset(&r, 0, sizeof(r));
	r.addr = (__u64)(uintptr_t)addr;
	r.len = len;
	r.id = id;
	r.flags = 0;
	r.key = key;
	return setsockopt(fd, SOL_WIND, WIND_REGION_ADD, &r, sizeof(r));
}

WIND_EXPORT int wind_region_del(int fd, uint32_t id)
{
	__u32 v = id;

	return setsockopt(fd, SOL_WIND, WIND_REGION_DEL, &v, sizeof(v));
}

WIND_EXPORT int wind_set_msgtype(int fd, enum wind_msgtype type)
{
	int v = type;

	return setsockopt(fd, SOL_WIND, WIND_MSGTYPE, &v, sizeof(v));
}

WIND_EXPORT int wind_get_msgtype(int fd)
{
	socklen_t len = sizeof(int);
	int v;

	if (getsockopt(fd, SOL_WIND, WIND_MSGTYPE, &v, &len) < 0)
		return -1;
	return v;
}

WIND_EXPORT int wind_peer_info_addr(int fd, const struct sockaddr *peer,
				    socklen_t peerlen,
				    struct wind_peer_info *info)
{
	socklen_t len = sizeof(*info);

	if (!peer || !info || peerlen > sizeof(info->wpi_addr)) {
		errno = EINVAL;
		return -1;
	}
	memset(info, 0, sizeof(*info));
	memcpy(&info->wpi_addr, peer, peerlen);
	return getsockopt(fd, SOL_WIND, WIND_PEER_INFO, info, &len);
}

WIND_EXPORT int wind_peer_info(int fd, const struct sockaddr_in *peer,
			       struct wind_peer_info *info)
{
	return wind_peer_info_addr(fd, (const struct sockaddr *)peer,
				   sizeof(*peer), info);
}

WIND_EXPORT int wind_set_recverr(int fd, int on)
{
	int v = !!on;

	return setsockopt(fd, SOL_WIND, WIND_RECVERR, &v, sizeof(v));
}

WIND_EXPORT int wind_recv_error_addr(int fd, struct wind_error_addr *out)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in6)) + 256];
		struct cmsghdr align;
	} control;
	struct sockaddr_storage ss;
	char dummy;
	struct iovec iov = { .iov_base = &dummy, .iov_len = sizeof(dummy) };
	struct msghdr msg = {
		.msg_name = &ss,
		.msg_namelen = sizeof(ss),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -1;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		struct sock_extended_err ee;
		size_t have;

		/* IPv4's report, or an AF_INET6 socket's */
		if (!((cmsg->cmsg_level == SOL_IP && cmsg->cmsg_type == IP_RECVERR) ||
		      (cmsg->cmsg_level == SOL_IPV6 &&
		       cmsg->cmsg_type == IPV6_RECVERR)) ||
		    cmsg->cmsg_len < CMSG_LEN(sizeof(ee)))
			continue;
		memcpy(&ee, CMSG_DATA(cmsg), sizeof(ee));
		memset(out, 0, sizeof(*out));
		out->error = (int)ee.ee_errno;
		out->lost = ee.ee_info;
		out->origin = ee.ee_origin;
		/* the offender follows ee; else it is the message's name */
		have = cmsg->cmsg_len - CMSG_LEN(sizeof(ee));
		if (have > sizeof(out->peer))
			have = sizeof(out->peer);
		if (have >= sizeof(struct sockaddr_in)) {
			memcpy(&out->peer, CMSG_DATA(cmsg) + sizeof(ee), have);
			out->peer_len = have;
		} else if (msg.msg_namelen >= sizeof(struct sockaddr_in)) {
			have = msg.msg_namelen < sizeof(ss) ? msg.msg_namelen :
							      sizeof(ss);
			memcpy(&out->peer, &ss, have);
			out->peer_len = have;
		}
		if (out->peer.ss_family == AF_INET6 &&
		    out->peer_len < sizeof(struct sockaddr_in6)) {
			memset(&out->peer, 0, sizeof(out->peer));
			out->peer_len = 0;	/* half an address: none */
		}
		return 0;
	}
	/* A report without its control message: nothing to tell */
	errno = EPROTO;
	return -1;
}

WIND_EXPORT int wind_recv_error(int fd, struct wind_error *out)
{
	struct wind_error_addr e;

	if (!out) {
		errno = EINVAL;
		return -1;
	}
	if (wind_recv_error_addr(fd, &e) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	out->error = e.error;
	out->lost = e.lost;
	out->origin = e.origin;
	to_sin(&e.peer, e.peer_len, &out->peer);
	return 0;
}
