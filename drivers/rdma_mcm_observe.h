/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: what the manager shows of itself. Counters (per context, per
 * RDMA device, module-wide), the owner of each context, the walk of every
 * membership that the generic netlink family dumps, and the hooks the
 * manager calls at each change: they count, fire a tracepoint and tell the
 * netlink "events" group.
 *
 *   rdma_mcm_counters.c  counters, errno breakdowns, per-device entries
 *   rdma_mcm_dump.c      the resumable walk of contexts and memberships,
 *                        and who may see what
 *   rdma_mcm_netlink.c   the generic netlink family "rdma_mcm"
 *   rdma_mcm_trace.h     the rdma_mcm: tracepoints
 *
 * Included by rdma_mcm_internal.h; includes nothing of the manager's.
 */
#ifndef _RDMA_MCM_OBSERVE_H
#define _RDMA_MCM_OBSERVE_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/rdma/rdma_mcm_netlink.h>

struct net;
struct pid;
struct rdma_mcm_ctx;
struct rdma_mcm_membership;
struct sk_buff;

/*
 * Errnos told apart in the breakdowns of failed joins and of errors (slot
 * 0 counts any other). Every errno the manager and the char device return
 * for a join, and every status a membership fails or waits with.
 */
#define RDMA_MCM_ERRNO_SLOTS	20

/**
 * struct rdma_mcm_counters - one set of counters
 * @cnt: by enum rdma_mcm_nl_counter
 * @join_failed: joins refused when asked for, by errno slot
 * @errors: memberships that failed or started waiting, by status slot
 */
struct rdma_mcm_counters {
	atomic64_t cnt[__RDMA_MCM_CNT_MAX];
	atomic64_t join_failed[RDMA_MCM_ERRNO_SLOTS];
	atomic64_t errors[RDMA_MCM_ERRNO_SLOTS];
};

/* Room for a command name or a module name (MODULE_NAME_LEN) */
#define RDMA_MCM_OWNER_NAME_LEN	56

/**
 * struct rdma_mcm_owner - who opened a context
 * @pid: the process that created it (/dev/rdma_mcm), a reference held;
 *	NULL for a kernel ULP
 * @uid: its effective uid then
 * @name: its command name then, or the kernel ULP's module name
 * @file_ctx: its id in the file (0 until the char device knows it)
 * @kernel: opened by a kernel ULP
 * @start_ns: CLOCK_BOOTTIME when it was opened
 */
struct rdma_mcm_owner {
	struct pid *pid;
	kuid_t uid;
	char name[RDMA_MCM_OWNER_NAME_LEN];
	u32 file_ctx;
	bool kernel;
	u64 start_ns;
};

/**
 * enum rdma_mcm_live_obj - the objects alive in the whole module
 * @RDMA_MCM_LIVE_CONTEXTS: open contexts
 * @RDMA_MCM_LIVE_MEMBERS: memberships not yet freed
 * @RDMA_MCM_LIVE_SLOTS: rdma_cm_ids the manager holds
 * @RDMA_MCM_LIVE_IPSOCKS: kernel sockets for IGMP/MLD memberships (those
 *	kept empty for the next included)
 * @RDMA_MCM_LIVE_FILES: open files of the char device
 * @RDMA_MCM_LIVE_UCONTEXTS: the char device's contexts (of all files)
 * @RDMA_MCM_LIVE_UMEMBERS: the char device's memberships (of all files)
 * @RDMA_MCM_LIVE_USERS: per-user accounts of the char device's limits
 * @RDMA_MCM_LIVE_NR: their number
 *
 * Each part counts its own in rdma_mcm_live[] (rdma_mcm_counters.c), for
 * debugfs, the netlink family's usage and the tests' leak checks.
 */
enum rdma_mcm_live_obj {
	RDMA_MCM_LIVE_CONTEXTS,
	RDMA_MCM_LIVE_MEMBERS,
	RDMA_MCM_LIVE_SLOTS,
	RDMA_MCM_LIVE_IPSOCKS,
	RDMA_MCM_LIVE_FILES,
	RDMA_MCM_LIVE_UCONTEXTS,
	RDMA_MCM_LIVE_UMEMBERS,
	RDMA_MCM_LIVE_USERS,
	RDMA_MCM_LIVE_NR,
};

/**
 * struct rdma_mcm_live - a snapshot of rdma_mcm_live[]
 * @contexts: open contexts
 * @members: memberships not yet freed
 * @slots: rdma_cm_ids the manager holds
 * @files: open files of the char device
 * @ucontexts: the char device's contexts (of all files)
 * @umembers: the char device's memberships (of all files)
 * @users: per-user accounts of the char device's limits
 * @ipsocks: kernel sockets for IGMP/MLD memberships (kept empty ones too)
 */
struct rdma_mcm_live {
	int contexts;
	int members;
	int slots;
	int files;
	int ucontexts;
	int umembers;
	int users;
	int ipsocks;
};

/* rdma_mcm_counters.c */
extern atomic_t rdma_mcm_live[RDMA_MCM_LIVE_NR];

static inline void rdma_mcm_live_inc(enum rdma_mcm_live_obj obj)
{
	atomic_inc(&rdma_mcm_live[obj]);
}

static inline void rdma_mcm_live_dec(enum rdma_mcm_live_obj obj)
{
	atomic_dec(&rdma_mcm_live[obj]);
}

static inline int rdma_mcm_live_read(enum rdma_mcm_live_obj obj)
{
	return atomic_read(&rdma_mcm_live[obj]);
}

void rdma_mcm_live_objects(struct rdma_mcm_live *live);

extern struct rdma_mcm_counters rdma_mcm_global_counters;
extern atomic64_t rdma_mcm_events_lost;

int rdma_mcm_errno_slot(int err);
int rdma_mcm_slot_errno(int slot);
void rdma_mcm_count(struct rdma_mcm_ctx *ctx, enum rdma_mcm_nl_counter c);
void rdma_mcm_count_n(struct rdma_mcm_ctx *ctx, enum rdma_mcm_nl_counter c,
		      unsigned int n);
void rdma_mcm_count_join_failed(struct rdma_mcm_ctx *ctx, int err);
void rdma_mcm_count_error(struct rdma_mcm_ctx *ctx,
			  enum rdma_mcm_nl_counter c, int status);
u64 rdma_mcm_counter_read(const struct rdma_mcm_counters *c,
			  enum rdma_mcm_nl_counter which);
struct rdma_mcm_counters *rdma_mcm_dev_counters(const char *name);
/* Calls @fn for each device's counters, with the devices' lock held */
int rdma_mcm_dev_counters_walk(int (*fn)(void *arg, const char *name,
					 const struct rdma_mcm_counters *c),
			       void *arg);
unsigned int rdma_mcm_dev_counters_nr(void);
void rdma_mcm_counters_exit(void);

/* rdma_mcm_dump.c */

/**
 * struct rdma_mcm_dump_filter - who walks, and what
 * @net: only contexts of this network namespace
 * @uid: the caller's effective uid
 * @ctx_id: only this context (0: any)
 * @all: the caller has CAP_NET_ADMIN in @net's user namespace: every
 *	context of @net; otherwise only those @uid opened through
 *	/dev/rdma_mcm
 */
struct rdma_mcm_dump_filter {
	struct net *net;
	kuid_t uid;
	u32 ctx_id;
	bool all;
};

/**
 * struct rdma_mcm_dump_pos - where a walk resumes
 * @ctx_id: the first context id it may report
 * @handle: the first handle it may report in that context
 * @done: nothing left
 */
struct rdma_mcm_dump_pos {
	u32 ctx_id;
	u32 handle;
	bool done;
};

/**
 * struct rdma_mcm_ctx_view - what a walk tells of a context
 * @ctx: the context (a reference is held for the call)
 * @dev_name: its device ("" without one)
 * @port: its port (0 without a device)
 * @netdev: the port's network device ("" if none)
 * @members: its memberships
 */
struct rdma_mcm_ctx_view {
	struct rdma_mcm_ctx *ctx;
	char dev_name[64];
	u32 port;
	char netdev[16];
	u32 members;
};

bool rdma_mcm_may_see(const struct rdma_mcm_dump_filter *f,
		      const struct rdma_mcm_ctx *ctx);
int rdma_mcm_walk_members(const struct rdma_mcm_dump_filter *f,
			  struct rdma_mcm_dump_pos *pos,
			  int (*fill)(void *arg,
				      const struct rdma_mcm_ctx_view *cv,
				      const struct rdma_mcm_membership *mb),
			  void *arg);
int rdma_mcm_walk_contexts(const struct rdma_mcm_dump_filter *f,
			   struct rdma_mcm_dump_pos *pos,
			   int (*fill)(void *arg,
				       const struct rdma_mcm_ctx_view *cv),
			   void *arg);
u32 rdma_mcm_member_queued(const struct rdma_mcm_membership *mb);

/* rdma_mcm_netlink.c */
int rdma_mcm_netlink_init(void);
void rdma_mcm_netlink_exit(void);
void rdma_mcm_nl_member_event(struct rdma_mcm_membership *mb,
			      enum rdma_mcm_nl_event ev, int status, int state);
void rdma_mcm_nl_ctx_event(struct rdma_mcm_ctx *ctx,
			   enum rdma_mcm_nl_event ev, const char *dev_name);

/* The hooks, at each change (rdma_mcm_observe.c) */
void rdma_mcm_observe_join(struct rdma_mcm_membership *mb);
void rdma_mcm_observe_join_refused(struct rdma_mcm_membership *mb, int err);
void rdma_mcm_observe_state(struct rdma_mcm_membership *mb, int from, int to,
			    int status);
void rdma_mcm_observe_leave(struct rdma_mcm_membership *mb, int from);
void rdma_mcm_observe_rejoin(struct rdma_mcm_membership *mb);
void rdma_mcm_observe_deliver(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_membership *mb, int what);
void rdma_mcm_observe_device(struct rdma_mcm_ctx *ctx, bool lost,
			     const char *dev_name);

#endif /* _RDMA_MCM_OBSERVE_H */
