// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/wind.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/wind.h>

/* Integer value ranges */
static const struct netlink_range_validation wind_a_params_rto_min_ms_range = {
	.min	= 1ULL,
	.max	= 60000ULL,
};

static const struct netlink_range_validation wind_a_params_rto_max_ms_range = {
	.min	= 1ULL,
	.max	= 60000ULL,
};

static const struct netlink_range_validation wind_a_params_peer_idle_s_range = {
	.min	= 1ULL,
	.max	= 86400ULL,
};

static const struct netlink_range_validation wind_a_params_unverified_max_range = {
	.max	= 65536ULL,
};

static const struct netlink_range_validation wind_a_params_dupack_ms_range = {
	.max	= 60000ULL,
};

static const struct netlink_range_validation wind_a_params_peers_per_addr_max_range = {
	.max	= 65536ULL,
};

static const struct netlink_range_validation wind_a_params_peers_max_range = {
	.min	= 1ULL,
	.max	= 65536ULL,
};

static const struct netlink_range_validation wind_a_params_nagle_us_range = {
	.max	= 60000000ULL,
};

/* WIND_CMD_PEER_GET - dump */
static const struct nla_policy wind_peer_get_nl_policy[WIND_A_PEER_SOCK_PORT + 1] = {
	[WIND_A_PEER_SOCK_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
};

/* WIND_CMD_PARAMS_SET - do */
static const struct nla_policy wind_params_set_nl_policy[WIND_A_PARAMS_NAGLE_US + 1] = {
	[WIND_A_PARAMS_RTO_MIN_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_rto_min_ms_range),
	[WIND_A_PARAMS_RTO_MAX_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_rto_max_ms_range),
	[WIND_A_PARAMS_RETRIES] = NLA_POLICY_RANGE(NLA_U32, 1, 100),
	[WIND_A_PARAMS_WINDOW] = NLA_POLICY_RANGE(NLA_U32, 1, 1024),
	[WIND_A_PARAMS_DELACK_MS] = NLA_POLICY_RANGE(NLA_U32, 1, 1000),
	[WIND_A_PARAMS_PEER_IDLE_S] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_peer_idle_s_range),
	[WIND_A_PARAMS_UNVERIFIED_MAX] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_unverified_max_range),
	[WIND_A_PARAMS_DUPACK_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_dupack_ms_range),
	[WIND_A_PARAMS_PEERS_PER_ADDR_MAX] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_peers_per_addr_max_range),
	[WIND_A_PARAMS_PEERS_MAX] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_peers_max_range),
	[WIND_A_PARAMS_NAGLE_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &wind_a_params_nagle_us_range),
};

/* Ops table for wind */
const struct genl_split_ops wind_nl_ops[5] = {
	{
		.cmd	= WIND_CMD_SOCK_GET,
		.dumpit	= wind_nl_sock_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= WIND_CMD_PEER_GET,
		.dumpit		= wind_nl_peer_get_dumpit,
		.policy		= wind_peer_get_nl_policy,
		.maxattr	= WIND_A_PEER_SOCK_PORT,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= WIND_CMD_STATS_GET,
		.doit	= wind_nl_stats_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= WIND_CMD_PARAMS_GET,
		.doit	= wind_nl_params_get_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= WIND_CMD_PARAMS_SET,
		.doit		= wind_nl_params_set_doit,
		.policy		= wind_params_set_nl_policy,
		.maxattr	= WIND_A_PARAMS_NAGLE_US,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group wind_nl_mcgrps[] = {
	[WIND_NLGRP_PEERS] = { "peers", },
};
