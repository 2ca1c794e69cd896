// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: debugfs, /sys/kernel/debug/rdma_mcm/.
 *
 *   live   objects alive in the module: contexts, memberships, and the
 *          rdma_cm_ids the manager holds; the char device's files, their
 *          contexts and memberships, and per-user accounts; the kernel
 *          sockets holding IGMP/MLD memberships. All zero when nothing is
 *          in use; the tests check it after every run.
 *   timing the kernel time of JOIN and LEAVE ioctls and of the rdma_cm
 *          calls inside them (rdma_mcm_timing.c), for make bench
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "rdma_mcm_internal.h"

static struct dentry *rdma_mcm_debugfs_dir;

static int rdma_mcm_live_show(struct seq_file *m, void *unused)
{
	struct rdma_mcm_live live;

	rdma_mcm_live_objects(&live);
	seq_printf(m, "contexts %d\nmembers %d\nslots %d\n", live.contexts,
		   live.members, live.slots);
	seq_printf(m, "files %d\nfile_contexts %d\nfile_members %d\n",
		   live.files, live.ucontexts, live.umembers);
	seq_printf(m, "users %d\n", live.users);
	seq_printf(m, "ip_sockets %d\n", live.ipsocks);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rdma_mcm_live);

void rdma_mcm_debugfs_init(void)
{
	rdma_mcm_debugfs_dir = debugfs_create_dir("rdma_mcm", NULL);
	debugfs_create_file("live", 0444, rdma_mcm_debugfs_dir, NULL,
			    &rdma_mcm_live_fops);
	rdma_mcm_timing_init(rdma_mcm_debugfs_dir);
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	/* best effort, like every debugfs file: nothing depends on it */
	fault_create_debugfs_attr("fail_alloc", rdma_mcm_debugfs_dir,
				  &rdma_mcm_fail_alloc_attr);
#endif
}

void rdma_mcm_debugfs_exit(void)
{
	debugfs_remove_recursive(rdma_mcm_debugfs_dir);
	rdma_mcm_timing_exit();
}
