/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: the /dev/rdma_mcm char device's own declarations.
 *
 *   rdma_mcm_cdev.c         the misc device, open and release, ioctl dispatch
 *   rdma_mcm_cdev_cmds.c    the ioctl commands
 *   rdma_mcm_cdev_events.c  the file's event queue: callbacks in, read() out
 *   rdma_mcm_limits.c       limits per file and per user, across all of a
 *                           user's files (rdma_mcm_limits.h: the netlink
 *                           family shows them too)
 *
 * Each open file owns its contexts and memberships. Commands are
 * serialised by the file's mutex; manager callbacks never take it (they
 * only queue an event under the file's event lock), so a leave, which
 * waits for a callback in flight, cannot deadlock against one. The events
 * a membership or a context can produce are embedded in it: nothing is
 * allocated in a callback and no event can be lost.
 */
#ifndef _RDMA_MCM_CDEV_H
#define _RDMA_MCM_CDEV_H

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/rdma/rdma_mcm_abi.h>

#include "rdma_mcm_internal.h"
#include "rdma_mcm_limits.h"

struct rdma_mcm_user;
struct rdma_mcm_uevent;

/* The event types this kernel knows */
#define RDMA_MCM_EVENTS_KNOWN	(RDMA_MCM_EVENTS_DEFAULT | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
				 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
/**
 * struct rdma_mcm_ufile_kunit - what a KUnit test sets in a file it opens
 *	(rdma_mcm_cdev_kunit_open())
 * @backend: the backend of the file's contexts (NULL: the real one)
 * @callback: called at the end of each of the file's manager callbacks,
 *	after the event @uev stands for was queued (or filtered out), with no
 *	lock held: it may block, to hold the callback in flight; or NULL
 * @priv: passed to @callback
 */
struct rdma_mcm_ufile_kunit {
	const struct rdma_mcm_backend *backend;
	void (*callback)(void *priv, struct rdma_mcm_uevent *uev);
	void *priv;
};
#endif

/**
 * struct rdma_mcm_ufile - one open file of /dev/rdma_mcm
 * @mutex: serialises every command of the file
 * @net: the opener's network namespace
 * @user: the opener's account for the per-user limits
 * @contexts: ctx_id -> struct rdma_mcm_uctx
 * @next_ctx: cursor for cyclic context ids
 * @nr_contexts: contexts of this file
 * @nr_members: memberships of this file
 * @ev_lock: protects @events, every uevent, events_reported, @event_mask
 *	and @event_size
 * @events: queued events, oldest first
 * @poll_wait: woken when an event is queued
 * @event_mask: the event types this file reads (RDMA_MCM_EVENT_BIT())
 * @event_size: the size of each event read() returns
 * @kunit: a KUnit test's backend and hook (KUnit builds only)
 */
struct rdma_mcm_ufile {
	struct mutex mutex;	/* see above */
	struct net *net;
	struct rdma_mcm_user *user;
	struct xarray contexts;
	u32 next_ctx;
	unsigned int nr_contexts;
	unsigned int nr_members;

	spinlock_t ev_lock;	/* see above */
	struct list_head events;
	wait_queue_head_t poll_wait;
	u64 event_mask;
	u32 event_size;
#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
	struct rdma_mcm_ufile_kunit kunit;
#endif
};

/*
 * The backend of a file's contexts: a KUnit test's, or NULL for rdma_cm's
 * (rdma_mcm_open_face() picks it: the char device never names a backend)
 */
static inline const struct rdma_mcm_backend *
rdma_mcm_ufile_backend(const struct rdma_mcm_ufile *file)
{
#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
	return file->kunit.backend;
#else
	return NULL;
#endif
}

/* A callback of the file is done with @uev: a KUnit test's hook, if any */
static inline void rdma_mcm_ufile_kunit_hook(struct rdma_mcm_ufile *file,
					     struct rdma_mcm_uevent *uev)
{
#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
	if (file->kunit.callback)
		file->kunit.callback(file->kunit.priv, uev);
#endif
}

/**
 * struct rdma_mcm_uevent - a place on the file's event queue
 * @node: entry in the file's @events
 * @queued: on the queue
 * @type: RDMA_MCM_EVENT_*
 *
 * One per event type a membership or context can produce; queued at most
 * once, so an unread ERROR reports the latest status.
 */
struct rdma_mcm_uevent {
	struct list_head node;
	bool queued;
	u8 type;
};

/**
 * struct rdma_mcm_uctx - a context of a file
 * @file: the file
 * @ctx: the manager's context
 * @id: its id in the file
 * @members: its struct rdma_mcm_umember (by handle: the manager's
 *	rdma_mcm_leave_context())
 * @removed: its DEVICE_REMOVED event
 * @added: its DEVICE_ADDED event
 * @added_port: the port DEVICE_ADDED reports (under the file's ev_lock)
 */
struct rdma_mcm_uctx {
	struct rdma_mcm_ufile *file;
	struct rdma_mcm_ctx *ctx;
	u32 id;
	struct list_head members;
	struct rdma_mcm_uevent removed;
	struct rdma_mcm_uevent added;
	u8 added_port;
};

/**
 * struct rdma_mcm_ujoin - a JOINED event's data, kept small: every
 * membership of every file has one
 * @mgid: the multicast GID (also the event's dgid)
 * @qkey: Q_Key
 * @flow_label: of the address handle's GRH
 * @mlid: multicast LID (0 on RoCE)
 * @sl: service level
 * @hop_limit: of the GRH
 * @traffic_class: of the GRH
 * @port_num: the port
 */
struct rdma_mcm_ujoin {
	u8 mgid[16];
	u32 qkey;
	u32 flow_label;
	u16 mlid;
	u8 sl;
	u8 hop_limit;
	u8 traffic_class;
	u8 port_num;
};

/**
 * struct rdma_mcm_umember - what the file keeps per membership
 * @uctx: its context
 * @node: entry in @uctx->members
 * @cookie: the join's cookie
 * @handle: the membership's handle
 * @join_flags: the join's flags
 * @nr_sources: the join's sources, charged to the file's user
 * @events_reported: events of it read() so far (under the file's ev_lock)
 * @error_status: the status its ERROR event reports (under ev_lock)
 * @rejoin_status: the reason its REJOINING event reports (under ev_lock)
 * @joined: its JOINED event
 * @error: its ERROR event
 * @rejoining: its REJOINING event
 * @rejoined: its REJOINED event
 * @join: what the latest JOINED (or REJOINED) reports beyond the
 *	membership's ids (under ev_lock); every event is built at read()
 *	time (the event's dgid is the MGID, as in rdma_cm's join event)
 */
struct rdma_mcm_umember {
	struct rdma_mcm_uctx *uctx;
	struct list_head node;
	u64 cookie;
	u32 handle;
	u32 join_flags;
	u32 nr_sources;
	u32 events_reported;
	int error_status;
	int rejoin_status;
	struct rdma_mcm_ujoin join;
	struct rdma_mcm_uevent joined;
	struct rdma_mcm_uevent error;
	struct rdma_mcm_uevent rejoining;
	struct rdma_mcm_uevent rejoined;
};

/* rdma_mcm_cdev.c */
int rdma_mcm_cdev_register(void);
void rdma_mcm_cdev_unregister(void);
extern const struct file_operations rdma_mcm_cdev_fops;	/* for KUnit */
struct rdma_mcm_uctx *rdma_mcm_uctx_alloc(void);
void rdma_mcm_uctx_free(struct rdma_mcm_uctx *uctx);
struct rdma_mcm_umember *rdma_mcm_umember_alloc(void);
void rdma_mcm_umember_free(struct rdma_mcm_umember *um);
#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
int rdma_mcm_cdev_kunit_open(struct file *filp,
			     const struct rdma_mcm_ufile_kunit *kunit);
#endif

/* rdma_mcm_cdev_events.c */
extern const struct rdma_mcm_ops rdma_mcm_ufile_ops;
extern const struct rdma_mcm_face rdma_mcm_ufile_face;
u32 rdma_mcm_purge_member(struct rdma_mcm_ufile *file,
			  struct rdma_mcm_umember *um, struct rdma_mcm_ctx *ctx);
void rdma_mcm_purge_uctx(struct rdma_mcm_ufile *file,
			 struct rdma_mcm_uctx *uctx);
int rdma_mcm_set_events(struct rdma_mcm_ufile *file, u64 *mask, u32 *size);
ssize_t rdma_mcm_cdev_read(struct file *filp, char __user *buf, size_t len,
			   loff_t *pos);
__poll_t rdma_mcm_cdev_poll(struct file *filp, poll_table *wait);

/* rdma_mcm_cdev_cmds.c */
void rdma_mcm_destroy_uctx(struct rdma_mcm_uctx *uctx);
long rdma_mcm_cdev_dispatch(struct rdma_mcm_ufile *file, unsigned int cmd,
			    void __user *argp);
void rdma_mcm_abi_layout_check(void);

#endif /* _RDMA_MCM_CDEV_H */
