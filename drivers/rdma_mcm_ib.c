// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the ib_client that sees RDMA devices come and go.
 *
 * ib_core calls .add for every device registered before and after
 * ib_register_client(), and .remove for each of them on device
 * unregistration or on ib_unregister_client(). Both run in process context
 * and may sleep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/printk.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

static atomic_t rdma_mcm_ib_devices = ATOMIC_INIT(0);

static int rdma_mcm_ib_add_one(struct ib_device *device)
{
	atomic_inc(&rdma_mcm_ib_devices);
	pr_debug("device %s added (%u ports)\n", dev_name(&device->dev),
		 rdma_end_port(device));
	return 0;
}

static void rdma_mcm_ib_remove_one(struct ib_device *device, void *client_data)
{
	if (WARN_ON_ONCE(atomic_read(&rdma_mcm_ib_devices) <= 0))
		return;
	atomic_dec(&rdma_mcm_ib_devices);
	pr_debug("device %s removed\n", dev_name(&device->dev));
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
	return atomic_read(&rdma_mcm_ib_devices);
}

int rdma_mcm_ib_client_register(void)
{
	return ib_register_client(&rdma_mcm_ib_client);
}

void rdma_mcm_ib_client_unregister(void)
{
	ib_unregister_client(&rdma_mcm_ib_client);
	WARN_ON_ONCE(atomic_read(&rdma_mcm_ib_devices));
}
