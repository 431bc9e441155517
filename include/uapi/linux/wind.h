/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Wind: a reliable-datagram transport for software distributed shared
 * memory.  This is the one header that userspace and the kernel module
 * share.  See Documentation/networking/wind.rst.
 */
#ifndef _UAPI_LINUX_WIND_H
#define _UAPI_LINUX_WIND_H

#include <linux/types.h>
#include <linux/socket.h>

/* socket(AF_INET, SOCK_WIND, 0 or IPPROTO_WIND) */
#define SOCK_WIND	7
#define IPPROTO_WIND	253		/* RFC 3692 experimental protocol */
#define SOL_WIND	253		/* same as the protocol, as for TCP */

/*
 * Send flags choosing the message type of one send.  Both bits are unused
 * by the socket layer on Linux 6.1 and 6.12 and pass through sendmsg()
 * unchanged (see the "send flags" section of wind.rst).
 */
#define MSG_WIND_RELIABLE	0x400000	/* async-reliable, unordered */
#define MSG_WIND_SYNC		0x800000	/* sync-ordered: return on ACK */

enum wind_msgtype {
	WIND_ASYNC_ORDERED = 0,
	WIND_ASYNC_RELIABLE = 1,
	WIND_SYNC_ORDERED = 2,
};

/* setsockopt(fd, SOL_WIND, ...) */
#define WIND_MSGTYPE		1	/* int: enum wind_msgtype */
#define WIND_RECVERR		2	/* int: queue failures on MSG_ERRQUEUE */
#define WIND_REGION_ADD		3	/* struct wind_region */
#define WIND_REGION_DEL		4	/* __u32 region id */
/* getsockopt(fd, SOL_WIND, ...) only */
#define WIND_PEER_INFO		5	/* struct wind_peer_info, in/out */
/* setsockopt and getsockopt */
#define WIND_ENCAP		6	/* int: WIND_ENCAP_RAW or _UDP */
/* int: 1 holds small messages back to bundle them into full packets, as
 * if each were sent with MSG_MORE; 0 sends what is held at once
 */
#define WIND_CORK		7
/* int: 1 sends each message at once, 0 (the default) lets a small
 * message wait in its peer's bundle while a small packet sent before is
 * unacknowledged (Nagle's rule, as TCP_NODELAY turns off TCP's)
 */
#define WIND_NODELAY		8

/* What a socket sends: raw IP protocol 253, or each packet inside a UDP
 * datagram to the receiver's net.wind.udp_port.  Both are received
 * always; a peer that reached us inside UDP is answered inside UDP.
 */
#define WIND_ENCAP_RAW		0
#define WIND_ENCAP_UDP		1
/* net.wind.udp_port's default: protocol 253 in its last digits, below
 * the ephemeral port range the source ports are drawn from
 */
#define WIND_UDP_PORT		9253

/* cmsg_type at level SOL_WIND */
#define WIND_CMSG_DSM		1	/* struct wind_dsm */
/* send only: a __u32 the caller chooses, which the message's refusal
 * report on the error queue carries in ee_data (0 without it)
 */
#define WIND_CMSG_MSGID		2
/* send: a one-sided request (struct wind_rma, no payload); receive: its
 * completion, the struct as sent, status set, key and operands zeroed
 */
#define WIND_CMSG_RMA		3

/* Error queue: sock_extended_err.ee_origin for Wind failures */
#define SO_EE_ORIGIN_WIND	6

struct wind_region {
	__u64 addr;	/* start in the caller's address space: any byte */
	__u64 len;	/* bytes, at most 1 GiB: writes stay inside */
	__u32 id;	/* caller-chosen, unique per socket */
	__u32 flags;	/* WIND_REGION_F_*: what peers may not do */
	__u64 key;	/* caller-chosen secret that senders must present */
};

/* wind_region.flags: 0 lets peers that hold the key write, read and
 * apply atomics to the region
 */
#define WIND_REGION_F_NO_WRITE	1	/* no Direct Map, diffs or atomics;
					 * pinned read-only
					 */
#define WIND_REGION_F_NO_READ	2	/* no one-sided reads or atomics */
#define WIND_REGION_F_NO_ATOMIC	4	/* no one-sided atomics */
/* Peers name bytes of the region by their address in the registering
 * process (addr to addr + len - 1), not by their offset from addr: for
 * peers that know the address and not the start (libfabric's
 * FI_MR_VIRT_ADDR, MPI windows)
 */
#define WIND_REGION_F_VADDR	8
#define WIND_REGION_F_ALL	(WIND_REGION_F_NO_WRITE | \
				 WIND_REGION_F_NO_READ | \
				 WIND_REGION_F_NO_ATOMIC | \
				 WIND_REGION_F_VADDR)

enum wind_dsm_mode {
	WIND_DSM_MESSAGE_THROUGH = 0,
	WIND_DSM_DIRECT_MAP = 1,
	WIND_DSM_HEADER_THROUGH = 2,
	WIND_DSM_DIRECT_DIFF = 3,
	WIND_DSM_HEADER_DIFF = 4,
};

struct wind_dsm {
	__u32 mode;	/* enum wind_dsm_mode */
	__u32 region;	/* the receiver's region id */
	__u64 offset;	/* byte offset into that region */
	__u64 key;	/* the region's key */
	__u32 hdr_len;	/* the first hdr_len bytes are the DSM header */
	__u32 data_len;	/* on receive: payload bytes written into the region */
};

/*
 * One-sided operations on a peer's registered region, served by the
 * peer's kernel in softirq (the peer process is not woken): sendmsg()
 * with no payload and a WIND_CMSG_RMA cmsg naming the operation.  The
 * request is a message of the send's type: an ordered one is served only
 * after every message sent earlier to that peer was delivered, and a
 * sync send returns once it was served (or fails with its refusal).  A
 * refusal (-EACCES key or region, -ERANGE bounds, -EINVAL alignment or
 * operation, -EMSGSIZE or -ENOBUFS for a read reply the peer cannot
 * queue, -EBUSY key guesses) serves nothing and is reported as a Direct
 * Map refusal is.  The result comes back as a message from the peer:
 * recvmsg() returns it with a WIND_CMSG_RMA cmsg (cookie and status), its
 * payload the bytes read or the old 8-byte value, or, with
 * WIND_RMA_F_LAND, nothing: the result was written into the requester's
 * own region dst_region at dst_offset, as Direct Map writes.
 */
enum wind_rma_op {
	WIND_RMA_READ = 1,	/* len bytes at offset */
	WIND_RMA_FETCH_ADD = 2,	/* *p += operand; old *p returned */
	WIND_RMA_CMP_SWAP = 3,	/* if *p == compare: *p = operand; old *p */
	WIND_RMA_SWAP = 4,	/* *p = operand; old *p returned */
};

/* The result lands in the requester's region, not in recvmsg()'s buffer */
#define WIND_RMA_F_LAND		1
/* Largest read */
#define WIND_RMA_READ_MAX	0x100000	/* 1 MiB */

struct wind_rma {
	__u32 op;		/* enum wind_rma_op */
	__u32 region;		/* the peer's region id */
	__u64 offset;		/* byte offset into it; atomics: 8-byte aligned
				 * in the peer's address space
				 */
	__u64 key;		/* the region's key */
	__u32 len;		/* read: 1 to WIND_RMA_READ_MAX; atomics: 8 */
	__u32 flags;		/* WIND_RMA_F_* */
	__u64 operand;		/* atomics: the addend or the new value */
	__u64 compare;		/* WIND_RMA_CMP_SWAP: the expected value */
	__u64 cookie;		/* the caller's, echoed in the completion */
	__u32 dst_region;	/* WIND_RMA_F_LAND: the caller's own region */
	__s32 status;		/* completion: 0, or -errno of the landing */
	__u64 dst_offset;	/* WIND_RMA_F_LAND: where in dst_region */
	__u64 dst_key;		/* WIND_RMA_F_LAND: dst_region's key */
};

/*
 * getsockopt(fd, SOL_WIND, WIND_PEER_INFO, &info, &len): the caller puts
 * the peer's address in wpi_addr (a struct sockaddr_in, AF_INET; the
 * field has room for any address family); the kernel fills in the rest
 * and copies back min(len, sizeof(struct wind_peer_info)) bytes, setting
 * len to that.  New fields are only ever added at the end, with a new
 * wpi_version: a program reads wpi_size (what its kernel filled) before
 * trusting a field past the ones of the version it was built for.
 * len below WIND_PEER_INFO_MIN_LEN: -EINVAL; no such peer: -ENOENT.
 */
#define WIND_PEER_INFO_VERSION	1

struct wind_peer_info {
	struct __kernel_sockaddr_storage wpi_addr;	/* in: the peer */
	__u32 wpi_version;	/* WIND_PEER_INFO_VERSION */
	__u32 wpi_size;		/* bytes the kernel filled in */
	__u32 wpi_state;	/* enum wind_peer_status */
	__u32 wpi_retries;	/* timeouts in a row without progress */
	__u32 wpi_srtt_us;	/* smoothed RTT, 0 before a sample */
	__u32 wpi_rttvar_us;
	__u32 wpi_rto_us;	/* retransmission timeout */
	__u32 wpi_mss;		/* payload bytes per data packet */
	__u32 wpi_in_flight;	/* packets sent and not yet acknowledged */
	__u32 wpi_sacked;	/* of those, reported arrived selectively */
	__u32 wpi_unsent;	/* packets queued, not yet sent */
	__u32 wpi_queued_msgs;	/* messages queued to the peer, unacked */
	__u64 wpi_queued_bytes;	/* payload bytes of those */
	__u32 wpi_cwnd;		/* congestion window, packets */
	__u32 wpi_ssthresh;
	__u32 wpi_snd_wnd;	/* packets the peer's window lets us have out */
	__u32 wpi_rcv_wnd;	/* packets we last told the peer we take */
	__u32 wpi_rcv_queued;	/* packets from it waiting for delivery */
	__u32 wpi_last_active_ms; /* since the last packet either way */
	__u32 wpi_local_tag;	/* our tag towards the peer */
	__u32 wpi_remote_tag;	/* the peer's tag towards us, 0 if not known */
	__u32 wpi_sync_waiters;	/* sync sends waiting for the peer's ACK */
	__u64 wpi_tx_packets;
	__u64 wpi_rx_packets;
	__u64 wpi_tx_messages;
	__u64 wpi_rx_messages;
	__u64 wpi_retransmits;
	__u64 wpi_duplicates;	/* packets received twice */
	__u64 wpi_drops;	/* packets from it dropped (no room, refused) */
};

/* the address, wpi_version and wpi_size: the least a caller may pass */
#define WIND_PEER_INFO_MIN_LEN	(sizeof(struct __kernel_sockaddr_storage) + 8)

/* Diff runs are in the sender's (= the cluster's) byte order. */
struct wind_diff_run {
	__u32 off;	/* relative to wind_dsm.offset */
	__u32 len;	/* followed by len bytes of data */
};

/*
 * Wire format.  Every Wind packet starts with struct windhdr, in network
 * byte order; the checksum covers an IPv4 pseudo-header (as for UDP) and
 * the whole packet.  Data packets follow it with struct wind_datahdr,
 * ACK packets with struct wind_ackhdr.  Ports come first so that an ICMP
 * error quoting eight bytes identifies the socket.
 */
#define WIND_VERSION		1

enum wind_pkt_type {
	WIND_PKT_DATA = 1,	/* one fragment of a message */
	WIND_PKT_ACK = 2,	/* cumulative and selective acknowledgment */
	WIND_PKT_RESET = 3,	/* "you name an incarnation of mine that is gone" */
	WIND_PKT_CHALLENGE = 4,	/* "prove you are the tag you claim": echo my tag */
};

/* windhdr.flags */
#define WIND_F_ACKREQ		0x01	/* acknowledge at once */
#define WIND_F_ORDERED		0x02	/* message is ordered (async or sync) */
#define WIND_F_SYNC		0x04	/* sender sleeps until acknowledged */
#define WIND_F_DSM		0x08	/* payload starts with struct wind_dsmhdr */
#define WIND_F_SYN		0x10	/* sender's peer state is new: seq may jump */
#define WIND_F_BUNDLE		0x20	/* several messages, wind_chunkhdr each */

struct windhdr {
	__be16	source;		/* sender's Wind port */
	__be16	dest;		/* receiver's Wind port */
	__be16	len;		/* bytes from windhdr to end of packet */
	__sum16	check;		/* pseudo-header + packet, as UDP */
	__u8	version_type;	/* version << 4 | enum wind_pkt_type */
	__u8	flags;		/* WIND_F_* */
	__be16	window;		/* packets the sender can still receive */
	__be32	src_tag;	/* sender's tag towards the receiver (never 0) */
	__be32	dst_tag;	/* receiver's tag towards the sender, 0 if unknown */
	__be32	seq;		/* packet sequence number (DATA) */
	__be32	ack;		/* every seq before this was received */
	__be32	oldest;		/* sender's oldest unacknowledged seq */
};

struct wind_datahdr {
	__be16	frag;		/* index of this fragment, 0-based */
	__be16	nfrags;		/* fragments in the message, >= 1 */
	__be32	msg_len;	/* bytes in the whole message */
};

/*
 * A bundle (WIND_F_BUNDLE): several whole one-packet messages in one DATA
 * packet.  windhdr.seq is the first message's seq, the i-th has seq + i;
 * windhdr.flags holds only WIND_F_BUNDLE, WIND_F_ACKREQ and WIND_F_SYN.
 * wind_datahdr.frag is 0, nfrags the number of messages (2 to
 * WIND_BUNDLE_MAX) and msg_len the bytes after wind_datahdr.  Each message
 * is a wind_chunkhdr and its len bytes, padded with zeros to 4 bytes;
 * the chunks fill the packet exactly.  Never DSM, never GSO.
 */
#define WIND_BUNDLE_MAX		64

struct wind_chunkhdr {
	__u8	flags;		/* WIND_F_ORDERED, WIND_F_SYNC, WIND_F_ACKREQ */
	__u8	reserved;	/* 0 */
	__be16	len;		/* message bytes, padding excluded */
};

/* Follows wind_datahdr in fragment 0 when WIND_F_DSM is set */
struct wind_dsmhdr {
	__u8	mode;		/* enum wind_dsm_mode */
	__u8	reserved[3];	/* 0 */
	__be32	region;
	__be64	offset;
	__be64	key;
	__be32	hdr_len;	/* leading message bytes that are the header */
	__be32	reserved2;	/* 0 */
};

/*
 * One-sided operations on the wire: a DSM message whose wind_dsmhdr.mode
 * is WIND_DSM_WIRE_RMA (region, offset and key of the target) carries a
 * wind_rmahdr and nothing else; the answer is a DSM message of mode
 * WIND_DSM_WIRE_RMA_REPLY whose region, offset and key name the
 * requester's landing place (0 without WIND_RMA_F_LAND), its header
 * (hdr_len) the request's wind_rmahdr echoed with the target's region and
 * offset filled in (0 in the request), its data the bytes read or the old
 * value (__be64).
 */
#define WIND_DSM_WIRE_RMA	16
#define WIND_DSM_WIRE_RMA_REPLY	17

struct wind_rmahdr {
	__u8	op;		/* enum wind_rma_op */
	__u8	flags;		/* WIND_RMA_F_* */
	__u8	reserved[2];	/* 0 */
	__be32	len;
	__be64	operand;
	__be64	compare;
	__be64	cookie;
	__be64	dst_offset;
	__be64	dst_key;
	__be32	dst_region;
	__be32	region;		/* the reply's: the request's region */
	__be64	offset;		/* the reply's: the request's offset */
};

#define WIND_SACK_BITS		64

/*
 * An ACK packet: windhdr.ack is cumulative, sack is selective.  A message
 * the receiver refused is still acknowledged (its seqs are consumed), and
 * every ACK that covers it carries a wind_nak for it until the sender's
 * "oldest" has passed it, so the refusal is never lost while the ACK is
 * not.  Data packets piggyback an ack that stops at the first refusal.
 */
struct wind_ackhdr {
	__be64	sack;		/* bit i: seq ack + 1 + i was received */
	__be16	nnaks;		/* struct wind_nak entries that follow */
	__be16	flags;		/* WIND_ACK_* */
	__be32	reserved2;	/* 0 */
};

/*
 * The ACK's sender refused the data packet at ack, the next it expected,
 * for want of receive buffer: what was sent from ack on is not in flight
 * any more, and goes again as the window allows.  The receiver may still
 * hold some of it (taken after the refusal): a later ACK may cover seqs
 * up to the highest ever sent.  Receivers before this bit sent 0; a
 * sender that ignores it resends on its timers.
 */
#define WIND_ACK_REFUSED	0x0001

struct wind_nak {
	__be32	seq;		/* first seq of the refused message */
	__be32	error;		/* positive errno: EACCES, ERANGE, EMSGSIZE */
};

/*
 * ---- Generic netlink family "wind" -------------------------------------
 * Sockets, peers, counters and tunables of a network namespace.  Keep in
 * step with Documentation/netlink/specs/wind.yaml: this block is what
 * tools/net/ynl/ynl-gen-c.py --mode uapi renders from it.
 */
#define WIND_FAMILY_NAME	"wind"
#define WIND_FAMILY_VERSION	1

/**
 * enum wind_peer_status - What a peer's state is doing, as seen by the sending
 *   side.
 * @WIND_PEER_STATUS_IDLE: Nothing queued to the peer and nothing waiting for
 *   delivery.
 * @WIND_PEER_STATUS_ACTIVE: Messages are queued to the peer or in flight, or
 *   arrived messages wait to be delivered.
 * @WIND_PEER_STATUS_RETRYING: Retransmission timeouts passed without progress;
 *   after the retries tunable of them the peer is declared unreachable.
 */
enum wind_peer_status {
	WIND_PEER_STATUS_IDLE,
	WIND_PEER_STATUS_ACTIVE,
	WIND_PEER_STATUS_RETRYING,
};

/**
 * enum wind_peer_event - What happened to a peer, in a notification of the
 *   "peers" multicast group and in the wind:wind_peer tracepoint.
 * @WIND_PEER_EVENT_UP: State for a new peer was created (first send to it or
 *   first packet from it).
 * @WIND_PEER_EVENT_RESTART: The peer's socket is a new incarnation (it
 *   restarted); what was queued to the old one failed with ECONNRESET.
 * @WIND_PEER_EVENT_FAILED: Everything queued to the peer failed: error
 *   ETIMEDOUT (unreachable: the retry budget ran out) or ECONNREFUSED (an ICMP
 *   port or protocol unreachable).
 * @WIND_PEER_EVENT_FREED: The peer's state was freed (idle for peer_idle_s, or
 *   the socket closed).
 * @WIND_PEER_EVENT_DSM_REFUSED: A DSM message from the peer was refused and
 *   nothing written: error EACCES (region or key), ERANGE (bounds) or EINVAL.
 */
enum wind_peer_event {
	WIND_PEER_EVENT_UP = 1,
	WIND_PEER_EVENT_RESTART,
	WIND_PEER_EVENT_FAILED,
	WIND_PEER_EVENT_FREED,
	WIND_PEER_EVENT_DSM_REFUSED,
};

enum {
	WIND_A_SOCK_PAD = 1,
	WIND_A_SOCK_PORT,
	WIND_A_SOCK_ADDR,
	WIND_A_SOCK_PEER_ADDR,
	WIND_A_SOCK_PEER_PORT,
	WIND_A_SOCK_PEERS,
	WIND_A_SOCK_RMEM,
	WIND_A_SOCK_RMEM_LIMIT,
	WIND_A_SOCK_WMEM,
	WIND_A_SOCK_WMEM_LIMIT,
	WIND_A_SOCK_DROPS,
	WIND_A_SOCK_INODE,
	WIND_A_SOCK_UID,
	WIND_A_SOCK_INCARNATION,
	WIND_A_SOCK_ADDR6,
	WIND_A_SOCK_PEER_ADDR6,

	__WIND_A_SOCK_MAX,
	WIND_A_SOCK_MAX = (__WIND_A_SOCK_MAX - 1)
};

enum {
	WIND_A_PEER_PAD = 1,
	WIND_A_PEER_SOCK_PORT,
	WIND_A_PEER_LOCAL_ADDR,
	WIND_A_PEER_ADDR,
	WIND_A_PEER_PORT,
	WIND_A_PEER_STATUS,
	WIND_A_PEER_IN_FLIGHT,
	WIND_A_PEER_WQ_PACKETS,
	WIND_A_PEER_RQ_PACKETS,
	WIND_A_PEER_SRTT_US,
	WIND_A_PEER_RTTVAR_US,
	WIND_A_PEER_RTO_US,
	WIND_A_PEER_RETRIES,
	WIND_A_PEER_MSS,
	WIND_A_PEER_LOCAL_TAG,
	WIND_A_PEER_REMOTE_TAG,
	WIND_A_PEER_LAST_ACTIVE_MS,
	WIND_A_PEER_RETRANSMITS,
	WIND_A_PEER_DUPLICATES,
	WIND_A_PEER_DROPS,
	WIND_A_PEER_TX_PACKETS,
	WIND_A_PEER_RX_PACKETS,
	WIND_A_PEER_TX_MESSAGES,
	WIND_A_PEER_RX_MESSAGES,
	WIND_A_PEER_EVENT,
	WIND_A_PEER_ERROR,
	WIND_A_PEER_LOCAL_ADDR6,
	WIND_A_PEER_ADDR6,

	__WIND_A_PEER_MAX,
	WIND_A_PEER_MAX = (__WIND_A_PEER_MAX - 1)
};

enum {
	WIND_A_STATS_PAD = 1,
	WIND_A_STATS_IN_PACKETS,
	WIND_A_STATS_IN_MESSAGES,
	WIND_A_STATS_IN_ACKS,
	WIND_A_STATS_IN_DUPLICATES,
	WIND_A_STATS_IN_ERR_SHORT,
	WIND_A_STATS_IN_ERR_LENGTH,
	WIND_A_STATS_IN_ERR_CHECKSUM,
	WIND_A_STATS_IN_ERR_HEADER,
	WIND_A_STATS_IN_ERR_NOPORT,
	WIND_A_STATS_IN_ERR_RCVBUF,
	WIND_A_STATS_IN_ERR_WINDOW,
	WIND_A_STATS_IN_ERR_TAG,
	WIND_A_STATS_IN_REFUSED,
	WIND_A_STATS_IN_DSM_WRITES,
	WIND_A_STATS_IN_DSM_BYTES,
	WIND_A_STATS_OUT_PACKETS,
	WIND_A_STATS_OUT_MESSAGES,
	WIND_A_STATS_OUT_ACKS,
	WIND_A_STATS_OUT_RETRANSMITS,
	WIND_A_STATS_OUT_ERRORS,
	WIND_A_STATS_PEERS_CREATED,
	WIND_A_STATS_PEERS_FREED,
	WIND_A_STATS_PEERS_UNREACHABLE,
	WIND_A_STATS_PEERS_RESET,
	WIND_A_STATS_OUT_PROBES,
	WIND_A_STATS_OUT_CWND_CUTS,
	WIND_A_STATS_OUT_GSO_PACKETS,
	WIND_A_STATS_IN_GSO_PACKETS,
	WIND_A_STATS_OUT_CHALLENGES,
	WIND_A_STATS_IN_NO_STATE,
	WIND_A_STATS_IN_FILTERED,
	WIND_A_STATS_IN_GRO_PACKETS,
	WIND_A_STATS_OUT_BUNDLES,
	WIND_A_STATS_OUT_BUNDLED,
	WIND_A_STATS_IN_BUNDLES,
	WIND_A_STATS_IN_BUNDLED,
	WIND_A_STATS_IN_ERR_BUNDLE,
	WIND_A_STATS_OUT_TIMEOUTS,
	WIND_A_STATS_IN_ERR_BACKLOG,
	WIND_A_STATS_OUT_WIN_PROBES,
	WIND_A_STATS_IN_ERR_ACK,
	WIND_A_STATS_OUT_DUPACKS_LIMITED,
	WIND_A_STATS_IN_DSM_UNVERIFIED,
	WIND_A_STATS_IN_DSM_LIMITED,
	WIND_A_STATS_PEERS_EVICTED,
	WIND_A_STATS_IN_RMA_READS,
	WIND_A_STATS_IN_RMA_ATOMICS,
	WIND_A_STATS_IN_RMA_COMPLETIONS,

	__WIND_A_STATS_MAX,
	WIND_A_STATS_MAX = (__WIND_A_STATS_MAX - 1)
};

enum {
	WIND_A_PARAMS_RTO_MIN_MS = 1,
	WIND_A_PARAMS_RTO_MAX_MS,
	WIND_A_PARAMS_RETRIES,
	WIND_A_PARAMS_WINDOW,
	WIND_A_PARAMS_DELACK_MS,
	WIND_A_PARAMS_PEER_IDLE_S,
	WIND_A_PARAMS_UNVERIFIED_MAX,
	WIND_A_PARAMS_DUPACK_MS,
	WIND_A_PARAMS_PEERS_PER_ADDR_MAX,
	WIND_A_PARAMS_PEERS_MAX,
	WIND_A_PARAMS_NAGLE_US,

	__WIND_A_PARAMS_MAX,
	WIND_A_PARAMS_MAX = (__WIND_A_PARAMS_MAX - 1)
};

enum {
	WIND_CMD_SOCK_GET = 1,
	WIND_CMD_PEER_GET,
	WIND_CMD_STATS_GET,
	WIND_CMD_PARAMS_GET,
	WIND_CMD_PARAMS_SET,
	WIND_CMD_PEER_NTF,

	__WIND_CMD_MAX,
	WIND_CMD_MAX = (__WIND_CMD_MAX - 1)
};

#define WIND_MCGRP_PEERS	"peers"

/* ---- end of the generic netlink family "wind" ------------------------- */

#endif /* _UAPI_LINUX_WIND_H */
