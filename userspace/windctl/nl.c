// SPDX-License-Identifier: GPL-2.0
/*
 * The one module of windctl that speaks netlink: requests to the generic
 * netlink family "wind" through libnl-genl-3, replies parsed into plain
 * structures, and the kernel's extended ACK kept for the error message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "windctl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct wc_nl {
	struct nl_sock *sk;
	int family;
	struct wc_nl_error error;
};

/* State of one request while its answer is read */
struct request {
	struct wc_nl *nl;
	struct nl_msg *msg;		/* what we sent, to name a bad attribute */
	bool done;
	int err;
	int (*parse)(struct nlattr **tb, void *arg);
	int maxattr;
	void *arg;
};

struct wc_nl *wc_nl_open(void)
{
	struct wc_nl *nl = calloc(1, sizeof(*nl));
	int one = 1, err;

	if (!nl)
		return NULL;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		goto fail;
	err = genl_connect(nl->sk);
	if (err) {
		fprintf(stderr, "windctl: netlink: %s\n", nl_geterror(err));
		goto fail;
	}
	/* the kernel's reasons for refusing, and the policy it checked */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	/* asking for the family loads wind.ko (its alias) when installed */
	nl->family = genl_ctrl_resolve(nl->sk, WIND_FAMILY_NAME);
	if (nl->family < 0) {
		fprintf(stderr,
			"windctl: generic netlink family \"%s\" not found: is the wind module installed?\n",
			WIND_FAMILY_NAME);
		goto fail;
	}
	return nl;
fail:
	wc_nl_close(nl);
	return NULL;
}

void wc_nl_close(struct wc_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

const struct wc_nl_error *wc_nl_last_error(const struct wc_nl *nl)
{
	return &nl->error;
}

/*
 * The extended ACK after a struct nlmsgerr (or after the errno of an
 * NLMSG_DONE): the message, the attribute it names and the range.
 */
static void parse_ext_ack(struct request *req, const struct nlmsghdr *nlh,
			  const void *tlvs, int len)
{
	struct wc_nl_error *e = &req->nl->error;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *pol[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || len <= 0)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)tlvs, len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG]) {
		snprintf(e->msg, sizeof(e->msg), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
		/* the string carries its NUL; the kernel adds no newline */
		e->msg[strcspn(e->msg, "\n")] = '\0';
	}
	if (tb[NLMSGERR_ATTR_OFFS] && req->msg) {
		struct nlmsghdr *sent = nlmsg_hdr(req->msg);
		uint32_t off = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);

		if (off >= NLMSG_HDRLEN + GENL_HDRLEN &&
		    off + sizeof(struct nlattr) <= sent->nlmsg_len) {
			const struct nlattr *a = (void *)((char *)sent + off);

			e->bad_attr = a->nla_type & NLA_TYPE_MASK;
		}
	}
	if (tb[NLMSGERR_ATTR_POLICY] &&
	    !nla_parse_nested(pol, NL_POLICY_TYPE_ATTR_MAX,
			      tb[NLMSGERR_ATTR_POLICY], NULL)) {
		if (pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] &&
		    pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) {
			e->has_range = true;
			e->min = nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
			e->max = nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
		} else if (pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_S] &&
			   pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]) {
			e->has_range = true;
			e->min = (int64_t)nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_S]);
			e->max = (int64_t)nla_get_u64(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_S]);
		}
	}
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *nlerr, void *arg)
{
	struct request *req = arg;
	const struct nlmsghdr *nlh = (void *)((char *)nlerr - NLMSG_HDRLEN);
	size_t skip = sizeof(*nlerr);

	(void)who;
	/* without NLM_F_CAPPED, our request is echoed before the TLVs */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		skip += nlerr->msg.nlmsg_len - NLMSG_HDRLEN;
	req->err = nlerr->error;
	if (NLMSG_HDRLEN + skip < nlh->nlmsg_len)
		parse_ext_ack(req, nlh, (char *)nlerr + skip,
			      nlh->nlmsg_len - NLMSG_HDRLEN - skip);
	req->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	(void)msg;
	req->done = true;
	return NL_STOP;
}

/* End of a dump; a dump that failed half-way says so here */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		int err = *(int *)nlmsg_data(nlh);

		if (err < 0) {
			req->err = err;
			parse_ext_ack(req, nlh, (char *)nlmsg_data(nlh) + sizeof(int),
				      nlh->nlmsg_len - NLMSG_HDRLEN - sizeof(int));
		}
	}
	req->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;
	struct nlattr *tb[64];
	int err;

	if (!req->parse)
		return NL_OK;
	err = genlmsg_parse(nlmsg_hdr(msg), 0, tb, req->maxattr, NULL);
	if (err < 0) {
		req->err = -EPROTO;
		return NL_STOP;
	}
	err = req->parse(tb, req->arg);
	if (err < 0) {
		req->err = err;
		return NL_STOP;
	}
	return NL_OK;
}

/*
 * Send a request built by the caller and read until the kernel's last
 * word on it: an ACK, the end of a dump, or an error.
 */
static int transact(struct wc_nl *nl, struct nl_msg *msg, bool dump,
		    int maxattr, int (*parse)(struct nlattr **, void *),
		    void *arg)
{
	struct request req = {
		.nl = nl, .msg = msg, .parse = parse, .maxattr = maxattr,
		.arg = arg,
	};
	struct nl_cb *cb;
	int err;

	memset(&nl->error, 0, sizeof(nl->error));
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &req);

	/* a dump ends with NLMSG_DONE: no ACK asked for, none left behind */
	if (dump)
		nl_socket_disable_auto_ack(nl->sk);
	else
		nl_socket_enable_auto_ack(nl->sk);
	err = nl_send_auto(nl->sk, msg);
	if (err < 0) {
		req.err = -EIO;
		goto out;
	}
	while (!req.done && !req.err) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !req.err && !req.done)
			req.err = -EIO;
	}
out:
	nl_cb_put(cb);
	nl->error.err = req.err;
	return req.err;
}

static struct nl_msg *request_new(struct wc_nl *nl, uint8_t cmd, bool dump)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, WIND_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static uint32_t get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static uint16_t get_u16(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u16(tb[type]) : 0;
}

static uint64_t get_u64(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u64(tb[type]) : 0;
}

/*
 * The address of attribute v4 or, when the kernel sent that one instead,
 * of v6 (16 bytes); family 0 when neither came (or a short one did)
 */
static void get_addr(struct nlattr **tb, int v4, int v6, struct wc_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (tb[v6] && nla_len(tb[v6]) >= (int)sizeof(a->v6)) {
		a->family = AF_INET6;
		memcpy(&a->v6, nla_data(tb[v6]), sizeof(a->v6));
	} else if (tb[v4] && nla_len(tb[v4]) >= (int)sizeof(a->v4)) {
		a->family = AF_INET;
		memcpy(&a->v4, nla_data(tb[v4]), sizeof(a->v4));
	}
}

/* A growing array of fixed-size records */
struct records {
	void *v;
	size_t n, cap, size;
};

static void *records_add(struct records *r)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		void *v = realloc(r->v, cap * r->size);

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	return memset((char *)r->v + r->n++ * r->size, 0, r->size);
}

static int parse_sock(struct nlattr **tb, void *arg)
{
	struct wc_sock *s = records_add(arg);

	if (!s)
		return -ENOMEM;
	s->port = get_u16(tb, WIND_A_SOCK_PORT);
	get_addr(tb, WIND_A_SOCK_ADDR, WIND_A_SOCK_ADDR6, &s->addr);
	get_addr(tb, WIND_A_SOCK_PEER_ADDR, WIND_A_SOCK_PEER_ADDR6,
		 &s->peer_addr);
	s->has_peer = s->peer_addr.family != 0;
	s->peer_port = get_u16(tb, WIND_A_SOCK_PEER_PORT);
	s->peers = get_u32(tb, WIND_A_SOCK_PEERS);
	s->rmem = get_u32(tb, WIND_A_SOCK_RMEM);
	s->rmem_limit = get_u32(tb, WIND_A_SOCK_RMEM_LIMIT);
	s->wmem = get_u32(tb, WIND_A_SOCK_WMEM);
	s->wmem_limit = get_u32(tb, WIND_A_SOCK_WMEM_LIMIT);
	s->drops = get_u32(tb, WIND_A_SOCK_DROPS);
	s->inode = get_u64(tb, WIND_A_SOCK_INODE);
	s->uid = get_u32(tb, WIND_A_SOCK_UID);
	s->incarnation = get_u32(tb, WIND_A_SOCK_INCARNATION);
	return 0;
}

int wc_nl_socks(struct wc_nl *nl, struct wc_sock **socks, size_t *n)
{
	struct records r = { .size = sizeof(struct wc_sock) };
	struct nl_msg *msg = request_new(nl, WIND_CMD_SOCK_GET, true);
	int err;

	if (!msg)
		return -ENOMEM;
	err = transact(nl, msg, true, WIND_A_SOCK_MAX, parse_sock, &r);
	nlmsg_free(msg);
	if (err) {
		free(r.v);
		return err;
	}
	*socks = r.v;
	*n = r.n;
	return 0;
}

static int parse_peer(struct nlattr **tb, void *arg)
{
	struct wc_peer *p = records_add(arg);

	if (!p)
		return -ENOMEM;
	p->sock_port = get_u16(tb, WIND_A_PEER_SOCK_PORT);
	get_addr(tb, WIND_A_PEER_LOCAL_ADDR, WIND_A_PEER_LOCAL_ADDR6,
		 &p->local_addr);
	get_addr(tb, WIND_A_PEER_ADDR, WIND_A_PEER_ADDR6, &p->addr);
	p->port = get_u16(tb, WIND_A_PEER_PORT);
	p->status = get_u32(tb, WIND_A_PEER_STATUS);
	p->in_flight = get_u32(tb, WIND_A_PEER_IN_FLIGHT);
	p->wq_packets = get_u32(tb, WIND_A_PEER_WQ_PACKETS);
	p->rq_packets = get_u32(tb, WIND_A_PEER_RQ_PACKETS);
	p->srtt_us = get_u32(tb, WIND_A_PEER_SRTT_US);
	p->rttvar_us = get_u32(tb, WIND_A_PEER_RTTVAR_US);
	p->rto_us = get_u32(tb, WIND_A_PEER_RTO_US);
	p->retries = get_u32(tb, WIND_A_PEER_RETRIES);
	p->mss = get_u32(tb, WIND_A_PEER_MSS);
	p->local_tag = get_u32(tb, WIND_A_PEER_LOCAL_TAG);
	p->remote_tag = get_u32(tb, WIND_A_PEER_REMOTE_TAG);
	p->last_active_ms = get_u32(tb, WIND_A_PEER_LAST_ACTIVE_MS);
	p->retransmits = get_u64(tb, WIND_A_PEER_RETRANSMITS);
	p->duplicates = get_u64(tb, WIND_A_PEER_DUPLICATES);
	p->drops = get_u64(tb, WIND_A_PEER_DROPS);
	p->tx_packets = get_u64(tb, WIND_A_PEER_TX_PACKETS);
	p->rx_packets = get_u64(tb, WIND_A_PEER_RX_PACKETS);
	p->tx_messages = get_u64(tb, WIND_A_PEER_TX_MESSAGES);
	p->rx_messages = get_u64(tb, WIND_A_PEER_RX_MESSAGES);
	return 0;
}

int wc_nl_peers(struct wc_nl *nl, uint16_t port, struct wc_peer **peers,
		size_t *n)
{
	struct records r = { .size = sizeof(struct wc_peer) };
	struct nl_msg *msg = request_new(nl, WIND_CMD_PEER_GET, true);
	int err;

	if (!msg)
		return -ENOMEM;
	if (port && nla_put_u16(msg, WIND_A_PEER_SOCK_PORT, port)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = transact(nl, msg, true, WIND_A_PEER_MAX, parse_peer, &r);
	nlmsg_free(msg);
	if (err) {
		free(r.v);
		return err;
	}
	*peers = r.v;
	*n = r.n;
	return 0;
}

static int parse_stats(struct nlattr **tb, void *arg)
{
	struct wc_stats *s = arg;
	int i;

	for (i = 1; i <= WIND_A_STATS_MAX; i++) {
		if (i == WIND_A_STATS_PAD || !tb[i])
			continue;
		s->present[i] = true;
		s->value[i] = nla_get_u64(tb[i]);
	}
	return 0;
}

int wc_nl_stats(struct wc_nl *nl, struct wc_stats *stats)
{
	struct nl_msg *msg = request_new(nl, WIND_CMD_STATS_GET, false);
	int err;

	if (!msg)
		return -ENOMEM;
	memset(stats, 0, sizeof(*stats));
	err = transact(nl, msg, false, WIND_A_STATS_MAX, parse_stats, stats);
	nlmsg_free(msg);
	return err;
}

static int parse_params(struct nlattr **tb, void *arg)
{
	struct wc_params *p = arg;
	int i;

	for (i = 1; i <= WIND_A_PARAMS_MAX; i++) {
		if (!tb[i])
			continue;
		p->present[i] = true;
		p->value[i] = nla_get_u32(tb[i]);
	}
	return 0;
}

int wc_nl_params_get(struct wc_nl *nl, struct wc_params *params)
{
	struct nl_msg *msg = request_new(nl, WIND_CMD_PARAMS_GET, false);
	int err;

	if (!msg)
		return -ENOMEM;
	memset(params, 0, sizeof(*params));
	err = transact(nl, msg, false, WIND_A_PARAMS_MAX, parse_params, params);
	nlmsg_free(msg);
	return err;
}

int wc_nl_params_set(struct wc_nl *nl, const struct wc_params *params)
{
	struct nl_msg *msg = request_new(nl, WIND_CMD_PARAMS_SET, false);
	int i, err;

	if (!msg)
		return -ENOMEM;
	for (i = 1; i <= WIND_A_PARAMS_MAX; i++) {
		if (params->present[i] && nla_put_u32(msg, i, params->value[i])) {
			nlmsg_free(msg);
			return -ENOMEM;
		}
	}
	err = transact(nl, msg, false, 0, NULL, NULL);
	nlmsg_free(msg);
	return err;
}

/* ---- the "peers" multicast group ---------------------------------------- */

struct monitor {
	int (*fn)(const struct wc_event *ev, void *arg);
	void *arg;
	int ret;
};

static int on_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[WIND_A_PEER_MAX + 1];
	struct monitor *mon = arg;
	struct wc_event ev = { 0 };

	if (gh->cmd != WIND_CMD_PEER_NTF ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, WIND_A_PEER_MAX, NULL) < 0 ||
	    !tb[WIND_A_PEER_EVENT])
		return NL_OK;
	ev.event = get_u32(tb, WIND_A_PEER_EVENT);
	ev.error = get_u32(tb, WIND_A_PEER_ERROR);
	ev.sock_port = get_u16(tb, WIND_A_PEER_SOCK_PORT);
	ev.port = get_u16(tb, WIND_A_PEER_PORT);
	get_addr(tb, WIND_A_PEER_LOCAL_ADDR, WIND_A_PEER_LOCAL_ADDR6,
		 &ev.local_addr);
	get_addr(tb, WIND_A_PEER_ADDR, WIND_A_PEER_ADDR6, &ev.addr);
	mon->ret = mon->fn(&ev, mon->arg);
	return mon->ret ? NL_STOP : NL_OK;
}

/* Notifications carry no sequence number of ours */
static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int wc_nl_monitor(struct wc_nl *nl,
		  int (*fn)(const struct wc_event *ev, void *arg), void *arg)
{
	struct monitor mon = { .fn = fn, .arg = arg };
	struct nl_cb *cb;
	int grp, err;

	grp = genl_ctrl_resolve_grp(nl->sk, WIND_FAMILY_NAME, WIND_MCGRP_PEERS);
	if (grp < 0)
		return -ENOENT;
	err = nl_socket_add_membership(nl->sk, grp);
	if (err < 0)
		return -EIO;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &mon);
	while (!mon.ret) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the socket's queue overflowed */
			fprintf(stderr, "windctl: monitor: events were lost (receive queue full)\n");
			continue;
		}
		if (err < 0) {
			fprintf(stderr, "windctl: monitor: %s\n", nl_geterror(err));
			mon.ret = -EIO;
			break;
		}
	}
	nl_cb_put(cb);
	return mon.ret;
}
