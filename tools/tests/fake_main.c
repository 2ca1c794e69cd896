// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm-fake: the rdma-mcm CLI linked with the fake device, for the
 * CLI tests (tests/cli-test). Joins complete at once, unless
 * FAKE_NO_COMPLETE is set; FAKE_FAIL_GROUP=IPv4 makes that group's join
 * fail with -FAKE_FAIL_ERRNO (default ETIMEDOUT); FAKE_REMOVE_GROUP=IPv4
 * makes that group joined, then lost with -ENODEV as its device goes away
 * (ERROR, then DEVICE_REMOVED for the context).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>

#include "fake_dev.h"

__attribute__((constructor)) static void fake_setup(void)
{
	const char *fail = getenv("FAKE_FAIL_GROUP");
	const char *err = getenv("FAKE_FAIL_ERRNO");
	const char *remove = getenv("FAKE_REMOVE_GROUP");

	fake_install();
	fake.auto_complete = !getenv("FAKE_NO_COMPLETE");
	if (fail && inet_pton(AF_INET, fail, fake.fail_group) == 1)
		fake.fail_status = -(err ? atoi(err) : ETIMEDOUT);
	if (remove && inet_pton(AF_INET, remove, fake.remove_group) != 1)
		abort();
}
