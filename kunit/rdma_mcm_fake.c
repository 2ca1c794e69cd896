// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: the fake rdma_cm/verbs backend (see rdma_mcm_fake.h);
 * its IP side is rdma_mcm_fake_ip.c.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_fake.h"

struct mcm_fake_attach {
	struct list_head node;
	struct ib_qp *qp;
	union ib_gid mgid;
};

/* The fake's device @dev, or -1 */
int mcm_fake_dev_idx(struct mcm_fake *fake, struct ib_device *dev)
{
	int i;

	for (i = 0; i < MCM_FAKE_NR_DEVS; i++)
		if (fake->ibdev[i] == dev)
			return i;
	return -1;
}

/**
 * mcm_fake_mgid() - the MGID rdma_cm gives a group
 * @ib: on InfiniBand (else RoCE)
 * @addr: the group
 * @mgid: set to the MGID
 *
 * RoCE: IPv4 as ::ffff:a.b.c.d, IPv6 as it is. InfiniBand, as
 * cma_set_mgid() with RDMA_PS_UDP and a link-local broadcast address:
 * IPv4 ff12:4001:ffff::0a.bc.de (28 bits), IPv6 ff12:6001:ffff: and the
 * address's last ten bytes, unless it is an SA-assigned MGID (ff1x:a01b).
 */
void mcm_fake_mgid(bool ib, const struct sockaddr *addr, union ib_gid *mgid)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)addr;
	const u8 *a4 = (const u8 *)&sin->sin_addr;

	memset(mgid, 0, sizeof(*mgid));
	if (addr->sa_family == AF_INET && !ib) {
		mgid->raw[10] = 0xff;
		mgid->raw[11] = 0xff;
		memcpy(&mgid->raw[12], a4, 4);
	} else if (addr->sa_family == AF_INET6 && !ib) {
		memcpy(mgid->raw, &sin6->sin6_addr, 16);
	} else if (addr->sa_family == AF_INET) {
		mgid->raw[0] = 0xff;
		mgid->raw[1] = 0x12;
		mgid->raw[2] = 0x40;
		mgid->raw[3] = 0x01;
		mgid->raw[4] = 0xff;
		mgid->raw[5] = 0xff;
		mgid->raw[12] = a4[0] & 0x0f;
		memcpy(&mgid->raw[13], &a4[1], 3);
	} else if (addr->sa_family == AF_IB) {
		memcpy(mgid->raw, &((const struct sockaddr_ib *)addr)->sib_addr,
		       sizeof(mgid->raw));
	} else if (addr->sa_family == AF_INET6) {
		if ((be32_to_cpu(sin6->sin6_addr.s6_addr32[0]) & 0xFFF0FFFF) ==
		    0xFF10A01B) {
			memcpy(mgid->raw, &sin6->sin6_addr, 16);
			return;
		}
		mgid->raw[0] = 0xff;
		mgid->raw[1] = 0x12;
		mgid->raw[2] = 0x60;
		mgid->raw[3] = 0x01;
		mgid->raw[4] = 0xff;
		mgid->raw[5] = 0xff;
		memcpy(&mgid->raw[6], &sin6->sin6_addr.s6_addr[6], 10);
	}
}

static void fake_deliver(struct mcm_fake *fake, struct mcm_fake_join *join,
			 int status)
{
	struct rdma_cm_event ev = {};
	struct rdma_ah_attr *ah = &ev.param.ud.ah_attr;
	int idx = mcm_fake_dev_idx(fake, join->fid->id.device);
	union ib_gid mgid;

	lockdep_assert_held(&fake->lock);
	if (join->fid->destroyed)
		return;
	ev.event = status ? RDMA_CM_EVENT_MULTICAST_ERROR :
			    RDMA_CM_EVENT_MULTICAST_JOIN;
	/* what cma_make_mc_event() sends when it cannot build the AH */
	ev.status = status == MCM_FAKE_NO_AH ? 0 : status;
	ev.param.ud.private_data = join->context;
	if (!status) {
		mcm_fake_mgid(idx >= 0 && fake->ib[idx],
			      (struct sockaddr *)&join->addr, &mgid);
		if (memchr_inv(join->sa_mgid.raw, 0, sizeof(join->sa_mgid)))
			mgid = join->sa_mgid;
		ah->type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_ah_flags(ah, IB_AH_GRH);
		rdma_ah_set_dgid_raw(ah, mgid.raw);
		rdma_ah_set_dlid(ah, MCM_FAKE_MLID);
		rdma_ah_set_port_num(ah, 1);
		ev.param.ud.qkey = MCM_FAKE_QKEY;
	}
	join->events++;
	join->fid->id.event_handler(&join->fid->id, &ev);
}

static void fake_device_removal_event(struct mcm_fake *fake,
				      struct mcm_fake_id *fid)
{
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_DEVICE_REMOVAL };

	lockdep_assert_held(&fake->lock);
	if (!fid->destroyed)
		fid->id.event_handler(&fid->id, &ev);
}

/* Is @dev one of the fake's InfiniBand devices? */
bool mcm_fake_is_ib(struct mcm_fake *fake, struct ib_device *dev)
{
	int idx = mcm_fake_dev_idx(fake, dev);

	return idx >= 0 && fake->ib[idx];
}

/* join_hash's key: the id and the group's address */
static u32 fake_join_key(struct mcm_fake_id *fid, const struct sockaddr *addr)
{
	return jhash(addr, rdma_addr_size(addr), hash_ptr(fid, 32));
}

static struct mcm_fake_join *fake_first_live_join(struct mcm_fake *fake,
						  struct mcm_fake_id *fid)
{
	struct mcm_fake_join *join;

	list_for_each_entry(join, &fake->joins, node)
		if (join->fid == fid && !join->leaves)
			return join;
	return NULL;
}

static int fake_remover_fn(void *arg)
{
	struct mcm_fake *fake = arg;

	mcm_fake_remove_device(fake, fake->remove_idx);
	complete(&fake->removed);
	return 0;
}

/* The fake's injection at @at, if armed: @fid is the call's id (or NULL). */
void mcm_fake_inject(struct mcm_fake *fake, enum mcm_fake_at at,
		     struct mcm_fake_id *fid, struct mcm_fake_join *join)
{
	struct mcm_fake_inject *inj = &fake->inject;

	lockdep_assert_held(&fake->lock);
	if (inj->at != at || inj->fired)
		return;
	if (inj->skip) {
		inj->skip--;
		return;
	}
	inj->fired++;
	if (!join && fid)
		join = fake_first_live_join(fake, fid);
	switch (inj->what) {
	case MCM_FAKE_DO_DEVICE_REMOVAL:
		if (fid)
			fake_device_removal_event(fake, fid);
		break;
	case MCM_FAKE_DO_MC_ERROR:
		if (join)
			fake_deliver(fake, join, inj->status ?: -ENETRESET);
		break;
	case MCM_FAKE_DO_MC_JOIN:
		if (join)
			fake_deliver(fake, join, 0);
		break;
	case MCM_FAKE_DO_REMOVE_DEVICE:
		/* it waits for this lock, as ib_core's removal runs beside us */
		mcm_fake_remove_device_async(fake, fid ?
					     mcm_fake_dev_idx(fake, fid->id.device) :
					     fake->bind_dev);
		break;
	case MCM_FAKE_DO_GID_CHANGE:
		/* as rdma_mcm's event handler hears it, beside the call */
		rdma_mcm_dev_changed(fid ? fid->id.device :
				     fake->ibdev[fake->bind_dev], 1,
				     RDMA_MCM_DEV_GID_CHANGED);
		break;
	case MCM_FAKE_DO_PAUSE:
		mutex_unlock(&fake->lock);
		complete(&fake->paused);
		wait_for_completion(&fake->resume);
		mutex_lock(&fake->lock);
		break;
	default:
		break;
	}
}

static struct rdma_cm_id *fake_create_id(const struct rdma_mcm_backend *be,
					 struct net *net,
					 rdma_cm_event_handler handler,
					 void *context)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_id *fid;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->creates++;
	if (fake->create_ret) {
		mutex_unlock(&fake->lock);
		return ERR_PTR(fake->create_ret);
	}
	fid = kunit_kzalloc(fake->test, sizeof(*fid), GFP_KERNEL);
	if (!fid) {
		mutex_unlock(&fake->lock);
		return ERR_PTR(-ENOMEM);
	}
	fid->id.event_handler = handler;
	fid->id.context = context;
	fid->id.ps = RDMA_PS_UDP;
	fid->id.qp_type = IB_QPT_UD;
	list_add_tail(&fid->node, &fake->ids);
	fake->live_ids++;
	mutex_unlock(&fake->lock);
	return &fid->id;
}

static u16 fake_port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return 0;
}

/* rdma_cm's UDP port space: one live id per address and non-zero port. */
static bool fake_port_taken(struct mcm_fake *fake, struct sockaddr *addr)
{
	size_t len = rdma_addr_size(addr);
	struct mcm_fake_id *fid;

	list_for_each_entry(fid, &fake->ids, node)
		if (!fid->destroyed && fid->bound.ss_family &&
		    !memcmp(&fid->bound, addr, len))
			return true;
	return false;
}

/* rdma_cm's source address of a bound id: the address, an ephemeral port */
static void fake_set_src(struct mcm_fake *fake, struct rdma_cm_id *id,
			 const struct sockaddr *addr)
{
	struct sockaddr *src = (struct sockaddr *)&id->route.addr.src_addr;

	memcpy(src, addr, rdma_addr_size(addr));
	if (src->sa_family == AF_INET)
		((struct sockaddr_in *)src)->sin_port = htons(40000 + fake->binds);
	else if (src->sa_family == AF_INET6)
		((struct sockaddr_in6 *)src)->sin6_port =
			htons(40000 + fake->binds);
}

/*
 * The id lands where binds land: the device, port and netdev (the
 * device's own, or bind_ifindex: an upper of it, a VLAN say), with the
 * source GID entry of bind_gid_index.
 */
static void fake_land(struct mcm_fake *fake, struct rdma_cm_id *id)
{
	struct ib_gid_attr *gid = &to_fid(id)->gid;

	id->device = fake->ibdev[fake->bind_dev];
	id->port_num = fake->bind_port;
	id->route.addr.dev_addr.bound_dev_if = fake->bind_ifindex ?:
		MCM_FAKE_IFINDEX0 + fake->bind_dev;
	gid->device = id->device;
	gid->port_num = id->port_num;
	gid->index = fake->bind_gid_index;
	id->route.addr.dev_addr.sgid_attr = gid;
}

static int fake_bind_addr(const struct rdma_mcm_backend *be,
			  struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_id *fid = to_fid(id);
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->binds++;
	ret = fake->bind_ret;
	if (!ret && fake->gone[fake->bind_dev])
		ret = -ENODEV;	/* the netdev has no RDMA device any more */
	if (!ret && fake_port_of((struct sockaddr_storage *)addr)) {
		fake->nonzero_port_binds++;
		if (fake_port_taken(fake, addr))
			ret = -EADDRINUSE;
	}
	/*
	 * rdma_bind_addr() acquires the device before the port, which can
	 * still fail: rdma_cm may deliver events to the id from that point.
	 */
	if (!fake->no_device && !fake->gone[fake->bind_dev])
		fake_land(fake, id);
	mcm_fake_inject(fake, MCM_FAKE_AT_BIND, fid, NULL);
	if (ret) {
		id->device = NULL;	/* released again on failure */
	} else {
		memcpy(&fid->bound, addr, rdma_addr_size(addr));
		fake_set_src(fake, id, addr);
	}
	mutex_unlock(&fake->lock);
	return ret;
}

/*
 * The lock as a call that a running event handler can hold up takes it,
 * counted while it waits (mcm_fake_wait_lock_waiters()).
 */
void mcm_fake_lock_waiting(struct mcm_fake *fake)
{
	atomic_inc(&fake->lock_waiters);
	mutex_lock(&fake->lock);
	atomic_dec(&fake->lock_waiters);
}

static void fake_destroy_id(const struct rdma_mcm_backend *be,
			    struct rdma_cm_id *id)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_id *fid = to_fid(id);
	struct mcm_fake_join *join;

	mcm_fake_lock_waiting(fake);
	fake->seq++;
	fake->destroys++;
	KUNIT_EXPECT_FALSE(fake->test, fid->destroyed);
	mcm_fake_inject(fake, MCM_FAKE_AT_DESTROY, fid, NULL);
	fid->destroyed = true;
	fake->live_ids--;
	/* rdma_destroy_id() leaves every group still joined on the id */
	list_for_each_entry(join, &fake->joins, node) {
		if (join->fid != fid || join->leaves)
			continue;
		join->leaves++;
		if (join->igmp)
			mcm_fake_cm_igmp(fake, join, true);
	}
	mutex_unlock(&fake->lock);
	wake_up_all(&fake->wq);
}

/* cma_any_addr() of a group: IPv6 ::, an AF_IB MGID of zeros */
static bool fake_addr_zero(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET6)
		return ipv6_addr_any(&((const struct sockaddr_in6 *)addr)->sin6_addr);
	if (addr->sa_family == AF_IB)
		return ib_addr_any(&((const struct sockaddr_ib *)addr)->sib_addr);
	return false;
}

static int fake_join(const struct rdma_mcm_backend *be, struct rdma_cm_id *id,
		     struct sockaddr *addr, u8 join_state, void *context)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_join *join;
	int ret = 0;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->joins_called++;
	KUNIT_EXPECT_FALSE(fake->test, to_fid(id)->destroyed);
	if (fake->join_ret) {
		/* rdma_cm fails a join that raced its device's removal */
		mcm_fake_inject(fake, MCM_FAKE_AT_JOIN, to_fid(id), NULL);
		ret = fake->join_ret;
		goto out;
	}
	/* cma_iboe_join_multicast(): no IPv6 group on a RoCE v2 port */
	if (addr->sa_family == AF_INET6 && !mcm_fake_is_ib(fake, id->device) &&
	    !fake->roce_v1[mcm_fake_dev_idx(fake, id->device)]) {
		fake->joins_v6_refused++;
		ret = -ENOTSUPP;
		goto out;
	}
	join = kunit_kzalloc(fake->test, sizeof(*join), GFP_KERNEL);
	if (!join) {
		ret = -ENOMEM;
		goto out;
	}
	if (fake->nr_join_times < fake->max_join_times)
		fake->join_times[fake->nr_join_times++] = fake->clock_ms;
	join->fid = to_fid(id);
	memcpy(&join->addr, addr, rdma_addr_size(addr));
	join->join_state = join_state;
	join->context = context;
	/* ib_sa with an MGID of zeros: the SA makes a group, as opensm */
	if (mcm_fake_is_ib(fake, id->device) && fake_addr_zero(addr)) {
		join->sa_mgid.raw[0] = 0xff;
		join->sa_mgid.raw[1] = 0x12;
		join->sa_mgid.raw[2] = 0xa0;
		join->sa_mgid.raw[3] = 0x1b;
		join->sa_mgid.raw[4] = 0xff;
		join->sa_mgid.raw[5] = 0xff;
		fake->sa_assigned++;
		join->sa_mgid.raw[14] = fake->sa_assigned >> 8;
		join->sa_mgid.raw[15] = fake->sa_assigned;
	}
	list_add_tail(&join->node, &fake->joins);
	hash_add(fake->join_hash, &join->hnode,
		 fake_join_key(join->fid, addr));
	/* cma_iboe_join_multicast(): IGMP for a full IPv4 member, RoCE v2 */
	if (addr->sa_family == AF_INET && !mcm_fake_is_ib(fake, id->device) &&
	    !fake->roce_v1[mcm_fake_dev_idx(fake, id->device)] &&
	    join_state == BIT(FULLMEMBER_JOIN)) {
		mcm_fake_cm_igmp(fake, join, false);
		join->igmp = true;
	}
	if (fake->auto_complete)
		fake_deliver(fake, join, 0);
	mcm_fake_inject(fake, MCM_FAKE_AT_JOIN, join->fid, join);
out:
	mutex_unlock(&fake->lock);
	return ret;
}

static struct mcm_fake_join *fake_find_live(struct mcm_fake *fake,
					    struct rdma_cm_id *id,
					    const struct sockaddr *addr)
{
	struct mcm_fake_join *join;

	hash_for_each_possible(fake->join_hash, join, hnode,
			       fake_join_key(to_fid(id), addr))
		if (join->fid == to_fid(id) && !join->leaves &&
		    !memcmp(&join->addr, addr, rdma_addr_size(addr)))
			return join;
	return NULL;
}

static void fake_leave(const struct rdma_mcm_backend *be,
		       struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_join *join;

	mcm_fake_lock_waiting(fake);
	fake->seq++;
	fake->leaves++;
	KUNIT_EXPECT_FALSE(fake->test, to_fid(id)->destroyed);
	join = fake_find_live(fake, id, addr);
	KUNIT_EXPECT_NOT_NULL_MSG(fake->test, join,
				  "rdma_leave_multicast() of a group not joined");
	if (join)
		mcm_fake_inject(fake, MCM_FAKE_AT_LEAVE, join->fid, join);
	if (join) {
		join->leaves++;
		join->leave_seq = fake->seq;
		if (join->igmp)
			mcm_fake_cm_igmp(fake, join, true);
	}
	mutex_unlock(&fake->lock);
}

static struct mcm_fake_attach *fake_find_attach(struct mcm_fake *fake,
						struct ib_qp *qp,
						const union ib_gid *gid)
{
	struct mcm_fake_attach *a;

	list_for_each_entry(a, &fake->attachments, node)
		if (a->qp == qp && !memcmp(&a->mgid, gid, sizeof(*gid)))
			return a;
	return NULL;
}

static int fake_attach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		       union ib_gid *gid, u16 lid)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_attach *a;
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->attaches++;
	ret = fake->attach_ret;
	KUNIT_EXPECT_EQ(fake->test, lid, mcm_fake_mlid_of(fake, gid));
	if (!ret && fake_find_attach(fake, qp, gid)) {
		KUNIT_FAIL(fake->test, "QP attached twice to MGID %pI6", gid->raw);
		ret = -EINVAL;
	}
	if (!ret) {
		a = kunit_kzalloc(fake->test, sizeof(*a), GFP_KERNEL);
		if (a) {
			a->qp = qp;
			a->mgid = *gid;
			list_add(&a->node, &fake->attachments);
			fake->attached++;
		} else {
			ret = -ENOMEM;
		}
	}
	mutex_unlock(&fake->lock);
	return ret;
}

static int fake_detach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		       union ib_gid *gid, u16 lid)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_attach *a;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->detaches++;
	a = fake_find_attach(fake, qp, gid);
	if (a) {
		list_del(&a->node);
		fake->attached--;
	} else {
		KUNIT_FAIL(fake->test, "detach of a QP not attached to MGID %pI6",
			   gid->raw);
	}
	fake->last_detach_seq = fake->seq;
	mutex_unlock(&fake->lock);
	return 0;
}

/* rdma_resolve_addr() of a route context: lands where binds land. */
static int fake_resolve_addr(const struct rdma_mcm_backend *be,
			     struct rdma_cm_id *id, struct sockaddr *dst,
			     unsigned long timeout_ms)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_id *fid = to_fid(id);
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_ADDR_RESOLVED };
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->binds++;
	ret = fake->resolve_ret;
	if (ret)
		goto out;
	if (fake->resolve_status || fake->gone[fake->bind_dev]) {
		ev.event = RDMA_CM_EVENT_ADDR_ERROR;
		ev.status = fake->resolve_status ?: -ENODEV;
	} else {
		fake_land(fake, id);
		memcpy(&fid->bound, dst, rdma_addr_size(dst));
		fake_set_src(fake, id, (struct sockaddr *)&fake->route_src);
	}
	/* rdma_cm answers from its work; here, from inside the call */
	id->event_handler(id, &ev);
out:
	mutex_unlock(&fake->lock);
	return ret;
}

static u64 fake_now_ms(const struct rdma_mcm_backend *be)
{
	return READ_ONCE(to_fake(be)->clock_ms);
}

static u32 fake_random(const struct rdma_mcm_backend *be, u32 range)
{
	return min(READ_ONCE(to_fake(be)->jitter), range - 1);
}

/* Called under spinlocks: only records. */
static void fake_arm(const struct rdma_mcm_backend *be,
		     struct rdma_mcm_ctx *ctx, unsigned long delay_ms)
{
	struct mcm_fake *fake = container_of(be, struct mcm_fake, be);

	unsigned long flags;
	int i;

	WRITE_ONCE(fake->armed_delay_ms, delay_ms);
	WRITE_ONCE(fake->armed, READ_ONCE(fake->armed) + 1);
	/* when each context's work would run, as mod_delayed_work() does */
	spin_lock_irqsave(&fake->arm_lock, flags);
	for (i = 0; i < MCM_FAKE_ARMS; i++) {
		if (fake->arms[i].ctx != ctx && fake->arms[i].ctx)
			continue;
		fake->arms[i].ctx = ctx;
		fake->arms[i].due_ms = READ_ONCE(fake->clock_ms) + delay_ms;
		break;
	}
	fake->arms_full |= i == MCM_FAKE_ARMS;
	spin_unlock_irqrestore(&fake->arm_lock, flags);
	if (READ_ONCE(fake->real_arm))
		mod_delayed_work(rdma_mcm_wq, &ctx->rejoin_work, 3600 * HZ);
}

/**
 * mcm_fake_armed_for() - when a context's rejoin work was last armed to run
 * @fake: the fake
 * @ctx: the context
 *
 * Return: the time on the fake's clock, or 0 if it never was.
 */
u64 mcm_fake_armed_for(struct mcm_fake *fake, struct rdma_mcm_ctx *ctx)
{
	unsigned long flags;
	u64 due = 0;
	int i;

	spin_lock_irqsave(&fake->arm_lock, flags);
	for (i = 0; i < MCM_FAKE_ARMS; i++)
		if (fake->arms[i].ctx == ctx)
			due = fake->arms[i].due_ms;
	spin_unlock_irqrestore(&fake->arm_lock, flags);
	KUNIT_EXPECT_FALSE_MSG(fake->test, fake->arms_full,
			       "more contexts armed than the fake keeps (%d)",
			       MCM_FAKE_ARMS);
	return due;
}

/**
 * mcm_fake_clear_armed() - forget a context's arming (its work ran)
 * @fake: the fake
 * @ctx: the context
 */
void mcm_fake_clear_armed(struct mcm_fake *fake, struct rdma_mcm_ctx *ctx)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&fake->arm_lock, flags);
	for (i = 0; i < MCM_FAKE_ARMS; i++)
		if (fake->arms[i].ctx == ctx)
			fake->arms[i].due_ms = 0;
	spin_unlock_irqrestore(&fake->arm_lock, flags);
}

/**
 * mcm_fake_attached_to() - groups a QP is attached to
 * @fake: the fake
 * @qp: the QP
 *
 * Return: their number.
 */
int mcm_fake_attached_to(struct mcm_fake *fake, struct ib_qp *qp)
{
	struct mcm_fake_attach *a;
	int n = 0;

	mutex_lock(&fake->lock);
	list_for_each_entry(a, &fake->attachments, node)
		n += a->qp == qp;
	mutex_unlock(&fake->lock);
	return n;
}

/**
 * mcm_fake_record_joins() - record the clock of the next joins
 * @fake: the fake
 * @max: how many at most
 */
void mcm_fake_record_joins(struct mcm_fake *fake, unsigned int max)
{
	fake->join_times = kunit_kcalloc(fake->test, max,
					 sizeof(*fake->join_times), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(fake->test, fake->join_times);
	fake->max_join_times = max;
	fake->nr_join_times = 0;
}

/**
 * mcm_fake_set_ib() - make a fake device's ports InfiniBand or RoCE
 * @fake: the fake
 * @idx: the device
 * @ib: InfiniBand (else RoCE v2)
 */
void mcm_fake_set_ib(struct mcm_fake *fake, int idx, bool ib)
{
	struct ib_device *dev = fake->ibdev[idx];
	u32 port;

	fake->ib[idx] = ib;
	for (port = 1; port <= dev->phys_port_cnt; port++)
		dev->port_data[port].immutable.core_cap_flags = ib ?
			RDMA_CORE_PORT_IBA_IB : RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
}

static struct ib_device *fake_ibdev(struct kunit *test, int idx)
{
	static const char * const names[] = { "mcm_fake0", "mcm_fake1" };
	struct ib_device *dev;

	dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	dev->phys_port_cnt = 2;
	dev->port_data = kunit_kcalloc(test, 3, sizeof(*dev->port_data),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev->port_data);
	dev->dev.init_name = names[idx];
	dev->node_guid = cpu_to_be64(0x0002c90300a0b0c0ULL + idx);
	/* rxe's multicast limits (rxe_param.h); a test may lower them */
	dev->attrs.max_mcast_grp = 8192;
	dev->attrs.max_mcast_qp_attach = 56;
	dev->attrs.max_total_mcast_qp_attach = 0x70000;
	return dev;
}

/**
 * mcm_fake_create() - a fake backend that lives as long as the test
 * @test: the test
 *
 * Two RoCE devices with two ports each, known to rdma_mcm's device list
 * as its ib_client would make them; binds land on device 0, port 1.
 *
 * Return: the fake; the test fails if it cannot be allocated.
 */
struct mcm_fake *mcm_fake_create(struct kunit *test)
{
	struct sockaddr_in *route_src;
	struct mcm_fake *fake;
	int i;

	fake = kunit_kzalloc(test, sizeof(*fake), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fake);
	fake->test = test;
	mutex_init(&fake->lock);
	INIT_LIST_HEAD(&fake->ids);
	INIT_LIST_HEAD(&fake->joins);
	hash_init(fake->join_hash);
	INIT_LIST_HEAD(&fake->attachments);
	init_waitqueue_head(&fake->wq);
	init_completion(&fake->paused);
	init_completion(&fake->resume);
	init_completion(&fake->removed);
	spin_lock_init(&fake->arm_lock);
	fake->bind_port = 1;
	route_src = (struct sockaddr_in *)&fake->route_src;
	route_src->sin_family = AF_INET;
	route_src->sin_addr.s_addr = htonl(MCM_FAKE_ROUTE_SRC);
	for (i = 0; i < MCM_FAKE_NR_DEVS; i++) {
		fake->ibdev[i] = fake_ibdev(test, i);
		mcm_fake_set_ib(fake, i, false);
		KUNIT_ASSERT_EQ(test, rdma_mcm_dev_add(fake->ibdev[i]), 0);
	}
	fake->be.create_id = fake_create_id;
	fake->be.bind_addr = fake_bind_addr;
	fake->be.destroy_id = fake_destroy_id;
	fake->be.join = fake_join;
	fake->be.leave = fake_leave;
	fake->be.attach = fake_attach;
	fake->be.detach = fake_detach;
	fake->be.resolve_addr = fake_resolve_addr;
	mcm_fake_ip_init(fake);
	fake->be.now_ms = fake_now_ms;
	fake->be.random = fake_random;
	fake->be.arm = fake_arm;
	fake->clock_ms = 1000000;
	return fake;
}

/**
 * mcm_fake_destroy() - take the fake's devices out of rdma_mcm's list
 * @fake: the fake; every context on it is closed
 */
void mcm_fake_destroy(struct mcm_fake *fake)
{
	int i;

	mcm_fake_remove_wait(fake);
	for (i = 0; i < MCM_FAKE_NR_DEVS; i++)
		if (!fake->gone[i])
			rdma_mcm_dev_remove(fake->ibdev[i]);
	KUNIT_EXPECT_EQ_MSG(fake->test, fake->attached, 0,
			    "QPs left attached");
	KUNIT_EXPECT_EQ_MSG(fake->test, fake->ip_live, 0,
			    "IGMP/MLD memberships or source filters left");
	KUNIT_EXPECT_EQ_MSG(fake->test, fake->ip_socks, 0,
			    "IGMP/MLD sockets left open");
}

/**
 * mcm_fake_find_join() - the most recent join of a group
 * @fake: the fake
 * @addr: the group
 *
 * Return: the join record, or NULL if the group was never joined.
 */
struct mcm_fake_join *mcm_fake_find_join(struct mcm_fake *fake,
					 const struct sockaddr *addr)
{
	struct mcm_fake_join *join, *found = NULL;

	mutex_lock(&fake->lock);
	list_for_each_entry(join, &fake->joins, node)
		if (!memcmp(&join->addr, addr, rdma_addr_size(addr)))
			found = join;
	mutex_unlock(&fake->lock);
	return found;
}

/**
 * mcm_fake_count_joins() - joins recorded so far
 * @fake: the fake
 *
 * Return: the number of successful rdma_join_multicast() calls.
 */
int mcm_fake_count_joins(struct mcm_fake *fake)
{
	struct mcm_fake_join *join;
	int n = 0;

	mutex_lock(&fake->lock);
	list_for_each_entry(join, &fake->joins, node)
		n++;
	mutex_unlock(&fake->lock);
	return n;
}

/**
 * mcm_fake_complete() - deliver a join's event
 * @fake: the fake
 * @join: the join
 * @status: 0 for MULTICAST_JOIN, an error for MULTICAST_ERROR (MCM_FAKE_NO_AH:
 *	one with status 0)
 * @even_if_left: deliver even though the group was left: a late event
 *	that a buggy lower layer might send; rdma_cm itself never does
 *
 * Return: true if delivered (never to a destroyed id).
 */
bool mcm_fake_complete(struct mcm_fake *fake, struct mcm_fake_join *join,
		       int status, bool even_if_left)
{
	bool sent = false;

	mutex_lock(&fake->lock);
	if (!join->fid->destroyed && (even_if_left || !join->leaves)) {
		fake_deliver(fake, join, status);
		sent = true;
	}
	mutex_unlock(&fake->lock);
	return sent;
}

/**
 * mcm_fake_complete_all() - complete every join not yet answered
 * @fake: the fake
 *
 * Return: the number of join events delivered.
 */
int mcm_fake_complete_all(struct mcm_fake *fake)
{
	struct mcm_fake_join *join;
	int n = 0;

	mutex_lock(&fake->lock);
	list_for_each_entry(join, &fake->joins, node) {
		if (join->fid->destroyed || join->leaves || join->events)
			continue;
		fake_deliver(fake, join, 0);
		n++;
	}
	mutex_unlock(&fake->lock);
	return n;
}

/**
 * mcm_fake_live_ids_on() - ids not yet destroyed on a device
 * @fake: the fake
 * @idx: the device
 *
 * Return: their number.
 */
int mcm_fake_live_ids_on(struct mcm_fake *fake, int idx)
{
	struct mcm_fake_id *fid;
	int n = 0;

	mutex_lock(&fake->lock);
	list_for_each_entry(fid, &fake->ids, node)
		n += !fid->destroyed && fid->id.device == fake->ibdev[idx];
	mutex_unlock(&fake->lock);
	return n;
}

/**
 * mcm_fake_remove_device() - unregister a fake device as ib_core does
 * @fake: the fake
 * @idx: the device
 *
 * rdma_mcm's ib_client is removed first (it registered after rdma_cm),
 * then rdma_cm sends DEVICE_REMOVAL to every id still on the device and
 * waits until each is destroyed. Binds to the device fail from then on.
 */
void mcm_fake_remove_device(struct mcm_fake *fake, int idx)
{
	struct ib_device *dev = fake->ibdev[idx];
	struct mcm_fake_id *fid;
	long left;

	rdma_mcm_dev_remove(dev);
	mutex_lock(&fake->lock);
	fake->gone[idx] = true;
	list_for_each_entry(fid, &fake->ids, node)
		if (fid->id.device == dev)
			fake_device_removal_event(fake, fid);
	mutex_unlock(&fake->lock);
	left = wait_event_timeout(fake->wq, !mcm_fake_live_ids_on(fake, idx),
				  60 * HZ);
	KUNIT_EXPECT_GT_MSG(fake->test, left, 0L,
			    "rdma_cm ids still on the removed device after 60 s");
}

/**
 * mcm_fake_remove_device_async() - start a device removal in a thread
 * @fake: the fake
 * @idx: the device
 *
 * mcm_fake_remove_wait() waits for it.
 */
void mcm_fake_remove_device_async(struct mcm_fake *fake, int idx)
{
	if (fake->remover || idx < 0) {
		KUNIT_FAIL(fake->test, "a device removal is running already");
		return;
	}
	reinit_completion(&fake->removed);
	fake->remove_idx = idx;
	fake->remover = kthread_run(fake_remover_fn, fake, "mcm_fake_rm");
	if (IS_ERR(fake->remover)) {
		KUNIT_FAIL(fake->test, "no thread for the device removal");
		fake->remover = NULL;
	}
}

/**
 * mcm_fake_remove_wait() - wait for a device removal started in a thread
 * @fake: the fake
 */
void mcm_fake_remove_wait(struct mcm_fake *fake)
{
	if (!fake->remover)
		return;
	wait_for_completion(&fake->removed);
	fake->remover = NULL;
}

/**
 * mcm_fake_add_device() - register a removed fake device again
 * @fake: the fake
 * @idx: the device
 */
void mcm_fake_add_device(struct mcm_fake *fake, int idx)
{
	mutex_lock(&fake->lock);
	fake->gone[idx] = false;
	mutex_unlock(&fake->lock);
	KUNIT_EXPECT_EQ(fake->test, rdma_mcm_dev_add(fake->ibdev[idx]), 0);
}

/**
 * mcm_fake_resume() - let a call paused by MCM_FAKE_DO_PAUSE go on
 * @fake: the fake
 */
void mcm_fake_resume(struct mcm_fake *fake)
{
	complete(&fake->resume);
}

/**
 * mcm_fake_wait_lock_waiters() - wait until calls wait for the handler lock
 * @fake: the fake
 * @n: how many calls that leave (rdma_leave_multicast(), rdma_destroy_id(),
 *	an IGMP/MLD leave or a socket's close)
 *
 * For a test that holds an event handler in flight (inside a callback of
 * rdma_mcm's) and wants another thread's call to be blocked behind it, as
 * rdma_cm's are behind a running handler. A state, not a time: the bound
 * only keeps a broken build from hanging.
 *
 * Return: true once @n calls wait; false (the test fails) after 10 to 20 s.
 */
bool mcm_fake_wait_lock_waiters(struct mcm_fake *fake, int n)
{
	int i;

	for (i = 0; i < 20000 && atomic_read(&fake->lock_waiters) < n; i++)
		usleep_range(500, 1000);
	KUNIT_EXPECT_GE_MSG(fake->test, atomic_read(&fake->lock_waiters), n,
			    "no call came to wait behind the handler");
	return atomic_read(&fake->lock_waiters) >= n;
}
