// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: the fake backend's IP side (see rdma_mcm_fake.h): the
 * netdev's IGMP/MLD state of each group as the kernel keeps it, the
 * sockets rdma_mcm holds memberships in, rdma_cm's device-level IGMP join
 * with its asymmetric leave, and the address handles of groups rdma_mcm
 * joins on the device itself.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_fake.h"

/* A group rdma_mcm joined itself: RoCE, so its MLID is 0 */
struct mcm_fake_mgid {
	struct list_head node;
	union ib_gid mgid;
};

/* The MLID the fake gave the group of @gid: 0 for one rdma_mcm joined itself */
u16 mcm_fake_mlid_of(struct mcm_fake *fake, const union ib_gid *gid)
{
	struct mcm_fake_mgid *m;

	list_for_each_entry(m, &fake->own_mgids, node)
		if (!memcmp(&m->mgid, gid, sizeof(*gid)))
			return 0;
	return MCM_FAKE_MLID;
}

static bool fake_same_group(const union rdma_mcm_addr *a,
			    const union rdma_mcm_addr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
	return ipv6_addr_equal(&a->in6.sin6_addr, &b->in6.sin6_addr);
}

/* The netdev's group @group on @ifindex; created with @create */
static struct mcm_fake_kgroup *fake_kgroup(struct mcm_fake *fake, int ifindex,
					   const union rdma_mcm_addr *group,
					   bool create)
{
	struct mcm_fake_kgroup *kg;

	list_for_each_entry(kg, &fake->kgroups, node)
		if (kg->ifindex == ifindex && fake_same_group(&kg->group, group))
			return kg;
	if (!create)
		return NULL;
	kg = kunit_kzalloc(fake->test, sizeof(*kg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(fake->test, kg);
	kg->ifindex = ifindex;
	kg->group = *group;
	list_add_tail(&kg->node, &fake->kgroups);
	return kg;
}

/* A member left: the group goes with its last one, counts and all */
static void fake_kgroup_put(struct mcm_fake *fake, struct mcm_fake_kgroup *kg)
{
	if (--kg->users)
		return;
	list_del(&kg->node);	/* kunit frees it */
}

static int fake_kgroup_source(struct mcm_fake_kgroup *kg,
			      const union rdma_mcm_ipaddr *src)
{
	unsigned int i;

	for (i = 0; i < kg->nr_sources; i++)
		if (!memcmp(&kg->sources[i], src, sizeof(*src)))
			return i;
	return -1;
}

/* A socket's member joins (@join) or leaves the netdev's group */
static void fake_kgroup_member(struct mcm_fake *fake,
			       const struct mcm_fake_sockgroup *sg, bool join)
{
	struct mcm_fake_kgroup *kg = fake_kgroup(fake, sg->ifindex, &sg->group,
						 join);
	unsigned int i;
	int d = join ? 1 : -1, k;

	if (!kg)
		return;
	if (sg->nr_sources)
		kg->sfcount_in += d;
	else
		kg->sfcount_ex += d;
	for (i = 0; i < sg->nr_sources; i++) {
		k = fake_kgroup_source(kg, &sg->sources[i]);
		if (k < 0) {
			k = kg->nr_sources++;
			kg->sources[k] = sg->sources[i];
		}
		kg->source_count[k] += d;
	}
	if (join)
		kg->users++;
	else
		fake_kgroup_put(fake, kg);
}

/*
 * rdma_cm's IGMP join of a full IPv4 member on RoCE v2 (ip_mc_inc_group(),
 * device-level: the any-source count it adds stays until the group goes,
 * as ip_mc_dec_group() does not take it back), and its leave.
 */
void mcm_fake_cm_igmp(struct mcm_fake *fake, struct mcm_fake_join *join,
		      bool leave)
{
	union rdma_mcm_addr g;
	struct mcm_fake_kgroup *kg;
	int ifindex = join->fid->id.route.addr.dev_addr.bound_dev_if;

	lockdep_assert_held(&fake->lock);
	if (rdma_mcm_addr_parse((struct sockaddr *)&join->addr,
				sizeof(join->addr), &g))
		return;
	kg = fake_kgroup(fake, ifindex, &g, !leave);
	if (!leave) {
		kg->users++;
		kg->sfcount_ex++;
	} else if (kg) {
		fake_kgroup_put(fake, kg);
	}
}

static struct mcm_fake_sock *fake_to_sock(void *sock)
{
	return sock;
}

static int fake_ip_open(const struct rdma_mcm_backend *be, struct net *net,
			sa_family_t family, void **sock)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_sock *fs;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->ip_opens++;
	if (fake->ip_open_ret) {
		mutex_unlock(&fake->lock);
		return fake->ip_open_ret;
	}
	fs = kunit_kzalloc(fake->test, sizeof(*fs), GFP_KERNEL);
	if (fs) {
		INIT_LIST_HEAD(&fs->groups);
		fs->family = family;
		list_add_tail(&fs->node, &fake->socks);
		fake->ip_socks++;
		*sock = fs;
	}
	mutex_unlock(&fake->lock);
	return fs ? 0 : -ENOMEM;
}

static void fake_ip_close(const struct rdma_mcm_backend *be, void *sock)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_sock *fs = fake_to_sock(sock);

	mcm_fake_lock_waiting(fake);
	fake->seq++;
	KUNIT_EXPECT_FALSE(fake->test, fs->closed);
	KUNIT_EXPECT_EQ_MSG(fake->test, fs->nr_groups, 0,
			    "a socket closed with groups in it");
	fs->closed = true;
	fake->ip_socks--;
	mutex_unlock(&fake->lock);
}

static struct mcm_fake_sockgroup *
fake_sock_group(struct mcm_fake_sock *fs, int ifindex,
		const union rdma_mcm_addr *group)
{
	struct mcm_fake_sockgroup *sg;

	list_for_each_entry(sg, &fs->groups, node)
		if (sg->ifindex == ifindex && fake_same_group(&sg->group, group))
			return sg;
	return NULL;
}

/*
 * A socket joins a group: any-source (IP_ADD_MEMBERSHIP), or with a
 * source filter (MCAST_JOIN_SOURCE_GROUP per source), within the
 * namespace's limits.
 */
static int fake_ip_join(const struct rdma_mcm_backend *be, void *sock,
			int ifindex, const union rdma_mcm_addr *group,
			const struct rdma_mcm_ipmc *ipmc)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_sock *fs = fake_to_sock(sock);
	bool v4 = group->sa.sa_family == AF_INET;
	int max_groups = fake->ip_sock_max ?: 20;
	int v6_groups = fake->ip_sock_max ?: INT_MAX;	/* optmem_max */
	struct mcm_fake_sockgroup *sg;
	int ret = 0, idx = ifindex - MCM_FAKE_IFINDEX0;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->ip_joins++;
	/* a device's netdev, or the upper of one that binds land on */
	KUNIT_EXPECT_TRUE(fake->test, (idx >= 0 && idx < MCM_FAKE_NR_DEVS) ||
			  (fake->bind_ifindex && ifindex == fake->bind_ifindex));
	KUNIT_EXPECT_FALSE(fake->test, fs->closed);
	KUNIT_EXPECT_EQ(fake->test, fs->family, group->sa.sa_family);
	KUNIT_EXPECT_NULL_MSG(fake->test, fake_sock_group(fs, ifindex, group),
			      "a socket joined one group twice");
	mcm_fake_inject(fake, MCM_FAKE_AT_IP_JOIN, NULL, NULL);
	if (fake->ip_join_ret) {
		ret = fake->ip_join_ret;
		goto out;
	}
	if ((v4 && fs->nr_groups >= max_groups) ||
	    ipmc->nr_sources > (v4 ? 10 : 64)) {
		ret = -ENOBUFS;
		goto out;
	}
	/* IPv6: sock_kmalloc() of the socket's list fails, -ENOMEM */
	if (!v4 && fs->nr_groups >= v6_groups) {
		ret = -ENOMEM;
		goto out;
	}
	sg = kunit_kzalloc(fake->test, sizeof(*sg), GFP_KERNEL);
	if (!sg) {
		ret = -ENOMEM;
		goto out;
	}
	sg->ifindex = ifindex;
	sg->group = *group;
	sg->nr_sources = ipmc->nr_sources;
	memcpy(sg->sources, ipmc->sources,
	       ipmc->nr_sources * sizeof(ipmc->sources[0]));
	list_add_tail(&sg->node, &fs->groups);
	fs->nr_groups++;
	fake->ip_live++;
	fake_kgroup_member(fake, sg, true);
out:
	mutex_unlock(&fake->lock);
	return ret;
}

/* A socket leaves a group, with its filter (IP_DROP_MEMBERSHIP) */
static void fake_ip_leave(const struct rdma_mcm_backend *be, void *sock,
			  int ifindex, const union rdma_mcm_addr *group)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_sock *fs = fake_to_sock(sock);
	struct mcm_fake_sockgroup *sg;

	mcm_fake_lock_waiting(fake);
	fake->seq++;
	fake->ip_leaves++;
	sg = fake_sock_group(fs, ifindex, group);
	if (sg) {
		list_del(&sg->node);
		fs->nr_groups--;
		fake->ip_live--;
		fake_kgroup_member(fake, sg, false);
	} else {
		KUNIT_FAIL(fake->test, "IGMP/MLD leave of a group the socket does not hold");
	}
	mutex_unlock(&fake->lock);
}

/* As ib_init_ah_from_mcmember() for a RoCE v2 group; no GID reference */
static int fake_roce_ah(const struct rdma_mcm_backend *be,
			struct rdma_cm_id *id, const union ib_gid *mgid,
			struct rdma_ah_attr *ah)
{
	struct mcm_fake *fake = to_fake(be);
	union ib_gid dgid = *mgid;
	struct mcm_fake_mgid *own;
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->roce_ahs++;
	if (mcm_fake_mlid_of(fake, mgid)) {
		own = kunit_kzalloc(fake->test, sizeof(*own), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(fake->test, own);
		own->mgid = *mgid;
		list_add(&own->node, &fake->own_mgids);
	}
	KUNIT_EXPECT_FALSE(fake->test, to_fid(id)->destroyed);
	KUNIT_EXPECT_FALSE(fake->test, mcm_fake_is_ib(fake, id->device));
	ret = fake->roce_ah_ret;
	if (!ret) {
		memset(ah, 0, sizeof(*ah));
		ah->type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_port_num(ah, id->port_num);
		rdma_ah_set_grh(ah, &dgid, 0, 0, 64, 0);
	}
	mutex_unlock(&fake->lock);
	return ret;
}

/**
 * mcm_fake_ip_state() - the netdev's IGMP/MLD state of a group
 * @fake: the fake
 * @ifindex: the netdev
 * @group: the group
 *
 * Return: its members and counts, and the mode the kernel would report.
 */
struct mcm_fake_ipstate mcm_fake_ip_state(struct mcm_fake *fake, int ifindex,
					  const struct sockaddr *group)
{
	struct mcm_fake_ipstate st = {};
	struct mcm_fake_kgroup *kg;
	union rdma_mcm_addr g;

	KUNIT_ASSERT_EQ(fake->test,
			rdma_mcm_addr_parse(group, rdma_addr_size(group), &g),
			0);
	mutex_lock(&fake->lock);
	kg = fake_kgroup(fake, ifindex, &g, false);
	if (kg) {
		st.users = kg->users;
		st.any_source = kg->sfcount_ex;
		st.source_specific = kg->sfcount_in;
		st.exclude = kg->sfcount_ex > 0;
	}
	mutex_unlock(&fake->lock);
	return st;
}

/**
 * mcm_fake_ip_includes() - the netdev's include count of a group's source
 * @fake: the fake
 * @ifindex: the netdev
 * @group: the group
 * @src: the source
 *
 * Return: how many source-filtered members include @src.
 */
int mcm_fake_ip_includes(struct mcm_fake *fake, int ifindex,
			 const struct sockaddr *group,
			 const struct sockaddr *src)
{
	union rdma_mcm_addr g, a;
	union rdma_mcm_ipaddr sa = {};
	struct mcm_fake_kgroup *kg;
	int k, n = 0;

	KUNIT_ASSERT_EQ(fake->test,
			rdma_mcm_addr_parse(group, rdma_addr_size(group), &g),
			0);
	KUNIT_ASSERT_EQ(fake->test,
			rdma_mcm_addr_parse(src, rdma_addr_size(src), &a), 0);
	if (a.sa.sa_family == AF_INET)
		sa.v4 = a.in.sin_addr.s_addr;
	else
		sa.v6 = a.in6.sin6_addr;
	mutex_lock(&fake->lock);
	kg = fake_kgroup(fake, ifindex, &g, false);
	k = kg ? fake_kgroup_source(kg, &sa) : -1;
	if (k >= 0)
		n = kg->source_count[k];
	mutex_unlock(&fake->lock);
	return n;
}

/**
 * mcm_fake_ip_init() - the IP side's backend calls
 * @fake: the fake being created
 */
void mcm_fake_ip_init(struct mcm_fake *fake)
{
	INIT_LIST_HEAD(&fake->socks);
	INIT_LIST_HEAD(&fake->kgroups);
	INIT_LIST_HEAD(&fake->own_mgids);
	fake->be.ip_open = fake_ip_open;
	fake->be.ip_close = fake_ip_close;
	fake->be.ip_join = fake_ip_join;
	fake->be.ip_leave = fake_ip_leave;
	fake->be.roce_ah = fake_roce_ah;
}
