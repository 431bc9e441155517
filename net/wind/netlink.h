/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "wind" (netlink.c), and the peer events it
 * multicasts.
 */
#ifndef _WIND_NETLINK_H
#define _WIND_NETLINK_H

#include <uapi/linux/wind.h>

struct wind_peer;

void wind_peer_event(const struct wind_peer *peer, enum wind_peer_event event,
		     int err);
int wind_genl_init(void);
void wind_genl_exit(void);

#endif /* _WIND_NETLINK_H */
