/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The window we offer a peer (rwnd.c): what it may send us, from our
 * receive buffer and the peers that send to the socket now, and the
 * cumulative acknowledgment every packet carries; and what an arriving
 * packet may take of the receive buffer.
 */
#ifndef _WIND_RWND_H
#define _WIND_RWND_H

#include <linux/types.h>

struct sk_buff;
struct wind_peer;

u16 wind_rcv_window(struct wind_peer *peer);
u32 wind_free_window(const struct wind_peer *peer);
u32 wind_fair_window(const struct wind_peer *peer);
void wind_rx_sender(struct wind_peer *peer);
u32 wind_ack_seq(const struct wind_peer *peer);
bool wind_rcv_room(struct wind_peer *peer, struct sk_buff *skb, u32 seq);
bool wind_rcv_drop_one_ooo(struct wind_peer *peer);

#endif /* _WIND_RWND_H */
