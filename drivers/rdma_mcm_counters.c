// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: counters. Each event is counted three times: in its context,
 * in the context's RDMA device, and module-wide. The netlink family reports
 * them (RDMA_MCM_CMD_CTX_GET, RDMA_MCM_CMD_STATS_GET).
 *
 * A device's counters are kept by name for the module's lifetime, so that
 * a device that is unregistered and registered again (a reset, a driver
 * reload) keeps counting where it was, as an administrator reading them
 * across the reset expects; at most RDMA_MCM_DEV_COUNTERS_MAX names are
 * kept, later ones count module-wide only.
 *
 * Also what the module keeps of itself for its tests and debugfs, which
 * every part may touch (a leaf: it calls nothing of the module): the
 * objects alive, one counter per kind that the part owning the kind
 * keeps (rdma_mcm_live[]), and the fault-injection point of every
 * allocation (rdma_mcm_fail_alloc()).
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/fault-inject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rdma_mcm_internal.h"

#define RDMA_MCM_DEV_COUNTERS_MAX	64

struct rdma_mcm_dev_counters {
	struct list_head node;
	char name[IB_DEVICE_NAME_MAX];
	struct rdma_mcm_counters c;
};

struct rdma_mcm_counters rdma_mcm_global_counters;
atomic64_t rdma_mcm_events_lost = ATOMIC64_INIT(0);
atomic_t rdma_mcm_live[RDMA_MCM_LIVE_NR];

#ifdef CONFIG_FAULT_INJECTION
DECLARE_FAULT_ATTR(rdma_mcm_fail_alloc_attr);
#endif

/**
 * rdma_mcm_live_objects() - a snapshot of the objects alive in the module
 * @live: filled in from rdma_mcm_live[]
 */
void rdma_mcm_live_objects(struct rdma_mcm_live *live)
{
	live->contexts = rdma_mcm_live_read(RDMA_MCM_LIVE_CONTEXTS);
	live->members = rdma_mcm_live_read(RDMA_MCM_LIVE_MEMBERS);
	live->slots = rdma_mcm_live_read(RDMA_MCM_LIVE_SLOTS);
	live->ipsocks = rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS);
	live->files = rdma_mcm_live_read(RDMA_MCM_LIVE_FILES);
	live->ucontexts = rdma_mcm_live_read(RDMA_MCM_LIVE_UCONTEXTS);
	live->umembers = rdma_mcm_live_read(RDMA_MCM_LIVE_UMEMBERS);
	live->users = rdma_mcm_live_read(RDMA_MCM_LIVE_USERS);
}

static DEFINE_MUTEX(rdma_mcm_dev_counters_lock);	/* the list */
static LIST_HEAD(rdma_mcm_dev_counters_list);
static unsigned int rdma_mcm_nr_dev_counters;

/*
 * The errnos of the breakdowns: what rdma_mcm_join() and the char
 * device's JOIN return, and what a membership fails or waits with
 * (Documentation/uapi.rst). Slot 0: anything else.
 */
static const int rdma_mcm_errnos[RDMA_MCM_ERRNO_SLOTS] = {
	0, EINVAL, EAFNOSUPPORT, EADDRINUSE, ENODEV, ESHUTDOWN, EOPNOTSUPP,
	ENETDOWN, EADDRNOTAVAIL, ENETUNREACH, ETIMEDOUT, ENOMEM, EIO,
	ENETRESET, ECONNREFUSED, ENOSPC, EMFILE, ENOBUFS, ENOENT, EFAULT,
};

/**
 * rdma_mcm_errno_slot() - the breakdown slot of an errno
 * @err: a negative (or positive) errno
 *
 * Return: its slot, 0 for one not told apart.
 */
int rdma_mcm_errno_slot(int err)
{
	int i;

	if (err < 0)
		err = -err;
	for (i = 1; i < RDMA_MCM_ERRNO_SLOTS; i++)
		if (rdma_mcm_errnos[i] == err)
			return i;
	return 0;
}

/**
 * rdma_mcm_slot_errno() - the positive errno of a breakdown slot
 * @slot: the slot
 *
 * Return: the errno, 0 for slot 0 (any other) or a slot out of range.
 */
int rdma_mcm_slot_errno(int slot)
{
	if (slot < 0 || slot >= RDMA_MCM_ERRNO_SLOTS)
		return 0;
	return rdma_mcm_errnos[slot];
}

static struct rdma_mcm_counters *rdma_mcm_ctx_dev_counters(struct rdma_mcm_ctx *ctx)
{
	return ctx ? READ_ONCE(ctx->dev_counters) : NULL;
}

/**
 * rdma_mcm_count_n() - count @n events in a context, its device and globally
 * @ctx: the context, or NULL (module-wide only)
 * @c: the counter
 * @n: how many
 *
 * Context: any.
 */
void rdma_mcm_count_n(struct rdma_mcm_ctx *ctx, enum rdma_mcm_nl_counter c,
		      unsigned int n)
{
	struct rdma_mcm_counters *dev = rdma_mcm_ctx_dev_counters(ctx);

	if (WARN_ON_ONCE(c <= RDMA_MCM_CNT_UNSPEC || c >= __RDMA_MCM_CNT_MAX) ||
	    !n)
		return;
	if (ctx)
		atomic64_add(n, &ctx->counters.cnt[c]);
	if (dev)
		atomic64_add(n, &dev->cnt[c]);
	atomic64_add(n, &rdma_mcm_global_counters.cnt[c]);
}

/**
 * rdma_mcm_count() - count one event
 * @ctx: the context, or NULL
 * @c: the counter
 *
 * Context: any.
 */
void rdma_mcm_count(struct rdma_mcm_ctx *ctx, enum rdma_mcm_nl_counter c)
{
	rdma_mcm_count_n(ctx, c, 1);
}

static atomic64_t *rdma_mcm_breakdown(struct rdma_mcm_counters *c,
				      bool errors, int slot)
{
	return errors ? &c->errors[slot] : &c->join_failed[slot];
}

static void rdma_mcm_count_slot(struct rdma_mcm_ctx *ctx, bool errors,
				int err)
{
	struct rdma_mcm_counters *dev = rdma_mcm_ctx_dev_counters(ctx);
	int slot = rdma_mcm_errno_slot(err);

	if (ctx)
		atomic64_inc(rdma_mcm_breakdown(&ctx->counters, errors, slot));
	if (dev)
		atomic64_inc(rdma_mcm_breakdown(dev, errors, slot));
	atomic64_inc(rdma_mcm_breakdown(&rdma_mcm_global_counters, errors,
					slot));
}

/**
 * rdma_mcm_count_join_failed() - a join was refused when asked for
 * @ctx: the context, or NULL (a join refused before it had one)
 * @err: the errno returned
 *
 * Context: any.
 */
void rdma_mcm_count_join_failed(struct rdma_mcm_ctx *ctx, int err)
{
	rdma_mcm_count(ctx, RDMA_MCM_CNT_JOIN_FAILED);
	rdma_mcm_count_slot(ctx, false, err);
}

/**
 * rdma_mcm_count_error() - a membership failed or started waiting
 * @ctx: the context
 * @c: %RDMA_MCM_CNT_ERRORS or %RDMA_MCM_CNT_WAITS
 * @status: its status
 *
 * Context: any.
 */
void rdma_mcm_count_error(struct rdma_mcm_ctx *ctx,
			  enum rdma_mcm_nl_counter c, int status)
{
	rdma_mcm_count(ctx, c);
	rdma_mcm_count_slot(ctx, true, status);
}

/**
 * rdma_mcm_counter_read() - one counter of a set
 * @c: the set
 * @which: the counter
 *
 * Return: its value.
 */
u64 rdma_mcm_counter_read(const struct rdma_mcm_counters *c,
			  enum rdma_mcm_nl_counter which)
{
	if (which <= RDMA_MCM_CNT_UNSPEC || which >= __RDMA_MCM_CNT_MAX)
		return 0;
	return atomic64_read(&c->cnt[which]);
}

/**
 * rdma_mcm_dev_counters() - the counters of a device, by name
 * @name: the device's name
 *
 * Found, or made on first use and kept until the module is unloaded.
 *
 * Context: process context.
 * Return: the counters, or NULL (no memory, or too many names).
 */
struct rdma_mcm_counters *rdma_mcm_dev_counters(const char *name)
{
	struct rdma_mcm_dev_counters *d;

	mutex_lock(&rdma_mcm_dev_counters_lock);
	list_for_each_entry(d, &rdma_mcm_dev_counters_list, node)
		if (!strcmp(d->name, name))
			goto out;
	d = NULL;
	if (rdma_mcm_nr_dev_counters >= RDMA_MCM_DEV_COUNTERS_MAX)
		goto out;
	/* the module's, not the first opener's: not charged to a memcg */
	d = kzalloc_obj(*d, GFP_KERNEL);
	if (!d)
		goto out;
	strscpy(d->name, name, sizeof(d->name));
	list_add_tail(&d->node, &rdma_mcm_dev_counters_list);
	WRITE_ONCE(rdma_mcm_nr_dev_counters, rdma_mcm_nr_dev_counters + 1);
out:
	mutex_unlock(&rdma_mcm_dev_counters_lock);
	return d ? &d->c : NULL;
}

/**
 * rdma_mcm_dev_counters_walk() - walk every device's counters
 * @fn: called for each, in the order the devices were first seen; a
 *	non-zero return stops the walk
 * @arg: passed to @fn
 *
 * Context: process context; @fn is called under a mutex of ours and must
 * not call back into the manager.
 * Return: what @fn returned last.
 */
int rdma_mcm_dev_counters_walk(int (*fn)(void *arg, const char *name,
					 const struct rdma_mcm_counters *c),
			       void *arg)
{
	struct rdma_mcm_dev_counters *d;
	int ret = 0;

	mutex_lock(&rdma_mcm_dev_counters_lock);
	list_for_each_entry(d, &rdma_mcm_dev_counters_list, node) {
		ret = fn(arg, d->name, &d->c);
		if (ret)
			break;
	}
	mutex_unlock(&rdma_mcm_dev_counters_lock);
	return ret;
}

/**
 * rdma_mcm_dev_counters_nr() - how many devices have counters
 *
 * Return: their number, at most 64.
 */
unsigned int rdma_mcm_dev_counters_nr(void)
{
	return READ_ONCE(rdma_mcm_nr_dev_counters);
}

void rdma_mcm_counters_exit(void)
{
	struct rdma_mcm_dev_counters *d, *tmp;

	mutex_lock(&rdma_mcm_dev_counters_lock);
	list_for_each_entry_safe(d, tmp, &rdma_mcm_dev_counters_list, node) {
		list_del(&d->node);
		kfree(d);
	}
	rdma_mcm_nr_dev_counters = 0;
	mutex_unlock(&rdma_mcm_dev_counters_lock);
}
