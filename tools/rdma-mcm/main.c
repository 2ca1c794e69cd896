// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: command line tool for /dev/rdma_mcm, in the spirit of
 * iproute2's rdma tool. See rdma-mcm(8).
 *
 * Exit status: 0 success, 1 failure, 2 usage error. With -j, everything
 * it prints (errors on stderr included) is one JSON object per line;
 * with -p the same objects, indented over several lines.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#ifndef MCM_VERSION
#define MCM_VERSION	"unknown"
#endif

int cli_json;

static const char usage_text[] =
"Usage: rdma-mcm [-j [-p]] [-b ADDR] [-t SECONDS] [--no-heal] COMMAND [ARGS]\n"
"       rdma-mcm -h | --help | -V | --version\n"
"\n"
"  join GROUP... [--send-only] [--source ADDR]...\n"
"                                join and print events until SIGINT or\n"
"                                SIGTERM; reads commands on stdin:\n"
"                                join GROUP... [--send-only] [--source\n"
"                                ADDR]..., leave GROUP..., list, stats,\n"
"                                help, quit. --source (repeated): only\n"
"                                from these sources (IGMPv3/MLDv2, RoCE)\n"
"  list                          memberships of this process (none in a\n"
"                                fresh one: they belong to the open file)\n"
"  show [dev DEV] [group GROUP] [state STATE] [pid PID] [ctx ID]\n"
"                                the host's memberships (netlink; all of\n"
"                                them with CAP_NET_ADMIN, else your uid's)\n"
"  ctx [show] [dev DEV] [pid PID] [ctx ID]\n"
"                                the host's contexts and their counters\n"
"  stats                         the module's counters, limits, usage and\n"
"                                per-device counters\n"
"  monitor [-c COUNT]            print the host's membership events as\n"
"                                they come (needs CAP_NET_ADMIN), until\n"
"                                SIGINT, SIGTERM or COUNT events\n"
"  send GROUP [-c COUNT] [-s SIZE] [-i USEC] [--send-only]\n"
"                                send COUNT datagrams of SIZE bytes\n"
"  recv GROUP [--source ADDR]... [-c COUNT] [-s SIZE]\n"
"                                receive COUNT datagrams, fail after -t;\n"
"                                then a line per source they came from\n"
"\n"
"  -j, --json             JSON lines output (errors too)\n"
"  -p, --pretty           JSON output, each object indented (implies -j)\n"
"  -b, --bind ADDR        local source address (IPv4 or IPv6 literal);\n"
"                         without it, the route to the group chooses\n"
"      --no-heal          a membership lost to the fabric or the device\n"
"                         ends in error instead of being joined again;\n"
"                         also an option of join, send and recv\n"
"  -t, --timeout SECONDS  timeout of send and recv, join included\n"
"                         (default 30)\n"
"  -h, --help             this help (also after a command)\n"
"  -V, --version          versions of the tool and of the loaded module,\n"
"                         and the module's features\n";

static void usage(FILE *f)
{
	out_text(cli_json, f, "usage", usage_text);
}

void cli_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cli_json) {
		out_text(1, stderr, "error", msg);
		return;
	}
	fprintf(stderr, "rdma-mcm: %s\n", msg);
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

/* The name of feature bit @bit (RDMA_MCM_FEATURE_*), or NULL */
static const char *feature_name(uint32_t bit)
{
	switch (bit) {
	case RDMA_MCM_FEATURE_SOURCES:
		return "sources";
	case RDMA_MCM_FEATURE_IPV6_ROCE:
		return "ipv6-roce";
	default:
		return NULL;
	}
}

/*
 * The module's features: text "sources,ipv6-roce" ("none"), JSON
 * ["sources","ipv6-roce"]; a bit the tool does not know as bit-N
 */
static void print_features(uint32_t features, int json)
{
	const char *name;
	int i, n = 0;

	fputs(json ? "[" : "", stdout);
	for (i = 0; i < 32; i++) {
		if (!(features & (1U << i)))
			continue;
		name = feature_name(1U << i);
		printf("%s%s", n++ ? "," : "", json ? "\"" : "");
		if (name)
			fputs(name, stdout);
		else
			printf("bit-%d", i);
		fputs(json ? "\"" : "", stdout);
	}
	fputs(json ? "]" : n ? "" : "none", stdout);
}

/*
 * The tool's and the library's version, and the module's ABI and
 * features if loaded
 */
static int cmd_version(struct cli *cli)
{
	struct rdma_mcm_channel *ch = rdma_mcm_open_channel(0);
	int err = errno;
	const char *why = err == ENOENT ? "not loaded" : strerror(err);
	uint32_t features = 0;

	if (ch)
		rdma_mcm_get_features(ch, &features);
	if (cli->json) {
		printf("{\"version\":\"%s\",\"abi\":%d,\"module_abi\":",
		       MCM_VERSION, RDMA_MCM_ABI_VERSION);
		if (ch) {
			printf("%d,\"features\":", rdma_mcm_abi_version(ch));
			print_features(features, 1);
			puts("}");
		} else {
			printf("null,\"module\":\"%s\"}\n", why);
		}
	} else {
		printf("rdma-mcm %s (librdmamcm %s, ABI %d)\n", MCM_VERSION,
		       MCM_VERSION, RDMA_MCM_ABI_VERSION);
		if (ch) {
			printf("rdma_mcm module: ABI %d features ",
			       rdma_mcm_abi_version(ch));
			print_features(features, 0);
			putchar('\n');
		} else {
			printf("rdma_mcm module: %s (/dev/%s: %s)\n", why,
			       RDMA_MCM_DEVICE_NAME, strerror(err));
		}
	}
	rdma_mcm_close_channel(ch);
	return 0;
}

struct command {
	const char *name;
	int (*fn)(struct cli *cli, int argc, char **argv);
};

static const struct command commands[] = {
	{ "join", cmd_join },
	{ "list", cmd_list },
	{ "show", cmd_show },
	{ "ctx", cmd_ctx },
	{ "stats", cmd_nl_stats },
	{ "monitor", cmd_monitor },
	{ "send", cmd_send },
	{ "recv", cmd_recv },
};

#define OPT_NO_HEAL	256

static const struct option long_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "no-heal", no_argument, NULL, OPT_NO_HEAL },
	{ "bind", required_argument, NULL, 'b' },
	{ "timeout", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

enum { RUN, HELP, VERSION };

/*
 * The global options, all of them before acting on any, so that -j
 * applies to -h and -V wherever it stands. Returns 0 or EXIT_USAGE.
 */
static int parse_global(struct cli *cli, int argc, char **argv, int *what)
{
	char why[160] = "";
	unsigned long v;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jpb:t:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'j':
			cli_json = 1;
			cli->json = 1;
			break;
		case 'p':
			cli_json = 1;
			cli->json = 1;
			cli->pretty = 1;
			break;
		case 'b':
			cli->bind = optarg;
			break;
		case OPT_NO_HEAL:
			cli->no_heal = 1;
			break;
		case 't':
			if (!cli_parse_uint(optarg, 86400, &v) && v)
				cli->timeout_s = (int)v;
			else if (!*why)
				snprintf(why, sizeof(why),
					 "bad timeout '%s': whole seconds, 1 to 86400",
					 optarg);
			break;
		case 'h':
			*what = HELP;
			break;
		case 'V':
			if (*what != HELP)
				*what = VERSION;
			break;
		default:
			if (*why)
				break;
			if (optopt && strchr("bt", optopt))
				snprintf(why, sizeof(why),
					 "option -%c needs an argument", optopt);
			else if (optopt)
				snprintf(why, sizeof(why), "invalid option -%c",
					 optopt);
			else
				snprintf(why, sizeof(why), "invalid option '%.100s'",
					 argv[optind - 1]);
			break;
		}
	}
	if (!*why)
		return 0;
	cli_err("%s", why);
	usage(stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct cli cli = { .timeout_s = 30 };
	int ret, what = RUN;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_global(&cli, argc, argv, &what);
	if (ret)
		return ret;
	if (what == HELP) {
		usage(stdout);
		return 0;
	}
	if (what == VERSION)
		return cmd_version(&cli);
	if (optind >= argc) {
		cli_err("no command given");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	/* -h, --help, -V, --version after a command too: "show --help" */
	for (i = (size_t)optind + 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			what = VERSION;
	}
	if (what == VERSION)
		return cmd_version(&cli);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[optind], commands[i].name))
			return commands[i].fn(&cli, argc - optind,
					      argv + optind);
	cli_err("unknown command '%s'", argv[optind]);
	usage(stderr);
	return EXIT_USAGE;
}
