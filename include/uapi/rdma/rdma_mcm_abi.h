/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * rdma_mcm: userspace ABI of /dev/rdma_mcm.
 *
 * The ioctl commands arrive with the userspace interface; this header
 * already fixes the device name and the ioctl magic number.
 */
#ifndef _UAPI_RDMA_MCM_ABI_H
#define _UAPI_RDMA_MCM_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Name of the misc device node: /dev/rdma_mcm */
#define RDMA_MCM_DEVICE_NAME	"rdma_mcm"

/*
 * ioctl type byte. 0xBA is not claimed in the kernel's registry,
 * Documentation/userspace-api/ioctl/ioctl-number.rst (checked on 6.12).
 */
#define RDMA_MCM_IOCTL_MAGIC	0xBA

/* Version of this ABI, bumped when a command or struct is added. */
#define RDMA_MCM_ABI_VERSION	0

#endif /* _UAPI_RDMA_MCM_ABI_H */
