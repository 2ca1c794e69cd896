// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Helpers of the library's unit tests: see tutil.h.
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_dev.h"
#include "harness.h"
#include "tutil.h"

struct sockaddr_storage addr(const char *text)
{
	struct sockaddr_storage ss;

	if (rdma_mcm_parse_addr(text, &ss)) {
		fprintf(stderr, "bad test address %s\n", text);
		abort();
	}
	return ss;
}

struct rdma_mcm_channel *setup(int flags, uint32_t *ctx_id)
{
	return setup_kernel(flags, ctx_id, 0, 0);
}

struct rdma_mcm_channel *setup_kernel(int flags, uint32_t *ctx_id,
				      int old_kernel, int new_kernel)
{
	struct sockaddr_storage src = addr("10.0.0.1");
	struct rdma_mcm_channel *ch;

	fake_install();
	fake.old_kernel = old_kernel;
	fake.new_kernel = new_kernel;
	ch = rdma_mcm_open_channel(flags);
	CHECK(ch);
	if (!ch)
		abort();
	CHECK(rdma_mcm_create_ctx(ch, SA(src), ctx_id) == 0);
	return ch;
}

uint32_t join(struct rdma_mcm_channel *ch, uint32_t ctx_id,
	      const char *group, uint64_t cookie)
{
	struct sockaddr_storage g = addr(group);
	uint32_t handle = 0;

	CHECK(rdma_mcm_join(ch, ctx_id, SA(g), RDMA_MCM_JOIN_FULLMEMBER,
			    cookie, &handle) == 0);
	CHECK(handle != 0);
	return handle;
}

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void entry_addr(uint8_t *dst, const char *text)
{
	struct sockaddr_storage ss = addr(text);

	memcpy(dst, &ss, sizeof(struct sockaddr_in6));
}

struct rdma_mcm_channel *heal_setup(uint32_t flags, uint32_t *ctx)
{
	struct sockaddr_storage a = addr(flags & RDMA_MCM_CTX_ROUTE ?
					 "239.1.1.1" : "10.0.0.1");
	struct rdma_mcm_channel *ch;

	fake_install();
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	if (!ch)
		abort();
	CHECK(rdma_mcm_set_event_mask(ch, ALL_EVENTS, NULL) == 0);
	CHECK(rdma_mcm_create_ctx_ex(ch, SA(a), flags, ctx) == 0);
	return ch;
}
