/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels Wind supports (6.1 and 6.12) live here
 * and nowhere else.  Kbuild detects features in the kernel's headers
 * (WIND_HAVE_*) rather than comparing version numbers: distributions
 * backport.
 */
#ifndef _WIND_COMPAT_H
#define _WIND_COMPAT_H

#include <net/net_namespace.h>

#ifdef WIND_HAVE_REGISTER_NET_SYSCTL_SZ
/* Tables lost their sentinel entry: pass the count without it. */
#define wind_register_net_sysctl(net, path, table, n) \
	register_net_sysctl_sz(net, path, table, n)
#else
#define wind_register_net_sysctl(net, path, table, n) \
	register_net_sysctl(net, path, table)
#endif

#ifdef WIND_HAVE_NET_GSO_H
/* skb_gso_segment() and gso_make_checksum() moved out of netdevice.h */
#include <net/gso.h>
#else
#include <linux/netdevice.h>
#endif

/* A dump's request attributes, parsed by the core with the op's policy,
 * moved into a struct genl_info in 6.2.
 */
#ifdef WIND_HAVE_GENL_INFO_DUMP
#define wind_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define wind_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

#endif /* _WIND_COMPAT_H */
