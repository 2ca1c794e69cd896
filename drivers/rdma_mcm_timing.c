// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: where a join's and a leave's kernel time goes, for make bench.
 *
 * rdma_mcm is a manager on top of rdma_cm: its own cost is what a JOIN or
 * LEAVE ioctl takes beyond the rdma_join_multicast() or
 * rdma_leave_multicast() inside it. /sys/kernel/debug/rdma_mcm/timing
 * sums both while enabled (write 1: reset and start; 0: stop); off, the
 * measuring points are a static branch each.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "rdma_mcm_internal.h"

DEFINE_STATIC_KEY_FALSE(rdma_mcm_timing_on);

static atomic64_t rdma_mcm_timed_calls[RDMA_MCM_TIMED_NR];
static atomic64_t rdma_mcm_timed_ns[RDMA_MCM_TIMED_NR];
static DEFINE_MUTEX(rdma_mcm_timing_mutex);	/* enabling, resetting */

static const char * const rdma_mcm_timed_names[RDMA_MCM_TIMED_NR] = {
	[RDMA_MCM_TIMED_JOIN_IOCTL] = "join_ioctl",
	[RDMA_MCM_TIMED_LEAVE_IOCTL] = "leave_ioctl",
	[RDMA_MCM_TIMED_CM_JOIN] = "rdma_join_multicast",
	[RDMA_MCM_TIMED_CM_LEAVE] = "rdma_leave_multicast",
};

/**
 * __rdma_mcm_time_end() - count one timed call
 * @what: RDMA_MCM_TIMED_*
 * @start: rdma_mcm_time_start()'s value; 0: timing was off then
 */
void __rdma_mcm_time_end(enum rdma_mcm_timed what, u64 start)
{
	if (!start)
		return;
	atomic64_inc(&rdma_mcm_timed_calls[what]);
	atomic64_add(ktime_get_ns() - start, &rdma_mcm_timed_ns[what]);
}

static int rdma_mcm_timing_show(struct seq_file *m, void *unused)
{
	int i;

	seq_printf(m, "enabled %d\n",
		   static_branch_unlikely(&rdma_mcm_timing_on) ? 1 : 0);
	for (i = 0; i < RDMA_MCM_TIMED_NR; i++)
		seq_printf(m, "%s %lld %lld\n", rdma_mcm_timed_names[i],
			   atomic64_read(&rdma_mcm_timed_calls[i]),
			   atomic64_read(&rdma_mcm_timed_ns[i]));
	return 0;
}

static int rdma_mcm_timing_open(struct inode *inode, struct file *filp)
{
	return single_open(filp, rdma_mcm_timing_show, NULL);
}

static ssize_t rdma_mcm_timing_write(struct file *filp, const char __user *buf,
				     size_t len, loff_t *pos)
{
	bool on;
	int ret, i;

	ret = kstrtobool_from_user(buf, len, &on);
	if (ret)
		return ret;
	mutex_lock(&rdma_mcm_timing_mutex);
	if (on) {
		for (i = 0; i < RDMA_MCM_TIMED_NR; i++) {
			atomic64_set(&rdma_mcm_timed_calls[i], 0);
			atomic64_set(&rdma_mcm_timed_ns[i], 0);
		}
		static_branch_enable(&rdma_mcm_timing_on);
	} else {
		static_branch_disable(&rdma_mcm_timing_on);
	}
	mutex_unlock(&rdma_mcm_timing_mutex);
	return len;
}

static const struct file_operations rdma_mcm_timing_fops = {
	.owner = THIS_MODULE,
	.open = rdma_mcm_timing_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = rdma_mcm_timing_write,
};

/**
 * rdma_mcm_timing_init() - the debugfs file
 * @dir: rdma_mcm's debugfs directory
 */
void rdma_mcm_timing_init(struct dentry *dir)
{
	debugfs_create_file("timing", 0600, dir, NULL, &rdma_mcm_timing_fops);
}

/**
 * rdma_mcm_timing_exit() - timing off for good (module unload)
 */
void rdma_mcm_timing_exit(void)
{
	static_branch_disable(&rdma_mcm_timing_on);
}
