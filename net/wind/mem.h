/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive memory (mem.c): the accounting of net.wind.mem, wmem_min and
 * rmem_min, and the charging of receive buffer and of the socket's own
 * allocations to its memory cgroup.
 */
#ifndef _WIND_MEM_H
#define _WIND_MEM_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct kmem_cache;
struct sk_buff;
struct sock;

extern atomic_long_t wind_memory_allocated;
DECLARE_PER_CPU(int, wind_memory_per_cpu_fw_alloc);
extern long wind_mem[3];
extern int wind_rmem_min;
extern int wind_wmem_min;
bool wind_rmem_set_owner(struct sk_buff *skb, struct sock *sk, bool force);
void wind_rmem_take(struct sk_buff *to, struct sk_buff *skb);
void *wind_sk_kmalloc(struct sock *sk, size_t size, gfp_t gfp);
void *wind_sk_alloc(struct sock *sk, struct kmem_cache *cachep, gfp_t gfp);
int wind_mem_init(void);
void wind_mem_exit(void);

#endif /* _WIND_MEM_H */
