// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: contexts. Opening one on a source address, closing it, its
 * lifetime, and what happens to it when its RDMA device goes away.
 *
 * Lifetime: the opener holds a reference until rdma_mcm_close() has done
 * its work; a device removal holds one while it waits for the context.
 * The last reference frees the context, after its work has stopped.
 *
 * Losing the device, in the context's work (one place, whatever started
 * it: rdma_mcm's ib_client, rdma_cm's DEVICE_REMOVAL event, or an id that
 * landed on another device, or an address that moved):
 *   1. under the mutex: every JOINING or JOINED membership goes to
 *      ERROR with -ENODEV (a healing context's to WAITING, on the list of
 *      those waiting for a device), every membership lets go of the
 *      device (attached QPs detached, address handles' GID references
 *      dropped), the context forgets its device;
 *   2. the ULP's ->error() (->rejoining()) callbacks run, then
 *      ->device_removed(), once;
 *   3. the rdma_cm_ids are destroyed, which lets rdma_cm's removal finish.
 * So the device stays registered until ->device_removed() has returned.
 *
 * Finding a device again (a healing context): when rdma_mcm_device.c says
 * a device appeared or changed, the context's rejoin work binds a new id
 * to the source address (or resolves the route); once one lands on a
 * device, ->device_added() is queued and the waiting memberships are
 * joined again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/net_namespace.h>

#include "rdma_mcm_internal.h"

struct workqueue_struct *rdma_mcm_wq;

/* The last reference: the work must not run, nothing may be left. */
static void rdma_mcm_ctx_free(struct rdma_mcm_ctx *ctx)
{
	rdma_mcm_registry_del(ctx);
	/*
	 * Never called from ctx->work itself: see rdma_mcm_close(). The
	 * rejoin work first: it may queue ctx->work.
	 */
	cancel_delayed_work_sync(&ctx->rejoin_work);
	cancel_work_sync(&ctx->work);
	WARN_ON_ONCE(!list_empty(&ctx->slots));
	WARN_ON_ONCE(!RB_EMPTY_ROOT(&ctx->members));
	WARN_ON_ONCE(!RB_EMPTY_ROOT(&ctx->groups));
	/* its sockets must be gone before the namespace may be */
	WARN_ON_ONCE(!list_empty(&ctx->ipsocks_free) || ctx->ipsock_spare);
	mutex_destroy(&ctx->mutex);
	put_pid(ctx->owner.pid);
	put_net(ctx->net);
	mem_cgroup_put(ctx->memcg);
	kfree(ctx);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_CONTEXTS);
	module_put(THIS_MODULE);
}

/**
 * rdma_mcm_ctx_put() - drop a reference on a context
 * @ctx: the context
 *
 * Context: process context; the last reference waits for the work.
 */
void rdma_mcm_ctx_put(struct rdma_mcm_ctx *ctx)
{
	if (refcount_dec_and_test(&ctx->ref))
		rdma_mcm_ctx_free(ctx);
}

static void rdma_mcm_free_work(struct work_struct *work)
{
	struct rdma_mcm_ctx *ctx = container_of(work, struct rdma_mcm_ctx,
						free_work);

	/* the work whose callback closed the context may still be running */
	cancel_work_sync(&ctx->work);
	rdma_mcm_ctx_put(ctx);
}

/**
 * rdma_mcm_ctx_lose_device() - have the work take the context's device away
 * @ctx: the context
 *
 * Context: any context but hard interrupt; does not sleep.
 */
void rdma_mcm_ctx_lose_device(struct rdma_mcm_ctx *ctx)
{
	spin_lock_bh(&ctx->lock);
	ctx->device_lost_pending = true;
	spin_unlock_bh(&ctx->lock);
	queue_work(rdma_mcm_wq, &ctx->work);
}

/**
 * rdma_mcm_ctx_wait_device_lost() - wait for rdma_mcm_ctx_lose_device()
 * @ctx: the context; the caller holds a reference
 *
 * Returns once the ULP's callbacks have run and the context's rdma_cm_ids
 * are gone, unless the context's rdma_mcm_open() has not finished yet:
 * then its work does this as soon as it has.
 *
 * Context: process context; sleeps. Not from a callback of the context.
 */
void rdma_mcm_ctx_wait_device_lost(struct rdma_mcm_ctx *ctx)
{
	flush_work(&ctx->work);
}

/**
 * rdma_mcm_ctx_take_device() - step 1 of losing the device
 * @ctx: the context
 *
 * Fails every JOINING and JOINED membership with -ENODEV (or makes it
 * wait), detaches every QP, drops every address handle's GID reference
 * and IGMP/MLD membership (rdma_mcm_member_lose_device()), closes the
 * socket kept for the next IGMP/MLD membership, and queues
 * ->device_removed(). Does nothing on a closing context or one that lost
 * its device already.
 *
 * Context: the context's work.
 */
void rdma_mcm_ctx_take_device(struct rdma_mcm_ctx *ctx)
{
	char name[IB_DEVICE_NAME_MAX] = "";
	struct rdma_mcm_membership *mb;

	mutex_lock(&ctx->mutex);
	if (ctx->closing || ctx->device_lost) {
		mutex_unlock(&ctx->mutex);
		return;
	}
	rdma_mcm_ctx_dev_name(ctx, name, sizeof(name));
	rdma_mcm_observe_device(ctx, true, name);
	for (mb = rdma_mcm_member_first(ctx); mb;
	     mb = rdma_mcm_member_next(mb))
		rdma_mcm_member_lose_device(ctx, mb);
	/* with the device's netdev memberships, the socket kept for them */
	rdma_mcm_ipmc_drop_spare(ctx);
	WRITE_ONCE(ctx->device_lost, true);
	rdma_mcm_ctx_clear_device(ctx);
	spin_lock_bh(&ctx->lock);
	rdma_mcm_notify_ctx(ctx, &ctx->removed_notice);
	spin_unlock_bh(&ctx->lock);
	mutex_unlock(&ctx->mutex);
}

/**
 * rdma_mcm_look_for_device() - find a device, or check the one a context has
 * @ctx: the context
 *
 * A healing context that lost its device binds a new id to its source
 * address (or resolves its route): once one lands on a device (not one
 * being removed), the context has it, ->device_added() is queued, and the
 * waiting memberships are due. A context with a device checks that its
 * address (or route) still leads there: if not, it loses the device.
 *
 * Context: the context's rejoin work, @ctx->mutex held.
 * Return: 0, or the error of a look that failed for a reason that may
 * pass: a healing context's search for a device, or a check that could
 * not tell (memory, no route for the moment). The caller tries again
 * later: what made it fail need not come back with an RDMA event.
 */
int rdma_mcm_look_for_device(struct rdma_mcm_ctx *ctx)
{
	char name[IB_DEVICE_NAME_MAX];
	struct rdma_mcm_slot *slot;
	int ret;

	lockdep_assert_held(&ctx->mutex);
	if (ctx->closing)
		return 0;
	if (ctx->device && !ctx->device_lost) {
		ret = rdma_mcm_slot_probe(ctx);
		if (ret != -ENODEV && ret != -EADDRNOTAVAIL)
			return ret;
		rdma_mcm_ctx_lose_device(ctx);
		return 0;
	}
	/* only once the lost device's ids are gone (the work destroys them) */
	if (!(ctx->flags & RDMA_MCM_OPEN_HEAL) || !ctx->device_lost ||
	    !list_empty(&ctx->slots))
		return 0;
	WRITE_ONCE(ctx->device_lost, false);
	slot = rdma_mcm_slot_create(ctx);
	if (IS_ERR(slot)) {
		WRITE_ONCE(ctx->device_lost, true);
		rdma_mcm_ctx_clear_device(ctx);
		pr_debug("context %u found no device: %ld\n", ctx->id,
			 PTR_ERR(slot));
		return PTR_ERR(slot);
	}
	rdma_mcm_ctx_dev_name(ctx, name, sizeof(name));
	pr_debug("context %u found device %s port %u\n", ctx->id, name,
		 ctx->port_num);
	rdma_mcm_observe_device(ctx, false, name);
	spin_lock_bh(&ctx->lock);
	rdma_mcm_notify_ctx(ctx, &ctx->added_notice);
	spin_unlock_bh(&ctx->lock);
	queue_work(rdma_mcm_wq, &ctx->work);
	return 0;
}

/**
 * rdma_mcm_ctx_destroy_ids() - step 3 of losing the device
 * @ctx: the context
 *
 * Context: the context's work, after ->device_removed().
 */
void rdma_mcm_ctx_destroy_ids(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot, *tmp;
	struct rdma_mcm_membership *mb;

	mutex_lock(&ctx->mutex);
	/* a callback may have closed the context: its ids are gone then */
	if (ctx->device_lost && !ctx->closing) {
		/* a healing context looks for a device from now on */
		spin_lock_bh(&ctx->lock);
		ctx->look_for_device = true;
		spin_unlock_bh(&ctx->lock);
		for (mb = rdma_mcm_member_first(ctx); mb;
		     mb = rdma_mcm_member_next(mb))
			mb->slot = NULL;
		list_for_each_entry_safe(slot, tmp, &ctx->slots, node)
			rdma_mcm_slot_destroy(ctx, slot);
		if (ctx->flags & RDMA_MCM_OPEN_HEAL)
			rdma_mcm_rejoin_kick(ctx);
	}
	mutex_unlock(&ctx->mutex);
}

/*
 * Who opens the context: the calling process for /dev/rdma_mcm (its
 * thread group, command name and effective uid), else the ULP's module.
 */
static void rdma_mcm_owner_init(struct rdma_mcm_owner *owner,
				const struct rdma_mcm_ops *ops, bool user)
{
	static_assert(RDMA_MCM_OWNER_NAME_LEN >= MODULE_NAME_LEN);
	static_assert(RDMA_MCM_OWNER_NAME_LEN >= TASK_COMM_LEN);

	owner->start_ns = ktime_get_boottime_ns();
	owner->kernel = !user;
	if (!user) {
		strscpy(owner->name, ops->owner ? module_name(ops->owner) :
			"kernel", sizeof(owner->name));
		return;
	}
	owner->pid = get_task_pid(current, PIDTYPE_TGID);
	owner->uid = current_euid();
	strscpy(owner->name, current->comm, sizeof(owner->name));
}

/**
 * rdma_mcm_open_face() - open a context on a given backend, for a face
 * @net: network namespace
 * @src: local source address
 * @ops: callbacks
 * @priv: passed to the callbacks
 * @be: rdma_cm/verbs backend (a KUnit fake), or NULL for the real one
 * @face: what the manager may ask of the face that opens it (the char
 *	device's rdma_mcm_ufile_face), or NULL; must outlive the context
 * @flags: RDMA_MCM_OPEN_*, and the internal RDMA_MCM_OPEN_DIRECT and
 *	RDMA_MCM_OPEN_USER
 *
 * See rdma_mcm_open_flags().
 *
 * Return: the context or an ERR_PTR().
 */
struct rdma_mcm_ctx *rdma_mcm_open_face(struct net *net,
					const struct sockaddr *src,
					const struct rdma_mcm_ops *ops,
					void *priv,
					const struct rdma_mcm_backend *be,
					const struct rdma_mcm_face *face,
					u32 flags)
{
	struct rdma_mcm_slot *slot;
	struct rdma_mcm_ctx *ctx;
	bool kick;
	int ret;

	might_sleep();
	if (!be)
		be = &rdma_mcm_rdma_cm_backend;
	if (!net || !ops ||
	    (flags & ~(RDMA_MCM_OPEN_HEAL | RDMA_MCM_OPEN_ROUTE |
		       RDMA_MCM_OPEN_DIRECT | RDMA_MCM_OPEN_USER)))
		return ERR_PTR(-EINVAL);
	ctx = rdma_mcm_fail_alloc() ? NULL :
	      kzalloc_obj(*ctx, GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ret = rdma_mcm_src_parse(src, rdma_mcm_sockaddr_len(src), &ctx->src);
	if (ret)
		goto err_free;
	if (!try_module_get(THIS_MODULE)) {
		ret = -ENODEV;
		goto err_free;
	}
	ctx->groups = RB_ROOT;
	refcount_set(&ctx->ref, 1);
	ctx->flags = flags & ~(RDMA_MCM_OPEN_DIRECT | RDMA_MCM_OPEN_USER);
	ctx->direct = flags & RDMA_MCM_OPEN_DIRECT;
	rdma_mcm_owner_init(&ctx->owner, ops, flags & RDMA_MCM_OPEN_USER);
	ctx->net = get_net(net);
	/* the opener's; a kernel thread's (no mm) is the root's */
	ctx->memcg = current->mm ? get_mem_cgroup_from_mm(current->mm) : NULL;
	ctx->ops = ops;
	ctx->priv = priv;
	ctx->be = be;
	ctx->face = face;
	mutex_init(&ctx->mutex);
	spin_lock_init(&ctx->lock);
	ctx->members = RB_ROOT;
	ctx->next_handle = 1;
	INIT_LIST_HEAD(&ctx->slots);
	INIT_LIST_HEAD(&ctx->free_slots);
	INIT_LIST_HEAD(&ctx->ipsocks_free);
	INIT_LIST_HEAD(&ctx->pending);
	INIT_LIST_HEAD(&ctx->waiting);
	INIT_LIST_HEAD(&ctx->removed_notice.node);
	INIT_LIST_HEAD(&ctx->added_notice.node);
	INIT_DELAYED_WORK(&ctx->rejoin_work, rdma_mcm_rejoin_work);
	INIT_WORK(&ctx->work, rdma_mcm_work);
	INIT_WORK(&ctx->free_work, rdma_mcm_free_work);
	init_waitqueue_head(&ctx->cb_wq);
	rdma_mcm_live_inc(RDMA_MCM_LIVE_CONTEXTS);

	ret = rdma_mcm_fail_alloc() ? -ENOMEM : rdma_mcm_registry_add(ctx);
	if (ret) {
		/* not in the registry: rdma_mcm_registry_del() is harmless */
		rdma_mcm_ctx_put(ctx);
		return ERR_PTR(ret);
	}

	/* The first id checks the address: it must have an RDMA device. */
	mutex_lock(&ctx->mutex);
	slot = rdma_mcm_slot_create(ctx);
	mutex_unlock(&ctx->mutex);
	if (IS_ERR(slot)) {
		/* an event for the failed id may have queued the work */
		rdma_mcm_ctx_put(ctx);
		return ERR_PTR(PTR_ERR(slot));
	}

	/* Callbacks may run from now on, and what is queued already does. */
	spin_lock_bh(&ctx->lock);
	ctx->open_done = true;
	kick = ctx->device_lost_pending || !list_empty(&ctx->pending);
	spin_unlock_bh(&ctx->lock);
	if (kick)
		queue_work(rdma_mcm_wq, &ctx->work);
	return ctx;

err_free:
	kfree(ctx);
	return ERR_PTR(ret);
}

/**
 * rdma_mcm_open_backend() - open a context on a given backend
 * @net: network namespace
 * @src: local source address
 * @ops: callbacks
 * @priv: passed to the callbacks
 * @be: rdma_cm/verbs backend (the real one, or a KUnit fake)
 * @flags: as rdma_mcm_open_face()'s
 *
 * rdma_mcm_open_face() without a face: a kernel ULP's context; @be must
 * not be NULL.
 *
 * Return: the context or an ERR_PTR().
 */
struct rdma_mcm_ctx *rdma_mcm_open_backend(struct net *net,
					   const struct sockaddr *src,
					   const struct rdma_mcm_ops *ops,
					   void *priv,
					   const struct rdma_mcm_backend *be,
					   u32 flags)
{
	if (!be)
		return ERR_PTR(-EINVAL);
	return rdma_mcm_open_face(net, src, ops, priv, be, NULL, flags);
}

/**
 * rdma_mcm_open_flags() - open a multicast manager context
 * @net: network namespace of @addr; the context holds a reference
 * @addr: local source address (AF_INET, AF_INET6 or AF_IB) of an RDMA
 *	device; every membership of the context is joined from it. With
 *	%RDMA_MCM_OPEN_ROUTE, a destination (a multicast group): the device,
 *	port and source address are those of the route to it, as for an
 *	rdma_cm_id resolved with rdma_resolve_addr() and no source. Its port
 *	(for AF_IB, its service id) is ignored: each rdma_cm_id of the
 *	context binds a port of its own.
 * @ops: the ULP's callbacks; must stay valid until rdma_mcm_close()
 * @priv: passed to the callbacks
 * @flags: %RDMA_MCM_OPEN_HEAL: the context heals its memberships (see
 *	&struct rdma_mcm_ops) and outlives its device; %RDMA_MCM_OPEN_ROUTE:
 *	@addr is a destination. 0 is rdma_mcm_open().
 *
 * Creates and binds (or resolves) the context's first rdma_cm_id
 * (RDMA_PS_UDP, IB_QPT_UD), so that a bad address fails here, not at the
 * first join. The device and port it lands on are the context's until it
 * loses them: see &rdma_mcm_ops.device_removed; a healing context then
 * takes the next device its address (or route) leads to. A change of
 * address or route is noticed when a device appears, goes, or changes its
 * GIDs or port state. The context holds a reference on the rdma_mcm
 * module.
 *
 * Context: process context; may sleep.
 * Return: the context, or an ERR_PTR(): -EINVAL for a NULL argument, an
 * unknown flag, an address too short for its family, or one that cannot
 * be bound as given (an IPv6 link-local address without a scope id);
 * -EAFNOSUPPORT for another family; -EADDRNOTAVAIL when no netdev of @net
 * owns @addr (or rdma_cm's UDP port space of @net is exhausted); -ENODEV
 * when its netdev has no RDMA device (or @addr is a wildcard or loopback
 * address, or the device is being removed); with %RDMA_MCM_OPEN_ROUTE,
 * -ENETUNREACH when no route leads to @addr and -ETIMEDOUT when it could
 * not be resolved in time; -ENOMEM; -EIO for an error of rdma_cm that
 * rdma_mcm does not expect (logged).
 */
struct rdma_mcm_ctx *rdma_mcm_open_flags(struct net *net,
					 const struct sockaddr *addr,
					 const struct rdma_mcm_ops *ops,
					 void *priv, u32 flags)
{
	if (flags & (RDMA_MCM_OPEN_DIRECT | RDMA_MCM_OPEN_USER))
		return ERR_PTR(-EINVAL);
	return rdma_mcm_open_backend(net, addr, ops, priv,
				     &rdma_mcm_rdma_cm_backend, flags);
}
EXPORT_SYMBOL_GPL(rdma_mcm_open_flags);

/**
 * rdma_mcm_open() - open a multicast manager context on a source address
 * @net: network namespace of @src
 * @src: local source address
 * @ops: the ULP's callbacks
 * @priv: passed to the callbacks
 *
 * rdma_mcm_open_flags() with no flag: the context does not heal, and
 * @src is a source address.
 *
 * Context: process context; may sleep.
 * Return: as rdma_mcm_open_flags().
 */
struct rdma_mcm_ctx *rdma_mcm_open(struct net *net, const struct sockaddr *src,
				   const struct rdma_mcm_ops *ops, void *priv)
{
	return rdma_mcm_open_flags(net, src, ops, priv, 0);
}
EXPORT_SYMBOL_GPL(rdma_mcm_open);

/**
 * rdma_mcm_close() - leave every group and free a context
 * @ctx: the context
 *
 * Detaches every attached QP, leaves every group (a join still in flight
 * is cancelled), destroys the context's rdma_cm_ids and waits for a
 * callback in flight to return. No callback of @ctx runs after
 * rdma_mcm_close() returns, and @ctx must not be used again. The device
 * may go as soon as the ids are destroyed, and close does not call
 * &rdma_mcm_ops.device_removed: a ULP releases its own verbs objects on
 * the device before it closes (leaving first the memberships that carry
 * its QP, which detaches it; see &struct rdma_mcm_ops).
 *
 * Called from one of @ctx's own callbacks, it does all of this but the
 * wait, and the context is freed once the callback returns.
 * Must not be called from a callback of another context that this
 * context's callbacks could close in turn.
 *
 * Context: process context; may sleep.
 */
void rdma_mcm_close(struct rdma_mcm_ctx *ctx)
{
	struct rdma_mcm_slot *slot, *tmp;
	struct rdma_mcm_membership *mb;
	bool in_callback;

	might_sleep();
	spin_lock_bh(&ctx->lock);
	if (WARN_ON_ONCE(ctx->closing)) {
		spin_unlock_bh(&ctx->lock);
		return;
	}
	ctx->closing = true;
	in_callback = ctx->cb_task == current;
	spin_unlock_bh(&ctx->lock);

	mutex_lock(&ctx->mutex);
	while ((mb = rdma_mcm_member_of(rb_first(&ctx->members)))) {
		rdma_mcm_member_drop(ctx, mb, false);
		rdma_mcm_member_put(mb);
	}
	rdma_mcm_ipmc_drop_spare(ctx);
	list_for_each_entry_safe(slot, tmp, &ctx->slots, node)
		rdma_mcm_slot_destroy(ctx, slot);
	rdma_mcm_ctx_clear_device(ctx);
	mutex_unlock(&ctx->mutex);

	/* no rejoin is pending after close (it would find ctx->closing) */
	if (in_callback) {
		cancel_delayed_work(&ctx->rejoin_work);
		queue_work(rdma_mcm_wq, &ctx->free_work);
		return;
	}
	cancel_delayed_work_sync(&ctx->rejoin_work);
	cancel_work_sync(&ctx->work);
	rdma_mcm_ctx_put(ctx);
}
EXPORT_SYMBOL_GPL(rdma_mcm_close);

/**
 * rdma_mcm_device() - the RDMA device and port a context joins on
 * @ctx: the context
 * @port_num: set to the port number
 *
 * A ULP creates the QP it passes to rdma_mcm_join() on this device. The
 * device stays registered at least until the context's
 * &rdma_mcm_ops.device_removed callback has returned (or the context is
 * closed).
 *
 * Context: process context; may sleep.
 * Return: the device, or NULL once the device is gone.
 */
struct ib_device *rdma_mcm_device(struct rdma_mcm_ctx *ctx, u32 *port_num)
{
	struct ib_device *device;

	mutex_lock(&ctx->mutex);
	device = ctx->device_lost ? NULL : ctx->device;
	if (device)
		*port_num = ctx->port_num;
	mutex_unlock(&ctx->mutex);
	return device;
}
EXPORT_SYMBOL_GPL(rdma_mcm_device);

/**
 * rdma_mcm_ctx_query() - where a context is: its device, port and source
 * @ctx: the context
 * @info: filled in; without a device, only its flags
 *
 * The source is the address its rdma_cm ids are bound to, port 0: the
 * opener's, or the route's for a %RDMA_MCM_OPEN_ROUTE context.
 *
 * Context: process context; may sleep.
 */
void rdma_mcm_ctx_query(struct rdma_mcm_ctx *ctx, struct rdma_mcm_ctx_info *info)
{
	struct rdma_mcm_slot *slot;

	memset(info, 0, sizeof(*info));
	mutex_lock(&ctx->mutex);
	info->flags = ctx->flags;
	slot = list_first_entry_or_null(&ctx->slots, struct rdma_mcm_slot,
					node);
	if (ctx->device && !ctx->device_lost && slot) {
		info->port_num = ctx->port_num;
		info->node_guid = ctx->device->node_guid;
		rdma_mcm_ctx_dev_name(ctx, info->dev_name,
				      sizeof(info->dev_name));
		memcpy(&info->src, &slot->id->route.addr.src_addr,
		       sizeof(info->src));
	}
	mutex_unlock(&ctx->mutex);
	rdma_mcm_addr_clear_port((struct sockaddr *)&info->src);
}

/**
 * rdma_mcm_flush() - wait until every queued notification is delivered
 *
 * For tests: the notifications queued before the call have been delivered
 * (or dropped) when it returns.
 */
void rdma_mcm_flush(void)
{
	flush_workqueue(rdma_mcm_wq);
}

int rdma_mcm_ctx_init(void)
{
	rdma_mcm_wq = alloc_workqueue("rdma_mcm", WQ_UNBOUND, 0);
	return rdma_mcm_wq ? 0 : -ENOMEM;
}

void rdma_mcm_ctx_exit(void)
{
	/* Also waits for a context's free work, which runs module code. */
	destroy_workqueue(rdma_mcm_wq);
	WARN_ON_ONCE(rdma_mcm_live_read(RDMA_MCM_LIVE_CONTEXTS) ||
		     rdma_mcm_live_read(RDMA_MCM_LIVE_MEMBERS) ||
		     rdma_mcm_live_read(RDMA_MCM_LIVE_SLOTS) ||
		     rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS));
}
