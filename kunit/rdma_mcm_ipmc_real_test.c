// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: what rdma_cm cannot do, against the real rdma_cm, IPv4
 * and IPv6 stacks of the UML kernel, on Soft-RoCE on dummy0 (192.0.2.1,
 * and its IPv6 link-local address: dummy0 does no DAD). The real backend's
 * MLD membership and kernel-socket source filters run here, in the debug
 * build under KASAN and lockdep too; the kernel's own answers say what
 * the netdev accepts: ip_check_mc_rcu() and ipv6_chk_mcast_addr() with a
 * source are the filter the IP input path applies.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/igmp.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/rdma_mcm.h>

#include "../drivers/rdma_mcm_internal.h"
#include "rdma_mcm_test_rxe.h"

struct ipmc_ulp {
	struct completion joined;
	int nr_joined;
	int nr_errors;
	union ib_gid mgid;
	u32 qkey;
	int gid_type;		/* of the address handle's source GID */
	u8 hop_limit;
};

static void ipmc_ulp_joined(void *priv, const struct rdma_mcm_join_info *info)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(&info->ah_attr);
	struct ipmc_ulp *ulp = priv;

	ulp->nr_joined++;
	ulp->mgid = info->mgid;
	ulp->qkey = info->qkey;
	ulp->hop_limit = grh->hop_limit;
	ulp->gid_type = grh->sgid_attr ? grh->sgid_attr->gid_type : -1;
	complete(&ulp->joined);
}

static void ipmc_ulp_error(void *priv, u32 handle, void *context, int status)
{
	struct ipmc_ulp *ulp = priv;

	ulp->nr_errors++;
}

static const struct rdma_mcm_ops ipmc_ulp_ops = {
	.joined = ipmc_ulp_joined,
	.error = ipmc_ulp_error,
};

static struct net_device *ipmc_dummy(struct kunit *test)
{
	struct net_device *ndev = dev_get_by_name(&init_net, MCM_DUMMY_IFNAME);

	KUNIT_ASSERT_NOT_NULL(test, ndev);
	return ndev;
}

/* dummy0's IPv6 link-local address, with its scope */
static struct sockaddr_in6 ipmc_lladdr(struct kunit *test)
{
	struct net_device *ndev = ipmc_dummy(test);
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_scope_id = ndev->ifindex,
	};
	int ret;

	ret = ipv6_get_lladdr(ndev, &sin6.sin6_addr, IFA_F_TENTATIVE);
	dev_put(ndev);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "dummy0 has no IPv6 link-local address");
	return sin6;
}

static struct rdma_mcm_ctx *ipmc_open(struct kunit *test, struct ipmc_ulp *ulp,
				      const struct sockaddr *src)
{
	struct rdma_mcm_ctx *ctx;

	memset(ulp, 0, sizeof(*ulp));
	init_completion(&ulp->joined);
	ctx = rdma_mcm_open(&init_net, src, &ipmc_ulp_ops, ulp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	return ctx;
}

static struct sockaddr_storage ipmc_addr(struct kunit *test, const char *text)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

	if (strchr(text, ':')) {
		sin6->sin6_family = AF_INET6;
		KUNIT_ASSERT_EQ(test, in6_pton(text, -1, sin6->sin6_addr.s6_addr,
					       -1, NULL), 1);
	} else {
		sin->sin_family = AF_INET;
		KUNIT_ASSERT_EQ(test, in4_pton(text, -1, (u8 *)&sin->sin_addr,
					       -1, NULL), 1);
	}
	return ss;
}

/* Join @group (with @src, if any) full-member and wait for ->joined() */
static u32 ipmc_join(struct kunit *test, struct rdma_mcm_ctx *ctx,
		     struct ipmc_ulp *ulp, const char *group, const char *src)
{
	struct sockaddr_storage g = ipmc_addr(test, group), s;
	struct rdma_mcm_join_req req = {
		.group = (struct sockaddr *)&g,
		.join_type = RDMA_MCM_FULLMEMBER,
	};
	u32 h = 0;

	if (src) {
		s = ipmc_addr(test, src);
		req.sources = &s;
		req.nr_sources = 1;
	}
	reinit_completion(&ulp->joined);
	KUNIT_ASSERT_EQ(test, rdma_mcm_join_ex(ctx, &req, &h), 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&ulp->joined, 10 * HZ),
			0UL);
	return h;
}

/* Does dummy0 take IPv4 @group from @src ("": any source) now? */
static bool ipmc_v4_accepts(struct kunit *test, const char *group,
			    const char *src)
{
	struct sockaddr_storage g = ipmc_addr(test, group);
	struct sockaddr_storage s = ipmc_addr(test, *src ? src : "0.0.0.0");
	struct net_device *ndev = ipmc_dummy(test);
	struct in_device *in_dev;
	bool yes = false;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev)
		yes = ip_check_mc_rcu(in_dev,
				      ((struct sockaddr_in *)&g)->sin_addr.s_addr,
				      ((struct sockaddr_in *)&s)->sin_addr.s_addr,
				      IPPROTO_UDP);
	rcu_read_unlock();
	dev_put(ndev);
	return yes;
}

/* Does dummy0 take IPv6 @group from @src ("": any source) now? */
static bool ipmc_v6_accepts(struct kunit *test, const char *group,
			    const char *src)
{
	struct sockaddr_storage g = ipmc_addr(test, group);
	struct sockaddr_storage s = ipmc_addr(test, *src ? src : "::");
	struct net_device *ndev = ipmc_dummy(test);
	bool yes;

	yes = ipv6_chk_mcast_addr(ndev,
				  &((struct sockaddr_in6 *)&g)->sin6_addr,
				  &((struct sockaddr_in6 *)&s)->sin6_addr);
	dev_put(ndev);
	return yes;
}

static void ipmc_live_zero(struct kunit *test)
{
	struct rdma_mcm_live live;

	rdma_mcm_flush();
	rdma_mcm_live_objects(&live);
	KUNIT_EXPECT_EQ(test, live.contexts, 0);
	KUNIT_EXPECT_EQ(test, live.members, 0);
	KUNIT_EXPECT_EQ(test, live.slots, 0);
	KUNIT_EXPECT_EQ(test, live.ipsocks, 0);
}

/*
 * An IPv6 group on rxe's RoCE v2: the real rdma_cm refuses it, rdma_mcm
 * joins it (JOINED with the group as MGID, rdma_cm's Q_Key, a RoCE v2
 * source GID, hop limit 64), dummy0 is an MLD member of the group while
 * it is joined and is not after the leave.
 */
static void mcm_real_v6_group_on_roce_v2(struct kunit *test)
{
	struct sockaddr_in6 src = ipmc_lladdr(test);
	struct sockaddr_storage g = ipmc_addr(test, "ff1e::1:2");
	struct rdma_mcm_member_info info;
	struct rdma_mcm_ctx *ctx;
	struct ipmc_ulp ulp;
	u32 h;

	mcm_rxe_add(test);
	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src);
	h = ipmc_join(test, ctx, &ulp, "ff1e::1:2", NULL);
	KUNIT_EXPECT_EQ(test, ulp.nr_joined, 1);
	KUNIT_EXPECT_EQ(test, ulp.nr_errors, 0);
	KUNIT_EXPECT_MEMEQ(test, ulp.mgid.raw,
			   &((struct sockaddr_in6 *)&g)->sin6_addr, 16);
	KUNIT_EXPECT_EQ(test, ulp.qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, ulp.gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_EQ(test, ulp.hop_limit, 64);
	KUNIT_ASSERT_EQ(test, rdma_mcm_query(ctx, h, &info), 0);
	KUNIT_EXPECT_EQ(test, info.state, RDMA_MCM_JOINED);
	KUNIT_EXPECT_TRUE(test, info.joined_by_mcm);
	KUNIT_EXPECT_TRUE(test, ipmc_v6_accepts(test, "ff1e::1:2", ""));
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, "ff1e::1:2", ""));
	rdma_mcm_close(ctx);
	ipmc_live_zero(test);
}

/*
 * IPv4 source-specific: the socket filter makes dummy0 take the group from
 * the included source only; an any-source member (another context: its
 * IGMP membership is rdma_mcm's socket's too, rdma_cm joins send-only)
 * makes it take every source until it leaves; each leave takes back its
 * own part, and nothing of the group is left at the end. With rdma_cm's
 * device-level IGMP join for the any-source member, the last checks of
 * 192.0.2.10 fail: the kernel's leave leaves it in EXCLUDE.
 */
static void mcm_real_ssm_v4_composes(struct kunit *test)
{
	const char *g = "232.1.2.3";
	struct rdma_mcm_ctx *ssm, *any;
	struct sockaddr_storage src = ipmc_addr(test, MCM_DUMMY_ADDR);
	struct ipmc_ulp u1, u2;
	u32 hs, ha;

	mcm_rxe_add(test);
	ssm = ipmc_open(test, &u1, (struct sockaddr *)&src);
	any = ipmc_open(test, &u2, (struct sockaddr *)&src);
	hs = ipmc_join(test, ssm, &u1, g, "192.0.2.9");
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g, "192.0.2.9"));
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g, "192.0.2.10"));

	ha = ipmc_join(test, any, &u2, g, NULL);
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g, "192.0.2.10"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(any, ha), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g, "192.0.2.10"));
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g, "192.0.2.9"));

	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ssm, hs), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g, ""));
	rdma_mcm_close(any);
	rdma_mcm_close(ssm);
	ipmc_live_zero(test);
}

/*
 * IPv6 source-specific on RoCE v2 (rdma_mcm's join and the MLDv2 filter
 * only), and closing the context takes the filter back.
 */
static void mcm_real_ssm_v6_close(struct kunit *test)
{
	struct sockaddr_in6 src = ipmc_lladdr(test);
	struct rdma_mcm_ctx *ctx;
	struct ipmc_ulp ulp;

	mcm_rxe_add(test);
	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src);
	ipmc_join(test, ctx, &ulp, "ff3e::8000:2", "2001:db8::9");
	KUNIT_EXPECT_TRUE(test, ipmc_v6_accepts(test, "ff3e::8000:2",
						"2001:db8::9"));
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, "ff3e::8000:2",
						 "2001:db8::10"));
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, "ff3e::8000:2", ""));
	ipmc_live_zero(test);
}

/*
 * The device goes while an IPv6 group and a source filter are held: both
 * are dropped with it (the netdev stays: nothing may linger on it).
 */
static void mcm_real_device_removal_drops_ipmc(struct kunit *test)
{
	struct sockaddr_in6 src = ipmc_lladdr(test);
	struct rdma_mcm_ctx *ctx;
	struct ipmc_ulp ulp;

	mcm_rxe_add(test);
	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src);
	ipmc_join(test, ctx, &ulp, "ff1e::1:3", NULL);
	ipmc_join(test, ctx, &ulp, "ff3e::8000:3", "2001:db8::9");
	mcm_rxe_remove(NULL);
	rdma_mcm_flush();
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, "ff1e::1:3", ""));
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, "ff3e::8000:3", ""));
	KUNIT_EXPECT_EQ(test, ulp.nr_errors, 2);	/* -ENODEV each */
	rdma_mcm_close(ctx);
	ipmc_live_zero(test);
}

/*
 * A socket left empty is kept and used again: a source filter's for an
 * any-source membership and back, IPv4 and IPv6. The leave dropped the
 * group with its filter, so the netdev takes exactly what the next
 * membership of the socket asks for; one socket all along.
 */
static void mcm_real_socket_reused_clean(struct kunit *test)
{
	struct sockaddr_storage src4 = ipmc_addr(test, MCM_DUMMY_ADDR);
	struct sockaddr_in6 src6 = ipmc_lladdr(test);
	const char *g4 = "232.1.2.4", *g6 = "ff3e::8000:4";
	struct rdma_mcm_ctx *ctx;
	struct ipmc_ulp ulp;
	u32 h;

	mcm_rxe_add(test);
	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src4);
	h = ipmc_join(test, ctx, &ulp, g4, "192.0.2.9");
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g4, ""));
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	h = ipmc_join(test, ctx, &ulp, g4, NULL);
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g4, "192.0.2.10"));
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g4, "192.0.2.9"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g4, ""));
	h = ipmc_join(test, ctx, &ulp, g4, "192.0.2.9");
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, g4, "192.0.2.9"));
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g4, "192.0.2.10"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, g4, ""));
	KUNIT_EXPECT_EQ(test, ulp.nr_errors, 0);

	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src6);
	h = ipmc_join(test, ctx, &ulp, g6, "2001:db8::9");
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, g6, ""));
	h = ipmc_join(test, ctx, &ulp, g6, NULL);
	KUNIT_EXPECT_TRUE(test, ipmc_v6_accepts(test, g6, "2001:db8::10"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	h = ipmc_join(test, ctx, &ulp, g6, "2001:db8::9");
	KUNIT_EXPECT_TRUE(test, ipmc_v6_accepts(test, g6, "2001:db8::9"));
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, g6, "2001:db8::10"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_FALSE(test, ipmc_v6_accepts(test, g6, ""));
	KUNIT_EXPECT_EQ(test, ulp.nr_errors, 0);
	ipmc_live_zero(test);
}

/*
 * A source-specific join that the stack refuses part-way (its third
 * source over igmp_max_msf): the socket it took is clean again, and the
 * context's next join reuses it with no source filter left behind.
 */
static void mcm_real_socket_reused_after_msf(struct kunit *test)
{
	struct sockaddr_storage src4 = ipmc_addr(test, MCM_DUMMY_ADDR);
	struct sockaddr_storage g = ipmc_addr(test, "232.1.2.5");
	struct sockaddr_storage s[3] = {
		ipmc_addr(test, "192.0.2.21"),
		ipmc_addr(test, "192.0.2.22"),
		ipmc_addr(test, "192.0.2.23"),
	};
	struct rdma_mcm_join_req req = {
		.group = (struct sockaddr *)&g,
		.join_type = RDMA_MCM_FULLMEMBER,
		.sources = s,
		.nr_sources = ARRAY_SIZE(s),
	};
	int msf = READ_ONCE(init_net.ipv4.sysctl_igmp_max_msf);
	struct rdma_mcm_ctx *ctx;
	struct ipmc_ulp ulp;
	u32 h = 0;
	int ret;

	mcm_rxe_add(test);
	ctx = ipmc_open(test, &ulp, (struct sockaddr *)&src4);
	WRITE_ONCE(init_net.ipv4.sysctl_igmp_max_msf, 2);
	ret = rdma_mcm_join_ex(ctx, &req, &h);
	WRITE_ONCE(init_net.ipv4.sysctl_igmp_max_msf, msf);
	KUNIT_EXPECT_EQ(test, ret, -ENOBUFS);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, "232.1.2.5", ""));
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, "232.1.2.5",
						 "192.0.2.21"));
	/* the socket it took is kept, empty, and taken by the next join */
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	h = ipmc_join(test, ctx, &ulp, "232.1.2.5", NULL);
	KUNIT_EXPECT_EQ(test, rdma_mcm_live_read(RDMA_MCM_LIVE_IPSOCKS), 1);
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, "232.1.2.5",
						"192.0.2.99"));
	KUNIT_EXPECT_TRUE(test, ipmc_v4_accepts(test, "232.1.2.5",
						"192.0.2.23"));
	KUNIT_EXPECT_EQ(test, rdma_mcm_leave(ctx, h), 0);
	rdma_mcm_close(ctx);
	KUNIT_EXPECT_FALSE(test, ipmc_v4_accepts(test, "232.1.2.5", ""));
	ipmc_live_zero(test);
}

static struct kunit_case rdma_mcm_ipmc_real_cases[] = {
	KUNIT_CASE(mcm_real_v6_group_on_roce_v2),
	KUNIT_CASE(mcm_real_ssm_v4_composes),
	KUNIT_CASE(mcm_real_ssm_v6_close),
	KUNIT_CASE(mcm_real_device_removal_drops_ipmc),
	KUNIT_CASE(mcm_real_socket_reused_clean),
	KUNIT_CASE(mcm_real_socket_reused_after_msf),
	{}
};

static struct kunit_suite rdma_mcm_ipmc_real_suite = {
	.name = "rdma_mcm_ipmc_real",
	.test_cases = rdma_mcm_ipmc_real_cases,
};

kunit_test_suite(rdma_mcm_ipmc_real_suite);
