// SPDX-License-Identifier: GPL-2.0
/*
 * The socket layer: struct proto and proto_ops for SOCK_WIND, socket
 * options, recvmsg() and its error queue, connect() and close().
 */
#include <linux/errqueue.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <asm/ioctls.h>
#include <linux/sockios.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/transp_v6.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "dsm.h"
#include "info.h"
#include "input.h"
#include "mem.h"
#include "netns.h"
#include "peer.h"
#include "port.h"
#include "push.h"
#include "rma.h"
#include "rwnd.h"
#include "sendmsg.h"
#include "skb.h"
#include "sock.h"
#include "tx.h"

static int wind_init_sock(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	int i, err;

	err = wind_peers_init(sk);
	if (err)
		return err;
	do {
		ws->incarnation = get_random_u32();
	} while (!ws->incarnation);
	get_random_bytes(&ws->tag_key, sizeof(ws->tag_key));
	get_random_bytes(&ws->keyfail_key, sizeof(ws->keyfail_key));
	for (i = 0; i < ARRAY_SIZE(ws->keyfail); i++) {
		ws->keyfail[i].tokens = WIND_KEYFAIL_BURST;
		ws->keyfail[i].stamp = jiffies;
	}
	ratelimit_state_init(&ws->reset_rs, HZ, WIND_RESET_RATE);
	/* RESETs held back are not logged: it is never exited */
	ratelimit_set_flags(&ws->reset_rs, RATELIMIT_MSG_ON_RELEASE);
	/* stateless CHALLENGEs (tags.c) as RESETs */
	ratelimit_state_init(&ws->challenge_rs, HZ, WIND_RESET_RATE);
	ratelimit_set_flags(&ws->challenge_rs, RATELIMIT_MSG_ON_RELEASE);
	spin_lock_init(&ws->mem_lock);
	__skb_queue_head_init(&ws->rx_batch);
	ws->msgtype = WIND_ASYNC_ORDERED;
	ws->encap = WIND_PARAM(sk, encap);
	INIT_HLIST_NODE(&ws->port_node);
	timer_setup(&ws->gc_timer, wind_peers_gc, 0);
	xa_init(&ws->regions);
	/* freeing acknowledged packets wakes writers once per ACK, not once
	 * per packet (wind_ack_rcv() calls sk_write_space)
	 */
	sock_set_flag(sk, SOCK_USE_WRITE_QUEUE);
	/* the receive path finds sockets under RCU */
	sock_set_flag(sk, SOCK_RCU_FREE);
	/* messages are split at the path MTU, never fragmented by IP */
	inet_sk(sk)->pmtudisc = IP_PMTUDISC_DO;
	return 0;
}

static bool write_queues_empty(struct wind_sock *ws)
{
	struct wind_peer *peer;

	list_for_each_entry(peer, &ws->peer_list, node)
		if (!skb_queue_empty(&peer->wq))
			return false;
	return true;
}

static void flush_acks(struct wind_sock *ws)
{
	struct wind_peer *peer;

	list_for_each_entry(peer, &ws->peer_list, node)
		if (peer->ack_pending || peer->nrefused)
			wind_send_ack(peer);
}

/* close() flushes: it waits until every queued message is acknowledged or
 * its peer declared unreachable.  While it waits, only acknowledged data
 * renews a peer's retry budget: a peer that answers probes but never opens
 * its window is declared unreachable too.  SO_LINGER bounds the wait (0:
 * discard at once); a signal ends it.
 */
static void wind_close(struct sock *sk, long timeout)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct wind_sock *ws = wind_sk(sk);
	long timeo = MAX_SCHEDULE_TIMEOUT;

	if (sock_flag(sk, SOCK_LINGER))
		timeo = sk->sk_lingertime;
	lock_sock(sk);
	ws->flushing = 1;
	wind_uncork(sk, true);
	add_wait_queue(sk_sleep(sk), &wait);
	while (timeo && !write_queues_empty(ws) && !signal_pending(current))
		sk_wait_event(sk, &timeo, write_queues_empty(ws), &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
	ws->closing = 1;
	/* what we received is delivered: say so before we go */
	flush_acks(ws);
	wind_peers_destroy(sk);
	WARN_ON_ONCE(ws->ooo_pkts);	/* every held packet was counted out */
	wind_regions_destroy(sk);
	wind_pages_release(sk);
	sk_stop_timer(sk, &ws->gc_timer);
	/* closing: no peer is made from now on, and none is left */
	wind_peers_free_tables(sk);
	release_sock(sk);
	sk_common_release(sk);
}

/* The default peer; an IPv6 link-local one binds the socket to its
 * interface, as UDP's connect() does.
 */
static int wind_connect(struct sock *sk, struct sockaddr *uaddr, int len)
{
	struct inet_sock *inet = inet_sk(sk);
	struct in6_addr daddr;
	__be16 dport;
	int err, oif;

	err = wind_sockaddr_parse(sk, uaddr, len, &daddr, &dport, &oif);
	if (err)
		return err;
	lock_sock(sk);
	if (oif && oif != sk->sk_bound_dev_if) {
		if (sk->sk_bound_dev_if) {
			release_sock(sk);
			return -EINVAL;
		}
		sk->sk_bound_dev_if = oif;
	}
	inet->inet_daddr = ipv6_addr_v4mapped(&daddr) ? daddr.s6_addr32[3] :
							LOOPBACK4_IPV6;
#if IS_ENABLED(CONFIG_IPV6)
	sk->sk_v6_daddr = daddr;
#endif
	inet->inet_dport = dport;
	sk->sk_state = TCP_ESTABLISHED;
	release_sock(sk);
	return 0;
}

static int wind_disconnect(struct sock *sk, int flags)
{
	struct inet_sock *inet = inet_sk(sk);

	sk->sk_state = TCP_CLOSE;
	inet->inet_daddr = 0;
#if IS_ENABLED(CONFIG_IPV6)
	memset(&sk->sk_v6_daddr, 0, sizeof(sk->sk_v6_daddr));
#endif
	inet->inet_dport = 0;
	return 0;
}

static int wind_setsockopt(struct sock *sk, int level, int optname,
			   sockptr_t optval, unsigned int optlen)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_region reg;
	u32 id;
	int val, err;

	if (level == SOL_IPV6 && sk->sk_family == AF_INET6)
		return ipv6_setsockopt(sk, level, optname, optval, optlen);
	if (level != SOL_WIND)
		return ip_setsockopt(sk, level, optname, optval, optlen);

	switch (optname) {
	case WIND_MSGTYPE:
	case WIND_RECVERR:
	case WIND_ENCAP:
	case WIND_CORK:
	case WIND_NODELAY:
		if (optlen < sizeof(int))
			return -EINVAL;
		if (copy_from_sockptr(&val, optval, sizeof(val)))
			return -EFAULT;
		break;
	case WIND_REGION_ADD:
		if (optlen != sizeof(reg))
			return -EINVAL;
		if (copy_from_sockptr(&reg, optval, sizeof(reg)))
			return -EFAULT;
		lock_sock(sk);
		err = wind_region_add(sk, &reg);
		release_sock(sk);
		return err;
	case WIND_REGION_DEL:
		if (optlen != sizeof(id))
			return -EINVAL;
		if (copy_from_sockptr(&id, optval, sizeof(id)))
			return -EFAULT;
		lock_sock(sk);
		err = wind_region_del(sk, id);
		release_sock(sk);
		return err;
	default:
		return -ENOPROTOOPT;
	}

	lock_sock(sk);
	switch (optname) {
	case WIND_MSGTYPE:
		if (val < WIND_ASYNC_ORDERED || val > WIND_SYNC_ORDERED) {
			release_sock(sk);
			return -EINVAL;
		}
		WRITE_ONCE(ws->msgtype, val);
		break;
	case WIND_RECVERR:
		ws->recverr = !!val;
		if (!val)
			skb_queue_purge(&sk->sk_error_queue);
		break;
	case WIND_CORK:
		if (val != 0 && val != 1) {
			release_sock(sk);
			return -EINVAL;
		}
		ws->cork = val;
		if (!val)
			wind_uncork(sk, true);
		break;
	case WIND_NODELAY: {
		struct wind_peer *peer;

		if (val != 0 && val != 1) {
			release_sock(sk);
			return -EINVAL;
		}
		ws->nodelay = val;
		if (!val)
			break;
		/* what the rule held leaves now; corks still hold */
		list_for_each_entry(peer, &ws->peer_list, node)
			if (peer->send_head)
				wind_push(peer);
		break;
	}
	case WIND_ENCAP: {
		struct wind_peer *peer;

		if (val != WIND_ENCAP_RAW && val != WIND_ENCAP_UDP) {
			release_sock(sk);
			return -EINVAL;
		}
		WRITE_ONCE(ws->encap, val);
		/* peers that reached us inside UDP stay there */
		list_for_each_entry(peer, &ws->peer_list, node)
			wind_peer_set_form(peer);
		break;
	}
	}
	release_sock(sk);
	return 0;
}

static int wind_getsockopt(struct sock *sk, int level, int optname,
			   char __user *optval, int __user *optlen)
{
	struct wind_sock *ws = wind_sk(sk);
	int val, len;

	if (level == SOL_IPV6 && sk->sk_family == AF_INET6)
		return ipv6_getsockopt(sk, level, optname, optval, optlen);
	if (level != SOL_WIND)
		return ip_getsockopt(sk, level, optname, optval, optlen);
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	switch (optname) {
	case WIND_MSGTYPE:
		val = READ_ONCE(ws->msgtype);
		break;
	case WIND_RECVERR:
		val = ws->recverr;
		break;
	case WIND_ENCAP:
		val = READ_ONCE(ws->encap);
		break;
	case WIND_CORK:
		val = ws->cork;
		break;
	case WIND_NODELAY:
		val = ws->nodelay;
		break;
	case WIND_PEER_INFO:
		return wind_peer_info_get(sk, optval, optlen, len);
	default:
		return -ENOPROTOOPT;
	}
	len = min_t(int, len, sizeof(val));
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

/* MSG_ERRQUEUE: one failure report, the peer as offender. */
static int wind_recv_error(struct sock *sk, struct msghdr *msg, int *addr_len)
{
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;
	struct {
		struct sock_extended_err ee;
		union {
			struct sockaddr_in sin;
			struct sockaddr_in6 sin6;
		} offender;
	} errhdr;
	/* the offender as wind_report_error() put it: the socket's family */
	bool v6 = sk->sk_family == AF_INET6;
	int alen = v6 ? sizeof(struct sockaddr_in6) :
			sizeof(struct sockaddr_in);

	skb = sock_dequeue_err_skb(sk);
	if (!skb)
		return -EAGAIN;
	serr = SKB_EXT_ERR(skb);
	memset(&errhdr, 0, sizeof(errhdr));
	memcpy(&errhdr.offender, skb->data, alen);
	if (msg->msg_name) {
		memcpy(msg->msg_name, &errhdr.offender, alen);
		*addr_len = alen;
	}
	errhdr.ee = serr->ee;
	if (v6)
		put_cmsg(msg, SOL_IPV6, IPV6_RECVERR,
			 sizeof(errhdr.ee) + alen, &errhdr);
	else
		put_cmsg(msg, SOL_IP, IP_RECVERR, sizeof(errhdr.ee) + alen,
			 &errhdr);
	msg->msg_flags |= MSG_ERRQUEUE;
	consume_skb(skb);
	return 0;
}

/* After a read freed room, tell the peers whose window we had nearly shut,
 * once it is open to half its share again: one update per peer,
 * not one per read.  The peers are looked at only once reads freed a
 * sixteenth of the buffer since the fullest it was while a window was
 * shut (wind_rcv_window()) or a read found it since they were last: not
 * for every small message read while a peer stays starved.
 */
static void window_update(struct sock *sk)
{
	int free = READ_ONCE(sk->sk_rcvbuf) - sk_rmem_alloc_get(sk);
	struct wind_sock *ws = wind_sk(sk);
	struct wind_peer *peer;

	if (free < READ_ONCE(ws->wu_free))
		WRITE_ONCE(ws->wu_free, free);
	if (free < READ_ONCE(ws->wu_free) + (READ_ONCE(sk->sk_rcvbuf) >> 4))
		return;
	WRITE_ONCE(ws->wu_free, free);
	lock_sock(sk);
	list_for_each_entry(peer, &ws->peer_list, node) {
		if (!ws->starved)
			break;
		if (!peer->starved || wind_free_window(peer) <
				      wind_fair_window(peer) / 2)
			continue;
		peer->starved = 0;
		ws->starved--;
		wind_send_ack(peer);
	}
	release_sock(sk);
}

static int wind_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			int flags, int *addr_len)
{
	DECLARE_SOCKADDR(struct sockaddr_in *, sin, msg->msg_name);
	DECLARE_SOCKADDR(struct sockaddr_in6 *, sin6, msg->msg_name);
	struct sk_buff *skb;
	struct wind_dsm dsm;
	struct wind_rma rma;
	int err, copied, off = 0;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (flags & MSG_ERRQUEUE)
		return wind_recv_error(sk, msg, addr_len);

	skb = skb_recv_datagram(sk, flags, &err);
	if (!skb)
		return err;
	/* a one-sided completion: its wire headers precede the result */
	if (WIND_SKB_CB(skb)->flags & WIND_F_RMA_DONE) {
		off = WIND_RMA_HLEN;
		wind_rma_completion(skb, &rma);
		put_cmsg(msg, SOL_WIND, WIND_CMSG_RMA, sizeof(rma), &rma);
	} else if (WIND_SKB_CB(skb)->flags & WIND_F_DSM) {
		/* Header Through: a wind_dsm record precedes the header */
		off = sizeof(dsm);
		skb_copy_bits(skb, 0, &dsm, sizeof(dsm));
		put_cmsg(msg, SOL_WIND, WIND_CMSG_DSM, sizeof(dsm), &dsm);
	}
	copied = skb->len - off;
	if (copied > len) {
		copied = len;
		msg->msg_flags |= MSG_TRUNC;
	}
	err = skb_copy_datagram_msg(skb, off, msg, copied);
	if (err) {
		skb_free_datagram(sk, skb);
		return err;
	}
	sock_recv_cmsgs(msg, sk, skb);
	if (sin6 && sk->sk_family == AF_INET6) {
		/* an IPv4 sender v4-mapped, as UDP's */
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = WIND_SKB_CB(skb)->sport;
		sin6->sin6_flowinfo = 0;
		sin6->sin6_addr = WIND_SKB_CB(skb)->saddr;
		sin6->sin6_scope_id =
			ipv6_iface_scope_id(&sin6->sin6_addr, skb->skb_iif);
		*addr_len = sizeof(*sin6);
	} else if (sin) {
		sin->sin_family = AF_INET;
		sin->sin_port = WIND_SKB_CB(skb)->sport;
		sin->sin_addr.s_addr = WIND_SKB_CB(skb)->saddr.s6_addr32[3];
		memset(sin->sin_zero, 0, sizeof(sin->sin_zero));
		*addr_len = sizeof(*sin);
	}
	if (flags & MSG_TRUNC)
		copied = skb->len - off;
	skb_free_datagram(sk, skb);
	if (READ_ONCE(wind_sk(sk)->starved) && !(flags & MSG_PEEK))
		window_update(sk);
	return copied;
}

static int wind_hash(struct sock *sk)
{
	return 0;	/* ports are taken by get_port at bind */
}

static int wind_ioctl(struct socket *sock, unsigned int cmd,
		      unsigned long arg)
{
	struct sock *sk = sock->sk;
	struct sk_buff *skb;
	int amount;

	switch (cmd) {
	case SIOCOUTQ:
		amount = sk_wmem_alloc_get(sk);
		return put_user(amount, (int __user *)arg);
	case SIOCINQ:
		spin_lock_bh(&sk->sk_receive_queue.lock);
		skb = skb_peek(&sk->sk_receive_queue);
		amount = skb ? skb->len : 0;
		if (skb && (WIND_SKB_CB(skb)->flags & WIND_F_RMA_DONE))
			amount -= WIND_RMA_HLEN;
		else if (skb && (WIND_SKB_CB(skb)->flags & WIND_F_DSM))
			amount -= sizeof(struct wind_dsm);
		spin_unlock_bh(&sk->sk_receive_queue.lock);
		return put_user(amount, (int __user *)arg);
	}
	if (sk->sk_family == AF_INET6)
		return inet6_ioctl(sock, cmd, arg);
	return inet_ioctl(sock, cmd, arg);
}

struct proto wind_prot = {
	.name		= "WIND",
	.owner		= THIS_MODULE,
	.close		= wind_close,
	.connect	= wind_connect,
	.disconnect	= wind_disconnect,
	.init		= wind_init_sock,
	.setsockopt	= wind_setsockopt,
	.getsockopt	= wind_getsockopt,
	.sendmsg	= wind_sendmsg,
	.recvmsg	= wind_recvmsg,
	.backlog_rcv	= wind_backlog_rcv,
	.hash		= wind_hash,
	.unhash		= wind_port_put,
	.get_port	= wind_port_get,
	.memory_allocated = &wind_memory_allocated,
	.per_cpu_fw_alloc = &wind_memory_per_cpu_fw_alloc,
	.sysctl_mem	= wind_mem,
	.sysctl_rmem	= &wind_rmem_min,
	.sysctl_wmem	= &wind_wmem_min,
	.obj_size	= sizeof(struct wind_sock),
};

const struct proto_ops wind_dgram_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= inet_bind,
	.connect	= inet_dgram_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet_getname,
	.poll		= datagram_poll,
	.ioctl		= wind_ioctl,
	.gettstamp	= sock_gettstamp,
	.listen		= sock_no_listen,
	.shutdown	= inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= inet_recvmsg,
	.mmap		= sock_no_mmap,
};

#if IS_ENABLED(CONFIG_IPV6)
#ifdef WIND_HAVE_INET6_DESTROY_SOCK
/* Before 6.3 the protocol frees what the IPv6 layer holds (options,
 * flow labels, multicast lists); since, the socket's destructor does.
 */
static void wind6_destroy_sock(struct sock *sk)
{
	inet6_destroy_sock(sk);
}
#endif

/* AF_INET6: the same protocol; struct ipv6_pinfo follows wind_sock. */
struct proto wind6_prot;

const struct proto_ops wind6_dgram_ops = {
	.family		= PF_INET6,
	.owner		= THIS_MODULE,
	.release	= inet6_release,
	.bind		= inet6_bind,
	.connect	= inet_dgram_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet6_getname,
	.poll		= datagram_poll,
	.ioctl		= wind_ioctl,
	.gettstamp	= sock_gettstamp,
	.listen		= sock_no_listen,
	.shutdown	= inet_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= inet_recvmsg,
	.mmap		= sock_no_mmap,
};

/**
 * wind6_prot_init() - make wind6_prot from wind_prot (module init)
 */
void wind6_prot_init(void)
{
	wind6_prot = wind_prot;
	strscpy(wind6_prot.name, "WINDv6", sizeof(wind6_prot.name));
	wind6_prot.obj_size = sizeof(struct wind6_sock);
#ifdef WIND_HAVE_IPV6_PINFO_OFFSET
	wind6_prot.ipv6_pinfo_offset = offsetof(struct wind6_sock, inet6);
#else
	/* inet6_sk_generic() finds it at the end of the object */
	BUILD_BUG_ON(sizeof(struct wind6_sock) !=
		     offsetof(struct wind6_sock, inet6) +
		     sizeof(struct ipv6_pinfo));
#endif
#ifdef WIND_HAVE_INET6_DESTROY_SOCK
	wind6_prot.destroy = wind6_destroy_sock;
#endif
}
#endif
