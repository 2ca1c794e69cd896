/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What fake_main.c sets in the program it is linked with, if it has it:
 * the CLI's (rdma-mcm/main.c); a program without them (the example,
 * rdma-mcm-groups) leaves them NULL, weak.
 */
#ifndef FAKE_CLI_H
#define FAKE_CLI_H

/* /sys/module/rdma_mcm: $FAKE_MODULE_DIR, else none */
extern const char *cli_sys_module __attribute__((weak));
/* /proc, for an owner's cgroup: $FAKE_PROC_DIR, else none */
extern const char *cli_proc_root __attribute__((weak));

#endif /* FAKE_CLI_H */
