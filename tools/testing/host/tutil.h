/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers of the library's unit tests, and the suites each test file
 * adds to test_lib.
 */
#ifndef TUTIL_H
#define TUTIL_H

#include <stdint.h>
#include <sys/socket.h>

#include "librdmamcm.h"

#define SA(ss)	((const struct sockaddr *)&(ss))

/* Event types as mask bits: the healing ones, every one */
#define BIT(t)		RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_##t)
#define HEAL_EVENTS	(BIT(REJOINING) | BIT(REJOINED) | BIT(DEVICE_ADDED))
#define ALL_EVENTS	(RDMA_MCM_EVENTS_DEFAULT | BIT(DEVICE_REMOVED) | \
			 HEAL_EVENTS)

/* A literal address; aborts on a bad one */
struct sockaddr_storage addr(const char *text);

/* A fresh fake, an open channel on it, and a context on 10.0.0.1 */
struct rdma_mcm_channel *setup(int flags, uint32_t *ctx_id);
/* The same, on a fake playing an older or a newer kernel */
struct rdma_mcm_channel *setup_kernel(int flags, uint32_t *ctx_id,
				      int old_kernel, int new_kernel);

/*
 * A fresh fake, a channel asking for every event type, a context with
 * @flags (RDMA_MCM_CTX_*) on 10.0.0.1, or routed to 239.1.1.1
 */
struct rdma_mcm_channel *heal_setup(uint32_t flags, uint32_t *ctx);

/* Join @group (full member) and return the handle */
uint32_t join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
	      const char *group, uint64_t cookie);

int64_t now_ms(void);

/*
 * How long a test waits for something that must happen before it calls it
 * a hang: a guard against a stuck test, never a timing assertion, so it is
 * far above anything a loaded machine takes.
 */
#define HANG_MS		60000

/* An ABI address buffer holding @text */
void entry_addr(uint8_t *dst, const char *text);

/* Suites: test_abi.c, test_heal.c, test_wait.c, test_verbs.c */
void abi_tests(void);
void heal_tests(void);
void wait_tests(void);
void verbs_tests(void);
/* test_nl.c */
void nl_tests(void);
/* test_source.c: source-specific joins, features, the 1.5 versions */
void source_tests(void);

#endif /* TUTIL_H */
