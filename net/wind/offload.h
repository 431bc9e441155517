/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segmentation and GRO (offload.c): how a Wind GSO skb is marked, its
 * segmentation where no device does it, and the coalescing of received
 * packets, raw and inside UDP.
 */
#ifndef _WIND_OFFLOAD_H
#define _WIND_OFFLOAD_H

#include <linux/list.h>
#include <linux/sctp.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#include "wire.h"

struct sock;

/* A Wind GSO skb's gso_size is its payload per packet plus this: the
 * core's helpers (skb_gso_transport_seglen(), behind a forwarding hop's
 * MTU check) take the SCTP GSO type Wind borrows for a 12-byte header
 * (offload.c).
 */
#define WIND_GSO_BIAS		(WIND_DATA_HLEN - sizeof(struct sctphdr))
/* Inside UDP the core counts the UDP header alone (skb->encapsulation):
 * gso_size is the whole Wind packet, headers and payload.
 */
#define WIND_GSO_UDP_BIAS	WIND_DATA_HLEN
#define WIND_GSO_UDP_TYPES	(SKB_GSO_UDP_TUNNEL | SKB_GSO_UDP_TUNNEL_CSUM)

int wind_offload_init(void);
void wind_offload_exit(void);
struct sk_buff *wind_udp_gro_receive(struct sock *sk, struct list_head *head,
				     struct sk_buff *skb);
int wind_udp_gro_complete(struct sock *sk, struct sk_buff *skb, int nhoff);

#endif /* _WIND_OFFLOAD_H */
