/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of Wind in one network namespace: its port table, its counters
 * (/proc/net/wind_stat) and its tunables (net.wind.*), and the pernet setup
 * of netns.c.
 */
#ifndef _WIND_NETNS_H
#define _WIND_NETNS_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct ctl_table_header;
struct socket;

#define WIND_PORT_HASH_BITS	8

/* Counters of a network namespace, shown in /proc/net/wind_stat. */
enum wind_mib_field {
	WIND_MIB_IN_PACKETS,
	WIND_MIB_IN_MESSAGES,
	WIND_MIB_IN_ACKS,
	WIND_MIB_IN_DUPLICATES,
	WIND_MIB_IN_ERR_SHORT,
	WIND_MIB_IN_ERR_LENGTH,
	WIND_MIB_IN_ERR_CHECKSUM,
	WIND_MIB_IN_ERR_HEADER,
	WIND_MIB_IN_ERR_NOPORT,
	WIND_MIB_IN_ERR_RCVBUF,
	WIND_MIB_IN_ERR_WINDOW,
	WIND_MIB_IN_ERR_TAG,
	WIND_MIB_IN_REFUSED,
	WIND_MIB_IN_DSM_WRITES,
	WIND_MIB_IN_DSM_BYTES,
	WIND_MIB_OUT_PACKETS,
	WIND_MIB_OUT_MESSAGES,
	WIND_MIB_OUT_ACKS,
	WIND_MIB_OUT_RETRANSMITS,
	WIND_MIB_OUT_ERRORS,
	WIND_MIB_PEERS_CREATED,
	WIND_MIB_PEERS_FREED,
	WIND_MIB_PEERS_UNREACHABLE,
	WIND_MIB_PEERS_RESET,
	WIND_MIB_OUT_PROBES,
	WIND_MIB_OUT_CWND_CUTS,
	WIND_MIB_OUT_GSO_PACKETS,
	WIND_MIB_IN_GSO_PACKETS,
	WIND_MIB_OUT_CHALLENGES,
	WIND_MIB_IN_NO_STATE,
	WIND_MIB_IN_FILTERED,
	WIND_MIB_IN_GRO_PACKETS,
	WIND_MIB_OUT_BUNDLES,		/* packets that carried a bundle */
	WIND_MIB_OUT_BUNDLED,		/* messages sent in a bundle */
	WIND_MIB_IN_BUNDLES,
	WIND_MIB_IN_BUNDLED,
	WIND_MIB_IN_ERR_BUNDLE,		/* malformed bundles, dropped */
	WIND_MIB_OUT_TIMEOUTS,
	WIND_MIB_IN_ERR_BACKLOG,	/* packets the full backlog dropped */
	WIND_MIB_OUT_WIN_PROBES,	/* zero-window probes sent */
	WIND_MIB_IN_ERR_ACK,		/* acks of seqs never sent, ignored */
	WIND_MIB_OUT_DUPACKS_LIMITED,	/* ACKs that duplicates or
					 * out-of-window packets drew, not
					 * sent (net.wind.dupack_ms)
					 */
	WIND_MIB_IN_DSM_UNVERIFIED,	/* DSM packets of unverified peers */
	WIND_MIB_IN_DSM_LIMITED,	/* DSM messages refused unread, EBUSY */
	WIND_MIB_PEERS_EVICTED,		/* quiet peers freed for a new one at
					 * peers_max
					 */
	WIND_MIB_IN_RMA_READS,		/* one-sided reads served */
	WIND_MIB_IN_RMA_ATOMICS,	/* one-sided atomics served */
	WIND_MIB_IN_RMA_COMPLETIONS,	/* answers to our own requests */
	WIND_MIB_MAX
};

struct wind_mib {
	u64 mibs[WIND_MIB_MAX];
};

/* Tunables of a network namespace: net.wind.* */
struct wind_params {
	int rto_min_ms;
	int rto_max_ms;
	int retries;
	int window;
	int delack_ms;
	int peer_idle_s;
	int unverified_max;
	int peers_per_addr_max;		/* peers a first packet makes per
					 * remote address
					 */
	int peers_max;			/* peers a socket holds */
	int encap;			/* WIND_ENCAP of new sockets */
	int udp_port;			/* where we receive Wind in UDP */
	int dupack_ms;			/* one ACK that duplicates draw a
					 * peer per this long, at most
					 */
	int nagle_us;			/* the longest Nagle's rule holds a
					 * message (push.c); 0: no rule
					 */
};

struct wind_net {
	spinlock_t port_lock;		/* protects ports */
	struct hlist_head ports[1 << WIND_PORT_HASH_BITS];
	struct wind_mib __percpu *mib;
	struct wind_params params;
	struct ctl_table_header *sysctl;
	possible_net_t net;
	struct mutex udp_lock;		/* serializes udp_sock changes */
	struct socket __rcu *udp_sock;	/* receives Wind in UDP (udp.c) */
	struct socket __rcu *udp6_sock;	/* and in UDP over IPv6 */
	__be16 udp_dport;		/* udp_port, as sent */
};

extern unsigned int wind_net_id;

static inline struct wind_net *wind_net(const struct net *net)
{
	return net_generic(net, wind_net_id);
}

#define WIND_INC_STATS(net, field) \
	this_cpu_inc(wind_net(net)->mib->mibs[field])
#define WIND_ADD_STATS(net, field, n) \
	this_cpu_add(wind_net(net)->mib->mibs[field], n)

#define WIND_PARAM(sk, name) \
	READ_ONCE(wind_net(sock_net(sk))->params.name)

int wind_netns_init(void);
void wind_netns_exit(void);

#endif /* _WIND_NETNS_H */
