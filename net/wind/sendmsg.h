/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The send syscall and the send buffer (sendmsg.c): a message's
 * destination, its split into packets, the pages their payloads live in,
 * and its place on a peer's write queue.
 */
#ifndef _WIND_SENDMSG_H
#define _WIND_SENDMSG_H

#include <linux/types.h>

struct in6_addr;
struct iov_iter;
struct msghdr;
struct sk_buff;
struct sk_buff_head;
struct sock;
struct wind_peer;

int wind_sendmsg(struct sock *sk, struct msghdr *msg, size_t len);
void wind_pages_release(struct sock *sk);
int wind_sockaddr_parse(struct sock *sk, const void *uaddr, int len,
			struct in6_addr *daddr, __be16 *dport, int *oif);
int wind_msg_room(const struct wind_peer *peer, size_t total);
int wind_msg_prepare(struct wind_peer *peer, struct sk_buff_head *q,
		     const void *pre, size_t prefix, struct iov_iter *from,
		     size_t len, gfp_t gfp);
void wind_msg_queue(struct wind_peer *peer, struct sk_buff_head *q,
		    u32 total, unsigned int mss, u8 flags, u32 msgid,
		    bool kernel);
void wind_write_space(struct sock *sk);
struct sk_buff *alloc_pkt(struct sock *sk, unsigned int size, gfp_t gfp);

#endif /* _WIND_SENDMSG_H */
