// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the event queue of a /dev/rdma_mcm file. The manager's
 * callbacks queue a membership's or a context's embedded event under the
 * file's event lock; read() copies them out in the size, and of the types,
 * the file asked for (RDMA_MCM_IOC_SET_EVENTS).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_cdev.h"

static bool rdma_mcm_wants(const struct rdma_mcm_ufile *file, u8 type)
{
	lockdep_assert_held(&file->ev_lock);
	return file->event_mask & RDMA_MCM_EVENT_BIT(type);
}

/*
 * Queue @uev at the end; one still unread moves to the end, so the last
 * event read of a membership (or context) is always its latest: after
 * REJOINING, REJOINED, REJOINING, the reader sees REJOINED then REJOINING.
 */
static void rdma_mcm_queue_event(struct rdma_mcm_ufile *file,
				 struct rdma_mcm_uevent *uev)
{
	lockdep_assert_held(&file->ev_lock);
	if (uev->queued) {
		list_move_tail(&uev->node, &file->events);
	} else if (rdma_mcm_wants(file, uev->type)) {
		list_add_tail(&uev->node, &file->events);
		uev->queued = true;
	}
}

/* Return: 1 if @uev was queued (and is purged), else 0 */
static unsigned int rdma_mcm_unqueue_event(struct rdma_mcm_uevent *uev)
{
	bool was = uev->queued;

	if (was)
		list_del(&uev->node);
	uev->queued = false;
	return was;
}

/* The event @uev stands for, as read() returns it. */
static void rdma_mcm_build_event(const struct rdma_mcm_uevent *uev,
				 struct rdma_mcm_event *ev)
{
	const struct rdma_mcm_umember *um;
	const struct rdma_mcm_uctx *uctx;

	memset(ev, 0, sizeof(*ev));
	switch (uev->type) {
	case RDMA_MCM_EVENT_JOINED:
	case RDMA_MCM_EVENT_REJOINED:
		um = uev->type == RDMA_MCM_EVENT_JOINED ?
		     container_of(uev, struct rdma_mcm_umember, joined) :
		     container_of(uev, struct rdma_mcm_umember, rejoined);
		ev->cookie = um->cookie;
		ev->event = uev->type;
		ev->ctx_id = um->uctx->id;
		ev->handle = um->handle;
		ev->qkey = um->join.qkey;
		ev->mlid = um->join.mlid;
		ev->sl = um->join.sl;
		ev->hop_limit = um->join.hop_limit;
		ev->flow_label = um->join.flow_label;
		ev->traffic_class = um->join.traffic_class;
		ev->port_num = um->join.port_num;
		ev->is_global = 1;
		memcpy(ev->mgid, um->join.mgid, sizeof(ev->mgid));
		memcpy(ev->dgid, um->join.mgid, sizeof(ev->dgid));
		return;
	case RDMA_MCM_EVENT_ERROR:
	case RDMA_MCM_EVENT_REJOINING:
		um = uev->type == RDMA_MCM_EVENT_ERROR ?
		     container_of(uev, struct rdma_mcm_umember, error) :
		     container_of(uev, struct rdma_mcm_umember, rejoining);
		ev->cookie = um->cookie;
		ev->event = uev->type;
		ev->status = uev->type == RDMA_MCM_EVENT_ERROR ?
			     um->error_status : um->rejoin_status;
		ev->ctx_id = um->uctx->id;
		ev->handle = um->handle;
		return;
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		uctx = container_of(uev, struct rdma_mcm_uctx, added);
		ev->event = RDMA_MCM_EVENT_DEVICE_ADDED;
		ev->ctx_id = uctx->id;
		ev->port_num = uctx->added_port;
		return;
	default:
		uctx = container_of(uev, struct rdma_mcm_uctx, removed);
		ev->event = RDMA_MCM_EVENT_DEVICE_REMOVED;
		ev->status = -ENODEV;
		ev->ctx_id = uctx->id;
		return;
	}
}

/* An event was read: count it against its membership. */
static void rdma_mcm_event_reported(struct rdma_mcm_uevent *uev)
{
	struct rdma_mcm_umember *um;

	switch (uev->type) {
	case RDMA_MCM_EVENT_JOINED:
		um = container_of(uev, struct rdma_mcm_umember, joined);
		break;
	case RDMA_MCM_EVENT_ERROR:
		um = container_of(uev, struct rdma_mcm_umember, error);
		break;
	case RDMA_MCM_EVENT_REJOINING:
		um = container_of(uev, struct rdma_mcm_umember, rejoining);
		break;
	case RDMA_MCM_EVENT_REJOINED:
		um = container_of(uev, struct rdma_mcm_umember, rejoined);
		break;
	default:
		return;		/* a context's */
	}
	um->events_reported++;
}

/* JOINED and REJOINED: what the event reports, kept for read(). */
static void rdma_mcm_ufile_joined_as(void *priv,
				     const struct rdma_mcm_join_info *info,
				     bool rejoined)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_umember *um = info->context;
	const struct ib_global_route *grh = rdma_ah_read_grh(&info->ah_attr);
	struct rdma_mcm_ufile *file = uctx->file;
	struct rdma_mcm_ujoin join = {
		.qkey = info->qkey,
		.flow_label = grh->flow_label,
		.mlid = info->mlid,
		.sl = rdma_ah_get_sl(&info->ah_attr),
		.hop_limit = grh->hop_limit,
		.traffic_class = grh->traffic_class,
		.port_num = rdma_ah_get_port_num(&info->ah_attr),
	};

	/* rdma_cm's MGID is the address handle's dgid */
	memcpy(join.mgid, info->mgid.raw, sizeof(join.mgid));
	spin_lock(&file->ev_lock);
	um->handle = info->handle;
	um->join = join;
	rdma_mcm_queue_event(file, rejoined ? &um->rejoined : &um->joined);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
	rdma_mcm_ufile_kunit_hook(file, rejoined ? &um->rejoined : &um->joined);
}

static void rdma_mcm_ufile_joined(void *priv,
				  const struct rdma_mcm_join_info *info)
{
	rdma_mcm_ufile_joined_as(priv, info, false);
}

static void rdma_mcm_ufile_rejoined(void *priv,
				    const struct rdma_mcm_join_info *info)
{
	rdma_mcm_ufile_joined_as(priv, info, true);
}

static void rdma_mcm_ufile_rejoining(void *priv, u32 handle, void *context,
				     int reason)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_umember *um = context;
	struct rdma_mcm_ufile *file = uctx->file;

	spin_lock(&file->ev_lock);
	um->handle = handle;
	um->rejoin_status = reason;
	rdma_mcm_queue_event(file, &um->rejoining);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
	rdma_mcm_ufile_kunit_hook(file, &um->rejoining);
}

static void rdma_mcm_ufile_error(void *priv, u32 handle, void *context,
				 int status)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_umember *um = context;
	struct rdma_mcm_ufile *file = uctx->file;

	spin_lock(&file->ev_lock);
	um->handle = handle;
	um->error_status = status;
	rdma_mcm_queue_event(file, &um->error);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
	rdma_mcm_ufile_kunit_hook(file, &um->error);
}

/*
 * The device is going: tell the application, which must release its verbs
 * objects on it. Nothing of the file's own is on the device.
 */
static void rdma_mcm_ufile_device_removed(void *priv)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_ufile *file = uctx->file;

	spin_lock(&file->ev_lock);
	rdma_mcm_queue_event(file, &uctx->removed);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
	rdma_mcm_ufile_kunit_hook(file, &uctx->removed);
}

/* A healing context has a device again: the application builds anew. */
static void rdma_mcm_ufile_device_added(void *priv)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_ufile *file = uctx->file;
	struct rdma_mcm_ctx *ctx = READ_ONCE(uctx->ctx);
	u32 port = 0;

	if (ctx)
		rdma_mcm_device(ctx, &port);
	spin_lock(&file->ev_lock);
	uctx->added_port = port;
	rdma_mcm_queue_event(file, &uctx->added);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
	rdma_mcm_ufile_kunit_hook(file, &uctx->added);
}

const struct rdma_mcm_ops rdma_mcm_ufile_ops = {
	.joined = rdma_mcm_ufile_joined,
	.error = rdma_mcm_ufile_error,
	.device_removed = rdma_mcm_ufile_device_removed,
	.rejoining = rdma_mcm_ufile_rejoining,
	.rejoined = rdma_mcm_ufile_rejoined,
	.device_added = rdma_mcm_ufile_device_added,
};

/**
 * rdma_mcm_purge_member() - take a left membership's events off the queue
 * @file: the file
 * @um: the membership, whose callbacks can no longer run
 * @ctx: its context, to count the purged events in; NULL once closed
 *	(counted module-wide only)
 *
 * Return: the membership's events_reported.
 */
u32 rdma_mcm_purge_member(struct rdma_mcm_ufile *file,
			  struct rdma_mcm_umember *um, struct rdma_mcm_ctx *ctx)
{
	unsigned int purged;
	u32 reported;

	spin_lock(&file->ev_lock);
	purged = rdma_mcm_unqueue_event(&um->joined) +
		 rdma_mcm_unqueue_event(&um->error) +
		 rdma_mcm_unqueue_event(&um->rejoining) +
		 rdma_mcm_unqueue_event(&um->rejoined);
	reported = um->events_reported;
	spin_unlock(&file->ev_lock);
	rdma_mcm_count_n(ctx, RDMA_MCM_CNT_PURGED, purged);
	return reported;
}

/*
 * How many events of a membership (@context: its struct rdma_mcm_umember)
 * are queued, not yet read: a snapshot for the netlink dump, read under
 * the context's spinlock without the file's lock.
 */
static u32 rdma_mcm_umember_queued(const void *context)
{
	const struct rdma_mcm_umember *um = context;

	/* racy by design: a dump is a snapshot, and a bool cannot tear */
	return data_race(um->joined.queued + um->error.queued +
			 um->rejoining.queued + um->rejoined.queued);
}

/* What the manager may ask of the char device about its contexts */
const struct rdma_mcm_face rdma_mcm_ufile_face = {
	.queued = rdma_mcm_umember_queued,
};

/**
 * rdma_mcm_purge_uctx() - take a closed context's own events off the queue
 * @file: the file
 * @uctx: the context, whose callbacks can no longer run
 */
void rdma_mcm_purge_uctx(struct rdma_mcm_ufile *file,
			 struct rdma_mcm_uctx *uctx)
{
	unsigned int purged;

	spin_lock(&file->ev_lock);
	purged = rdma_mcm_unqueue_event(&uctx->removed) +
		 rdma_mcm_unqueue_event(&uctx->added);
	spin_unlock(&file->ev_lock);
	/* the context is closed (maybe freed): counted module-wide only */
	rdma_mcm_count_n(NULL, RDMA_MCM_CNT_PURGED, purged);
}

/**
 * rdma_mcm_set_events() - the event types and size a file reads
 * @file: the file
 * @mask: in: the types the caller handles; out: those it will get
 * @size: in: the caller's event size, at least RDMA_MCM_EVENT_SIZE_VER0;
 *	out: the size read() returns
 *
 * Queued events of types no longer wanted are dropped.
 *
 * Return: 0, or -EINVAL for a size below RDMA_MCM_EVENT_SIZE_VER0.
 */
int rdma_mcm_set_events(struct rdma_mcm_ufile *file, u64 *mask, u32 *size)
{
	struct rdma_mcm_uevent *uev, *tmp;

	if (*size < RDMA_MCM_EVENT_SIZE_VER0)
		return -EINVAL;
	*mask &= RDMA_MCM_EVENTS_KNOWN;
	*size = min_t(u32, *size, sizeof(struct rdma_mcm_event));
	spin_lock(&file->ev_lock);
	file->event_mask = *mask;
	file->event_size = *size;
	list_for_each_entry_safe(uev, tmp, &file->events, node)
		if (!rdma_mcm_wants(file, uev->type))
			rdma_mcm_unqueue_event(uev);
	spin_unlock(&file->ev_lock);
	return 0;
}

/*
 * Copy queued events to @buf, dequeuing each only once it has reached the
 * user: an event whose copy faults stays queued (and events_reported does
 * not count it). The copy runs under ev_lock with page faults disabled, so
 * that a concurrent leave cannot free the event in between; a fault on the
 * first event faults the page in and retries.
 */
ssize_t rdma_mcm_cdev_read(struct file *filp, char __user *buf, size_t len,
			   loff_t *pos)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	struct rdma_mcm_uevent *uev;
	struct rdma_mcm_event ev;
	unsigned long left;
	size_t done = 0, evsz;
	int ret;

	if (!access_ok(buf, len))
		return -EFAULT;
	for (;;) {
		spin_lock(&file->ev_lock);
		evsz = file->event_size;
		if (len < evsz) {
			spin_unlock(&file->ev_lock);
			return -EINVAL;
		}
		while (len - done >= evsz) {
			uev = list_first_entry_or_null(&file->events,
						       struct rdma_mcm_uevent,
						       node);
			if (!uev)
				break;
			rdma_mcm_build_event(uev, &ev);
			pagefault_disable();
			left = __copy_to_user_inatomic(buf + done, &ev, evsz);
			pagefault_enable();
			if (left)
				break;
			rdma_mcm_unqueue_event(uev);
			rdma_mcm_event_reported(uev);
			done += evsz;
		}
		uev = list_first_entry_or_null(&file->events,
					       struct rdma_mcm_uevent, node);
		spin_unlock(&file->ev_lock);
		if (done)
			return done;
		if (uev) {
			/* the first copy faulted: bring the page in, retry */
			if (fault_in_writeable(buf, evsz))
				return -EFAULT;
			continue;
		}
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(file->poll_wait,
					       !list_empty(&file->events));
		if (ret)
			return ret;
	}
}

__poll_t rdma_mcm_cdev_poll(struct file *filp, poll_table *wait)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &file->poll_wait, wait);
	spin_lock(&file->ev_lock);
	if (!list_empty(&file->events))
		mask = EPOLLIN | EPOLLRDNORM;
	spin_unlock(&file->ev_lock);
	return mask;
}
