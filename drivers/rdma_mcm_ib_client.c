// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the ib_client, through which ib_core tells rdma_mcm of every
 * RDMA device, its events, its new name and its removal
 * (rdma_mcm_device.c does the rest).
 *
 * The order of the clients matters. ib_core removes an unregistering
 * device's clients in the reverse order of their registration, and
 * rdma_mcm must hear of a removal before ib_uverbs waits for userspace to
 * let go of the device (drivers without disassociate_ucontext, rxe among
 * them): the DEVICE_REMOVED that /dev/rdma_mcm's readers act on is what
 * makes them let go. A soft dependency has modprobe load ib_uverbs first,
 * but ib_uverbs loaded again later (modprobe -r ib_uverbs; modprobe
 * ib_uverbs) registers after rdma_mcm. So rdma_mcm has two clients, one
 * registered at a time: when ib_uverbs comes (a module notifier), the
 * other one is registered, after it, and takes over every device from
 * the first, which is then unregistered and lets go of nothing. The
 * memberships on the devices see nothing of this.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

/**
 * struct rdma_mcm_ibdev - a device of the ib_client
 * @node: entry in rdma_mcm_ibdevs
 * @device: the device
 * @clients: the clients whose ->add() saw it and whose ->remove() has not
 *	(bit 0, bit 1: rdma_mcm_ib_clients[0], [1])
 * @handler: its event handler
 *
 * A device goes only with the last of its clients: while the other
 * still has it, a ->remove() leaves it to that one (the first client's,
 * once the second took over; the second's, when its registration failed
 * half-way and ib_core takes it back from the devices it saw).
 */
struct rdma_mcm_ibdev {
	struct list_head node;
	struct ib_device *device;
	unsigned int clients;
	struct ib_event_handler handler;
};

/*
 * rdma_mcm_ibdevs. ib_core calls the clients' ops in process context, for
 * several devices at once but one call at a time for one device.
 */
static DEFINE_MUTEX(rdma_mcm_ibdevs_lock);
static LIST_HEAD(rdma_mcm_ibdevs);
/* the client registered (under rdma_mcm_client_lock), or NULL */
static struct ib_client *rdma_mcm_client;
static DEFINE_MUTEX(rdma_mcm_client_lock);

static struct rdma_mcm_ibdev *rdma_mcm_ibdev_find(struct ib_device *device)
{
	struct rdma_mcm_ibdev *d;

	lockdep_assert_held(&rdma_mcm_ibdevs_lock);
	list_for_each_entry(d, &rdma_mcm_ibdevs, node)
		if (d->device == device)
			return d;
	return NULL;
}

static void rdma_mcm_ib_event(struct ib_event_handler *handler,
			      struct ib_event *event)
{
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_GID_CHANGE:
		rdma_mcm_dev_changed(event->device, port,
				     RDMA_MCM_DEV_GID_CHANGED);
		break;
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
		rdma_mcm_dev_changed(event->device, port, RDMA_MCM_DEV_PORT_UP);
		break;
	default:
		break;
	}
}

/* ->add() of @client: a new device, or one the other client had */
static struct ib_client rdma_mcm_ib_clients[2];

/* @client's bit in &rdma_mcm_ibdev.clients */
static unsigned int rdma_mcm_ib_bit(struct ib_client *client)
{
	return BIT(client - rdma_mcm_ib_clients);
}

static int rdma_mcm_ib_add(struct ib_client *client, struct ib_device *device)
{
	struct rdma_mcm_ibdev *d;
	int ret;

	mutex_lock(&rdma_mcm_ibdevs_lock);
	d = rdma_mcm_ibdev_find(device);
	if (d) {
		/* taken over: see the top */
		d->clients |= rdma_mcm_ib_bit(client);
		mutex_unlock(&rdma_mcm_ibdevs_lock);
		return 0;
	}
	mutex_unlock(&rdma_mcm_ibdevs_lock);

	d = kzalloc_obj(*d, GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	ret = rdma_mcm_dev_add(device);
	if (ret) {
		kfree(d);
		return ret;
	}
	d->device = device;
	d->clients = rdma_mcm_ib_bit(client);
	INIT_IB_EVENT_HANDLER(&d->handler, device, rdma_mcm_ib_event);
	ib_register_event_handler(&d->handler);
	mutex_lock(&rdma_mcm_ibdevs_lock);
	list_add_tail(&d->node, &rdma_mcm_ibdevs);
	mutex_unlock(&rdma_mcm_ibdevs_lock);
	/* a GID change before the handler was there: look once more */
	rdma_mcm_dev_changed(device, 0, RDMA_MCM_DEV_GID_CHANGED);
	return 0;
}

/* ->remove() of @client: the device goes, unless the other client has it */
static void rdma_mcm_ib_remove(struct ib_client *client,
			       struct ib_device *device)
{
	struct rdma_mcm_ibdev *d;

	mutex_lock(&rdma_mcm_ibdevs_lock);
	d = rdma_mcm_ibdev_find(device);
	if (d) {
		d->clients &= ~rdma_mcm_ib_bit(client);
		if (d->clients)
			d = NULL;	/* the other client has it still */
		else
			list_del(&d->node);
	}
	mutex_unlock(&rdma_mcm_ibdevs_lock);
	if (!d)
		return;
	ib_unregister_event_handler(&d->handler);
	rdma_mcm_dev_remove(device);
	kfree(d);
}

static int rdma_mcm_ib_add0(struct ib_device *device)
{
	return rdma_mcm_ib_add(&rdma_mcm_ib_clients[0], device);
}

static int rdma_mcm_ib_add1(struct ib_device *device)
{
	return rdma_mcm_ib_add(&rdma_mcm_ib_clients[1], device);
}

static void rdma_mcm_ib_remove0(struct ib_device *device, void *client_data)
{
	rdma_mcm_ib_remove(&rdma_mcm_ib_clients[0], device);
}

static void rdma_mcm_ib_remove1(struct ib_device *device, void *client_data)
{
	rdma_mcm_ib_remove(&rdma_mcm_ib_clients[1], device);
}

/* ib_core holds the device's name stable while it tells us the new one */
static void rdma_mcm_ib_rename(struct ib_device *device, void *client_data)
{
	rdma_mcm_dev_rename(device);
}

static struct ib_client rdma_mcm_ib_clients[2] = {
	{
		.name   = "rdma_mcm",
		.add    = rdma_mcm_ib_add0,
		.remove = rdma_mcm_ib_remove0,
		.rename = rdma_mcm_ib_rename,
	}, {
		.name   = "rdma_mcm",
		.add    = rdma_mcm_ib_add1,
		.remove = rdma_mcm_ib_remove1,
		.rename = rdma_mcm_ib_rename,
	},
};

#ifdef CONFIG_MODULES
/*
 * ib_uverbs registered its client after ours: register the other client
 * (after uverbs'), which takes every device over, then let the first go.
 */
static void rdma_mcm_ib_client_move(void)
{
	struct ib_client *old, *new;
	int ret;

	mutex_lock(&rdma_mcm_client_lock);
	old = rdma_mcm_client;
	if (!old)
		goto out;
	new = &rdma_mcm_ib_clients[old == &rdma_mcm_ib_clients[0]];
	ret = ib_register_client(new);
	if (ret) {
		/* the devices it saw are the first client's again */
		pr_warn("ib_uverbs was loaded after rdma_mcm, whose ib_client could not move after it (%d): until rdma_mcm is loaded again, a device removal waits for the /dev/rdma_mcm users that hold verbs objects on it before it tells them\n",
			ret);
		goto out;
	}
	ib_unregister_client(old);
	rdma_mcm_client = new;
	pr_debug("ib_uverbs loaded: rdma_mcm's ib_client registered after it\n");
out:
	mutex_unlock(&rdma_mcm_client_lock);
}

static int rdma_mcm_module_event(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	struct module *mod = data;

	if (action == MODULE_STATE_LIVE && !strcmp(mod->name, "ib_uverbs"))
		rdma_mcm_ib_client_move();
	return NOTIFY_DONE;
}
#else
/* every module is built in: none loads after rdma_mcm */
static int rdma_mcm_module_event(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	return NOTIFY_DONE;
}
#endif

static struct notifier_block rdma_mcm_module_nb = {
	.notifier_call = rdma_mcm_module_event,
};

/**
 * rdma_mcm_device_register() - hear of every RDMA device from now on
 *
 * Context: module init.
 * Return: 0, or the error of ib_register_client().
 */
int rdma_mcm_device_register(void)
{
	int ret;

	/*
	 * The notifier first: an ib_uverbs that comes live before our
	 * client exists has its own client already (nothing to move); one
	 * that comes live after registers after ours (a move)
	 */
	ret = register_module_notifier(&rdma_mcm_module_nb);
	if (ret)
		return ret;
	mutex_lock(&rdma_mcm_client_lock);
	ret = ib_register_client(&rdma_mcm_ib_clients[0]);
	if (!ret)
		rdma_mcm_client = &rdma_mcm_ib_clients[0];
	mutex_unlock(&rdma_mcm_client_lock);
	if (ret)
		unregister_module_notifier(&rdma_mcm_module_nb);
	return ret;
}

/**
 * rdma_mcm_device_unregister() - let go of every RDMA device
 *
 * Context: module exit (or a failed init), after every context is closed.
 */
void rdma_mcm_device_unregister(void)
{
	/* waits for a notifier call in flight: no move after this */
	unregister_module_notifier(&rdma_mcm_module_nb);
	mutex_lock(&rdma_mcm_client_lock);
	if (rdma_mcm_client)
		ib_unregister_client(rdma_mcm_client);
	rdma_mcm_client = NULL;
	mutex_unlock(&rdma_mcm_client_lock);
	WARN_ON_ONCE(!list_empty(&rdma_mcm_ibdevs));
	rdma_mcm_dev_forget_all();
}
