// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-fake: the rdma-mcm CLI linked with the fake device and the
 * fake libibverbs, for the CLI tests (testing/host/cli-test). Joins complete at
 * once, unless FAKE_NO_COMPLETE is set. Other knobs, IPv4 groups:
 *
 *   FAKE_FAIL_GROUP, FAKE_FAIL_ERRNO  that group's join fails with
 *                       -FAKE_FAIL_ERRNO (default ETIMEDOUT)
 *   FAKE_REMOVE_GROUP   that group joined, then its device goes away
 *                       (ERROR or REJOINING -ENODEV, then DEVICE_REMOVED);
 *                       with FAKE_DEVICE_BACK it comes back at once
 *                       (DEVICE_ADDED, REJOINED)
 *   FAKE_REJOIN_GROUP   joined, lost to -ENETRESET, joined again
 *   FAKE_WAIT_GROUP     joined, lost to -ENETRESET, waiting
 *   FAKE_NO_HEAL        the module before healing (no context flags,
 *                       184-byte members)
 *   FAKE_NO_SOURCES     the module before sources (a join with sources:
 *                       E2BIG, features 0)
 *   FAKE_IB_PORT        the contexts' port is InfiniBand (sources:
 *                       EOPNOTSUPP)
 *   FAKE_ROUTE_ERRNO    no route to any group: this errno
 *   FAKE_VERBS          an RDMA device, fake0: one RoCE port with
 *                       10.0.0.1 (ifindex 2), where datagrams flow
 *   FAKE_CYCLE_AT=N     after N datagrams (received or sent) fake0 is
 *                       removed, and it comes back once every verbs
 *                       object on it is released
 *   FAKE_REJOIN_AT=N    after N datagrams the membership is lost
 *                       (-ENETRESET) and joined again
 *   FAKE_SOURCES=A,B    the senders of the datagrams, in turn, IPv4 or
 *                       IPv6 (default 10.0.0.2, 2001:db8::2)
 *   FAKE_GRH=ib|none    the receives' GRH: InfiniBand's layout, or none
 *                       (default: RoCE v2's)
 *
 * The netlink family (fake_nl.c): FAKE_NL_MEMBERS=N memberships (default
 * 6), FAKE_NL_CONTEXTS, FAKE_NL_ABSENT (not registered), FAKE_NL_DENY
 * (EPERM on "events"), FAKE_NL_EVENTS=N scripted events (default 5),
 * FAKE_NL_ENOBUFS_AT=N ENOBUFS after N of them, standing for
 * FAKE_NL_LOST events (default 2), FAKE_NL_EVENTS_LOST (stats),
 * FAKE_NL_UNREGISTER_AT=N the module unloaded when a monitor reaches
 * event N, FAKE_NL_EVENT_US=N each event takes N microseconds to come.
 * FAKE_NL_COMM, FAKE_NL_DEV, FAKE_NL_NETDEV (the users' command name, the
 * first device's and netdev's names, any bytes), FAKE_NL_SELF (context
 * 1 is this process's), FAKE_NL_NEWER (a later module's limits, usage
 * and join types 6 and 7), FAKE_NL_NO_PORT_GROUP (no PORT attribute, and
 * memberships without GROUP), FAKE_NL_OLD_POLICY (a module whose dumps
 * take no attribute: a request with CTX_ID gets EINVAL and the kernel's
 * "Unknown attribute type" in its extended ack), FAKE_NL_DENY_STATS
 * (stats: EPERM, as without CAP_NET_ADMIN), FAKE_NL_MCAST=G,GM,A,AM,Q
 * (rxe1's multicast figures in stats: groups, groups_max, attaches,
 * attaches_max, qp_attach_max), FAKE_NL_MCAST0 (the first device's
 * multicast figures: groups 3/8, attaches 5/16, 4 QPs a group).
 *
 * The module: FAKE_NO_DEV (/dev/rdma_mcm does not open: ENOENT),
 * FAKE_MODULE_DIR (what /sys/module/rdma_mcm is: none without it).
 * FAKE_PROC_DIR: what /proc is for the owners' cgroups (their systemd
 * unit); none without it.
 *
 * check: FAKE_ROOT, the directory its /proc and /sys are under (a tree
 * cli/87-check.sh writes; none: the host's).
 *
 * At exit, with FAKE_VERBS, a verbs object left, a rule of verbs broken
 * or a QP destroyed while attached is reported on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cli.h"
#include "fake_dev.h"
#include "fake_nl.h"
#include "fake_verbs.h"
#include "rdma_mcm_priv.h"

static unsigned long cycle_at, rejoin_at;

static void group_env(const char *name, uint8_t key[16])
{
	const char *v = getenv(name);

	if (v && inet_pton(AF_INET, v, key) != 1)
		abort();
}

/* The datagram count reached a knob's: the device goes, or the group */
static void on_datagram(void)
{
	unsigned long n = fv.delivered + fv.sent;
	int i;

	if (cycle_at && n == cycle_at) {
		fv_remove(&fv.dev[0]);
		for (i = 0; i < FAKE_MAX_CTX; i++)
			if (fake.ctx[i].used)
				fake_device_gone(fake.ctx[i].id);
	}
	if (rejoin_at && n == rejoin_at) {
		for (i = 0; i < FAKE_MAX_MEMBERS; i++) {
			struct fake_member *fm = &fake.mem[i];

			if (fm->used && !fake_lose(fm->ctx_id, fm->m.handle,
						   -ENETRESET))
				fake_rejoin(fm->ctx_id, fm->m.handle, 0);
		}
	}
}

/* Its users let go: the device is registered again (rdma link add) */
static void on_released(struct fv_dev *d)
{
	int i;

	fv_restore(d);
	for (i = 0; i < FAKE_MAX_CTX; i++)
		if (fake.ctx[i].used && fake.ctx[i].no_device)
			fake_device_back(fake.ctx[i].id, 1, 1);
}

/* FAKE_SOURCES and FAKE_GRH */
static void senders_setup(void)
{
	const char *grh = getenv("FAKE_GRH");
	char list[512], *tok, *save = NULL;

	snprintf(list, sizeof(list), "%s", getenv("FAKE_SOURCES") ? : "");
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (fv_add_source(tok))
			abort();
	fv.grh = !grh ? FV_GRH_ROCE_V2 : !strcmp(grh, "ib") ? FV_GRH_IB :
		 FV_GRH_NONE;
}

static void verbs_setup(void)
{
	struct fv_dev *d;

	fv_reset();
	d = fv_add_dev("fake0");
	fv_add_port(d, IBV_LINK_LAYER_ETHERNET);
	fv_add_gid(d, 1, "fe80::fc:ff:fe00:1", IBV_GID_TYPE_ROCE_V1, 2);
	fv_add_gid(d, 1, "fe80::fc:ff:fe00:1", IBV_GID_TYPE_ROCE_V2, 2);
	fv_add_gid(d, 1, "::ffff:10.0.0.1", IBV_GID_TYPE_ROCE_V1, 2);
	fv_add_gid(d, 1, "::ffff:10.0.0.1", IBV_GID_TYPE_ROCE_V2, 2);
	fv.on_datagram = on_datagram;
	fv.on_released = on_released;
	senders_setup();
	cycle_at = strtoul(getenv("FAKE_CYCLE_AT") ? : "0", NULL, 10);
	rejoin_at = strtoul(getenv("FAKE_REJOIN_AT") ? : "0", NULL, 10);
}

/* FAKE_NO_DEV: the device node is missing, as without the module */
static int no_dev_open(void *priv)
{
	(void)priv;
	errno = ENOENT;
	return -1;
}

static struct rdma_mcm_io no_dev_io;

__attribute__((constructor)) static void fake_setup(void)
{
	const char *fail = getenv("FAKE_FAIL_GROUP");
	const char *err = getenv("FAKE_FAIL_ERRNO");
	const char *route = getenv("FAKE_ROUTE_ERRNO");

	fake_install();
	fake_nl_env();
	fake.auto_complete = !getenv("FAKE_NO_COMPLETE");
	if (fail && inet_pton(AF_INET, fail, fake.fail_group) == 1)
		fake.fail_status = -(err ? atoi(err) : ETIMEDOUT);
	group_env("FAKE_REMOVE_GROUP", fake.remove_group);
	group_env("FAKE_REJOIN_GROUP", fake.rejoin_group);
	group_env("FAKE_WAIT_GROUP", fake.wait_group);
	fake.device_back = !!getenv("FAKE_DEVICE_BACK");
	fake.no_heal = !!getenv("FAKE_NO_HEAL");
	fake.no_sources = !!getenv("FAKE_NO_SOURCES");
	fake.ib_port = !!getenv("FAKE_IB_PORT");
	fake.route_errno = route ? atoi(route) : 0;
	if (getenv("FAKE_VERBS"))
		verbs_setup();
	if (getenv("FAKE_NO_DEV")) {
		no_dev_io = *rdma_mcm_io;
		no_dev_io.open = no_dev_open;
		rdma_mcm_io = &no_dev_io;
	}
	if (&cli_sys_module)
		cli_sys_module = getenv("FAKE_MODULE_DIR") ? : "";
	/* FAKE_ROOT: where check reads /proc and /sys (cli/87-check.sh) */
	if (&hostmc_root)
		hostmc_root = getenv("FAKE_ROOT") ? : "";
	if (&cli_proc_root)
		cli_proc_root = getenv("FAKE_PROC_DIR") ? : "";
}

__attribute__((destructor)) static void fake_check(void)
{
	const struct fv_dev *d = &fv.dev[0];

	if (!d->used)
		return;
	if (d->objects || d->contexts || fv.violations ||
	    fv.destroyed_attached)
		fprintf(stderr,
			"fake verbs: %d objects and %d contexts left, %d rules broken, %d QPs destroyed attached\n",
			d->objects, d->contexts, fv.violations,
			fv.destroyed_attached);
}
