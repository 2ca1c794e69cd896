/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_abi_test: what its source files share.
 *
 *   mcm_abi_test.c       main; one check per errno, events, isolation,
 *                        limits
 *   mcm_abi_ext.c        extensibility: argument sizes; failing commands
 *                        write nothing back
 *   mcm_abi_out.c        what the kernel writes: events, QUERY, LIST
 *                        entries, batch entries (nothing uninitialised)
 *   mcm_abi_events.c     SET_EVENTS, the source port being ignored
 *   mcm_abi_version.c    the structs' sizes, VERSION's features, old
 *                        binaries (152-byte JOIN, 200-byte members)
 *   mcm_abi_src_errno.c  every errno of a join with sources
 *   mcm_abi_src.c        source-specific joins: /proc/net/mcfilter, leave,
 *                        DESTROY_CTX and close, QUERY and LIST; batches
 *   mcm_abi_v6.c         IPv6 groups on RoCE v2 (JOINED_BY_MCM, MLD,
 *                        mcfilter6)
 *   mcm_abi_src_util.c   source arrays, JOIN arguments with them, what
 *                        QUERY and LIST report of a membership
 *   mcm_abi_procnet.c    /proc/net/igmp, igmp6, mcfilter and mcfilter6
 *   mcm_abi_dev.c        DEVICE_REMOVED: rxe1 deleted under open files
 *   mcm_abi_heal.c       healing and route contexts, QUERY_CTX; rxe1
 *                        deleted and added again under a healing context
 *   mcm_abi_util.c       KTAP reporting and small helpers
 *
 * The sysctl and module parameter readers and writers are the tests'
 * shared ones (tools/testing/common/mcm_test.h).
 *
 * mcm_mcfilter.c, in the same directory, is a program of its own: the VM
 * tests read /proc/net/mcfilter(6) whole through it (tools/testing/vm/
 * lib.sh), with a probe as mcm_abi_procnet.c's on veth0 and veth1.
 */
#ifndef _MCM_ABI_H
#define _MCM_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include <rdma/rdma_mcm_abi.h>

#include "mcm_test.h"

#define SRC_ADDR	"192.0.2.2"	/* veth1, rxe1 */
#define SRC_ADDR0	"192.0.2.1"	/* veth0, rxe0 */
#define UAPI_RST	"/usr/libexec/rdma_mcm/uapi.rst"

/* Fill bytes: what the caller wrote, to tell it from what the kernel did */
#define PAT		0xa5
#define PAT2		0x5a

/* KTAP */
void report(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void expect_errno(int ret, int want, const char *what);
void note_errno(int err);
void check_errnos_documented(void);
const char *errname(int err);
int failed_checks(void);
int nr_checks(void);

/* Addresses and commands */
void set_v4(uint8_t *buf, uint32_t *len, const char *addr);
void set_v4_port(uint8_t *buf, uint32_t *len, const char *addr,
		 uint16_t port);
int open_dev(void);
int create_ctx(int fd, const char *src, uint32_t *ctx_id);
int destroy_ctx(int fd, uint32_t ctx_id);
int join(int fd, uint32_t ctx_id, const char *group, uint32_t flags,
	 uint64_t cookie, uint32_t *handle);
int leave(int fd, uint32_t ctx_id, uint32_t handle,
	  uint32_t *events_reported);
int query(int fd, uint32_t ctx_id, uint32_t handle,
	  struct rdma_mcm_member *m);
int set_events(int fd, uint64_t *mask, uint32_t *size);
int ioctl_sized(int fd, unsigned long cmd, void *arg, size_t size);

/* State */
long live_count(const char *kind);
int live_zero(void);
int list_has_group(int fd, uint32_t ctx, const char *group);
int wait_readable(int fd, int ms);
int igmp_lists(const char *hex);
double now(void);
void *ro_copy(const void *src, size_t len);
int run_cmd(const char *const argv[]);

/* Events (mcm_abi_dev.c) */
#define MAXEV		16
struct got {
	int n;
	int clean;	/* no PAT byte in the records, nothing past them */
	struct rdma_mcm_event ev[MAXEV];
};

void read_all(int fd, struct got *g);
int find_event(const struct got *g, uint32_t type, uint32_t ctx,
	       uint32_t handle);
int open_asking(uint64_t mask);
int readd_rxe1(void);

/* Bytes */
int all_bytes(const void *p, size_t len, uint8_t b);
int has_byte(const void *p, size_t len, uint8_t b);
int member_has_byte(const void *m, size_t msz, uint8_t b);

/* Joins with sources (mcm_abi_src_util.c) */
#define PAT32		0xa5a5a5a5U
#define SRC_A		"192.0.2.1"	/* sources: unicast, of anyone */
#define SRC_B		"198.51.100.7"
#define SRC_C		"192.0.2.3"
#define V6_SRC_A	"2001:db8:6::1"
#define V6_SRC_B	"2001:db8:99::7"
#define NSRC		70		/* room for any nr_sources tried */

extern uint8_t sarr[NSRC * 256];

uint8_t *guarded_page(void);
void *unmapped_page(void);
struct rdma_mcm_source *src_at(uint8_t *arr, uint32_t size, int i);
void put_src4(uint8_t *arr, uint32_t size, int i, const char *addr,
	      uint16_t port);
void put_src6(uint8_t *arr, uint32_t size, int i, const char *addr);
void put_many4(uint8_t *arr, uint32_t size, int n);
void put_group6(uint8_t *buf, uint32_t *len, const char *group);
void join_arg(struct rdma_mcm_join *j, uint32_t ctx, const char *group,
	      const void *srcs, uint32_t nr, uint32_t size);
void join_fails(int fd, const struct rdma_mcm_join *j, int want,
		const char *what);
uint32_t join_works(int fd, struct rdma_mcm_join *j, const char *what);
int joined_event(int fd, uint32_t h, struct rdma_mcm_event *out);
int query_src(int fd, uint32_t ctx, uint32_t h, uint32_t nr,
	      uint32_t flags, struct rdma_mcm_member *out);
int list_cookie(int fd, uint32_t ctx, uint64_t cookie,
		struct rdma_mcm_member *out);

/* /proc/net (mcm_abi_procnet.c) */
long filter_inc(const char *dev, const char *group, const char *source);
int filters_of(const char *group);
long filter6_inc(const char *dev, const char *group, const char *source);
int filters6_of(const char *prefix);
int igmp6_lists(const char *dev, const char *group);
int igmp_on(const char *dev, const char *group);

/* The checks of each source file */
void test_commands(int fd);
void test_create(int fd);
void test_join_leave(int fd, uint32_t ctx);
void test_other_file(int fd, uint32_t ctx);
void test_events(int fd, uint32_t ctx);
void test_unwritable_results(int fd, uint32_t ctx);
void test_batches(int fd, uint32_t ctx);
void test_limits(void);
void test_ext_sizes(int fd, uint32_t ctx);
void test_ext_failures(int fd, uint32_t ctx);
void test_ext_outputs(int fd, uint32_t ctx);
void test_ext_batches(int fd, uint32_t ctx);
void test_ext_list(int fd, uint32_t ctx);
void test_set_events(void);
void test_read_eintr(void);
void test_src_port(void);
void test_device_removed(void);
void test_ctx_flags(void);
void test_query_ctx(void);
void test_route_ctx(void);
void test_heal_device_reset(void);
void test_features(int fd);
void test_old_binary(void);
void test_source_errnos(void);
void test_source_filter(void);
void test_source_batches(void);
void test_v6_roce(void);

#endif /* _MCM_ABI_H */
