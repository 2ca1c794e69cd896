/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A fake /dev/rdma_mcm in the test process: the ioctl and read paths of
 * the ABI, with the kernel's rules (struct sizes from VER0 up, a longer
 * struct's tail must be zero, whole event records of the negotiated size,
 * only the event types asked for, leave purges the membership's
 * undelivered events and reports events_reported, close leaves all), and
 * an eventfd that polls readable while events are queued. Joins complete
 * when the test says so, or at once with auto_complete.
 *
 * Healing contexts (RDMA_MCM_CTX_HEAL) as the header describes them: a
 * transient error (-ENETRESET, -ETIMEDOUT, -ENOMEM) or the loss of the
 * device makes a membership WAITING with a REJOINING event, the test
 * joins it again (REJOINED), a device goes (REJOINING -ENODEV, then
 * DEVICE_REMOVED) and comes back (DEVICE_ADDED, then REJOINED for every
 * waiting membership); QUERY and LIST report rejoins, last_status and the
 * time of the last change of state (CLOCK_BOOTTIME). A ROUTE context's
 * address is a destination; the fake's routing table (route_src) gives
 * the library its source.
 *
 * Source-specific joins (fake_src.c): JOIN and BATCH_JOIN take sources,
 * checked with the module's rules and errnos; QUERY and LIST report
 * nr_sources, and flags RDMA_MCM_MEMBER_JOINED_BY_MCM for an IPv6 group
 * on RoCE; VERSION reports the features. The sources of the last join
 * are kept, as the kernel read them, for the tests.
 *
 * It can play the module before sources (no_sources: 152-byte joins and
 * join entries, so a join with sources is E2BIG, 200-byte members,
 * features 0), the module before healing (no_heal: no context flags,
 * 184-byte members, no new event types, no sources either), an older one
 * still (no SET_EVENTS: ENOTTY) or a newer one whose events and member
 * entries are longer, with non-zero tails. Every entry point takes one
 * lock, so that threads may share it.
 */
#ifndef FAKE_DEV_H
#define FAKE_DEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <rdma/rdma_mcm_abi.h>

#define FAKE_MAX_CTX		8
#define FAKE_MAX_MEMBERS	512
#define FAKE_MAX_EVENTS		1024
/* What a newer kernel adds to events and member entries */
#define FAKE_GROW		8
/* The byte a newer kernel fills its new fields with */
#define FAKE_TAIL		0xee

struct fake_member {
	int used;
	uint32_t ctx_id;
	struct rdma_mcm_member m;
	uint8_t tail[FAKE_GROW];	/* a newer kernel's fields */
};

struct fake_event {
	struct rdma_mcm_event ev;
	uint8_t tail[FAKE_GROW];	/* a newer kernel's fields */
};

struct fake_ctx {
	int used;
	uint32_t id;
	uint16_t family;
	uint32_t next_handle;
	uint32_t flags;			/* RDMA_MCM_CTX_* */
	int no_device;			/* its device went away */
	uint8_t port;			/* its port (events' port_num) */
	struct sockaddr_storage src;	/* its source (a ROUTE one: the route's) */
};

struct fake_dev {
	int efd;			/* -1 while closed */
	uint32_t next_ctx;
	struct fake_ctx ctx[FAKE_MAX_CTX];
	struct fake_member mem[FAKE_MAX_MEMBERS];
	unsigned int nr_members;
	unsigned int max_members;	/* more joins: -ENOBUFS */
	struct fake_event q[FAKE_MAX_EVENTS];
	unsigned int qlen;
	uint32_t ev_size;		/* this file's event size */
	uint64_t ev_mask;		/* this file's event types */

	/* behaviour */
	int auto_complete;		/* JOIN queues its event at once */
	int auto_rejoin;		/* WAITING is joined again at once */
	int32_t fail_status;		/* ... an ERROR with this status for */
	uint8_t fail_group[16];		/* ... this group key (IPv4: 4 bytes) */
	uint8_t remove_group[16];	/* joined, then its device goes away */
	int device_back;		/* ... and comes back (healing) */
	uint8_t rejoin_group[16];	/* joined, lost (-ENETRESET), rejoined */
	uint8_t wait_group[16];		/* joined, lost (-ENETRESET), waits */
	int version_errno;		/* VERSION fails with this errno */
	uint32_t abi_version;		/* VERSION reports this */
	int old_kernel;			/* no SET_EVENTS: ENOTTY (and no_heal) */
	int no_heal;			/* the module before healing */
	int new_kernel;			/* events, members FAKE_GROW longer */
	int no_query_ctx;		/* a module without QUERY_CTX */
	int no_sources;			/* the module before sources */
	int ib_port;			/* the contexts' port is InfiniBand */
	unsigned int igmp_max_msf;	/* net.ipv4.igmp_max_msf */
	unsigned int mld_max_msf;	/* net.ipv6.mld_max_msf */
	char dev_name[64];		/* QUERY_CTX: the contexts' device */
	uint64_t node_guid;		/* ... its node GUID (network order) */
	struct sockaddr_storage route_src; /* the route to any group */
	uint32_t route_ifindex;		/* ... out of this netdev */
	int route_errno;		/* ... or no route: this errno */
	unsigned int nr_routes;		/* route lookups */

	/* what the library did */
	unsigned int nr_ioctls;
	unsigned int nr_reads;
	unsigned int nr_leaves;
	unsigned int nr_opens;
	unsigned int nr_set_events;
	uint32_t ioc_size[16];		/* _IOC_SIZE of each command, last */
	uint32_t entry_size[16];	/* entry_size of LIST and BATCH, last */
	uint32_t read_len;		/* length of the last read() */
	unsigned int nr_source_joins;	/* joins that had sources */
	uint32_t last_nr_sources;	/* the last such join's: its count */
	uint32_t last_source_size;	/* ... its source_size */
	struct rdma_mcm_source last_src[RDMA_MCM_MAX_SOURCES]; /* ... them */
};

extern struct fake_dev fake;

/* Reset the fake and make the library open it instead of the device. */
void fake_install(void);
/* Reset the fake only (fake_preload.c: a program's libc calls reach it) */
void fake_reset(void);

/* The fake's file, as the library's struct rdma_mcm_io calls it */
int fake_file_open(void);
int fake_file_ioctl(int fd, unsigned long req, void *arg);
ssize_t fake_file_read(int fd, void *buf, size_t len);
void fake_file_close(int fd);

/* Complete a join: JOINED if @status is 0, else ERROR with @status. */
int fake_complete(uint32_t ctx_id, uint32_t handle, int32_t status);

/* Complete every join in flight (JOINED); returns how many. */
int fake_complete_all(void);

/* A joined membership is lost: ERROR with @status; its MGID stays. */
int fake_lose(uint32_t ctx_id, uint32_t handle, int32_t status);

/* The context's device goes away: DEVICE_REMOVED, for files that asked. */
int fake_device_removed(uint32_t ctx_id);

/*
 * The context's device goes, as the module plays it: a healing context's
 * joining and joined memberships are WAITING (REJOINING -ENODEV), a
 * plain context's in ERROR (-ENODEV); then DEVICE_REMOVED. Joins in the
 * context fail with ENODEV until it is back.
 */
int fake_device_gone(uint32_t ctx_id);

/*
 * A healing context has a device again: DEVICE_ADDED (port @port), then,
 * with @rejoin, REJOINED for each waiting membership. Returns -1 for a
 * context that has no healing flag or still has its device.
 */
int fake_device_back(uint32_t ctx_id, uint8_t port, int rejoin);

/* A waiting membership is joined again: REJOINED, with MLID @mlid */
int fake_rejoin(uint32_t ctx_id, uint32_t handle, uint16_t mlid);

/* The kernel's size of an event and of a member entry, as set up */
size_t fake_event_size(void);
size_t fake_member_size(void);
/* ... of a join and of a join entry: 152 before sources, else 168 */
size_t fake_join_size(void);
/* Whether the module it plays has sources (and features) */
int fake_has_sources(void);
/* VERSION's features */
uint32_t fake_features(void);

/* One join, as JOIN and BATCH_JOIN pass it */
struct fake_join_req {
	uint32_t ctx_id;
	uint64_t cookie;
	uint32_t flags;
	uint32_t addr_len;
	const uint8_t *addr;
	uint64_t sources;		/* user pointer */
	uint32_t nr_sources;
	uint32_t source_size;
};

/* fake_dev.c, for fake_cmds.c and fake_io.c: with the fake's lock held */
struct fake_ctx *fake_find_ctx(uint32_t id);
int fake_join_one(const struct fake_join_req *r, uint32_t *handle);
/*
 * fake_src.c: a join's sources, as the module checks them, for context
 * @c and group @group: 0 (then recorded as the last) or -errno
 */
int fake_check_sources(const struct fake_ctx *c,
		       const struct fake_join_req *r);
int fake_leave_one(uint32_t ctx_id, uint32_t flags, uint32_t handle,
		   uint32_t addr_len, const uint8_t *addr,
		   uint32_t *events_reported);
int fake_do_list(struct rdma_mcm_list *l);
int fake_do_batch_join(struct rdma_mcm_batch *b);
int fake_do_batch_leave(struct rdma_mcm_batch *b);
int fake_do_set_events(struct rdma_mcm_set_events *se);
void fake_lock(void);
void fake_unlock(void);
int fake_dispatch(unsigned long nr, void *arg);
ssize_t fake_read_events(void *buf, size_t len);
void fake_close_file(void);

/* The fake's membership, or NULL */
struct fake_member *fake_find(uint32_t ctx_id, uint32_t handle);

/* The MGID the fake gives a group (RoCE style: IPv4-mapped for IPv4) */
void fake_mgid(const uint8_t *addr, uint8_t mgid[16]);

/* CLOCK_BOOTTIME in ns, as state_time_ns */
uint64_t fake_boottime_ns(void);

/* The fake's routing table, for the library (struct rdma_mcm_io.route) */
int fake_route(void *priv, const struct sockaddr *dst,
	       struct sockaddr_storage *src, uint32_t *ifindex);

#endif /* FAKE_DEV_H */
