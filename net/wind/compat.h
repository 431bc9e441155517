/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels Wind supports (6.1 and 6.12) live here
 * and nowhere else.
 */
#ifndef _WIND_COMPAT_H
#define _WIND_COMPAT_H

#include <linux/version.h>
#include <net/net_namespace.h>
#include <net/route.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
/* Tables lost their sentinel entry: pass the count without it. */
#define wind_register_net_sysctl(net, path, table, n) \
	register_net_sysctl_sz(net, path, table, n)
#else
#define wind_register_net_sysctl(net, path, table, n) \
	register_net_sysctl(net, path, table)
#endif

/* The TOS of a socket's route lookups */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define wind_sk_rt_tos(sk)	ip_sock_rt_tos(sk)
#else
#define wind_sk_rt_tos(sk)	RT_CONN_FLAGS(sk)
#endif

#endif /* _WIND_COMPAT_H */
