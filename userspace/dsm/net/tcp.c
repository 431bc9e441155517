// SPDX-License-Identifier: GPL-2.0
/* tp over tcp: a full mesh of connections, length-prefixed messages */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "tp-internal.h"

static int tcp_take(struct tp *tp, int peer)
{
	struct tcp_rx *x = &tp->trx[peer];

	for (;;) {
		if (x->cap - x->len < 65536) {
			size_t nc = x->cap ? x->cap * 2 : 131072;
			unsigned char *nb = realloc(x->buf, nc);

			if (!nb)
				return -1;
			x->buf = nb;
			x->cap = nc;
		}
		ssize_t r = read(tp->tfd[peer], x->buf + x->len, x->cap - x->len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			perror("tcp read");
			return -1;
		}
		if (r == 0) {
			close(tp->tfd[peer]);
			tp->tfd[peer] = -1;
			break;
		}
		x->len += (size_t)r;
	}
	size_t o = 0;

	while (x->len - o >= 4) {
		uint32_t ml;

		memcpy(&ml, x->buf + o, 4);
		if (x->len - o - 4 < ml)
			break;
		qput(&tp->rq, peer, x->buf + o + 4, ml);
		o += 4 + ml;
	}
	memmove(x->buf, x->buf + o, x->len - o);
	x->len -= o;
	return 0;
}

/* Poll every connection (and, if wfd >= 0, wfd for POLLOUT) */
int tcp_pump(struct tp *tp, int wfd, int timeout_ms)
{
	struct pollfd pf[tp->n + 1];
	int map[tp->n + 1], k = 0;

	for (int i = 0; i < tp->n; i++) {
		if (tp->tfd[i] < 0)
			continue;
		pf[k].fd = tp->tfd[i];
		pf[k].events = POLLIN | (tp->tfd[i] == wfd ? POLLOUT : 0);
		map[k++] = i;
	}
	int r = poll(pf, (nfds_t)k, timeout_ms);

	if (r < 0)
		return errno == EINTR ? 0 : -1;
	for (int j = 0; j < k; j++)
		if ((pf[j].revents & (POLLIN | POLLHUP | POLLERR)) && tcp_take(tp, map[j]))
			return -1;
	return 0;
}

int tcp_send(struct tp *tp, int peer, const void *buf, size_t len)
{
	uint32_t ml = (uint32_t)len;
	struct iovec iov[2] = { { &ml, 4 }, { (void *)buf, len } };
	size_t done = 0, total = len + 4;

	while (done < total) {
		struct iovec v[2];
		int nv = 0;
		size_t skip = done;

		for (int i = 0; i < 2; i++) {
			if (skip >= iov[i].iov_len) {
				skip -= iov[i].iov_len;
				continue;
			}
			v[nv].iov_base = (char *)iov[i].iov_base + skip;
			v[nv].iov_len = iov[i].iov_len - skip;
			skip = 0;
			nv++;
		}
		ssize_t w = writev(tp->tfd[peer], v, nv);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN) {
				perror("tcp write");
				return -1;
			}
			/* full: read what comes meanwhile (no deadlock) */
			if (tcp_pump(tp, tp->tfd[peer], 1000))
				return -1;
			continue;
		}
		done += (size_t)w;
	}
	return 0;
}

/*
 * Mesh forming gives up only after TCP_MESH_WAIT without progress: with
 * 60 processes under TCG a peer may start (and listen) minutes after us.
 */
#define TCP_MESH_WAIT	300000000000ull	/* ns */

int tcp_mesh(struct tp *tp, uint16_t port)
{
	int one = 1;
	uint64_t end = now_ns() + TCP_MESH_WAIT;

	/* connect to every lower rank (which listens already or soon) */
	for (int j = 0; j < tp->rank; j++) {
		for (;;) {
			tp_addr me = tp->addr[tp->rank];
			int fd = socket(me.sa.sa_family, SOCK_STREAM, 0);

			tp_addr_set_port(&me, 0);
			if (fd < 0 || bind(fd, &me.sa, tp_addr_len(&me))) {
				perror("tcp socket");
				return -1;
			}
			tp_addr a = tp->addr[j];

			tp_addr_set_port(&a, port);
			if (!connect(fd, &a.sa, tp_addr_len(&a))) {
				uint32_t r = (uint32_t)tp->rank;

				if (write(fd, &r, 4) != 4) {
					perror("tcp write rank");
					return -1;
				}
				tp->tfd[j] = fd;
				end = now_ns() + TCP_MESH_WAIT;
				break;
			}
			int e = errno;

			close(fd);
			if (now_ns() > end) {
				fprintf(stderr, "tcp: rank %d: connect to rank %d: %s\n",
					tp->rank, j, strerror(e));
				return -1;
			}
			usleep(50000);
		}
	}
	/* accept every higher rank */
	for (int k = tp->rank + 1; k < tp->n; k++) {
		struct pollfd pfd = { .fd = tp->fd, .events = POLLIN };
		int pr = poll(&pfd, 1, (int)(TCP_MESH_WAIT / 1000000));
		uint32_t r;

		if (pr < 0 && errno == EINTR) {
			k--;
			continue;
		}
		if (pr <= 0) {
			fprintf(stderr, "tcp: rank %d: %d higher ranks never connected\n",
				tp->rank, tp->n - k);
			return -1;
		}
		int fd = accept(tp->fd, NULL, NULL);

		if (fd < 0 || read(fd, &r, 4) != 4 || r >= (uint32_t)tp->n ||
		    tp->tfd[r] >= 0) {
			perror("tcp accept");
			return -1;
		}
		tp->tfd[r] = fd;
	}
	for (int j = 0; j < tp->n; j++) {
		if (tp->tfd[j] < 0)
			continue;
		setsockopt(tp->tfd[j], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		fcntl(tp->tfd[j], F_SETFL, fcntl(tp->tfd[j], F_GETFL) | O_NONBLOCK);
	}
	return 0;
}

