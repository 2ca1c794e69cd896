/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The fake generic netlink kernel (fake_nl.c): the controller and the
 * family "rdma_mcm" as <rdma/rdma_mcm_netlink.h> describes it, with
 * canned memberships, contexts, stats and events, in place of
 * AF_NETLINK sockets for the library linked into the same program.
 */
#ifndef FAKE_NL_H
#define FAKE_NL_H

#include <stddef.h>
#include <stdint.h>

#define FNL_FAMILY	0x1d
#define FNL_MCGRP	7
#define FNL_SOCKETS	8
/* An attribute type the library does not know (a later kernel's) */
#define FNL_A_FUTURE	60

/* A message under construction in a buffer of @cap bytes */
struct nlb {
	uint8_t *buf;
	size_t len;
	size_t cap;
	size_t msg;			/* offset of the message */
	size_t nest[8];
	int depth;
};

void nlb_init(struct nlb *b, void *buf, size_t cap);
/* Starts a message: 0, or -1 when it does not fit (nothing written) */
int nlb_msg(struct nlb *b, uint16_t type, uint16_t flags, uint32_t seq,
	    uint8_t cmd);
void nlb_put(struct nlb *b, uint16_t type, const void *data, size_t len);
void nlb_u8(struct nlb *b, uint16_t type, uint8_t v);
void nlb_u16(struct nlb *b, uint16_t type, uint16_t v);
void nlb_u32(struct nlb *b, uint16_t type, uint32_t v);
void nlb_u64(struct nlb *b, uint16_t type, uint64_t v);
void nlb_str(struct nlb *b, uint16_t type, const char *s);
void nlb_nest(struct nlb *b, uint16_t type);
void nlb_nest_end(struct nlb *b);
/* Ends the message; its length, or 0 when it overflowed (then removed) */
size_t nlb_end(struct nlb *b);
void nlb_error(struct nlb *b, uint32_t seq, int error);
void nlb_done(struct nlb *b, uint32_t seq);

/* The canned objects: membership @i (0-based), context @i, stats, event @i */
void fnl_put_member(struct nlb *b, unsigned int i);
void fnl_put_context(struct nlb *b, unsigned int i);
void fnl_put_stats(struct nlb *b);
void fnl_put_event(struct nlb *b, unsigned int i);
/* What membership @i's canned message says */
uint32_t fnl_member_ctx(unsigned int i);
uint32_t fnl_member_handle(unsigned int i);

struct fnl_sock;

struct fake_nl {
	int absent;			/* the family is not registered */
	uint16_t family_id;		/* its id (FNL_FAMILY) */
	uint32_t mcgrp_id;		/* its "events" group (FNL_MCGRP) */
	int deny_monitor;		/* "events" needs CAP_NET_ADMIN */
	unsigned int members;		/* canned memberships */
	unsigned int contexts;		/* canned contexts */
	unsigned int per_dgram;		/* dump messages per datagram (0: fill) */
	unsigned int events;		/* events for a socket joining "events" */
	unsigned int enobufs_at;	/* ENOBUFS after this many (0: never) */
	unsigned int lost;		/* events that ENOBUFS stands for */
	uint64_t events_lost;		/* what stats says */
	const char *comm;		/* the users' command name */
	const char *dev;		/* the first RDMA device's name */
	const char *netdev;		/* the first netdev's name */
	uint32_t self_pid;		/* context 1's owner (0: pid 1001) */
	int newer;			/* a later module: limits, usage, types 6, 7 */
	int no_port_group;		/* no PORT, no membership's GROUP */
	int mcast0;			/* stats: the first device's MCAST (FAKE_NL_MCAST0) */
	unsigned long generated;	/* dump messages built */
	unsigned long requests;
	unsigned int sockets;		/* open now */
	unsigned int opened;		/* ever */
	int recv_eintr;			/* the next recv fails with EINTR */
	int no_ext_ack;			/* a kernel before NETLINK_EXT_ACK */
	int no_cap_ack;			/* one before NETLINK_CAP_ACK */
	int old_policy;			/* dumps take no attribute */
	int32_t error_value;		/* the answer to the next request */
	int32_t done_error;		/* a dump's NLMSG_DONE says this */
	unsigned int unregister_at;	/* the family goes at this event */
	unsigned int event_delay_us;	/* each event takes this long */
	uint32_t inject_port;		/* a datagram of this port first */
	uint32_t route_src;		/* RTM_NEWROUTE's RTA_PREFSRC (IPv4) */
	uint32_t route_oif;		/* its RTA_OIF */
	int route_errno;		/* RTM_GETROUTE's error (negative) */
	int route_short;		/* NLMSG_ERROR, RTM_NEWROUTE too short */
	uint32_t route_seq;		/* the last RTM_GETROUTE's seq */
	unsigned long resolves;		/* CTRL_CMD_GETFAMILY requests */
	int deny_stats;			/* STATS_GET: EPERM, as to a user */
	int has_mcast;			/* rxe1's stats have mcast: */
	unsigned int mcast[5];		/* groups, _max, attaches, _max, qp */
};

extern struct fake_nl fnl;

/* A fresh fake kernel, and the library's sockets pointed at it */
void fake_nl_install(void);
/* The library's sockets pointed at the real kernel again */
void fake_nl_uninstall(void);
/*
 * The family goes, as genl_unregister_family() (@notified: the "notify"
 * group hears it; 0: as if that was lost in an overflow), and comes back
 * with id @family and "events" group @mcgrp
 */
void fnl_unregister(int notified);
void fnl_register(uint16_t family, uint32_t mcgrp, int notified);
/*
 * The same, its knobs from the environment (FAKE_NL_*, testing/host/fake/fake_main.c):
 * rdma-mcm-fake
 */
void fake_nl_env(void);

/*
 * The CLI's (hostmc.c): where check reads the kernel's /proc and /sys,
 * which rdma-mcm-fake points at FAKE_ROOT; NULL in a program without it
 */
extern const char *hostmc_root __attribute__((weak));

#endif /* FAKE_NL_H */
