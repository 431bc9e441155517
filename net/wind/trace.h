/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the event group "wind" (/sys/kernel/tracing/events/wind):
 * packets sent and received, retransmissions and why, pure ACKs, peer
 * state changes, message delivery, DSM writes and congestion window
 * changes.  A disabled tracepoint costs a patched-out branch at its call
 * site.  Documented in Documentation/networking/wind.rst, "Tracepoints".
 *
 * Each event records the local port and the peer's address and port, so
 * that a filter such as 'dport == 7000' or 'daddr == ...' selects one
 * peer's events.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM wind

#if !defined(_WIND_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _WIND_TRACE_H

#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/tracepoint.h>
#include <net/ipv6.h>
#include <net/inet_sock.h>
#include <uapi/linux/wind.h>

#include "peer.h"
#include "skb.h"
#include "wq.h"

/* Why a packet was sent again (wind_retransmit's reason) */
#define WIND_RTX_REASONS			\
	EM(WIND_RTX_TIMEOUT, "timeout")		\
	EM(WIND_RTX_PROBE, "probe")		\
	EM(WIND_RTX_CHALLENGE, "challenge")	\
	EM(WIND_RTX_REFUSED, "refused")		\
	EM(WIND_RTX_RACK, "rack")		\
	EMe(WIND_RTX_RECOVERY, "recovery")

/* What happened to a peer (enum wind_peer_event, the uapi header) */
#define WIND_PEER_EVENTS				\
	EM(WIND_PEER_EVENT_UP, "up")			\
	EM(WIND_PEER_EVENT_RESTART, "restart")		\
	EM(WIND_PEER_EVENT_FAILED, "failed")		\
	EM(WIND_PEER_EVENT_FREED, "freed")		\
	EMe(WIND_PEER_EVENT_DSM_REFUSED, "dsm_refused")

/* Why the congestion window changed */
#define WIND_CWND_REASONS			\
	EM(WIND_CWND_GROW, "grow")		\
	EM(WIND_CWND_LOSS, "loss")		\
	EMe(WIND_CWND_TIMEOUT, "timeout")

#ifndef _WIND_TRACE_ENUMS
#define _WIND_TRACE_ENUMS
#undef EM
#undef EMe
#define EM(a, b)	a,
#define EMe(a, b)	a
enum wind_rtx_reason { WIND_RTX_REASONS };
enum wind_cwnd_reason { WIND_CWND_REASONS };
#endif

#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);

WIND_RTX_REASONS
WIND_PEER_EVENTS
WIND_CWND_REASONS

/* the uapi enums the formats below name, for perf and trace-cmd */
TRACE_DEFINE_ENUM(WIND_PKT_DATA);
TRACE_DEFINE_ENUM(WIND_PKT_ACK);
TRACE_DEFINE_ENUM(WIND_PKT_RESET);
TRACE_DEFINE_ENUM(WIND_DSM_DIRECT_MAP);
TRACE_DEFINE_ENUM(WIND_DSM_HEADER_THROUGH);
TRACE_DEFINE_ENUM(WIND_DSM_DIRECT_DIFF);
TRACE_DEFINE_ENUM(WIND_DSM_HEADER_DIFF);

#undef EM
#undef EMe
#define EM(a, b)	{ a, b },
#define EMe(a, b)	{ a, b }

#define show_wind_type(t)					\
	__print_symbolic(t, { WIND_PKT_DATA, "DATA" },		\
			    { WIND_PKT_ACK, "ACK" },		\
			    { WIND_PKT_RESET, "RESET" })

#define show_wind_flags(f)					\
	__print_flags(f, "|", { WIND_F_ACKREQ, "ACKREQ" },	\
			      { WIND_F_ORDERED, "ORDERED" },	\
			      { WIND_F_SYNC, "SYNC" },		\
			      { WIND_F_DSM, "DSM" },		\
			      { WIND_F_SYN, "SYN" },		\
			      { WIND_F_BUNDLE, "BUNDLE" })

/* The fields and assignments every per-peer event starts with */
#define WIND_PEER_FIELDS						\
	__array(__u8, saddr, sizeof(struct sockaddr_in6))		\
	__array(__u8, daddr, sizeof(struct sockaddr_in6))		\
	__field(__u16, sport)						\
	__field(__u16, dport)

#ifndef WIND_TRACE_STORE_ADDR
#define WIND_TRACE_STORE_ADDR
/* An address as a struct sockaddr (%pISc): an IPv4 one in a
 * sockaddr_in, printed as before IPv6, an IPv6 one in a sockaddr_in6.
 */
static inline void wind_trace_store_addr(u8 *field, const struct in6_addr *a)
{
	memset(field, 0, sizeof(struct sockaddr_in6));
	if (ipv6_addr_v4mapped(a)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)field;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = a->s6_addr32[3];
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)field;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = *a;
	}
}
#endif

#define WIND_PEER_ASSIGN(peer) do {					\
		wind_trace_store_addr(__entry->saddr, &(peer)->saddr6);	\
		wind_trace_store_addr(__entry->daddr, &(peer)->daddr6);	\
		__entry->sport = inet_sk((peer)->sk)->inet_num;		\
		__entry->dport = ntohs((peer)->dport);			\
	} while (0)

#define WIND_PEER_FMT	"%pISc:%u -> %pISc:%u "
#define WIND_PEER_ARGS	__entry->saddr, __entry->sport, \
			__entry->daddr, __entry->dport

/* One Wind packet (a GSO skb: its first packet's header, and the count) */
DECLARE_EVENT_CLASS(wind_packet,
	TP_PROTO(const struct in6_addr *saddr, const struct in6_addr *daddr,
		 const struct sk_buff *skb),
	TP_ARGS(saddr, daddr, skb),
	TP_STRUCT__entry(
		__array(__u8, saddr, sizeof(struct sockaddr_in6))
		__array(__u8, daddr, sizeof(struct sockaddr_in6))
		__field(__u16, sport)
		__field(__u16, dport)
		__field(__u8, type)
		__field(__u8, flags)
		__field(__u16, window)
		__field(__u32, len)
		__field(__u32, seq)
		__field(__u32, ack)
		__field(__u32, src_tag)
		__field(__u32, dst_tag)
		__field(__u16, segs)
	),
	TP_fast_assign(
		const struct windhdr *wh = wind_hdr(skb);

		wind_trace_store_addr(__entry->saddr, saddr);
		wind_trace_store_addr(__entry->daddr, daddr);
		__entry->sport = ntohs(wh->source);
		__entry->dport = ntohs(wh->dest);
		__entry->type = wh->version_type & 0xf;
		__entry->flags = wh->flags;
		__entry->window = ntohs(wh->window);
		__entry->len = skb->len;
		__entry->seq = ntohl(wh->seq);
		__entry->ack = ntohl(wh->ack);
		__entry->src_tag = ntohl(wh->src_tag);
		__entry->dst_tag = ntohl(wh->dst_tag);
		__entry->segs = skb_is_gso(skb) ?
				skb_shinfo(skb)->gso_segs : 1;
	),
	TP_printk("%pISc:%u -> %pISc:%u type=%s flags=%s seq=%u ack=%u len=%u segs=%u window=%u src_tag=%08x dst_tag=%08x",
		  __entry->saddr, __entry->sport, __entry->daddr,
		  __entry->dport, show_wind_type(__entry->type),
		  show_wind_flags(__entry->flags), __entry->seq, __entry->ack,
		  __entry->len, __entry->segs, __entry->window,
		  __entry->src_tag, __entry->dst_tag)
);

DEFINE_EVENT(wind_packet, wind_packet_send,
	TP_PROTO(const struct in6_addr *saddr, const struct in6_addr *daddr,
		 const struct sk_buff *skb),
	TP_ARGS(saddr, daddr, skb)
);

/* Every well-formed packet, before its socket is looked up */
DEFINE_EVENT(wind_packet, wind_packet_recv,
	TP_PROTO(const struct in6_addr *saddr, const struct in6_addr *daddr,
		 const struct sk_buff *skb),
	TP_ARGS(saddr, daddr, skb)
);

TRACE_EVENT(wind_retransmit,
	TP_PROTO(const struct wind_peer *peer, const struct sk_buff *skb,
		 int reason),
	TP_ARGS(peer, skb, reason),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u32, seq)
		__field(__u32, len)
		__field(__u32, rto_us)
		__field(__u8, retries)
		__field(int, reason)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->seq = WIND_SKB_CB(skb)->seq;
		__entry->len = skb->len;
		__entry->rto_us = peer->rtt.rto_us;
		__entry->retries = peer->retries;
		__entry->reason = reason;
	),
	TP_printk(WIND_PEER_FMT "seq=%u len=%u reason=%s rto_us=%u retries=%u",
		  WIND_PEER_ARGS, __entry->seq, __entry->len,
		  __print_symbolic(__entry->reason, WIND_RTX_REASONS),
		  __entry->rto_us, __entry->retries)
);

TRACE_EVENT(wind_ack_send,
	TP_PROTO(const struct wind_peer *peer, u32 ack, u64 sack, u16 nnaks),
	TP_ARGS(peer, ack, sack, nnaks),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u32, ack)
		__field(__u64, sack)
		__field(__u16, nnaks)
		__field(__u16, window)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->ack = ack;
		__entry->sack = sack;
		__entry->nnaks = nnaks;
		__entry->window = peer->rcv_wnd;
	),
	TP_printk(WIND_PEER_FMT "ack=%u sack=%016llx nnaks=%u window=%u",
		  WIND_PEER_ARGS, __entry->ack, __entry->sack,
		  __entry->nnaks, __entry->window)
);

TRACE_EVENT(wind_peer,
	TP_PROTO(const struct wind_peer *peer, int event, int err),
	TP_ARGS(peer, event, err),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(int, event)
		__field(int, err)
		__field(__u32, remote_tag)
		__field(__u32, queued)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->event = event;
		__entry->err = err;
		__entry->remote_tag = peer->remote_tag;
		__entry->queued = wind_wq_packets(peer);
	),
	TP_printk(WIND_PEER_FMT "event=%s err=%d remote_tag=%08x queued=%u",
		  WIND_PEER_ARGS,
		  __print_symbolic(__entry->event, WIND_PEER_EVENTS),
		  __entry->err, __entry->remote_tag, __entry->queued)
);

TRACE_EVENT(wind_deliver,
	TP_PROTO(const struct wind_peer *peer, const struct sk_buff *skb,
		 u32 seq),
	TP_ARGS(peer, skb, seq),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u32, seq)
		__field(__u32, len)
		__field(__u16, nfrags)
		__field(__u8, flags)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->seq = seq;
		__entry->len = WIND_SKB_CB(skb)->msg_len;
		__entry->nfrags = WIND_SKB_CB(skb)->nfrags;
		__entry->flags = WIND_SKB_CB(skb)->flags;
	),
	TP_printk(WIND_PEER_FMT "seq=%u len=%u nfrags=%u flags=%s",
		  WIND_PEER_ARGS, __entry->seq, __entry->len,
		  __entry->nfrags, show_wind_flags(__entry->flags))
);

TRACE_EVENT(wind_dsm_write,
	TP_PROTO(const struct wind_peer *peer, u8 mode, u32 region,
		 u64 offset, u32 len),
	TP_ARGS(peer, mode, region, offset, len),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u64, offset)
		__field(__u32, region)
		__field(__u32, len)
		__field(__u8, mode)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->offset = offset;
		__entry->region = region;
		__entry->len = len;
		__entry->mode = mode;
	),
	TP_printk(WIND_PEER_FMT "region=%u offset=%llu len=%u mode=%s",
		  WIND_PEER_ARGS, __entry->region, __entry->offset,
		  __entry->len,
		  __print_symbolic(__entry->mode,
				   { WIND_DSM_DIRECT_MAP, "direct_map" },
				   { WIND_DSM_HEADER_THROUGH, "header_through" },
				   { WIND_DSM_DIRECT_DIFF, "direct_diff" },
				   { WIND_DSM_HEADER_DIFF, "header_diff" },
				   { WIND_DSM_WIRE_RMA_REPLY, "rma_land" }))
);

#define show_wind_rma_op(op)						\
	__print_symbolic(op, { WIND_RMA_READ, "read" },			\
			 { WIND_RMA_FETCH_ADD, "fetch_add" },		\
			 { WIND_RMA_CMP_SWAP, "cmp_swap" },		\
			 { WIND_RMA_SWAP, "swap" })

TRACE_EVENT(wind_rma_serve,
	TP_PROTO(const struct wind_peer *peer, u8 op, u32 region, u64 offset,
		 u32 len),
	TP_ARGS(peer, op, region, offset, len),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u64, offset)
		__field(__u32, region)
		__field(__u32, len)
		__field(__u8, op)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->offset = offset;
		__entry->region = region;
		__entry->len = len;
		__entry->op = op;
	),
	TP_printk(WIND_PEER_FMT "op=%s region=%u offset=%llu len=%u",
		  WIND_PEER_ARGS, show_wind_rma_op(__entry->op),
		  __entry->region, __entry->offset, __entry->len)
);

TRACE_EVENT(wind_rma_done,
	TP_PROTO(const struct wind_peer *peer, u8 op, u64 cookie, int status),
	TP_ARGS(peer, op, cookie, status),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u64, cookie)
		__field(int, status)
		__field(__u8, op)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->cookie = cookie;
		__entry->status = status;
		__entry->op = op;
	),
	TP_printk(WIND_PEER_FMT "op=%s cookie=%llu status=%d",
		  WIND_PEER_ARGS, show_wind_rma_op(__entry->op),
		  __entry->cookie, __entry->status)
);

TRACE_EVENT(wind_cwnd,
	TP_PROTO(const struct wind_peer *peer, u32 old, int reason),
	TP_ARGS(peer, old, reason),
	TP_STRUCT__entry(
		WIND_PEER_FIELDS
		__field(__u32, old)
		__field(__u32, cwnd)
		__field(__u32, ssthresh)
		__field(int, reason)
	),
	TP_fast_assign(
		WIND_PEER_ASSIGN(peer);
		__entry->old = old;
		__entry->cwnd = peer->cwnd;
		__entry->ssthresh = peer->ssthresh;
		__entry->reason = reason;
	),
	TP_printk(WIND_PEER_FMT "cwnd=%u old=%u ssthresh=%u reason=%s",
		  WIND_PEER_ARGS, __entry->cwnd, __entry->old,
		  __entry->ssthresh,
		  __print_symbolic(__entry->reason, WIND_CWND_REASONS))
);

#endif /* _WIND_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
