/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma_mcm: tracepoints, system "rdma_mcm" (Documentation/netlink.rst shows
 * them with perf and trace-cmd).
 *
 *   mcm_join         a join was asked for: the membership is published and
 *                    its join about to be sent (one that rdma_cm refuses
 *                    then is told by the netlink LEAVE event, with the
 *                    errno, and counts in join_failed)
 *   mcm_state        a membership changed state
 *   mcm_deliver      an event went to its owner (a ULP's callback, or a
 *                    /dev/rdma_mcm file's queue)
 *   mcm_leave        a membership was left (or cancelled, or closed)
 *   mcm_rejoin       a healing membership was joined again
 *   mcm_device_loss  a context lost its RDMA device
 *
 * Groups are shown as IPv6 addresses (an IPv4 group as ::ffff:a.b.c.d,
 * an AF_IB group as its MGID).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdma_mcm

#if !defined(_RDMA_MCM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RDMA_MCM_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/ib_verbs.h>

#define rdma_mcm_show_state(s)					\
	__print_symbolic(s, { 0, "joining" }, { 1, "joined" },	\
			 { 2, "error" }, { 3, "waiting" },	\
			 { 4, "leaving" }, { 5, "left" })

#define rdma_mcm_show_notice(w)					\
	__print_symbolic(w, { 1, "joined" }, { 2, "error" },	\
			 { 4, "rejoining" }, { 8, "device_removed" }, \
			 { 16, "device_added" })

TRACE_EVENT(mcm_join,
	    TP_PROTO(u32 ctx_id, u32 handle, const u8 *group, u8 join_type),
	    TP_ARGS(ctx_id, handle, group, join_type),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __field(u32, handle)
			     __array(u8, group, 16)
			     __field(u8, join_type)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   __entry->handle = handle;
			   memcpy(__entry->group, group, 16);
			   __entry->join_type = join_type;),
	    TP_printk("ctx=%u handle=%u group=%pI6c type=%s",
		      __entry->ctx_id, __entry->handle, __entry->group,
		      __entry->join_type ? "sendonly" : "full")
);

TRACE_EVENT(mcm_state,
	    TP_PROTO(u32 ctx_id, u32 handle, int from, int to, int status),
	    TP_ARGS(ctx_id, handle, from, to, status),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __field(u32, handle)
			     __field(int, from)
			     __field(int, to)
			     __field(int, status)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   __entry->handle = handle;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->status = status;),
	    TP_printk("ctx=%u handle=%u %s -> %s status=%d",
		      __entry->ctx_id, __entry->handle,
		      rdma_mcm_show_state(__entry->from),
		      rdma_mcm_show_state(__entry->to), __entry->status)
);

TRACE_EVENT(mcm_deliver,
	    TP_PROTO(u32 ctx_id, u32 handle, int what, int status),
	    TP_ARGS(ctx_id, handle, what, status),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __field(u32, handle)
			     __field(int, what)
			     __field(int, status)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   __entry->handle = handle;
			   __entry->what = what;
			   __entry->status = status;),
	    TP_printk("ctx=%u handle=%u event=%s status=%d",
		      __entry->ctx_id, __entry->handle,
		      rdma_mcm_show_notice(__entry->what), __entry->status)
);

TRACE_EVENT(mcm_leave,
	    TP_PROTO(u32 ctx_id, u32 handle, const u8 *group, int from),
	    TP_ARGS(ctx_id, handle, group, from),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __field(u32, handle)
			     __array(u8, group, 16)
			     __field(int, from)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   __entry->handle = handle;
			   memcpy(__entry->group, group, 16);
			   __entry->from = from;),
	    TP_printk("ctx=%u handle=%u group=%pI6c from=%s",
		      __entry->ctx_id, __entry->handle, __entry->group,
		      rdma_mcm_show_state(__entry->from))
);

TRACE_EVENT(mcm_rejoin,
	    TP_PROTO(u32 ctx_id, u32 handle, u32 rejoins, int reason),
	    TP_ARGS(ctx_id, handle, rejoins, reason),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __field(u32, handle)
			     __field(u32, rejoins)
			     __field(int, reason)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   __entry->handle = handle;
			   __entry->rejoins = rejoins;
			   __entry->reason = reason;),
	    TP_printk("ctx=%u handle=%u rejoins=%u reason=%d",
		      __entry->ctx_id, __entry->handle, __entry->rejoins,
		      __entry->reason)
);

/* a fixed array, not __string(): its assignment differs across kernels */
TRACE_EVENT(mcm_device_loss,
	    TP_PROTO(u32 ctx_id, const char *dev_name, bool lost),
	    TP_ARGS(ctx_id, dev_name, lost),
	    TP_STRUCT__entry(__field(u32, ctx_id)
			     __array(char, dev_name, IB_DEVICE_NAME_MAX)
			     __field(bool, lost)),
	    TP_fast_assign(__entry->ctx_id = ctx_id;
			   strscpy(__entry->dev_name, dev_name,
				   IB_DEVICE_NAME_MAX);
			   __entry->lost = lost;),
	    TP_printk("ctx=%u dev=%s %s", __entry->ctx_id, __entry->dev_name,
		      __entry->lost ? "lost" : "added")
);

#endif /* _RDMA_MCM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rdma_mcm_trace
#include <trace/define_trace.h>
