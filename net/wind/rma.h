/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-sided reads and atomics (rma.c): the requests, their service by the
 * target's kernel, and the completions that answer them.
 */
#ifndef _WIND_RMA_H
#define _WIND_RMA_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <uapi/linux/wind.h>

#include "deliver.h"
#include "sock.h"

struct sk_buff;
struct wind_peer;
struct wind_region_k;

struct wind_rma_wire {
	struct wind_dsmhdr dsm;
	struct wind_rmahdr rma;
};

#define WIND_RMA_HLEN		sizeof(struct wind_rma_wire)
/* Receive queue only (never on the wire: not in WIND_F_ALL): the skb is
 * a one-sided completion, WIND_RMA_HLEN bytes of headers first
 */
#define WIND_F_RMA_DONE		0x80

int wind_rma_request(const struct wind_rma *req, struct wind_rma_wire *w);
int wind_rma_serve(struct wind_peer *peer, struct wind_region_k *r,
		   const struct wind_dsmhdr *dh, struct sk_buff *skb);
int wind_rma_reply_rcv(struct wind_peer *peer, struct sk_buff *skb,
		       const struct wind_dsmhdr *dh, struct sk_buff **done);
void wind_rma_completion(const struct sk_buff *skb, struct wind_rma *rma);
bool wind_rma_must_wait(struct wind_peer *peer, const struct sk_buff *skb);

/* Serve the requests that waited for send buffer, if any did: after
 * acknowledgments or a failure freed some.  Socket locked.
 */
static inline void wind_rma_resume(struct sock *sk)
{
	wind_sock_assert_held(sk);
	if (unlikely(wind_sk(sk)->rma_stalled))
		wind_deliver_stalled(sk);
}

#endif /* _WIND_RMA_H */
