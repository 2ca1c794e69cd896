/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A fake /dev/rdma_mcm in the test process: the ioctl and read paths of
 * the ABI, with the kernel's rules (whole event records, leave purges the
 * membership's undelivered events and reports events_reported, close
 * leaves all), and an eventfd that polls readable while events are queued.
 * Joins complete when the test says so, or at once with auto_complete.
 */
#ifndef FAKE_DEV_H
#define FAKE_DEV_H

#include <stdint.h>
#include <rdma/rdma_mcm_abi.h>

#define FAKE_MAX_CTX		8
#define FAKE_MAX_MEMBERS	512
#define FAKE_MAX_EVENTS		1024

struct fake_member {
	int used;
	uint32_t ctx_id;
	struct rdma_mcm_member m;
};

struct fake_ctx {
	int used;
	uint32_t id;
	uint16_t family;
	uint32_t next_handle;
};

struct fake_dev {
	int efd;			/* -1 while closed */
	uint32_t next_ctx;
	struct fake_ctx ctx[FAKE_MAX_CTX];
	struct fake_member mem[FAKE_MAX_MEMBERS];
	unsigned int nr_members;
	unsigned int max_members;	/* more joins: -ENOBUFS */
	struct rdma_mcm_event q[FAKE_MAX_EVENTS];
	unsigned int qlen;

	/* behaviour */
	int auto_complete;		/* JOIN queues its event at once */
	int32_t fail_status;		/* ... an ERROR with this status for */
	uint8_t fail_group[16];		/* ... this group key (IPv4: 4 bytes) */
	int version_errno;		/* VERSION fails with this errno */

	/* what the library did */
	unsigned int nr_ioctls;
	unsigned int nr_reads;
	unsigned int nr_leaves;
	unsigned int nr_opens;
};

extern struct fake_dev fake;

/* Reset the fake and make the library open it instead of the device. */
void fake_install(void);

/* Complete a join: JOINED if @status is 0, else ERROR with @status. */
int fake_complete(uint32_t ctx_id, uint32_t handle, int32_t status);

/* The fake's membership, or NULL */
struct fake_member *fake_find(uint32_t ctx_id, uint32_t handle);

/* The MGID the fake gives a group (RoCE style: IPv4-mapped for IPv4) */
void fake_mgid(const uint8_t *addr, uint8_t mgid[16]);

#endif /* FAKE_DEV_H */
