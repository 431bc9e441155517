/* SPDX-License-Identifier: GPL-2.0 */
/*
 * windctl: show and set Wind's sockets, peers, counters and tunables.
 *
 * windctl.c parses the command line and dispatches, commands.c runs the
 * subcommands and prints, output.c formats tables and JSON, and nl.c is
 * the only code that speaks netlink (the generic netlink family "wind",
 * Documentation/netlink/specs/wind.yaml).
 */
#ifndef WINDCTL_H
#define WINDCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <linux/wind.h>

/* ---- nl.c: the kernel interface ---------------------------------------- */

/*
 * An address as the kernel sent it: WIND_A_*_ADDR (IPv4) or, for an IPv6
 * peer or an AF_INET6 socket, WIND_A_*_ADDR6.  Both in network byte order.
 */
struct wc_addr {
	int family;			/* AF_INET or AF_INET6 */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};

struct wc_sock {
	uint16_t port;
	struct wc_addr addr;
	bool has_peer;			/* connect() set a default peer */
	struct wc_addr peer_addr;
	uint16_t peer_port;
	uint32_t peers, rmem, rmem_limit, wmem, wmem_limit, drops, uid;
	uint32_t incarnation;
	uint64_t inode;
};

struct wc_peer {
	uint16_t sock_port, port;
	struct wc_addr local_addr, addr;
	uint32_t status;		/* enum wind_peer_status */
	uint32_t in_flight, wq_packets, rq_packets;
	uint32_t srtt_us, rttvar_us, rto_us, retries, mss;
	uint32_t local_tag, remote_tag, last_active_ms;
	uint64_t retransmits, duplicates, drops;
	uint64_t tx_packets, rx_packets, tx_messages, rx_messages;
};

/* A notification of the "peers" multicast group */
struct wc_event {
	uint32_t event;			/* enum wind_peer_event */
	uint32_t error;			/* positive errno, 0 if none */
	uint16_t sock_port, port;
	struct wc_addr local_addr, addr;
};

/* Values indexed by their attribute (WIND_A_STATS_*, WIND_A_PARAMS_*) */
struct wc_stats {
	bool present[WIND_A_STATS_MAX + 1];
	uint64_t value[WIND_A_STATS_MAX + 1];
};

struct wc_params {
	bool present[WIND_A_PARAMS_MAX + 1];
	uint32_t value[WIND_A_PARAMS_MAX + 1];
};

/* Why the kernel refused the last request (extended ACK) */
struct wc_nl_error {
	int err;			/* negative errno */
	char msg[256];			/* the kernel's message, "" if none */
	int bad_attr;			/* type of the attribute it names, or 0 */
	bool has_range;			/* the policy's range came along */
	int64_t min, max;
};

struct wc_nl;

/* NULL (and a message on stderr) if the family is not there */
struct wc_nl *wc_nl_open(void);
void wc_nl_close(struct wc_nl *nl);
const struct wc_nl_error *wc_nl_last_error(const struct wc_nl *nl);

/* These return 0 or a negative errno; the arrays are malloc()ed */
int wc_nl_socks(struct wc_nl *nl, struct wc_sock **socks, size_t *n);
int wc_nl_peers(struct wc_nl *nl, uint16_t port, struct wc_peer **peers,
		size_t *n);
int wc_nl_stats(struct wc_nl *nl, struct wc_stats *stats);
int wc_nl_params_get(struct wc_nl *nl, struct wc_params *params);
int wc_nl_params_set(struct wc_nl *nl, const struct wc_params *params);
/*
 * Join the "peers" multicast group and call fn for each event until fn
 * returns non-zero (returned) or reading fails (a negative errno).  A
 * receive queue that overflowed is reported on stderr and reading goes on.
 */
int wc_nl_monitor(struct wc_nl *nl,
		  int (*fn)(const struct wc_event *ev, void *arg), void *arg);

/* ---- output.c: tables and JSON ----------------------------------------- */

enum wc_align { WC_LEFT, WC_RIGHT };

struct wc_table;

struct wc_table *wc_table_new(size_t ncols, const char *const *headers,
			      const enum wc_align *align);
/* Appends one cell to the current row; a row ends after ncols cells */
void wc_table_cell(struct wc_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wc_table_print(struct wc_table *t, FILE *f);
void wc_table_free(struct wc_table *t);

/* A small streaming JSON writer: commas and nesting are its business */
void wc_json_begin_array(FILE *f);
void wc_json_end_array(FILE *f);
void wc_json_begin_object(FILE *f);
void wc_json_end_object(FILE *f);
void wc_json_key(FILE *f, const char *key);
void wc_json_uint(FILE *f, const char *key, uint64_t v);
void wc_json_str(FILE *f, const char *key, const char *s);
void wc_json_null(FILE *f, const char *key);
/* Ends the document with a newline */
void wc_json_end(FILE *f);

/* ---- commands.c --------------------------------------------------------- */

struct wc_opts {
	bool json;
};

struct wc_command {
	const char *name;
	const char *args;		/* for the usage text */
	const char *help;
	int (*run)(struct wc_nl *nl, const struct wc_opts *o, int argc,
		   char **argv);
};

extern const struct wc_command wc_commands[];

/* Prints "windctl: what: reason[: kernel message]"; returns 1 */
int wc_fail(struct wc_nl *nl, const char *what, int err);

#endif /* WINDCTL_H */
