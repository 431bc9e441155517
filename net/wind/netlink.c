// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "wind": dump the sockets and their peers,
 * read the counters, read and set the tunables, all in the network
 * namespace of the requesting socket.  Documentation/netlink/specs/wind.yaml
 * describes the family; its policies and ops table are rendered from it
 * by the kernel's ynl-gen-c into netlink-gen.c (scripts/kernel/ynl-gen).
 *
 * Locking: the socket dump is filled under wind_net.port_lock (nothing in
 * it sleeps).  The peer dump takes a reference on one socket at a time
 * under port_lock, drops the lock and walks that socket's peers under
 * lock_sock(), which excludes the receive softirq and the timers (they
 * defer to the backlog or retry), so each peer is a consistent snapshot.
 * Dumps resume by position: cb->args hold the port bucket, the socket's
 * index in it and the peer's index in the socket, so a table that changes
 * between two parts of a dump may show an entry twice or not at all, as
 * for /proc.
 *
 * Peer events (wind_peer_event()) are multicast to the "peers" group of
 * the peer's namespace from whatever context saw them (softirq, a timer,
 * a process), with the socket locked: the message is built with
 * GFP_ATOMIC, and only when the group has a listener.
 */
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "compat.h"
#include "netlink.h"
#include "netlink-ops.h"
#include "netlink-gen.h"
#include "netns.h"
#include "peer.h"
#include "rxtable.h"
#include "sock.h"
#include "trace.h"
#include "wq.h"

/* The attribute of each counter of /proc/net/wind_stat */
static const u16 stats_attr[WIND_MIB_MAX] = {
	[WIND_MIB_IN_PACKETS]		= WIND_A_STATS_IN_PACKETS,
	[WIND_MIB_IN_MESSAGES]		= WIND_A_STATS_IN_MESSAGES,
	[WIND_MIB_IN_ACKS]		= WIND_A_STATS_IN_ACKS,
	[WIND_MIB_IN_DUPLICATES]	= WIND_A_STATS_IN_DUPLICATES,
	[WIND_MIB_IN_ERR_SHORT]		= WIND_A_STATS_IN_ERR_SHORT,
	[WIND_MIB_IN_ERR_LENGTH]	= WIND_A_STATS_IN_ERR_LENGTH,
	[WIND_MIB_IN_ERR_CHECKSUM]	= WIND_A_STATS_IN_ERR_CHECKSUM,
	[WIND_MIB_IN_ERR_HEADER]	= WIND_A_STATS_IN_ERR_HEADER,
	[WIND_MIB_IN_ERR_NOPORT]	= WIND_A_STATS_IN_ERR_NOPORT,
	[WIND_MIB_IN_ERR_RCVBUF]	= WIND_A_STATS_IN_ERR_RCVBUF,
	[WIND_MIB_IN_ERR_WINDOW]	= WIND_A_STATS_IN_ERR_WINDOW,
	[WIND_MIB_IN_ERR_TAG]		= WIND_A_STATS_IN_ERR_TAG,
	[WIND_MIB_IN_REFUSED]		= WIND_A_STATS_IN_REFUSED,
	[WIND_MIB_IN_DSM_WRITES]	= WIND_A_STATS_IN_DSM_WRITES,
	[WIND_MIB_IN_DSM_BYTES]		= WIND_A_STATS_IN_DSM_BYTES,
	[WIND_MIB_OUT_PACKETS]		= WIND_A_STATS_OUT_PACKETS,
	[WIND_MIB_OUT_MESSAGES]		= WIND_A_STATS_OUT_MESSAGES,
	[WIND_MIB_OUT_ACKS]		= WIND_A_STATS_OUT_ACKS,
	[WIND_MIB_OUT_RETRANSMITS]	= WIND_A_STATS_OUT_RETRANSMITS,
	[WIND_MIB_OUT_ERRORS]		= WIND_A_STATS_OUT_ERRORS,
	[WIND_MIB_PEERS_CREATED]	= WIND_A_STATS_PEERS_CREATED,
	[WIND_MIB_PEERS_FREED]		= WIND_A_STATS_PEERS_FREED,
	[WIND_MIB_PEERS_UNREACHABLE]	= WIND_A_STATS_PEERS_UNREACHABLE,
	[WIND_MIB_PEERS_RESET]		= WIND_A_STATS_PEERS_RESET,
	[WIND_MIB_OUT_PROBES]		= WIND_A_STATS_OUT_PROBES,
	[WIND_MIB_OUT_CWND_CUTS]	= WIND_A_STATS_OUT_CWND_CUTS,
	[WIND_MIB_OUT_GSO_PACKETS]	= WIND_A_STATS_OUT_GSO_PACKETS,
	[WIND_MIB_IN_GSO_PACKETS]	= WIND_A_STATS_IN_GSO_PACKETS,
	[WIND_MIB_OUT_CHALLENGES]	= WIND_A_STATS_OUT_CHALLENGES,
	[WIND_MIB_IN_NO_STATE]		= WIND_A_STATS_IN_NO_STATE,
	[WIND_MIB_IN_FILTERED]		= WIND_A_STATS_IN_FILTERED,
	[WIND_MIB_IN_GRO_PACKETS]	= WIND_A_STATS_IN_GRO_PACKETS,
	[WIND_MIB_OUT_BUNDLES]		= WIND_A_STATS_OUT_BUNDLES,
	[WIND_MIB_OUT_BUNDLED]		= WIND_A_STATS_OUT_BUNDLED,
	[WIND_MIB_IN_BUNDLES]		= WIND_A_STATS_IN_BUNDLES,
	[WIND_MIB_IN_BUNDLED]		= WIND_A_STATS_IN_BUNDLED,
	[WIND_MIB_IN_ERR_BUNDLE]	= WIND_A_STATS_IN_ERR_BUNDLE,
	[WIND_MIB_OUT_TIMEOUTS]		= WIND_A_STATS_OUT_TIMEOUTS,
	[WIND_MIB_IN_ERR_BACKLOG]	= WIND_A_STATS_IN_ERR_BACKLOG,
	[WIND_MIB_OUT_WIN_PROBES]	= WIND_A_STATS_OUT_WIN_PROBES,
	[WIND_MIB_IN_ERR_ACK]		= WIND_A_STATS_IN_ERR_ACK,
	[WIND_MIB_OUT_DUPACKS_LIMITED]	= WIND_A_STATS_OUT_DUPACKS_LIMITED,
	[WIND_MIB_IN_DSM_UNVERIFIED]	= WIND_A_STATS_IN_DSM_UNVERIFIED,
	[WIND_MIB_IN_DSM_LIMITED]	= WIND_A_STATS_IN_DSM_LIMITED,
	[WIND_MIB_PEERS_EVICTED]	= WIND_A_STATS_PEERS_EVICTED,
	[WIND_MIB_IN_RMA_READS]		= WIND_A_STATS_IN_RMA_READS,
	[WIND_MIB_IN_RMA_ATOMICS]	= WIND_A_STATS_IN_RMA_ATOMICS,
	[WIND_MIB_IN_RMA_COMPLETIONS]	= WIND_A_STATS_IN_RMA_COMPLETIONS,
};

/* params-set's policy (netlink-gen.c) takes the window's ceiling from the
 * spec.
 */
static_assert(WIND_RXT_BITS == 1024);

/* A new counter needs its attribute in the uapi header and the spec. */
static_assert(WIND_A_STATS_MAX - WIND_A_STATS_PAD == WIND_MIB_MAX);

/* netlink-gen.c renders this table too, but static, for the family
 * struct ynl-gen-c writes only for protocol genetlink; params-set's
 * uns-admin-perm needs genetlink-legacy, so the family is ours.
 */
static const struct genl_multicast_group wind_mcgrps[] = {
	[WIND_NLGRP_PEERS] = { .name = WIND_MCGRP_PEERS, },
};

/* Serializes params-set, so that what it validated is what it applies. */
static DEFINE_MUTEX(params_mutex);

static struct genl_family wind_genl_family;

static void *dump_msg_put(struct sk_buff *skb, struct netlink_callback *cb,
			  u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &wind_genl_family, NLM_F_MULTI, cmd);
}

/* Tags are what keeps an off-path host out of an association
 * (wind.rst, "Tags"): only an administrator of the namespace sees them.
 */
static bool may_see_tags(const struct netlink_callback *cb)
{
	return netlink_net_capable(cb->skb, CAP_NET_ADMIN);
}

static int sock_fill(struct sk_buff *skb, struct netlink_callback *cb,
		     struct sock *sk)
{
	struct user_namespace *user_ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	const struct inet_sock *inet = inet_sk(sk);
	void *hdr;

	hdr = dump_msg_put(skb, cb, WIND_CMD_SOCK_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u16(skb, WIND_A_SOCK_PORT, inet->inet_num) ||
	    (sk->sk_family == AF_INET6 ?
	     nla_put_in6_addr(skb, WIND_A_SOCK_ADDR6, &sk->sk_v6_rcv_saddr) :
	     nla_put_in_addr(skb, WIND_A_SOCK_ADDR, inet->inet_rcv_saddr)) ||
	    nla_put_u32(skb, WIND_A_SOCK_PEERS, READ_ONCE(wind_sk(sk)->npeers)) ||
	    nla_put_u32(skb, WIND_A_SOCK_RMEM, sk_rmem_alloc_get(sk)) ||
	    nla_put_u32(skb, WIND_A_SOCK_RMEM_LIMIT, READ_ONCE(sk->sk_rcvbuf)) ||
	    nla_put_u32(skb, WIND_A_SOCK_WMEM, sk_wmem_alloc_get(sk)) ||
	    nla_put_u32(skb, WIND_A_SOCK_WMEM_LIMIT, READ_ONCE(sk->sk_sndbuf)) ||
	    nla_put_u32(skb, WIND_A_SOCK_DROPS, atomic_read(&sk->sk_drops)) ||
	    nla_put_u64_64bit(skb, WIND_A_SOCK_INODE, sock_i_ino(sk),
			      WIND_A_SOCK_PAD) ||
	    nla_put_u32(skb, WIND_A_SOCK_UID,
			from_kuid_munged(user_ns, sock_i_uid(sk))) ||
	    (may_see_tags(cb) &&
	     nla_put_u32(skb, WIND_A_SOCK_INCARNATION, wind_sk(sk)->incarnation)))
		goto cancel;
	/* connect() set a default peer */
	if (inet->inet_dport &&
	    ((sk->sk_family == AF_INET6 ?
	      nla_put_in6_addr(skb, WIND_A_SOCK_PEER_ADDR6, &sk->sk_v6_daddr) :
	      nla_put_in_addr(skb, WIND_A_SOCK_PEER_ADDR, inet->inet_daddr)) ||
	     nla_put_u16(skb, WIND_A_SOCK_PEER_PORT, ntohs(inet->inet_dport))))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * wind_nl_sock_get_dumpit - dump the namespace's Wind sockets (sock-get)
 * @skb: the reply being filled
 * @cb: the dump's state: cb->args[0] is the port bucket, [1] the socket's
 *      index in it
 *
 * Return: the reply's length, 0 at the end, or a negative errno.
 */
int wind_nl_sock_get_dumpit(struct sk_buff *skb,
			    struct netlink_callback *cb)
{
	struct wind_net *wn = wind_net(sock_net(skb->sk));
	unsigned long bucket = cb->args[0];
	long idx = 0, skip = cb->args[1];
	struct wind_sock *ws;
	int err = 0;

	spin_lock_bh(&wn->port_lock);
	for (; bucket < ARRAY_SIZE(wn->ports); bucket++, skip = 0) {
		idx = 0;
		hlist_for_each_entry(ws, &wn->ports[bucket], port_node) {
			if (idx < skip) {
				idx++;
				continue;
			}
			err = sock_fill(skb, cb, &ws->inet.sk);
			if (err)
				goto out;
			idx++;
		}
	}
out:
	spin_unlock_bh(&wn->port_lock);
	cb->args[0] = bucket;
	cb->args[1] = idx;
	/* an entry that does not fit in an empty message never will */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int peer_put_u64(struct sk_buff *skb, int attr, u64 value)
{
	return nla_put_u64_64bit(skb, attr, value, WIND_A_PEER_PAD);
}

/* The peer's address and ours: IPv4 ones, or an IPv6 peer's */
static int peer_addrs_put(struct sk_buff *skb, const struct wind_peer *peer)
{
	if (peer->v6)
		return nla_put_in6_addr(skb, WIND_A_PEER_LOCAL_ADDR6,
					&peer->saddr6) ||
		       nla_put_in6_addr(skb, WIND_A_PEER_ADDR6, &peer->daddr6);
	return nla_put_in_addr(skb, WIND_A_PEER_LOCAL_ADDR, peer->saddr) ||
	       nla_put_in_addr(skb, WIND_A_PEER_ADDR, peer->daddr);
}

static int peer_fill(struct sk_buff *skb, struct netlink_callback *cb,
		     const struct wind_peer *peer)
{
	struct sock *sk = peer->sk;
	void *hdr;

	wind_peer_assert_held(peer);
	hdr = dump_msg_put(skb, cb, WIND_CMD_PEER_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u16(skb, WIND_A_PEER_SOCK_PORT, inet_sk(sk)->inet_num) ||
	    peer_addrs_put(skb, peer) ||
	    nla_put_u16(skb, WIND_A_PEER_PORT, ntohs(peer->dport)) ||
	    nla_put_u32(skb, WIND_A_PEER_STATUS, wind_peer_status(peer)) ||
	    nla_put_u32(skb, WIND_A_PEER_IN_FLIGHT,
			peer->snd_nxt - peer->snd_una) ||
	    nla_put_u32(skb, WIND_A_PEER_WQ_PACKETS, wind_wq_packets(peer)) ||
	    nla_put_u32(skb, WIND_A_PEER_RQ_PACKETS, peer->rq_pkts) ||
	    nla_put_u32(skb, WIND_A_PEER_SRTT_US, peer->rtt.srtt_us) ||
	    nla_put_u32(skb, WIND_A_PEER_RTTVAR_US, peer->rtt.rttvar_us) ||
	    nla_put_u32(skb, WIND_A_PEER_RTO_US, peer->rtt.rto_us) ||
	    nla_put_u32(skb, WIND_A_PEER_RETRIES, peer->retries) ||
	    nla_put_u32(skb, WIND_A_PEER_MSS, peer->mss) ||
	    (may_see_tags(cb) &&
	     (nla_put_u32(skb, WIND_A_PEER_LOCAL_TAG, peer->local_tag) ||
	      nla_put_u32(skb, WIND_A_PEER_REMOTE_TAG, peer->remote_tag))) ||
	    nla_put_u32(skb, WIND_A_PEER_LAST_ACTIVE_MS,
			jiffies_to_msecs(jiffies - peer->last_active)) ||
	    peer_put_u64(skb, WIND_A_PEER_RETRANSMITS, peer->retransmits) ||
	    peer_put_u64(skb, WIND_A_PEER_DUPLICATES, peer->duplicates) ||
	    peer_put_u64(skb, WIND_A_PEER_DROPS, peer->drops) ||
	    peer_put_u64(skb, WIND_A_PEER_TX_PACKETS, peer->tx_packets) ||
	    peer_put_u64(skb, WIND_A_PEER_RX_PACKETS, peer->rx_packets) ||
	    peer_put_u64(skb, WIND_A_PEER_TX_MESSAGES, peer->tx_messages) ||
	    peer_put_u64(skb, WIND_A_PEER_RX_MESSAGES, peer->rx_messages)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The socket at position (*bucket, *idx) of the port table or the first
 * one after it, on @port if that is not 0, with a reference held; NULL
 * past the end.  Updates the position to the socket's.
 */
static struct sock *sock_at(struct wind_net *wn, unsigned long *bucket,
			    long *idx, u16 port)
{
	struct sock *sk = NULL;
	struct wind_sock *ws;
	long i;

	spin_lock_bh(&wn->port_lock);
	for (; *bucket < ARRAY_SIZE(wn->ports); (*bucket)++, *idx = 0) {
		i = 0;
		hlist_for_each_entry(ws, &wn->ports[*bucket], port_node) {
			if (i++ < *idx)
				continue;
			if (port && ws->inet.inet_num != port) {
				(*idx)++;
				continue;
			}
			sk = &ws->inet.sk;
			sock_hold(sk);
			goto out;
		}
	}
out:
	spin_unlock_bh(&wn->port_lock);
	return sk;
}

/* Dump the peers of @sk from the *pidx-th on; *pidx ends at the first left. */
static int sock_peers_fill(struct sk_buff *skb, struct netlink_callback *cb,
			   struct sock *sk, long *pidx)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer;
	long i = 0;
	int err = 0;

	lock_sock(sk);
	/* closing: its peers are going, and it is no longer in the table */
	if (ws->closing)
		goto out;
	list_for_each_entry(peer, &ws->peer_list, node) {
		if (i++ < *pidx)
			continue;
		err = peer_fill(skb, cb, peer);
		if (err)
			goto out;
		(*pidx)++;
	}
out:
	release_sock(sk);
	return err;
}

static bool port_bound(struct wind_net *wn, u16 port)
{
	struct wind_sock *ws;
	bool found = false;
	int i;

	spin_lock_bh(&wn->port_lock);
	for (i = 0; i < ARRAY_SIZE(wn->ports) && !found; i++)
		hlist_for_each_entry(ws, &wn->ports[i], port_node)
			if (ws->inet.inet_num == port)
				found = true;
	spin_unlock_bh(&wn->port_lock);
	return found;
}

/* The port filter of a peer dump, 0 for none, or a negative errno.  The
 * core parsed and validated the request with the op's policy before the
 * first dumpit call; the port is checked here because that is where
 * cb->extack reaches the user on every kernel we build for (6.1 has none
 * in .start).
 */
static int peer_dump_port(struct netlink_callback *cb, struct wind_net *wn)
{
	struct nlattr *attr;

	attr = wind_dump_attrs(cb)[WIND_A_PEER_SOCK_PORT];
	if (!attr)
		return 0;
	if (!port_bound(wn, nla_get_u16(attr))) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "no Wind socket is bound to this port");
		return -ENOENT;
	}
	return nla_get_u16(attr);
}

/**
 * wind_nl_peer_get_dumpit - dump the peers of the namespace's sockets (peer-get)
 * @skb: the reply being filled
 * @cb: the dump's state: cb->args[0] is the port bucket, [1] the socket's
 *      index in it, [2] the peer's index in the socket, [3] the port asked
 *      for (0 for all), [4] whether the dump started
 *
 * Return: the reply's length, 0 at the end, or a negative errno.
 */
int wind_nl_peer_get_dumpit(struct sk_buff *skb,
			    struct netlink_callback *cb)
{
	struct wind_net *wn = wind_net(sock_net(skb->sk));
	unsigned long bucket = cb->args[0];
	long idx = cb->args[1], pidx = cb->args[2];
	struct sock *sk;
	int err = 0;

	if (!cb->args[4]) {
		err = peer_dump_port(cb, wn);
		if (err < 0)
			return err;
		cb->args[3] = err;
		cb->args[4] = 1;
		err = 0;
	}
	while ((sk = sock_at(wn, &bucket, &idx, cb->args[3]))) {
		err = sock_peers_fill(skb, cb, sk, &pidx);
		sock_put(sk);
		if (err)
			break;
		idx++;
		pidx = 0;
	}
	cb->args[0] = bucket;
	cb->args[1] = idx;
	cb->args[2] = pidx;
	if (err && !skb->len)
		return err;
	return skb->len;
}

/**
 * wind_nl_stats_get_doit - the namespace's counters (stats-get)
 * @skb: the request
 * @info: the request's attributes and extack
 *
 * Return: 0, or a negative errno.
 */
int wind_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct wind_net *wn = wind_net(genl_info_net(info));
	struct sk_buff *msg;
	int i, cpu;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &wind_genl_family, 0,
				WIND_CMD_STATS_GET);
	if (!hdr)
		goto nospace;
	for (i = 0; i < WIND_MIB_MAX; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += READ_ONCE(per_cpu_ptr(wn->mib, cpu)->mibs[i]);
		if (nla_put_u64_64bit(msg, stats_attr[i], sum, WIND_A_STATS_PAD))
			goto nospace;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
	return -EMSGSIZE;
}

/**
 * wind_nl_params_get_doit - the namespace's tunables (params-get)
 * @skb: the request
 * @info: the request's attributes and extack
 *
 * Return: 0, or a negative errno.
 */
int wind_nl_params_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct wind_params *p = &wind_net(genl_info_net(info))->params;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &wind_genl_family, 0,
				WIND_CMD_PARAMS_GET);
	if (!hdr ||
	    nla_put_u32(msg, WIND_A_PARAMS_RTO_MIN_MS, READ_ONCE(p->rto_min_ms)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_RTO_MAX_MS, READ_ONCE(p->rto_max_ms)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_RETRIES, READ_ONCE(p->retries)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_WINDOW, READ_ONCE(p->window)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_DELACK_MS, READ_ONCE(p->delack_ms)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_PEER_IDLE_S,
			READ_ONCE(p->peer_idle_s)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_UNVERIFIED_MAX,
			READ_ONCE(p->unverified_max)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_DUPACK_MS, READ_ONCE(p->dupack_ms)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_PEERS_PER_ADDR_MAX,
			READ_ONCE(p->peers_per_addr_max)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_PEERS_MAX, READ_ONCE(p->peers_max)) ||
	    nla_put_u32(msg, WIND_A_PARAMS_NAGLE_US, READ_ONCE(p->nagle_us))) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit in a message");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Copy the attribute @type into *@field if the request has it.  The
 * policy checked its range; returns whether it was there.
 */
static bool param_take(struct nlattr **tb, int type, int *field)
{
	if (!tb[type])
		return false;
	*field = nla_get_u32(tb[type]);
	return true;
}

static void param_apply(struct nlattr **tb, int type, int *field, int value)
{
	if (tb[type])
		WRITE_ONCE(*field, value);
}

/**
 * wind_nl_params_set_doit - set some of the namespace's tunables (params-set)
 * @skb: the request
 * @info: the request's attributes, in the ranges the policy checked,
 *        and extack
 *
 * Return: 0, or a negative errno; nothing is set unless all can be.
 */
int wind_nl_params_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct wind_params *cur = &wind_net(genl_info_net(info))->params;
	struct nlattr **tb = info->attrs;
	struct nlattr *rto;
	struct wind_params p;
	bool any = false;
	int err = 0;

	mutex_lock(&params_mutex);
	p.rto_min_ms = READ_ONCE(cur->rto_min_ms);
	p.rto_max_ms = READ_ONCE(cur->rto_max_ms);
	p.retries = READ_ONCE(cur->retries);
	p.window = READ_ONCE(cur->window);
	p.delack_ms = READ_ONCE(cur->delack_ms);
	p.peer_idle_s = READ_ONCE(cur->peer_idle_s);
	p.unverified_max = READ_ONCE(cur->unverified_max);
	p.dupack_ms = READ_ONCE(cur->dupack_ms);
	p.peers_per_addr_max = READ_ONCE(cur->peers_per_addr_max);
	p.peers_max = READ_ONCE(cur->peers_max);
	p.nagle_us = READ_ONCE(cur->nagle_us);

	any |= param_take(tb, WIND_A_PARAMS_RTO_MIN_MS, &p.rto_min_ms);
	any |= param_take(tb, WIND_A_PARAMS_RTO_MAX_MS, &p.rto_max_ms);
	any |= param_take(tb, WIND_A_PARAMS_RETRIES, &p.retries);
	any |= param_take(tb, WIND_A_PARAMS_WINDOW, &p.window);
	any |= param_take(tb, WIND_A_PARAMS_DELACK_MS, &p.delack_ms);
	any |= param_take(tb, WIND_A_PARAMS_PEER_IDLE_S, &p.peer_idle_s);
	any |= param_take(tb, WIND_A_PARAMS_UNVERIFIED_MAX, &p.unverified_max);
	any |= param_take(tb, WIND_A_PARAMS_DUPACK_MS, &p.dupack_ms);
	any |= param_take(tb, WIND_A_PARAMS_PEERS_PER_ADDR_MAX,
			  &p.peers_per_addr_max);
	any |= param_take(tb, WIND_A_PARAMS_PEERS_MAX, &p.peers_max);
	any |= param_take(tb, WIND_A_PARAMS_NAGLE_US, &p.nagle_us);
	if (!any) {
		NL_SET_ERR_MSG_MOD(info->extack, "no tunable given");
		err = -EINVAL;
		goto out;
	}
	/* Only a request that moves a bound is held to min <= max: one that
	 * sets something else does not fail over what a sysctl write left.
	 */
	rto = tb[WIND_A_PARAMS_RTO_MIN_MS] ?: tb[WIND_A_PARAMS_RTO_MAX_MS];
	if (rto && p.rto_min_ms > p.rto_max_ms) {
		NL_SET_ERR_MSG_ATTR(info->extack, rto,
				    "rto_min_ms would exceed rto_max_ms");
		err = -EINVAL;
		goto out;
	}

	/* all checked: apply what was given, leave the rest to sysctl */
	param_apply(tb, WIND_A_PARAMS_RTO_MIN_MS, &cur->rto_min_ms, p.rto_min_ms);
	param_apply(tb, WIND_A_PARAMS_RTO_MAX_MS, &cur->rto_max_ms, p.rto_max_ms);
	param_apply(tb, WIND_A_PARAMS_RETRIES, &cur->retries, p.retries);
	param_apply(tb, WIND_A_PARAMS_WINDOW, &cur->window, p.window);
	param_apply(tb, WIND_A_PARAMS_DELACK_MS, &cur->delack_ms, p.delack_ms);
	param_apply(tb, WIND_A_PARAMS_PEER_IDLE_S, &cur->peer_idle_s,
		    p.peer_idle_s);
	param_apply(tb, WIND_A_PARAMS_UNVERIFIED_MAX, &cur->unverified_max,
		    p.unverified_max);
	param_apply(tb, WIND_A_PARAMS_DUPACK_MS, &cur->dupack_ms, p.dupack_ms);
	param_apply(tb, WIND_A_PARAMS_PEERS_PER_ADDR_MAX,
		    &cur->peers_per_addr_max, p.peers_per_addr_max);
	param_apply(tb, WIND_A_PARAMS_PEERS_MAX, &cur->peers_max, p.peers_max);
	param_apply(tb, WIND_A_PARAMS_NAGLE_US, &cur->nagle_us, p.nagle_us);
out:
	mutex_unlock(&params_mutex);
	return err;
}

static struct genl_family wind_genl_family __ro_after_init = {
	.name		= WIND_FAMILY_NAME,
	.version	= WIND_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= wind_nl_ops,	/* netlink-ops.h */
	.n_ops		= ARRAY_SIZE(wind_nl_ops),
	.mcgrps		= wind_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(wind_mcgrps),
	/* .resv_start_op stays 0: every command is validated strictly, the
	 * reserved header field included, and one without a policy takes
	 * no attribute at all.
	 */
};

/* A peer-ntf message, or NULL when there is no memory for it */
static struct sk_buff *peer_ntf_new(const struct wind_peer *peer,
				    enum wind_peer_event event, int err)
{
	struct sock *sk = peer->sk;
	struct sk_buff *msg;
	void *hdr;

	/* two u16 and four u32-sized attributes; no tags: anyone may
	 * listen (wind.rst, "Tags")
	 */
	msg = genlmsg_new(2 * nla_total_size(sizeof(u16)) +
			  2 * nla_total_size(sizeof(struct in6_addr)) +
			  2 * nla_total_size(sizeof(u32)), GFP_ATOMIC);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &wind_genl_family, 0, WIND_CMD_PEER_NTF);
	if (!hdr ||
	    nla_put_u16(msg, WIND_A_PEER_SOCK_PORT, inet_sk(sk)->inet_num) ||
	    peer_addrs_put(msg, peer) ||
	    nla_put_u16(msg, WIND_A_PEER_PORT, ntohs(peer->dport)) ||
	    nla_put_u32(msg, WIND_A_PEER_EVENT, event) ||
	    (err && nla_put_u32(msg, WIND_A_PEER_ERROR, err))) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/**
 * wind_peer_event() - something happened to a peer: trace it, and tell
 *	the listeners of the "peers" multicast group of its namespace
 * @peer: the peer, its socket locked
 * @event: what
 * @err: positive errno saying why (FAILED, RESTART, DSM_REFUSED), or 0
 *
 * A notification that finds no memory is lost, as for every netlink
 * multicast; the listener's socket sees ENOBUFS if its queue overflows.
 */
void wind_peer_event(const struct wind_peer *peer, enum wind_peer_event event,
		     int err)
{
	struct net *net = sock_net(peer->sk);
	struct sk_buff *msg;

	wind_peer_assert_held(peer);
	trace_wind_peer(peer, event, err);
	if (!genl_has_listeners(&wind_genl_family, net, WIND_NLGRP_PEERS))
		return;
	msg = peer_ntf_new(peer, event, err);
	if (msg)
		genlmsg_multicast_netns(&wind_genl_family, net, msg, 0,
					WIND_NLGRP_PEERS, GFP_ATOMIC);
}

/**
 * wind_genl_init() - register the generic netlink family "wind"
 *
 * Return: 0 or a negative errno.
 */
int __init wind_genl_init(void)
{
	return genl_register_family(&wind_genl_family);
}

/**
 * wind_genl_exit() - unregister the family
 *
 * Waits for the commands in progress; a dump in progress holds a module
 * reference, so none runs after the module is gone.
 */
void wind_genl_exit(void)
{
	genl_unregister_family(&wind_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(WIND_FAMILY_NAME);
