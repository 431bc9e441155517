/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Software-DSM regions (dsm.c): the memory a receiving process registered,
 * and the DSM messages that write into it.
 */
#ifndef _WIND_DSM_H
#define _WIND_DSM_H

#include <linux/limits.h>
#include <linux/types.h>
#include <uapi/linux/wind.h>

struct mm_struct;
struct page;
struct sk_buff;
struct sock;
struct wind_peer;

/* A registered region of a receiving process (WIND_REGION_ADD). */
struct wind_region_k {
	u32 id;
	u32 flags;			/* WIND_REGION_F_* */
	u64 key;
	unsigned long uaddr;		/* the first byte: any alignment */
	u64 len;			/* bytes from uaddr: writes stay inside */
	unsigned long pgoff;		/* uaddr's offset into pages[0] */
	unsigned long npages;		/* the pages [uaddr, uaddr + len) spans */
	struct page **pages;
	struct mm_struct *mm;		/* charged for the pinned pages */
};

int wind_region_add(struct sock *sk, const struct wind_region *reg);
int wind_region_del(struct sock *sk, u32 id);
void wind_regions_destroy(struct sock *sk);
struct wind_region_k *wind_region_get(struct wind_peer *peer, u32 id, u64 key,
				      int *err);

/* The offset into @r that @off names (WIND_REGION_F_VADDR: an address);
 * one below the region's start becomes one past its end, which every
 * bounds check refuses.
 */
static inline u64 wind_region_off(const struct wind_region_k *r, u64 off)
{
	if (!(r->flags & WIND_REGION_F_VADDR))
		return off;
	return off >= r->uaddr ? off - r->uaddr : U64_MAX;
}

void wind_region_write(struct wind_region_k *r, u64 off,
		       const struct sk_buff *skb, int skb_off, u32 len);
void wind_region_write_buf(struct wind_region_k *r, u64 off, const void *buf,
			   u32 len);
int wind_dsm_deliver(struct wind_peer *peer, struct sk_buff *skb,
		     struct sk_buff **hdr);

#if IS_ENABLED(CONFIG_KUNIT)
int wind_diff_walk(struct wind_region_k *r, u64 base, u64 rlen,
		   const struct sk_buff *skb, int off, u32 len, u32 *written);
#endif

#endif /* _WIND_DSM_H */
