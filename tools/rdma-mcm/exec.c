// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm exec: run an unmodified librdmacm program with its multicast
 * served by rdma_mcm, through librdmamcm-preload.so (librdmamcm-preload(7)),
 * as rsocket(7)'s preload is used. The library goes first in LD_PRELOAD;
 * the options become its environment; then the program replaces this
 * process, so its pid is the one rdma-mcm show lists.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#ifndef MCM_PRELOAD_PATH
#define MCM_PRELOAD_PATH "/usr/lib/rdma-mcm/librdmamcm-preload.so"
#endif

static const char exec_usage[] =
"Usage: rdma-mcm exec [--source GROUP=SRC[,SRC...]]... [--no-heal] [--debug]\n"
"                     [--] PROGRAM [ARGS...]\n"
"\n"
"Runs PROGRAM with librdmamcm-preload.so: its rdma_join_multicast() calls on\n"
"UD ids are rdma_mcm memberships (leave never blocks, healing, IPv6 groups on\n"
"RoCE v2, rdma-mcm show lists them under its pid); see librdmamcm-preload(7).\n"
"\n"
"  --source GROUP=SRC[,SRC...]  joins of GROUP are source-specific\n"
"                               (IGMPv3/MLDv2 INCLUDE), repeatable\n"
"  --no-heal                    a lost membership is a MULTICAST_ERROR\n"
"  --debug                      the library's decisions on stderr\n"
"\n"
"RDMA_MCM_PRELOAD_LIB names another library file (a build tree's).\n"
"Exit status: PROGRAM's; 127 if it cannot be found, 126 if it cannot be run,\n"
"2 for a usage error, 1 if the library is missing.\n";

static int append_env(const char *name, const char *value, const char *sep,
		      int first)
{
	const char *old = getenv(name);
	size_t len;
	char *v;

	if (!old || !*old)
		return setenv(name, value, 1);
	len = strlen(old) + strlen(value) + strlen(sep) + 1;
	v = malloc(len);
	if (!v)
		return -1;
	if (first)
		snprintf(v, len, "%s%s%s", value, sep, old);
	else
		snprintf(v, len, "%s%s%s", old, sep, value);
	len = (size_t)setenv(name, v, 1);
	free(v);
	return (int)len;
}

int cmd_exec(struct cli *cli, int argc, char **argv)
{
	const char *lib = getenv("RDMA_MCM_PRELOAD_LIB");
	int i;

	if (!lib || !*lib)
		lib = MCM_PRELOAD_PATH;
	if (cli->no_heal)
		setenv("RDMA_MCM_PRELOAD_HEAL", "0", 1);
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-')
			break;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(exec_usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--no-heal")) {
			setenv("RDMA_MCM_PRELOAD_HEAL", "0", 1);
		} else if (!strcmp(argv[i], "--debug")) {
			setenv("RDMA_MCM_PRELOAD_DEBUG", "1", 1);
		} else if (!strcmp(argv[i], "--source") ||
			   !strncmp(argv[i], "--source=", 9)) {
			const char *v = argv[i][8] == '=' ? argv[i] + 9 :
					argv[++i];
			struct sockaddr_storage ss;
			char group[128];
			size_t n;

			n = v ? strcspn(v, "=") : 0;
			if (!v || !v[n] || !v[n + 1] || n >= sizeof(group)) {
				cli_err("exec: --source takes GROUP=SRC[,SRC...]");
				return EXIT_USAGE;
			}
			memcpy(group, v, n);
			group[n] = '\0';
			if (rdma_mcm_parse_addr(group, &ss)) {
				cli_err("exec: bad group '%s'", group);
				return EXIT_USAGE;
			}
			if (append_env("RDMA_MCM_PRELOAD_SOURCES", v, ";", 0))
				return 1;
		} else {
			cli_err("exec: unknown option '%s'", argv[i]);
			fputs(exec_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		cli_err("exec: no program given");
		fputs(exec_usage, stderr);
		return EXIT_USAGE;
	}
	if (access(lib, R_OK)) {
		cli_err("exec: %s: %s (install rdma-mcm-utils, or set RDMA_MCM_PRELOAD_LIB)",
			lib, strerror(errno));
		return 1;
	}
	if (append_env("LD_PRELOAD", lib, " ", 1)) {
		cli_err("exec: LD_PRELOAD: %s", strerror(errno));
		return 1;
	}
	fflush(NULL);
	execvp(argv[i], argv + i);
	cli_err("exec: %s: %s", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
