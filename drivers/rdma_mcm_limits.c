// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm: the char device's limits: per file (max_memberships,
 * max_contexts), and per user, across all of a user's files of
 * /dev/rdma_mcm. A leaf: it calls nothing of the module; the char device
 * enforces the limits, the netlink family shows them (rdma_mcm_limits.h).
 *
 * Per-file limits do not bound a user who opens many files. Each user
 * has an account, keyed by user namespace and effective uid, charged for
 * every context and membership it creates, and for every source of its
 * source-specific joins; a charge beyond
 * max_user_contexts, max_user_memberships or max_user_sources fails with
 * -ENOSPC, as inotify's max_user_watches does. The sources have a limit
 * of their own because what they cost is not charged to the user's
 * memory cgroup: each source-specific membership holds a kernel socket
 * whose IGMP/MLD source lists (the socket's and the netdev's) the IP
 * stack allocates without __GFP_ACCOUNT, and which the user's open-file
 * limit does not count either. Like the kernel's ucounts
 * (which an out-of-tree module cannot extend: their types are a fixed
 * enum, and nothing of them is exported), an account in a user namespace
 * charges the account of the namespace's owner in the parent namespace
 * too, up to the initial namespace: creating user namespaces does not
 * escape the limit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "rdma_mcm_internal.h"
#include "rdma_mcm_limits.h"

unsigned int rdma_mcm_max_memberships = 131072;
module_param_named(max_memberships, rdma_mcm_max_memberships, uint, 0644);
MODULE_PARM_DESC(max_memberships,
		 "memberships one open file may hold; more fail with ENOBUFS (default 131072)");

unsigned int rdma_mcm_max_contexts = 256;
module_param_named(max_contexts, rdma_mcm_max_contexts, uint, 0644);
MODULE_PARM_DESC(max_contexts,
		 "contexts one open file may hold; more fail with EMFILE (default 256)");

static unsigned int max_user_contexts = 1024;
module_param(max_user_contexts, uint, 0644);
MODULE_PARM_DESC(max_user_contexts,
		 "contexts one user may hold across all files; more fail with ENOSPC (default 1024)");

static unsigned int max_user_memberships = 262144;
module_param(max_user_memberships, uint, 0644);
MODULE_PARM_DESC(max_user_memberships,
		 "memberships one user may hold across all files; more fail with ENOSPC (default 262144)");

static unsigned int max_user_sources = 65536;
module_param(max_user_sources, uint, 0644);
MODULE_PARM_DESC(max_user_sources,
		 "sources of source-specific joins one user may hold across all files; more fail with ENOSPC (default 65536)");

/**
 * struct rdma_mcm_user - one user's account
 * @node: entry in rdma_mcm_users
 * @ns: the user namespace (a reference is held)
 * @uid: the user
 * @ref: files of the user, and accounts charging this one as parent
 * @count: what the user holds, per enum rdma_mcm_user_res
 * @parent: the account of @ns's owner in the parent namespace, or NULL
 */
struct rdma_mcm_user {
	struct hlist_node node;
	struct user_namespace *ns;
	kuid_t uid;
	refcount_t ref;
	atomic_t count[RDMA_MCM_USER_NR_RES];
	struct rdma_mcm_user *parent;
};

static DEFINE_MUTEX(rdma_mcm_users_lock);	/* rdma_mcm_users */
static DEFINE_HASHTABLE(rdma_mcm_users, 6);

static unsigned long rdma_mcm_user_hash(struct user_namespace *ns, kuid_t uid)
{
	return (unsigned long)ns ^ __kuid_val(uid);
}

static void __rdma_mcm_user_put(struct rdma_mcm_user *user)
{
	struct rdma_mcm_user *parent;
	int res;

	lockdep_assert_held(&rdma_mcm_users_lock);
	while (user && refcount_dec_and_test(&user->ref)) {
		parent = user->parent;
		hash_del(&user->node);
		for (res = 0; res < RDMA_MCM_USER_NR_RES; res++)
			WARN_ON_ONCE(atomic_read(&user->count[res]));
		put_user_ns(user->ns);
		kfree(user);
		rdma_mcm_live_dec(RDMA_MCM_LIVE_USERS);
		user = parent;
	}
}

static struct rdma_mcm_user *__rdma_mcm_user_get(struct user_namespace *ns,
						 kuid_t uid)
{
	unsigned long key = rdma_mcm_user_hash(ns, uid);
	struct rdma_mcm_user *user, *parent = NULL;

	lockdep_assert_held(&rdma_mcm_users_lock);
	hash_for_each_possible(rdma_mcm_users, user, node, key) {
		if (user->ns == ns && uid_eq(user->uid, uid)) {
			refcount_inc(&user->ref);
			return user;
		}
	}
	if (ns->parent) {
		parent = __rdma_mcm_user_get(ns->parent, ns->owner);
		if (IS_ERR(parent))
			return parent;
	}
	user = rdma_mcm_fail_alloc() ? NULL :
	       kzalloc_obj(*user, GFP_KERNEL_ACCOUNT);
	if (!user) {
		__rdma_mcm_user_put(parent);
		return ERR_PTR(-ENOMEM);
	}
	user->ns = get_user_ns(ns);
	user->uid = uid;
	user->parent = parent;
	refcount_set(&user->ref, 1);
	hash_add(rdma_mcm_users, &user->node, key);
	rdma_mcm_live_inc(RDMA_MCM_LIVE_USERS);
	return user;
}

/**
 * rdma_mcm_user_get() - the account of a file's opener
 * @cred: the opener's credentials
 *
 * Context: process context; may sleep.
 * Return: the account (with a reference), or ERR_PTR(-ENOMEM).
 */
struct rdma_mcm_user *rdma_mcm_user_get(const struct cred *cred)
{
	struct rdma_mcm_user *user;

	mutex_lock(&rdma_mcm_users_lock);
	user = __rdma_mcm_user_get(cred->user_ns, cred->euid);
	mutex_unlock(&rdma_mcm_users_lock);
	return user;
}

/**
 * rdma_mcm_user_put() - drop a reference on an account
 * @user: the account
 *
 * Context: process context; may sleep.
 */
void rdma_mcm_user_put(struct rdma_mcm_user *user)
{
	mutex_lock(&rdma_mcm_users_lock);
	__rdma_mcm_user_put(user);
	mutex_unlock(&rdma_mcm_users_lock);
}

/* The limit of @res, at most INT_MAX: the counts are atomic_t. */
static unsigned int rdma_mcm_user_max(enum rdma_mcm_user_res res)
{
	unsigned int max;

	switch (res) {
	case RDMA_MCM_USER_CONTEXTS:
		max = READ_ONCE(max_user_contexts);
		break;
	case RDMA_MCM_USER_MEMBERSHIPS:
		max = READ_ONCE(max_user_memberships);
		break;
	case RDMA_MCM_USER_SOURCES:
		max = READ_ONCE(max_user_sources);
		break;
	default:
		WARN_ON_ONCE(1);
		return 0;
	}
	return min_t(unsigned int, max, INT_MAX);
}

/*
 * Add @n to @count unless that takes it beyond @max: a charge that does
 * not fit this account never shows in its count. (One that fits a user's
 * account and not its parent's shows in the user's until it is undone, as
 * with the kernel's inc_ucount().)
 */
static bool rdma_mcm_user_add_within(atomic_t *count, unsigned int n,
				     unsigned int max)
{
	int old = atomic_read(count);

	do {
		if (n > max || old < 0 || (unsigned int)old > max - n)
			return false;
	} while (!atomic_try_cmpxchg(count, &old, old + n));
	return true;
}

/**
 * rdma_mcm_user_charge() - charge objects to a user and its parents
 * @user: the account
 * @res: what kind of object
 * @n: how many; 0 charges nothing
 *
 * Return: 0, or -ENOSPC (nothing charged) when an account would go
 * beyond its limit.
 */
int rdma_mcm_user_charge(struct rdma_mcm_user *user,
			 enum rdma_mcm_user_res res, unsigned int n)
{
	unsigned int max = rdma_mcm_user_max(res);
	struct rdma_mcm_user *it, *undo;

	if (!n)
		return 0;
	for (it = user; it; it = it->parent) {
		if (rdma_mcm_user_add_within(&it->count[res], n, max))
			continue;
		for (undo = user; undo != it; undo = undo->parent)
			atomic_sub(n, &undo->count[res]);
		return -ENOSPC;
	}
	return 0;
}

/**
 * rdma_mcm_user_uncharge() - give back what rdma_mcm_user_charge() took
 * @user: the account
 * @res: what kind of object
 * @n: how many
 */
void rdma_mcm_user_uncharge(struct rdma_mcm_user *user,
			    enum rdma_mcm_user_res res, unsigned int n)
{
	if (!n)
		return;
	for (; user; user = user->parent)
		WARN_ON_ONCE(atomic_sub_return(n, &user->count[res]) < 0);
}

/**
 * rdma_mcm_file_limits() - the per-file limits, for the netlink family
 * @memberships: set to max_memberships
 * @contexts: set to max_contexts
 */
void rdma_mcm_file_limits(u32 *memberships, u32 *contexts)
{
	*memberships = READ_ONCE(rdma_mcm_max_memberships);
	*contexts = READ_ONCE(rdma_mcm_max_contexts);
}

/**
 * rdma_mcm_user_limits() - the per-user limits, for the netlink family
 * @contexts: set to max_user_contexts
 * @memberships: set to max_user_memberships
 * @sources: set to max_user_sources
 *
 * Each as enforced: a parameter above INT_MAX is INT_MAX.
 */
void rdma_mcm_user_limits(u32 *contexts, u32 *memberships, u32 *sources)
{
	*contexts = rdma_mcm_user_max(RDMA_MCM_USER_CONTEXTS);
	*memberships = rdma_mcm_user_max(RDMA_MCM_USER_MEMBERSHIPS);
	*sources = rdma_mcm_user_max(RDMA_MCM_USER_SOURCES);
}
