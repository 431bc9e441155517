// SPDX-License-Identifier: GPL-2.0
/* windperf: the read test: one-sided reads of the server's region (see cli.c) */
#define _GNU_SOURCE
#include "windperf.h"

/* ---- read: one-sided reads of the server's region ------------------- */

/*
 * The read test: the server's region (OP_REGION tells its id and key),
 * read -m bytes at a time at offsets that go round it, each read waited
 * for.  Landed: into the client's own region (WIND_RMA_F_LAND), at the
 * same offset; recvmsg: the bytes are the completion's payload.
 */
static struct {
	uint32_t region;
	uint64_t key, len;
	uint8_t *land;		/* the client's landing region */
	uint64_t land_key;
	uint64_t cookie, next;	/* last cookie; reads posted so far */
} rd;

void read_setup(struct ctx *c)
{
	struct wind_region r = { .len = WP_REGION_LEN, .id = WP_LAND_ID };
	struct wp_info in;
	uint64_t to = 0;

	get_info(c, OP_REGION, &in, &to);
	if (in.region != WP_REGION_ID || in.len != WP_REGION_LEN)
		die("read: the server has no read region");
	rd.region = in.region;
	rd.key = in.key;
	rd.len = in.len;
	rd.land = mmap(NULL, WP_REGION_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rd.land == MAP_FAILED)
		die("mmap of the landing region:");
	if (getrandom(&rd.land_key, sizeof(rd.land_key), 0) !=
	    sizeof(rd.land_key))
		die("getrandom:");
	r.addr = (uintptr_t)rd.land;
	r.key = rd.land_key;
	if (setsockopt(c->fd[0], SOL_WIND, WIND_REGION_ADD, &r, sizeof(r)))
		die("WIND_REGION_ADD (landing region):");
}

/* One read of r->size bytes, waited for: its time in us.  Every
 * completion is checked (cookie, status, length); with @verify the
 * bytes too (outside the time: the landing place is cleared before).
 */
static double read_one(struct ctx *c, struct row *r, bool verify)
{
	uint64_t slots = rd.len / r->size, off = rd.next++ % slots * r->size;
	struct wind_rma q = {
		.op = WIND_RMA_READ, .region = rd.region, .offset = off,
		.key = rd.key, .len = r->size, .cookie = ++rd.cookie,
	}, done;
	union {
		char buf[CMSG_SPACE(sizeof(struct wind_rma)) + 64];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_name = &c->addr[0], .msg_namelen = sa_len(&c->addr[0]),
		.msg_control = u.buf, .msg_controllen = CMSG_SPACE(sizeof(q)),
	};
	struct iovec iov = { .iov_base = c->buf, .iov_len = WP_MAXMSG };
	struct cmsghdr *cm;
	const uint8_t *got;
	double t0, t;
	ssize_t n;

	if (r->land) {
		q.flags = WIND_RMA_F_LAND;
		q.dst_region = WP_LAND_ID;
		q.dst_offset = off;
		q.dst_key = rd.land_key;
		if (verify)
			memset(rd.land + off, 0, r->size);
	}
	memset(u.buf, 0, sizeof(u.buf));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_WIND;
	cm->cmsg_type = WIND_CMSG_RMA;
	cm->cmsg_len = CMSG_LEN(sizeof(q));
	memcpy(CMSG_DATA(cm), &q, sizeof(q));
	t0 = now_s();
	while (sendmsg(c->fd[0], &msg, 0) < 0)
		if (errno != EINTR)
			die("sendmsg(WIND_CMSG_RMA read of %d bytes):", r->size);
	msg = (struct msghdr){
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	while ((n = recvmsg(c->fd[0], &msg, 0)) < 0)
		if (errno != EINTR)
			die("recvmsg (read completion):");
	t = (now_s() - t0) * 1e6;
	memset(&done, 0, sizeof(done));
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_WIND && cm->cmsg_type == WIND_CMSG_RMA &&
		    cm->cmsg_len == CMSG_LEN(sizeof(done)))
			memcpy(&done, CMSG_DATA(cm), sizeof(done));
	if (done.op != WIND_RMA_READ || done.cookie != q.cookie)
		die("read: a message of %zd bytes that is not the completion "
		    "of read %" PRIu64, n, q.cookie);
	if (done.status)
		die("read of %d bytes at %" PRIu64 ": status %d (%s)", r->size,
		    off, done.status, strerror(-done.status));
	if (n != (r->land ? 0 : r->size))
		die("read: a completion of %zd bytes, expected %d", n,
		    r->land ? 0 : r->size);
	got = r->land ? rd.land + off : (const uint8_t *)c->buf;
	for (int i = 0; verify && i < r->size; i++)
		if (got[i] != region_byte(rd.key, off + i))
			die("read at %" PRIu64 ": byte %d is %02x, expected %02x",
			    off, i, got[i], region_byte(rd.key, off + i));
	return t;
}

void read_warm(struct ctx *c, struct row *r)
{
	for (int k = 0; k < 3; k++)
		read_one(c, r, true);
}

void read_rep(struct ctx *c, struct row *r, int rep)
{
	static struct samples s;
	struct wp_info srv0;
	double c0[NCTR], t0, t;

	s.n = 0;
	read_one(c, r, true);	/* the bytes, once a repetition */
	srv_cpu_begin(c, r, &srv0);
	rep_begin(c, c0);
	t0 = now_s();
	do {
		t = read_one(c, r, false);
		add_sample(&s, t);
		add_sample(&r->all, t);
		if (t < r->best)
			r->best = t;
	} while (now_s() - t0 < opt.secs);
	r->secs += now_s() - t0;
	rep_end(c, r, c0);
	srv_cpu_end(c, r, &srv0);
	r->ops += s.n;
	r->rep[rep] = median(s.v, s.n);
}

/* Slab use in bytes: SUnreclaim and Slab of /proc/meminfo. */
