/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libwind: thin helpers over the Wind socket API (see wind(7), libwind(3)).
 *
 * Everything here is a few lines over socket(), bind(), sendmsg(),
 * recvmsg() and setsockopt(); a program can always do the same by hand
 * with <linux/wind.h>.  Socket helpers return like the calls they wrap:
 * -1 with errno set on failure.  The diff codec is pure computation.
 */
#ifndef LIBWIND_H
#define LIBWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <linux/wind.h>

#ifdef __cplusplus
extern "C" {
#endif

/* wind_socket() flag: bind to INADDR_ANY and an ephemeral port at once */
#define WIND_SOCK_BIND		0x1

/*
 * socket(AF_INET, SOCK_WIND, IPPROTO_WIND).  flags: SOCK_NONBLOCK,
 * SOCK_CLOEXEC (passed to socket()) and WIND_SOCK_BIND.  Returns the fd.
 */
int wind_socket(int flags);

/* bind(fd) to INADDR_ANY:port (host byte order; 0: ephemeral) */
int wind_bind(int fd, uint16_t port);

/* The port fd is bound to (host byte order), or -1 */
int wind_port(int fd);

/*
 * Send one message of the given type to dst (NULL: the connect()ed
 * peer).  WIND_ASYNC_RELIABLE and WIND_SYNC_ORDERED add MSG_WIND_RELIABLE
 * and MSG_WIND_SYNC; WIND_ASYNC_ORDERED adds no flag, so the socket's
 * default type applies (async-ordered unless wind_set_msgtype() changed
 * it).  Returns len or -1.
 */
ssize_t wind_send(int fd, const struct sockaddr_in *dst, const void *buf,
		  size_t len, enum wind_msgtype type);

/*
 * Send one S-DSM message: hdr (hdr_len bytes, the DSM header) followed by
 * data (data_len bytes), with a SOL_WIND/WIND_CMSG_DSM control message
 * made of *dsm whose hdr_len is set to hdr_len and data_len to 0.  The
 * socket's default type applies.  Returns hdr_len + data_len or -1.
 */
ssize_t wind_send_dsm(int fd, const struct sockaddr_in *dst,
		      const void *hdr, size_t hdr_len,
		      const void *data, size_t data_len,
		      const struct wind_dsm *dsm);

/*
 * Receive one message into buf.  from (may be NULL) gets the sender.
 * dsm (may be NULL) gets the WIND_CMSG_DSM that came with it, or, for an
 * ordinary message, mode WIND_DSM_MESSAGE_THROUGH and all other fields 0.
 * Returns the whole length of the message, which is more than len when
 * it was truncated (as recv() with MSG_TRUNC), or -1.
 */
ssize_t wind_recv(int fd, void *buf, size_t len, struct sockaddr_in *from,
		  struct wind_dsm *dsm);

/* WIND_REGION_ADD / WIND_REGION_DEL */
int wind_region_add(int fd, void *addr, size_t len, uint32_t id,
		    uint64_t key);
int wind_region_del(int fd, uint32_t id);

/* WIND_MSGTYPE: the socket's default message type */
int wind_set_msgtype(int fd, enum wind_msgtype type);
/* The socket's default message type, or -1 */
int wind_get_msgtype(int fd);

/*
 * WIND_PEER_INFO: the socket's state for peer into *info (zeroed first;
 * the peer's address is put in info->wpi_addr).  Returns 0, or -1 with
 * errno ENOENT when the socket has no state for that peer.  Fields past
 * info->wpi_size were not filled by an older kernel.
 */
int wind_peer_info(int fd, const struct sockaddr_in *peer,
		   struct wind_peer_info *info);
/* WIND_RECVERR: queue each failure on the error queue (on != 0) */
int wind_set_recverr(int fd, int on);

/* One failure report from the error queue */
struct wind_error {
	int error;			/* ee_errno: ETIMEDOUT, ECONNREFUSED ... */
	uint32_t lost;			/* ee_info: messages lost */
	uint8_t origin;			/* ee_origin: SO_EE_ORIGIN_WIND */
	struct sockaddr_in peer;	/* the offender: the peer */
};

/*
 * Take one report off the error queue (recvmsg(MSG_ERRQUEUE), never
 * blocks).  Returns 0, or -1 with errno EAGAIN when the queue is empty.
 */
int wind_recv_error(int fd, struct wind_error *out);

/*
 * The diff codec of WIND_DSM_DIRECT_DIFF / WIND_DSM_HEADER_DIFF.
 *
 * A diff is a sequence of runs, each a struct wind_diff_run { __u32 off;
 * __u32 len; } in HOST byte order (the sender and the receiver of S-DSM
 * traffic share an architecture) followed by len bytes, with no padding
 * between runs.  off is relative to the start of the page (on the wire:
 * to wind_dsm.offset).  Runs are in increasing order of off and never
 * overlap.
 *
 * wind_diff_encode() compares page (the current contents) with twin (the
 * copy taken before writing) over len bytes and writes to out the runs
 * where they differ, taking unchanged gaps shorter than a run header into
 * the surrounding run.  out needs WIND_DIFF_MAX(len) bytes.  Returns the
 * size of the diff, 0 when the pages are identical, or (size_t)-1 with
 * errno EINVAL when len does not fit a __u32.
 */
#define WIND_DIFF_MAX(len)	((len) + sizeof(struct wind_diff_run))

size_t wind_diff_encode(const void *page, const void *twin, size_t len,
			void *out);

/*
 * Apply a diff to page (len bytes), as the receiving kernel does.  Every
 * run is checked (a whole header, off + len within the page without 32-bit
 * wrap-around, its data present) before anything is written: on a
 * malformed diff the page is untouched and -EINVAL is returned (errno
 * EINVAL).  Returns 0 on success.  Like the kernel, it accepts an empty
 * diff, empty runs, and runs out of order or overlapping (applied in
 * turn), which the encoder never produces.
 */
int wind_diff_apply(void *page, size_t len, const void *diff,
		    size_t diff_len);

#ifdef __cplusplus
}
#endif

#endif /* LIBWIND_H */
