/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libwind-fi.so: the libfabric provider "wind".  Reliable-datagram
 * endpoints (FI_EP_RDM) over one Wind socket each; every libfabric message
 * is one Wind message (async-ordered) made of a struct wfi_hdr and the
 * payload.  Progress is automatic: a thread per domain (thread.c) reads
 * the sockets of endpoints the application does not progress itself; with
 * FI_PROGRESS_MANUAL the socket is read only when the application reads
 * a CQ or a counter or finds its send queue full.
 *
 * Locking: one mutex per domain serialises everything under it (AVs, CQs,
 * counters, endpoints), for the application's threads and the progress
 * thread alike; the provider reports FI_THREAD_SAFE.
 */
#ifndef WIND_FI_H
#define WIND_FI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <linux/wind.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_atomic.h>
#include <rdma/providers/fi_prov.h>
#include <rdma/providers/fi_log.h>

#define WFI_NAME		"wind"
#define WFI_VERSION		FI_VERSION(1, 0)
#define WFI_API_VERSION		FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION)

/* The largest libfabric message: Wind's hard cap is 64 MiB; 16 MiB keeps
 * a message with its per-packet overhead inside the buffers we ask for. */
#define WFI_MAX_MSG		(16u << 20)
#define WFI_INJECT_SIZE		8192
#define WFI_IOV_LIMIT		8
#define WFI_QUEUE_SIZE		65536
#define WFI_CQ_DATA_SIZE	8
/* FI_OPT_MIN_MULTI_RECV until fi_setopt() says otherwise */
#define WFI_MIN_MULTI_RECV	64

/* The largest atomic: this many bytes of operands per operation */
#define WFI_ATOMIC_MAX		65536

/* Op flag of the provider's own, never an application's: the operation
 * is an fi_inject*() call, which generates no completion.  FI_INJECT in
 * tx_attr->op_flags or in an fi_*msg() call only lets the caller reuse
 * the buffer at once; that operation completes as any other. */
#define WFI_INJECT_CALL		(1ULL << 62)

#define WFI_RMA_CAPS	(FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE)
#define WFI_CAPS	(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | FI_RMA_EVENT | \
			 FI_DIRECTED_RECV | FI_MULTI_RECV | FI_SOURCE | \
			 WFI_RMA_CAPS | \
			 FI_LOCAL_COMM | FI_REMOTE_COMM)

/* On the wire, in front of every payload (host byte order: both ends are
 * this provider on the same architecture; version guards the rest). */
struct wfi_hdr {
	uint8_t		version;
	uint8_t		op;		/* WFI_OP_* */
	uint16_t	flags;		/* WFI_HF_* */
	uint32_t	reserved;
	uint64_t	tag;
	uint64_t	data;		/* remote CQ data when WFI_HF_DATA */
};
#define WFI_HDR_VERSION	1
/* WFI_OP_PROBE: no payload, dropped by the receiver; sent to a peer a
 * directed receive has waited on for FI_WIND_PROBE_MS, so that Wind
 * finds out (and reports) when that peer is gone. */
enum { WFI_OP_MSG = 1, WFI_OP_TAGGED = 2, WFI_OP_PROBE = 3,
/* RMA and atomics (rma.c).  A request carries a struct wfi_rma after the
 * header; the target's progress applies it to a registered MR and sends
 * WFI_OP_RESP (tag: the request id; reserved: 0 or a positive FI_E*;
 * payload: the data read or fetched).  WFI_OP_WDATA is the header a
 * Direct Map write with remote CQ data leaves in the target's socket
 * (WIND_DSM_HEADER_THROUGH), the data itself already in place. */
       WFI_OP_WRITE = 4, WFI_OP_READ = 5, WFI_OP_ATOMIC = 6,
       WFI_OP_RESP = 7, WFI_OP_WDATA = 8,
/* A message larger than the endpoint's chunk (FI_WIND_CHUNK) goes as
 * several Wind messages, back to back on the sender's ordered stream to
 * that peer: the first a WFI_OP_MSG/WFI_OP_TAGGED with WFI_HF_FIRST and
 * the whole payload's length in reserved, then WFI_OP_CONT ones (tag: the
 * offset of their payload, reserved: that length again).  The receiver
 * matches on the first and places each piece as it comes, while the next
 * is on the wire: copies at both ends and the wire overlap. */
       WFI_OP_CONT = 9 };
#define WFI_HF_DATA	0x1
#define WFI_HF_FETCH	0x2	/* atomic: send the old values back */
#define WFI_HF_COMPARE	0x4	/* atomic: operands are followed by compares */
#define WFI_HF_FIRST	0x8	/* the first piece of a chunked message */

/* The default piece of a chunked message, and the smallest allowed */
#define WFI_CHUNK_DEFAULT	(64u << 10)
#define WFI_CHUNK_MIN		(16u << 10)

struct wfi_rma {
	uint64_t	key;
	uint64_t	addr;	/* offset into the MR (no FI_MR_VIRT_ADDR) */
	uint64_t	len;	/* bytes written or read; atomics: operand bytes */
	uint32_t	datatype;	/* atomics: enum fi_datatype */
	uint32_t	aop;		/* atomics: enum fi_op */
};

/* MR keys (FI_MR_PROV_KEY): 64 bits from getrandom(), nothing else.  An
 * MR with FI_REMOTE_WRITE is also a Wind region on the endpoints'
 * sockets, the byte range of the MR, whose id is the key's low 32 bits
 * (drawn again while 0 or another MR's of the domain) and whose key is
 * the whole key: a Direct Map message names region (uint32_t)key, key
 * key, offset the MR offset, and the target's kernel checks all 64 bits.
 * Whether a key is a region, and whether the target counts remote writes
 * (FI_RMA_EVENT: Direct Map must leave a header, Header Through), is not
 * in the key: the target says so in its answers (WFI_HF_DM, below) and
 * the initiator keeps what it was told (struct wfi_dmc). */
#define WFI_KEY_REGION(k)	((uint32_t)(k))

/* In a WFI_OP_RESP's flags: the MR the request named is a Wind region on
 * the answering endpoint's socket (fi_write may be Direct Map), and with
 * WFI_HF_DM_EVENT its domain counts remote writes (Header Through). */
#define WFI_HF_DM	0x10
#define WFI_HF_DM_EVENT	0x20
/* ... and its kernel may serve reads and atomics on it (one-sided, in
 * softirq): no counter there counts them */
#define WFI_HF_KRMA	0x40
/* In a struct wfi_dmc's mode only: the target's answer was heard (mode
 * holds what it said, maybe nothing else) */
#define WFI_DMC_KNOWN	0x8000

/* The initiator's memory of the targets' answers: keys that are Direct
 * Map regions there, per target (WFI_DMC_SIZE of them, the least recently
 * used pushed out; one forgotten costs one software write, whose answer
 * teaches it again).  mode: 0 empty, WFI_HF_DM or WFI_HF_DM|_EVENT. */
#define WFI_DMC_SIZE		256
struct wfi_dmc {
	uint64_t	key;
	uint64_t	dest;	/* fi_addr_t */
	uint64_t	used;	/* ep->dmc_clock when last used */
	uint32_t	mode;
};

/* An endpoint's address: IPv4 (FI_SOCKADDR_IN, AF_INET sockets) or IPv6
 * (FI_SOCKADDR_IN6, AF_INET6 sockets).  Kept normalized: an IPv4 peer
 * that an AF_INET6 socket names v4-mapped is stored as a sockaddr_in. */
union wfi_addr {
	struct sockaddr		sa;
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;
};
#define WFI_ADDRSTRLEN	(INET6_ADDRSTRLEN + 16)

struct wfi_list {
	struct wfi_list *next, *prev;
};

static inline void wfi_list_init(struct wfi_list *h)
{
	h->next = h->prev = h;
}

static inline bool wfi_list_empty(const struct wfi_list *h)
{
	return h->next == h;
}

static inline void wfi_list_add_tail(struct wfi_list *h, struct wfi_list *e)
{
	e->prev = h->prev;
	e->next = h;
	h->prev->next = e;
	h->prev = e;
}

static inline void wfi_list_del(struct wfi_list *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = e->prev = e;
}

#define wfi_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct wfi_fabric {
	struct fid_fabric	fabric;
	uint32_t		api_version;
};

struct wfi_ep;
struct wfi_mr;

struct wfi_domain {
	struct fid_domain	domain;
	struct wfi_fabric	*fab;
	pthread_mutex_t		lock;	/* everything of this domain */
	uint32_t		api_version;
	enum fi_av_type		av_type;
	uint64_t		mr_mode;	/* what fi_getinfo returned */
	int			refs;	/* objects opened on it */
	struct wfi_list		mrs;	/* struct wfi_mr */
	struct wfi_list		eps;	/* struct wfi_ep, for regions */
	uint64_t		next_key;	/* keys without FI_MR_PROV_KEY */
	bool			rma_event;	/* FI_RMA_EVENT asked for */
	uint64_t		events;	/* completions and counter events made */
	/* the progress thread (thread.c), FI_PROGRESS_AUTO */
	bool			auto_progress;
	bool			thread_running, stop;
	pthread_t		thread;
	int			wake_fd;	/* eventfd: wakes the thread */
	int			done_fd;	/* eventfd: the thread completed */
};

/* A memory registration: local, or remote-accessible (FI_REMOTE_*). */
struct wfi_mr {
	struct fid_mr		mr;
	struct wfi_domain	*dom;
	struct wfi_list		link;	/* dom->mrs */
	char			*addr;
	size_t			len;
	uint64_t		access;
	uint32_t		region;	/* Wind region id, 0: none */
	bool			kregion;	/* a region on every endpoint's socket */
	uint64_t		flags;		/* fi_mr_reg flags: FI_RMA_EVENT */
	struct wfi_cntr		*rd_cntr, *wr_cntr;	/* fi_mr_bind */
};

/* AV: fi_addr_t is an index into addrs (FI_AV_TABLE and FI_AV_MAP alike). */
struct wfi_av {
	struct fid_av		av;
	struct wfi_domain	*dom;
	enum fi_av_type		type;
	union wfi_addr		*addrs;
	bool			*used;
	size_t			count, cap;
	int			refs;
};

/* A completion as it sits in a CQ until read. */
struct wfi_cqe {
	struct fi_cq_tagged_entry e;
	fi_addr_t		src;
	int			err;	/* positive FI_E*; 0 for success */
	int			prov_errno;
	size_t			olen;
};

struct wfi_cq {
	struct fid_cq		cq;
	struct wfi_domain	*dom;
	enum fi_cq_format	format;
	struct wfi_cqe		*ring;	/* successes */
	size_t			head, count, cap;
	struct wfi_cqe		*errs;	/* error entries, FIFO */
	size_t			ehead, ecount, ecap;
	struct wfi_ep		**eps;	/* endpoints to progress */
	size_t			neps;
	int			refs;
};

struct wfi_cntr {
	struct fid_cntr		cntr;
	struct wfi_domain	*dom;
	uint64_t		value, errs;
	struct wfi_ep		**eps;
	size_t			neps;
	int			refs;
	int			mr_refs;	/* bound to MRs: progress the domain */
};

/* A posted receive, or a message that came before its receive. */
struct wfi_rx {
	struct wfi_list		link;
	void			*context;
	uint64_t		flags;	/* op flags (FI_COMPLETION ...) */
	uint8_t			op;	/* WFI_OP_* */
	fi_addr_t		src;	/* FI_ADDR_UNSPEC: any */
	uint64_t		tag, ignore;
	struct iovec		iov[WFI_IOV_LIMIT];
	size_t			iov_count;
	size_t			len;
	int64_t			probe_at;	/* ms, CLOCK_MONOTONIC; directed only */
	/* FI_MULTI_RECV (FI_MSG, one iovec): messages are placed one after
	 * the other from moff on; the buffer is released (FI_MULTI_RECV in
	 * the last completion) once less than mmin bytes are left */
	bool			multi;
	size_t			moff, mmin;
};

struct wfi_unexp {
	struct wfi_list		link;
	union wfi_addr		from;
	struct wfi_hdr		hdr;
	size_t			len;
	void			*buf;
	void			*claim;	/* context that FI_CLAIM'ed it */
};

/* A chunked message being received from one peer (WFI_OP_CONT): into a
 * posted receive, or (unexpected) into a buffer that joins the unexpected
 * list once whole. */
struct wfi_rxc {
	struct wfi_list		link;	/* ep->rxcs */
	union wfi_addr		from;
	struct wfi_hdr		hdr;	/* the first piece's */
	size_t			total, off;
	struct wfi_rx		*rx;	/* or NULL: u */
	size_t			room;	/* bytes rx takes */
	struct wfi_unexp	*u;
};

/* A chunked send not yet wholly handed to the socket (the socket's send
 * buffer was full): progress sends the rest; sends to its peer, and
 * other chunked sends, wait (FI_EAGAIN) until it is out. */
struct wfi_txc {
	bool			active;
	union wfi_addr		to;
	socklen_t		tolen;
	struct wfi_hdr		hdr;	/* the first piece's */
	struct iovec		iov[WFI_IOV_LIMIT];
	size_t			count, total, off;
	void			*context;
	uint64_t		flags;
};

/* A peer not heard from yet, and copies of what was sent to it (peer.c) */
struct wfi_peer {
	struct wfi_list		link;	/* ep->peers */
	union wfi_addr		addr;
	fi_addr_t		dest;	/* the last fi_addr_t it was sent to as */
	struct wfi_list		held;	/* struct wfi_held, in send order */
	size_t			held_bytes;
	unsigned int		nsent;	/* of those, sent since the last refusal */
	int64_t			first_refusal;	/* ms, 0: none yet */
	int64_t			resend_at;	/* ms, 0: no resend due */
	unsigned int		backoff;	/* ms */
};

struct wfi_ep {
	struct fid_ep		ep;
	struct wfi_domain	*dom;
	struct fi_info		*info;
	int			fd;
	bool			enabled;
	union wfi_addr		name;
	struct wfi_av		*av;
	struct wfi_cq		*tx_cq, *rx_cq;
	bool			tx_selective, rx_selective;
	struct wfi_cntr		*send_cntr, *recv_cntr;
	uint64_t		tx_op_flags, rx_op_flags;
	struct wfi_list		posted[3];	/* indexed by WFI_OP_* */
	struct wfi_list		unexp[3];
	size_t			unexp_bytes;
	size_t			unexp_max;
	size_t			min_multi_recv;	/* FI_OPT_MIN_MULTI_RECV */
	uint64_t		stat_unexp;
	unsigned int		progress_calls;
	size_t			ndirected;	/* posted directed receives */
	int64_t			probe_ms;	/* 0: no probes */
	struct wfi_list		dlink;		/* dom->eps */
	struct wfi_cntr		*read_cntr, *write_cntr;
	struct wfi_cntr		*rread_cntr, *rwrite_cntr;	/* FI_RMA_EVENT */
	struct wfi_list		pending;	/* struct wfi_pend: RMA in flight */
	uint64_t		next_id;
	uint64_t		stat_dm_writes, stat_sw_writes;	/* initiated */
	uint64_t		stat_reads, stat_atomics;
	uint64_t		stat_kreads, stat_katomics;	/* by its kernel */
	uint64_t		stat_served;	/* requests applied as target */
	uint64_t		stat_dm_refused;	/* async Direct Map refusals */
	struct wfi_dmc		dmc[WFI_DMC_SIZE];
	uint64_t		dmc_clock;
	unsigned int		dmc_last;	/* the entry last found */
	size_t			ndm;	/* async Direct Map writes unresolved */
	/* The next message, already read (progress.c, "stash"): after a
	 * small message, progress reads the next one whole in one call
	 * instead of peeking at its header first */
	char			*stash;		/* mmap'ed, stash_cap bytes */
	size_t			stash_cap;
	size_t			stash_len;	/* bytes of the message in it */
	bool			stashed;	/* it holds the next message */
	bool			stash_next;	/* read the next one into it */
	bool			stash_off;	/* it could not be mapped */
	union wfi_addr		stash_from;
	size_t			stash_ctllen;
	char			stash_ctl[128];	/* its control messages */
	size_t			chunk;	/* FI_WIND_CHUNK; 0: no chunking */
	struct wfi_list		rxcs;	/* struct wfi_rxc */
	struct wfi_txc		txc;
	uint64_t		stat_chunked_tx, stat_chunked_rx;
	struct wfi_list		peers;	/* struct wfi_peer: not heard from yet */
	bool			*known;	/* by fi_addr_t: heard from */
	size_t			nknown;
	int64_t			connect_ms;	/* FI_WIND_CONNECT_MS */
	/* the progress thread's view (thread.c) */
	uint64_t		app_seq;	/* progress calls of the application */
	uint64_t		thr_seen;	/* app_seq when the thread last looked */
	uint64_t		consumed;	/* messages and reports read */
	int64_t			thr_idle_until;	/* ms: not polled before */
	size_t			thr_slot;	/* its pollfd, 0: none */
};

/* An RMA or atomic operation waiting for the target's WFI_OP_RESP. */
struct wfi_pend {
	struct wfi_list		link;
	uint64_t		id;
	fi_addr_t		dest;
	union wfi_addr		to;	/* dest's address when it was sent */
	uint64_t		key;	/* the MR key it names */
	void			*context;
	uint64_t		flags;	/* op flags */
	uint64_t		cqflags;	/* FI_RMA | FI_WRITE ... */
	bool			is_read;	/* counts on read_cntr */
	int64_t			probe_at;	/* ms: probe the target then */
	struct iovec		res[WFI_IOV_LIMIT];	/* where the reply's data goes */
	size_t			nres;
	size_t			reslen;
	/* An async Direct Map write (dm): its message is the dm_idx'th the
	 * kernel queued to the target (wpi_tx_messages) and carries the low
	 * 32 bits of id as its WIND_CMSG_MSGID; it is resolved once the
	 * target acknowledged that many, or by a refusal on the error queue
	 * naming that id, and then (resend) sent again the software way from
	 * wiov/wrma.  Up to 15 of them may be in flight per target. */
	bool			dm, dm_acked, resend;
	uint64_t		dm_idx;
	struct iovec		wiov[WFI_IOV_LIMIT];
	size_t			nwiov;
	struct wfi_rma		wrma;
	bool			whas_data;
	uint64_t		wdata;
	/* A read or an atomic the target's kernel serves (kernel): its
	 * completion is a WIND_CMSG_RMA naming id; refused, it is sent
	 * again the software way (resend) as rop with rhflags, its
	 * operands in kbuf. */
	bool			kernel;
	uint8_t			rop;
	uint16_t		rhflags;
	uint64_t		kbuf[2];
};

extern struct fi_provider wfi_prov;
extern int wfi_yield;	/* FI_WIND_YIELD */
extern int wfi_stats;	/* FI_WIND_STATS */
extern int wfi_kernel_rma;	/* FI_WIND_KERNEL_RMA: reads, atomics by it */

#define WFI_WARN(subsys, ...) FI_WARN(&wfi_prov, subsys, __VA_ARGS__)

/* prov.c */
int wfi_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info);
int wfi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
		    void *context);
size_t wfi_param_size(const char *name, size_t dflt);
int wfi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int wfi_no_control(struct fid *fid, int command, void *arg);
int wfi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		    void **ops, void *context);

/* domain.c */
int wfi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **dom, void *context);
int wfi_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		struct fid_av **av, void *context);
int wfi_av_reverse(struct wfi_av *av, const union wfi_addr *sin,
		   fi_addr_t *out);
const union wfi_addr *wfi_av_addr(struct wfi_av *av, fi_addr_t addr);

/* address helpers (domain.c) */
socklen_t wfi_addr_len(const union wfi_addr *a);
void wfi_addr_norm(union wfi_addr *a);
bool wfi_addr_same(const union wfi_addr *a, const union wfi_addr *b);
const char *wfi_addr_str(const union wfi_addr *a, char *buf, size_t len);
socklen_t wfi_addr_to(const struct wfi_ep *ep, const union wfi_addr *a,
		      union wfi_addr *out);

/* cq.c */
int wfi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		struct fid_cq **cq, void *context);
int wfi_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		  struct fid_cntr **cntr, void *context);
int wfi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		struct fid_eq **eq, void *context);
int wfi_cq_push(struct wfi_cq *cq, const struct wfi_cqe *cqe);
int wfi_attach(struct wfi_ep ***eps, size_t *neps, struct wfi_ep *ep);
void wfi_detach(struct wfi_ep **eps, size_t *neps, struct wfi_ep *ep);

/* ep.c */
int wfi_endpoint(struct fid_domain *domain, struct fi_info *info,
		 struct fid_ep **ep, void *context);

/* progress.c */
void wfi_ep_progress(struct wfi_ep *ep);
void wfi_ep_progress_n(struct wfi_ep *ep, size_t want);
void wfi_ep_progress_auto(struct wfi_ep *ep);
unsigned int wfi_drain_errqueue(struct wfi_ep *ep, int match);
bool wfi_failed_by_report(struct wfi_ep *ep, int err);
int wfi_map_errno(int err);
size_t wfi_iov_total(const struct iovec *iov, size_t count);
int64_t wfi_now_ms(void);
ssize_t wfi_send(struct wfi_ep *ep, const struct iovec *iov, size_t count,
		 fi_addr_t dest, uint8_t op, uint64_t tag, uint64_t data,
		 bool has_data, void *context, uint64_t flags);
ssize_t wfi_recv(struct wfi_ep *ep, const struct iovec *iov, size_t count,
		 fi_addr_t src, uint8_t op, uint64_t tag, uint64_t ignore,
		 void *context, uint64_t flags);
ssize_t wfi_ep_cancel(fid_t fid, void *context);
void wfi_ep_free_lists(struct wfi_ep *ep);

/* rma.c */
extern struct fi_ops_rma wfi_rma_ops;
extern struct fi_ops_atomic wfi_atomic_ops;
int wfi_query_atomic(struct fid_domain *domain, enum fi_datatype datatype,
		     enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags);
/* progress: handle an RMA message whose header was peeked (lock held) */
void wfi_rma_incoming(struct wfi_ep *ep, const struct wfi_hdr *h, size_t len,
		      const union wfi_addr *from);
void wfi_rma_peer_failed(struct wfi_ep *ep, const union wfi_addr *peer,
			 int err);
void wfi_rma_kernel_done(struct wfi_ep *ep, const struct wind_rma *rma,
			 size_t len);
unsigned int wfi_rma_refused(struct wfi_ep *ep, const union wfi_addr *peer,
			     int err, uint32_t msgid);
void wfi_rma_dm_progress(struct wfi_ep *ep);
void wfi_rma_free(struct wfi_ep *ep);
int wfi_mr_key(struct wfi_domain *dom, struct wfi_mr *mr);
int wfi_region_add(struct wfi_ep *ep, struct wfi_mr *mr);
void wfi_region_del(struct wfi_ep *ep, struct wfi_mr *mr);
void wfi_complete(struct wfi_ep *ep, bool tx, uint64_t opflags,
		  const struct wfi_cqe *cqe);
void wfi_discard_next(struct wfi_ep *ep);
ssize_t wfi_recv_next(struct wfi_ep *ep, struct msghdr *mh, int flags);
void wfi_stash_free(struct wfi_ep *ep);

/* thread.c */
int wfi_thread_start(struct wfi_domain *dom);
void wfi_thread_stop(struct wfi_domain *dom);
void wfi_thread_kick(struct wfi_domain *dom);
void wfi_thread_notify(struct wfi_domain *dom);
extern int wfi_progress_auto;	/* FI_WIND_PROGRESS is not "manual" */

/* peer.c */
int wfi_peer_send(struct wfi_ep *ep, fi_addr_t dest, const union wfi_addr *sin,
		  const struct wfi_hdr *h, const struct iovec *iov,
		  size_t count, size_t total);
bool wfi_peer_refused(struct wfi_ep *ep, const union wfi_addr *peer,
		      unsigned int lost);
bool wfi_peer_held(struct wfi_ep *ep, const union wfi_addr *a);
void wfi_peer_progress(struct wfi_ep *ep);
void wfi_peers_free(struct wfi_ep *ep);

/* msg.c */
extern struct fi_ops_msg wfi_msg_ops;
extern struct fi_ops_tagged wfi_tagged_ops;

#endif /* WIND_FI_H */
