/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_test: what the tests share that the module does not give them, each
 * written once (tools/testing/common/mcm_test.c):
 *
 *   - the statuses a membership may carry, as Documentation/uapi.rst
 *     tables them ("Membership state and status"), and the two sets the
 *     oracles hold the module to: status_documented(), status_waiting();
 *   - the length of a sockaddr of each family the ABI takes
 *     (family_len(), struct mcm_sockaddr_ib);
 *   - the readers and writers of sysctls and of rdma_mcm's module
 *     parameters (read_long(), write_long(), get_param(), set_param());
 *   - die().
 *
 * Linked into the VM programs (abi, fuzz, stress, bench: scripts/vm-run's
 * TEST_PROGRAMS) and into the host tests' fakes (tools/Makefile).
 */
#ifndef MCM_TEST_H
#define MCM_TEST_H

#include <stdbool.h>
#include <stdint.h>

#define MCM_PARAMS	"/sys/module/rdma_mcm/parameters/"

/* sockaddr_ib, which userspace headers do not have */
struct mcm_sockaddr_ib {
	uint16_t sib_family;
	uint16_t sib_pkey;
	uint32_t sib_flowinfo;
	uint8_t sib_addr[16];
	uint64_t sib_sid;
	uint64_t sib_sid_mask;
	uint64_t sib_scope_id;
};

/*
 * A row of uapi.rst's status table: when the module reports the (positive)
 * errno @err as a membership's status
 */
enum {
	/* the status of an ERROR event or of a membership in state error */
	MCM_ST_ERROR	= 1 << 0,
	/* REJOINING's reason, a waiting membership's status (transient) */
	MCM_ST_WAITING	= 1 << 1,
	/* the same, of a route context only (RDMA_MCM_CTX_ROUTE) */
	MCM_ST_ROUTE	= 1 << 2,
	/* a rejoin on another device only (what the new one refuses) */
	MCM_ST_REJOIN	= 1 << 3,
};

struct mcm_status {
	int err;
	unsigned int when;	/* MCM_ST_* */
};

extern const struct mcm_status mcm_statuses[];
extern const unsigned int mcm_nr_statuses;

bool status_documented(int32_t status);
bool status_waiting(int32_t status);

uint32_t family_len(int family);

long read_long(const char *path);
int write_long(const char *path, long v);
long get_param(const char *name);
int set_param(const char *name, unsigned int value);

void die(const char *what);

#endif
