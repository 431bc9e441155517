// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of net/wind/wire.h: the checks the receive path runs on
 * every packet's fixed fields before anything trusts them.  Each field at
 * and around its limits, then a million random headers: whatever the
 * checks pass must satisfy every invariant the locked path relies on.
 * KTAP output; built with ASan and UBSan.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ktest.h"
#include "wire.h"

/* Room for the largest header plus NAKs, so that reads past a too-short
 * header stay inside the buffer (ASan would catch them otherwise).
 */
union pkt {
	struct windhdr wh;
	unsigned char bytes[WIND_ACK_LEN(WIND_MAX_NAKS) + 64];
};

static struct windhdr *mk(union pkt *p, u8 type, u16 len)
{
	memset(p, 0, sizeof(*p));
	p->wh.version_type = WIND_VERSION << 4 | type;
	p->wh.len = htons(len);
	p->wh.src_tag = htonl(7);
	return &p->wh;
}

static struct wind_datahdr *dh_of(union pkt *p)
{
	return (struct wind_datahdr *)(&p->wh + 1);
}

static struct wind_ackhdr *ah_of(union pkt *p)
{
	return (struct wind_ackhdr *)(&p->wh + 1);
}

/* Every check in turn, as input.c runs them; the verdict of the first
 * that fails.
 */
static enum wind_wire_verdict check_all(const struct windhdr *wh,
					unsigned int len)
{
	enum wind_wire_verdict v;
	unsigned int hlen;

	v = wind_wire_check_len(wh, len);
	if (v)
		return v;
	v = wind_wire_check_hdr(wh, &hlen);
	if (v)
		return v;
	return wind_wire_check_body(wh);
}

static void data(union pkt *p, u16 payload, u16 frag, u16 nfrags, u32 msg_len)
{
	mk(p, WIND_PKT_DATA, WIND_DATA_HLEN + payload);
	dh_of(p)->frag = htons(frag);
	dh_of(p)->nfrags = htons(nfrags);
	dh_of(p)->msg_len = htonl(msg_len);
}

static void length__must_match_ip(void)
{
	union pkt p;
	bool ok = true;

	mk(&p, WIND_PKT_RESET, WIND_HLEN);
	CHECK(wind_wire_check_len(&p.wh, WIND_HLEN) == WIND_WIRE_OK);
	CHECK(wind_wire_check_len(&p.wh, WIND_HLEN + 1) == WIND_WIRE_LENGTH);
	CHECK(wind_wire_check_len(&p.wh, WIND_HLEN - 1) == WIND_WIRE_LENGTH);
	mk(&p, WIND_PKT_RESET, WIND_HLEN - 1);
	CHECK(wind_wire_check_len(&p.wh, WIND_HLEN - 1) == WIND_WIRE_LENGTH);
	mk(&p, WIND_PKT_RESET, 0);
	CHECK(wind_wire_check_len(&p.wh, 0) == WIND_WIRE_LENGTH);
	report(ok, "length__must_match_ip");
}

static void header__version_type_tag_flags(void)
{
	unsigned int hlen, t;
	union pkt p;
	bool ok = true;

	mk(&p, WIND_PKT_RESET, WIND_HLEN);
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_OK);
	CHECK(hlen == WIND_HLEN);
	mk(&p, WIND_PKT_CHALLENGE, WIND_HLEN);
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_OK);
	CHECK(hlen == WIND_HLEN);
	mk(&p, WIND_PKT_CHALLENGE, WIND_HLEN - 1);
	CHECK(wind_wire_check_len(&p.wh, WIND_HLEN - 1) == WIND_WIRE_LENGTH);
	p.wh.version_type = (WIND_VERSION + 1) << 4 | WIND_PKT_RESET;
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_HEADER);
	for (t = 0; t < 16; t++) {
		mk(&p, t, WIND_ACK_LEN(0));
		if (t >= WIND_PKT_DATA && t <= WIND_PKT_CHALLENGE)
			continue;
		CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_HEADER);
	}
	mk(&p, WIND_PKT_RESET, WIND_HLEN);
	p.wh.src_tag = 0;
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_HEADER);
	for (t = 0; t < 8; t++) {
		mk(&p, WIND_PKT_RESET, WIND_HLEN);
		p.wh.flags = 1u << t;
		CHECK(wind_wire_check_hdr(&p.wh, &hlen) ==
		      ((1u << t) & WIND_F_ALL ? WIND_WIRE_OK : WIND_WIRE_HEADER));
	}
	report(ok, "header__version_type_tag_flags");
}

static void header__shorter_than_type(void)
{
	unsigned int hlen;
	union pkt p;
	bool ok = true;

	mk(&p, WIND_PKT_DATA, WIND_DATA_HLEN - 1);
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_SHORT);
	CHECK(hlen == WIND_DATA_HLEN);
	mk(&p, WIND_PKT_DATA, WIND_DATA_HLEN);
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_OK);
	mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(0) - 1);
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_SHORT);
	mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(0));
	CHECK(wind_wire_check_hdr(&p.wh, &hlen) == WIND_WIRE_OK);
	CHECK(hlen == WIND_ACK_LEN(0));
	report(ok, "header__shorter_than_type");
}

static void data__fragment_fields(void)
{
	union pkt p;
	bool ok = true;

	data(&p, 100, 0, 1, 100);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_OK);
	data(&p, 0, 0, 1, 0);		/* an empty message */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN) == WIND_WIRE_OK);
	data(&p, 100, 0, 1, 101);	/* one fragment must carry it all */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 0, 1, 99);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 0, 0, 100);	/* no fragments */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 3, 3, 300);	/* frag == nfrags */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 2, 3, 300);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_OK);
	data(&p, 100, 65534, 65535, 300);	/* carried <= msg_len */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_OK);
	data(&p, 100, 1, 2, 99);	/* more than the whole message */
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 1, 2, WIND_MAX_MSG);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_OK);
	data(&p, 100, 1, 2, WIND_MAX_MSG + 1);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	data(&p, 100, 1, 2, 0xffffffffu);
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 100) == WIND_WIRE_LENGTH);
	report(ok, "data__fragment_fields");
}

static void data__dsm_header_present(void)
{
	const unsigned int dsm = sizeof(struct wind_dsmhdr);
	union pkt p;
	bool ok = true;

	data(&p, dsm, 0, 1, dsm);
	p.wh.flags = WIND_F_DSM;
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + dsm) == WIND_WIRE_OK);
	data(&p, dsm - 1, 0, 1, dsm - 1);	/* no room for its header */
	p.wh.flags = WIND_F_DSM;
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + dsm - 1) == WIND_WIRE_LENGTH);
	data(&p, dsm - 1, 0, 2, 4000);	/* first fragment cuts the header */
	p.wh.flags = WIND_F_DSM;
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + dsm - 1) == WIND_WIRE_LENGTH);
	data(&p, 10, 1, 2, 4000);	/* a later fragment may be short */
	p.wh.flags = WIND_F_DSM;
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 10) == WIND_WIRE_OK);
	data(&p, 10, 1, 2, dsm - 1);
	p.wh.flags = WIND_F_DSM;
	CHECK(check_all(&p.wh, WIND_DATA_HLEN + 10) == WIND_WIRE_LENGTH);
	report(ok, "data__dsm_header_present");
}

static void ack__naks(void)
{
	union pkt p;
	bool ok = true;
	unsigned int n;

	for (n = 0; n <= WIND_MAX_NAKS; n++) {
		mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(n));
		ah_of(&p)->nnaks = htons(n);
		CHECK(check_all(&p.wh, WIND_ACK_LEN(n)) == WIND_WIRE_OK);
		mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(n) + 1);
		ah_of(&p)->nnaks = htons(n);
		CHECK(check_all(&p.wh, WIND_ACK_LEN(n) + 1) ==
		      WIND_WIRE_LENGTH);
	}
	mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(1));
	ah_of(&p)->nnaks = htons(2);	/* claims more than it has */
	CHECK(check_all(&p.wh, WIND_ACK_LEN(1)) == WIND_WIRE_LENGTH);
	mk(&p, WIND_PKT_ACK, WIND_ACK_LEN(WIND_MAX_NAKS));
	ah_of(&p)->nnaks = htons(WIND_MAX_NAKS + 1);
	CHECK(check_all(&p.wh, WIND_ACK_LEN(WIND_MAX_NAKS)) ==
	      WIND_WIRE_HEADER);
	ah_of(&p)->nnaks = htons(0xffff);
	CHECK(check_all(&p.wh, WIND_ACK_LEN(WIND_MAX_NAKS)) ==
	      WIND_WIRE_HEADER);
	report(ok, "ack__naks");
}

static u32 rng = 0x9e3779b9;

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Random headers, biased towards the interesting values: anything that
 * passes must be safe for the locked path.
 */
static void random__accepted_means_consistent(void)
{
	unsigned long accepted = 0, i;
	union pkt p;
	bool ok = true;

	for (i = 0; i < 1000000 && ok; i++) {
		u8 type = rnd() % 6;
		u16 len = rnd() % 2 ? rnd() % 128 : rnd();
		unsigned int ip_len = rnd() % 8 ? len : rnd() & 0xffff;
		unsigned int j;

		mk(&p, type, len);
		for (j = WIND_HLEN; j < sizeof(p.bytes); j++)
			p.bytes[j] = rnd();
		if (rnd() % 8 == 0)
			p.wh.version_type = rnd();
		p.wh.flags = rnd() % 4 ? rnd() & WIND_F_ALL : rnd();
		if (type == WIND_PKT_DATA && rnd() % 2) {
			dh_of(&p)->nfrags = htons(rnd() % 4);
			dh_of(&p)->frag = htons(rnd() % 4);
			dh_of(&p)->msg_len = htonl(rnd() % 200);
		}
		if (type == WIND_PKT_ACK && rnd() % 2)
			ah_of(&p)->nnaks = htons(rnd() % 20);
		if (check_all(&p.wh, ip_len) != WIND_WIRE_OK)
			continue;
		accepted++;
		type = p.wh.version_type & 0xf;
		CHECK(ip_len == len && len >= wind_type_hlen(type) &&
		      wind_type_hlen(type));
		if ((p.wh.version_type & 0xf) == WIND_PKT_DATA) {
			u16 frag = ntohs(dh_of(&p)->frag);
			u16 nfrags = ntohs(dh_of(&p)->nfrags);
			u32 msg_len = ntohl(dh_of(&p)->msg_len);

			CHECK(frag < nfrags);
			CHECK(len - WIND_DATA_HLEN <= msg_len);
			CHECK(msg_len <= WIND_MAX_MSG);
			if (p.wh.flags & WIND_F_DSM && !frag)
				CHECK(len - WIND_DATA_HLEN >=
				      sizeof(struct wind_dsmhdr));
		} else if ((p.wh.version_type & 0xf) == WIND_PKT_ACK) {
			CHECK(ntohs(ah_of(&p)->nnaks) <= WIND_MAX_NAKS);
			CHECK(len == WIND_ACK_LEN(ntohs(ah_of(&p)->nnaks)));
		}
		CHECK(!(p.wh.flags & ~WIND_F_ALL) && p.wh.src_tag);
	}
	printf("# %lu random headers, %lu accepted\n", i, accepted);
	CHECK(accepted > 1000);		/* the generator reaches the checks */
	report(ok, "random__accepted_means_consistent");
}

/* A bundle: chunks of @lens, each WIND_F_ORDERED, in @b (4-aligned) */
static unsigned int bundle(unsigned char *b, const u16 *lens, unsigned int n)
{
	struct windhdr *wh = (struct windhdr *)b;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	unsigned int i, off = WIND_DATA_HLEN;

	memset(b, 0, 512);
	for (i = 0; i < n; i++) {
		struct wind_chunkhdr *ch = (struct wind_chunkhdr *)(b + off);

		ch->flags = WIND_F_ORDERED;
		ch->len = htons(lens[i]);
		/* data that is no chunk header, padding zero */
		memset(ch + 1, 0xaa, lens[i]);
		off += WIND_CHUNK_LEN(lens[i]);
	}
	wh->version_type = WIND_VERSION << 4 | WIND_PKT_DATA;
	wh->flags = WIND_F_BUNDLE;
	wh->len = htons(off);
	wh->src_tag = htonl(7);
	dh->nfrags = htons(n);
	dh->msg_len = htonl(off - WIND_DATA_HLEN);
	return off;
}

static void bundle__chunks(void)
{
	static const u16 lens[] = { 0, 1, 64, 3 };
	unsigned char b[512] __attribute__((aligned(4)));
	struct windhdr *wh = (struct windhdr *)b;
	struct wind_datahdr *dh = (struct wind_datahdr *)(wh + 1);
	struct wind_chunkhdr *ch0 = (struct wind_chunkhdr *)(dh + 1);
	unsigned long accepted = 0, i;
	unsigned int len;
	bool ok = true;

	len = bundle(b, lens, 4);
	CHECK(check_all(wh, len) == WIND_WIRE_OK);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_OK);
	wh->flags |= WIND_F_SYN | WIND_F_ACKREQ;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_OK);
	ch0->flags = WIND_F_ORDERED | WIND_F_SYNC | WIND_F_ACKREQ;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_OK);
	/* header flags a bundle cannot have */
	bundle(b, lens, 4);
	wh->flags |= WIND_F_ORDERED;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	bundle(b, lens, 4);
	wh->flags |= WIND_F_DSM;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	/* chunk flags, reserved byte, sync unordered */
	bundle(b, lens, 4);
	ch0->flags |= WIND_F_DSM;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	bundle(b, lens, 4);
	ch0->reserved = 1;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	bundle(b, lens, 4);
	ch0->flags = WIND_F_SYNC;
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	/* counts: 1, more than there are, fewer, frag set, too many */
	bundle(b, lens, 1);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	bundle(b, lens, 4);
	dh->nfrags = htons(5);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	dh->nfrags = htons(3);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	dh->nfrags = htons(4);
	dh->frag = htons(1);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	dh->frag = 0;
	dh->nfrags = htons(WIND_BUNDLE_MAX + 1);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	/* lengths: msg_len, an inner length past the end or short of it */
	bundle(b, lens, 4);
	dh->msg_len = htonl(ntohl(dh->msg_len) + 4);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	bundle(b, lens, 4);
	ch0->len = htons(len);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	ch0->len = htons(0xffff);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	ch0->len = htons(4);	/* 4 bytes more than it has: all shift */
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);
	/* bytes left after the last chunk */
	len = bundle(b, lens, 4);
	wh->len = htons(len + 4);
	dh->msg_len = htonl(len + 4 - WIND_DATA_HLEN);
	CHECK(wind_wire_check_bundle(wh) == WIND_WIRE_BUNDLE);

	/* random chunks: whatever passes is exactly its chunks */
	srand(2);
	for (i = 0; i < 200000 && ok; i++) {
		unsigned int n = 2 + rand() % 4, j, off, plen;
		u16 l[6];

		for (j = 0; j < n; j++)
			l[j] = rand() % 40;
		len = bundle(b, l, n);
		for (j = rand() % 3; j; j--)
			b[WIND_DATA_HLEN + rand() % (len - WIND_DATA_HLEN)] =
				rand();
		if (rand() % 4 == 0)
			dh->nfrags = htons(rand() % 8);
		if (wind_wire_check_bundle(wh) != WIND_WIRE_OK)
			continue;
		accepted++;
		plen = ntohs(wh->len);
		for (j = 0, off = WIND_DATA_HLEN; j < ntohs(dh->nfrags); j++) {
			const struct wind_chunkhdr *ch = (void *)(b + off);

			CHECK(off + WIND_CHUNK_HLEN <= plen);
			CHECK(!(ch->flags & ~WIND_F_CHUNK) && !ch->reserved);
			off += WIND_CHUNK_LEN(ntohs(ch->len));
			CHECK(off <= plen);
		}
		CHECK(off == plen);
	}
	printf("# %lu random bundles, %lu accepted\n", i, accepted);
	CHECK(accepted > 1000);
	report(ok, "bundle__chunks");
}

int main(void)
{
	printf("TAP version 13\n1..8\n");
	length__must_match_ip();
	header__version_type_tag_flags();
	header__shorter_than_type();
	data__fragment_fields();
	data__dsm_header_present();
	ack__naks();
	random__accepted_means_consistent();
	bundle__chunks();
	return ktest_end();
}
