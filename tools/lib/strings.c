// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librdmamcm: names of membership states and event types.
 */
#include "rdma_mcm_priv.h"

MCM_EXPORT const char *rdma_mcm_state_str(uint32_t state)
{
	switch (state) {
	case RDMA_MCM_STATE_JOINING:
		return "joining";
	case RDMA_MCM_STATE_JOINED:
		return "joined";
	case RDMA_MCM_STATE_ERROR:
		return "error";
	case RDMA_MCM_STATE_WAITING:
		return "waiting";
	default:
		return "unknown";
	}
}

MCM_EXPORT const char *rdma_mcm_event_str(uint32_t event)
{
	switch (event) {
	case RDMA_MCM_EVENT_JOINED:
		return "joined";
	case RDMA_MCM_EVENT_ERROR:
		return "error";
	case RDMA_MCM_EVENT_DEVICE_REMOVED:
		return "device-removed";
	case RDMA_MCM_EVENT_REJOINING:
		return "rejoining";
	case RDMA_MCM_EVENT_REJOINED:
		return "rejoined";
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		return "device-added";
	default:
		return "unknown";
	}
}
