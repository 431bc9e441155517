/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/wind.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_WIND_GEN_H
#define _LINUX_WIND_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/wind.h>

/* Ops table for wind */
extern const struct genl_split_ops wind_nl_ops[5];

int wind_nl_sock_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int wind_nl_peer_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int wind_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int wind_nl_params_get_doit(struct sk_buff *skb, struct genl_info *info);
int wind_nl_params_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	WIND_NLGRP_PEERS,
};

#endif /* _LINUX_WIND_GEN_H */
