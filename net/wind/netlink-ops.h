/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ops table ynl-gen-c renders (netlink-gen.c) is one of split ops;
 * Wind registers it as the classic genl_ops, on every kernel: 6.1 has no
 * split ops, and a split op without a policy takes any attribute,
 * whereas the core gives a classic op without one a reject-all policy
 * (the family's resv_start_op is 0), so that every command stays strict.
 * genl_ops has every field the generated table sets.  Kbuild builds
 * netlink-gen.c with this header first; netlink.c includes it before
 * netlink-gen.h.
 */
#ifndef _WIND_NETLINK_OPS_H
#define _WIND_NETLINK_OPS_H

#include <net/genetlink.h>

#define genl_split_ops		genl_ops

#endif /* _WIND_NETLINK_OPS_H */
