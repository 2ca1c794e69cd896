// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: a /dev/rdma_mcm file on the fake backend. The file is opened with
 * rdma_mcm_cdev_kunit_open(), which gives its contexts the fake instead of
 * rdma_cm and hooks the end of each of the file's manager callbacks; every
 * command goes through the file's ioctl with its argument in user memory
 * (kunit_vm_mmap()), every event through read().
 *
 * What only the file shows: the direct JOINED (RDMA_MCM_OPEN_DIRECT) held
 * inside the file's callback while another thread leaves, destroys the
 * context or closes the file; the purge of a left membership's queued
 * events; events_reported and the QUEUED count of the netlink dump; and
 * what a healing context's file reads (kernel review findings 2 and 3).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/poll.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "../drivers/rdma_mcm_cdev.h"
#include "../drivers/rdma_mcm_observe.h"
#include "rdma_mcm_test_util.h"

/* only keeps a broken build from hanging */
#define MCM_CDEV_HANG		(10 * HZ)
/* the test's user memory: an ioctl argument, read()'s buffer, a thread's */
#define MCM_CDEV_UMEM		(3 * PAGE_SIZE)
#define MCM_CDEV_ARG		0
#define MCM_CDEV_BUF		PAGE_SIZE
#define MCM_CDEV_THREAD_ARG	(2 * PAGE_SIZE)
#define MCM_CDEV_MAX_EVENTS	8
#define MCM_CDEV_MAX_THREADS	4

/* What a thread of the test does beside it */
enum mcm_cdev_do {
	MCM_CDEV_DO_COMPLETE,	/* the fake completes a join: rdma_cm's handler */
	MCM_CDEV_DO_IOCTL,	/* an ioctl on the file */
	MCM_CDEV_DO_CLOSE,	/* the file's last close */
};

struct mcm_cdev;

struct mcm_cdev_thread {
	struct mcm_cdev *c;
	enum mcm_cdev_do what;
	struct mcm_fake_join *join;	/* COMPLETE */
	struct file *filp;		/* IOCTL, CLOSE */
	unsigned int cmd;		/* IOCTL */
	union {
		struct rdma_mcm_leave leave;
		struct rdma_mcm_destroy_ctx destroy;
	} arg;
	size_t len;
	long ret;
	bool copy_failed;	/* the thread's own copy of the argument */
	bool returned;
	bool cb_done_at_return;	/* the held callback had returned by then */
	struct completion done;
};

/* A case's state (struct mcm_test's suite) */
struct mcm_cdev {
	struct kunit *test;
	struct mcm_fake *fake;
	struct file *filp;	/* NULL once closed */
	u8 __user *umem;
	struct mm_struct *mm;
	atomic_t callbacks[RDMA_MCM_EVENT_DEVICE_ADDED + 1];	/* by type */
	struct task_struct *joined_task;	/* ran the last JOINED callback */

	/* a JOINED callback held in flight (block_joined: the next one) */
	bool block_joined;
	struct completion cb_entered;
	struct completion cb_release;
	struct task_struct *cb_task;
	bool cb_in_work;	/* it ran in a work item (not the handler's) */
	u64 cb_cookie;		/* what it read of its membership, released */
	u32 cb_ctx_id;
	struct rdma_mcm_live cb_live;	/* the live objects then */
	bool cb_done;		/* it returned (release/acquire) */

	struct mcm_cdev_thread *threads[MCM_CDEV_MAX_THREADS];
	int nr_threads;
};

static struct mcm_cdev *mcm_cdev_of(struct kunit *test)
{
	struct mcm_test *t = test->priv;

	return t->suite;
}

/*
 * The file's hook: the end of each of its callbacks, no lock held. It
 * counts them, and holds the JOINED asked for until the test lets it go;
 * then it reads its membership and context, which must still live.
 */
static void mcm_cdev_hook(void *priv, struct rdma_mcm_uevent *uev)
{
	struct mcm_cdev *c = priv;
	struct rdma_mcm_umember *um;

	if (uev->type < ARRAY_SIZE(c->callbacks))
		atomic_inc(&c->callbacks[uev->type]);
	if (uev->type != RDMA_MCM_EVENT_JOINED)
		return;
	WRITE_ONCE(c->joined_task, current);
	if (!READ_ONCE(c->block_joined))
		return;
	WRITE_ONCE(c->block_joined, false);
	um = container_of(uev, struct rdma_mcm_umember, joined);
	c->cb_task = current;
	c->cb_in_work = !!current_work();
	complete(&c->cb_entered);
	wait_for_completion(&c->cb_release);
	/* KASAN reports a freed one; the live counters tell without it */
	c->cb_cookie = READ_ONCE(um->cookie);
	c->cb_ctx_id = READ_ONCE(um->uctx->id);
	rdma_mcm_live_objects(&c->cb_live);
	/* what it read, before a racer that sees it done (acquire below) */
	smp_store_release(&c->cb_done, true);
}

/* A file of /dev/rdma_mcm on the test's fake, O_NONBLOCK, and user memory */
static struct mcm_cdev *mcm_cdev_open(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_of(test);
	const struct rdma_mcm_ufile_kunit kunit = {
		.backend = &c->fake->be,
		.callback = mcm_cdev_hook,
		.priv = c,
	};
	unsigned long umem;
	struct file *filp;

	umem = kunit_vm_mmap(test, NULL, 0, MCM_CDEV_UMEM,
			     PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, umem, 0UL, "no user memory for the test");
	c->umem = (u8 __user *)umem;
	c->mm = current->mm;
	filp = kunit_kzalloc(test, sizeof(*filp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, filp);
	filp->f_flags = O_NONBLOCK;
	KUNIT_ASSERT_EQ(test, rdma_mcm_cdev_kunit_open(filp, &kunit), 0);
	c->filp = filp;
	return c;
}

static void mcm_cdev_close(struct mcm_cdev *c)
{
	struct file *filp = c->filp;

	c->filp = NULL;
	KUNIT_EXPECT_EQ(c->test, rdma_mcm_cdev_fops.release(NULL, filp), 0);
}

/*
 * An ioctl with its argument copied through @uarg. Returns nonzero when
 * the argument itself could not be copied (the ioctl's result in *@ret).
 */
static int mcm_cdev_uioctl(struct file *filp, unsigned int cmd, void *arg,
			   size_t len, void __user *uarg, long *ret)
{
	if (copy_to_user(uarg, arg, len))
		return -EFAULT;
	*ret = rdma_mcm_cdev_fops.unlocked_ioctl(filp, cmd, (unsigned long)uarg);
	return copy_from_user(arg, uarg, len) ? -EFAULT : 0;
}

static long mcm_cdev_ioctl(struct mcm_cdev *c, unsigned int cmd, void *arg,
			   size_t len)
{
	long ret = 0;

	KUNIT_ASSERT_EQ(c->test, mcm_cdev_uioctl(c->filp, cmd, arg, len,
						 c->umem + MCM_CDEV_ARG, &ret),
			0);
	return ret;
}

/* CREATE_CTX on @addr (a source, or a ROUTE context's destination) */
static u32 mcm_cdev_create(struct mcm_cdev *c, u32 addr, u32 flags)
{
	struct rdma_mcm_create_ctx cc = {
		.src_len = sizeof(struct sockaddr_in),
		.flags = flags,
	};
	struct sockaddr_in sin = mcm_v4(addr);

	memcpy(cc.src, &sin, sizeof(sin));
	KUNIT_ASSERT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_CREATE_CTX, &cc,
						sizeof(cc)), 0L);
	KUNIT_EXPECT_NE(c->test, cc.ctx_id, 0U);
	return cc.ctx_id;
}

static void mcm_cdev_destroy(struct mcm_cdev *c, u32 ctx_id)
{
	struct rdma_mcm_destroy_ctx d = { .ctx_id = ctx_id };

	KUNIT_EXPECT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_DESTROY_CTX, &d,
						sizeof(d)), 0L);
}

/* SET_EVENTS: @mask, in events of this kernel's size */
static void mcm_cdev_set_events(struct mcm_cdev *c, u64 mask)
{
	struct rdma_mcm_set_events se = {
		.event_mask = mask,
		.event_size = sizeof(struct rdma_mcm_event),
	};

	KUNIT_ASSERT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_SET_EVENTS, &se,
						sizeof(se)), 0L);
	KUNIT_EXPECT_EQ(c->test, se.event_mask, mask);
}

static u32 mcm_cdev_join(struct mcm_cdev *c, u32 ctx_id, u32 group,
			 u64 cookie, u32 join_flags)
{
	struct rdma_mcm_join j = {
		.cookie = cookie,
		.ctx_id = ctx_id,
		.join_flags = join_flags,
		.addr_len = sizeof(struct sockaddr_in),
	};
	struct sockaddr_in sin = mcm_v4(group);

	memcpy(j.addr, &sin, sizeof(sin));
	KUNIT_ASSERT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_JOIN, &j,
						sizeof(j)), 0L);
	KUNIT_EXPECT_NE(c->test, j.handle, 0U);
	return j.handle;
}

/* LEAVE: returns the membership's events_reported */
static u32 mcm_cdev_leave(struct mcm_cdev *c, u32 ctx_id, u32 handle)
{
	struct rdma_mcm_leave l = { .ctx_id = ctx_id, .handle = handle };

	KUNIT_ASSERT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_LEAVE, &l,
						sizeof(l)), 0L);
	return l.events_reported;
}

static struct rdma_mcm_member mcm_cdev_query(struct mcm_cdev *c, u32 ctx_id,
					     u32 handle)
{
	struct rdma_mcm_query q = { .ctx_id = ctx_id, .handle = handle };

	KUNIT_EXPECT_EQ(c->test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_QUERY, &q,
						sizeof(q)), 0L);
	return q.member;
}

/* read() (non-blocking) into room for @max events: how many, or an errno */
static int mcm_cdev_read(struct mcm_cdev *c, struct rdma_mcm_event *ev,
			 int max)
{
	void __user *buf = c->umem + MCM_CDEV_BUF;
	loff_t pos = 0;
	ssize_t n;

	n = rdma_mcm_cdev_fops.read(c->filp, buf, max * sizeof(*ev), &pos);
	if (n < 0)
		return n;
	KUNIT_ASSERT_EQ(c->test, (size_t)n % sizeof(*ev), (size_t)0);
	KUNIT_ASSERT_EQ(c->test, copy_from_user(ev, buf, n), 0UL);
	return n / sizeof(*ev);
}

/* poll(): an event to read? */
static bool mcm_cdev_readable(struct mcm_cdev *c)
{
	return rdma_mcm_cdev_fops.poll(c->filp, NULL) & EPOLLIN;
}

/*
 * Read every queued event: exactly @n, of the types @types in this order
 * (then the queue is empty: EAGAIN, and poll() says so).
 */
static void mcm_cdev_expect_events(struct mcm_cdev *c,
				   struct rdma_mcm_event *ev,
				   const u32 *types, int n)
{
	int i, got;

	got = mcm_cdev_read(c, ev, MCM_CDEV_MAX_EVENTS);
	if (!n) {
		KUNIT_EXPECT_EQ_MSG(c->test, got, -EAGAIN,
				    "read() an event (type %u) where none is due",
				    got > 0 ? ev[0].event : 0);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(c->test, got, n, "events read (first type %u)",
			    got > 0 ? ev[0].event : 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(c->test, ev[i].event, types[i],
				    "event %d of %d", i + 1, n);
	KUNIT_EXPECT_EQ(c->test, mcm_cdev_read(c, ev + n, 1), -EAGAIN);
	KUNIT_EXPECT_FALSE(c->test, mcm_cdev_readable(c));
}

/* The manager's context of the file's context @ctx_id */
static struct rdma_mcm_ctx *mcm_cdev_mctx(struct mcm_cdev *c, u32 ctx_id)
{
	struct rdma_mcm_ufile *file = c->filp->private_data;
	struct rdma_mcm_uctx *uctx = xa_load(&file->contexts, ctx_id);

	KUNIT_ASSERT_NOT_NULL(c->test, uctx);
	return uctx->ctx;
}

struct mcm_cdev_queued {
	u32 handle;
	u32 queued;
	int seen;
};

static int mcm_cdev_queued_fill(void *arg, const struct rdma_mcm_ctx_view *cv,
				const struct rdma_mcm_membership *mb)
{
	struct mcm_cdev_queued *q = arg;

	if (mb->handle == q->handle) {
		q->queued = rdma_mcm_member_queued(mb);
		q->seen++;
	}
	return 0;
}

/* A membership's QUERY: its RDMA_MCM_A_QUEUED in the netlink dump */
static u32 mcm_cdev_queued(struct mcm_cdev *c, u32 ctx_id, u32 handle)
{
	struct rdma_mcm_dump_filter f = {
		.net = &init_net,
		.all = true,
		.ctx_id = mcm_cdev_mctx(c, ctx_id)->id,
	};
	struct rdma_mcm_dump_pos pos = {};
	struct mcm_cdev_queued q = { .handle = handle };

	KUNIT_EXPECT_EQ(c->test, rdma_mcm_walk_members(&f, &pos,
						       mcm_cdev_queued_fill, &q),
			0);
	KUNIT_EXPECT_EQ_MSG(c->test, q.seen, 1, "handle %u in the dump", handle);
	return q.queued;
}

static u64 mcm_cdev_purged(struct mcm_cdev *c, u32 ctx_id)
{
	return rdma_mcm_counter_read(&mcm_cdev_mctx(c, ctx_id)->counters,
				     RDMA_MCM_CNT_PURGED);
}

static int mcm_cdev_thread_fn(void *arg)
{
	struct mcm_cdev_thread *th = arg;
	struct mcm_cdev *c = th->c;

	switch (th->what) {
	case MCM_CDEV_DO_COMPLETE:
		th->ret = mcm_fake_complete(c->fake, th->join, 0, false) ?
			  0 : -ENOENT;
		break;
	case MCM_CDEV_DO_IOCTL:
		kthread_use_mm(c->mm);
		th->copy_failed = mcm_cdev_uioctl(th->filp, th->cmd, &th->arg,
						  th->len,
						  c->umem + MCM_CDEV_THREAD_ARG,
						  &th->ret);
		kthread_unuse_mm(c->mm);
		break;
	case MCM_CDEV_DO_CLOSE:
		th->ret = rdma_mcm_cdev_fops.release(NULL, th->filp);
		break;
	}
	/* pairs with the hook's release: the callback had returned */
	th->cb_done_at_return = smp_load_acquire(&c->cb_done);
	WRITE_ONCE(th->returned, true);
	complete_all(&th->done);	/* the case and its exit may wait */
	return 0;
}

/* Start @th (its arguments set); the suite's exit waits for it */
static void mcm_cdev_start(struct mcm_cdev *c, struct mcm_cdev_thread *th)
{
	struct task_struct *task;

	KUNIT_ASSERT_LT(c->test, c->nr_threads, MCM_CDEV_MAX_THREADS);
	th->c = c;
	init_completion(&th->done);
	task = kthread_run(mcm_cdev_thread_fn, th, "mcm_cdev%d", c->nr_threads);
	KUNIT_ASSERT_FALSE(c->test, IS_ERR(task));
	c->threads[c->nr_threads++] = th;
}

static bool mcm_cdev_wait(struct completion *done)
{
	return wait_for_completion_timeout(done, MCM_CDEV_HANG) > 0;
}

static void mcm_cdev_expect_no_live(struct kunit *test)
{
	struct rdma_mcm_live live;

	rdma_mcm_flush();
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ_MSG(test, live.files, 0, "files leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.ucontexts, 0, "file contexts leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.umembers, 0, "file memberships leaked");
	KUNIT_EXPECT_EQ_MSG(test, live.users, 0, "user accounts leaked");
	KUNIT_EXPECT_EQ(test, live.contexts, 0);
	KUNIT_EXPECT_EQ(test, live.members, 0);
	KUNIT_EXPECT_EQ(test, live.slots, 0);
}

/* ------------------------------------------------------------ the cases */

/*
 * The whole path: CREATE_CTX on the fake, two JOINs, one completed from
 * inside the JOIN call (a direct JOINED in the caller's thread), the
 * other from rdma_cm's handler; read() both with the join's attributes;
 * QUERY, LEAVE with events_reported, DESTROY_CTX (leaving the other),
 * close.
 */
static void mcm_cdev_join_read_leave(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	static const u32 two_joined[] = {
		RDMA_MCM_EVENT_JOINED, RDMA_MCM_EVENT_JOINED,
	};
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	struct rdma_mcm_query_ctx qc = {};
	struct sockaddr_in grp = mcm_v4(MCM_GROUP(2));
	struct rdma_mcm_member m;
	union ib_gid mgid;
	u32 ctx_id, h1, h2;

	ctx_id = mcm_cdev_create(c, MCM_SRC, 0);
	qc.ctx_id = ctx_id;
	KUNIT_ASSERT_EQ(test, mcm_cdev_ioctl(c, RDMA_MCM_IOC_QUERY_CTX, &qc,
					     sizeof(qc)), 0L);
	KUNIT_EXPECT_STREQ(test, qc.dev_name, "mcm_fake0");	/* the fake's */
	KUNIT_EXPECT_EQ(test, qc.port_num, 1U);

	h1 = mcm_cdev_join(c, ctx_id, MCM_GROUP(1), 0x1001,
			   RDMA_MCM_JOIN_FULLMEMBER);
	KUNIT_EXPECT_EQ(test, mcm_cdev_read(c, ev, 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, h1), 0U);
	c->fake->auto_complete = true;
	h2 = mcm_cdev_join(c, ctx_id, MCM_GROUP(2), 0x1002,
			   RDMA_MCM_JOIN_SENDONLY_FULLMEMBER);
	c->fake->auto_complete = false;
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(c->joined_task), current);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, h2), 1U);
	KUNIT_EXPECT_TRUE(test, mcm_cdev_readable(c));
	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(c->fake,
						  mcm_fake_join_of(test,
								   MCM_GROUP(1)),
						  0, false));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->callbacks[RDMA_MCM_EVENT_JOINED]),
			2);

	/* in the order they came; built at read() from the join's data */
	mcm_cdev_expect_events(c, ev, two_joined, 2);
	KUNIT_EXPECT_EQ(test, ev[0].cookie, 0x1002ULL);
	KUNIT_EXPECT_EQ(test, ev[0].handle, h2);
	KUNIT_EXPECT_EQ(test, ev[1].cookie, 0x1001ULL);
	KUNIT_EXPECT_EQ(test, ev[1].handle, h1);
	mcm_fake_mgid(false, (struct sockaddr *)&grp, &mgid);
	KUNIT_EXPECT_EQ(test, ev[0].ctx_id, ctx_id);
	KUNIT_EXPECT_EQ(test, ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, ev[0].qkey, (u32)MCM_FAKE_QKEY);
	KUNIT_EXPECT_EQ(test, ev[0].mlid, (u16)MCM_FAKE_MLID);
	KUNIT_EXPECT_EQ(test, ev[0].port_num, 1);
	KUNIT_EXPECT_EQ(test, ev[0].is_global, 1);
	KUNIT_EXPECT_MEMEQ(test, ev[0].mgid, mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, ev[0].dgid, mgid.raw, 16);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, h1), 0U);

	m = mcm_cdev_query(c, ctx_id, h1);
	KUNIT_EXPECT_EQ(test, m.state, (u32)RDMA_MCM_STATE_JOINED);
	KUNIT_EXPECT_EQ(test, m.cookie, 0x1001ULL);
	KUNIT_EXPECT_EQ(test, m.events_reported, 1U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_leave(c, ctx_id, h1), 1U);
	KUNIT_EXPECT_EQ(test, mcm_fake_join_of(test, MCM_GROUP(1))->leaves, 1);
	mcm_cdev_destroy(c, ctx_id);	/* leaves h2 with its id */
	KUNIT_EXPECT_EQ(test, mcm_fake_join_of(test, MCM_GROUP(2))->leaves, 1);
	KUNIT_EXPECT_EQ(test, c->fake->live_ids, 0);
	mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
}

/* Who races the JOINED held inside the file's callback */
enum mcm_cdev_racer {
	MCM_CDEV_RACE_LEAVE,
	MCM_CDEV_RACE_DESTROY_CTX,
	MCM_CDEV_RACE_CLOSE,
};

/*
 * A direct JOINED (RDMA_MCM_OPEN_DIRECT: from rdma_cm's handler, here the
 * fake's in a thread of its own) held inside the file's callback, while
 * another thread LEAVEs the membership, destroys its context or closes the
 * file. That call waits behind the running handler, as rdma_cm's
 * rdma_leave_multicast() and rdma_destroy_id() do, and returns only after
 * the callback did; the file's membership, its context and the file live
 * until then (the callback reads them after it was let go: KASAN in the
 * debug build, the live counters in both). A left membership's JOINED is
 * purged, never read.
 */
static void mcm_cdev_direct_joined_race(struct kunit *test,
					enum mcm_cdev_racer racer)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	struct mcm_cdev_thread *handler, *other;
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	u32 ctx_id, h;
	u64 purged;

	handler = kunit_kzalloc(test, sizeof(*handler), GFP_KERNEL);
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, handler);
	KUNIT_ASSERT_NOT_NULL(test, other);
	ctx_id = mcm_cdev_create(c, MCM_SRC, 0);
	h = mcm_cdev_join(c, ctx_id, MCM_GROUP(10), 0xc0c0,
			  RDMA_MCM_JOIN_FULLMEMBER);
	purged = mcm_cdev_purged(c, ctx_id);

	WRITE_ONCE(c->block_joined, true);
	handler->what = MCM_CDEV_DO_COMPLETE;
	handler->join = mcm_fake_join_of(test, MCM_GROUP(10));
	mcm_cdev_start(c, handler);
	KUNIT_ASSERT_TRUE_MSG(test, mcm_cdev_wait(&c->cb_entered),
			      "the JOINED callback never ran");
	/* from the handler itself, not the work; queued already */
	KUNIT_EXPECT_FALSE(test, c->cb_in_work);
	KUNIT_EXPECT_NE(test, (uintptr_t)c->cb_task, (uintptr_t)current);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, h), 1U);

	other->filp = c->filp;
	switch (racer) {
	case MCM_CDEV_RACE_LEAVE:
		other->what = MCM_CDEV_DO_IOCTL;
		other->cmd = RDMA_MCM_IOC_LEAVE;
		other->arg.leave.ctx_id = ctx_id;
		other->arg.leave.handle = h;
		other->len = sizeof(other->arg.leave);
		break;
	case MCM_CDEV_RACE_DESTROY_CTX:
		other->what = MCM_CDEV_DO_IOCTL;
		other->cmd = RDMA_MCM_IOC_DESTROY_CTX;
		other->arg.destroy.ctx_id = ctx_id;
		other->len = sizeof(other->arg.destroy);
		break;
	case MCM_CDEV_RACE_CLOSE:
		other->what = MCM_CDEV_DO_CLOSE;
		c->filp = NULL;		/* the thread's now */
		break;
	}
	mcm_cdev_start(c, other);
	/* its rdma_cm call (leave, destroy) waits for the running handler */
	KUNIT_ASSERT_TRUE(test, mcm_fake_wait_lock_waiters(c->fake, 1));
	KUNIT_EXPECT_FALSE(test, READ_ONCE(other->returned));
	complete(&c->cb_release);
	KUNIT_ASSERT_TRUE(test, mcm_cdev_wait(&other->done));
	KUNIT_ASSERT_TRUE(test, mcm_cdev_wait(&handler->done));

	KUNIT_EXPECT_EQ(test, handler->ret, 0L);
	KUNIT_EXPECT_FALSE(test, other->copy_failed);
	KUNIT_EXPECT_EQ(test, other->ret, 0L);
	KUNIT_EXPECT_TRUE_MSG(test, other->cb_done_at_return,
			      "returned while the callback still ran");
	KUNIT_EXPECT_EQ(test, c->cb_cookie, 0xc0c0ULL);
	KUNIT_EXPECT_EQ(test, c->cb_ctx_id, ctx_id);
	KUNIT_EXPECT_EQ_MSG(test, c->cb_live.umembers, 1,
			    "the membership was freed inside its callback");
	KUNIT_EXPECT_EQ(test, c->cb_live.ucontexts, 1);
	KUNIT_EXPECT_EQ(test, c->cb_live.files, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->callbacks[RDMA_MCM_EVENT_JOINED]),
			1);

	switch (racer) {
	case MCM_CDEV_RACE_LEAVE:
		KUNIT_EXPECT_EQ(test, other->arg.leave.events_reported, 0U);
		KUNIT_EXPECT_EQ(test, mcm_cdev_purged(c, ctx_id) - purged, 1ULL);
		mcm_cdev_expect_events(c, ev, NULL, 0);
		mcm_cdev_destroy(c, ctx_id);
		mcm_cdev_close(c);
		break;
	case MCM_CDEV_RACE_DESTROY_CTX:
		mcm_cdev_expect_events(c, ev, NULL, 0);
		mcm_cdev_close(c);
		break;
	case MCM_CDEV_RACE_CLOSE:
		break;
	}
	mcm_cdev_expect_no_live(test);
}

static void mcm_cdev_direct_joined_vs_leave(struct kunit *test)
{
	mcm_cdev_direct_joined_race(test, MCM_CDEV_RACE_LEAVE);
}

static void mcm_cdev_direct_joined_vs_destroy_ctx(struct kunit *test)
{
	mcm_cdev_direct_joined_race(test, MCM_CDEV_RACE_DESTROY_CTX);
}

static void mcm_cdev_direct_joined_vs_close(struct kunit *test)
{
	mcm_cdev_direct_joined_race(test, MCM_CDEV_RACE_CLOSE);
}

/*
 * Every event type of a membership queued and counted: A (healing) has
 * JOINED, REJOINING and REJOINED queued, B JOINED and ERROR. QUEUED and
 * events_reported follow each read(); leaving A purges its two unread
 * events (counted), and read() then returns only B's.
 */
static void mcm_cdev_leave_purges_queued(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	static const u32 b_error[] = { RDMA_MCM_EVENT_ERROR };
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	struct rdma_mcm_ctx *mctx;
	u32 ctx_id, a, b;
	u64 purged;

	mcm_cdev_set_events(c, RDMA_MCM_EVENTS_KNOWN);
	ctx_id = mcm_cdev_create(c, MCM_SRC, RDMA_MCM_CTX_HEAL);
	mctx = mcm_cdev_mctx(c, ctx_id);
	a = mcm_cdev_join(c, ctx_id, MCM_GROUP(20), 0xa, RDMA_MCM_JOIN_FULLMEMBER);
	b = mcm_cdev_join(c, ctx_id, MCM_GROUP(21), 0xb, RDMA_MCM_JOIN_FULLMEMBER);
	mcm_fake_complete(c->fake, mcm_fake_join_of(test, MCM_GROUP(20)), 0,
			  false);
	mcm_fake_complete(c->fake, mcm_fake_join_of(test, MCM_GROUP(21)), 0,
			  false);
	/* A heals; B's SA refused (-EINVAL: -ECONNREFUSED), permanent */
	mcm_fake_complete(c->fake, mcm_fake_join_of(test, MCM_GROUP(20)),
			  -ENETRESET, false);
	mcm_fake_complete(c->fake, mcm_fake_join_of(test, MCM_GROUP(21)),
			  -EINVAL, false);
	rdma_mcm_flush();
	mcm_tick(test, mctx, MCM_MIN_MS);
	KUNIT_ASSERT_EQ(test, c->fake->joins_called, 3);
	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(c->fake,
						  mcm_fake_join_of(test,
								   MCM_GROUP(20)),
						  0, false));
	rdma_mcm_flush();

	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, a), 3U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, b), 2U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, a).events_reported, 0U);

	/* one at a time: A's JOINED, then B's */
	KUNIT_ASSERT_EQ(test, mcm_cdev_read(c, ev, 1), 1);
	KUNIT_EXPECT_EQ(test, ev[0].event, (u32)RDMA_MCM_EVENT_JOINED);
	KUNIT_EXPECT_EQ(test, ev[0].handle, a);
	KUNIT_ASSERT_EQ(test, mcm_cdev_read(c, ev, 1), 1);
	KUNIT_EXPECT_EQ(test, ev[0].event, (u32)RDMA_MCM_EVENT_JOINED);
	KUNIT_EXPECT_EQ(test, ev[0].handle, b);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, a), 2U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, b), 1U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, a).events_reported, 1U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, b).events_reported, 1U);

	purged = mcm_cdev_purged(c, ctx_id);
	KUNIT_EXPECT_EQ(test, mcm_cdev_leave(c, ctx_id, a), 1U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_purged(c, ctx_id) - purged, 2ULL);
	mcm_cdev_expect_events(c, ev, b_error, 1);
	KUNIT_EXPECT_EQ(test, ev[0].handle, b);
	KUNIT_EXPECT_EQ(test, ev[0].cookie, 0xbULL);
	KUNIT_EXPECT_EQ(test, ev[0].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, b), 0U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, b).events_reported, 2U);
	KUNIT_EXPECT_EQ(test, mcm_cdev_leave(c, ctx_id, b), 2U);
	mcm_cdev_destroy(c, ctx_id);
	mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
}

/*
 * A context's own events are purged with it: DEVICE_REMOVED (and its
 * membership's REJOINING) unread when DESTROY_CTX comes are never read.
 */
static void mcm_cdev_destroy_purges_ctx_events(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	u64 purged;
	u32 ctx_id, h;

	mcm_cdev_set_events(c, RDMA_MCM_EVENTS_KNOWN);
	ctx_id = mcm_cdev_create(c, MCM_SRC, RDMA_MCM_CTX_HEAL);
	h = mcm_cdev_join(c, ctx_id, MCM_GROUP(25), 0x25,
			  RDMA_MCM_JOIN_FULLMEMBER);
	mcm_fake_complete_all(c->fake);
	KUNIT_ASSERT_EQ(test, mcm_cdev_read(c, ev, MCM_CDEV_MAX_EVENTS), 1);
	mcm_fake_remove_device(c->fake, 0);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test,
			atomic_read(&c->callbacks[RDMA_MCM_EVENT_DEVICE_REMOVED]),
			1);
	KUNIT_EXPECT_EQ(test, mcm_cdev_queued(c, ctx_id, h), 1U);
	purged = rdma_mcm_counter_read(&rdma_mcm_global_counters,
				       RDMA_MCM_CNT_PURGED);
	mcm_cdev_destroy(c, ctx_id);
	KUNIT_EXPECT_EQ(test, rdma_mcm_counter_read(&rdma_mcm_global_counters,
						    RDMA_MCM_CNT_PURGED) - purged,
			2ULL);
	mcm_cdev_expect_events(c, ev, NULL, 0);
	mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
}

/*
 * Kernel review finding 2 through the file: a healing context, the
 * default event mask (no SET_EVENTS: JOINED and ERROR), a first join that
 * fails transiently (the SA did not answer) and is joined again after the
 * backoff. The application must read a JOINED: a membership never joined
 * before is joined, not rejoined. With every event type asked for, no
 * REJOINING comes before that first JOINED either.
 */
static void mcm_cdev_heal_first_join(struct kunit *test, bool all_events)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	static const u32 joined[] = { RDMA_MCM_EVENT_JOINED };
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	struct rdma_mcm_ctx *mctx;
	u32 ctx_id, h;

	if (all_events)
		mcm_cdev_set_events(c, RDMA_MCM_EVENTS_KNOWN);
	ctx_id = mcm_cdev_create(c, MCM_SRC, RDMA_MCM_CTX_HEAL);
	mctx = mcm_cdev_mctx(c, ctx_id);
	h = mcm_cdev_join(c, ctx_id, MCM_GROUP(30), 0x30,
			  RDMA_MCM_JOIN_FULLMEMBER);
	mcm_fake_complete(c->fake, mcm_fake_join_of(test, MCM_GROUP(30)),
			  -ETIMEDOUT, false);
	rdma_mcm_flush();
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, h).state,
			(u32)RDMA_MCM_STATE_WAITING);
	mcm_cdev_expect_events(c, ev, NULL, 0);

	mcm_tick(test, mctx, MCM_MIN_MS);	/* past the backoff */
	KUNIT_ASSERT_EQ(test, c->fake->joins_called, 2);
	KUNIT_ASSERT_TRUE(test, mcm_fake_complete(c->fake,
						  mcm_fake_join_of(test,
								   MCM_GROUP(30)),
						  0, false));
	rdma_mcm_flush();
	mcm_cdev_expect_events(c, ev, joined, 1);
	KUNIT_EXPECT_EQ(test, ev[0].handle, h);
	KUNIT_EXPECT_EQ(test, ev[0].cookie, 0x30ULL);
	KUNIT_EXPECT_EQ(test, mcm_cdev_query(c, ctx_id, h).state,
			(u32)RDMA_MCM_STATE_JOINED);
	KUNIT_EXPECT_EQ(test, mcm_cdev_leave(c, ctx_id, h), 1U);
	mcm_cdev_destroy(c, ctx_id);
	mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
}

static void mcm_cdev_heal_first_join_default_mask(struct kunit *test)
{
	mcm_cdev_heal_first_join(test, false);
}

static void mcm_cdev_heal_first_join_all_events(struct kunit *test)
{
	mcm_cdev_heal_first_join(test, true);
}

/*
 * Kernel review finding 3 through the file: a healing route context loses
 * its device; the device is back, but the search for it fails once (no
 * route yet: -ENETUNREACH); then the route is there. Nothing tells the
 * context so: it must look again by itself. After 60 s on the fake's
 * clock the file reads DEVICE_ADDED, then, the rejoin completed, REJOINED.
 */
static void mcm_cdev_heal_route_search_retried(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_open(test);
	static const u32 joined[] = { RDMA_MCM_EVENT_JOINED };
	static const u32 lost[] = {
		RDMA_MCM_EVENT_REJOINING, RDMA_MCM_EVENT_DEVICE_REMOVED,
	};
	static const u32 back[] = {
		RDMA_MCM_EVENT_DEVICE_ADDED, RDMA_MCM_EVENT_REJOINED,
	};
	struct rdma_mcm_event ev[MCM_CDEV_MAX_EVENTS];
	struct rdma_mcm_ctx *mctx;
	struct rdma_mcm_member m;
	u32 ctx_id, h, port;
	int binds, i;

	mcm_cdev_set_events(c, RDMA_MCM_EVENTS_KNOWN);
	ctx_id = mcm_cdev_create(c, MCM_GROUP(40),
				 RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE);
	mctx = mcm_cdev_mctx(c, ctx_id);
	h = mcm_cdev_join(c, ctx_id, MCM_GROUP(41), 0x41,
			  RDMA_MCM_JOIN_FULLMEMBER);
	mcm_fake_complete_all(c->fake);
	mcm_cdev_expect_events(c, ev, joined, 1);

	mcm_fake_remove_device(c->fake, 0);
	rdma_mcm_flush();
	mcm_cdev_expect_events(c, ev, lost, 2);
	KUNIT_EXPECT_EQ(test, ev[0].status, -ENODEV);

	/* the device is back, the route is not: one search, which fails */
	c->fake->resolve_ret = -ENETUNREACH;
	binds = c->fake->binds;
	mcm_fake_add_device(c->fake, 0);	/* kicks the context */
	mcm_tick(test, mctx, 0);
	KUNIT_ASSERT_EQ_MSG(test, c->fake->binds, binds + 1,
			    "the context did not look for its device once");
	KUNIT_EXPECT_NULL(test, rdma_mcm_device(mctx, &port));
	mcm_cdev_expect_events(c, ev, NULL, 0);

	/*
	 * the route is there now, which no RDMA event says: the work is
	 * armed for the search's retry (the first backoff, 3/4 of it with
	 * the fake's jitter 0), and runs as that timer comes
	 */
	c->fake->resolve_ret = 0;
	KUNIT_EXPECT_EQ(test, mcm_fake_armed_for(c->fake, mctx),
			c->fake->clock_ms + 750);
	for (i = 0; i < 60 && !rdma_mcm_device(mctx, &port); i++) {
		u64 due = mcm_fake_armed_for(c->fake, mctx);

		KUNIT_ASSERT_NE(test, due, 0ULL);
		c->fake->clock_ms = max(c->fake->clock_ms, due);
		mcm_fake_clear_armed(c->fake, mctx);
		mcm_tick(test, mctx, 0);
	}
	KUNIT_EXPECT_PTR_EQ(test, rdma_mcm_device(mctx, &port),
			    c->fake->ibdev[0]);
	mcm_fake_complete_all(c->fake);
	rdma_mcm_flush();
	mcm_cdev_expect_events(c, ev, back, 2);
	KUNIT_EXPECT_EQ(test, ev[0].port_num, 1);
	KUNIT_EXPECT_EQ(test, ev[1].handle, h);
	KUNIT_EXPECT_EQ(test, ev[1].cookie, 0x41ULL);
	m = mcm_cdev_query(c, ctx_id, h);
	KUNIT_EXPECT_EQ(test, m.state, (u32)RDMA_MCM_STATE_JOINED);
	KUNIT_EXPECT_EQ(test, m.rejoins, 1U);
	mcm_cdev_leave(c, ctx_id, h);
	mcm_cdev_destroy(c, ctx_id);
	mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
}

static int mcm_cdev_init(struct kunit *test)
{
	struct mcm_test *t;
	struct mcm_cdev *c;
	int ret;

	ret = mcm_test_init(test);
	if (ret)
		return ret;
	t = test->priv;
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->test = test;
	c->fake = t->fake;
	init_completion(&c->cb_entered);
	init_completion(&c->cb_release);
	t->suite = c;
	/* healing contexts: the module's default knobs */
	mcm_restore_params(NULL);
	return kunit_add_action_or_reset(test, mcm_restore_params, NULL);
}

/*
 * A case that stopped on a failed assertion leaves nothing blocked or
 * open: the held callback goes on, the threads end, the file is closed
 * before the fake goes. Then the manager's checks of every case.
 */
static void mcm_cdev_exit(struct kunit *test)
{
	struct mcm_cdev *c = mcm_cdev_of(test);
	int i;

	if (!c)		/* the init failed */
		return;
	WRITE_ONCE(c->block_joined, false);
	complete_all(&c->cb_release);
	for (i = 0; i < c->nr_threads; i++)
		KUNIT_EXPECT_TRUE_MSG(test, mcm_cdev_wait(&c->threads[i]->done),
				      "thread %d still runs", i);
	if (c->filp)
		mcm_cdev_close(c);
	mcm_cdev_expect_no_live(test);
	mcm_test_exit(test);
}

static struct kunit_case rdma_mcm_cdev_cases[] = {
	KUNIT_CASE(mcm_cdev_join_read_leave),
	KUNIT_CASE(mcm_cdev_direct_joined_vs_leave),
	KUNIT_CASE(mcm_cdev_direct_joined_vs_destroy_ctx),
	KUNIT_CASE(mcm_cdev_direct_joined_vs_close),
	KUNIT_CASE(mcm_cdev_leave_purges_queued),
	KUNIT_CASE(mcm_cdev_destroy_purges_ctx_events),
	KUNIT_CASE(mcm_cdev_heal_first_join_default_mask),
	KUNIT_CASE(mcm_cdev_heal_first_join_all_events),
	KUNIT_CASE(mcm_cdev_heal_route_search_retried),
	{}
};

static struct kunit_suite rdma_mcm_cdev_suite = {
	.name = "rdma_mcm_cdev",
	.init = mcm_cdev_init,
	.exit = mcm_cdev_exit,
	.test_cases = rdma_mcm_cdev_cases,
};

kunit_test_suite(rdma_mcm_cdev_suite);
