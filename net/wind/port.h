/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Wind port space of a network namespace (port.c): binding a socket
 * to a port, ephemeral or chosen, and finding the socket bound to one.
 */
#ifndef _WIND_PORT_H
#define _WIND_PORT_H

#include <linux/types.h>

struct in6_addr;
struct net;
struct sock;
struct wind_net;

int wind_port_get(struct sock *sk, unsigned short snum);
void wind_port_put(struct sock *sk);
struct sock *wind_port_lookup(struct net *net, const struct in6_addr *daddr,
			      __be16 dport);
int wind_port_init(struct wind_net *wn);

#endif /* _WIND_PORT_H */
