// SPDX-License-Identifier: GPL-2.0
/*
 * windperf: the kernel's own message transports beside Wind, each used
 * as its documentation says a program should use it:
 *
 *   sctp  socket(AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP), one-to-many
 *         (RFC 6458, section 3): the server binds and listen()s, the
 *         client sendto()s the server's address (the association is set
 *         up on the first send); recvmsg() ends a message at MSG_EOR;
 *         SCTP_NODELAY as TCP_NODELAY (windperf -N: Nagle on for both).
 *   tipc  socket(AF_TIPC, SOCK_RDM, 0) (Documentation/networking/tipc.rst,
 *         tipc(8)): the server binds a service range {type, port, port}
 *         of cluster scope, the client sendto()s the service address
 *         {type, port}; the name table finds the node.  A message the
 *         receiver refused (overload) comes back with TIPC_ERRINFO.
 *   rds   socket(AF_RDS, SOCK_SEQPACKET, 0) with SO_RDS_TRANSPORT =
 *         RDS_TRANS_TCP before bind() (Documentation/networking/rds.rst):
 *         both ends bind to an address of their own (RDS has no wildcard
 *         bind), then sendmsg()/recvmsg() of whole messages.
 *
 * Everything else (the wire format, the tests) is the other files'
 * (windperf.h, cli.c).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/rds.h>
#include <linux/sctp.h>
#include <linux/tipc.h>

#include "kpeers.h"
#include "windperf.h"

#ifndef SOL_RDS
#define SOL_RDS 276
#endif

int kp_socket(const char *proto, int family, bool nodelay)
{
	int fd, one = 1;

	if (!strcmp(proto, "sctp")) {
		fd = socket(family, SOCK_SEQPACKET, IPPROTO_SCTP);
		if (fd < 0)
			die("socket(AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP) (module sctp):");
		if (nodelay &&
		    setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one)))
			die("SCTP_NODELAY:");
		return fd;
	}
	if (!strcmp(proto, "tipc")) {
		fd = socket(AF_TIPC, SOCK_RDM, 0);
		if (fd < 0)
			die("socket(AF_TIPC, SOCK_RDM) (module tipc):");
		return fd;
	}
	if (!strcmp(proto, "rds")) {
		int trans = RDS_TRANS_TCP;

		fd = socket(AF_RDS, SOCK_SEQPACKET, 0);
		if (fd < 0)
			die("socket(AF_RDS, SOCK_SEQPACKET) (module rds):");
		if (setsockopt(fd, SOL_RDS, SO_RDS_TRANSPORT, &trans,
			       sizeof(trans)))
			die("SO_RDS_TRANSPORT TCP (module rds_tcp):");
		return fd;
	}
	die("kp_socket: %s is no kernel peer protocol", proto);
}

void kp_tipc_addr(struct sockaddr_storage *ss, int port)
{
	struct sockaddr_tipc *st = (struct sockaddr_tipc *)ss;

	memset(ss, 0, sizeof(*ss));
	st->family = AF_TIPC;
	st->addrtype = TIPC_SERVICE_ADDR;
	st->addr.name.name.type = KP_TIPC_TYPE;
	st->addr.name.name.instance = port;
	st->addr.name.domain = 0;	/* look up in the whole cluster */
}

bool kp_local_addr(struct sockaddr_storage *ss)
{
	struct ifaddrs *ifa, *i;
	bool found = false;

	if (getifaddrs(&ifa))
		return false;
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP))
			continue;
		memset(ss, 0, sizeof(*ss));
		memcpy(ss, i->ifa_addr, sizeof(struct sockaddr_in));
		found = true;
	}
	freeifaddrs(ifa);
	return found;
}

void kp_bind(int fd, const char *proto, int port,
	     const struct sockaddr_storage *local)
{
	if (!strcmp(proto, "tipc")) {
		struct sockaddr_tipc st = {
			.family = AF_TIPC,
			.addrtype = TIPC_SERVICE_RANGE,
			.scope = TIPC_CLUSTER_SCOPE,
			.addr.nameseq = { KP_TIPC_TYPE, port, port },
		};

		if (bind(fd, (void *)&st, sizeof(st)))
			die("bind(tipc service {%u, %d}):", KP_TIPC_TYPE, port);
		return;
	}
	if (!strcmp(proto, "sctp")) {
		struct sockaddr_in sin = {
			.sin_family = AF_INET,
			.sin_port = htons(port),
			.sin_addr.s_addr = htonl(INADDR_ANY),
		};
		int one = 1;

		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (void *)&sin, sizeof(sin)))
			die("bind(sctp port %d):", port);
		if (listen(fd, 1024))
			die("listen(sctp):");
		return;
	}
	/* rds: to the given address */
	struct sockaddr_in sin;

	memcpy(&sin, local, sizeof(sin));
	sin.sin_port = htons(port);
	if (bind(fd, (void *)&sin, sizeof(sin)))
		die("bind(rds %s port %d):", inet_ntoa(sin.sin_addr), port);
}

void kp_client_bind(int fd, const char *proto,
		    const struct sockaddr_storage *server)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int u;

	if (strcmp(proto, "rds"))
		return;
	if (server->ss_family != AF_INET)
		die("rds: IPv4 addresses only here");
	/* the source address of the route to the server */
	u = socket(AF_INET, SOCK_DGRAM, 0);
	if (u < 0 || connect(u, (const void *)server, sizeof(sin)) ||
	    getsockname(u, (void *)&sin, &len))
		die("rds: no route to the server:");
	close(u);
	sin.sin_port = 0;
	if (bind(fd, (void *)&sin, sizeof(sin)))
		die("bind(rds %s):", inet_ntoa(sin.sin_addr));
}

ssize_t kp_recv(int fd, const char *proto, char *buf, size_t cap, int flags,
		struct sockaddr_storage *from, unsigned long *returned)
{
	bool sctp = !strcmp(proto, "sctp"), tipc = !strcmp(proto, "tipc");
	char cbuf[CMSG_SPACE(64)];
	size_t got = 0;

	for (;;) {
		struct iovec iov = { buf + got, cap - got };
		struct msghdr m = {
			.msg_name = from, .msg_namelen = sizeof(*from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = tipc ? cbuf : NULL,
			.msg_controllen = tipc ? sizeof(cbuf) : 0,
		};
		ssize_t n = recvmsg(fd, &m, got ? flags & ~MSG_DONTWAIT : flags);
		struct cmsghdr *cm;
		bool back = false;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (tipc) {
			for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
				if (cm->cmsg_level == SOL_TIPC &&
				    cm->cmsg_type == TIPC_ERRINFO)
					back = true;
			if (back) {
				/* the caller looks at it: a request that came
				 * back is asked again
				 */
				if (returned)
					(*returned)++;
				errno = EREMOTEIO;
				return -1;
			}
			return n;
		}
		if (!sctp)
			return n;
		if (m.msg_flags & MSG_NOTIFICATION) {
			got = 0;
			continue;
		}
		got += n;
		if (m.msg_flags & MSG_EOR)
			return got;
		if (got == cap)
			die("sctp: a message larger than %zu bytes", cap);
	}
}

void kp_counters(const char *proto, double *out, double *in, double *rtx)
{
	*out = *in = *rtx = 0;
	if (!strcmp(proto, "sctp")) {
		*out = (double)kv_get("/proc/net/sctp/snmp", "SctpOutSCTPPacks");
		*in = (double)kv_get("/proc/net/sctp/snmp", "SctpInSCTPPacks");
		*rtx = (double)kv_get("/proc/net/sctp/snmp", "SctpRetransChunks");
	} else if (!strcmp(proto, "rds")) {
		*out = (double)snmp_get("Tcp", "OutSegs");
		*in = (double)snmp_get("Tcp", "InSegs");
		*rtx = (double)snmp_get("Tcp", "RetransSegs");
	}
}
