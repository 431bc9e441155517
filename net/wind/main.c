// SPDX-License-Identifier: GPL-2.0
/*
 * Wind: module init and exit.  Registers the protocol with AF_INET and
 * AF_INET6 as SOCK_WIND/IPPROTO_WIND and unwinds in reverse.
 */
#include <linux/module.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "diag.h"
#include "icmp.h"
#include "input.h"
#include "mem.h"
#include "netlink.h"
#include "netns.h"
#include "offload.h"
#include "peer.h"
#include "skb.h"
#include "sock.h"

static const struct net_protocol wind_protocol = {
	.handler	= wind_rcv,
	.err_handler	= wind_err,
	.no_policy	= 1,
};

static struct inet_protosw wind_protosw = {
	.type		= SOCK_WIND,
	.protocol	= IPPROTO_WIND,
	.prot		= &wind_prot,
	.ops		= &wind_dgram_ops,
	.flags		= 0,
};

static const struct inet6_protocol wind6_protocol = {
	.handler	= wind6_rcv,
	.err_handler	= wind6_err,
	.flags		= INET6_PROTO_NOPOLICY | INET6_PROTO_FINAL,
};

static struct inet_protosw wind6_protosw = {
	.type		= SOCK_WIND,
	.protocol	= IPPROTO_WIND,
	.prot		= &wind6_prot,
	.ops		= &wind6_dgram_ops,
	.flags		= 0,
};

/* IPv6: its protocol, then its sockets */
static int wind6_init(void)
{
	int err;

	wind6_prot_init();
	err = proto_register(&wind6_prot, 1);
	if (err)
		return err;
	err = inet6_add_protocol(&wind6_protocol, IPPROTO_WIND);
	if (err)
		goto err_protocol;
	err = inet6_register_protosw(&wind6_protosw);
	if (err)
		goto err_protosw;
	return 0;

err_protosw:
	inet6_del_protocol(&wind6_protocol, IPPROTO_WIND);
err_protocol:
	proto_unregister(&wind6_prot);
	return err;
}

static void wind6_exit(void)
{
	inet6_unregister_protosw(&wind6_protosw);
	inet6_del_protocol(&wind6_protocol, IPPROTO_WIND);
}

static int __init wind_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct wind_skb_cb) >
		     sizeof_field(struct sk_buff, cb));
	err = wind_peer_cache_init();
	if (err)
		return err;

	err = proto_register(&wind_prot, 1);
	if (err)
		goto err_prot;

	err = wind_mem_init();
	if (err)
		goto err_mem;

	err = wind_netns_init();
	if (err)
		goto err_netns;

	err = wind_genl_init();
	if (err)
		goto err_genl;

	err = wind_offload_init();
	if (err)
		goto err_offload;

	err = wind_diag_init();
	if (err)
		goto err_diag;

	err = inet_add_protocol(&wind_protocol, IPPROTO_WIND);
	if (err)
		goto err_protocol;

	err = wind6_init();
	if (err)
		goto err_ipv6;

	inet_register_protosw(&wind_protosw);
	pr_info("wind: reliable datagrams, protocol %d, socket type %d, IPv4 and IPv6\n",
		IPPROTO_WIND, SOCK_WIND);
	return 0;

err_ipv6:
	inet_del_protocol(&wind_protocol, IPPROTO_WIND);
err_protocol:
	wind_diag_exit();
err_diag:
	wind_offload_exit();
err_offload:
	wind_genl_exit();
err_genl:
	wind_netns_exit();
err_netns:
	wind_mem_exit();
err_mem:
	proto_unregister(&wind_prot);
err_prot:
	wind_peer_cache_exit();
	return err;
}

static void __exit wind_exit(void)
{
	inet_unregister_protosw(&wind_protosw);
	wind6_exit();
	inet_del_protocol(&wind_protocol, IPPROTO_WIND);
	/* inet_del_protocol waited for readers; no new packet reaches us */
	wind_diag_exit();
	wind_offload_exit();
	wind_genl_exit();
	wind_netns_exit();
	wind_mem_exit();
	/* peers are freed by call_rcu(): let every callback finish */
	rcu_barrier();
	proto_unregister(&wind6_prot);
	proto_unregister(&wind_prot);
	wind_peer_cache_exit();
}

module_init(wind_init);
module_exit(wind_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The Wind developers");
MODULE_DESCRIPTION("Wind: reliable datagrams for software distributed shared memory");
/* socket(AF_INET, SOCK_WIND, 0) and socket(AF_INET, SOCK_WIND, IPPROTO_WIND) */
MODULE_ALIAS("net-pf-2-proto-0-type-7");
MODULE_ALIAS("net-pf-2-proto-253-type-7");
/* socket(AF_INET6, SOCK_WIND, 0) and with IPPROTO_WIND */
MODULE_ALIAS("net-pf-10-proto-0-type-7");
MODULE_ALIAS("net-pf-10-proto-253-type-7");
