// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: source-specific joins (LIBRDMAMCM_1.5). The application's
 * sources become the ABI's struct rdma_mcm_source entries, checked as far
 * as the library can without the kernel: a NULL array or entry, more than
 * RDMA_MCM_MAX_SOURCES, a send-only join (it receives nothing, so it has
 * nothing to filter) are EINVAL, an address of an unknown family
 * EAFNOSUPPORT. What needs the group and the port (the family, a unicast
 * address, each source once, RoCE) is the kernel's to say.
 *
 * The filter is the host's: rdma_mcm sends IGMPv3 / MLDv2 INCLUDE reports,
 * which the switches and routers act on; the HCA does not filter by
 * source (librdmamcm(7), "Source-specific joins").
 */
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_priv.h"

int mcm_sources_make(const struct sockaddr *const *sources, unsigned int nr,
		     int join_flags, struct mcm_sources *out)
{
	unsigned int i;
	int ret;

	out->v = NULL;
	out->nr = 0;
	if (!nr)
		return 0;
	if (!sources || nr > RDMA_MCM_MAX_SOURCES ||
	    join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!sources[i])
			return -EINVAL;
	out->v = calloc(nr, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		ret = mcm_addr_copy(sources[i], out->v[i].s.addr,
				    &out->v[i].s.addr_len);
		if (ret) {
			mcm_sources_free(out);
			return ret;
		}
	}
	out->nr = nr;
	return 0;
}

void mcm_sources_free(struct mcm_sources *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = 0;
}

MCM_EXPORT int rdma_mcm_join_source(struct rdma_mcm_channel *ch,
				    uint32_t ctx_id,
				    const struct sockaddr *group,
				    const struct sockaddr *const *sources,
				    unsigned int nr_sources, int join_flags,
				    uint64_t cookie, uint32_t *handle)
{
	struct mcm_sources srcs;
	int ret;

	if (!ch)
		return mcm_result(-EINVAL);
	ret = mcm_sources_make(sources, nr_sources, join_flags, &srcs);
	if (ret)
		return mcm_result(ret);
	pthread_mutex_lock(&ch->lock);
	ret = mcm_join_locked(ch, ctx_id, group, &srcs, join_flags, cookie,
			      handle);
	pthread_mutex_unlock(&ch->lock);
	mcm_sources_free(&srcs);
	return mcm_result(ret);
}
