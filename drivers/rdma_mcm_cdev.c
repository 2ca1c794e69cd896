// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the /dev/rdma_mcm misc device (include/uapi/rdma/
 * rdma_mcm_abi.h, Documentation/uapi.rst): opening and releasing a file,
 * the file's objects, and the ioctl entry point. See rdma_mcm_cdev.h for
 * how the char device is split.
 *
 * Everything a file allocates is charged to the opener's memory cgroup
 * (SLAB_ACCOUNT, GFP_KERNEL_ACCOUNT, XA_FLAGS_ACCOUNT), as is what the
 * manager allocates on its behalf, and counted against the per-file and
 * per-user limits.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/net_namespace.h>

#include "rdma_mcm_cdev.h"
#include "rdma_mcm_compat.h"

static struct kmem_cache *rdma_mcm_umember_cache;

/*
 * Allocation and freeing of the file's objects: each allocation is a
 * fault-injection point, each object is counted while it lives (in
 * rdma_mcm_live[]).
 */
struct rdma_mcm_uctx *rdma_mcm_uctx_alloc(void)
{
	struct rdma_mcm_uctx *uctx;

	uctx = rdma_mcm_fail_alloc() ? NULL :
	       kzalloc_obj(*uctx, GFP_KERNEL_ACCOUNT);
	if (!uctx)
		return NULL;
	INIT_LIST_HEAD(&uctx->members);
	uctx->removed.type = RDMA_MCM_EVENT_DEVICE_REMOVED;
	uctx->added.type = RDMA_MCM_EVENT_DEVICE_ADDED;
	rdma_mcm_live_inc(RDMA_MCM_LIVE_UCONTEXTS);
	return uctx;
}

void rdma_mcm_uctx_free(struct rdma_mcm_uctx *uctx)
{
	kfree(uctx);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_UCONTEXTS);
}

struct rdma_mcm_umember *rdma_mcm_umember_alloc(void)
{
	struct rdma_mcm_umember *um;

	um = rdma_mcm_fail_alloc() ? NULL :
	     kmem_cache_zalloc(rdma_mcm_umember_cache, GFP_KERNEL_ACCOUNT);
	if (um)
		rdma_mcm_live_inc(RDMA_MCM_LIVE_UMEMBERS);
	return um;
}

void rdma_mcm_umember_free(struct rdma_mcm_umember *um)
{
	kmem_cache_free(rdma_mcm_umember_cache, um);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_UMEMBERS);
}

/* JOIN and LEAVE while timing is on: rdma_mcm_timing.c */
static noinline long rdma_mcm_cdev_ioctl_timed(struct rdma_mcm_ufile *file,
					       unsigned int cmd,
					       void __user *uarg)
{
	long ret;
	u64 t;

	if (_IOC_TYPE(cmd) != RDMA_MCM_IOCTL_MAGIC)
		return rdma_mcm_cdev_dispatch(file, cmd, uarg);
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		t = rdma_mcm_time_start(RDMA_MCM_TIMED_JOIN_IOCTL);
		ret = rdma_mcm_cdev_dispatch(file, cmd, uarg);
		rdma_mcm_time_end(RDMA_MCM_TIMED_JOIN_IOCTL, t);
		return ret;
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		t = rdma_mcm_time_start(RDMA_MCM_TIMED_LEAVE_IOCTL);
		ret = rdma_mcm_cdev_dispatch(file, cmd, uarg);
		rdma_mcm_time_end(RDMA_MCM_TIMED_LEAVE_IOCTL, t);
		return ret;
	default:
		return rdma_mcm_cdev_dispatch(file, cmd, uarg);
	}
}

static long rdma_mcm_cdev_ioctl(struct file *filp, unsigned int cmd,
				unsigned long uarg)
{
	if (static_branch_unlikely(&rdma_mcm_timing_on))
		return rdma_mcm_cdev_ioctl_timed(filp->private_data, cmd,
						 (void __user *)uarg);
	return rdma_mcm_cdev_dispatch(filp->private_data, cmd,
				      (void __user *)uarg);
}

static int rdma_mcm_cdev_open(struct inode *inode, struct file *filp)
{
	struct rdma_mcm_ufile *file;
	struct rdma_mcm_user *user;

	user = rdma_mcm_user_get(filp->f_cred ? filp->f_cred : current_cred());
	if (IS_ERR(user))
		return PTR_ERR(user);
	file = rdma_mcm_fail_alloc() ? NULL :
	       kzalloc_obj(*file, GFP_KERNEL_ACCOUNT);
	if (!file) {
		rdma_mcm_user_put(user);
		return -ENOMEM;
	}
	rdma_mcm_live_inc(RDMA_MCM_LIVE_FILES);
	mutex_init(&file->mutex);
	file->user = user;
	xa_init_flags(&file->contexts, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	spin_lock_init(&file->ev_lock);
	INIT_LIST_HEAD(&file->events);
	init_waitqueue_head(&file->poll_wait);
	file->event_mask = RDMA_MCM_EVENTS_DEFAULT;
	file->event_size = RDMA_MCM_EVENT_SIZE_VER0;
	file->net = get_net(current->nsproxy->net_ns);
	filp->private_data = file;
	return nonseekable_open(inode, filp);
}

static int rdma_mcm_cdev_release(struct inode *inode, struct file *filp)
{
	struct rdma_mcm_ufile *file = filp->private_data;
	struct rdma_mcm_uctx *uctx;
	unsigned long id;

	mutex_lock(&file->mutex);
	xa_for_each(&file->contexts, id, uctx) {
		xa_erase(&file->contexts, id);
		rdma_mcm_destroy_uctx(uctx);
	}
	mutex_unlock(&file->mutex);
	WARN_ON_ONCE(file->nr_members || file->nr_contexts);
	WARN_ON_ONCE(!list_empty(&file->events));
	xa_destroy(&file->contexts);
	put_net(file->net);
	rdma_mcm_user_put(file->user);
	mutex_destroy(&file->mutex);
	kfree(file);
	rdma_mcm_live_dec(RDMA_MCM_LIVE_FILES);
	return 0;
}

#if IS_ENABLED(CONFIG_RDMA_MCM_KUNIT_TEST)
/**
 * rdma_mcm_cdev_kunit_open() - open a file of /dev/rdma_mcm for KUnit
 * @filp: a zeroed struct file of the test's; rdma_mcm_cdev_fops.release
 *	closes it
 * @kunit: the backend of the file's contexts and the test's callback
 *	hook, copied into the file before any context can exist
 *
 * As open(2) of the device, but the file's contexts use @kunit->backend
 * (a fake) instead of rdma_cm.
 *
 * Return: 0, or open's errno.
 */
int rdma_mcm_cdev_kunit_open(struct file *filp,
			     const struct rdma_mcm_ufile_kunit *kunit)
{
	struct rdma_mcm_ufile *file;
	int ret;

	ret = rdma_mcm_cdev_open(NULL, filp);
	if (ret)
		return ret;
	file = filp->private_data;
	file->kunit = *kunit;
	return 0;
}
#endif

const struct file_operations rdma_mcm_cdev_fops = {
	.owner		= THIS_MODULE,
	.open		= rdma_mcm_cdev_open,
	.release	= rdma_mcm_cdev_release,
	.read		= rdma_mcm_cdev_read,
	.poll		= rdma_mcm_cdev_poll,
	.unlocked_ioctl	= rdma_mcm_cdev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static struct miscdevice rdma_mcm_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RDMA_MCM_DEVICE_NAME,
	.fops	= &rdma_mcm_cdev_fops,
	/*
	 * Open to all, as rdma-core's udev rule makes /dev/infiniband/rdma_cm:
	 * joining a multicast group needs no privilege through sockets or
	 * ucma either. The open file is the boundary (handles, contexts,
	 * listings and limits are per file), memory is charged to the
	 * opener's cgroup, and a user's files share per-user limits;
	 * Documentation/uapi.rst.
	 */
	.mode	= 0666,
};

int rdma_mcm_cdev_register(void)
{
	int ret;

	rdma_mcm_abi_layout_check();
	rdma_mcm_umember_cache = KMEM_CACHE(rdma_mcm_umember,
					    SLAB_NO_MERGE | SLAB_ACCOUNT);
	if (!rdma_mcm_umember_cache)
		return -ENOMEM;
	ret = misc_register(&rdma_mcm_miscdev);
	if (ret)
		kmem_cache_destroy(rdma_mcm_umember_cache);
	return ret;
}

void rdma_mcm_cdev_unregister(void)
{
	misc_deregister(&rdma_mcm_miscdev);
	kmem_cache_destroy(rdma_mcm_umember_cache);
}
