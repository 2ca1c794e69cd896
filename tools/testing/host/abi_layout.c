// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * abi_layout: print the size and alignment of every struct of
 * <rdma/rdma_mcm_abi.h>, the offset and size of every field, and every
 * ioctl number (which encodes the argument's size). Built with -m64 and
 * -m32, the two outputs must be identical: the ABI needs no compat code.
 * testing/host/run-checks also checks that every field of the header is listed.
 */
#include <stddef.h>
#include <stdio.h>

#include <rdma/rdma_mcm_abi.h>

#define S(type)							\
	printf("struct %s size %zu align %zu\n", #type,		\
	       sizeof(struct type), _Alignof(struct type))
/*
 * F(struct, member): the member is variadic, so that checkpatch --strict
 * does not take its two uses for a macro argument reused.
 */
#define F(type, ...)							\
	printf("  %s.%s offset %zu size %zu\n", #type, #__VA_ARGS__,	\
	       offsetof(struct type, __VA_ARGS__),			\
	       sizeof(((struct type *)0)->__VA_ARGS__))
#define C(c)	printf("%s 0x%08lx\n", #c, (unsigned long)(c))
#define K(k)	printf("%s %lu\n", #k, (unsigned long)(k))

static void version(void)
{
	S(rdma_mcm_version);
	F(rdma_mcm_version, abi_version);
	F(rdma_mcm_version, features);
}

static void contexts(void)
{
	S(rdma_mcm_create_ctx);
	F(rdma_mcm_create_ctx, src);
	F(rdma_mcm_create_ctx, src_len);
	F(rdma_mcm_create_ctx, flags);
	F(rdma_mcm_create_ctx, ctx_id);
	F(rdma_mcm_create_ctx, reserved);
	S(rdma_mcm_destroy_ctx);
	F(rdma_mcm_destroy_ctx, ctx_id);
	F(rdma_mcm_destroy_ctx, reserved);
}

static void join_leave(void)
{
	S(rdma_mcm_source);
	F(rdma_mcm_source, addr_len);
	F(rdma_mcm_source, reserved);
	F(rdma_mcm_source, addr);
	S(rdma_mcm_join);
	F(rdma_mcm_join, cookie);
	F(rdma_mcm_join, ctx_id);
	F(rdma_mcm_join, join_flags);
	F(rdma_mcm_join, addr_len);
	F(rdma_mcm_join, handle);
	F(rdma_mcm_join, addr);
	F(rdma_mcm_join, sources);
	F(rdma_mcm_join, nr_sources);
	F(rdma_mcm_join, source_size);
	S(rdma_mcm_leave);
	F(rdma_mcm_leave, ctx_id);
	F(rdma_mcm_leave, flags);
	F(rdma_mcm_leave, handle);
	F(rdma_mcm_leave, addr_len);
	F(rdma_mcm_leave, events_reported);
	F(rdma_mcm_leave, reserved);
	F(rdma_mcm_leave, addr);
}

static void member(void)
{
	S(rdma_mcm_member);
	F(rdma_mcm_member, cookie);
	F(rdma_mcm_member, handle);
	F(rdma_mcm_member, state);
	F(rdma_mcm_member, status);
	F(rdma_mcm_member, join_flags);
	F(rdma_mcm_member, addr_len);
	F(rdma_mcm_member, qkey);
	F(rdma_mcm_member, mlid);
	F(rdma_mcm_member, reserved);
	F(rdma_mcm_member, events_reported);
	F(rdma_mcm_member, mgid);
	F(rdma_mcm_member, addr);
	F(rdma_mcm_member, rejoins);
	F(rdma_mcm_member, last_status);
	F(rdma_mcm_member, state_time_ns);
	F(rdma_mcm_member, nr_sources);
	F(rdma_mcm_member, flags);
	S(rdma_mcm_query);
	F(rdma_mcm_query, ctx_id);
	F(rdma_mcm_query, handle);
	F(rdma_mcm_query, member);
	S(rdma_mcm_list);
	F(rdma_mcm_list, entries);
	F(rdma_mcm_list, ctx_id);
	F(rdma_mcm_list, start);
	F(rdma_mcm_list, count);
	F(rdma_mcm_list, next);
	F(rdma_mcm_list, entry_size);
	F(rdma_mcm_list, reserved);
}

static void batches(void)
{
	S(rdma_mcm_join_entry);
	F(rdma_mcm_join_entry, cookie);
	F(rdma_mcm_join_entry, join_flags);
	F(rdma_mcm_join_entry, addr_len);
	F(rdma_mcm_join_entry, handle);
	F(rdma_mcm_join_entry, result);
	F(rdma_mcm_join_entry, addr);
	F(rdma_mcm_join_entry, sources);
	F(rdma_mcm_join_entry, nr_sources);
	F(rdma_mcm_join_entry, source_size);
	S(rdma_mcm_leave_entry);
	F(rdma_mcm_leave_entry, flags);
	F(rdma_mcm_leave_entry, handle);
	F(rdma_mcm_leave_entry, addr_len);
	F(rdma_mcm_leave_entry, result);
	F(rdma_mcm_leave_entry, events_reported);
	F(rdma_mcm_leave_entry, reserved);
	F(rdma_mcm_leave_entry, addr);
	S(rdma_mcm_batch);
	F(rdma_mcm_batch, entries);
	F(rdma_mcm_batch, ctx_id);
	F(rdma_mcm_batch, count);
	F(rdma_mcm_batch, entry_size);
	F(rdma_mcm_batch, done);
}

static void event(void)
{
	S(rdma_mcm_event);
	F(rdma_mcm_event, cookie);
	F(rdma_mcm_event, event);
	F(rdma_mcm_event, status);
	F(rdma_mcm_event, ctx_id);
	F(rdma_mcm_event, handle);
	F(rdma_mcm_event, qkey);
	F(rdma_mcm_event, mlid);
	F(rdma_mcm_event, sl);
	F(rdma_mcm_event, hop_limit);
	F(rdma_mcm_event, mgid);
	F(rdma_mcm_event, dgid);
	F(rdma_mcm_event, flow_label);
	F(rdma_mcm_event, traffic_class);
	F(rdma_mcm_event, port_num);
	F(rdma_mcm_event, is_global);
	F(rdma_mcm_event, reserved);
	S(rdma_mcm_set_events);
	F(rdma_mcm_set_events, event_mask);
	F(rdma_mcm_set_events, event_size);
	F(rdma_mcm_set_events, reserved);
}

static void query_ctx(void)
{
	S(rdma_mcm_query_ctx);
	F(rdma_mcm_query_ctx, ctx_id);
	F(rdma_mcm_query_ctx, flags);
	F(rdma_mcm_query_ctx, src);
	F(rdma_mcm_query_ctx, src_len);
	F(rdma_mcm_query_ctx, port_num);
	F(rdma_mcm_query_ctx, node_guid);
	F(rdma_mcm_query_ctx, dev_name);
	F(rdma_mcm_query_ctx, reserved);
	K(RDMA_MCM_QUERY_CTX_SIZE_VER0);
	K(RDMA_MCM_DEV_NAME_SIZE);
	C(RDMA_MCM_IOC_QUERY_CTX);
}

/* The first version of each struct: what a kernel takes at the least */
static void sizes_ver0(void)
{
	K(RDMA_MCM_VERSION_SIZE_VER0);
	K(RDMA_MCM_CREATE_CTX_SIZE_VER0);
	K(RDMA_MCM_DESTROY_CTX_SIZE_VER0);
	K(RDMA_MCM_JOIN_SIZE_VER0);
	K(RDMA_MCM_LEAVE_SIZE_VER0);
	K(RDMA_MCM_MEMBER_SIZE_VER0);
	K(RDMA_MCM_QUERY_SIZE_VER0);
	K(RDMA_MCM_LIST_SIZE_VER0);
	K(RDMA_MCM_JOIN_ENTRY_SIZE_VER0);
	K(RDMA_MCM_LEAVE_ENTRY_SIZE_VER0);
	K(RDMA_MCM_BATCH_SIZE_VER0);
	K(RDMA_MCM_EVENT_SIZE_VER0);
	K(RDMA_MCM_SET_EVENTS_SIZE_VER0);
	K(RDMA_MCM_SOURCE_SIZE_VER0);
	K(RDMA_MCM_MAX_ENTRY_SIZE);
	K(RDMA_MCM_MAX_BATCH);
	K(RDMA_MCM_MAX_SOURCES);
	K(RDMA_MCM_EVENTS_DEFAULT);
}

/* Flags, states and event types: the same numbers for every process */
static void constants(void)
{
	K(RDMA_MCM_CTX_HEAL);
	K(RDMA_MCM_CTX_ROUTE);
	K(RDMA_MCM_JOIN_FULLMEMBER);
	K(RDMA_MCM_JOIN_SENDONLY_FULLMEMBER);
	K(RDMA_MCM_FEATURE_SOURCES);
	K(RDMA_MCM_FEATURE_IPV6_ROCE);
	K(RDMA_MCM_MEMBER_JOINED_BY_MCM);
	K(RDMA_MCM_LEAVE_BY_ADDR);
	K(RDMA_MCM_STATE_JOINING);
	K(RDMA_MCM_STATE_JOINED);
	K(RDMA_MCM_STATE_ERROR);
	K(RDMA_MCM_STATE_WAITING);
	K(RDMA_MCM_EVENT_JOINED);
	K(RDMA_MCM_EVENT_ERROR);
	K(RDMA_MCM_EVENT_DEVICE_REMOVED);
	K(RDMA_MCM_EVENT_REJOINING);
	K(RDMA_MCM_EVENT_REJOINED);
	K(RDMA_MCM_EVENT_DEVICE_ADDED);
}

static void commands(void)
{
	C(RDMA_MCM_IOC_VERSION);
	C(RDMA_MCM_IOC_CREATE_CTX);
	C(RDMA_MCM_IOC_DESTROY_CTX);
	C(RDMA_MCM_IOC_JOIN);
	C(RDMA_MCM_IOC_LEAVE);
	C(RDMA_MCM_IOC_QUERY);
	C(RDMA_MCM_IOC_LIST);
	C(RDMA_MCM_IOC_BATCH_JOIN);
	C(RDMA_MCM_IOC_BATCH_LEAVE);
	C(RDMA_MCM_IOC_SET_EVENTS);
	K(RDMA_MCM_ABI_VERSION);
	K(RDMA_MCM_ADDR_SIZE);
}

int main(void)
{
	version();
	contexts();
	join_leave();
	member();
	batches();
	event();
	query_ctx();
	sizes_ver0();
	constants();
	commands();
	return 0;
}
