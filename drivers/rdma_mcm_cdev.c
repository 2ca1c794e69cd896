// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the /dev/rdma_mcm character device.
 *
 * A misc device with a dynamic minor. Each open file will own manager
 * contexts and memberships; until the ioctl ABI lands every command is
 * unknown and answers -ENOTTY.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include <uapi/rdma/rdma_mcm_abi.h>
#include "rdma_mcm_internal.h"

static int rdma_mcm_cdev_open(struct inode *inode, struct file *filp)
{
	return nonseekable_open(inode, filp);
}

static int rdma_mcm_cdev_release(struct inode *inode, struct file *filp)
{
	return 0;
}

static long rdma_mcm_cdev_ioctl(struct file *filp, unsigned int cmd,
				unsigned long arg)
{
	/* No command is defined yet: every one is unknown. */
	return -ENOTTY;
}

static const struct file_operations rdma_mcm_cdev_fops = {
	.owner		= THIS_MODULE,
	.open		= rdma_mcm_cdev_open,
	.release	= rdma_mcm_cdev_release,
	.unlocked_ioctl	= rdma_mcm_cdev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice rdma_mcm_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RDMA_MCM_DEVICE_NAME,
	.fops	= &rdma_mcm_cdev_fops,
	.mode	= 0600,
};

int rdma_mcm_cdev_register(void)
{
	return misc_register(&rdma_mcm_miscdev);
}

void rdma_mcm_cdev_unregister(void)
{
	misc_deregister(&rdma_mcm_miscdev);
}
