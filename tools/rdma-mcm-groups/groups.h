/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-mcm-groups: the memberships the system owns, read from
 * /etc/rdma-mcm/groups.d/NAME.conf and held by one process (the
 * rdma-mcm-groups service) with healing, for receivers that attach no QP
 * through rdma_mcm themselves (AF_XDP, DPDK, raw packet, perftest on RoCE).
 * See rdma-mcm-groups(8) and rdma-mcm-groups.conf(5).
 *
 *   conf.c    the configuration: files, lines, checks, duplicates
 *   plan.c    what a reload changes: the sorted keys, the differences
 *   hold.c    the memberships held on /dev/rdma_mcm: contexts, joins,
 *             leaves, events, retries
 *   netdev.c  a netdev's address, and rtnetlink's address and link events
 *   notify.c  systemd's notify protocol, and the log
 *   watch.c   the querier watchdog: the IGMP/MLD queries heard where full
 *             members are held, and the silences
 *   main.c    options, --check, the event loop, reload and stop
 */
#ifndef RDMA_MCM_GROUPS_H
#define RDMA_MCM_GROUPS_H

#include <net/if.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "librdmamcm.h"

#define GRP_CONF_DIR	"/etc/rdma-mcm/groups.d"
/* The longest line of a configuration file; a longer one is an error */
#define GRP_LINE_MAX	4096

/* Exit status: a usage error or a configuration refused at start */
#define GRP_EXIT_CONFIG	2

/*
 * One membership of the configuration, one line: "group G dev D" or
 * "group G local A", with sources and a type. @dev is "" for a local
 * address, @local's family AF_UNSPEC for a netdev. @src holds @nr_src
 * unicast addresses of @group's family, sorted and each once (none: any
 * source). @file is the configuration's (struct grp_conf's @files).
 */
struct grp_entry {
	char dev[IF_NAMESIZE];
	struct sockaddr_storage local;
	struct sockaddr_storage group;
	struct sockaddr_storage *src;
	unsigned int nr_src;
	int type;			/* RDMA_MCM_JOIN_* */
	const char *file;
	unsigned int line;
};

/* Called for each error of a configuration: "FILE:LINE: MSG" */
typedef void (*grp_err_fn)(void *arg, const char *file, unsigned int line,
			   const char *msg);

/*
 * A configuration: the entries of every *.conf file of a directory, in
 * the order of the files (sorted by name) and of their lines. @errors
 * counts what was refused; @first_error is the first of them, as
 * "FILE:LINE: MSG" (or "DIR: MSG").
 */
struct grp_conf {
	struct grp_entry *v;
	size_t n, cap;
	char **files;
	size_t nfiles;
	unsigned int errors;
	char first_error[512];
	grp_err_fn err;
	void *err_arg;
};

/* conf.c */
void grp_conf_init(struct grp_conf *c, grp_err_fn err, void *arg);
void grp_conf_free(struct grp_conf *c);
/* Every *.conf of @dir; 0 when nothing was refused, else -1 */
int grp_conf_load(struct grp_conf *c, const char *dir);
/* One file's text, as if read from @file (the tests' way in); 0 or -1 */
int grp_conf_parse(struct grp_conf *c, const char *file, const char *text);
/* After the files: duplicates refused; 0, or -1 when there were errors */
int grp_conf_finish(struct grp_conf *c);
/* An entry's text: "group G dev D type T sources S,S" (one line) */
void grp_entry_text(const struct grp_entry *e, char *buf, size_t len);
/* "dev D" or "local A" */
void grp_binding_text(const struct grp_entry *e, char *buf, size_t len);
/* An address as text (IPv6 with its %scope), port 0 */
void grp_addr_text(const struct sockaddr_storage *ss, char *buf, size_t len);
const char *grp_type_name(int type);

/* plan.c */
/* The order of addresses: family, address, IPv6 scope */
int grp_addr_cmp(const struct sockaddr_storage *a,
		 const struct sockaddr_storage *b);
/* The order of keys (binding, then group): < 0, 0, > 0 */
int grp_key_cmp(const struct grp_entry *a, const struct grp_entry *b);
/* Same key, type and sources: a reload leaves it alone */
int grp_entry_same(const struct grp_entry *a, const struct grp_entry *b);
/* @n entries' pointers, sorted by key (stable: file order among equals) */
void grp_sort(const struct grp_entry **v, size_t n);

/*
 * What a reload does, entry by entry: @old (what is held) and @new (the
 * configuration read again), both sorted by key. Each key of @old only is
 * GRP_LEAVE, of @new only GRP_JOIN; a key in both is GRP_KEEP when the
 * entries are the same, else GRP_REPLACE (left, then joined as @new has
 * it). @fn sees every key once, in key order; @o or @n is NULL when the
 * key is not there.
 */
enum grp_change { GRP_KEEP, GRP_LEAVE, GRP_JOIN, GRP_REPLACE };

typedef void (*grp_diff_fn)(void *arg, enum grp_change what, size_t o,
			    size_t n);
/* @o and @n are indexes into @old and @new, SIZE_MAX for none */
void grp_diff(const struct grp_entry *const *old, size_t nold,
	      const struct grp_entry *const *new, size_t nnew,
	      grp_diff_fn fn, void *arg);
const char *grp_change_name(enum grp_change what);

/* notify.c */
/* The log: stderr, with journald's <N> priority prefix under systemd */
void grp_log(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* sd_notify(3)'s protocol: one datagram to $NOTIFY_SOCKET; 0 or -errno */
int grp_notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* RELOADING=1 with MONOTONIC_USEC, as systemd wants it */
int grp_notify_reloading(void);

/* netdev.c */
/*
 * The address of netdev @dev for a group of @family: IPv4 its first
 * (primary) address; IPv6 its first global one, else its link-local one
 * (scoped to it). 0, or -ENODEV (no such netdev), -EADDRNOTAVAIL (no
 * address of the family), -errno.
 */
int grp_netdev_addr(const char *dev, int family, struct sockaddr_storage *ss);
/* Whether netdev @dev has address @ss now */
int grp_netdev_has(const char *dev, const struct sockaddr_storage *ss);
/* An rtnetlink socket for address and link events, or -1 */
int grp_rtnl_open(void);
/* Read what it has: 1 when an address or a link changed, 0, -1 */
int grp_rtnl_read(int fd);

/*
 * The netdev that has address @ss now, into @dev (IF_NAMESIZE bytes); 0,
 * or -EADDRNOTAVAIL when none has it
 */
int grp_netdev_of(const struct sockaddr_storage *ss, char *dev);

/* Netdev @dev's ARPHRD_* type (1: Ethernet, 32: IPoIB), or -1 */
int grp_netdev_type(const char *dev);

/* hold.c */
struct grp_hold;

enum grp_state {
	GRP_PENDING,		/* no context yet: retried */
	GRP_JOINING,
	GRP_JOINED,
	GRP_WAITING,		/* healing: lost, to be joined again */
	GRP_FAILED,		/* refused: tried again at the next reload */
	GRP_NR_STATES,
};

struct grp_counts {
	unsigned int n[GRP_NR_STATES];
	unsigned int total;
};

struct grp_hold *grp_hold_open(struct rdma_mcm_channel *ch);
/* Leave everything (destroy every context), free */
void grp_hold_close(struct grp_hold *h);
/*
 * Apply @c, the differences only (its entries are copied; its file names
 * become the hold's, and the names of the configuration applied before
 * @c's, to be freed with it); 0, or -1 when memory ran out
 */
int grp_hold_apply(struct grp_hold *h, struct grp_conf *c);
/* Read every event of the channel; 0, or -1 when the channel broke */
int grp_hold_events(struct grp_hold *h);
/*
 * Try the pending memberships again now (an address or a link changed),
 * and move the contexts bound by netdev whose address went
 */
void grp_hold_retry(struct grp_hold *h);
/* The retry timer went off: the same, then wait twice as long */
void grp_hold_retry_due(struct grp_hold *h);
/* Milliseconds until the next retry is due, -1 for none */
int grp_hold_retry_ms(const struct grp_hold *h);
void grp_hold_counts(const struct grp_hold *h, struct grp_counts *c);
const char *grp_state_name(enum grp_state s);
/* What the last grp_hold_apply() did: joins, leaves, kept, replaced */
void grp_hold_last_apply(const struct grp_hold *h, unsigned int out[4]);
/*
 * Each context that holds a full member (joining, joined or waiting: the
 * kernel reports it, or will again), once: its netdev ("" when bound by
 * address), its family and address
 */
typedef void (*grp_place_fn)(void *arg, const char *dev, int family,
			     const struct sockaddr_storage *src);
void grp_hold_places(const struct grp_hold *h, grp_place_fn fn, void *arg);

/* watch.c */
struct grp_watch;
struct mcm_query;

/* CLOCK_MONOTONIC in milliseconds: the times the watchdog is given */
int64_t grp_now_ms(void);
/*
 * A watchdog: @timeout_s 0 for the RFCs' Other Querier Present Interval;
 * @state_file NULL for none (else rewritten whole on each change, removed
 * by grp_watch_free()); @no_sockets for the tests (queries come from
 * grp_watch_heard() only). NULL when memory ran out.
 */
struct grp_watch *grp_watch_new(unsigned int timeout_s, const char *state_file,
				int no_sockets);
void grp_watch_free(struct grp_watch *w);
/* A sync: begin, want each (netdev, family) to watch, end closes the rest */
void grp_watch_begin(struct grp_watch *w);
void grp_watch_want(struct grp_watch *w, const char *dev, int family,
		    int64_t now);
void grp_watch_end(struct grp_watch *w);
/* Fill @p with the sockets to poll; how many */
size_t grp_watch_fds(const struct grp_watch *w, struct pollfd *p, size_t max);
/* How many (netdev, family) are watched */
size_t grp_watch_count(const struct grp_watch *w);
/* Read every query that waits */
void grp_watch_read(struct grp_watch *w, int64_t now);
/* A query heard on @dev (the tests' way in); 0, or -1 when not watched */
int grp_watch_heard(struct grp_watch *w, const char *dev,
		    const struct mcm_query *q, int64_t now);
/* Milliseconds until a silence is due, -1 for none */
int grp_watch_timeout_ms(const struct grp_watch *w, int64_t now);
/* Note the silences due at @now (logged once each) */
void grp_watch_tick(struct grp_watch *w, int64_t now);
/* "; no querier: IGMP on eth0, MLD on eth0" for STATUS=, or "" */
void grp_watch_status(const struct grp_watch *w, char *buf, size_t len);
/* The state file, when something changed */
void grp_watch_flush(struct grp_watch *w);

struct grp_watch_stats {
	int listening;		/* -1: not watched */
	int silent;
	uint64_t queries, ignored, silences;
	int64_t interval_ms;
};

void grp_watch_stats(const struct grp_watch *w, const char *dev, int family,
		     struct grp_watch_stats *st);

#endif /* RDMA_MCM_GROUPS_H */
