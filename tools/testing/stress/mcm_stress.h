/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcm_stress: what the stress program's parts share.
 *
 *   mcm_stress.c         settings, processes and threads, the histogram,
 *                        the budget check
 *   mcm_stress_ops.c     the commands and what each must do
 *   mcm_stress_model.c   the files: the contexts and memberships each
 *                        holds, as this program knows them; picking one
 *   mcm_stress_events.c  what each file asked to read, reading it, and
 *                        the events' invariants (DEVICE_REMOVED above all)
 *
 * scripts/vm-run compiles the parts together with the tests' shared
 * helpers, tools/testing/common/mcm_test.c (its TEST_PROGRAMS).
 */
#ifndef MCM_STRESS_H
#define MCM_STRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

#include <rdma/rdma_mcm_abi.h>

#include "mcm_test.h"

#define DEV		"/dev/" RDMA_MCM_DEVICE_NAME
#define MAX_SRC		6
#define MAX_JSRC	3	/* sources of a source-specific join */
#define JSRC_SIZE	200	/* room for each (entries of 136 or 200) */
#define MAX_CTX		4
#define MAX_LIVE	1024
#define MAX_BATCH	32
#define MAX_ERRNO	160
#define ARR_BYTES	(MAX_BATCH * RDMA_MCM_MAX_ENTRY_SIZE)
#define EV_SIZE		sizeof(struct rdma_mcm_event)
#define MAX_READ	16	/* records one read() asks for */
/* The event types this header knows */
#define EVENTS_KNOWN	(RDMA_MCM_EVENTS_DEFAULT | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))
#define WANTS(f, type)	(!!((f)->mask & RDMA_MCM_EVENT_BIT(type)))

enum cmd {
	C_CREATE, C_DESTROY, C_JOIN, C_LEAVE, C_LEAVE_ADDR, C_QUERY, C_LIST,
	C_BATCH_JOIN, C_BATCH_JOIN_ENTRY, C_BATCH_LEAVE, C_BATCH_LEAVE_ENTRY,
	C_READ, C_CLOSE, C_SET_EVENTS, C_NR
};

/* Per-process totals live in shared memory so the parent can sum them. */
struct stats {
	unsigned long op[C_NR];
	unsigned long ok[C_NR];
	unsigned long err[C_NR][MAX_ERRNO];
	unsigned long ev_joined;
	unsigned long ev_error[MAX_ERRNO];
	unsigned long ev_removed;
	unsigned long ev_rejoining, ev_rejoined, ev_added;
	unsigned long heal_ctx;		/* healing contexts created */
	unsigned long ssm_ok;		/* source-specific joins that worked */
	unsigned long v6_ok;		/* joins of IPv6 groups that worked */
	unsigned long records;
	unsigned long violations;
};

/* What every process of the run shares (MAP_SHARED). */
struct run {
	/*
	 * Memberships of private files certainly held: counted after the
	 * join, uncounted before the leave, the destroy, the close. The
	 * kernel holds at least as many for the user.
	 */
	long held;
	struct stats sum[];
};

/* A membership of a private file. */
struct live {
	uint64_t cookie;
	uint32_t ctx;
	uint32_t handle;
	uint32_t group;
	uint16_t family;	/* the group's (its context's) */
	uint8_t nr_sources;	/* a source-specific join's */
	bool err_seen;		/* an ERROR of it was read */
	unsigned int err_epoch;	/* the file's err_epoch when joined */
};

/* A context of a file. */
struct ctxinfo {
	uint32_t id;
	unsigned int src;	/* index in the sources */
	bool removed;		/* its DEVICE_REMOVED was read (not healing) */
	bool enodev;		/* a JOIN on it failed with ENODEV */
	bool heal;		/* RDMA_MCM_CTX_HEAL */
	bool dr_seen;		/* a DEVICE_REMOVED of it was read */
	unsigned int dr_epoch;	/* the file's dr_epoch when created */
};

/*
 * A file and what this program knows of it. What it reads (@mask,
 * @evsize) is exact on every file: a private file negotiates in its
 * thread, the shared one once before its threads start. The epochs move
 * whenever SET_EVENTS turns ERROR (DEVICE_REMOVED) on or off: an event
 * may have been dropped, or never queued, across such a change.
 */
struct file {
	int fd;
	bool own;		/* a thread's private file */
	int nctx;
	struct ctxinfo ctx[MAX_CTX];
	int nlive;		/* exact on a private file only */
	struct live live[MAX_LIVE];
	pthread_mutex_t lock;	/* bookkeeping of a shared file */
	uint64_t mask;		/* event types it reads */
	uint32_t evsize;	/* bytes of each record */
	unsigned int err_epoch, dr_epoch;
};

struct thread {
	int index;
	uint64_t rng;
	uint64_t next_cookie;
	struct file own;
	struct file *shared;
	bool all_events;	/* its private file asks for every type */
	struct stats st;
	uint8_t *arr, *copy;	/* ARR_BYTES each: batch and list arrays */
	uint8_t *srcs;		/* MAX_BATCH joins' sources */
	pthread_t tid;
};

/* mcm_stress.c */
extern const char *const cmd_name[C_NR];
union srcaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

extern union srcaddr src[MAX_SRC];
extern int nsrc;
extern int lost_src;
extern unsigned int ngroups, max_memberships, close_percent;
extern unsigned int max_user_memberships, max_user_contexts;
extern bool user_mem_limited, user_ctx_limited;
extern struct run *run;
uint64_t rnd(struct thread *t);
unsigned int pick(struct thread *t, unsigned int n);
void violated(struct thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void count(struct thread *t, enum cmd c, int ret);
int xioctl(int fd, unsigned long req, void *arg);
void lock_shared(struct file *f);
void unlock_shared(struct file *f);
void held_add(struct thread *t, long n);

/* mcm_stress_model.c */
int file_open(struct file *f);
struct ctxinfo *ctx_find(struct file *f, uint32_t id);
struct live *live_find(struct file *f, uint64_t cookie);
struct live *live_find_handle(struct file *f, uint32_t ctx,
			      uint32_t handle);
struct live *live_find_group(struct file *f, uint32_t ctx,
			     uint32_t group);
void live_add(struct thread *t, struct file *f, uint64_t cookie,
	      uint32_t ctx, uint32_t handle, uint32_t group,
	      int family, uint32_t nr_sources);
void live_drop(struct file *f, struct live *l);
int live_in_ctx(struct file *f, uint32_t ctx);
void ctx_forget(struct file *f, int i);
int ctx_pick_family(struct thread *t, struct file *f, uint32_t *ctx,
		    int *family);
int ctx_pick(struct thread *t, struct file *f, uint32_t *ctx);
int member_pick(struct thread *t, struct file *f, struct live *out);

/* mcm_stress_ops.c */
void op_create(struct thread *t, struct file *f);
void op_destroy(struct thread *t, struct file *f);
void op_join(struct thread *t, struct file *f);
void op_leave(struct thread *t, struct file *f, int by_addr);
void op_query(struct thread *t, struct file *f);
void op_list(struct thread *t, struct file *f);
void op_batch_join(struct thread *t, struct file *f);
void op_batch_leave(struct thread *t, struct file *f);
void op_close(struct thread *t, struct file *f);

/* mcm_stress_events.c */
void negotiate(struct thread *t, struct file *f, bool fixed);
void op_set_events(struct thread *t, struct file *f);
void op_read(struct thread *t, struct file *f);
void await_device_notices(struct thread *t, struct file *f);

#endif /* MCM_STRESS_H */
