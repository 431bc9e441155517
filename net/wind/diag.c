// SPDX-License-Identifier: GPL-2.0
/*
 * sock_diag for Wind: NETLINK_SOCK_DIAG requests for AF_INET and
 * AF_INET6 sockets of protocol IPPROTO_WIND, each family its own,
 * through the kernel's inet_diag, as raw sockets are served
 * (net/ipv4/raw_diag.c).  A dump walks the namespace's port
 * table under RCU (sockets are SOCK_RCU_FREE) and resumes by position;
 * an exact request finds the socket as a packet would.  Each socket is
 * described by inet_sk_diag_fill(): addresses, ports, state, uid,
 * inode, buffer use.  The per-peer state stays with the "wind" genetlink
 * family (netlink.c).
 */
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "diag.h"
#include "netns.h"
#include "port.h"
#include "sock.h"

static bool diag_match(const struct sock *sk, const struct inet_diag_req_v2 *r)
{
	const struct inet_sock *inet = inet_sk(sk);

	return (!r->id.idiag_sport || r->id.idiag_sport == inet->inet_sport) &&
	       (!r->id.idiag_dport || r->id.idiag_dport == inet->inet_dport);
}

static void wind_diag_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct inet_diag_req_v2 *r)
{
	bool net_admin = netlink_net_capable(cb->skb, CAP_NET_ADMIN);
	struct wind_net *wn = wind_net(sock_net(skb->sk));
	struct inet_diag_dump_data *cb_data = cb->data;
	struct nlattr *bc = cb_data->inet_diag_nla_bc;
	unsigned long bucket = cb->args[0];
	long num = 0, s_num = cb->args[1];
	struct wind_sock *ws;

	if (r->sdiag_family != AF_INET && r->sdiag_family != AF_INET6)
		return;
	rcu_read_lock();
	for (; bucket < ARRAY_SIZE(wn->ports); bucket++, s_num = 0) {
		num = 0;
		hlist_for_each_entry_rcu(ws, &wn->ports[bucket], port_node) {
			struct sock *sk = &ws->inet.sk;

			if (num < s_num || sk->sk_family != r->sdiag_family ||
			    !diag_match(sk, r) ||
			    !inet_diag_bc_sk(bc, sk))
				goto next;
			if (inet_sk_diag_fill(sk, NULL, skb, cb, r, NLM_F_MULTI,
					      net_admin) < 0)
				goto out;
next:
			num++;
		}
	}
out:
	rcu_read_unlock();
	cb->args[0] = bucket;
	cb->args[1] = num;
}

static int wind_diag_dump_one(struct netlink_callback *cb,
			      const struct inet_diag_req_v2 *r)
{
	struct sk_buff *in_skb = cb->skb;
	struct net *net = sock_net(in_skb->sk);
	struct in6_addr addr;
	struct sk_buff *rep;
	struct sock *sk;
	int err;

	if (r->sdiag_family == AF_INET)
		ipv6_addr_set_v4mapped(r->id.idiag_src[0], &addr);
	else if (r->sdiag_family == AF_INET6)
		memcpy(&addr, r->id.idiag_src, sizeof(addr));
	else
		return -EINVAL;
	rcu_read_lock();
	sk = wind_port_lookup(net, &addr, r->id.idiag_sport);
	rcu_read_unlock();
	if (!sk)
		return -ENOENT;
	if (sk->sk_family != r->sdiag_family || !diag_match(sk, r)) {
		sock_put(sk);
		return -ENOENT;
	}
	rep = nlmsg_new(nla_total_size(sizeof(struct inet_diag_msg)) +
			inet_diag_msg_attrs_size() +
			nla_total_size(sizeof(struct inet_diag_meminfo)) + 64,
			GFP_KERNEL);
	if (!rep) {
		sock_put(sk);
		return -ENOMEM;
	}
	err = inet_sk_diag_fill(sk, NULL, rep, cb, r, 0,
				netlink_net_capable(in_skb, CAP_NET_ADMIN));
	sock_put(sk);
	if (err < 0) {
		kfree_skb(rep);
		return err;
	}
	return nlmsg_unicast(net->diag_nlsk, rep, NETLINK_CB(in_skb).portid);
}

static void wind_diag_get_info(struct sock *sk, struct inet_diag_msg *r,
			       void *info)
{
	r->idiag_rqueue = sk_rmem_alloc_get(sk);
	r->idiag_wqueue = sk_wmem_alloc_get(sk);
}

static const struct inet_diag_handler wind_diag_handler = {
#ifdef WIND_HAVE_INET_DIAG_OWNER
	.owner			= THIS_MODULE,
#endif
	.dump			= wind_diag_dump,
	.dump_one		= wind_diag_dump_one,
	.idiag_get_info		= wind_diag_get_info,
	.idiag_type		= IPPROTO_WIND,
	.idiag_info_size	= 0,
};

/**
 * wind_diag_init() - serve sock_diag requests for IPPROTO_WIND
 *
 * Return: 0 or a negative errno from inet_diag_register().
 */
int __init wind_diag_init(void)
{
	return inet_diag_register(&wind_diag_handler);
}

/**
 * wind_diag_exit() - stop serving them
 */
void wind_diag_exit(void)
{
	inet_diag_unregister(&wind_diag_handler);
}

/* a request for protocol 253 loads wind.ko (sock_load_diag_module()) */
MODULE_ALIAS("net-pf-16-proto-4-type-2-253");	/* AF_INET, IPPROTO_WIND */
