// SPDX-License-Identifier: GPL-2.0
/*
 * getsockopt(SOL_WIND, WIND_PEER_INFO): one peer's state for the program
 * that talks to it, as TCP_INFO gives a connection's.  The caller names
 * the peer in the buffer; the reply is a snapshot taken under the socket
 * lock, so its fields agree with each other.
 */
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "info.h"
#include "peer.h"
#include "sendmsg.h"
#include "skb.h"
#include "wq.h"

static void peer_info_fill(const struct wind_peer *peer,
			   struct wind_peer_info *info)
{
	const struct wind_sync_waiter *w;
	const struct sk_buff *skb;
	bool sent = true;

	info->wpi_version = WIND_PEER_INFO_VERSION;
	info->wpi_size = sizeof(*info);
	info->wpi_state = wind_peer_status(peer);
	info->wpi_retries = peer->retries;
	info->wpi_srtt_us = peer->rtt.srtt_us;
	info->wpi_rttvar_us = peer->rtt.rttvar_us;
	info->wpi_rto_us = peer->rtt.rto_us;
	info->wpi_mss = peer->mss;
	info->wpi_in_flight = peer->snd_nxt - peer->snd_una;
	info->wpi_sacked = peer->sacked_out;
	skb_queue_walk(&peer->wq, skb) {
		const struct wind_skb_cb *cb = WIND_SKB_CB(skb);

		if (skb == peer->send_head)
			sent = false;
		if (!sent)
			info->wpi_unsent += cb->npkts;
		if (wind_msg_last(skb))
			info->wpi_queued_msgs++;
		info->wpi_queued_bytes += skb->len;
	}
	info->wpi_cwnd = peer->cwnd;
	info->wpi_ssthresh = peer->ssthresh;
	info->wpi_snd_wnd = peer->snd_wnd_end - peer->snd_una;
	info->wpi_rcv_wnd = peer->rcv_wnd;
	info->wpi_rcv_queued = peer->rq_pkts;
	info->wpi_last_active_ms = jiffies_to_msecs(jiffies - peer->last_active);
	info->wpi_local_tag = peer->local_tag;
	info->wpi_remote_tag = peer->remote_tag;
	list_for_each_entry(w, &peer->sync_waiters, node)
		info->wpi_sync_waiters++;
	info->wpi_tx_packets = peer->tx_packets;
	info->wpi_rx_packets = peer->rx_packets;
	info->wpi_tx_messages = peer->tx_messages;
	info->wpi_rx_messages = peer->rx_messages;
	info->wpi_retransmits = peer->retransmits;
	info->wpi_duplicates = peer->duplicates;
	info->wpi_drops = peer->drops;
}

/**
 * wind_peer_info_get() - getsockopt(SOL_WIND, WIND_PEER_INFO)
 * @sk: the socket, not locked
 * @optval: the caller's struct wind_peer_info, the peer's address in it
 * @optlen: its length in; what was copied back out
 * @len: *@optlen, already read and checked not negative
 *
 * Return: 0, -EINVAL for a buffer shorter than WIND_PEER_INFO_MIN_LEN,
 * -EAFNOSUPPORT for an address that is neither AF_INET nor, on an
 * AF_INET6 socket, AF_INET6, -ENOENT when the socket has no state for
 * that peer, -EFAULT for a bad pointer.
 */
int wind_peer_info_get(struct sock *sk, char __user *optval,
		       int __user *optlen, int len)
{
	struct wind_peer_info *info;
	struct sockaddr_in6 sin6;
	struct wind_peer *peer;
	struct in6_addr daddr;
	__be16 dport;
	int err, oif;

	if (len < WIND_PEER_INFO_MIN_LEN)
		return -EINVAL;
	if (copy_from_user(&sin6, optval, sizeof(sin6)))
		return -EFAULT;
	/* a sockaddr_in, or on an AF_INET6 socket a sockaddr_in6 */
	err = wind_sockaddr_parse(sk, &sin6, sizeof(sin6), &daddr, &dport,
				  &oif);
	if (err == -EINVAL || err == -ENETUNREACH)
		err = -ENOENT;		/* no such peer there can be */
	if (err)
		return err;
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	memcpy(&info->wpi_addr, &sin6, sin6.sin6_family == AF_INET6 ?
	       sizeof(sin6) : sizeof(struct sockaddr_in));

	lock_sock(sk);
	peer = wind_peer_lookup(sk, &daddr, dport);
	if (peer)
		peer_info_fill(peer, info);
	else
		err = -ENOENT;
	release_sock(sk);

	if (!err) {
		len = min_t(int, len, sizeof(*info));
		if (put_user(len, optlen) || copy_to_user(optval, info, len))
			err = -EFAULT;
	}
	kfree(info);
	return err;
}
