// SPDX-License-Identifier: GPL-2.0
/*
 * S-DSM delivery: registered regions and the modes that write a message's
 * data straight into them (Direct Map, Header Through and their diff
 * variants).
 *
 * A region's pages are pinned (FOLL_LONGTERM) at WIND_REGION_ADD and
 * charged to RLIMIT_MEMLOCK; they are written from the receive path with
 * kmap_local_page() under the socket lock, the same lock WIND_REGION_DEL
 * and close() take before unpinning: once they return, no write to the
 * region can be in progress or start.  A sender can write only inside a
 * region whose id and 64-bit key it presents; every range and diff run is
 * checked before the first byte is written.
 *
 * A region is a byte range: its start and length need not be page
 * aligned.  The pages it spans are pinned (and charged) whole, but a
 * write is bounded to the range itself, so the bytes of its first and
 * last page outside it are never written, and two regions may share a
 * page.
 */
#include <linux/backing-dev.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <crypto/algapi.h>
#include <kunit/visibility.h>
#include <net/sock.h>
#include <uapi/linux/wind.h>

#include "dsm.h"
#include "netns.h"
#include "peer.h"
#include "rma.h"
#include "skb.h"
#include "sock.h"
#include "trace.h"

/* Largest region: a bound on pinned memory per registration. */
#define WIND_REGION_MAX		BIT_ULL(30)

static void region_free(struct wind_region_k *r)
{
	unpin_user_pages_dirty_lock(r->pages, r->npages,
				    !(r->flags & WIND_REGION_F_NO_WRITE));
	account_locked_vm(r->mm, r->npages, false);
	mmdrop(r->mm);
	kvfree(r->pages);
	kfree(r);
}

/* Pages of a file that is written back (a disk filesystem's, as opposed
 * to anonymous memory, tmpfs, memfd or hugetlbfs) cannot be written for
 * the long term behind the filesystem's back.  Linux 6.5 and later
 * refuse to pin them so; on earlier kernels the pinned pages are checked
 * here, which no remapping between the check and the pin can defeat.
 */
static bool region_pages_ok(struct page **pages, unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++) {
		struct folio *folio = page_folio(pages[i]);
		struct address_space *mapping;

		if (folio_test_anon(folio))
			continue;
		mapping = folio_mapping(folio);
		if (mapping && mapping->host && mapping_can_writeback(mapping))
			return false;
	}
	return true;
}

static bool region_overlaps(struct wind_sock *ws, unsigned long addr, u64 len)
{
	struct wind_region_k *r;
	unsigned long id;

	xa_for_each(&ws->regions, id, r)
		if (addr < r->uaddr + r->len && r->uaddr < addr + len)
			return true;
	return false;
}

/**
 * wind_region_add() - WIND_REGION_ADD: pin and register a region
 * @sk: the socket, locked
 * @reg: the request, copied from userspace
 *
 * The region is the byte range [addr, addr + len), of any alignment; the
 * pages it spans are pinned and charged whole.
 *
 * With WIND_REGION_F_NO_WRITE the pages are pinned read-only: memory
 * mapped without PROT_WRITE, or a written-back file's, can be
 * registered for peers to read.
 *
 * Return: 0; -EINVAL for a bad length, flags, a range that wraps or
 * overlaps another region's bytes, -EEXIST for a taken id, -ENOMEM over
 * RLIMIT_MEMLOCK, -EFAULT for memory that cannot be pinned writable.
 */
int wind_region_add(struct sock *sk, const struct wind_region *reg)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_region_k *r;
	unsigned long npages;
	int pinned, err;
	bool write;

	wind_sock_assert_held(sk);
	if ((reg->flags & ~WIND_REGION_F_ALL) || !reg->len ||
	    reg->len > WIND_REGION_MAX ||
	    reg->addr + reg->len < reg->addr)
		return -EINVAL;
	/* beyond user space: nothing there can be pinned */
	if (reg->addr + reg->len > TASK_SIZE)
		return -EFAULT;
	if (xa_load(&ws->regions, reg->id))
		return -EEXIST;
	if (region_overlaps(ws, reg->addr, reg->len))
		return -EINVAL;

	/* the pages the byte range spans */
	npages = (PAGE_ALIGN(reg->addr + reg->len) -
		  (reg->addr & PAGE_MASK)) >> PAGE_SHIFT;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->pages = kvmalloc_array(npages, sizeof(*r->pages), GFP_KERNEL);
	if (!r->pages) {
		err = -ENOMEM;
		goto err_pages;
	}
	r->mm = current->mm;
	mmgrab(r->mm);
	err = account_locked_vm(r->mm, npages, true);
	if (err)
		goto err_account;
	write = !(reg->flags & WIND_REGION_F_NO_WRITE);
	pinned = pin_user_pages_fast(reg->addr & PAGE_MASK, npages,
				     (write ? FOLL_WRITE : 0) | FOLL_LONGTERM,
				     r->pages);
	if (pinned != npages) {
		if (pinned > 0)
			unpin_user_pages(r->pages, pinned);
		err = pinned < 0 ? pinned : -EFAULT;
		goto err_pin;
	}
	if (write && !region_pages_ok(r->pages, npages)) {
		unpin_user_pages(r->pages, npages);
		err = -EFAULT;
		goto err_pin;
	}
	r->id = reg->id;
	r->flags = reg->flags;
	r->key = reg->key;
	r->uaddr = reg->addr;
	r->pgoff = offset_in_page(reg->addr);
	r->len = reg->len;
	r->npages = npages;
	err = xa_insert(&ws->regions, r->id, r, GFP_KERNEL);
	if (err) {
		unpin_user_pages(r->pages, npages);
		goto err_pin;
	}
	return 0;

err_pin:
	account_locked_vm(r->mm, npages, false);
err_account:
	mmdrop(r->mm);
	kvfree(r->pages);
err_pages:
	kfree(r);
	return err;
}

/**
 * wind_region_del() - WIND_REGION_DEL: unregister and unpin a region
 * @sk: the socket, locked: no receive-path write is in progress
 * @id: the region id
 *
 * Return: 0 or -ENOENT.
 */
int wind_region_del(struct sock *sk, u32 id)
{
	struct wind_region_k *r;

	wind_sock_assert_held(sk);
	r = xa_erase(&wind_sk(sk)->regions, id);
	if (!r)
		return -ENOENT;
	region_free(r);
	return 0;
}

/**
 * wind_regions_destroy() - unpin every region of a closing socket
 * @sk: the socket, locked
 */
void wind_regions_destroy(struct sock *sk)
{
	struct wind_sock *ws = wind_sk(sk);
	struct wind_region_k *r;
	unsigned long id;

	wind_sock_assert_held(sk);
	xa_for_each(&ws->regions, id, r) {
		xa_erase(&ws->regions, id);
		region_free(r);
	}
	xa_destroy(&ws->regions);
}

/* Copy @len bytes to @off in @r, a byte offset from the region's start
 * (not its first page's), from @skb at @skb_off or, with @skb NULL,
 * from @buf: the caller checked that [@off, @off + @len) lies inside
 * [0, r->len).
 */
static void region_copy(struct wind_region_k *r, u64 off,
			const struct sk_buff *skb, int skb_off,
			const void *buf, u32 len)
{
	off += r->pgoff;
	while (len) {
		struct page *page = r->pages[off >> PAGE_SHIFT];
		u32 poff = off & ~PAGE_MASK;
		u32 n = min_t(u32, len, PAGE_SIZE - poff);
		void *va = kmap_local_page(page);

		if (skb)
			WARN_ON_ONCE(skb_copy_bits(skb, skb_off, va + poff, n));
		else
			memcpy(va + poff, buf + skb_off, n);
		kunmap_local(va);
		flush_dcache_page(page);
		off += n;
		skb_off += n;
		len -= n;
	}
}

/**
 * wind_region_write() - copy bytes of a packet into a region
 * @r: the region, its socket locked
 * @off: where, from the region's start
 * @skb: the packet
 * @skb_off: where in it the bytes start
 * @len: how many: [@off, @off + @len) lies inside the region
 */
void wind_region_write(struct wind_region_k *r, u64 off,
		       const struct sk_buff *skb, int skb_off, u32 len)
{
	region_copy(r, off, skb, skb_off, NULL, len);
}

/**
 * wind_region_write_buf() - copy bytes from memory into a region
 * @r: the region, its socket locked
 * @off: where, from the region's start
 * @buf: the bytes
 * @len: how many: [@off, @off + @len) lies inside the region
 */
void wind_region_write_buf(struct wind_region_k *r, u64 off, const void *buf,
			   u32 len)
{
	region_copy(r, off, NULL, 0, buf, len);
}

/* Walk the runs of a diff: with @r NULL only check them, else apply.
 * Returns 0, -EINVAL (malformed) or -ERANGE (leaves the region).
 * Visible to the KUnit tests (net/wind/kunit.c) on kernels with KUnit.
 */
VISIBLE_IF_KUNIT int wind_diff_walk(struct wind_region_k *r, u64 base, u64 rlen,
				    const struct sk_buff *skb, int off, u32 len,
				    u32 *written)
{
	struct wind_diff_run run;

	*written = 0;
	while (len) {
		if (len < sizeof(run) ||
		    skb_copy_bits(skb, off, &run, sizeof(run)))
			return -EINVAL;
		off += sizeof(run);
		len -= sizeof(run);
		if (run.len > len)
			return -EINVAL;
		if ((u64)run.off + run.len > rlen - base)
			return -ERANGE;
		if (r)
			wind_region_write(r, base + run.off, skb, off,
					  run.len);
		*written += run.len;
		off += run.len;
		len -= run.len;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(wind_diff_walk);

/* The key-failure bucket of @addr: by address, not port (a guesser has
 * one host and any number of ports), through a keyed hash (a host
 * cannot pick addresses that share a slot with another's), in a table
 * of fixed size (nothing a guesser can grow).  A failure takes a token;
 * with none left, every DSM message from the address is refused unread.
 * A token comes back after WIND_KEYFAIL_REFILL without a message
 * refused so: a guesser that does not stop gets none back.
 */
static struct wind_keyfail *keyfail_slot(struct wind_sock *ws,
					 const struct in6_addr *addr)
{
	u64 h = siphash(addr, sizeof(*addr), &ws->keyfail_key);

	return &ws->keyfail[h % WIND_KEYFAIL_SLOTS];
}

static bool keyfail_empty(struct wind_keyfail *kf)
{
	unsigned long now = jiffies, n;

	if (kf->tokens < WIND_KEYFAIL_BURST) {
		n = (now - kf->stamp) / WIND_KEYFAIL_REFILL;
		if (n >= WIND_KEYFAIL_BURST - kf->tokens) {
			kf->tokens = WIND_KEYFAIL_BURST;
			kf->stamp = now;
		} else {
			kf->tokens += n;
			kf->stamp += n * WIND_KEYFAIL_REFILL;
		}
	}
	if (kf->tokens)
		return false;
	kf->stamp = now;	/* refused unread: the refill starts again */
	return true;
}

/**
 * wind_region_get() - the region a DSM message of @peer's names
 * @peer: the sender, its socket locked
 * @id: the region id it presents
 * @key: the key it presents
 * @err: set on failure
 *
 * A source address that used up its key failures (keyfail_slot()) is
 * refused with -EBUSY before the region or key is looked at; a wrong
 * key or region costs it a token.
 *
 * Return: the region, or NULL with *@err -EBUSY or -EACCES.
 */
struct wind_region_k *wind_region_get(struct wind_peer *peer, u32 id, u64 key,
				      int *err)
{
	struct wind_sock *ws = wind_sk(peer->sk);
	struct wind_keyfail *kf = keyfail_slot(ws, &peer->daddr6);
	struct wind_region_k *r;

	wind_peer_assert_held(peer);
	if (keyfail_empty(kf)) {
		WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_DSM_LIMITED);
		*err = -EBUSY;
		return NULL;
	}
	r = xa_load(&ws->regions, id);
	if (!r || crypto_memneq(&r->key, &key, sizeof(key))) {
		kf->tokens--;
		*err = -EACCES;
		return NULL;
	}
	return r;
}

/**
 * wind_dsm_deliver() - carry out the DSM mode of a reassembled message
 * @peer: the sender, its socket locked
 * @skb: the message: struct wind_dsmhdr, then header, then data
 * @hdr: set, for Header Through and Header Diff, to a new skb for
 *	recvmsg(): the wind_dsm record, then the header
 *
 * Everything that can fail (checks, the allocation of @hdr) happens
 * before the first byte is written: a refused message writes nothing.
 *
 * A message the DSM modes wrote counts in InDsmWrites and InDsmBytes.
 * One-sided requests and their answers, which count as theirs, go to
 * rma.c once the region's key
 * (a request's) or the message's form (an answer's) is checked.
 *
 * Return: 1 when *@hdr must be queued (@skb consumed), 2 when @skb must
 * be queued, 0 when the message is consumed, or a negative errno for a
 * refusal (nothing was written).
 */
int wind_dsm_deliver(struct wind_peer *peer, struct sk_buff *skb,
		     struct sk_buff **hdr)
{
	struct wind_dsmhdr dh;
	struct wind_dsm *rec;
	struct wind_region_k *r;
	u32 hdr_len, data_len, region, written;
	u64 offset, key;
	struct sk_buff *h = NULL;
	int data_off, err;

	wind_peer_assert_held(peer);
	if (skb_copy_bits(skb, 0, &dh, sizeof(dh)))
		return -EINVAL;
	hdr_len = ntohl(dh.hdr_len);
	region = ntohl(dh.region);
	offset = be64_to_cpu(dh.offset);
	key = be64_to_cpu(dh.key);
	if (dh.mode == WIND_DSM_WIRE_RMA_REPLY)
		return wind_rma_reply_rcv(peer, skb, &dh, hdr);
	if (((dh.mode < WIND_DSM_DIRECT_MAP || dh.mode > WIND_DSM_HEADER_DIFF) &&
	     dh.mode != WIND_DSM_WIRE_RMA) || hdr_len > skb->len - sizeof(dh))
		return -EINVAL;
	data_off = sizeof(dh) + hdr_len;
	data_len = skb->len - data_off;

	r = wind_region_get(peer, region, key, &err);
	if (!r)
		return err;
	if (dh.mode == WIND_DSM_WIRE_RMA)
		return wind_rma_serve(peer, r, &dh, skb);
	if (r->flags & WIND_REGION_F_NO_WRITE)
		return -EACCES;
	offset = wind_region_off(r, offset);
	if (offset > r->len)
		return -ERANGE;
	if (dh.mode == WIND_DSM_DIRECT_DIFF || dh.mode == WIND_DSM_HEADER_DIFF) {
		err = wind_diff_walk(NULL, offset, r->len, skb, data_off,
				     data_len, &written);
		if (err)
			return err;
	} else if (data_len > r->len - offset) {
		return -ERANGE;
	}
	if (dh.mode == WIND_DSM_HEADER_THROUGH ||
	    dh.mode == WIND_DSM_HEADER_DIFF) {
		/* the record for recvmsg(), then the header */
		h = alloc_skb(sizeof(*rec) + hdr_len, GFP_ATOMIC);
		if (!h)
			return -ENOMEM;
		rec = skb_put(h, sizeof(*rec));
		if (skb_copy_bits(skb, sizeof(dh), skb_put(h, hdr_len),
				  hdr_len)) {
			kfree_skb(h);
			return -EINVAL;
		}
	}

	if (dh.mode == WIND_DSM_DIRECT_DIFF || dh.mode == WIND_DSM_HEADER_DIFF) {
		wind_diff_walk(r, offset, r->len, skb, data_off, data_len,
			       &written);
	} else {
		wind_region_write(r, offset, skb, data_off, data_len);
		written = data_len;
	}
	trace_wind_dsm_write(peer, dh.mode, region, offset, written);
	WIND_INC_STATS(sock_net(peer->sk), WIND_MIB_IN_DSM_WRITES);
	WIND_ADD_STATS(sock_net(peer->sk), WIND_MIB_IN_DSM_BYTES, written);
	if (!h)
		return 0;
	rec->mode = dh.mode;
	rec->region = region;
	rec->offset = be64_to_cpu(dh.offset);	/* as the sender named it */
	rec->key = 0;		/* the receiver knows it; never echoed */
	rec->hdr_len = hdr_len;
	rec->data_len = written;
	*WIND_SKB_CB(h) = *WIND_SKB_CB(skb);
	*hdr = h;
	return 1;
}
