/* SPDX-License-Identifier: GPL-2.0 */
/*
 * WIND_PEER_INFO (info.c): the getsockopt that reports a socket's peers.
 */
#ifndef _WIND_INFO_H
#define _WIND_INFO_H

#include <linux/compiler.h>

struct sock;

int wind_peer_info_get(struct sock *sk, char __user *optval,
		       int __user *optlen, int len);

#endif /* _WIND_INFO_H */
