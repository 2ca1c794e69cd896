/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: internal declarations shared by the module's source files.
 */
#ifndef _RDMA_MCM_INTERNAL_H
#define _RDMA_MCM_INTERNAL_H

#include <linux/types.h>

struct ib_device;

/* rdma_mcm_ib.c: the ib_client that tracks RDMA devices */
int rdma_mcm_ib_client_register(void);
void rdma_mcm_ib_client_unregister(void);
unsigned int rdma_mcm_ib_device_count(void);

/* rdma_mcm_cdev.c: the /dev/rdma_mcm misc device */
int rdma_mcm_cdev_register(void);
void rdma_mcm_cdev_unregister(void);

#endif /* _RDMA_MCM_INTERNAL_H */
