// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the /dev/rdma_mcm character device (include/uapi/rdma/
 * rdma_mcm_abi.h, Documentation/uapi.rst).
 *
 * Each open file owns its contexts and memberships. File operations are
 * serialised by the file's mutex; manager callbacks never take it (they
 * only queue an event under the file's event lock), so a leave, which
 * waits for a callback in flight, cannot deadlock against one. The events
 * a membership can produce (one joined, one error) are embedded in it:
 * nothing is allocated in a callback and no event can be lost.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include <uapi/rdma/rdma_mcm_abi.h>
#include "rdma_mcm_compat.h"
#include "rdma_mcm_internal.h"

static unsigned int max_memberships = 131072;
module_param(max_memberships, uint, 0644);
MODULE_PARM_DESC(max_memberships,
		 "memberships one open file may hold; more fail with ENOBUFS (default 131072)");

static unsigned int max_contexts = 256;
module_param(max_contexts, uint, 0644);
MODULE_PARM_DESC(max_contexts,
		 "contexts one open file may hold; more fail with EMFILE (default 256)");

#define RDMA_MCM_MAX_BATCH	65536

struct rdma_mcm_ufile {
	struct mutex mutex;	/* serialises every command of the file */
	struct net *net;
	struct xarray contexts;	/* ctx_id -> struct rdma_mcm_uctx */
	u32 next_ctx;
	unsigned int nr_contexts;
	unsigned int nr_members;

	spinlock_t ev_lock;	/* @events, every uevent, events_reported */
	struct list_head events;
	wait_queue_head_t poll_wait;
};

struct rdma_mcm_uctx {
	struct rdma_mcm_ufile *file;
	struct rdma_mcm_ctx *ctx;
	u32 id;
	struct xarray members;	/* handle -> struct rdma_mcm_umember */
};

/* A membership's place on its file's event queue, one per event type. */
struct rdma_mcm_uevent {
	struct list_head node;
	bool queued;
	u8 type;		/* RDMA_MCM_EVENT_* */
};

/*
 * What the file keeps per membership (152 bytes, in its own cache). The
 * JOINED event is kept whole, as the callback built it; an ERROR event is
 * built at read() time from @error_status. Each type is queued at most
 * once: an unread ERROR reports the latest status.
 */
struct rdma_mcm_umember {
	struct rdma_mcm_uctx *uctx;
	u64 cookie;
	u32 handle;
	u32 join_flags;
	u32 events_reported;	/* under the file's ev_lock */
	int error_status;	/* under the file's ev_lock */
	struct rdma_mcm_uevent joined;
	struct rdma_mcm_uevent error;
	struct rdma_mcm_event joined_ev;	/* under the file's ev_lock */
};

static struct kmem_cache *rdma_mcm_umember_cache;

/* Live objects of the char device, for debugfs and the tests' leak checks */
static atomic_t rdma_mcm_live_files = ATOMIC_INIT(0);
static atomic_t rdma_mcm_live_uctxs = ATOMIC_INIT(0);
static atomic_t rdma_mcm_live_umembers = ATOMIC_INIT(0);

void rdma_mcm_cdev_live_objects(struct rdma_mcm_live *live)
{
	live->files = atomic_read(&rdma_mcm_live_files);
	live->ucontexts = atomic_read(&rdma_mcm_live_uctxs);
	live->umembers = atomic_read(&rdma_mcm_live_umembers);
}

/*
 * Allocation and freeing of the file's objects: each allocation is a
 * fault-injection point, each object is counted while it lives.
 */
static void *rdma_mcm_cdev_alloc(struct kmem_cache *cache, size_t size,
				 atomic_t *live)
{
	void *p;

	if (rdma_mcm_fail_alloc())
		return NULL;
	p = cache ? kmem_cache_zalloc(cache, GFP_KERNEL) :
		    kzalloc(size, GFP_KERNEL);
	if (p)
		atomic_inc(live);
	return p;
}

static void rdma_mcm_umember_free(struct rdma_mcm_umember *um)
{
	kmem_cache_free(rdma_mcm_umember_cache, um);
	atomic_dec(&rdma_mcm_live_umembers);
}

static void rdma_mcm_uctx_free(struct rdma_mcm_uctx *uctx)
{
	kfree(uctx);
	atomic_dec(&rdma_mcm_live_uctxs);
}

/* ------------------------------------------------------------ events */

static void rdma_mcm_queue_event(struct rdma_mcm_ufile *file,
				 struct rdma_mcm_uevent *uev)
{
	lockdep_assert_held(&file->ev_lock);
	if (!uev->queued) {
		list_add_tail(&uev->node, &file->events);
		uev->queued = true;
	}
}

/* The event @uev stands for, as read() returns it. */
static void rdma_mcm_build_event(const struct rdma_mcm_uevent *uev,
				 struct rdma_mcm_event *ev)
{
	const struct rdma_mcm_umember *um;

	if (uev->type == RDMA_MCM_EVENT_JOINED) {
		um = container_of(uev, struct rdma_mcm_umember, joined);
		*ev = um->joined_ev;
		return;
	}
	um = container_of(uev, struct rdma_mcm_umember, error);
	memset(ev, 0, sizeof(*ev));
	ev->cookie = um->cookie;
	ev->event = RDMA_MCM_EVENT_ERROR;
	ev->status = um->error_status;
	ev->ctx_id = um->uctx->id;
	ev->handle = um->handle;
}

static void rdma_mcm_ufile_joined(void *priv,
				  const struct rdma_mcm_join_info *info)
{
	struct rdma_mcm_uctx *uctx = priv;
	struct rdma_mcm_umember *um = info->context;
	const struct ib_global_route *grh = rdma_ah_read_grh(&info->ah_attr);
	struct rdma_mcm_ufile *file = uctx->file;
	struct rdma_mcm_event ev = {
		.cookie = um->cookie,
		.event = RDMA_MCM_EVENT_JOINED,
		.ctx_id = uctx->id,
		.handle = info->handle,
		.qkey = info->qkey,
		.mlid = info->mlid,
		.sl = rdma_ah_get_sl(&info->ah_attr),
		.hop_limit = grh->hop_limit,
		.flow_label = grh->flow_label,
		.traffic_class = grh->traffic_class,
		.port_num = rdma_ah_get_port_num(&info->ah_attr),
		.is_global = 1,
	};

	memcpy(ev.mgid, info->mgid.raw, sizeof(ev.mgid));
	memcpy(ev.dgid, grh->dgid.raw, sizeof(ev.dgid));
	spin_lock(&file->ev_lock);
	um->handle = info->handle;
	um->joined_ev = ev;
	rdma_mcm_queue_event(file, &um->joined);
	spin_unlock(&file->ev_lock);
	wake_up_interruptible(&file->poll_wait);
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
}

static const struct rdma_mcm_ops rdma_mcm_ufile_ops = {
	.joined = rdma_mcm_ufile_joined,
	.error = rdma_mcm_ufile_error,
};

/* Take a left membership's events off the queue; returns events_reported. */
static u32 rdma_mcm_purge_member(struct rdma_mcm_ufile *file,
				 struct rdma_mcm_umember *um)
{
	u32 reported;

	spin_lock(&file->ev_lock);
	if (um->joined.queued)
		list_del(&um->joined.node);
	if (um->error.queued)
		list_del(&um->error.node);
	um->joined.queued = false;
	um->error.queued = false;
	reported = um->events_reported;
	spin_unlock(&file->ev_lock);
	return reported;
}

/*
 * Copy queued events to @buf, dequeuing each only once it has reached the
 * user: an event whose copy faults stays queued (and events_reported does
 * not count it). The copy runs under ev_lock with page faults disabled, so
 * that a concurrent leave cannot free the event in between; a fault on the
 * first event faults the page in and retries.
 */
static ssize_t rdma_mcm_cdev_read(struct file *filp, char __user *buf,
				  size_t len, loff_t *pos)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	const size_t evsz = sizeof(struct rdma_mcm_event);
	struct rdma_mcm_uevent *uev;
	struct rdma_mcm_event ev;
	unsigned long left;
	size_t done = 0;
	int ret;

	if (len < evsz)
		return -EINVAL;
	if (!access_ok(buf, len))
		return -EFAULT;
	for (;;) {
		spin_lock(&file->ev_lock);
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
			list_del(&uev->node);
			uev->queued = false;
			if (uev->type == RDMA_MCM_EVENT_JOINED)
				container_of(uev, struct rdma_mcm_umember,
					     joined)->events_reported++;
			else
				container_of(uev, struct rdma_mcm_umember,
					     error)->events_reported++;
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

static __poll_t rdma_mcm_cdev_poll(struct file *filp, poll_table *wait)
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

/* An address from an ioctl argument: at most RDMA_MCM_ADDR_SIZE bytes. */
static int rdma_mcm_uaddr_parse(const u8 *addr, u32 addr_len,
				union rdma_mcm_addr *out)
{
	if (addr_len > RDMA_MCM_ADDR_SIZE)
		return -EINVAL;
	return rdma_mcm_addr_parse((const struct sockaddr *)addr, addr_len,
				   out);
}

/* ------------------------------------------------------------ contexts */

static struct rdma_mcm_uctx *rdma_mcm_get_uctx(struct rdma_mcm_ufile *file,
					       u32 ctx_id)
{
	lockdep_assert_held(&file->mutex);
	return xa_load(&file->contexts, ctx_id);
}

static void rdma_mcm_free_members(struct rdma_mcm_uctx *uctx)
{
	struct rdma_mcm_ufile *file = uctx->file;
	struct rdma_mcm_umember *um;
	unsigned long handle;

	xa_for_each(&uctx->members, handle, um) {
		rdma_mcm_purge_member(file, um);
		xa_erase(&uctx->members, handle);
		rdma_mcm_umember_free(um);
		file->nr_members--;
	}
	xa_destroy(&uctx->members);
}

/* Close the manager context (leaving everything), then free ours. */
static void rdma_mcm_destroy_uctx(struct rdma_mcm_uctx *uctx)
{
	rdma_mcm_close(uctx->ctx);	/* no callback after this */
	rdma_mcm_free_members(uctx);
	rdma_mcm_uctx_free(uctx);
}

static int rdma_mcm_cmd_create_ctx(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_create_ctx *arg)
{
	union rdma_mcm_addr src;
	struct rdma_mcm_uctx *uctx;
	int ret;

	if (arg->flags || arg->reserved)
		return -EINVAL;
	ret = rdma_mcm_uaddr_parse(arg->src, arg->src_len, &src);
	if (ret)
		return ret;
	if (file->nr_contexts >= READ_ONCE(max_contexts))
		return -EMFILE;

	uctx = rdma_mcm_cdev_alloc(NULL, sizeof(*uctx), &rdma_mcm_live_uctxs);
	if (!uctx)
		return -ENOMEM;
	uctx->file = file;
	xa_init(&uctx->members);
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      xa_alloc_cyclic(&file->contexts, &uctx->id, NULL,
			      XA_LIMIT(1, U32_MAX), &file->next_ctx, GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	uctx->ctx = rdma_mcm_open(file->net, (struct sockaddr *)&src,
				  &rdma_mcm_ufile_ops, uctx);
	if (IS_ERR(uctx->ctx)) {
		ret = PTR_ERR(uctx->ctx);
		xa_erase(&file->contexts, uctx->id);
		goto err_free;
	}
	xa_store(&file->contexts, uctx->id, uctx, GFP_KERNEL);
	file->nr_contexts++;
	arg->ctx_id = uctx->id;
	return 0;

err_free:
	rdma_mcm_uctx_free(uctx);
	return ret;
}

/* CREATE_CTX's result could not be written back: destroy the context. */
static void rdma_mcm_undo_create_ctx(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_create_ctx *arg)
{
	struct rdma_mcm_uctx *uctx = xa_erase(&file->contexts, arg->ctx_id);

	if (WARN_ON_ONCE(!uctx))
		return;
	file->nr_contexts--;
	rdma_mcm_destroy_uctx(uctx);
}

static int rdma_mcm_cmd_destroy_ctx(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_destroy_ctx *arg)
{
	struct rdma_mcm_uctx *uctx;

	if (arg->reserved)
		return -EINVAL;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	xa_erase(&file->contexts, arg->ctx_id);
	file->nr_contexts--;
	rdma_mcm_destroy_uctx(uctx);
	return 0;
}

/* ------------------------------------------------------------ memberships */

static int rdma_mcm_do_join(struct rdma_mcm_ufile *file,
			    struct rdma_mcm_uctx *uctx, u64 cookie,
			    u32 join_flags, const u8 *addr, u32 addr_len,
			    u32 *handle)
{
	enum rdma_mcm_join_type type;
	union rdma_mcm_addr group;
	struct rdma_mcm_umember *um;
	int ret;

	switch (join_flags) {
	case RDMA_MCM_JOIN_FULLMEMBER:
		type = RDMA_MCM_FULLMEMBER;
		break;
	case RDMA_MCM_JOIN_SENDONLY_FULLMEMBER:
		type = RDMA_MCM_SENDONLY_FULLMEMBER;
		break;
	default:
		return -EINVAL;
	}
	ret = rdma_mcm_uaddr_parse(addr, addr_len, &group);
	if (ret)
		return ret;
	if (file->nr_members >= READ_ONCE(max_memberships))
		return -ENOBUFS;

	um = rdma_mcm_cdev_alloc(rdma_mcm_umember_cache, 0,
				 &rdma_mcm_live_umembers);
	if (!um)
		return -ENOMEM;
	um->uctx = uctx;
	um->cookie = cookie;
	um->join_flags = join_flags;
	um->joined.type = RDMA_MCM_EVENT_JOINED;
	um->error.type = RDMA_MCM_EVENT_ERROR;
	ret = rdma_mcm_join(uctx->ctx, (struct sockaddr *)&group, type, NULL,
			    um, handle);
	if (ret)
		goto err_free;
	ret = rdma_mcm_fail_alloc() ? -ENOMEM :
	      xa_err(xa_store(&uctx->members, *handle, um, GFP_KERNEL));
	if (ret) {
		rdma_mcm_leave(uctx->ctx, *handle);
		rdma_mcm_purge_member(file, um);
		goto err_free;
	}
	file->nr_members++;
	return 0;

err_free:
	rdma_mcm_umember_free(um);
	return ret;
}

static int rdma_mcm_do_leave(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_uctx *uctx, u32 flags, u32 handle,
			     const u8 *addr, u32 addr_len, u32 *events_reported)
{
	union rdma_mcm_addr group;
	struct rdma_mcm_umember *um;
	int ret;

	if (flags & ~RDMA_MCM_LEAVE_BY_ADDR)
		return -EINVAL;
	if (flags & RDMA_MCM_LEAVE_BY_ADDR) {
		ret = rdma_mcm_uaddr_parse(addr, addr_len, &group);
		if (ret)
			return ret;
		ret = rdma_mcm_find_handle(uctx->ctx,
					   (struct sockaddr *)&group, &handle);
		if (ret)
			return ret;
	}
	um = xa_load(&uctx->members, handle);
	if (!um)
		return -EADDRNOTAVAIL;
	ret = rdma_mcm_leave(uctx->ctx, handle);	/* a barrier */
	if (WARN_ON_ONCE(ret))
		return ret;
	*events_reported = rdma_mcm_purge_member(file, um);
	xa_erase(&uctx->members, handle);
	rdma_mcm_umember_free(um);
	file->nr_members--;
	return 0;
}

static int rdma_mcm_cmd_join(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_join *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);

	if (!uctx)
		return -ENOENT;
	return rdma_mcm_do_join(file, uctx, arg->cookie, arg->join_flags,
				arg->addr, arg->addr_len, &arg->handle);
}

/* A join whose handle the caller cannot learn: leave it again. */
static void rdma_mcm_undo_join(struct rdma_mcm_ufile *file,
			       struct rdma_mcm_uctx *uctx, u32 handle)
{
	u32 reported;

	WARN_ON_ONCE(rdma_mcm_do_leave(file, uctx, 0, handle, NULL, 0,
				       &reported));
}

static void rdma_mcm_undo_cmd_join(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_join *arg)
{
	rdma_mcm_undo_join(file, rdma_mcm_get_uctx(file, arg->ctx_id),
			   arg->handle);
}

static int rdma_mcm_cmd_leave(struct rdma_mcm_ufile *file,
			      struct rdma_mcm_leave *arg)
{
	struct rdma_mcm_uctx *uctx;

	if (arg->reserved)
		return -EINVAL;
	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	return rdma_mcm_do_leave(file, uctx, arg->flags, arg->handle, arg->addr,
				 arg->addr_len, &arg->events_reported);
}

static void rdma_mcm_fill_member(struct rdma_mcm_ufile *file,
				 struct rdma_mcm_uctx *uctx,
				 const struct rdma_mcm_member_info *info,
				 struct rdma_mcm_member *m)
{
	struct rdma_mcm_umember *um = xa_load(&uctx->members, info->handle);

	memset(m, 0, sizeof(*m));
	m->handle = info->handle;
	switch (info->state) {
	case RDMA_MCM_JOINED:
		m->state = RDMA_MCM_STATE_JOINED;
		break;
	case RDMA_MCM_ERROR:
		m->state = RDMA_MCM_STATE_ERROR;
		break;
	default:
		m->state = RDMA_MCM_STATE_JOINING;
		break;
	}
	m->status = info->status;
	m->qkey = info->qkey;
	m->mlid = info->mlid;
	memcpy(m->mgid, info->mgid.raw, sizeof(m->mgid));
	m->addr_len = rdma_addr_size((struct sockaddr *)&info->group);
	memcpy(m->addr, &info->group, min_t(size_t, m->addr_len,
					    sizeof(m->addr)));
	if (um) {
		m->cookie = um->cookie;
		m->join_flags = um->join_flags;
		spin_lock(&file->ev_lock);
		m->events_reported = um->events_reported;
		spin_unlock(&file->ev_lock);
	}
}

static int rdma_mcm_cmd_query(struct rdma_mcm_ufile *file,
			      struct rdma_mcm_query *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	struct rdma_mcm_member_info info;
	int ret;

	if (!uctx)
		return -ENOENT;
	ret = rdma_mcm_query(uctx->ctx, arg->handle, &info);
	if (ret)
		return ret;
	rdma_mcm_fill_member(file, uctx, &info, &arg->member);
	return 0;
}

static int rdma_mcm_cmd_list(struct rdma_mcm_ufile *file,
			     struct rdma_mcm_list *arg)
{
	struct rdma_mcm_uctx *uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	u8 __user *out = u64_to_user_ptr(arg->entries);
	struct rdma_mcm_member_info info[8];
	struct rdma_mcm_member m;
	u32 start = arg->start, next = 0, written = 0;
	int i, n;

	if (!uctx)
		return -ENOENT;
	if (arg->reserved || arg->entry_size < sizeof(m))
		return -EINVAL;
	while (written < arg->count) {
		n = rdma_mcm_list(uctx->ctx, start, info,
				  min_t(u32, ARRAY_SIZE(info),
					arg->count - written), &next);
		for (i = 0; i < n; i++, written++) {
			rdma_mcm_fill_member(file, uctx, &info[i], &m);
			if (copy_to_user(out + (size_t)written * arg->entry_size,
					 &m, sizeof(m)) ||
			    clear_user(out + (size_t)written * arg->entry_size +
				       sizeof(m), arg->entry_size - sizeof(m)))
				return -EFAULT;
		}
		if (!next)
			break;
		start = next;
	}
	if (written < arg->count)
		next = 0;
	arg->count = written;
	arg->next = next;
	return 0;
}

/*
 * One entry of a batch: @entry holds what copy_struct_from_user() made of
 * the user's entry, @err its error (then the op only records it); the op
 * sets the entry's outputs.
 */
typedef void (*rdma_mcm_batch_op)(struct rdma_mcm_ufile *file,
				  struct rdma_mcm_uctx *uctx, void *entry,
				  int err);

static void rdma_mcm_batch_join_one(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_uctx *uctx, void *entry,
				    int err)
{
	struct rdma_mcm_join_entry *e = entry;

	if (!err)
		err = rdma_mcm_do_join(file, uctx, e->cookie, e->join_flags,
				       e->addr, e->addr_len, &e->handle);
	e->result = err;
	if (err)
		e->handle = 0;
}

static void rdma_mcm_batch_leave_one(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_uctx *uctx, void *entry,
				     int err)
{
	struct rdma_mcm_leave_entry *e = entry;

	e->events_reported = 0;
	if (!err && e->reserved)
		err = -EINVAL;
	if (!err)
		err = rdma_mcm_do_leave(file, uctx, e->flags, e->handle, e->addr,
					e->addr_len, &e->events_reported);
	e->result = err;
}

static void rdma_mcm_batch_join_undo(struct rdma_mcm_ufile *file,
				     struct rdma_mcm_uctx *uctx, void *entry)
{
	struct rdma_mcm_join_entry *e = entry;

	if (!e->result)
		rdma_mcm_undo_join(file, uctx, e->handle);
}

/*
 * Run @op on each of a batch's entries, writing each one's outputs back;
 * @undo, if any, reverts an entry whose outputs could not be written.
 */
static int rdma_mcm_batch(struct rdma_mcm_ufile *file,
			  struct rdma_mcm_batch *arg, size_t entry_size,
			  rdma_mcm_batch_op op,
			  void (*undo)(struct rdma_mcm_ufile *file,
				       struct rdma_mcm_uctx *uctx, void *entry))
{
	u8 __user *entries = u64_to_user_ptr(arg->entries);
	union {
		struct rdma_mcm_join_entry join;
		struct rdma_mcm_leave_entry leave;
	} e;
	struct rdma_mcm_uctx *uctx;
	int ret;

	uctx = rdma_mcm_get_uctx(file, arg->ctx_id);
	if (!uctx)
		return -ENOENT;
	if (arg->count > RDMA_MCM_MAX_BATCH || arg->entry_size < entry_size ||
	    entry_size > sizeof(e))
		return -EINVAL;
	for (arg->done = 0; arg->done < arg->count; arg->done++) {
		u8 __user *p = entries + (size_t)arg->done * arg->entry_size;

		ret = copy_struct_from_user(&e, entry_size, p, arg->entry_size);
		if (ret == -EFAULT)
			return ret;
		op(file, uctx, &e, ret);
		if (copy_to_user(p, &e, entry_size)) {
			/*
			 * A join the caller cannot learn of is left again and
			 * not counted in done; a leave cannot be undone, so it
			 * counts: done entries are the ones that took effect.
			 */
			if (!undo)
				arg->done++;
			else
				undo(file, uctx, &e);
			return -EFAULT;
		}
		cond_resched();
	}
	return 0;
}

static int rdma_mcm_cmd_batch_join(struct rdma_mcm_ufile *file,
				   struct rdma_mcm_batch *arg)
{
	return rdma_mcm_batch(file, arg, sizeof(struct rdma_mcm_join_entry),
			      rdma_mcm_batch_join_one,
			      rdma_mcm_batch_join_undo);
}

static int rdma_mcm_cmd_batch_leave(struct rdma_mcm_ufile *file,
				    struct rdma_mcm_batch *arg)
{
	return rdma_mcm_batch(file, arg, sizeof(struct rdma_mcm_leave_entry),
			      rdma_mcm_batch_leave_one, NULL);
}

/* ------------------------------------------------------------ ioctl */

union rdma_mcm_ioctl_arg {
	struct rdma_mcm_version version;
	struct rdma_mcm_create_ctx create_ctx;
	struct rdma_mcm_destroy_ctx destroy_ctx;
	struct rdma_mcm_join join;
	struct rdma_mcm_leave leave;
	struct rdma_mcm_query query;
	struct rdma_mcm_list list;
	struct rdma_mcm_batch batch;
};

/*
 * @partial: the outputs are copied back even when the command fails, so a
 * batch tells how far it got.
 */
struct rdma_mcm_ioctl_desc {
	unsigned int cmd;
	size_t size;
	bool partial;
	int (*handler)(struct rdma_mcm_ufile *file, void *arg);
	void (*undo)(struct rdma_mcm_ufile *file, void *arg);
};

#define RDMA_MCM_IOCTL_UNDO(c, s, h, p, u) \
	{ .cmd = (c), .size = sizeof(s), .partial = (p), \
	  .handler = (int (*)(struct rdma_mcm_ufile *, void *))(h), \
	  .undo = (void (*)(struct rdma_mcm_ufile *, void *))(u) }
#define RDMA_MCM_IOCTL(c, s, h, p)	RDMA_MCM_IOCTL_UNDO(c, s, h, p, NULL)

/* A command number without its size bits: old and new binaries match. */
#define RDMA_MCM_IOC_NOSIZE(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static int rdma_mcm_cmd_version(struct rdma_mcm_ufile *file,
				struct rdma_mcm_version *arg)
{
	arg->abi_version = RDMA_MCM_ABI_VERSION;
	arg->reserved = 0;
	return 0;
}

static const struct rdma_mcm_ioctl_desc rdma_mcm_ioctls[] = {
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_VERSION, struct rdma_mcm_version,
		       rdma_mcm_cmd_version, false),
	RDMA_MCM_IOCTL_UNDO(RDMA_MCM_IOC_CREATE_CTX, struct rdma_mcm_create_ctx,
			    rdma_mcm_cmd_create_ctx, false,
			    rdma_mcm_undo_create_ctx),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_DESTROY_CTX, struct rdma_mcm_destroy_ctx,
		       rdma_mcm_cmd_destroy_ctx, false),
	RDMA_MCM_IOCTL_UNDO(RDMA_MCM_IOC_JOIN, struct rdma_mcm_join,
			    rdma_mcm_cmd_join, false, rdma_mcm_undo_cmd_join),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_LEAVE, struct rdma_mcm_leave,
		       rdma_mcm_cmd_leave, false),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_QUERY, struct rdma_mcm_query,
		       rdma_mcm_cmd_query, false),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_LIST, struct rdma_mcm_list,
		       rdma_mcm_cmd_list, false),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_BATCH_JOIN, struct rdma_mcm_batch,
		       rdma_mcm_cmd_batch_join, true),
	RDMA_MCM_IOCTL(RDMA_MCM_IOC_BATCH_LEAVE, struct rdma_mcm_batch,
		       rdma_mcm_cmd_batch_leave, true),
};

static long rdma_mcm_cdev_ioctl(struct file *filp, unsigned int cmd,
				unsigned long uarg)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	void __user *argp = (void __user *)uarg;
	const struct rdma_mcm_ioctl_desc *desc = NULL;
	union rdma_mcm_ioctl_arg arg;
	size_t usize = _IOC_SIZE(cmd);
	int i, ret;

	/* Same type, number and direction; the size may differ. */
	for (i = 0; i < ARRAY_SIZE(rdma_mcm_ioctls); i++)
		if (RDMA_MCM_IOC_NOSIZE(cmd) ==
		    RDMA_MCM_IOC_NOSIZE(rdma_mcm_ioctls[i].cmd))
			desc = &rdma_mcm_ioctls[i];
	if (!desc)
		return -ENOTTY;
	if (usize < desc->size)
		return -EINVAL;

	memset(&arg, 0, sizeof(arg));
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		ret = copy_struct_from_user(&arg, desc->size, argp, usize);
		if (ret)
			return ret;
	}
	/*
	 * The result is written back under the file's mutex, so that what
	 * the caller cannot learn (a new context id, a handle) is undone
	 * before anyone else can act on it: EFAULT means "nothing made".
	 */
	mutex_lock(&file->mutex);
	ret = desc->handler(file, &arg);
	if ((_IOC_DIR(cmd) & _IOC_READ) && (!ret || desc->partial) &&
	    copy_to_user(argp, &arg, desc->size)) {
		if (!ret && desc->undo)
			desc->undo(file, &arg);
		ret = -EFAULT;
	}
	mutex_unlock(&file->mutex);
	return ret;
}

/* ------------------------------------------------------------ file */

static int rdma_mcm_cdev_open(struct inode *inode, struct file *filp)
{
	struct rdma_mcm_ufile *file;

	file = rdma_mcm_cdev_alloc(NULL, sizeof(*file), &rdma_mcm_live_files);
	if (!file)
		return -ENOMEM;
	mutex_init(&file->mutex);
	xa_init_flags(&file->contexts, XA_FLAGS_ALLOC1);
	spin_lock_init(&file->ev_lock);
	INIT_LIST_HEAD(&file->events);
	init_waitqueue_head(&file->poll_wait);
	file->net = get_net(current->nsproxy->net_ns);
	filp->private_data = file;
	return nonseekable_open(inode, filp);
}

static int rdma_mcm_cdev_release(struct inode *inode, struct file *filp)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	struct rdma_mcm_uctx *uctx;
	unsigned long id;

	mutex_lock(&file->mutex);
	xa_for_each(&file->contexts, id, uctx) {
		xa_erase(&file->contexts, id);
		file->nr_contexts--;
		rdma_mcm_destroy_uctx(uctx);
	}
	mutex_unlock(&file->mutex);
	WARN_ON_ONCE(file->nr_members);
	WARN_ON_ONCE(!list_empty(&file->events));
	xa_destroy(&file->contexts);
	put_net(file->net);
	mutex_destroy(&file->mutex);
	kfree(file);
	atomic_dec(&rdma_mcm_live_files);
	return 0;
}

const struct file_operations rdma_mcm_cdev_fops = {
	.owner		= THIS_MODULE,
	.open		= rdma_mcm_cdev_open,
	.release	= rdma_mcm_cdev_release,
	.read		= rdma_mcm_cdev_read,
	.poll		= rdma_mcm_cdev_poll,
	.unlocked_ioctl	= rdma_mcm_cdev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice rdma_mcm_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RDMA_MCM_DEVICE_NAME,
	.fops	= &rdma_mcm_cdev_fops,
	/*
	 * Open to all, as rdma-core's udev rule makes /dev/infiniband/rdma_cm:
	 * joining a multicast group needs no privilege through sockets or
	 * ucma either. The open file is the boundary (handles, contexts,
	 * listings and limits are per file); Documentation/uapi.rst.
	 */
	.mode	= 0666,
};

/* The ABI is the same for 32- and 64-bit processes: pin the layouts. */
static void rdma_mcm_abi_layout_check(void)
{
	BUILD_BUG_ON(sizeof(struct rdma_mcm_version) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_create_ctx) != 144);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_destroy_ctx) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_join) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_leave) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_member) != 184);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_query) != 192);
	BUILD_BUG_ON(offsetof(struct rdma_mcm_query, member) != 8);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_list) != 32);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_join_entry) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_leave_entry) != 152);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_batch) != 24);
	BUILD_BUG_ON(sizeof(struct rdma_mcm_event) != 72);
}

int rdma_mcm_cdev_register(void)
{
	int ret;

	rdma_mcm_abi_layout_check();
	rdma_mcm_umember_cache = KMEM_CACHE(rdma_mcm_umember, SLAB_NO_MERGE);
	if (!rdma_mcm_umember_cache)
		return -ENOMEM;
	ret = misc_register(&rdma_mcm_miscdev);
	if (ret)
		kmem_cache_destroy(rdma_mcm_umember_cache);
	return ret;
}

void rdma_mcm_cdev_unregister(void)
{
	misc_deregister(&rdma_mcm_miscdev);
	kmem_cache_destroy(rdma_mcm_umember_cache);
}
