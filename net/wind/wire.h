/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire format's limits and the checks of a packet's fixed fields, as
 * pure logic over bytes: the receive path (input.c) runs them once the
 * headers are linear, and the host unit tests (tests/unit/test_wire.c)
 * run them against every corner.  Nothing here trusts a field it has not
 * checked first.
 */
#ifndef _WIND_WIRE_H
#define _WIND_WIRE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <asm/byteorder.h>
#include <uapi/linux/wind.h>
#else
#include "kshim.h"
#include <linux/wind.h>
#endif

#define WIND_HLEN		sizeof(struct windhdr)
#define WIND_DATA_HLEN		(WIND_HLEN + sizeof(struct wind_datahdr))
#define WIND_MAX_HLEN		(WIND_DATA_HLEN + sizeof(struct wind_dsmhdr))
#define WIND_MAX_NAKS		16
#define WIND_F_ALL		(WIND_F_ACKREQ | WIND_F_ORDERED | WIND_F_SYNC | \
				 WIND_F_DSM | WIND_F_SYN | WIND_F_BUNDLE)
/* The flags of a bundle's header, and of each of its chunks */
#define WIND_F_BUNDLE_HDR	(WIND_F_BUNDLE | WIND_F_ACKREQ | WIND_F_SYN)
#define WIND_F_CHUNK		(WIND_F_ORDERED | WIND_F_SYNC | WIND_F_ACKREQ)
#define WIND_CHUNK_HLEN		sizeof(struct wind_chunkhdr)
/* Bytes a message of @len takes in a bundle */
#define WIND_CHUNK_LEN(len)	(WIND_CHUNK_HLEN + (((len) + 3) & ~3U))
#define WIND_ACK_LEN(n)		(WIND_HLEN + sizeof(struct wind_ackhdr) + \
				 (n) * sizeof(struct wind_nak))
/* Hard cap on one message; the socket buffers bound it further. */
#define WIND_MAX_MSG		(64U << 20)

/* What is wrong with a packet; each maps to an InErr* counter. */
enum wind_wire_verdict {
	WIND_WIRE_OK,
	WIND_WIRE_SHORT,	/* fewer bytes than its type's header */
	WIND_WIRE_LENGTH,	/* lengths disagree with each other */
	WIND_WIRE_HEADER,	/* version, type, tag, flags or NAK count */
	WIND_WIRE_BUNDLE,	/* a bundle's chunks are malformed */
};

/* Bytes of the headers of a packet type, 0 for an unknown type. */
static inline unsigned int wind_type_hlen(u8 type)
{
	switch (type) {
	case WIND_PKT_DATA:
		return WIND_DATA_HLEN;
	case WIND_PKT_ACK:
		return WIND_HLEN + sizeof(struct wind_ackhdr);
	case WIND_PKT_RESET:
	case WIND_PKT_CHALLENGE:
		return WIND_HLEN;
	}
	return 0;
}

/**
 * wind_wire_check_len() - the length field against the IP payload
 * @wh: the common header (WIND_HLEN bytes)
 * @len: bytes of IP payload, the Wind packet
 *
 * Return: WIND_WIRE_OK or WIND_WIRE_LENGTH.
 */
static inline enum wind_wire_verdict
wind_wire_check_len(const struct windhdr *wh, unsigned int len)
{
	unsigned int ulen = ntohs(wh->len);

	if (ulen != len || ulen < WIND_HLEN)
		return WIND_WIRE_LENGTH;
	return WIND_WIRE_OK;
}

/**
 * wind_wire_check_hdr() - version, type, tag and flags of the common header
 * @wh: the common header, its length field already checked
 * @hlen: set to the bytes of headers its type has
 *
 * Return: WIND_WIRE_OK, WIND_WIRE_HEADER, or WIND_WIRE_SHORT when the
 * packet is shorter than its type's headers.
 */
static inline enum wind_wire_verdict
wind_wire_check_hdr(const struct windhdr *wh, unsigned int *hlen)
{
	u8 type = wh->version_type & 0xf;

	*hlen = wind_type_hlen(type);
	if (wh->version_type >> 4 != WIND_VERSION || !*hlen || !wh->src_tag ||
	    (wh->flags & ~WIND_F_ALL))
		return WIND_WIRE_HEADER;
	if (ntohs(wh->len) < *hlen)
		return WIND_WIRE_SHORT;
	return WIND_WIRE_OK;
}

/**
 * wind_wire_check_body() - the headers that follow the common one
 * @wh: the packet, wind_type_hlen() of its type linear after it
 *
 * A data packet's fragment number, count and message length must agree
 * with each other and with what it carries (a DSM message holds at least
 * its DSM header, all of it in the first fragment if the message is that
 * long); an ACK's length must be exactly its NAKs', of which there are at
 * most WIND_MAX_NAKS.  For an ACK the caller must still make the NAKs
 * linear.
 *
 * Return: WIND_WIRE_OK, WIND_WIRE_LENGTH or WIND_WIRE_HEADER.
 */
static inline enum wind_wire_verdict
wind_wire_check_body(const struct windhdr *wh)
{
	unsigned int ulen = ntohs(wh->len);
	u8 type = wh->version_type & 0xf;
	unsigned int hlen = wind_type_hlen(type);

	if (type == WIND_PKT_DATA) {
		const struct wind_datahdr *dh = (const void *)(wh + 1);
		u16 frag = ntohs(dh->frag), nfrags = ntohs(dh->nfrags);
		u32 msg_len = ntohl(dh->msg_len), carried = ulen - hlen;

		if (!nfrags || frag >= nfrags || msg_len > WIND_MAX_MSG ||
		    carried > msg_len || (nfrags == 1 && carried != msg_len))
			return WIND_WIRE_LENGTH;
		if ((wh->flags & WIND_F_DSM) &&
		    (msg_len < sizeof(struct wind_dsmhdr) ||
		     (!frag && carried < sizeof(struct wind_dsmhdr))))
			return WIND_WIRE_LENGTH;
	} else if (type == WIND_PKT_ACK) {
		const struct wind_ackhdr *ah = (const void *)(wh + 1);
		unsigned int n = ntohs(ah->nnaks);

		if (n > WIND_MAX_NAKS)
			return WIND_WIRE_HEADER;
		if (ulen != WIND_ACK_LEN(n))
			return WIND_WIRE_LENGTH;
	}
	return WIND_WIRE_OK;
}

/**
 * wind_wire_check_bundle() - a bundle's header fields and chunks
 * @wh: a DATA packet with WIND_F_BUNDLE, wind_wire_check_body() passed,
 *	the whole packet (ntohs(wh->len) bytes) linear after it
 *
 * The header carries only the bundle's flags; frag is 0, nfrags 2 to
 * WIND_BUNDLE_MAX and msg_len the bytes after the data header; each chunk
 * has only chunk flags (sync ones ordered), a zero reserved byte, and
 * its padded length within what is left; the chunks, exactly nfrags of
 * them, fill the packet to its last byte.
 *
 * Return: WIND_WIRE_OK or WIND_WIRE_BUNDLE.
 */
static inline enum wind_wire_verdict
wind_wire_check_bundle(const struct windhdr *wh)
{
	const struct wind_datahdr *dh = (const void *)(wh + 1);
	const unsigned char *p = (const unsigned char *)(dh + 1);
	unsigned int left = ntohs(wh->len) - WIND_DATA_HLEN;
	unsigned int i, n = ntohs(dh->nfrags);

	if ((wh->flags & ~WIND_F_BUNDLE_HDR) || dh->frag || n < 2 ||
	    n > WIND_BUNDLE_MAX || ntohl(dh->msg_len) != left)
		return WIND_WIRE_BUNDLE;
	for (i = 0; i < n; i++) {
		const struct wind_chunkhdr *ch = (const void *)p;
		unsigned int clen;

		if (left < WIND_CHUNK_HLEN)
			return WIND_WIRE_BUNDLE;
		clen = WIND_CHUNK_LEN(ntohs(ch->len));
		if ((ch->flags & ~WIND_F_CHUNK) || ch->reserved ||
		    ((ch->flags & WIND_F_SYNC) &&
		     !(ch->flags & WIND_F_ORDERED)) || clen > left)
			return WIND_WIRE_BUNDLE;
		left -= clen;
		p += clen;
	}
	return left ? WIND_WIRE_BUNDLE : WIND_WIRE_OK;
}

#endif /* _WIND_WIRE_H */
