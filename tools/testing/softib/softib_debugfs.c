// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * softib: the control files the tests use, in /sys/kernel/debug/softib/.
 *
 *   control     write one command:
 *                 port N up|down        the port of sibN goes down or up
 *                 remove N | add N      sibN unregistered, or again
 *                 sm-restart [reregister|sm-change]
 *                                       the SM forgets every record and
 *                                       raises CLIENT_REREGISTER on every
 *                                       port (default), or only SM_CHANGE
 *                                       (an SM without client reregister)
 *                 lid N LID             the port of sibN gets a new LID
 *                 sa busy|drop|no-resources N, sa delay MS, sa mlids N,
 *                 sa sendonly-full 0|1, sa clear-log
 *                                       the SA's faults (softib_sa.c)
 *                 inject MGID QKEY COUNT [SIZE]
 *                                       COUNT datagrams to the group from
 *                                       the generator at LID 1 (the
 *                                       result: read "injected")
 *   sa_records  the SA's groups and members (MGID/port GID join state)
 *   sa_log      the SA's requests and answers, oldest first
 *   injected    how many times a QP received a datagram of the last
 *               inject (datagrams times QPs that took them)
 *   devices     per device: LID, port state, multicast use against the
 *               limits, datagrams sent, received and lost by cause
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "softib.h"

static struct dentry *sib_dir;
static u32 sib_injected;

static int sib_inject(char **argv, int argc)
{
	unsigned int qkey, count, size = 64;
	union ib_gid mgid;
	int ret;

	if (argc < 4 || !in6_pton(argv[1], -1, mgid.raw, -1, NULL) ||
	    kstrtouint(argv[2], 0, &qkey) || kstrtouint(argv[3], 0, &count) ||
	    (argc > 4 && kstrtouint(argv[4], 0, &size)))
		return -EINVAL;
	ret = sib_wire_inject(&mgid, qkey, count, size);
	if (ret < 0)
		return ret;
	WRITE_ONCE(sib_injected, ret);
	return 0;
}

static int sib_sm_restart(const char *how)
{
	enum ib_event_type ev = IB_EVENT_CLIENT_REREGISTER;

	if (how && !strcmp(how, "sm-change"))
		ev = IB_EVENT_SM_CHANGE;
	else if (how && strcmp(how, "reregister"))
		return -EINVAL;
	sib_sa_restart();
	sib_event_all(ev);
	return 0;
}

static int sib_command(char *line)
{
	char *argv[5] = {};
	unsigned int n, v;
	int argc = 0;
	char *tok;

	while ((tok = strsep(&line, " \t\n")) && argc < 5)
		if (*tok)
			argv[argc++] = tok;
	if (!argc)
		return -EINVAL;
	if (!strcmp(argv[0], "sm-restart"))
		return sib_sm_restart(argv[1]);
	if (!strcmp(argv[0], "inject"))
		return sib_inject(argv, argc);
	if (!strcmp(argv[0], "sa") && argc >= 2)
		return sib_sa_control(argv[1], argv[2]);
	if (argc < 2 || kstrtouint(argv[1], 0, &n))
		return -EINVAL;
	if (!strcmp(argv[0], "port") && argc == 3) {
		if (!strcmp(argv[2], "up"))
			return sib_port_set_state(n, true);
		if (!strcmp(argv[2], "down"))
			return sib_port_set_state(n, false);
		return -EINVAL;
	}
	if (!strcmp(argv[0], "remove"))
		return sib_dev_remove(n);
	if (!strcmp(argv[0], "add"))
		return sib_dev_add(n);
	if (!strcmp(argv[0], "lid") && argc == 3 && !kstrtouint(argv[2], 0, &v))
		return sib_set_lid(n, v);
	return -EINVAL;
}

static ssize_t sib_control_write(struct file *file, const char __user *buf,
				 size_t len, loff_t *ppos)
{
	char line[128];
	int ret;

	if (len >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, buf, len))
		return -EFAULT;
	line[len] = '\0';
	ret = sib_command(line);
	return ret ? ret : len;
}

static const struct file_operations sib_control_fops = {
	.owner = THIS_MODULE,
	.write = sib_control_write,
};

static int sib_records_show(struct seq_file *m, void *unused)
{
	sib_sa_show_records(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sib_records);

static int sib_log_show(struct seq_file *m, void *unused)
{
	sib_sa_show_log(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sib_log);

static int sib_devices_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	spin_lock_irq(&sib_fabric_lock);
	for (i = 0; i < sib_ndev; i++) {
		struct sib_dev *d = sib_devs[i];

		if (!d)
			continue;
		spin_lock(&d->mc_lock);
		seq_printf(m, "sib%u lid %u %s groups %u/%u attaches %u/%u qp_max %u",
			   d->index, d->lid,
			   d->state == IB_PORT_ACTIVE ? "active" : "down",
			   d->mc_groups_used, d->limits.max_mcast_grp,
			   d->mc_attach_used, d->limits.max_total_mcast_qp_attach,
			   d->limits.max_mcast_qp_attach);
		spin_unlock(&d->mc_lock);
		seq_printf(m, " tx %lld rx %lld drop_qkey %lld drop_norecv %lld drop_nogroup %lld drop_len %lld drop_state %lld\n",
			   atomic64_read(&d->tx), atomic64_read(&d->rx),
			   atomic64_read(&d->drop_qkey),
			   atomic64_read(&d->drop_norecv),
			   atomic64_read(&d->drop_nogroup),
			   atomic64_read(&d->drop_len),
			   atomic64_read(&d->drop_state));
	}
	spin_unlock_irq(&sib_fabric_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sib_devices);

void sib_debugfs_init(void)
{
	sib_dir = debugfs_create_dir("softib", NULL);
	debugfs_create_file("control", 0200, sib_dir, NULL, &sib_control_fops);
	debugfs_create_file("sa_records", 0444, sib_dir, NULL,
			    &sib_records_fops);
	debugfs_create_file("sa_log", 0444, sib_dir, NULL, &sib_log_fops);
	debugfs_create_file("devices", 0444, sib_dir, NULL, &sib_devices_fops);
	debugfs_create_u32("injected", 0444, sib_dir, &sib_injected);
}

void sib_debugfs_exit(void)
{
	debugfs_remove_recursive(sib_dir);
}
