// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: command line tool for /dev/rdma_mcm, in the spirit of
 * iproute2's rdma tool. See rdma-mcm(8).
 *
 * Exit status: 0 success, 1 failure, 2 usage error; check's are a
 * monitoring plugin's (rdma_mcm_cli.h: CHECK_*). With -j, everything
 * it prints (errors on stderr included) is one JSON object per line;
 * with -p the same objects, indented over several lines (json.c).
 */
#include <dlfcn.h>
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
const char *cli_sys_module = "/sys/module/" RDMA_MCM_DEVICE_NAME;
const char *cli_proc_root = "/proc";

static const char usage_text[] =
"Usage: rdma-mcm [-j [-p]] [-b ADDR] [-t SECONDS] [--no-heal] COMMAND [ARGS]\n"
"       rdma-mcm -h | --help | -V | --version | COMMAND help\n"
"\n"
"  join GROUP... [--send-only] [--source ADDR]...\n"
"                                join and print events until SIGINT or\n"
"                                SIGTERM; reads commands on stdin:\n"
"                                join GROUP... [--send-only] [--source\n"
"                                ADDR]..., leave GROUP..., list, show,\n"
"                                stats, help, quit. --source (repeated):\n"
"                                only from these sources (IGMPv3/MLDv2,\n"
"                                RoCE)\n"
"  list                          memberships of this process (none in a\n"
"                                fresh one: they belong to the open file)\n"
"  show [dev DEV] [group GROUP] [state STATE] [pid PID] [ctx ID]\n"
"       [unit UNIT]              the host's memberships (netlink; all of\n"
"                                them with CAP_NET_ADMIN, else your uid's);\n"
"                                unit: those of a systemd unit's processes\n"
"                                (rdma-mcm-groups.service: the system's)\n"
"  ctx [show] [dev DEV] [pid PID] [ctx ID] [unit UNIT]\n"
"                                the host's contexts and their counters\n"
"  stats [--format FORMAT]       the module's counters, limits, usage and\n"
"                                per-device counters; FORMAT: text, json,\n"
"                                prometheus (text 0.0.4) or openmetrics\n"
"  monitor [-c COUNT] [-t|-ts]   print the host's membership events as\n"
"                                they come (needs CAP_NET_ADMIN), until\n"
"                                SIGINT, SIGTERM or COUNT events; -t, -ts:\n"
"                                with each one's wall-clock time\n"
"  send GROUP [-c COUNT] [-s SIZE] [-i USEC] [--send-only]\n"
"                                send COUNT datagrams of SIZE bytes\n"
"  recv GROUP [--source ADDR]... [-c COUNT] [-s SIZE]\n"
"                                receive COUNT datagrams, fail after -t;\n"
"                                then a line per source they came from\n"
"  exec [--source G=S[,S]] [--debug] [--] PROGRAM [ARGS...]\n"
"                                run an unmodified librdmacm program with\n"
"                                its joins served by rdma_mcm (preload)\n"
"  check [netdev NETDEV] [dev DEV] [group GROUP] [listen SECONDS]\n"
"                                what the host reports to the network for\n"
"                                the memberships, and the queries it hears\n"
"                                in SECONDS (CAP_NET_RAW); exit 0 all\n"
"                                good, 1 warnings, 2 problems, 3 not\n"
"                                checked (rdma-mcm-check(8))\n"
"\n"
"A command, and a keyword after it, may be shortened to any prefix that\n"
"names one only (sh: show, st: stats; c stays ctx).\n"
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

void cli_usage(FILE *f)
{
	out_text(cli_json, f, "usage", usage_text);
}

void cli_set_json(struct cli *cli, int pretty)
{
	cli_json = 1;
	cli->json = 1;
	if (pretty) {
		cli_pretty = 1;
		cli->pretty = 1;
	}
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
	/* what it quotes (an argument, a line of input) may be any bytes */
	fputs("rdma-mcm: ", stderr);
	print_escaped(stderr, msg, 1);
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

const char *cli_match(const char *word, const char *const *names,
		      int *ambiguous)
{
	const char *found = NULL;
	size_t n = strlen(word);
	int i;

	*ambiguous = 0;
	if (!n)
		return NULL;
	for (i = 0; names[i]; i++) {
		if (!strcmp(word, names[i])) {
			*ambiguous = 0;
			return names[i];
		}
		if (!strncmp(word, names[i], n)) {
			if (found)
				*ambiguous = 1;
			found = names[i];
		}
	}
	return *ambiguous ? NULL : found;
}

void cli_bad_word(const char *what, const char *word,
		  const char *const *names, int ambiguous)
{
	char fits[256] = "";
	size_t n = strlen(word), len = 0;
	int i;

	if (!ambiguous) {
		cli_err("unknown %s '%.100s'", what, word);
		return;
	}
	for (i = 0; names[i] && len < sizeof(fits); i++)
		if (!strncmp(word, names[i], n))
			len += (size_t)snprintf(fits + len, sizeof(fits) - len,
						"%s%s", len ? ", " : "",
						names[i]);
	cli_err("ambiguous %s '%.100s': %s", what, word, fits);
}

int cli_module_loaded(void)
{
	struct rdma_mcm_channel *ch;

	if (*cli_sys_module && !access(cli_sys_module, F_OK))
		return 1;
	ch = rdma_mcm_open_channel(0);
	rdma_mcm_close_channel(ch);
	return !!ch;
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
static void print_features(uint32_t features, struct rec *r)
{
	const char *name;
	char bit[16];
	int i, n = 0;

	if (r)
		rec_open(r, "features", '[');
	for (i = 0; i < 32; i++) {
		if (!(features & (1U << i)))
			continue;
		name = feature_name(1U << i);
		if (!name) {
			snprintf(bit, sizeof(bit), "bit-%d", i);
			name = bit;
		}
		if (r)
			rec_item(r, name);
		else
			printf("%s%s", n ? "," : "", name);
		n++;
	}
	if (r)
		rec_close(r, ']');
	else if (!n)
		fputs("none", stdout);
}

/*
 * The librdmamcm this process runs: the file the dynamic linker mapped it
 * from (@path), whose name (librdmamcm.so.1.5.0) says its version; linked
 * in (static), this tool's own version, and @path "".
 */
static void lib_version(char *ver, size_t vlen, char *path, size_t plen)
{
	void *sym = dlsym(RTLD_DEFAULT, "rdma_mcm_open_channel");
	static const char prefix[] = "librdmamcm.so.";
	const char *base;
	Dl_info info;
	char *real;

	snprintf(ver, vlen, "%s", MCM_VERSION);
	path[0] = '\0';
	if (!sym || !dladdr(sym, &info) || !info.dli_fname)
		return;
	real = realpath(info.dli_fname, NULL);
	base = strrchr(real ? real : info.dli_fname, '/');
	base = base ? base + 1 : real ? real : info.dli_fname;
	if (!strncmp(base, prefix, sizeof(prefix) - 1)) {
		snprintf(ver, vlen, "%s", base + sizeof(prefix) - 1);
		snprintf(path, plen, "%s", real ? real : info.dli_fname);
	}
	free(real);
}

/* The loaded module's version (/sys/module/rdma_mcm/version), or "" */
static void module_version(char *buf, size_t len)
{
	char path[512];
	FILE *f;

	buf[0] = '\0';
	if (!*cli_sys_module)
		return;
	snprintf(path, sizeof(path), "%s/version", cli_sys_module);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static void version_json(struct rdma_mcm_channel *ch, const char *why,
			 const char *lib, const char *path, const char *mod,
			 uint32_t features)
{
	struct rec r;

	rec_begin(&r);
	rec_str(&r, "version", MCM_VERSION);
	rec_str(&r, "library", lib);
	if (*path)
		rec_str(&r, "library_path", path);
	rec_u64(&r, "abi", RDMA_MCM_ABI_VERSION);
	if (*mod)
		rec_str(&r, "module_version", mod);
	if (ch) {
		rec_u64(&r, "module_abi", (uint64_t)rdma_mcm_abi_version(ch));
		print_features(features, &r);
	} else {
		rec_null(&r, "module_abi");
		rec_str(&r, "module", why);
	}
	rec_end(&r);
}

/*
 * The tool's version, the version and file of the library it runs, and
 * the loaded module's version, ABI and features
 */
static int cmd_version(struct cli *cli)
{
	struct rdma_mcm_channel *ch = rdma_mcm_open_channel(0);
	int err = errno;
	const char *why = ch ? "" : cli_module_loaded() ?
			  "loaded, its device does not open" :
			  err == ENOENT ? "not loaded" : strerror(err);
	char lib[64], path[512], mod[64];
	uint32_t features = 0;

	if (ch)
		rdma_mcm_get_features(ch, &features);
	lib_version(lib, sizeof(lib), path, sizeof(path));
	module_version(mod, sizeof(mod));
	if (cli->json) {
		version_json(ch, why, lib, path, mod, features);
		rdma_mcm_close_channel(ch);
		return 0;
	}
	printf("rdma-mcm %s (librdmamcm ", MCM_VERSION);
	print_name(lib);
	printf(", ABI %d)\n", RDMA_MCM_ABI_VERSION);
	if (*path) {
		fputs("librdmamcm: ", stdout);
		print_name(path);
		putchar('\n');
	}
	if (ch) {
		printf("rdma_mcm module: ABI %d features ",
		       rdma_mcm_abi_version(ch));
		print_features(features, NULL);
	} else {
		printf("rdma_mcm module: %s (/dev/%s: %s)", why,
		       RDMA_MCM_DEVICE_NAME, strerror(err));
	}
	if (*mod) {
		fputs(" version ", stdout);
		print_name(mod);
	}
	putchar('\n');
	rdma_mcm_close_channel(ch);
	return 0;
}

typedef int (*command_fn)(struct cli *cli, int argc, char **argv);

/* The commands, by name: command_names[i] runs command_fns[i] */
static const char *const command_names[] = {
	"join", "list", "show", "ctx", "stats", "monitor", "send", "recv",
	"exec", "check", "help", NULL,
};

static const command_fn command_fns[] = {
	cmd_join, cmd_list, cmd_show, cmd_ctx, cmd_nl_stats, cmd_monitor,
	cmd_send, cmd_recv, cmd_exec, cmd_check, NULL,
};

/*
 * Prefixes that named one command before a later command shared them:
 * they keep naming it, so that what a script typed still works ("c" was
 * ctx before check came)
 */
static const struct {
	const char *prefix, *name;
} kept_prefixes[] = {
	{ "c", "ctx" },
};

/* The command @word names (cli_match(), and the kept prefixes) */
static const char *command_of(const char *word, int *ambiguous)
{
	size_t i;

	for (i = 0; i < sizeof(kept_prefixes) / sizeof(kept_prefixes[0]); i++)
		if (!strcmp(word, kept_prefixes[i].prefix)) {
			*ambiguous = 0;
			return cli_match(kept_prefixes[i].name, command_names,
					 ambiguous);
		}
	return cli_match(word, command_names, ambiguous);
}

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
			cli_set_json(cli, 0);
			break;
		case 'p':
			cli_set_json(cli, 1);
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
	cli_usage(stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct cli cli = { .timeout_s = 30 };
	int ret, what = RUN, ambiguous;
	const char *name;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_global(&cli, argc, argv, &what);
	if (ret) {
		name = optind < argc ? command_of(argv[optind], &ambiguous) :
		       NULL;
		/* a usage error of check is "not checked", wherever it is */
		return name && !strcmp(name, "check") ? CHECK_UNKNOWN : ret;
	}
	if (what == HELP) {
		cli_usage(stdout);
		return 0;
	}
	if (what == VERSION)
		return cmd_version(&cli);
	if (optind >= argc) {
		cli_err("no command given");
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	name = command_of(argv[optind], &ambiguous);
	if (!name) {
		cli_bad_word("command", argv[optind], command_names, ambiguous);
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	/* the program's arguments are its own, -h and help included */
	if (!strcmp(name, "exec"))
		return cmd_exec(&cli, argc - optind, argv + optind);
	/* "help", and "COMMAND help" as iproute2's "OBJECT help" */
	if (!strcmp(name, "help") ||
	    (optind + 1 < argc && !strcmp(argv[optind + 1], "help"))) {
		cli_usage(stdout);
		return 0;
	}
	/* -h, --help, -V, --version after a command too: "show --help" */
	for (i = (size_t)optind + 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			what = VERSION;
	}
	if (what == VERSION)
		return cmd_version(&cli);
	for (i = 0; command_names[i] != name; i++)
		;
	return command_fns[i](&cli, argc - optind, argv + optind);
}
