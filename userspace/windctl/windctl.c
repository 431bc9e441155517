// SPDX-License-Identifier: GPL-2.0
/*
 * windctl: show and set Wind's sockets, peers, counters and tunables
 * through the generic netlink family "wind".  See windctl(8).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "windctl.h"

static void usage(FILE *f)
{
	const struct wc_command *c;

	fprintf(f, "Usage: windctl [-j] [-n NETNS] COMMAND [ARGS]\n"
		"  -j        JSON output\n"
		"  -n NETNS  run in the named network namespace (/run/netns/NETNS)\n"
		"Commands:\n");
	for (c = wc_commands; c->name; c++)
		fprintf(f, "  %-6s %-28s %s\n", c->name, c->args, c->help);
}

static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "windctl: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "windctl: setns %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct wc_opts opts = { 0 };
	const struct wc_command *c;
	struct wc_nl *nl;
	int opt, ret;

	while ((opt = getopt(argc, argv, "+jn:h")) != -1) {
		switch (opt) {
		case 'j':
			opts.json = true;
			break;
		case 'n':
			if (enter_netns(optarg))
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc) {
		/* like wg: no command shows what there is */
		static char *show[] = { "show", NULL };

		argc = 1;
		argv = show;
	}
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return 0;
	}
	for (c = wc_commands; c->name; c++)
		if (!strcmp(argv[0], c->name))
			break;
	if (!c->name) {
		fprintf(stderr, "windctl: unknown command \"%s\"\n", argv[0]);
		usage(stderr);
		return 2;
	}
	nl = wc_nl_open();
	if (!nl)
		return 1;
	ret = c->run(nl, &opts, argc, argv);
	wc_nl_close(nl);
	if (fflush(stdout) && !ret) {
		fprintf(stderr, "windctl: stdout: %s\n", strerror(errno));
		ret = 1;
	}
	return ret;
}
