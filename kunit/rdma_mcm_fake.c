// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma_mcm KUnit: the fake rdma_cm/verbs backend (see rdma_mcm_fake.h).
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "rdma_mcm_fake.h"

static struct mcm_fake *to_fake(const struct rdma_mcm_backend *be)
{
	return container_of(be, struct mcm_fake, be);
}

static struct mcm_fake_id *to_fid(struct rdma_cm_id *id)
{
	return container_of(id, struct mcm_fake_id, id);
}

/* IPv4 groups map to ::ffff:a.b.c.d as on RoCE; others use their bytes. */
void mcm_fake_mgid(const struct sockaddr *addr, union ib_gid *mgid)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)addr;

	memset(mgid, 0, sizeof(*mgid));
	if (addr->sa_family == AF_INET) {
		mgid->raw[10] = 0xff;
		mgid->raw[11] = 0xff;
		memcpy(&mgid->raw[12], &sin->sin_addr, 4);
	} else if (addr->sa_family == AF_INET6) {
		memcpy(mgid->raw, &((const struct sockaddr_in6 *)addr)->sin6_addr,
		       16);
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

static int fake_bind_addr(const struct rdma_mcm_backend *be,
			  struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct mcm_fake *fake = to_fake(be);
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->binds++;
	ret = fake->bind_ret;
	if (!ret && !fake->no_device)
		id->device = fake->ibdev;
	mutex_unlock(&fake->lock);
	return ret;
}

static void fake_destroy_id(const struct rdma_mcm_backend *be,
			    struct rdma_cm_id *id)
{
	struct mcm_fake *fake = to_fake(be);
	struct mcm_fake_id *fid = to_fid(id);
	struct mcm_fake_join *join;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->destroys++;
	KUNIT_EXPECT_FALSE(fake->test, fid->destroyed);
	fid->destroyed = true;
	fake->live_ids--;
	/* rdma_destroy_id() leaves every group still joined on the id */
	list_for_each_entry(join, &fake->joins, node)
		if (join->fid == fid && !join->leaves)
			join->leaves++;
	mutex_unlock(&fake->lock);
}

static void fake_deliver(struct mcm_fake *fake, struct mcm_fake_join *join,
			 int status)
{
	struct rdma_cm_event ev = {};
	struct rdma_ah_attr *ah = &ev.param.ud.ah_attr;
	union ib_gid mgid;

	lockdep_assert_held(&fake->lock);
	ev.event = status ? RDMA_CM_EVENT_MULTICAST_ERROR :
			    RDMA_CM_EVENT_MULTICAST_JOIN;
	ev.status = status;
	ev.param.ud.private_data = join->context;
	if (!status) {
		mcm_fake_mgid((struct sockaddr *)&join->addr, &mgid);
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
		ret = fake->join_ret;
		goto out;
	}
	join = kunit_kzalloc(fake->test, sizeof(*join), GFP_KERNEL);
	if (!join) {
		ret = -ENOMEM;
		goto out;
	}
	join->fid = to_fid(id);
	memcpy(&join->addr, addr, rdma_addr_size(addr));
	join->join_state = join_state;
	join->context = context;
	list_add_tail(&join->node, &fake->joins);
	if (fake->auto_complete)
		fake_deliver(fake, join, 0);
out:
	mutex_unlock(&fake->lock);
	return ret;
}

static struct mcm_fake_join *fake_find_live(struct mcm_fake *fake,
					    struct rdma_cm_id *id,
					    const struct sockaddr *addr)
{
	struct mcm_fake_join *join;

	list_for_each_entry(join, &fake->joins, node)
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

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->leaves++;
	KUNIT_EXPECT_FALSE(fake->test, to_fid(id)->destroyed);
	join = fake_find_live(fake, id, addr);
	KUNIT_EXPECT_NOT_NULL_MSG(fake->test, join,
				  "rdma_leave_multicast() of a group not joined");
	if (join) {
		join->leaves++;
		join->leave_seq = fake->seq;
	}
	mutex_unlock(&fake->lock);
}

static int fake_attach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		       union ib_gid *gid, u16 lid)
{
	struct mcm_fake *fake = to_fake(be);
	int ret;

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->attaches++;
	ret = fake->attach_ret;
	if (!ret)
		fake->attached++;
	KUNIT_EXPECT_EQ(fake->test, lid, MCM_FAKE_MLID);
	mutex_unlock(&fake->lock);
	return ret;
}

static int fake_detach(const struct rdma_mcm_backend *be, struct ib_qp *qp,
		       union ib_gid *gid, u16 lid)
{
	struct mcm_fake *fake = to_fake(be);

	mutex_lock(&fake->lock);
	fake->seq++;
	fake->detaches++;
	fake->attached--;
	fake->last_detach_seq = fake->seq;
	KUNIT_EXPECT_GE(fake->test, fake->attached, 0);
	mutex_unlock(&fake->lock);
	return 0;
}

/**
 * mcm_fake_create() - a fake backend that lives as long as the test
 * @test: the test
 *
 * Return: the fake; the test fails if it cannot be allocated.
 */
struct mcm_fake *mcm_fake_create(struct kunit *test)
{
	struct mcm_fake *fake;

	fake = kunit_kzalloc(test, sizeof(*fake), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fake);
	fake->ibdev = kunit_kzalloc(test, sizeof(*fake->ibdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fake->ibdev);
	fake->test = test;
	mutex_init(&fake->lock);
	INIT_LIST_HEAD(&fake->ids);
	INIT_LIST_HEAD(&fake->joins);
	fake->be.create_id = fake_create_id;
	fake->be.bind_addr = fake_bind_addr;
	fake->be.destroy_id = fake_destroy_id;
	fake->be.join = fake_join;
	fake->be.leave = fake_leave;
	fake->be.attach = fake_attach;
	fake->be.detach = fake_detach;
	return fake;
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
 * @status: 0 for MULTICAST_JOIN, an error for MULTICAST_ERROR
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
 * mcm_fake_remove_device() - send DEVICE_REMOVAL to every live id
 * @fake: the fake
 */
void mcm_fake_remove_device(struct mcm_fake *fake)
{
	struct rdma_cm_event ev = { .event = RDMA_CM_EVENT_DEVICE_REMOVAL };
	struct mcm_fake_id *fid;

	mutex_lock(&fake->lock);
	list_for_each_entry(fid, &fake->ids, node)
		if (!fid->destroyed)
			fid->id.event_handler(&fid->id, &ev);
	mutex_unlock(&fake->lock);
}
