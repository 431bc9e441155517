// SPDX-License-Identifier: GPL-2.0
/* tp over wind: the Wind sends the S-DSM and dsmbench share (see tp.h) */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "tp-internal.h"

static void count(_Atomic uint64_t *syscalls)
{
	if (syscalls)
		atomic_fetch_add_explicit(syscalls, 1, memory_order_relaxed);
}

ssize_t tp_wind_send_dsm(int fd, const void *dst, socklen_t dst_len,
			 const void *hdr, size_t hdr_len,
			 const void *data, size_t data_len,
			 const struct wind_dsm *d, int flags)
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
		.msg_namelen = dst_len,
		.msg_iov = hdr_len ? iov : iov + 1,
		.msg_iovlen = hdr_len ? 2 : 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct wind_dsm c = *d;
	struct cmsghdr *cmsg;
	ssize_t r;

	c.hdr_len = (uint32_t)hdr_len;
	memset(&control, 0, sizeof(control));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_WIND;
	cmsg->cmsg_type = WIND_CMSG_DSM;
	cmsg->cmsg_len = CMSG_LEN(sizeof(c));
	memcpy(CMSG_DATA(cmsg), &c, sizeof(c));
	while ((r = sendmsg(fd, &msg, flags)) < 0 && errno == EINTR)
		;
	return r;
}

int tp_wind_reach(int fd, const void *dst, socklen_t dst_len,
		  const void *buf, size_t len, int timeout_ms,
		  _Atomic uint64_t *syscalls)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct timespec ts = { 0, 100 * 1000000L };

	for (;;) {
		int e, pending;
		socklen_t pl = sizeof(pending);

		count(syscalls);
		if (sendto(fd, buf, len, MSG_WIND_SYNC, dst, dst_len) >= 0)
			break;
		e = errno;
		if (e != ECONNREFUSED && e != ETIMEDOUT && e != ECONNRESET &&
		    e != EHOSTUNREACH && e != ENETUNREACH && e != EINTR &&
		    e != EAGAIN)
			return -1;
		/* the refusal is history: no SO_ERROR left for later sends */
		count(syscalls);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &pl);
		if (now_ns() > end) {
			errno = e;
			return -2;
		}
		count(syscalls);
		nanosleep(&ts, NULL);
		errno = e;
	}
	return 0;
}
