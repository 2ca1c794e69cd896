/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-mcm check: what the host reports to the network for the
 * memberships rdma_mcm holds, and what the network answers (rdma-mcm-check(8)).
 *
 *   check.c       arguments, the memberships (netlink), the listen, the run
 *   check_eval.c  the host's view of each netdev and group, the findings
 *   check_out.c   the report: text, or one JSON object
 */
#ifndef RDMA_MCM_CHECK_H
#define RDMA_MCM_CHECK_H

#include <net/if.h>
#include <stdint.h>
#include <sys/socket.h>

#include "hostmc.h"
#include "querier.h"
#include "rdma_mcm_cli.h"

/* The default IGMP and MLD query interval (RFC 3376 8.2, RFC 3810 9.2) */
#define CK_QUERY_INTERVAL_S	125

/* A membership of the dump, as much of it as the check needs */
struct ck_mem {
	char netdev[RDMA_MCM_NL_IFNAME_LEN];	/* "": the context has none */
	char dev[RDMA_MCM_NL_NAME_LEN];
	uint32_t port;
	unsigned long netns;			/* 0: not said */
	uint32_t ctx, handle;
	int family;
	uint8_t group[16];
	uint8_t type, state;
	int32_t status;
	int qp;
	uint32_t nsrc;
	uint8_t (*src)[16];
};

enum { CK_FILTER_NONE, CK_FILTER_YES, CK_FILTER_MISSING, CK_FILTER_UNLISTED };

/* A group on a netdev: its memberships, and what the host says of it */
struct ck_group {
	int family;
	uint8_t addr[16];
	char name[64];
	unsigned int full, send_only, other;	/* joined, by join type */
	unsigned int joining, waiting, error;
	unsigned int any_source;	/* joined full members of any source */
	unsigned int qps;		/* memberships with a QP attached */
	uint8_t (*src)[16];		/* sources of the source-specific ones */
	size_t nsrc;
	const struct ck_mem *first_error, *first_waiting;
	/* what the host says (check_eval.c) */
	int host;			/* in igmp(6): 1, 0; -1 not known */
	unsigned int users;
	int filter;			/* CK_FILTER_* */
	int refreshed;			/* a query asked for it: 1, 0; -1 */
};

/* The queries of one family heard on a netdev */
struct ck_heard {
	int listened;
	int not_open;			/* the listen's socket: this errno */
	struct mcm_querier *qr;
	unsigned long queries;		/* the host's stack takes them */
	unsigned long ignored;		/* it drops them (mcm_query.ignored) */
	double last;			/* seconds from the listen's start */
	struct mcm_query q;		/* the last taken, or else ignored */
	int general;			/* a general query was taken */
	uint8_t asked[8][16];		/* groups queried specifically */
	unsigned int nasked;
	uint8_t from[4][16];		/* the queriers, in order */
	unsigned int nfrom;
};

/* IGMP or MLD on a netdev */
struct ck_proto {
	int version;			/* in force; 0: not known */
	const char *why;		/* "force", "querier", "default" */
	long force, force_all;		/* -1: unreadable */
	struct ck_heard heard;
};

enum { CK_LL_UNKNOWN, CK_LL_ETHERNET, CK_LL_INFINIBAND };

struct ck_netdev {
	char name[IF_NAMESIZE];		/* "": memberships without a device */
	unsigned long netns;
	int other_ns;			/* not this process's namespace */
	int ifindex;			/* 0: not found */
	const char *state;		/* up, down, no-carrier; NULL */
	int multicast;			/* IFF_MULTICAST: 1, 0; -1 */
	char devs[4][RDMA_MCM_NL_NAME_LEN];
	uint32_t ports[4];
	unsigned int ndevs;
	int link;			/* CK_LL_* */
	unsigned int members;
	struct ck_group *grp;
	size_t ngrp, gcap;
	struct ck_proto igmp, mld;
};

enum { CK_NOTE, CK_WARNING, CK_PROBLEM };

struct ck_finding {
	int level;
	const char *code;
	char netdev[IF_NAMESIZE];
	char group[64];
	char dev[RDMA_MCM_NL_NAME_LEN];
	char text[480];
};

struct check {
	struct cli *cli;
	const char *f_netdev;		/* netdev NETDEV */
	const char *f_dev;		/* dev DEV (the RDMA device) */
	char f_group[64];		/* group GROUP, as addr_name() */
	unsigned long listen_s;		/* listen SECONDS; 0: none */
	double listened_s;		/* as long as it did (a signal ends it) */
	unsigned long netns;		/* this process's; 0: not known */
	struct ck_mem *mem;
	size_t nmem, mcap;
	struct ck_netdev *nd;
	size_t nnd, ndcap;
	struct ck_finding *fnd;
	size_t nfnd, fcap;
	unsigned int counts[3];		/* findings by level */
	struct rdma_mcm_nl_stats *stats;
	int stats_err;			/* errno of the stats, or 0 */
	long max_memberships, max_msf, mld_max_msf;	/* -1: unread */
	unsigned int most_src4, most_src6;	/* of one membership */
	unsigned int unreadable;	/* 1 << family: igmp(6) said so */
	struct hostmc hm;
};

/* check_eval.c */
void ck_evaluate(struct check *ck);
void ck_find(struct check *ck, int level, const char *code,
	     const char *netdev, const char *group, const char *dev,
	     const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* The exit status of the findings: CHECK_OK, _WARNING, _PROBLEM */
int ck_status(const struct check *ck);
/* Whether the report covers RDMA device @dev: all, or the netdevs' */
int ck_covers_dev(const struct check *ck, const char *dev);

/* check_out.c */
void ck_print(struct check *ck);

#endif /* RDMA_MCM_CHECK_H */
