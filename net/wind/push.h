/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When to send (push.c): the window, the congestion window, corking and
 * MSG_MORE decide what of a peer's write queue leaves now.
 */
#ifndef _WIND_PUSH_H
#define _WIND_PUSH_H

#include <linux/types.h>

struct sock;
struct wind_peer;

void wind_push(struct wind_peer *peer);
void wind_uncork(struct sock *sk, bool clear);

#endif /* _WIND_PUSH_H */
