// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: RDMA devices and the contexts bound to them.
 *
 * rdma_mcm's ib_client (rdma_mcm_ib_client.c) tells of every RDMA device
 * that comes and goes, ahead of rdma_cm and ib_uverbs: the removal
 * (rdma_mcm_dev_remove()) marks the device as going, tells every context
 * bound to it (each context's work runs the ULP's ->error() and
 * ->device_removed() callbacks and destroys its rdma_cm_ids), and waits
 * for them. rdma_cm's DEVICE_REMOVAL event is the backstop for an id bound
 * in the meantime; a slot that binds to a device marked as going fails at
 * once.
 *
 * The registry of every open context lives here too: an xarray indexed by
 * the context's id, each context recording its device under
 * rdma_mcm_dev_lock. A walk of it lets go of the lock every
 * rdma_mcm_walk_batch contexts and resumes from the index it reached, so
 * that no walk keeps preemption off for more than a batch, however many
 * contexts the host has.
 *
 * For healing contexts, this is also where a device's changes are heard:
 * a device registered, and a device's events (its GID table changed, a
 * port became active, the SM changed or asked for a reregister) kick the
 * contexts concerned: those without a device look for one, those on the
 * device check their address still leads there, and after a port or SM
 * event their waiting memberships need not wait any longer. And each
 * device has the rejoin budget of every context on it: rejoin_rate
 * rejoins a second, at most a tenth of a second's worth at once, given
 * out by turns (rdma_mcm_dev_rejoin_turn()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

/**
 * struct rdma_mcm_dev - an RDMA device rdma_mcm knows
 * @node: entry in rdma_mcm_devs, or in rdma_mcm_gone once removed
 * @device: the device
 * @index: its index in ib_core: a device registered again where a removed
 *	one was has another
 * @removing: its unregistration has begun: no context may bind to it
 * @tat_us: the rejoin budget: when the next rejoin would be due if every
 *	rejoin granted so far were spaced evenly at rejoin_rate (the
 *	"theoretical arrival time" of a cell-rate limiter, in microseconds
 *	of the backend's clock; 0: none granted yet)
 * @counters: its counters (by name, kept for the module's life), or NULL
 * @name: its name, kept here (under rdma_mcm_dev_lock) by .add and
 *	.rename: ib_device_rename() frees the old name under a lock of
 *	ib_core's that no client can take, so dev_name() is not read later
 *
 * ib_core says when a device's unregistration begins, not when it ends:
 * rdma_cm still hands the device to a bind until its own client is
 * removed, after rdma_mcm's. So a removed device stays known as removing,
 * on a short list of the last ones removed (its pointer is only compared,
 * never followed), until the same pointer is registered again.
 */
struct rdma_mcm_dev {
	struct list_head node;
	struct ib_device *device;
	u32 index;
	bool removing;
	u64 tat_us;
	struct rdma_mcm_counters *counters;
	char name[IB_DEVICE_NAME_MAX];
};

#define RDMA_MCM_GONE_MAX	16

/* Contexts a registry walk passes under rdma_mcm_dev_lock at a time */
unsigned int rdma_mcm_walk_batch = 64;

static DEFINE_SPINLOCK(rdma_mcm_dev_lock);	/* the lists, ctx->device */
static LIST_HEAD(rdma_mcm_devs);
static LIST_HEAD(rdma_mcm_gone);
static unsigned int rdma_mcm_nr_devs;		/* under rdma_mcm_dev_lock */
static unsigned int rdma_mcm_nr_gone;		/* under rdma_mcm_dev_lock */
static u64 rdma_mcm_removals;			/* under rdma_mcm_dev_lock */
static DEFINE_XARRAY_FLAGS(rdma_mcm_ctxs, XA_FLAGS_ALLOC1);

/*
 * The next registered context from *@idx to @last on which @fn returns
 * true, called under rdma_mcm_dev_lock (held by the caller, who takes a
 * reference if it needs one before letting go); *@idx is set to its
 * index. Every rdma_mcm_walk_batch contexts passed over, the lock is let
 * go of for a moment, and the CPU (every walker may sleep): a context
 * registered meanwhile below *@idx is not seen, one freed meanwhile is no
 * longer in the registry. NULL when there is none.
 */
static struct rdma_mcm_ctx *
rdma_mcm_registry_find(unsigned long *idx, unsigned long last,
		       bool (*fn)(struct rdma_mcm_ctx *ctx, void *arg),
		       void *arg)
	__must_hold(&rdma_mcm_dev_lock)
{
	struct rdma_mcm_ctx *ctx;
	unsigned int n = 0;

	lockdep_assert_held(&rdma_mcm_dev_lock);
	for (ctx = xa_find(&rdma_mcm_ctxs, idx, last, XA_PRESENT); ctx;
	     ctx = xa_find_after(&rdma_mcm_ctxs, idx, last, XA_PRESENT)) {
		if (fn(ctx, arg))
			return ctx;
		if (++n < READ_ONCE(rdma_mcm_walk_batch))
			continue;
		n = 0;
		spin_unlock(&rdma_mcm_dev_lock);
		cond_resched();
		spin_lock(&rdma_mcm_dev_lock);
	}
	return NULL;
}

static struct rdma_mcm_dev *rdma_mcm_dev_find_in(struct list_head *list,
						 struct ib_device *device)
{
	struct rdma_mcm_dev *dev;

	lockdep_assert_held(&rdma_mcm_dev_lock);
	list_for_each_entry(dev, list, node)
		if (dev->device == device)
			return dev;
	return NULL;
}

static struct rdma_mcm_dev *rdma_mcm_dev_find(struct ib_device *device)
{
	struct rdma_mcm_dev *dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);

	if (dev)
		return dev;
	dev = rdma_mcm_dev_find_in(&rdma_mcm_gone, device);
	return dev && dev->index == device->index ? dev : NULL;
}

/* @device's name as rdma_mcm keeps it, "" for none; rdma_mcm_dev_lock held */
static void rdma_mcm_dev_name_locked(struct ib_device *device, char *name,
				     size_t len)
{
	struct rdma_mcm_dev *dev = device ? rdma_mcm_dev_find(device) : NULL;

	strscpy(name, dev ? dev->name : "", len);
}

/**
 * rdma_mcm_dev_add() - a device was registered
 * @device: the device
 *
 * The ib_client's .add; KUnit calls it for its fake device.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int rdma_mcm_dev_add(struct ib_device *device)
{
	struct rdma_mcm_dev *dev, *old;

	/* a new device where a removed one was: forget that one first */
	spin_lock(&rdma_mcm_dev_lock);
	old = rdma_mcm_dev_find_in(&rdma_mcm_gone, device);
	if (old) {
		list_del(&old->node);
		rdma_mcm_nr_gone--;
	}
	spin_unlock(&rdma_mcm_dev_lock);
	kfree(old);

	dev = kzalloc_obj(*dev, GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->device = device;
	dev->index = device->index;
	strscpy(dev->name, dev_name(&device->dev), sizeof(dev->name));
	dev->counters = rdma_mcm_dev_counters(dev->name);
	spin_lock(&rdma_mcm_dev_lock);
	list_add_tail(&dev->node, &rdma_mcm_devs);
	rdma_mcm_nr_devs++;
	spin_unlock(&rdma_mcm_dev_lock);
	/* a context that lost its device may find this one */
	rdma_mcm_dev_changed(device, 0, RDMA_MCM_DEV_ADDED);
	pr_debug("device %s added\n", dev_name(&device->dev));
	return 0;
}

/* Marks what rdma_mcm_dev_remove() walks for: contexts on its device */
struct rdma_mcm_removal {
	struct ib_device *device;
	u64 seq;
	unsigned int n;
};

/* A context on the device: tell it, and mark it as this removal's. */
static bool rdma_mcm_removal_mark(struct rdma_mcm_ctx *ctx, void *arg)
{
	struct rdma_mcm_removal *r = arg;

	if (ctx->device != r->device)
		return false;
	ctx->removal = r->seq;
	rdma_mcm_ctx_lose_device(ctx);
	r->n++;
	return false;		/* on to the next one */
}

/* A context this removal marked, which it must wait for. */
static bool rdma_mcm_removal_marked(struct rdma_mcm_ctx *ctx, void *arg)
{
	struct rdma_mcm_removal *r = arg;

	return ctx->removal == r->seq && refcount_inc_not_zero(&ctx->ref);
}

/**
 * rdma_mcm_dev_remove() - a device is being unregistered
 * @device: the device
 *
 * Marks it as going, then takes it away from every context bound to it
 * and waits until each has run its callbacks and destroyed its rdma_cm_ids.
 * The ib_client's .remove; KUnit calls it for its fake device.
 *
 * Removals of two devices may overlap, and a healing context may lose
 * the first, find the second and be told of its removal before the first
 * removal has waited for it. Each removal therefore marks the contexts it
 * tells with a number of its own (ctx->removal) and waits for those that
 * still bear it: a context marked again by a later removal has already
 * let go of this device (it found the other only after destroying its
 * ids here), and that removal waits for it.
 *
 * Context: process context; sleeps until the contexts' ULPs let go.
 */
void rdma_mcm_dev_remove(struct ib_device *device)
{
	struct rdma_mcm_removal r = { .device = device };
	struct rdma_mcm_dev *dev, *old;
	struct rdma_mcm_ctx *ctx;
	unsigned long idx = 0;

	/* every context at once (their works run in parallel), then wait */
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (dev)
		dev->removing = true;
	r.seq = ++rdma_mcm_removals;
	rdma_mcm_registry_find(&idx, ULONG_MAX, rdma_mcm_removal_mark, &r);
	idx = 0;
	while ((ctx = rdma_mcm_registry_find(&idx, ULONG_MAX,
					     rdma_mcm_removal_marked, &r))) {
		spin_unlock(&rdma_mcm_dev_lock);
		rdma_mcm_ctx_wait_device_lost(ctx);
		rdma_mcm_ctx_put(ctx);
		idx++;
		spin_lock(&rdma_mcm_dev_lock);
	}
	spin_unlock(&rdma_mcm_dev_lock);
	pr_debug("device %s removed; %u contexts lost it\n",
		 dev_name(&device->dev), r.n);

	/* keep it known as removing for a while: see struct rdma_mcm_dev */
	dev = NULL;
	spin_lock(&rdma_mcm_dev_lock);
	old = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (old) {
		list_move_tail(&old->node, &rdma_mcm_gone);
		rdma_mcm_nr_devs--;
		if (++rdma_mcm_nr_gone > RDMA_MCM_GONE_MAX) {
			dev = list_first_entry(&rdma_mcm_gone,
					       struct rdma_mcm_dev, node);
			list_del(&dev->node);
			rdma_mcm_nr_gone--;
		}
	}
	spin_unlock(&rdma_mcm_dev_lock);
	kfree(dev);
}

/**
 * rdma_mcm_dev_removing() - has a device's unregistration begun
 * @device: the device
 *
 * Return: true once rdma_mcm_dev_remove() has started for @device.
 */
bool rdma_mcm_dev_removing(struct ib_device *device)
{
	struct rdma_mcm_dev *dev;
	bool removing;

	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find(device);
	removing = dev && dev->removing;
	spin_unlock(&rdma_mcm_dev_lock);
	return removing;
}

/**
 * rdma_mcm_dev_mcast() - a registered device's multicast limits and use
 * @name: the device's name
 * @vals: set, indexed by enum rdma_mcm_nl_mcast (rdma_mcm_admit_usage())
 *
 * Context: any but hard interrupt context.
 * Return: true when a device of that name is registered (not removing).
 */
bool rdma_mcm_dev_mcast(const char *name, u32 *vals)
{
	struct rdma_mcm_dev *dev;
	bool found = false;

	spin_lock(&rdma_mcm_dev_lock);
	list_for_each_entry(dev, &rdma_mcm_devs, node) {
		if (dev->removing || strcmp(dev->name, name))
			continue;
		rdma_mcm_admit_usage(dev->device, vals);
		found = true;
		break;
	}
	spin_unlock(&rdma_mcm_dev_lock);
	return found;
}

/**
 * rdma_mcm_dev_rejoin_turn() - a turn for one rejoin in a device's budget
 * @device: the device
 * @now_ms: now, on the backend's clock
 *
 * The budget is rejoin_rate rejoins a second, in bursts of at most a tenth
 * of a second's worth. Every call is given a turn: now while the budget
 * has room, else the first time after every turn given before it (a
 * cell-rate limiter: turns are spaced 1/rejoin_rate apart once the burst
 * is used). A context asks for one turn at a time and takes it when it
 * comes, so the contexts waiting on a device take turns with each other:
 * one with thousands of memberships to rejoin gets no more of the budget
 * than one with a single membership, and none waits for another's
 * backlog.
 *
 * Context: process context (the rejoin work); does not sleep.
 * Return: when the rejoin may go (@now_ms or later); @now_ms when
 * rejoin_rate is 0 (no limit) or rdma_mcm does not know @device.
 */
u64 rdma_mcm_dev_rejoin_turn(struct ib_device *device, u64 now_ms)
{
	u64 rate = READ_ONCE(rdma_mcm_rejoin_rate);
	u64 now_us = now_ms * USEC_PER_MSEC, step, burst, at, turn_us;
	struct rdma_mcm_dev *dev;

	if (!rate)
		return now_ms;
	step = max_t(u64, 1, USEC_PER_SEC / rate);
	burst = (max_t(u64, 1, rate / 10) - 1) * step;
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (!dev) {
		spin_unlock(&rdma_mcm_dev_lock);
		return now_ms;
	}
	at = max(dev->tat_us, now_us);
	turn_us = at > now_us + burst ? at - burst : now_us;
	dev->tat_us = at + step;
	spin_unlock(&rdma_mcm_dev_lock);
	return DIV_ROUND_UP_ULL(turn_us, USEC_PER_MSEC);
}

/* What rdma_mcm_dev_changed() kicks, and how */
struct rdma_mcm_change {
	struct ib_device *device;
	u32 port_num;
	enum rdma_mcm_dev_change what;
};

static bool rdma_mcm_change_kick(struct rdma_mcm_ctx *ctx, void *arg)
{
	struct rdma_mcm_change *c = arg;
	bool mine, kick = false;

	mine = ctx->device == c->device &&
	       (!c->port_num || ctx->port_num == c->port_num);
	if (!mine && (ctx->device || !(ctx->flags & RDMA_MCM_OPEN_HEAL)))
		return false;
	/*
	 * A flag already set has its run armed (rdma_mcm_rejoin_run() arms
	 * for what is owed): a storm of changes costs one kick a context
	 * until that run, and the run checks for GID changes at most once
	 * in RDMA_MCM_LOOK_MIN_MS.
	 */
	spin_lock_bh(&ctx->lock);
	switch (c->what) {
	case RDMA_MCM_DEV_ADDED:
		kick = !ctx->look_for_device;
		ctx->look_for_device = true;
		break;
	case RDMA_MCM_DEV_GID_CHANGED:
		kick = !ctx->look_for_device && !ctx->gid_changed;
		ctx->gid_changed = true;
		break;
	case RDMA_MCM_DEV_PORT_UP:
		if (!mine)
			break;
		kick = !ctx->rejoin_now;
		ctx->rejoin_now = true;
		break;
	}
	spin_unlock_bh(&ctx->lock);
	if (kick)
		rdma_mcm_rejoin_kick(ctx);
	return false;
}

/**
 * rdma_mcm_dev_changed() - a device appeared or changed: kick its contexts
 * @device: the device
 * @port_num: the port the change is about, 0 for the whole device
 * @what: %RDMA_MCM_DEV_ADDED: healing contexts without a device look for
 *	one at once; %RDMA_MCM_DEV_GID_CHANGED: they, and the contexts on
 *	the port, look (or check that their address still leads there) soon,
 *	at most once in RDMA_MCM_LOOK_MIN_MS (any user who can change the
 *	addresses of a netdev of the port, a container's macvlan say, makes
 *	GID changes); %RDMA_MCM_DEV_PORT_UP: a port or SM event (the port is
 *	up, or the SM asks for joins again): the port's waiting memberships
 *	need not wait
 *
 * Kicks every healing context without a device, and every context on
 * @device (and @port_num), unless its rejoin work is already due to do
 * what is asked. Holding rdma_mcm_dev_lock keeps them from being freed
 * meanwhile (a context leaves the registry under it before it is freed,
 * and its free cancels the work kicked here).
 *
 * Context: process context: ib_core's port and SM events come from its
 * workqueue, a GID change from ib_cache_gid_add() or _del() under the GID
 * table's mutex (and at times the RTNL), a device added from the
 * ib_client's ->add(). May sleep, briefly: the walk of every context lets
 * other tasks run between its batches.
 */
void rdma_mcm_dev_changed(struct ib_device *device, u32 port_num,
			  enum rdma_mcm_dev_change what)
{
	struct rdma_mcm_change c = {
		.device = device, .port_num = port_num, .what = what,
	};
	unsigned long idx = 0;

	spin_lock(&rdma_mcm_dev_lock);
	rdma_mcm_registry_find(&idx, ULONG_MAX, rdma_mcm_change_kick, &c);
	spin_unlock(&rdma_mcm_dev_lock);
}

/**
 * rdma_mcm_registry_add() - enter a new context in the registry
 * @ctx: the context, without a device yet
 *
 * Return: 0, or -ENOMEM.
 */
int rdma_mcm_registry_add(struct rdma_mcm_ctx *ctx)
{
	int ret;

	ret = xa_alloc(&rdma_mcm_ctxs, &ctx->id, ctx, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	return ret == -EBUSY ? -ENOMEM : ret;
}

/**
 * rdma_mcm_registry_del() - take a context out of the registry
 * @ctx: the context, about to be freed
 *
 * After this, no device removal can find @ctx.
 */
void rdma_mcm_registry_del(struct rdma_mcm_ctx *ctx)
{
	spin_lock(&rdma_mcm_dev_lock);
	xa_erase(&rdma_mcm_ctxs, ctx->id);
	ctx->device = NULL;
	spin_unlock(&rdma_mcm_dev_lock);
}

/* A context @match accepts, with a reference taken */
struct rdma_mcm_registry_match {
	bool (*match)(const struct rdma_mcm_ctx *ctx, const void *arg);
	const void *arg;
};

static bool rdma_mcm_registry_take(struct rdma_mcm_ctx *ctx, void *arg)
{
	struct rdma_mcm_registry_match *m = arg;

	return m->match(ctx, m->arg) && refcount_inc_not_zero(&ctx->ref);
}

/**
 * rdma_mcm_registry_get() - the open context with the lowest id in
 *	[@from, @last] that @match accepts
 * @from: the first id to look at
 * @last: the last id to look at
 * @match: called under the lock for each context, which it must only read
 *	(what rdma_mcm_dump.c's walks may see: immutable once a context is
 *	in the registry); the others are passed over without a reference
 *	taken (nor dropped: never the last)
 * @arg: passed to @match
 * @name: set to its device's name ("" without one)
 * @len: room in @name
 * @port_num: set to its port (0 without a device)
 *
 * For the walks of rdma_mcm_dump.c: what a context's device is, told
 * under the lock that keeps it. Passing over many contexts lets go of the
 * lock (and the CPU) between batches.
 *
 * Context: process context; may sleep.
 * Return: the context, with a reference the caller drops with
 * rdma_mcm_ctx_put(), or NULL when there is none.
 */
struct rdma_mcm_ctx *
rdma_mcm_registry_get(u32 from, u32 last,
		      bool (*match)(const struct rdma_mcm_ctx *ctx,
				    const void *arg),
		      const void *arg, char *name, size_t len, u32 *port_num)
{
	struct rdma_mcm_registry_match m = { .match = match, .arg = arg };
	unsigned long idx = from;
	struct rdma_mcm_ctx *ctx;

	might_sleep();
	spin_lock(&rdma_mcm_dev_lock);
	ctx = rdma_mcm_registry_find(&idx, last, rdma_mcm_registry_take, &m);
	rdma_mcm_dev_name_locked(ctx ? ctx->device : NULL, name, len);
	*port_num = ctx && ctx->device ? ctx->port_num : 0;
	spin_unlock(&rdma_mcm_dev_lock);
	return ctx;
}

/**
 * rdma_mcm_ctx_dev_name() - the name of a context's device
 * @ctx: the context
 * @name: set to the name, "" without a device
 * @len: room in @name
 *
 * Context: any context but hard interrupt; does not sleep.
 */
void rdma_mcm_ctx_dev_name(struct rdma_mcm_ctx *ctx, char *name, size_t len)
{
	spin_lock(&rdma_mcm_dev_lock);
	rdma_mcm_dev_name_locked(ctx->device, name, len);
	spin_unlock(&rdma_mcm_dev_lock);
}

/* Is @w where @ctx's ids are? rdma_mcm_dev_lock held */
static bool rdma_mcm_ctx_at_locked(struct rdma_mcm_ctx *ctx,
				   const struct rdma_mcm_where *w)
{
	lockdep_assert_held(&rdma_mcm_dev_lock);
	return ctx->device == w->device && ctx->port_num == w->port_num &&
	       ctx->ifindex == w->ifindex && ctx->sgid_index == w->sgid_index;
}

/**
 * rdma_mcm_ctx_is_at() - is a context's device where an id landed
 * @ctx: the context
 * @w: where the id landed
 *
 * On RoCE the device and port do not say where a source address is: the
 * VLAN, macvlan and bond uppers of the port's netdev have GIDs of their
 * own on the same port. So the netdev the id is bound on and its source
 * GID's index count too: an address that moved to another netdev of the
 * port, or was removed and added again, leads elsewhere (IGMP/MLD on the
 * old netdev, address handles of a GID entry that is gone).
 *
 * Return: true when @w is the context's device, port, netdev and GID.
 */
bool rdma_mcm_ctx_is_at(struct rdma_mcm_ctx *ctx,
			const struct rdma_mcm_where *w)
{
	bool at;

	spin_lock(&rdma_mcm_dev_lock);
	at = rdma_mcm_ctx_at_locked(ctx, w);
	spin_unlock(&rdma_mcm_dev_lock);
	return at;
}

/**
 * rdma_mcm_ctx_set_device() - check where a new rdma_cm_id landed
 * @ctx: the context
 * @w: where the id landed (rdma_mcm_id_where())
 *
 * The context's first id gives it its device, port, netdev and source GID.
 * A device whose removal has begun is refused. An id of a context that
 * lost its device is refused; one elsewhere than the context's ids (see
 * rdma_mcm_ctx_is_at()) means that the source address moved: the context
 * loses its device.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0, or -ENODEV.
 */
int rdma_mcm_ctx_set_device(struct rdma_mcm_ctx *ctx,
			    const struct rdma_mcm_where *w)
{
	struct ib_device *device = w->device;
	u32 port_num = w->port_num;
	bool moved = false, rekey = false;
	struct rdma_mcm_dev *dev;
	int ret = 0;

	lockdep_assert_held(&ctx->mutex);
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find(device);
	if ((dev && dev->removing) || ctx->device_lost) {
		ret = -ENODEV;
	} else if (!ctx->device) {
		ctx->device = device;
		ctx->port_num = port_num;
		ctx->ifindex = w->ifindex;
		ctx->sgid_index = w->sgid_index;
		WRITE_ONCE(ctx->dev_counters, dev ? dev->counters : NULL);
		rekey = ctx->ib_mgid != rdma_protocol_ib(device, port_num);
		ctx->ib_mgid = rdma_protocol_ib(device, port_num);
		ctx->mcast = rdma_protocol_roce(device, port_num) ||
			     rdma_cap_ib_mcast(device, port_num);
	} else if (!rdma_mcm_ctx_at_locked(ctx, w)) {
		ret = -ENODEV;
		moved = true;
	}
	spin_unlock(&rdma_mcm_dev_lock);
	/* a healing context on the other link layer: IPv6 keys differ */
	if (rekey && ctx->src.sa.sa_family == AF_INET6)
		rdma_mcm_groups_rekey(ctx);
	if (moved) {
		pr_debug("source address of context %u moved from %s port %u ifindex %d gid %d to %s port %u ifindex %d gid %d\n",
			 ctx->id, dev_name(&ctx->device->dev), ctx->port_num,
			 ctx->ifindex, ctx->sgid_index, dev_name(&device->dev),
			 port_num, w->ifindex, w->sgid_index);
		rdma_mcm_ctx_lose_device(ctx);
	}
	return ret;
}

/**
 * rdma_mcm_ctx_clear_device() - a context no longer has a device
 * @ctx: the context
 *
 * Its turn in the device's rejoin budget goes with it.
 *
 * Context: @ctx->mutex held.
 */
void rdma_mcm_ctx_clear_device(struct rdma_mcm_ctx *ctx)
{
	lockdep_assert_held(&ctx->mutex);
	spin_lock(&rdma_mcm_dev_lock);
	ctx->device = NULL;
	WRITE_ONCE(ctx->dev_counters, NULL);
	spin_unlock(&rdma_mcm_dev_lock);
	ctx->has_turn = false;
}

/**
 * rdma_mcm_dev_rename() - a device has a new name
 * @device: the device, whose name ib_core holds stable meanwhile
 *
 * ib_device_rename() frees the old name under a lock of ib_core's that no
 * client can take, so rdma_mcm keeps a copy (struct rdma_mcm_dev).
 */
void rdma_mcm_dev_rename(struct ib_device *device)
{
	struct rdma_mcm_dev *dev;

	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (dev)
		strscpy(dev->name, dev_name(&device->dev), sizeof(dev->name));
	spin_unlock(&rdma_mcm_dev_lock);
}

/**
 * rdma_mcm_ib_device_count() - number of RDMA devices the client holds
 *
 * Return: how many devices have been added and not yet removed.
 */
unsigned int rdma_mcm_ib_device_count(void)
{
	unsigned int n;

	spin_lock(&rdma_mcm_dev_lock);
	n = rdma_mcm_nr_devs;
	spin_unlock(&rdma_mcm_dev_lock);
	return n;
}

/**
 * rdma_mcm_dev_forget_all() - forget the devices removed
 *
 * Context: module exit, once every device is removed and every context
 * closed.
 */
void rdma_mcm_dev_forget_all(void)
{
	struct rdma_mcm_dev *dev, *tmp;

	WARN_ON_ONCE(!list_empty(&rdma_mcm_devs));
	WARN_ON_ONCE(!xa_empty(&rdma_mcm_ctxs));
	list_for_each_entry_safe(dev, tmp, &rdma_mcm_gone, node)
		kfree(dev);
	INIT_LIST_HEAD(&rdma_mcm_gone);
	rdma_mcm_nr_gone = 0;
}
