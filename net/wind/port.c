// SPDX-License-Identifier: GPL-2.0
/*
 * Wind's own port space, one table per network namespace.  A port is
 * taken by (address, port): two sockets may share a port only on two
 * different specific local addresses.
 */
#include <linux/random.h>
#include <net/ip.h>
#include <net/sock.h>

#include "protocol.h"

static struct hlist_head *port_bucket(struct wind_net *wn, u16 port)
{
	return &wn->ports[hash_32(port, WIND_PORT_HASH_BITS)];
}

static bool port_in_use(struct wind_net *wn, u16 port, __be32 addr)
{
	struct wind_sock *ws;

	lockdep_assert_held(&wn->port_lock);
	hlist_for_each_entry(ws, port_bucket(wn, port), port_node) {
		const struct inet_sock *inet = &ws->inet;

		if (inet->inet_num != port)
			continue;
		if (!inet->inet_rcv_saddr || !addr ||
		    inet->inet_rcv_saddr == addr)
			return true;
	}
	return false;
}

/**
 * wind_port_get() - bind a socket to a port (proto.get_port)
 * @sk: the socket, locked, with inet_rcv_saddr set
 * @snum: the port, or 0 for an ephemeral one
 *
 * Return: 0, or -EADDRINUSE when the port (or every ephemeral port) is
 * taken.
 */
int wind_port_get(struct sock *sk, unsigned short snum)
{
	struct wind_net *wn = wind_net(sock_net(sk));
	struct inet_sock *inet = inet_sk(sk);
	__be32 addr = inet->inet_rcv_saddr;
	int low, high, remaining, err = -EADDRINUSE;
	u16 port;

	spin_lock_bh(&wn->port_lock);
	if (snum) {
		if (port_in_use(wn, snum, addr))
			goto out;
		port = snum;
	} else {
		inet_get_local_port_range(sock_net(sk), &low, &high);
		remaining = high - low + 1;
		port = low + get_random_u32_below(remaining);
		for (; remaining > 0; remaining--) {
			if (!inet_is_local_reserved_port(sock_net(sk), port) &&
			    !port_in_use(wn, port, addr))
				break;
			port = port >= high ? low : port + 1;
		}
		if (!remaining)
			goto out;
	}
	inet->inet_num = port;
	hlist_add_head_rcu(&wind_sk(sk)->port_node, port_bucket(wn, port));
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
	err = 0;
out:
	spin_unlock_bh(&wn->port_lock);
	return err;
}

/**
 * wind_port_put() - release a socket's port (proto.unhash)
 * @sk: the socket
 */
void wind_port_put(struct sock *sk)
{
	struct wind_net *wn = wind_net(sock_net(sk));
	struct wind_sock *ws = wind_sk(sk);

	spin_lock_bh(&wn->port_lock);
	if (!hlist_unhashed(&ws->port_node)) {
		hlist_del_init_rcu(&ws->port_node);
		inet_sk(sk)->inet_num = 0;
		sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	}
	spin_unlock_bh(&wn->port_lock);
}

/**
 * wind_port_lookup() - find the socket a packet is for
 * @net: the namespace it arrived in
 * @daddr: its destination address
 * @dport: its destination port
 *
 * A socket bound to @daddr wins over one bound to INADDR_ANY.
 * Context: softirq, under rcu_read_lock().
 * Return: the socket with a reference held, or NULL.
 */
struct sock *wind_port_lookup(struct net *net, __be32 daddr, __be16 dport)
{
	struct wind_net *wn = wind_net(net);
	u16 port = ntohs(dport);
	struct sock *best = NULL;
	struct wind_sock *ws;

	hlist_for_each_entry_rcu(ws, port_bucket(wn, port), port_node) {
		const struct inet_sock *inet = &ws->inet;

		if (inet->inet_num != port)
			continue;
		if (inet->inet_rcv_saddr == daddr) {
			best = &ws->inet.sk;
			break;
		}
		if (!inet->inet_rcv_saddr)
			best = &ws->inet.sk;
	}
	if (best && !refcount_inc_not_zero(&best->sk_refcnt))
		best = NULL;
	return best;
}

/**
 * wind_port_init() - set up a namespace's port table
 * @wn: the namespace's Wind state
 *
 * Return: 0.
 */
int wind_port_init(struct wind_net *wn)
{
	int i;

	spin_lock_init(&wn->port_lock);
	for (i = 0; i < ARRAY_SIZE(wn->ports); i++)
		INIT_HLIST_HEAD(&wn->ports[i]);
	return 0;
}
