// SPDX-License-Identifier: GPL-2.0
/*
 * Reliable delivery under loss, reordering, duplication and corruption.
 *
 *   node0 (10.77.0.1) ===veth, tc netem on both ends=== node1 (10.77.0.2)
 *   fan-in/fan-out variants: nodes 0..3 on a bridge, netem on every port.
 *
 * Messages of mixed sizes (one byte of header short of a packet up to four
 * packets) and of all three types go one way; each carries its index and a
 * checksum.  The receiver checks every message arrives exactly once,
 * byte-exact, and that no ordered message arrives before any message sent
 * earlier to it, whatever the type.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"
#include "lib.h"

#define PORT		7100
/* The largest message, and the buffers' size (raw packets are the larger) */
#define MAX_MSG		(4 * WIND_MAX_SINGLE)
#define MAX_BUF		(4 * WIND_MAX_SINGLE_RAW)

/* Type of message i: mostly ordered, a third reliable, one in 16 sync. */
static int msg_flags(unsigned int i)
{
	if (i % 16 == 15)
		return MSG_WIND_SYNC;
	if (i % 3 == 1)
		return MSG_WIND_RELIABLE;
	return 0;
}

static size_t msg_size(unsigned int i)
{
	const size_t sizes[] = {
		16, 17, 100, 999, WIND_MAX_SINGLE, WIND_MAX_SINGLE + 1,
		2 * WIND_MAX_SINGLE, MAX_MSG,
	};

	return sizes[(i * 7 + i / 8) % (sizeof(sizes) / sizeof(sizes[0]))];
}

struct sender {
	int fd;
	wind_sa to;
	unsigned int first, count, stride;
	int err;
};

static void *send_all(void *arg)
{
	struct sender *s = arg;
	static __thread char buf[MAX_BUF];
	unsigned int k;

	for (k = 0; k < s->count; k++) {
		unsigned int i = s->first + k * s->stride;
		size_t len = msg_size(i);

		wind_msg_make(buf, len, i);
		if (sendto(s->fd, buf, len, msg_flags(i),
			   (struct sockaddr *)&s->to, sizeof(s->to)) != (ssize_t)len) {
			s->err = errno;
			return NULL;
		}
	}
	return NULL;
}

/*
 * Receive @total messages whose indexes are first + k * stride for each
 * sender; check once-only and cross-type order per sender.  Returns the
 * number of violations.
 */
static int receive_all(struct __test_metadata *_metadata, int fd,
		       unsigned int total, unsigned int nsenders,
		       unsigned int per_sender)
{
	unsigned char *seen = calloc(total, 1);
	static char buf[MAX_BUF + 1];
	unsigned int got = 0, bad = 0, i;
	unsigned int *delivered = calloc(nsenders, sizeof(*delivered));

	while (got < total) {
		long idx;
		ssize_t n;

		if (wind_poll(fd, POLLIN, 120000) <= 0) {
			TH_LOG("timed out with %u of %u messages", got, total);
			bad++;
			break;
		}
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			TH_LOG("recv: %s", strerror(errno));
			bad++;
			break;
		}
		idx = wind_msg_check(buf, n);
		if (idx < 0 || (unsigned long)idx >= total || msg_size(idx) != (size_t)n) {
			TH_LOG("corrupt message of %zd bytes", n);
			bad++;
			continue;
		}
		if (seen[idx]++) {
			TH_LOG("message %ld delivered twice", idx);
			bad++;
			continue;
		}
		got++;
		/* ordered: every earlier message of its sender is already in */
		if (!(msg_flags(idx) & MSG_WIND_RELIABLE)) {
			unsigned int s = idx % nsenders, k = idx / nsenders;

			for (i = delivered[s]; i < k; i++) {
				if (!seen[s + i * nsenders]) {
					TH_LOG("ordered %ld before %u", idx,
					       s + i * nsenders);
					bad++;
					break;
				}
			}
			delivered[s] = k;
		}
	}
	(void)per_sender;
	free(seen);
	free(delivered);
	return bad;
}

FIXTURE(reliable) {
	int nodes;
};

FIXTURE_VARIANT(reliable) {
	const char *netem;
	unsigned int messages;
	int senders;		/* > 1: that many nodes send to node 0 */
	int receivers;		/* > 1: node 0 sends to that many nodes */
	bool core;		/* raw IPv4 only (WIND_SKIP_CORE) */
};

FIXTURE_VARIANT_ADD(reliable, clean) {
	.netem = NULL, .messages = 20000, .senders = 1, .receivers = 1,
};
FIXTURE_VARIANT_ADD(reliable, loss_5) {
	.netem = "loss 5%", .messages = 3000, .senders = 1, .receivers = 1,
};
FIXTURE_VARIANT_ADD(reliable, loss_20) {
	.netem = "loss 20%", .messages = 1000, .senders = 1, .receivers = 1,
	.core = true,
};
FIXTURE_VARIANT_ADD(reliable, reorder_25) {
	.netem = "delay 2ms reorder 25% 50%", .messages = 3000, .senders = 1,
	.receivers = 1,
	.core = true,
};
FIXTURE_VARIANT_ADD(reliable, duplicate_5) {
	.netem = "duplicate 5%", .messages = 3000, .senders = 1, .receivers = 1,
	.core = true,
};
FIXTURE_VARIANT_ADD(reliable, corrupt_1) {
	.netem = "corrupt 1%", .messages = 3000, .senders = 1, .receivers = 1,
};
FIXTURE_VARIANT_ADD(reliable, fan_in_loss_5) {
	.netem = "loss 5% delay 1ms reorder 10%", .messages = 3000,
	.senders = 3, .receivers = 1,
};
FIXTURE_VARIANT_ADD(reliable, fan_out_loss_5) {
	.netem = "loss 5% duplicate 2%", .messages = 1500, .senders = 1,
	.receivers = 3,
};

FIXTURE_SETUP(reliable)
{
	int i, n = variant->senders > variant->receivers ?
		   variant->senders : variant->receivers;

	/* heavy loss, reordering, duplication: the sender's and receiver's
	 * state machines, whatever carries the packets (clean, 5 % loss,
	 * corruption, fan-in and fan-out run in every form)
	 */
	WIND_SKIP_CORE(variant->core, variant->netem);
	self->nodes = n + 1;
	ASSERT_EQ(0, wind_topo_setup(self->nodes));
	if (variant->netem)
		for (i = 0; i < self->nodes; i++)
			ASSERT_EQ(0, wind_run("tc -n %s qdisc replace dev eth0 root netem %s",
					      wind_ns(i), variant->netem));
}

FIXTURE_TEARDOWN(reliable)
{
	wind_topo_teardown();
}

TEST_F_TIMEOUT(reliable, exactly_once_in_order, 900)
{
	struct sender snd[4] = {};
	pthread_t th[4];
	int rfd[4], i, bad = 0;
	long dup0, rtx0;

	dup0 = wind_stat(wind_ns(1), "InDuplicates");
	rtx0 = wind_stat(wind_ns(0), "OutRetransmits");

	if (variant->senders > 1) {
		/* nodes 1..n send to node 0 */
		rfd[0] = wind_bound_socket(wind_ns(0), PORT, NULL);
		ASSERT_GE(rfd[0], 0);
		for (i = 0; i < variant->senders; i++) {
			snd[i].fd = wind_socket_in(wind_ns(i + 1), SOCK_WIND, 0);
			ASSERT_GE(snd[i].fd, 0);
			wind_sa_set(&snd[i].to, wind_node_addr(0), PORT);
			snd[i].first = i;
			snd[i].stride = variant->senders;
			snd[i].count = variant->messages / variant->senders;
			ASSERT_EQ(0, pthread_create(&th[i], NULL, send_all, &snd[i]));
		}
		bad = receive_all(_metadata, rfd[0], variant->messages,
				  variant->senders, 0);
		for (i = 0; i < variant->senders; i++) {
			pthread_join(th[i], NULL);
			EXPECT_EQ(0, snd[i].err);
			close(snd[i].fd);
		}
		close(rfd[0]);
		EXPECT_EQ(0, bad);
		return;
	}

	/* node 0 sends to nodes 1..n, one socket, one thread per receiver */
	snd[0].fd = wind_socket_in(wind_ns(0), SOCK_WIND, 0);
	ASSERT_GE(snd[0].fd, 0);
	for (i = 0; i < variant->receivers; i++) {
		rfd[i] = wind_bound_socket(wind_ns(i + 1), PORT, NULL);
		ASSERT_GE(rfd[i], 0);
		snd[i].fd = snd[0].fd;
		wind_sa_set(&snd[i].to, wind_node_addr(i + 1), PORT);
		snd[i].first = 0;
		snd[i].stride = 1;
		snd[i].count = variant->messages / variant->receivers;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, send_all, &snd[i]));
	}
	for (i = 0; i < variant->receivers; i++)
		bad += receive_all(_metadata, rfd[i], snd[i].count, 1, 0);
	for (i = 0; i < variant->receivers; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, snd[i].err);
		close(rfd[i]);
	}
	close(snd[0].fd);
	EXPECT_EQ(0, bad);
	TH_LOG("%u messages, %ld retransmissions, %ld duplicates dropped",
	       variant->messages, wind_stat(wind_ns(0), "OutRetransmits") - rtx0,
	       wind_stat(wind_ns(1), "InDuplicates") - dup0);
}

TEST_HARNESS_MAIN
