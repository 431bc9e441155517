/* SPDX-License-Identifier: GPL-2.0 */
/*
 * windperf: the kernel's own message transports beside Wind (kpeers.c):
 * SCTP one-to-many, TIPC and RDS over TCP.
 */
#ifndef WINDPERF_KPEERS_H
#define WINDPERF_KPEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

/* The TIPC service type windperf's servers publish; the instance is the
 * port number, so that "port 5001" names the same server as for IP.
 */
#define KP_TIPC_TYPE	0x57504600u

/* fd of a new socket of the family: SCTP SOCK_SEQPACKET (one-to-many),
 * TIPC SOCK_RDM, RDS SOCK_SEQPACKET over TCP (SO_RDS_TRANSPORT).
 * nodelay: SCTP_NODELAY on SCTP (off with windperf -N, as TCP_NODELAY).
 */
int kp_socket(const char *proto, int family, bool nodelay);

/* A server's socket for @port: SCTP bound to the wildcard and listening
 * (a one-to-many socket takes associations once it listens), TIPC
 * publishing {KP_TIPC_TYPE, port} in the cluster, RDS bound to @local
 * (an RDS socket binds to one address; no wildcard).
 */
void kp_bind(int fd, const char *proto, int port,
	     const struct sockaddr_storage *local);

/* A client's socket before its first send: RDS binds to the address
 * its route to @server leaves from (port 0: any); the others need none.
 */
void kp_client_bind(int fd, const char *proto,
		    const struct sockaddr_storage *server);

/* The TIPC service address of windperf's server on @port. */
void kp_tipc_addr(struct sockaddr_storage *ss, int port);

/* The first IPv4 address of an interface that is up and not loopback
 * (an RDS server's default bind address); false if there is none.
 */
bool kp_local_addr(struct sockaddr_storage *ss);

/* Receive one whole message into buf (cap bytes), its sender in *from.
 * SCTP: recvmsg() until MSG_EOR (a message larger than what the socket
 * hands over at once comes in pieces), notifications skipped; TIPC: a
 * message of ours that came back undelivered (TIPC_ERRINFO: the receiver
 * was overloaded) is counted in *returned and is -1 with errno EREMOTEIO,
 * the message in buf.  Returns the length, or -1 with errno.
 */
ssize_t kp_recv(int fd, const char *proto, char *buf, size_t cap, int flags,
		struct sockaddr_storage *from, unsigned long *returned);

/* Counters for the protocol: packets out and in, retransmissions
 * (SCTP: /proc/net/sctp/snmp; RDS over TCP: the Tcp ones of
 * /proc/net/snmp, its connections' segments; TIPC: none, zeros).
 */
void kp_counters(const char *proto, double *out, double *in, double *rtx);

#endif
