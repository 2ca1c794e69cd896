// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: rdma_mcm against the real rdma_cm and ib_core of the UML kernel.
 *
 * These cases pin down the behaviour of the layers below rdma_mcm that the
 * manager relies on, and check that rdma_mcm's ib_client sees devices come
 * and go. They need the kernel arguments that scripts/kunit-run passes:
 * ip=192.0.2.1::::kt:dummy0:off puts 192.0.2.1 on dummy0, a netdev with no
 * RDMA device until a case adds Soft-RoCE on it.
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "../drivers/rdma_mcm_internal.h"
#include "rdma_mcm_test_rxe.h"

#define TEST_DUMMY_IFNAME	"dummy0"
#define TEST_DUMMY_ADDR		"192.0.2.1"	/* set by ip= on dummy0 */
#define TEST_UNOWNED_ADDR	"198.51.100.1"	/* on no netdev */
#define TEST_GROUP		"239.1.2.3"
#define TEST_RXE_NAME		"rxe_kt0"

static int test_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	return 0;
}

static struct rdma_cm_id *test_create_ud_id(struct kunit *test)
{
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, test_cm_handler, test, RDMA_PS_UDP,
			    IB_QPT_UD);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	return id;
}

static void test_sockaddr_in(struct kunit *test, struct sockaddr_in *sin,
			     const char *addr)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	KUNIT_ASSERT_EQ(test, in4_pton(addr, -1, (u8 *)&sin->sin_addr, -1,
				       NULL), 1);
}

/* A UD id in the UDP port space is what the manager will join on. */
static void rdma_cm_ud_id_create_destroy(struct kunit *test)
{
	struct rdma_cm_id *id = test_create_ud_id(test);

	KUNIT_EXPECT_EQ(test, id->ps, RDMA_PS_UDP);
	KUNIT_EXPECT_EQ(test, id->qp_type, IB_QPT_UD);
	KUNIT_EXPECT_NULL(test, id->device);
	rdma_destroy_id(id);
}

/* rdma_cm refuses a join before the id is bound to a device: -EINVAL. */
static void rdma_cm_join_unbound_id_is_einval(struct kunit *test)
{
	struct rdma_cm_id *id = test_create_ud_id(test);
	struct sockaddr_in group;

	test_sockaddr_in(test, &group, TEST_GROUP);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(id, (struct sockaddr *)&group,
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
	rdma_destroy_id(id);
}

/* Binding an address that no netdev owns: -EADDRNOTAVAIL. */
static void rdma_cm_bind_unowned_address(struct kunit *test)
{
	struct rdma_cm_id *id = test_create_ud_id(test);
	struct sockaddr_in sin;

	test_sockaddr_in(test, &sin, TEST_UNOWNED_ADDR);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&sin),
			-EADDRNOTAVAIL);
	rdma_destroy_id(id);
}

/* An address on a netdev without an RDMA device: -ENODEV. */
static void rdma_cm_bind_address_without_rdma_device(struct kunit *test)
{
	struct rdma_cm_id *id = test_create_ud_id(test);
	struct sockaddr_in sin;

	test_sockaddr_in(test, &sin, TEST_DUMMY_ADDR);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&sin),
			-ENODEV);
	rdma_destroy_id(id);
}

/*
 * rdma_mcm's ib_client is told about a Soft-RoCE device added on dummy0
 * and about its removal, synchronously with (un)registration.
 */
static void ib_client_sees_rxe_added_and_removed(struct kunit *test)
{
	unsigned int before = rdma_mcm_ib_device_count();
	struct ib_device *ibdev;
	struct net_device *ndev;
	int ret;

	if (!IS_BUILTIN(CONFIG_RDMA_RXE))
		kunit_skip(test, "needs CONFIG_RDMA_RXE=y");

	ndev = dev_get_by_name(&init_net, TEST_DUMMY_IFNAME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ndev);
	ret = rxe_net_add(TEST_RXE_NAME, ndev);
	dev_put(ndev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rdma_mcm_ib_device_count(), before + 1);

	ibdev = ib_device_get_by_name(TEST_RXE_NAME, RDMA_DRIVER_RXE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ibdev);
	ib_unregister_device_and_put(ibdev);
	KUNIT_EXPECT_EQ(test, rdma_mcm_ib_device_count(), before);
}

static struct kunit_case rdma_mcm_rdma_cm_cases[] = {
	KUNIT_CASE(rdma_cm_ud_id_create_destroy),
	KUNIT_CASE(rdma_cm_join_unbound_id_is_einval),
	KUNIT_CASE(rdma_cm_bind_unowned_address),
	KUNIT_CASE(rdma_cm_bind_address_without_rdma_device),
	KUNIT_CASE(ib_client_sees_rxe_added_and_removed),
	{}
};

static struct kunit_suite rdma_mcm_rdma_cm_suite = {
	.name = "rdma_mcm_rdma_cm",
	.test_cases = rdma_mcm_rdma_cm_cases,
};

kunit_test_suite(rdma_mcm_rdma_cm_suite);

