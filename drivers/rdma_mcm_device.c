// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: RDMA devices and the contexts bound to them.
 *
 * rdma_mcm's ib_client sees every RDMA device come and go. ib_core removes
 * the clients of an unregistering device in the reverse order of their
 * registration, and rdma_mcm registers after rdma_cm (it depends on it)
 * and after ib_uverbs (a soft dependency makes modprobe load ib_uverbs
 * first), so rdma_mcm hears of a removal before rdma_cm does, and before
 * ib_uverbs starts waiting for userspace to let go of the device (drivers
 * without disassociate_ucontext, rxe among them): .remove marks the
 * device as going, tells every context bound to it (each context's work
 * runs the ULP's ->error() and ->device_removed() callbacks and destroys
 * its rdma_cm_ids), and waits for them. rdma_cm's DEVICE_REMOVAL event is
 * the backstop for an id bound in the meantime; a slot that binds to a
 * device marked as going fails at once.
 *
 * The registry of every open context lives here too: an xarray indexed by
 * the context's id, each context recording its device under
 * rdma_mcm_dev_lock.
 *
 * For healing contexts, this is also where a device's changes are heard:
 * a device registered, and a device's events (its GID table changed, a
 * port became active, the SM changed or asked for a reregister) kick the
 * contexts concerned: those without a device look for one, those on the
 * device check their address still leads there, and after a port or SM
 * event their waiting memberships need not wait any longer. And each
 * device has the rejoin budget of every context on it: a token bucket of
 * rejoin_rate tokens a second, at most a tenth of a second's worth at once.
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
 * @mtokens: the rejoin budget, in thousandths of a rejoin
 * @stamp_ms: when @mtokens was last refilled (the backend's clock)
 * @handler: its event handler (devices of the ib_client only)
 * @has_handler: @handler is registered
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
	u64 mtokens;
	u64 stamp_ms;
	struct ib_event_handler handler;
	bool has_handler;
	struct rdma_mcm_counters *counters;
	char name[IB_DEVICE_NAME_MAX];
};

#define RDMA_MCM_GONE_MAX	16

static DEFINE_SPINLOCK(rdma_mcm_dev_lock);	/* the lists, ctx->device */
static LIST_HEAD(rdma_mcm_devs);
static LIST_HEAD(rdma_mcm_gone);
static unsigned int rdma_mcm_nr_devs;		/* under rdma_mcm_dev_lock */
static unsigned int rdma_mcm_nr_gone;		/* under rdma_mcm_dev_lock */
static DEFINE_XARRAY_FLAGS(rdma_mcm_ctxs, XA_FLAGS_ALLOC1);

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
	dev->mtokens = U64_MAX;		/* a full bucket at first use */
	spin_lock(&rdma_mcm_dev_lock);
	list_add_tail(&dev->node, &rdma_mcm_devs);
	rdma_mcm_nr_devs++;
	spin_unlock(&rdma_mcm_dev_lock);
	/* a context that lost its device may find this one */
	rdma_mcm_dev_changed(device, 0, false);
	pr_debug("device %s added\n", dev_name(&device->dev));
	return 0;
}

/**
 * rdma_mcm_dev_remove() - a device is being unregistered
 * @device: the device
 *
 * Marks it as going, then takes it away from every context bound to it
 * and waits until each has run its callbacks and destroyed its rdma_cm_ids.
 * The ib_client's .remove; KUnit calls it for its fake device.
 *
 * Context: process context; sleeps until the contexts' ULPs let go.
 */
void rdma_mcm_dev_remove(struct ib_device *device)
{
	struct rdma_mcm_dev *dev, *old;
	struct rdma_mcm_ctx *ctx, *tmp;
	unsigned long idx;
	unsigned int n = 0;
	LIST_HEAD(gone);

	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (dev)
		dev->removing = true;
	xa_for_each(&rdma_mcm_ctxs, idx, ctx) {
		if (ctx->device != device || !refcount_inc_not_zero(&ctx->ref))
			continue;
		list_add_tail(&ctx->gone_node, &gone);
		n++;
	}
	spin_unlock(&rdma_mcm_dev_lock);

	/* every context at once (their works run in parallel), then wait */
	list_for_each_entry(ctx, &gone, gone_node)
		rdma_mcm_ctx_lose_device(ctx);
	list_for_each_entry_safe(ctx, tmp, &gone, gone_node) {
		list_del(&ctx->gone_node);
		rdma_mcm_ctx_wait_device_lost(ctx);
		rdma_mcm_ctx_put(ctx);
	}
	pr_debug("device %s removed; %u contexts lost it\n",
		 dev_name(&device->dev), n);

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
 * rdma_mcm_dev_take_tokens() - take one rejoin from a device's budget
 * @device: the device
 * @now_ms: now, on the backend's clock
 * @wait_ms: set, when there is none, to how long until there is one
 *
 * Return: true when the rejoin may go now. A device rdma_mcm does not know
 * (or rejoin_rate 0) has no limit.
 */
bool rdma_mcm_dev_take_tokens(struct ib_device *device, u64 now_ms,
			      u64 *wait_ms)
{
	u64 rate = READ_ONCE(rdma_mcm_rejoin_rate);
	u64 cap = max_t(u64, 1, rate / 10) * 1000;
	struct rdma_mcm_dev *dev;
	bool ok = true;

	if (!rate)
		return true;
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (dev) {
		if (dev->mtokens == U64_MAX) {
			dev->mtokens = cap;
		} else if (now_ms > dev->stamp_ms) {
			dev->mtokens = min(cap, dev->mtokens +
					   (now_ms - dev->stamp_ms) * rate);
		}
		dev->stamp_ms = max(dev->stamp_ms, now_ms);
		ok = dev->mtokens >= 1000;
		if (ok)
			dev->mtokens -= 1000;
		else
			*wait_ms = DIV_ROUND_UP(1000 - dev->mtokens, rate);
	}
	spin_unlock(&rdma_mcm_dev_lock);
	return ok;
}

/**
 * rdma_mcm_dev_changed() - a device appeared or changed: kick its contexts
 * @device: the device
 * @port_num: the port the change is about, 0 for the whole device
 * @port_up: a port or SM event (the port is up, or the SM asks for
 *	joins again): waiting memberships of the port need not wait;
 *	otherwise a device or GID change: contexts look for (or check) their
 *	device
 *
 * Kicks every healing context without a device, and every context on
 * @device (and @port_num). Holding rdma_mcm_dev_lock keeps them from being
 * freed meanwhile (a context leaves the registry under it before it is
 * freed, and its free cancels the work kicked here).
 *
 * Context: any context but hard interrupt; does not sleep.
 */
void rdma_mcm_dev_changed(struct ib_device *device, u32 port_num,
			  bool port_up)
{
	struct rdma_mcm_ctx *ctx;
	unsigned long idx;
	bool mine;

	spin_lock(&rdma_mcm_dev_lock);
	xa_for_each(&rdma_mcm_ctxs, idx, ctx) {
		mine = ctx->device == device &&
		       (!port_num || ctx->port_num == port_num);
		if (!mine && (ctx->device ||
			      !(ctx->flags & RDMA_MCM_OPEN_HEAL)))
			continue;
		spin_lock_bh(&ctx->lock);
		if (mine && port_up)
			ctx->rejoin_now = true;
		else if (!port_up)
			ctx->look_for_device = true;
		spin_unlock_bh(&ctx->lock);
		rdma_mcm_rejoin_kick(ctx);
	}
	spin_unlock(&rdma_mcm_dev_lock);
}

static void rdma_mcm_dev_event(struct ib_event_handler *handler,
			       struct ib_event *event)
{
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_GID_CHANGE:
		rdma_mcm_dev_changed(event->device, port, false);
		break;
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
		rdma_mcm_dev_changed(event->device, port, true);
		break;
	default:
		break;
	}
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

/**
 * rdma_mcm_registry_get() - the open context with the lowest id >= @from
 *	that a caller may see
 * @from: the first id to look at
 * @f: the caller (rdma_mcm_may_see()); the others are passed over under
 *	the lock, without a reference taken (nor dropped: never the last)
 * @name: set to its device's name ("" without one)
 * @len: room in @name
 * @port_num: set to its port (0 without a device)
 *
 * For the walks of rdma_mcm_dump.c: what a context's device is, told
 * under the lock that keeps it.
 *
 * Return: the context, with a reference the caller drops with
 * rdma_mcm_ctx_put(), or NULL when there is none.
 */
struct rdma_mcm_ctx *rdma_mcm_registry_get(u32 from,
					   const struct rdma_mcm_dump_filter *f,
					   char *name, size_t len,
					   u32 *port_num)
{
	unsigned long idx = from;
	struct rdma_mcm_ctx *ctx;

	spin_lock(&rdma_mcm_dev_lock);
	ctx = xa_find(&rdma_mcm_ctxs, &idx, ULONG_MAX, XA_PRESENT);
	/* what it may see: immutable once the context is in the registry */
	while (ctx && (!rdma_mcm_may_see(f, ctx) ||
		       !refcount_inc_not_zero(&ctx->ref))) {
		if (f->ctx_id && idx >= f->ctx_id) {
			ctx = NULL;	/* the one asked for is not there */
			break;
		}
		ctx = xa_find_after(&rdma_mcm_ctxs, &idx, ULONG_MAX,
				    XA_PRESENT);
	}
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

/**
 * rdma_mcm_ctx_set_device() - check the device a new rdma_cm_id landed on
 * @ctx: the context
 * @device: the id's device
 * @port_num: the id's port
 *
 * The context's first id gives it its device and port. A device whose
 * removal has begun is refused. An id of a context that lost its device
 * is refused; one on another device or port than the context's means
 * that the source address moved: the context loses its device.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0, or -ENODEV.
 */
int rdma_mcm_ctx_set_device(struct rdma_mcm_ctx *ctx, struct ib_device *device,
			    u32 port_num)
{
	struct rdma_mcm_dev *dev;
	bool moved = false, rekey = false;
	int ret = 0;

	lockdep_assert_held(&ctx->mutex);
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find(device);
	if ((dev && dev->removing) || ctx->device_lost) {
		ret = -ENODEV;
	} else if (!ctx->device) {
		ctx->device = device;
		ctx->port_num = port_num;
		WRITE_ONCE(ctx->dev_counters, dev ? dev->counters : NULL);
		rekey = ctx->ib_mgid != rdma_protocol_ib(device, port_num);
		ctx->ib_mgid = rdma_protocol_ib(device, port_num);
		ctx->mcast = rdma_protocol_roce(device, port_num) ||
			     rdma_cap_ib_mcast(device, port_num);
	} else if (ctx->device != device || ctx->port_num != port_num) {
		ret = -ENODEV;
		moved = true;
	}
	spin_unlock(&rdma_mcm_dev_lock);
	/* a healing context on the other link layer: IPv6 keys differ */
	if (rekey && ctx->src.sa.sa_family == AF_INET6)
		rdma_mcm_groups_rekey(ctx);
	if (moved) {
		pr_debug("source address of context %u moved from %s port %u to %s port %u\n",
			 ctx->id, dev_name(&ctx->device->dev), ctx->port_num,
			 dev_name(&device->dev), port_num);
		rdma_mcm_ctx_lose_device(ctx);
	}
	return ret;
}

/**
 * rdma_mcm_ctx_clear_device() - a context no longer has a device
 * @ctx: the context
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
}

/* The ib_client's devices also have their events heard. */
static int rdma_mcm_ib_add_one(struct ib_device *device)
{
	struct rdma_mcm_dev *dev;
	int ret;

	ret = rdma_mcm_dev_add(device);
	if (ret)
		return ret;
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	spin_unlock(&rdma_mcm_dev_lock);
	/* the entry lives until .remove, which only this client calls */
	INIT_IB_EVENT_HANDLER(&dev->handler, device, rdma_mcm_dev_event);
	ib_register_event_handler(&dev->handler);
	dev->has_handler = true;
	/* a GID change before the handler was there: look once more */
	rdma_mcm_dev_changed(device, 0, false);
	return 0;
}

static void rdma_mcm_ib_remove_one(struct ib_device *device, void *client_data)
{
	struct rdma_mcm_dev *dev;

	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	spin_unlock(&rdma_mcm_dev_lock);
	if (dev && dev->has_handler) {
		ib_unregister_event_handler(&dev->handler);
		dev->has_handler = false;
	}
	rdma_mcm_dev_remove(device);
}

/* ib_core holds the device's name stable while it tells us the new one */
static void rdma_mcm_ib_rename(struct ib_device *device, void *client_data)
{
	struct rdma_mcm_dev *dev;

	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find_in(&rdma_mcm_devs, device);
	if (dev)
		strscpy(dev->name, dev_name(&device->dev), sizeof(dev->name));
	spin_unlock(&rdma_mcm_dev_lock);
}

static struct ib_client rdma_mcm_ib_client = {
	.name   = "rdma_mcm",
	.add    = rdma_mcm_ib_add_one,
	.remove = rdma_mcm_ib_remove_one,
	.rename = rdma_mcm_ib_rename,
};

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

int rdma_mcm_device_register(void)
{
	return ib_register_client(&rdma_mcm_ib_client);
}

void rdma_mcm_device_unregister(void)
{
	struct rdma_mcm_dev *dev, *tmp;

	ib_unregister_client(&rdma_mcm_ib_client);
	WARN_ON_ONCE(!list_empty(&rdma_mcm_devs));
	WARN_ON_ONCE(!xa_empty(&rdma_mcm_ctxs));
	list_for_each_entry_safe(dev, tmp, &rdma_mcm_gone, node)
		kfree(dev);
	INIT_LIST_HEAD(&rdma_mcm_gone);
	rdma_mcm_nr_gone = 0;
}
