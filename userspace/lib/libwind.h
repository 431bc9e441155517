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
#include <sys/socket.h>
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

/*
 * socket(family, SOCK_WIND, IPPROTO_WIND) for family AF_INET or AF_INET6
 * (dual stack unless IPV6_V6ONLY is set before binding); flags as for
 * wind_socket(), WIND_SOCK_BIND binding to the family's wildcard address.
 * Another family: EAFNOSUPPORT.  (LIBWIND_0.1)
 */
int wind_socket_af(int family, int flags);

/*
 * bind(fd) to the wildcard address and port (host byte order; 0:
 * ephemeral): INADDR_ANY, or in6addr_any for an AF_INET6 socket
 */
int wind_bind(int fd, uint16_t port);

/* The port fd (AF_INET or AF_INET6) is bound to (host byte order), or -1 */
int wind_port(int fd);

/*
 * Build the address of a peer from the numeric text addr ("10.0.0.2",
 * "fd00::2", "fe80::1%eth0" or "fe80::1%2" with its interface) and port
 * (host byte order): a struct sockaddr_in or sockaddr_in6 in *out.
 * Returns its length, or -1 with errno EINVAL (not a numeric address)
 * or ENODEV (no such interface).  (LIBWIND_0.1)
 */
int wind_sockaddr(const char *addr, uint16_t port,
		  struct sockaddr_storage *out);

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
 * wind_send() to any address: dst (dstlen bytes) a sockaddr_in or, on an
 * AF_INET6 socket, a sockaddr_in6 (NULL: the connect()ed peer).
 * (LIBWIND_0.1)
 */
ssize_t wind_sendto(int fd, const struct sockaddr *dst, socklen_t dstlen,
		    const void *buf, size_t len, enum wind_msgtype type);

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
/* wind_send_dsm() to any address, as wind_sendto() (LIBWIND_0.1) */
ssize_t wind_sendto_dsm(int fd, const struct sockaddr *dst, socklen_t dstlen,
			const void *hdr, size_t hdr_len,
			const void *data, size_t data_len,
			const struct wind_dsm *dsm);

/*
 * Receive one message into buf.  from (may be NULL) gets the sender.
 * dsm (may be NULL) gets the WIND_CMSG_DSM that came with it, or, for an
 * ordinary message, mode WIND_DSM_MESSAGE_THROUGH and all other fields 0.
 * Returns the whole length of the message, which is more than len when
 * it was truncated (as recv() with MSG_TRUNC), or -1.
 * On an AF_INET6 socket an IPv4 sender (v4-mapped) comes as AF_INET; an
 * IPv6 one, which a sockaddr_in cannot hold, as sin_family AF_INET6 with
 * its port and no address: wind_recvfrom() gives it whole.
 */
ssize_t wind_recv(int fd, void *buf, size_t len, struct sockaddr_in *from,
		  struct wind_dsm *dsm);

/*
 * wind_recv() with the sender of any family: as recvfrom(), from (may be
 * NULL) gets up to *fromlen bytes of it (a struct sockaddr_storage holds
 * any) and *fromlen its whole length.  (LIBWIND_0.1)
 */
ssize_t wind_recvfrom(int fd, void *buf, size_t len, struct sockaddr *from,
		      socklen_t *fromlen, struct wind_dsm *dsm);

/*
 * One-sided operations (LIBWIND_0.2): post *req (struct wind_rma: a read
 * or an atomic on dst's registered region) as a sendmsg() with no payload
 * and a WIND_CMSG_RMA, flags as for sendmsg() (MSG_WIND_SYNC returns
 * once the peer served it, or fails with its refusal: EACCES, ERANGE,
 * EINVAL, ENOBUFS, EMSGSIZE, EBUSY).  Its completion is a message from
 * dst: wind_recvfrom_rma() returns it, the bytes read or the old value
 * in buf (nothing with WIND_RMA_F_LAND: they are in the caller's region)
 * and the completion in *rma.  Returns 0 or -1.
 */
int wind_rma_post(int fd, const struct sockaddr *dst, socklen_t dstlen,
		  const struct wind_rma *req, int flags);
/*
 * wind_recvfrom() that also tells a one-sided completion: *rma (may be
 * NULL) gets it, or op 0 for any other message.
 */
ssize_t wind_recvfrom_rma(int fd, void *buf, size_t len,
			  struct sockaddr *from, socklen_t *fromlen,
			  struct wind_dsm *dsm, struct wind_rma *rma);

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
/*
 * wind_peer_info() for a peer of any family: peer (peerlen bytes, at most
 * sizeof(info->wpi_addr), else EINVAL) a sockaddr_in or, on an AF_INET6
 * socket, a sockaddr_in6.  (LIBWIND_0.1)
 */
int wind_peer_info_addr(int fd, const struct sockaddr *peer,
			socklen_t peerlen, struct wind_peer_info *info);
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
 * On an AF_INET6 socket an IPv4 peer (v4-mapped) comes as AF_INET; an
 * IPv6 one as sin_family AF_INET6 with its port and no address:
 * wind_recv_error_addr() gives it whole.
 */
int wind_recv_error(int fd, struct wind_error *out);

/* A failure report with the peer of any family (LIBWIND_0.1) */
struct wind_error_addr {
	int error;			/* ee_errno: ETIMEDOUT, ECONNREFUSED ... */
	uint32_t lost;			/* ee_info: messages lost */
	uint8_t origin;			/* ee_origin: SO_EE_ORIGIN_WIND */
	socklen_t peer_len;		/* bytes of peer: 0 if none came */
	struct sockaddr_storage peer;	/* the offender: a sockaddr_in, or
					 * on an AF_INET6 socket a sockaddr_in6
					 */
};

/* wind_recv_error() into a struct wind_error_addr (LIBWIND_0.1) */
int wind_recv_error_addr(int fd, struct wind_error_addr *out);

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
