// SPDX-License-Identifier: GPL-2.0
/*
 * Wind: module init and exit.  Registers the protocol with AF_INET as
 * SOCK_WIND/IPPROTO_WIND and unwinds in reverse.
 */
#include <linux/module.h>
#include <net/protocol.h>
#include <net/sock.h>

#include "protocol.h"

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

static int __init wind_init(void)
{
	int err;

	err = proto_register(&wind_prot, 1);
	if (err)
		return err;

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

	inet_register_protosw(&wind_protosw);
	pr_info("wind: reliable datagrams, protocol %d, socket type %d\n",
		IPPROTO_WIND, SOCK_WIND);
	return 0;

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
	return err;
}

static void __exit wind_exit(void)
{
	inet_unregister_protosw(&wind_protosw);
	inet_del_protocol(&wind_protocol, IPPROTO_WIND);
	/* inet_del_protocol waited for readers; no new packet reaches us */
	wind_diag_exit();
	wind_offload_exit();
	wind_genl_exit();
	wind_netns_exit();
	wind_mem_exit();
	/* peers are freed by call_rcu(): let every callback finish */
	rcu_barrier();
	proto_unregister(&wind_prot);
}

module_init(wind_init);
module_exit(wind_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The Wind developers");
MODULE_DESCRIPTION("Wind: reliable datagrams for software distributed shared memory");
/* socket(AF_INET, SOCK_WIND, 0) and socket(AF_INET, SOCK_WIND, IPPROTO_WIND) */
MODULE_ALIAS("net-pf-2-proto-0-type-7");
MODULE_ALIAS("net-pf-2-proto-253-type-7");
