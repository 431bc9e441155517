// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libwind: the socket helpers.  Each one is a single system call (two for
 * wind_socket() with WIND_SOCK_BIND) and adds nothing to the protocol.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/errqueue.h>

#include "libwind.h"
#include "internal.h"

WIND_EXPORT int wind_socket(int flags)
{
	int fd;

	if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC | WIND_SOCK_BIND)) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(AF_INET, SOCK_WIND | (flags & (SOCK_NONBLOCK | SOCK_CLOEXEC)),
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

WIND_EXPORT int wind_bind(int fd, uint16_t port)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_ANY);
	sin.sin_port = htons(port);
	return bind(fd, (struct sockaddr *)&sin, sizeof(sin));
}

WIND_EXPORT int wind_port(int fd)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	if (getsockname(fd, (struct sockaddr *)&sin, &len) < 0)
		return -1;
	if (len < sizeof(sin) || sin.sin_family != AF_INET) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return ntohs(sin.sin_port);
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

WIND_EXPORT ssize_t wind_send(int fd, const struct sockaddr_in *dst,
			      const void *buf, size_t len,
			      enum wind_msgtype type)
{
	int flags = type_flags(type);

	if (flags < 0) {
		errno = EINVAL;
		return -1;
	}
	return sendto(fd, buf, len, flags, (const struct sockaddr *)dst,
		      dst ? sizeof(*dst) : 0);
}

WIND_EXPORT ssize_t wind_send_dsm(int fd, const struct sockaddr_in *dst,
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
		.msg_namelen = dst ? sizeof(*dst) : 0,
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

WIND_EXPORT ssize_t wind_recv(int fd, void *buf, size_t len,
			      struct sockaddr_in *from, struct wind_dsm *dsm)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_dsm)) + 256];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct sockaddr_in sin;
	struct msghdr msg = {
		.msg_name = &sin,
		.msg_namelen = sizeof(sin),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	memset(&sin, 0, sizeof(sin));
	n = recvmsg(fd, &msg, MSG_TRUNC);
	if (n < 0)
		return -1;
	if (from) {
		memset(from, 0, sizeof(*from));
		memcpy(from, &sin, msg.msg_namelen < sizeof(sin) ?
		       msg.msg_namelen : sizeof(sin));
	}
	if (!dsm)
		return n;
	memset(dsm, 0, sizeof(*dsm));
	dsm->mode = WIND_DSM_MESSAGE_THROUGH;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level == SOL_WIND &&
		    cmsg->cmsg_type == WIND_CMSG_DSM &&
		    cmsg->cmsg_len >= CMSG_LEN(sizeof(*dsm)))
			memcpy(dsm, CMSG_DATA(cmsg), sizeof(*dsm));
	}
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

WIND_EXPORT int wind_peer_info(int fd, const struct sockaddr_in *peer,
			       struct wind_peer_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	memcpy(&info->wpi_addr, peer, sizeof(*peer));
	return getsockopt(fd, SOL_WIND, WIND_PEER_INFO, info, &len);
}

WIND_EXPORT int wind_set_recverr(int fd, int on)
{
	int v = !!on;

	return setsockopt(fd, SOL_WIND, WIND_RECVERR, &v, sizeof(v));
}

WIND_EXPORT int wind_recv_error(int fd, struct wind_error *out)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in)) + 256];
		struct cmsghdr align;
	} control;
	struct sockaddr_in sin;
	char dummy;
	struct iovec iov = { .iov_base = &dummy, .iov_len = sizeof(dummy) };
	struct msghdr msg = {
		.msg_name = &sin,
		.msg_namelen = sizeof(sin),
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
	memset(&sin, 0, sizeof(sin));
	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -1;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		struct sock_extended_err ee;
		size_t have;

		if (cmsg->cmsg_level != SOL_IP || cmsg->cmsg_type != IP_RECVERR ||
		    cmsg->cmsg_len < CMSG_LEN(sizeof(ee)))
			continue;
		memcpy(&ee, CMSG_DATA(cmsg), sizeof(ee));
		memset(out, 0, sizeof(*out));
		out->error = (int)ee.ee_errno;
		out->lost = ee.ee_info;
		out->origin = ee.ee_origin;
		have = cmsg->cmsg_len - CMSG_LEN(sizeof(ee));
		if (have >= sizeof(out->peer))
			memcpy(&out->peer, CMSG_DATA(cmsg) + sizeof(ee),
			       sizeof(out->peer));
		else if (msg.msg_namelen >= sizeof(sin))
			out->peer = sin;
		return 0;
	}
	/* A report without its control message: nothing to tell */
	errno = EPROTO;
	return -1;
}
