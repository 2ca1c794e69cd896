/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: internal declarations shared by the module's source files.
 */
#ifndef _RDMA_MCM_INTERNAL_H
#define _RDMA_MCM_INTERNAL_H

#include <linux/fault-inject.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_mcm.h>

struct ib_device;

/* rdma_mcm_ib.c: the ib_client that tracks RDMA devices */
int rdma_mcm_ib_client_register(void);
void rdma_mcm_ib_client_unregister(void);
unsigned int rdma_mcm_ib_device_count(void);

/* rdma_mcm_debugfs.c: /sys/kernel/debug/rdma_mcm */
void rdma_mcm_debugfs_init(void);
void rdma_mcm_debugfs_exit(void);

/* rdma_mcm_cdev.c: the /dev/rdma_mcm misc device */
int rdma_mcm_cdev_register(void);
void rdma_mcm_cdev_unregister(void);
extern const struct file_operations rdma_mcm_cdev_fops;	/* for KUnit */

/**
 * struct rdma_mcm_backend - the rdma_cm and verbs calls the manager makes
 * @create_id: rdma_create_id() with RDMA_PS_UDP and IB_QPT_UD
 * @bind_addr: rdma_bind_addr()
 * @destroy_id: rdma_destroy_id()
 * @join: rdma_join_multicast()
 * @leave: rdma_leave_multicast()
 * @attach: ib_attach_mcast()
 * @detach: ib_detach_mcast()
 *
 * rdma_mcm_rdma_cm.c has the real one; KUnit replaces it with a fake that
 * completes, delays, fails or drops joins and injects events. Every call
 * gets the backend so that a fake can find its own state.
 */
struct rdma_mcm_backend {
	struct rdma_cm_id *(*create_id)(const struct rdma_mcm_backend *be,
					struct net *net,
					rdma_cm_event_handler handler,
					void *context);
	int (*bind_addr)(const struct rdma_mcm_backend *be,
			 struct rdma_cm_id *id, struct sockaddr *addr);
	void (*destroy_id)(const struct rdma_mcm_backend *be,
			   struct rdma_cm_id *id);
	int (*join)(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		    struct sockaddr *addr, u8 join_state, void *context);
	void (*leave)(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		      struct sockaddr *addr);
	int (*attach)(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		      union ib_gid *gid, u16 lid);
	int (*detach)(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		      union ib_gid *gid, u16 lid);
};

extern const struct rdma_mcm_backend rdma_mcm_rdma_cm_backend;

/* Notifications a membership has queued for its ULP (member->pending). */
#define RDMA_MCM_NOTIFY_JOINED	BIT(0)
#define RDMA_MCM_NOTIFY_ERROR	BIT(1)

/**
 * struct rdma_mcm_slot - one rdma_cm_id and the memberships joined on it
 * @ctx: the owning context
 * @id: the rdma_cm_id, bound to the context's source address
 * @node: entry in @ctx->slots
 * @free_node: entry in @ctx->free_slots while it has room
 * @count: memberships joined on @id
 *
 * rdma_leave_multicast() scans the id's list of groups, so a context
 * spreads its memberships over several ids of at most rdma_mcm_slot_size
 * groups each: a leave then costs O(slot size), not O(memberships).
 * Protected by the context's mutex.
 */
struct rdma_mcm_slot {
	struct rdma_mcm_ctx *ctx;
	struct rdma_cm_id *id;
	struct list_head node;
	struct list_head free_node;
	unsigned int count;
};

/* Group address as a hash key: the address bytes, zero padded. */
struct rdma_mcm_key {
	u8 raw[16];
};

/*
 * Any address rdma_mcm keeps: 48 bytes (sockaddr_ib), not the 128 of a
 * sockaddr_storage, in every membership.
 */
union rdma_mcm_addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_ib ib;
};

/**
 * struct rdma_mcm_membership - one membership
 * @ctx: the owning context
 * @slot: the slot it is joined on; NULL once its id is gone
 * @handle: its handle in @ctx->members
 * @key: the group as hash key
 * @hnode: entry in @ctx->groups
 * @group: the group address
 * @join_type: full or send-only
 * @qp: the ULP's QP to attach, or NULL
 * @context: the ULP's per-membership context
 * @ref: references: the tables hold one, a callback in flight another
 * @state: see enum rdma_mcm_state; changed only by rdma_mcm_set_state()
 * @status: the error in %RDMA_MCM_ERROR
 * @pending: RDMA_MCM_NOTIFY_* not yet delivered
 * @pending_node: entry in @ctx->pending while @pending is not zero
 * @cm_joined: rdma_cm holds a membership that leave must drop
 * @qp_attached: @qp is attached to the group
 * @have_join: @mgid, @mlid and @qkey are valid
 * @have_ah: @ah_attr is valid and holds a GID table reference, dropped
 *	when the member is freed or its device goes away
 * @ah_attr: from the join event
 * @mgid: multicast GID
 * @mlid: multicast LID
 * @qkey: Q_Key
 *
 * @state, @status, @pending and the join data are protected by the
 * context's spinlock; the rest is set before the member is published or
 * changed under the context's mutex.
 */
struct rdma_mcm_membership {
	struct rdma_mcm_ctx *ctx;
	struct rdma_mcm_slot *slot;
	u32 handle;
	struct rdma_mcm_key key;
	struct rhash_head hnode;
	union rdma_mcm_addr group;
	enum rdma_mcm_join_type join_type;
	struct ib_qp *qp;
	void *context;
	refcount_t ref;

	enum rdma_mcm_state state;
	int status;
	unsigned int pending;
	struct list_head pending_node;
	bool cm_joined;
	bool qp_attached;
	bool have_join;
	bool have_ah;
	struct rdma_ah_attr ah_attr;
	union ib_gid mgid;
	u16 mlid;
	u32 qkey;
};

/**
 * struct rdma_mcm_ctx - a ULP's manager context
 * @net: network namespace (a reference is held)
 * @src: the local source address every id is bound to
 * @ops: the ULP's callbacks
 * @priv: the ULP's private pointer, passed to the callbacks
 * @be: rdma_cm/verbs backend
 * @mutex: serialises join, leave, close, slot management, QP attach and
 *	detach, and device-loss teardown; held across rdma_cm calls, never
 *	taken by the rdma_cm event handler and never held across a callback
 * @lock: protects member states and notifications, @pending, and the
 *	callback bookkeeping; taken by the rdma_cm event handler
 * @members: handle -> member
 * @groups: group key -> member
 * @next_handle: cursor for cyclic handle allocation
 * @slots: every slot
 * @free_slots: slots with room for another membership
 * @nr_slots: length of @slots
 * @work: delivers notifications and handles device loss
 * @free_work: frees the context after a close from one of its callbacks
 * @pending: members with notifications to deliver, in order
 * @cb_member: the member whose callback is running, or NULL
 * @cb_task: the task running a callback, or NULL
 * @cb_wq: woken when a callback returns
 * @closing: rdma_mcm_close() was called: no more callbacks or joins
 * @close_deferred: close was called from a callback; the work frees
 * @device_lost: the device went away; joins fail with -ENODEV
 * @device_lost_pending: the work must tear down the ids
 */
struct rdma_mcm_ctx {
	struct net *net;
	union rdma_mcm_addr src;
	const struct rdma_mcm_ops *ops;
	void *priv;
	const struct rdma_mcm_backend *be;

	struct mutex mutex;	/* see above */
	spinlock_t lock;	/* see above */
	struct xarray members;
	struct rhashtable groups;
	u32 next_handle;
	struct list_head slots;
	struct list_head free_slots;
	unsigned int nr_slots;

	struct work_struct work;
	struct work_struct free_work;
	struct list_head pending;
	struct rdma_mcm_membership *cb_member;
	struct task_struct *cb_task;
	wait_queue_head_t cb_wq;
	bool closing;
	bool close_deferred;
	bool device_lost;
	bool device_lost_pending;
};

/* rdma_mcm_state.c: the membership state machine */
bool rdma_mcm_transition_valid(enum rdma_mcm_state from,
			       enum rdma_mcm_state to);
bool rdma_mcm_set_state(struct rdma_mcm_membership *mb, enum rdma_mcm_state to,
			int status);

/* rdma_mcm_addr.c: address checks */
int rdma_mcm_addr_parse(const struct sockaddr *sa, size_t len,
			union rdma_mcm_addr *out);
int rdma_mcm_group_parse(const struct sockaddr *sa, size_t len,
			 sa_family_t family, union rdma_mcm_addr *out,
			 struct rdma_mcm_key *key);
void rdma_mcm_addr_to_storage(const union rdma_mcm_addr *addr,
			      struct sockaddr_storage *ss);

/* rdma_mcm_core.c: the manager */
int rdma_mcm_core_init(void);
void rdma_mcm_core_exit(void);
struct rdma_mcm_ctx *rdma_mcm_open_backend(struct net *net,
					   const struct sockaddr *src,
					   const struct rdma_mcm_ops *ops,
					   void *priv,
					   const struct rdma_mcm_backend *be);
void rdma_mcm_flush(void);
int rdma_mcm_find_handle(struct rdma_mcm_ctx *ctx, const struct sockaddr *group,
			 u32 *handle);

/**
 * struct rdma_mcm_live - objects alive in the whole module
 * @contexts: open contexts
 * @members: memberships not yet freed
 * @slots: rdma_cm_ids the manager holds
 * @files: open files of the char device
 * @ucontexts: the char device's contexts (of all files)
 * @umembers: the char device's memberships (of all files)
 */
struct rdma_mcm_live {
	int contexts;
	int members;
	int slots;
	int files;
	int ucontexts;
	int umembers;
};

void rdma_mcm_live_objects(struct rdma_mcm_live *live);
void rdma_mcm_cdev_live_objects(struct rdma_mcm_live *live);

/*
 * Fault injection. Every allocation on the open, join and create-context
 * paths (ours, and the ones rdma_cm makes for us) asks rdma_mcm_fail_alloc()
 * first and fails with -ENOMEM when told to. With CONFIG_FAULT_INJECTION
 * it is a fault_attr: the Nth call fails after "N > fail-nth" (the
 * task's current->fail_nth, which the KUnit fault cases use), or at the
 * rate set in debugfs rdma_mcm/fail_alloc/ with
 * CONFIG_FAULT_INJECTION_DEBUG_FS (Documentation/fault-injection). Without
 * it, it compiles away. Leave and close paths allocate nothing.
 */
#ifdef CONFIG_FAULT_INJECTION
extern struct fault_attr rdma_mcm_fail_alloc_attr;

static inline bool rdma_mcm_fail_alloc(void)
{
	return should_fail(&rdma_mcm_fail_alloc_attr, 1);
}
#else
static inline bool rdma_mcm_fail_alloc(void)
{
	return false;
}
#endif

extern unsigned int rdma_mcm_slot_size;

#endif /* _RDMA_MCM_INTERNAL_H */
