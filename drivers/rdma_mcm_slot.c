// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the rdma_cm_ids a context joins on ("slots").
 *
 * rdma_leave_multicast() walks its id's list of groups, so a context
 * spreads its memberships over ids of at most rdma_mcm_slot_size groups
 * each. Every id binds the context's source address (without a port:
 * each gets its own from rdma_cm's UDP port space) and must land on the
 * context's device and port; an id that lands elsewhere means the address
 * moved, which the context treats as losing its device. A route context's
 * ids are not bound but resolved towards its destination
 * (rdma_resolve_addr() from no source), and land where the route leads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "rdma_mcm_internal.h"

unsigned int rdma_mcm_slot_size = 64;
module_param_named(slot_size, rdma_mcm_slot_size, uint, 0444);
MODULE_PARM_DESC(slot_size,
		 "memberships joined on one rdma_cm_id (default 64, minimum 1)");

/*
 * rdma_bind_addr()'s errors, as rdma_mcm documents them: the address is
 * on no netdev of the namespace (or rdma_cm's UDP port space of the
 * namespace is exhausted): -EADDRNOTAVAIL; its netdev has no RDMA device:
 * -ENODEV; the address cannot be bound as given (an IPv6 link-local
 * address without a scope id): -EINVAL; -ENOMEM. Anything else is not
 * expected of a fresh UD id.
 */
static int rdma_mcm_bind_errno(int err)
{
	switch (err) {
	case -EADDRNOTAVAIL:
	case -ENODEV:
	case -EINVAL:
	case -ENOMEM:
		return err;
	default:
		pr_warn_ratelimited("unexpected error %d from rdma_bind_addr(), reported as -EIO\n",
				    err);
		return -EIO;
	}
}

/* How long rdma_cm may take to resolve a route context's route. */
#define RDMA_MCM_RESOLVE_MS	2000

/*
 * rdma_resolve_addr()'s errors, and its ADDR_ERROR statuses: no route
 * (-ENETUNREACH, -EHOSTUNREACH, -ENODATA: -ENETUNREACH), -ETIMEDOUT,
 * -ENODEV (no RDMA device where the route leads), -EADDRNOTAVAIL, -EINVAL
 * (a link-local destination without a scope id), -ENOMEM.
 */
static int rdma_mcm_resolve_errno(int err)
{
	switch (err) {
	case -ETIMEDOUT:
	case -ENODEV:
	case -EADDRNOTAVAIL:
	case -EINVAL:
	case -ENOMEM:
	case -ENETUNREACH:
		return err;
	case -EHOSTUNREACH:
	case -ENODATA:
		return -ENETUNREACH;
	default:
		pr_warn_ratelimited("unexpected error %d from rdma_resolve_addr(), reported as -EIO\n",
				    err);
		return -EIO;
	}
}

/*
 * Bind @id to the context's source address, or resolve the route to a
 * route context's destination and wait for rdma_cm's answer (the event
 * handler completes @slot->resolved).
 */
static int rdma_mcm_slot_bind(struct rdma_mcm_ctx *ctx,
			      struct rdma_mcm_slot *slot, struct rdma_cm_id *id)
{
	int ret;

	if (!(ctx->flags & RDMA_MCM_OPEN_ROUTE)) {
		ret = ctx->be->bind_addr(ctx->be, id,
					 (struct sockaddr *)&ctx->src);
		return ret ? rdma_mcm_bind_errno(ret) : 0;
	}
	init_completion(&slot->resolved);
	slot->resolving = true;
	ret = ctx->be->resolve_addr(ctx->be, id, (struct sockaddr *)&ctx->src,
				    RDMA_MCM_RESOLVE_MS);
	if (!ret) {
		/* rdma_cm answers within its timeout */
		wait_for_completion(&slot->resolved);
		ret = slot->resolve_status;
	}
	slot->resolving = false;
	return ret ? rdma_mcm_resolve_errno(ret) : 0;
}

/**
 * rdma_mcm_id_where() - where an rdma_cm_id landed
 * @id: the id, bound or resolved
 * @w: set to its device, port, netdev and source GID index
 */
void rdma_mcm_id_where(const struct rdma_cm_id *id, struct rdma_mcm_where *w)
{
	const struct ib_gid_attr *sgid = id->route.addr.dev_addr.sgid_attr;

	w->device = id->device;
	w->port_num = id->port_num;
	w->ifindex = id->route.addr.dev_addr.bound_dev_if;
	w->sgid_index = sgid ? sgid->index : -1;
}

/**
 * rdma_mcm_slot_probe() - does the context's address still lead to its device
 * @ctx: the context, with a device
 *
 * Binds (or resolves) a new id the way the context's ids are, and compares
 * where it lands with where the context's ids are (rdma_mcm_ctx_is_at():
 * device, port, netdev and source GID). Events of the probe reach the
 * context as those of its ids do.
 *
 * Context: process context, @ctx->mutex held.
 * Return: 0 when it lands there; -ENODEV when it lands elsewhere, or on
 * no device; the errors of binding (-EADDRNOTAVAIL: the address is gone).
 */
int rdma_mcm_slot_probe(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_where w;
	struct rdma_mcm_slot *slot;
	struct rdma_cm_id *id;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	slot = kzalloc_obj(*slot, GFP_KERNEL_ACCOUNT);
	if (!slot)
		return -ENOMEM;
	slot->ctx = ctx;
	INIT_LIST_HEAD(&slot->free_node);
	id = ctx->be->create_id(ctx->be, ctx->net, rdma_mcm_cm_handler, slot);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id) == -ENOMEM ? -ENOMEM : -EIO;
		goto out;
	}
	ret = rdma_mcm_slot_bind(ctx, slot, id);
	if (!ret) {
		rdma_mcm_id_where(id, &w);
		if (!id->device || !rdma_mcm_ctx_is_at(ctx, &w))
			ret = -ENODEV;
	}
	ctx->be->destroy_id(ctx->be, id);
out:
	kfree(slot);
	return ret;
}

/**
 * rdma_mcm_slot_create() - a new rdma_cm_id bound to the context's address
 * @ctx: the context
 *
 * The first slot of a context gives it its device, port, netdev and source
 * GID; later ones must land on the same (else the address moved, and the
 * context is told to lose its device).
 *
 * Context: process context, @ctx->mutex held.
 * Return: the slot, or an ERR_PTR(): -ENOMEM, -EADDRNOTAVAIL, -EINVAL,
 * -ENODEV (no RDMA device, a wildcard or loopback address, the device is
 * being removed, or the address moved to another device or port); for a
 * route context -ENETUNREACH and -ETIMEDOUT; -EIO.
 */
struct rdma_mcm_slot *rdma_mcm_slot_create(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_where w;
	struct rdma_mcm_slot *slot;
	struct rdma_cm_id *id;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	slot = rdma_mcm_fail_alloc() ? NULL :
	       kzalloc_obj(*slot, GFP_KERNEL_ACCOUNT);
	if (!slot)
		return ERR_PTR(-ENOMEM);
	slot->ctx = ctx;
	INIT_LIST_HEAD(&slot->free_node);

	/* rdma_create_id() allocates: its -ENOMEM is injected here too */
	if (rdma_mcm_fail_alloc())
		id = ERR_PTR(-ENOMEM);
	else
		id = ctx->be->create_id(ctx->be, ctx->net, rdma_mcm_cm_handler,
					slot);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id) == -ENOMEM ? -ENOMEM : -EIO;
		goto err_free;
	}
	ret = rdma_mcm_slot_bind(ctx, slot, id);
	if (ret)
		goto err_destroy;
	/* A wildcard or loopback address binds without a device. */
	if (!id->device) {
		ret = -ENODEV;
		goto err_destroy;
	}
	rdma_mcm_id_where(id, &w);
	ret = rdma_mcm_ctx_set_device(ctx, &w);
	if (ret)
		goto err_destroy;
	slot->id = id;
	list_add_tail(&slot->node, &ctx->slots);
	list_add(&slot->free_node, &ctx->free_slots);
	ctx->nr_slots++;
	rdma_mcm_live_inc(RDMA_MCM_LIVE_SLOTS);
	return slot;

err_destroy:
	ctx->be->destroy_id(ctx->be, id);
err_free:
	kfree(slot);
	return ERR_PTR(ret);
}

/**
 * rdma_mcm_slot_destroy() - destroy a slot's id, leaving its groups
 * @ctx: the context
 * @slot: the slot
 *
 * No event of the id is delivered after this returns.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_slot_destroy(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot)
{
	lockdep_assert_held(&ctx->mutex);
	list_del(&slot->node);
	list_del_init(&slot->free_node);
	ctx->nr_slots--;
	ctx->be->destroy_id(ctx->be, slot->id);
	kfree(slot);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_SLOTS);
}

/**
 * rdma_mcm_slot_get() - a slot with room for one more membership
 * @ctx: the context
 *
 * Creates one if every slot is full.
 *
 * Context: process context, @ctx->mutex held.
 * Return: the slot, or the ERR_PTR() of rdma_mcm_slot_create().
 */
struct rdma_mcm_slot *rdma_mcm_slot_get(struct rdma_mcm_ctx *ctx)
{
	unsigned int size = max(1U, READ_ONCE(rdma_mcm_slot_size));
	struct rdma_mcm_slot *slot;

	lockdep_assert_held(&ctx->mutex);
	slot = list_first_entry_or_null(&ctx->free_slots, struct rdma_mcm_slot,
					free_node);
	if (!slot) {
		slot = rdma_mcm_slot_create(ctx);
		if (IS_ERR(slot))
			return slot;
	}
	if (++slot->count >= size)
		list_del_init(&slot->free_node);
	return slot;
}

/**
 * rdma_mcm_slot_get_own() - a slot of its own for one membership
 * @ctx: the context
 *
 * For a group the SA assigns (rdma_mcm_group_sa_assigned()): rdma_cm
 * knows such a membership only by the address it was joined with, the
 * same zeros for all of them, and rdma_leave_multicast() leaves the first
 * of an id's groups that matches. One id for each keeps the leave of one
 * from leaving another. The slot takes no other membership while this
 * one is on it; rdma_mcm_slot_put() gives it back like any other.
 *
 * Context: process context, @ctx->mutex held.
 * Return: the slot, or the ERR_PTR() of rdma_mcm_slot_create().
 */
struct rdma_mcm_slot *rdma_mcm_slot_get_own(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot;

	lockdep_assert_held(&ctx->mutex);
	/* an empty one (the context's last, kept) will do */
	slot = list_first_entry_or_null(&ctx->free_slots, struct rdma_mcm_slot,
					free_node);
	if (!slot || slot->count) {
		slot = rdma_mcm_slot_create(ctx);
		if (IS_ERR(slot))
			return slot;
	}
	slot->count = 1;
	list_del_init(&slot->free_node);
	return slot;
}

/**
 * rdma_mcm_slot_put() - give a membership's place back
 * @ctx: the context
 * @slot: the slot it was joined on
 *
 * An empty slot is destroyed, unless it is the context's last.
 *
 * Context: process context, @ctx->mutex held.
 */
void rdma_mcm_slot_put(struct rdma_mcm_ctx *ctx, struct rdma_mcm_slot *slot)
{
	lockdep_assert_held(&ctx->mutex);
	if (WARN_ON_ONCE(!slot->count))
		return;
	if (!--slot->count && ctx->nr_slots > 1) {
		rdma_mcm_slot_destroy(ctx, slot);
		return;
	}
	if (list_empty(&slot->free_node))
		list_add(&slot->free_node, &ctx->free_slots);
}
