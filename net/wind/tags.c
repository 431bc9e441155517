// SPDX-License-Identifier: GPL-2.0
/*
 * Tags (wind.rst, "Tags"): every packet names its sender's tag and the
 * one it knows for its receiver, and a packet that names our tag proves
 * that its sender receives at its address.  Here the receiving side of
 * that handshake: which peer state a DATA or ACK packet may act on, the
 * RESETs and CHALLENGEs that answer those that may not, and the RESETs
 * and CHALLENGEs that arrive.
 */
#include <linux/jiffies.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "netlink.h"
#include "netns.h"
#include "peer.h"
#include "skb.h"
#include "sock.h"
#include "tags.h"
#include "timers.h"
#include "tx.h"

/* At most one CHALLENGE per peer in this long (restart claims) */
#define WIND_CHALLENGE_GAP	(HZ / 10)

/* Verified: the packet names our tag towards its sender, which only a
 * host that receives at the sender's address can know (wind.rst,
 * "Tags").
 */
static bool tag_verified(const struct windhdr *wh, u32 local_tag)
{
	return ntohl(wh->dst_tag) == local_tag;
}

/* The peer (new, or one whose tag we held unverified) now has the tag
 * @src_tag; a verified tag that replaces a verified one is a restart.
 */
static void peer_retag(struct wind_peer *peer, const struct windhdr *wh,
		       bool verified)
{
	struct net *net = sock_net(peer->sk);

	if (verified && peer->tag_ok && peer->remote_tag) {
		/* the peer restarted: its old self is gone */
		WIND_INC_STATS(net, WIND_MIB_PEERS_RESET);
		wind_peer_fail(peer, ECONNRESET);
		wind_peer_event(peer, WIND_PEER_EVENT_RESTART, ECONNRESET);
	}
	peer->remote_tag = ntohl(wh->src_tag);
	peer->tag_ok = 0;
	if (verified)
		wind_peer_verified(peer);
	wind_peer_reset_rx(peer, ntohl(wh->oldest));
}

/* Answer a packet that claims a new tag for a known peer with a
 * CHALLENGE: a restarted peer answers it naming our tag, an off-path
 * host never sees it.  At most one per WIND_CHALLENGE_GAP per peer.
 */
static void challenge(struct sock *sk, struct sk_buff *skb,
		      struct wind_peer *peer)
{
	u32 now = jiffies;

	if (peer->challenge_at &&
	    now - peer->challenge_at < WIND_CHALLENGE_GAP)
		return;
	peer->challenge_at = now ?: 1;
	wind_send_ctl(sk, skb, WIND_PKT_CHALLENGE, peer->local_tag,
		      peer->snd_una);
}

/* A first contact given no state (at unverified_max, a peer limit or
 * out of memory): a CHALLENGE that the sender answers naming our tag,
 * SYN-cookie style, at most WIND_RESET_RATE a second as RESETs.
 */
static void no_state(struct sock *sk, struct sk_buff *skb, u32 local_tag)
{
	WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_NO_STATE);
	if (__ratelimit(&wind_sk(sk)->challenge_rs))
		wind_send_ctl(sk, skb, WIND_PKT_CHALLENGE, local_tag, 0);
}

/**
 * wind_dsm_unverified() - drop a DSM packet from a peer not proven yet
 * @sk: our socket, locked
 * @skb: the packet, its Wind header validated
 * @peer: the peer state of its source, or NULL: none yet
 *
 * A DSM packet (a region and a key to try) from a peer that has not
 * proven its address: no key is tried for it.  Dropped before
 * reassembly, unacknowledged, and answered with a CHALLENGE; a real
 * sender answers it and sends again at once (wind_challenge_rcv()).  With no
 * peer state yet the CHALLENGE is stateless and none is made, as for
 * the first contacts past unverified_max (and rate-limited as theirs).
 *
 * Return: true when it was dropped: the caller frees it.
 */
bool wind_dsm_unverified(struct sock *sk, struct sk_buff *skb,
			 struct wind_peer *peer)
{
	const struct windhdr *wh = wind_hdr(skb);
	struct in6_addr saddr, daddr;
	u32 local_tag;

	wind_sock_assert_held(sk);
	if ((wh->version_type & 0xf) != WIND_PKT_DATA ||
	    !(wh->flags & WIND_F_DSM))
		return false;
	if (peer) {
		if (peer->tag_ok)
			return false;
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_DSM_UNVERIFIED);
		challenge(sk, skb, peer);
		return true;
	}
	/* our tag: a verified first contact; any other: wind_tags_rcv()
	 * counts, RESETs and drops it
	 */
	if (wh->dst_tag)
		return false;
	wind_skb_addrs(skb, &saddr, &daddr);
	local_tag = wind_local_tag(sk, &saddr, wh->source);
	WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_DSM_UNVERIFIED);
	if (__ratelimit(&wind_sk(sk)->challenge_rs))
		wind_send_ctl(sk, skb, WIND_PKT_CHALLENGE, local_tag, 0);
	return true;
}

/**
 * wind_tags_rcv() - the peer state a DATA or ACK packet may act on
 * @sk: our socket, locked
 * @skb: the packet, its Wind header validated
 * @peer: the peer state of its source, or NULL: none yet (a first
 *	  contact may make one)
 *
 * Given the packet's tags.  The rules and why they hold are in wind.rst,
 * "Tags".
 *
 * Return: the peer, or NULL when the packet was answered (RESET,
 * CHALLENGE) or counted, and is to be dropped.
 */
struct wind_peer *wind_tags_rcv(struct sock *sk, struct sk_buff *skb,
				struct wind_peer *peer)
{
	const struct windhdr *wh = wind_hdr(skb);
	struct wind_sock *ws = wind_sk(sk);
	struct net *net = sock_net(sk);
	u8 type = wh->version_type & 0xf;
	struct in6_addr saddr, daddr;
	u32 local_tag;
	bool verified;
	int oif;

	wind_sock_assert_held(sk);
	wind_skb_addrs(skb, &saddr, &daddr);
	local_tag = peer ? peer->local_tag :
			   wind_local_tag(sk, &saddr, wh->source);
	verified = tag_verified(wh, local_tag);
	if (wh->dst_tag && !verified) {
		/* meant for an earlier socket on this port, or forged */
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_TAG);
		if (type == WIND_PKT_DATA)
			wind_send_ctl(sk, skb, WIND_PKT_RESET, local_tag,
				      peer ? peer->snd_una : 0);
		return NULL;
	}
	if (!peer) {
		if (type != WIND_PKT_DATA || ws->closing) {
			WIND_INC_STATS(net, WIND_MIB_IN_ERR_TAG);
			return NULL;
		}
		if (!verified &&
		    ws->unverified >= WIND_PARAM(sk, unverified_max)) {
			/* SYN-cookie style: no state until it answers */
			no_state(sk, skb, local_tag);
			return NULL;
		}
		/* a link-local peer is reached where it came from */
		oif = ipv6_addr_type(&saddr) & IPV6_ADDR_LINKLOCAL ?
		      skb->skb_iif : 0;
		peer = wind_peer_create(sk, &saddr, wh->source, &daddr, oif,
					GFP_ATOMIC, WIND_PEER_RCV |
					(verified ? WIND_PEER_VERIFIED : 0));
		if (IS_ERR(peer)) {
			/* at a peer limit, or out of memory: a verified
			 * packet has nothing left to prove, and is only
			 * counted (its sender retries on its timers)
			 */
			if (verified)
				WIND_INC_STATS(net, WIND_MIB_IN_NO_STATE);
			else
				no_state(sk, skb, local_tag);
			return NULL;
		}
		if (!verified) {
			peer->unverified = 1;
			ws->unverified++;
		}
		peer_retag(peer, wh, verified);
		return peer;
	}
	if (peer->remote_tag == ntohl(wh->src_tag)) {
		if (verified && !peer->tag_ok)
			wind_peer_verified(peer);
		return peer;
	}
	if (!verified) {
		/* "I restarted", from the peer or from anybody: only the
		 * peer can prove it.  So is a first tag for a peer we sent
		 * to and have not heard from (remote_tag 0): the real peer
		 * has our tag from our first packet and names it; a third
		 * party that races its answer must not choose the tag.
		 */
		WIND_INC_STATS(net, WIND_MIB_IN_ERR_TAG);
		if (type == WIND_PKT_DATA)
			challenge(sk, skb, peer);
		return NULL;
	}
	peer_retag(peer, wh, true);
	return peer;
}

/**
 * wind_reset_rcv() - a RESET: the peer says the tag we named is not its own
 * @sk: our socket, locked
 * @peer: the peer state of its source, or NULL
 * @wh: the RESET's Wind header, validated
 *
 * Only a RESET that names our tag towards it, from a tag other than the
 * one we know, acts.  If the tag we knew was proven, the peer restarted,
 * and its new self is verified.  If it was not (a first packet from its
 * address that the peer did not send), the real peer never had our
 * messages: its tag replaces the one we held, whose stream is dropped,
 * and what we queued to it goes again, now naming its real tag.
 */
void wind_reset_rcv(struct sock *sk, struct wind_peer *peer,
		    const struct windhdr *wh)
{
	wind_sock_assert_held(sk);
	if (!peer || !tag_verified(wh, peer->local_tag) ||
	    peer->remote_tag == ntohl(wh->src_tag)) {
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
		return;
	}
	if (!peer->tag_ok) {
		peer->remote_tag = ntohl(wh->src_tag);
		wind_peer_verified(peer);
		wind_peer_reset_rx(peer, ntohl(wh->oldest));
		/* it has no state of ours yet: our seqs may jump */
		peer->got_ack = 0;
		peer->last_active = jiffies;
		wind_rtx_now(peer);
		return;
	}
	WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_RESET);
	wind_peer_fail(peer, ECONNRESET);
	peer->remote_tag = ntohl(wh->src_tag);
	wind_peer_verified(peer);
	peer->got_ack = 0;
	wind_peer_event(peer, WIND_PEER_EVENT_RESTART, ECONNRESET);
}

/**
 * wind_challenge_rcv() - a CHALLENGE: the peer does not know the tag we claimed
 * @sk: our socket, locked
 * @peer: the peer state of its source, or NULL
 * @wh: the CHALLENGE's Wind header, validated
 *
 * We are new to the peer, or it is new to us.  If it names our tag, the
 * peer's tag is now known and verified, and what waits for it goes at
 * once instead of at the next timeout.
 */
void wind_challenge_rcv(struct sock *sk, struct wind_peer *peer,
			const struct windhdr *wh)
{
	wind_sock_assert_held(sk);
	if (!peer || !tag_verified(wh, peer->local_tag)) {
		WIND_INC_STATS(sock_net(sk), WIND_MIB_IN_ERR_TAG);
		return;
	}
	if (peer->remote_tag != ntohl(wh->src_tag)) {
		if (peer->tag_ok && peer->remote_tag) {
			WIND_INC_STATS(sock_net(sk), WIND_MIB_PEERS_RESET);
			wind_peer_fail(peer, ECONNRESET);
			wind_peer_event(peer, WIND_PEER_EVENT_RESTART,
					ECONNRESET);
		}
		peer->remote_tag = ntohl(wh->src_tag);
		/* its stream to us starts where the CHALLENGE says */
		wind_peer_reset_rx(peer, ntohl(wh->oldest));
	}
	wind_peer_verified(peer);
	peer->last_active = jiffies;
	wind_rtx_now(peer);
}
