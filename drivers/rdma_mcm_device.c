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

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->device = device;
	dev->index = device->index;
	spin_lock(&rdma_mcm_dev_lock);
	list_add_tail(&dev->node, &rdma_mcm_devs);
	rdma_mcm_nr_devs++;
	spin_unlock(&rdma_mcm_dev_lock);
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
	bool moved = false;
	int ret = 0;

	lockdep_assert_held(&ctx->mutex);
	spin_lock(&rdma_mcm_dev_lock);
	dev = rdma_mcm_dev_find(device);
	if ((dev && dev->removing) || ctx->device_lost) {
		ret = -ENODEV;
	} else if (!ctx->device) {
		ctx->device = device;
		ctx->port_num = port_num;
		ctx->ib_mgid = rdma_protocol_ib(device, port_num);
		ctx->mcast = rdma_protocol_roce(device, port_num) ||
			     rdma_cap_ib_mcast(device, port_num);
	} else if (ctx->device != device || ctx->port_num != port_num) {
		ret = -ENODEV;
		moved = true;
	}
	spin_unlock(&rdma_mcm_dev_lock);
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
	spin_unlock(&rdma_mcm_dev_lock);
}

static int rdma_mcm_ib_add_one(struct ib_device *device)
{
	return rdma_mcm_dev_add(device);
}

static void rdma_mcm_ib_remove_one(struct ib_device *device, void *client_data)
{
	rdma_mcm_dev_remove(device);
}

static struct ib_client rdma_mcm_ib_client = {
	.name   = "rdma_mcm",
	.add    = rdma_mcm_ib_add_one,
	.remove = rdma_mcm_ib_remove_one,
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
