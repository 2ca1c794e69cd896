// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: command line tool for /dev/rdma_mcm, in the spirit of
 * iproute2's rdma tool. See rdma-mcm(8).
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

static const char usage_text[] =
"Usage: rdma-mcm [-j] [-b ADDR] [-t SECONDS] COMMAND [ARGS]\n"
"\n"
"  join GROUP... [--send-only]   join and print events until SIGINT or\n"
"                                SIGTERM; reads commands on stdin:\n"
"                                join GROUP [--send-only], leave GROUP,\n"
"                                list, stats, help, quit\n"
"  list                          memberships of this process (none in a\n"
"                                fresh one: they belong to the open file)\n"
"  stats                         counts of this process's memberships\n"
"  send GROUP [-c COUNT] [-s SIZE] [-i USEC] [--send-only]\n"
"                                send COUNT datagrams of SIZE bytes\n"
"  recv GROUP [-c COUNT] [-s SIZE]\n"
"                                receive COUNT datagrams, fail after -t\n"
"\n"
"  -j          JSON lines output\n"
"  -b ADDR     local source address (IPv4 or IPv6 literal)\n"
"  -t SECONDS  timeout of send and recv, join included (default 30)\n"
"  -h          this help;  -V  versions\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("rdma-mcm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Decimal number in [0, max]; 0 or -1 */
int cli_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int cmd_version(struct cli *cli)
{
	printf("rdma-mcm: librdmamcm ABI %d\n", RDMA_MCM_ABI_VERSION);
	if (cli_open(cli, 0))
		return 1;
	printf("rdma_mcm module: ABI %d\n", rdma_mcm_abi_version(cli->ch));
	rdma_mcm_close_channel(cli->ch);
	cli->ch = NULL;
	return 0;
}

struct command {
	const char *name;
	int (*fn)(struct cli *cli, int argc, char **argv);
};

static const struct command commands[] = {
	{ "join", cmd_join },
	{ "list", cmd_list },
	{ "show", cmd_list },
	{ "stats", cmd_stats },
	{ "send", cmd_send },
	{ "recv", cmd_recv },
};

static int parse_global(struct cli *cli, int argc, char **argv)
{
	unsigned long v;
	int c;

	while ((c = getopt(argc, argv, "+jb:t:hV")) != -1) {
		switch (c) {
		case 'j':
			cli->json = 1;
			break;
		case 'b':
			cli->bind = optarg;
			break;
		case 't':
			if (cli_parse_uint(optarg, 86400, &v) || !v) {
				cli_err("bad timeout '%s'", optarg);
				return EXIT_USAGE;
			}
			cli->timeout_s = (int)v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			exit(cmd_version(cli));
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli cli = { .timeout_s = 30 };
	size_t i;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_global(&cli, argc, argv);
	if (ret)
		return ret;
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[optind], commands[i].name))
			return commands[i].fn(&cli, argc - optind,
					      argv + optind);
	cli_err("unknown command '%s'", argv[optind]);
	usage(stderr);
	return EXIT_USAGE;
}
