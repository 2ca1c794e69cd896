// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: admission by the HCA's multicast limits. A device says how
 * many multicast groups it can attach QPs to (max_mcast_grp), how many QPs
 * one group can have (max_mcast_qp_attach) and how many attachments it
 * holds in all (max_total_mcast_qp_attach); ib_attach_mcast() fails past
 * them, after the join went to the SA or the switch. rdma_mcm holds a
 * place against those limits for every membership that will attach a QP
 * (a full member with a QP), from its join until it lets go of the group,
 * and refuses a join that has no place before anything is sent: ENOSPC,
 * or EOPNOTSUPP when the device has a limit of 0 (no multicast attach).
 *
 * Only rdma_mcm's own attachments are counted: IPoIB's and those a
 * process makes through uverbs are the device's business, and such an
 * attach can still fail at the device (the membership then fails with
 * the device's error, as before). Groups are counted by their key in a
 * context's tree (rdma_mcm_group_key()), as rdma_cm maps them to MGIDs;
 * a group the SA assigns is a group of its own.
 *
 * The places are kept per ib_device in a small hash of groups under one
 * spinlock: a join takes it once, for a lookup and two counts.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_internal.h"

/* One device's places: a list entry, made at its first, freed at its last */
struct rdma_mcm_admit_dev {
	struct list_head node;
	const struct ib_device *device;
	u32 groups;
	u32 attaches;
};

/* One group's places on a device */
struct rdma_mcm_admit_group {
	struct hlist_node node;
	const struct ib_device *device;
	struct rdma_mcm_key key;
	u32 attaches;
};

static DEFINE_SPINLOCK(rdma_mcm_admit_lock);
static LIST_HEAD(rdma_mcm_admit_devs);
static DEFINE_HASHTABLE(rdma_mcm_admit_groups, 8);

static u32 rdma_mcm_admit_hash(const struct ib_device *device,
			       const struct rdma_mcm_key *key)
{
	return jhash(key->raw, sizeof(key->raw), hash_ptr(device, 32));
}

static struct rdma_mcm_admit_dev *
rdma_mcm_admit_dev_find(const struct ib_device *device)
{
	struct rdma_mcm_admit_dev *d;

	lockdep_assert_held(&rdma_mcm_admit_lock);
	list_for_each_entry(d, &rdma_mcm_admit_devs, node)
		if (d->device == device)
			return d;
	return NULL;
}

static struct rdma_mcm_admit_group *
rdma_mcm_admit_group_find(const struct ib_device *device,
			  const struct rdma_mcm_key *key)
{
	struct rdma_mcm_admit_group *g;

	lockdep_assert_held(&rdma_mcm_admit_lock);
	hash_for_each_possible(rdma_mcm_admit_groups, g, node,
			       rdma_mcm_admit_hash(device, key))
		if (g->device == device && !memcmp(&g->key, key, sizeof(*key)))
			return g;
	return NULL;
}

/**
 * rdma_mcm_admit_limits() - a device's multicast limits, as unsigned
 * @device: the device
 * @vals: set to the limits, indexed by enum rdma_mcm_nl_mcast (the
 *	maxima only; the counts of rdma_mcm's own are left as they are)
 */
void rdma_mcm_admit_limits(const struct ib_device *device, u32 *vals)
{
	vals[RDMA_MCM_MCAST_GROUPS_MAX] = (u32)device->attrs.max_mcast_grp;
	vals[RDMA_MCM_MCAST_QP_ATTACH_MAX] =
		(u32)device->attrs.max_mcast_qp_attach;
	vals[RDMA_MCM_MCAST_ATTACHES_MAX] =
		(u32)device->attrs.max_total_mcast_qp_attach;
}

/**
 * rdma_mcm_admit_hold() - hold a place for one more QP attachment
 * @device: the device it will be attached on
 * @key: its group's key, or NULL for a group of its own (one the SA
 *	assigns)
 *
 * Context: process context; may sleep (allocates, charged to the caller).
 * Return: 0; -EOPNOTSUPP when one of the device's multicast limits is 0;
 * -ENOSPC when a place would pass one of them; -ENOMEM.
 */
int rdma_mcm_admit_hold(const struct ib_device *device,
			const struct rdma_mcm_key *key)
{
	struct rdma_mcm_admit_group *g = NULL, *new_g = NULL;
	struct rdma_mcm_admit_dev *d, *new_d = NULL;
	u32 max[__RDMA_MCM_MCAST_MAX];
	int ret;

	might_sleep();
	rdma_mcm_admit_limits(device, max);
	if (!max[RDMA_MCM_MCAST_GROUPS_MAX] ||
	    !max[RDMA_MCM_MCAST_QP_ATTACH_MAX] ||
	    !max[RDMA_MCM_MCAST_ATTACHES_MAX])
		return -EOPNOTSUPP;
again:
	spin_lock(&rdma_mcm_admit_lock);
	d = rdma_mcm_admit_dev_find(device);
	if (key)
		g = rdma_mcm_admit_group_find(device, key);
	if ((!d && !new_d) || (key && !g && !new_g)) {
		/* allocate outside the lock, then look again */
		spin_unlock(&rdma_mcm_admit_lock);
		if (!d && !new_d)
			new_d = rdma_mcm_fail_alloc() ? NULL :
				kzalloc_obj(*new_d, GFP_KERNEL_ACCOUNT);
		if (key && !g && !new_g)
			new_g = rdma_mcm_fail_alloc() ? NULL :
				kzalloc_obj(*new_g, GFP_KERNEL_ACCOUNT);
		if ((!d && !new_d) || (key && !g && !new_g)) {
			ret = -ENOMEM;
			goto out_free;
		}
		goto again;
	}
	if (!d) {
		d = new_d;
		new_d = NULL;
		d->device = device;
		list_add(&d->node, &rdma_mcm_admit_devs);
	}
	ret = -ENOSPC;
	if (d->attaches >= max[RDMA_MCM_MCAST_ATTACHES_MAX] ||
	    (!g && d->groups >= max[RDMA_MCM_MCAST_GROUPS_MAX]) ||
	    (g && g->attaches >= max[RDMA_MCM_MCAST_QP_ATTACH_MAX])) {
		if (!d->attaches) {	/* made for this: not kept */
			list_del(&d->node);
			new_d = d;
		}
		goto out_unlock;
	}
	if (key && !g) {
		g = new_g;
		new_g = NULL;
		g->device = device;
		g->key = *key;
		hash_add(rdma_mcm_admit_groups, &g->node,
			 rdma_mcm_admit_hash(device, key));
	}
	if (g)
		g->attaches++;
	if (!g || g->attaches == 1)
		d->groups++;
	d->attaches++;
	ret = 0;
out_unlock:
	spin_unlock(&rdma_mcm_admit_lock);
out_free:
	kfree(new_g);
	kfree(new_d);
	return ret;
}

/**
 * rdma_mcm_admit_release() - give back a place rdma_mcm_admit_hold() gave
 * @device: the device it was held on
 * @key: its group's key, or NULL, as it was held
 *
 * Context: any but hard interrupt context.
 */
void rdma_mcm_admit_release(const struct ib_device *device,
			    const struct rdma_mcm_key *key)
{
	struct rdma_mcm_admit_group *g = NULL, *free_g = NULL;
	struct rdma_mcm_admit_dev *d, *free_d = NULL;

	spin_lock(&rdma_mcm_admit_lock);
	d = rdma_mcm_admit_dev_find(device);
	if (key) {
		g = rdma_mcm_admit_group_find(device, key);
		if (WARN_ON_ONCE(!g || !g->attaches))
			goto out;
	}
	if (WARN_ON_ONCE(!d || !d->attaches))
		goto out;
	d->attaches--;
	if (!g || !--g->attaches) {
		d->groups--;
		if (g) {
			hash_del(&g->node);
			free_g = g;
		}
	}
	if (!d->attaches) {
		list_del(&d->node);
		free_d = d;
	}
out:
	spin_unlock(&rdma_mcm_admit_lock);
	kfree(free_g);
	kfree(free_d);
}

/**
 * rdma_mcm_admit_usage() - a device's places held, and its limits
 * @device: the device
 * @vals: set, indexed by enum rdma_mcm_nl_mcast
 */
void rdma_mcm_admit_usage(const struct ib_device *device, u32 *vals)
{
	struct rdma_mcm_admit_dev *d;

	rdma_mcm_admit_limits(device, vals);
	spin_lock(&rdma_mcm_admit_lock);
	d = rdma_mcm_admit_dev_find(device);
	vals[RDMA_MCM_MCAST_GROUPS] = d ? d->groups : 0;
	vals[RDMA_MCM_MCAST_ATTACHES] = d ? d->attaches : 0;
	spin_unlock(&rdma_mcm_admit_lock);
}
