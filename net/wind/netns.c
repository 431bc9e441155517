// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state: the port table, the counters behind
 * /proc/net/wind_stat, the socket list /proc/net/wind and the tunables
 * net.wind.*.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "compat.h"
#include "netns.h"
#include "port.h"
#include "rxtable.h"
#include "sock.h"
#include "udp.h"

unsigned int wind_net_id __read_mostly;

static const char * const wind_mib_names[WIND_MIB_MAX] = {
	[WIND_MIB_IN_PACKETS]		= "InPackets",
	[WIND_MIB_IN_MESSAGES]		= "InMessages",
	[WIND_MIB_IN_ACKS]		= "InAcks",
	[WIND_MIB_IN_DUPLICATES]	= "InDuplicates",
	[WIND_MIB_IN_ERR_SHORT]		= "InErrShort",
	[WIND_MIB_IN_ERR_LENGTH]	= "InErrLength",
	[WIND_MIB_IN_ERR_CHECKSUM]	= "InErrChecksum",
	[WIND_MIB_IN_ERR_HEADER]	= "InErrHeader",
	[WIND_MIB_IN_ERR_NOPORT]	= "InErrNoPort",
	[WIND_MIB_IN_ERR_RCVBUF]	= "InErrRcvbuf",
	[WIND_MIB_IN_ERR_WINDOW]	= "InErrWindow",
	[WIND_MIB_IN_ERR_TAG]		= "InErrTag",
	[WIND_MIB_IN_REFUSED]		= "InRefused",
	[WIND_MIB_IN_DSM_WRITES]	= "InDsmWrites",
	[WIND_MIB_IN_DSM_BYTES]		= "InDsmBytes",
	[WIND_MIB_OUT_PACKETS]		= "OutPackets",
	[WIND_MIB_OUT_MESSAGES]		= "OutMessages",
	[WIND_MIB_OUT_ACKS]		= "OutAcks",
	[WIND_MIB_OUT_RETRANSMITS]	= "OutRetransmits",
	[WIND_MIB_OUT_ERRORS]		= "OutErrors",
	[WIND_MIB_PEERS_CREATED]	= "PeersCreated",
	[WIND_MIB_PEERS_FREED]		= "PeersFreed",
	[WIND_MIB_PEERS_UNREACHABLE]	= "PeersUnreachable",
	[WIND_MIB_PEERS_RESET]		= "PeersReset",
	[WIND_MIB_OUT_PROBES]		= "OutProbes",
	[WIND_MIB_OUT_CWND_CUTS]	= "OutCwndCuts",
	[WIND_MIB_OUT_GSO_PACKETS]	= "OutGsoPackets",
	[WIND_MIB_IN_GSO_PACKETS]	= "InGsoPackets",
	[WIND_MIB_OUT_CHALLENGES]	= "OutChallenges",
	[WIND_MIB_IN_NO_STATE]		= "InNoState",
	[WIND_MIB_IN_FILTERED]		= "InFiltered",
	[WIND_MIB_IN_GRO_PACKETS]	= "InGroPackets",
	[WIND_MIB_OUT_BUNDLES]		= "OutBundles",
	[WIND_MIB_OUT_BUNDLED]		= "OutBundled",
	[WIND_MIB_IN_BUNDLES]		= "InBundles",
	[WIND_MIB_IN_BUNDLED]		= "InBundled",
	[WIND_MIB_IN_ERR_BUNDLE]	= "InErrBundle",
	[WIND_MIB_OUT_TIMEOUTS]		= "OutTimeouts",
	[WIND_MIB_IN_ERR_BACKLOG]	= "InErrBacklog",
	[WIND_MIB_OUT_WIN_PROBES]	= "OutWinProbes",
	[WIND_MIB_IN_ERR_ACK]		= "InErrAck",
	[WIND_MIB_OUT_DUPACKS_LIMITED]	= "OutDupAcksLimited",
	[WIND_MIB_IN_DSM_UNVERIFIED]	= "InDsmUnverified",
	[WIND_MIB_IN_DSM_LIMITED]	= "InDsmLimited",
	[WIND_MIB_IN_RMA_READS]		= "InRmaReads",
	[WIND_MIB_IN_RMA_ATOMICS]	= "InRmaAtomics",
	[WIND_MIB_IN_RMA_COMPLETIONS]	= "InRmaCompletions",
	[WIND_MIB_PEERS_EVICTED]	= "PeersEvicted",
};

static int wind_stat_show(struct seq_file *seq, void *v)
{
	struct wind_net *wn = wind_net(seq_file_single_net(seq));
	int i, cpu;

	for (i = 0; i < WIND_MIB_MAX; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(wn->mib, cpu)->mibs[i];
		seq_printf(seq, "%s %llu\n", wind_mib_names[i], sum);
	}
	return 0;
}

/* The bound sockets of one family, addresses as /proc/net/udp (udp6)
 * prints them, then what every Wind socket has.
 */
static void sockets_show(struct seq_file *seq, int family)
{
	struct wind_net *wn = wind_net(seq_file_single_net(seq));
	struct wind_sock *ws;
	int i, sl = 0;

	if (family == AF_INET6)
		seq_puts(seq, "  sl  local_address                         remote_address                        st tx_queue rx_queue   uid  inode peers drops\n");
	else
		seq_puts(seq, "  sl  local_address rem_address   st tx_queue rx_queue   uid  inode peers drops\n");
	spin_lock_bh(&wn->port_lock);
	for (i = 0; i < ARRAY_SIZE(wn->ports); i++) {
		hlist_for_each_entry(ws, &wn->ports[i], port_node) {
			struct sock *sk = &ws->inet.sk;
			struct inet_sock *inet = &ws->inet;

			if (sk->sk_family != family)
				continue;
			seq_printf(seq, "%4d: ", sl++);
			if (family == AF_INET6) {
				const __be32 *src = sk->sk_v6_rcv_saddr.s6_addr32;
				const __be32 *dst = sk->sk_v6_daddr.s6_addr32;

				seq_printf(seq, "%08X%08X%08X%08X:%04X %08X%08X%08X%08X:%04X",
					   src[0], src[1], src[2], src[3],
					   ntohs(inet->inet_sport),
					   dst[0], dst[1], dst[2], dst[3],
					   ntohs(inet->inet_dport));
			} else {
				seq_printf(seq, "%08X:%04X %08X:%04X",
					   inet->inet_rcv_saddr,
					   ntohs(inet->inet_sport), inet->inet_daddr,
					   ntohs(inet->inet_dport));
			}
			seq_printf(seq, " %02X %08X:%08X %5u %6lu %5u %5u\n",
				   sk->sk_state,
				   sk_wmem_alloc_get(sk), sk_rmem_alloc_get(sk),
				   from_kuid_munged(seq_user_ns(seq), sock_i_uid(sk)),
				   sock_i_ino(sk), READ_ONCE(ws->npeers),
				   atomic_read(&sk->sk_drops));
		}
	}
	spin_unlock_bh(&wn->port_lock);
}

/* /proc/net/wind: the AF_INET sockets; the AF_INET6 ones are in wind6 */
static int wind_sockets_show(struct seq_file *seq, void *v)
{
	sockets_show(seq, AF_INET);
	return 0;
}

static int wind6_sockets_show(struct seq_file *seq, void *v)
{
	sockets_show(seq, AF_INET6);
	return 0;
}

static struct wind_params wind_default_params = {
	.rto_min_ms	= 20,
	.rto_max_ms	= 1000,
	.retries	= 10,
	.window		= 256,
	.delack_ms	= 4,
	.peer_idle_s	= 300,
	.unverified_max	= 1024,
	.peers_per_addr_max = 256,
	.peers_max	= 65536,
	.encap		= WIND_ENCAP_RAW,
	.udp_port	= WIND_UDP_PORT,
	.dupack_ms	= 20,
	.nagle_us	= 200,
};

static int one = 1;
static int rto_limit = 60000;
static int retries_limit = 100;
static int window_limit = WIND_RXT_BITS;
static int delack_limit = 1000;
static int idle_limit = 86400;
static int unverified_limit = 65536;
static int peers_limit = 65536;
static int port_limit = 65535;
static int nagle_limit = 60 * USEC_PER_SEC;

/* net.wind.udp_port: bind the namespace's tunnel socket to the new port
 * before taking it (udp.c); a port in use is refused with EADDRINUSE.
 */
#ifdef WIND_HAVE_CONST_CTL_TABLE
static int udp_port_sysctl(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
#else
static int udp_port_sysctl(struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
#endif
{
	struct wind_net *wn = container_of(table->data, struct wind_net,
					   params.udp_port);
	struct ctl_table tmp = *table;
	int port = READ_ONCE(wn->params.udp_port), err;

	tmp.data = &port;
	err = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (err || !write)
		return err;
	return wind_udp_set_port(read_pnet(&wn->net), port);
}

#define WIND_SYSCTL(name, lo, hi) {				\
	.procname	= #name,				\
	.data		= &wind_default_params.name,		\
	.maxlen		= sizeof(int),				\
	.mode		= 0644,					\
	.proc_handler	= proc_dointvec_minmax,			\
	.extra1		= lo,					\
	.extra2		= hi,					\
}

static struct ctl_table wind_sysctl_template[] = {
	WIND_SYSCTL(rto_min_ms, &one, &rto_limit),
	WIND_SYSCTL(rto_max_ms, &one, &rto_limit),
	WIND_SYSCTL(retries, &one, &retries_limit),
	WIND_SYSCTL(window, &one, &window_limit),
	WIND_SYSCTL(delack_ms, &one, &delack_limit),
	WIND_SYSCTL(peer_idle_s, &one, &idle_limit),
	WIND_SYSCTL(unverified_max, SYSCTL_ZERO, &unverified_limit),
	WIND_SYSCTL(peers_per_addr_max, SYSCTL_ZERO, &peers_limit),
	WIND_SYSCTL(peers_max, &one, &peers_limit),
	WIND_SYSCTL(encap, SYSCTL_ZERO, SYSCTL_ONE),
	WIND_SYSCTL(dupack_ms, SYSCTL_ZERO, &rto_limit),
	WIND_SYSCTL(nagle_us, SYSCTL_ZERO, &nagle_limit),
	{
		.procname	= "udp_port",
		.data		= &wind_default_params.udp_port,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= udp_port_sysctl,
		.extra1		= SYSCTL_ONE,
		.extra2		= &port_limit,
	},
	{ }
};

static int wind_sysctl_init(struct net *net, struct wind_net *wn)
{
	struct ctl_table *table;
	size_t i, n = ARRAY_SIZE(wind_sysctl_template) - 1;

	table = kmemdup(wind_sysctl_template, sizeof(wind_sysctl_template),
			GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	/* point each entry at this namespace's copy of the parameter */
	for (i = 0; i < n; i++)
		table[i].data = (char *)&wn->params +
			((char *)wind_sysctl_template[i].data -
			 (char *)&wind_default_params);
	wn->sysctl = wind_register_net_sysctl(net, "net/wind", table, n);
	if (!wn->sysctl) {
		kfree(table);
		return -ENOMEM;
	}
	return 0;
}

static void wind_sysctl_exit(struct wind_net *wn)
{
	const struct ctl_table *table = wn->sysctl->ctl_table_arg;

	unregister_net_sysctl_table(wn->sysctl);
	kfree(table);
}

static int __net_init wind_net_init(struct net *net)
{
	struct wind_net *wn = wind_net(net);
	int err;

	wn->params = wind_default_params;
	write_pnet(&wn->net, net);
	err = wind_port_init(wn);
	if (err)
		return err;
	wn->mib = alloc_percpu(struct wind_mib);
	if (!wn->mib)
		return -ENOMEM;
	err = wind_sysctl_init(net, wn);
	if (err)
		goto err_sysctl;
	err = -ENOMEM;
	if (!proc_create_net_single("wind_stat", 0444, net->proc_net,
				    wind_stat_show, NULL))
		goto err_stat;
	if (!proc_create_net_single("wind", 0444, net->proc_net,
				    wind_sockets_show, NULL))
		goto err_sockets;
	if (!proc_create_net_single("wind6", 0444, net->proc_net,
				    wind6_sockets_show, NULL))
		goto err_sockets6;
	return wind_udp_net_init(net);

err_sockets6:
	remove_proc_entry("wind", net->proc_net);
err_sockets:
	remove_proc_entry("wind_stat", net->proc_net);
err_stat:
	wind_sysctl_exit(wn);
err_sysctl:
	free_percpu(wn->mib);
	return err;
}

static void __net_exit wind_net_exit(struct net *net)
{
	struct wind_net *wn = wind_net(net);

	wind_udp_net_exit(net);
	remove_proc_entry("wind6", net->proc_net);
	remove_proc_entry("wind", net->proc_net);
	remove_proc_entry("wind_stat", net->proc_net);
	wind_sysctl_exit(wn);
	free_percpu(wn->mib);
}

static struct pernet_operations wind_net_ops = {
	.init	= wind_net_init,
	.exit	= wind_net_exit,
	.id	= &wind_net_id,
	.size	= sizeof(struct wind_net),
};

/**
 * wind_netns_init() - register the per network namespace state
 *
 * Return: 0 or a negative errno.
 */
int wind_netns_init(void)
{
	return register_pernet_subsys(&wind_net_ops);
}

/**
 * wind_netns_exit() - unregister the per network namespace state
 */
void wind_netns_exit(void)
{
	unregister_pernet_subsys(&wind_net_ops);
}
