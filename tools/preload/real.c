// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The real librdmacm functions, by the symbol versions of librdmacm.map:
 * RDMACM_1.0 for the base calls, RDMACM_1.1 for rdma_join_multicast_ex.
 * The preload library links librdmacm itself, so librdmacm is in the
 * global scope after it (RTLD_NEXT finds it) even when the program loads
 * librdmacm later and locally, as python's extension modules do.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "preload.h"

struct pl_real pl_real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void *real_sym(const char *name, const char *version)
{
	void *p = dlvsym(RTLD_NEXT, name, version);

	if (!p)
		p = dlsym(RTLD_NEXT, name);
	if (!p) {
		/* the library cannot pass the call on: nothing works */
		fprintf(stderr, "librdmamcm-preload: %s@%s not found: %s\n",
			name, version, dlerror());
		abort();
	}
	return p;
}

static void real_resolve(void)
{
	pl_real.join = real_sym("rdma_join_multicast", "RDMACM_1.0");
	pl_real.join_ex = real_sym("rdma_join_multicast_ex", "RDMACM_1.1");
	pl_real.leave = real_sym("rdma_leave_multicast", "RDMACM_1.0");
	pl_real.get_event = real_sym("rdma_get_cm_event", "RDMACM_1.0");
	pl_real.ack_event = real_sym("rdma_ack_cm_event", "RDMACM_1.0");
	pl_real.destroy_id = real_sym("rdma_destroy_id", "RDMACM_1.0");
	pl_real.migrate_id = real_sym("rdma_migrate_id", "RDMACM_1.0");
	pl_real.destroy_channel = real_sym("rdma_destroy_event_channel",
					   "RDMACM_1.0");
	pl_real.destroy_qp = real_sym("rdma_destroy_qp", "RDMACM_1.0");
	pl_real.create_id = real_sym("rdma_create_id", "RDMACM_1.0");
	pl_real.create_ep = real_sym("rdma_create_ep", "RDMACM_1.0");
	pl_real.resolve_addr = real_sym("rdma_resolve_addr", "RDMACM_1.0");
	pl_config_load();
}

void pl_real_init(void)
{
	pthread_once(&real_once, real_resolve);
}
