// SPDX-License-Identifier: GPL-2.0
/*
 * Wind's own port space, one table per network namespace, shared by
 * IPv4 and IPv6.  A port is taken by (address, port): two sockets may
 * share a port only if no packet could be for both (addrs_clash()).
 */
#include <linux/random.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "netns.h"
#include "port.h"
#include "sock.h"

static struct hlist_head *port_bucket(struct wind_net *wn, u16 port)
{
	return &wn->ports[hash_32(port, WIND_PORT_HASH_BITS)];
}

/* Does @sk receive IPv4 packets, and at which address (*@addr, 0 for
 * any)?  An AF_INET6 socket does, bound to :: or a v4-mapped address,
 * unless IPV6_V6ONLY.
 */
static bool sk_rcv4(const struct sock *sk, __be32 *addr)
{
	if (sk->sk_family == AF_INET) {
		*addr = inet_sk(sk)->inet_rcv_saddr;
		return true;
	}
	if (sk->sk_ipv6only)
		return false;
	if (ipv6_addr_any(&sk->sk_v6_rcv_saddr)) {
		*addr = 0;
		return true;
	}
	if (ipv6_addr_v4mapped(&sk->sk_v6_rcv_saddr)) {
		*addr = sk->sk_v6_rcv_saddr.s6_addr32[3];
		return true;
	}
	return false;
}

/* Does @sk receive IPv6 packets, and at which address (:: for any)? */
static bool sk_rcv6(const struct sock *sk, const struct in6_addr **addr)
{
	if (sk->sk_family != AF_INET6 ||
	    ipv6_addr_v4mapped(&sk->sk_v6_rcv_saddr))
		return false;
	*addr = &sk->sk_v6_rcv_saddr;
	return true;
}

/* May @a and @b both receive a packet to the same address and port? */
static bool addrs_clash(const struct sock *a, const struct sock *b)
{
	const struct in6_addr *a6, *b6;
	__be32 a4, b4;

	if (sk_rcv4(a, &a4) && sk_rcv4(b, &b4) && (!a4 || !b4 || a4 == b4))
		return true;
	return sk_rcv6(a, &a6) && sk_rcv6(b, &b6) &&
	       (ipv6_addr_any(a6) || ipv6_addr_any(b6) ||
		ipv6_addr_equal(a6, b6));
}

static bool port_in_use(struct wind_net *wn, u16 port, const struct sock *sk)
{
	struct wind_sock *ws;

	lockdep_assert_held(&wn->port_lock);
	hlist_for_each_entry(ws, port_bucket(wn, port), port_node) {
		if (ws->inet.inet_num == port && addrs_clash(&ws->inet.sk, sk))
			return true;
	}
	return false;
}

/**
 * wind_port_get() - bind a socket to a port (proto.get_port)
 * @sk: the socket, locked, with its bound address set
 * @snum: the port, or 0 for an ephemeral one
 *
 * Return: 0, or -EADDRINUSE when the port (or every ephemeral port) is
 * taken.
 */
int wind_port_get(struct sock *sk, unsigned short snum)
{
	struct wind_net *wn = wind_net(sock_net(sk));
	struct inet_sock *inet = inet_sk(sk);
	int low, high, remaining, err = -EADDRINUSE;
	u16 port;

	wind_sock_assert_held(sk);
	spin_lock_bh(&wn->port_lock);
	if (snum) {
		if (port_in_use(wn, snum, sk))
			goto out;
		port = snum;
	} else {
		inet_get_local_port_range(sock_net(sk), &low, &high);
		remaining = high - low + 1;
		port = low + get_random_u32_below(remaining);
		for (; remaining > 0; remaining--) {
			if (!inet_is_local_reserved_port(sock_net(sk), port) &&
			    !port_in_use(wn, port, sk))
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
 * @daddr: its destination address, an IPv4 one v4-mapped
 * @dport: its destination port
 *
 * A socket bound to @daddr wins over one bound to the wildcard; an IPv4
 * packet may reach an AF_INET6 socket (sk_rcv4()).
 * Context: softirq, under rcu_read_lock().
 * Return: the socket with a reference held, or NULL.
 */
struct sock *wind_port_lookup(struct net *net, const struct in6_addr *daddr,
			      __be16 dport)
{
	bool v4 = ipv6_addr_v4mapped(daddr);
	struct wind_net *wn = wind_net(net);
	u16 port = ntohs(dport);
	struct sock *best = NULL;
	const struct in6_addr *a6;
	struct wind_sock *ws;
	__be32 a4;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "port table walked outside rcu_read_lock()");
	hlist_for_each_entry_rcu(ws, port_bucket(wn, port), port_node) {
		struct sock *sk = &ws->inet.sk;

		if (ws->inet.inet_num != port)
			continue;
		if (v4 && sk_rcv4(sk, &a4)) {
			if (a4 == daddr->s6_addr32[3]) {
				best = sk;
				break;
			}
			if (!a4)
				best = sk;
		} else if (!v4 && sk_rcv6(sk, &a6)) {
			if (ipv6_addr_equal(a6, daddr)) {
				best = sk;
				break;
			}
			if (ipv6_addr_any(a6))
				best = sk;
		}
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
