/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rdma-mcm: the host's multicast state as the kernel lists it (hostmc.c):
 * the IGMP and MLD groups of each netdev (/proc/net/igmp, igmp6), their
 * source filters (/proc/net/mcfilter, mcfilter6), the sysctls that set
 * the IGMP and MLD versions and the limits, and what sysfs says of a
 * netdev and of an RDMA port.
 *
 * Every path is under a root directory, "" for the host's own /proc and
 * /sys; the tests point it at a tree of their own (hostmc_root).
 */
#ifndef RDMA_MCM_HOSTMC_H
#define RDMA_MCM_HOSTMC_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where /proc and /sys are: "" (the host's), or a test's tree */
extern const char *hostmc_root;

/*
 * Room for one more of @n elements of @size in the array *@v of capacity
 * *@cap (doubled, from 16): 0, or -1 with *@v unchanged. check.c's tables
 * grow the same way.
 */
int hostmc_grow(void **v, size_t n, size_t *cap, size_t size);

/* A netdev as /proc/net/igmp or igmp6 lists it, in the kernel's order */
struct hm_dev {
	int ifindex;
	char name[IF_NAMESIZE];
	int querier;		/* igmp: the "Querier" column, 1 to 3; 0 */
};

/* A group of a netdev, and its users (sockets and the kernel's own) */
struct hm_group {
	int family;
	int ifindex;
	uint8_t addr[16];	/* IPv4: the first 4 */
	unsigned int users;
};

/* A source of a group's filter on a netdev */
struct hm_filter {
	int family;
	int ifindex;
	uint8_t group[16];
	uint8_t src[16];
	unsigned long inc, exc;
};

/* One family's view: igmp and mcfilter, or igmp6 and mcfilter6 */
struct hm_family {
	int read;		/* igmp(6) could be read */
	int filters_read;	/* mcfilter(6) could be read */
	struct hm_dev *dev;
	size_t ndev;
	struct hm_group *grp;
	size_t ngrp;
	struct hm_filter *flt;
	size_t nflt;
};

struct hostmc {
	struct hm_family v4, v6;
};

/* The parsers, one file each: 0, or -1 (ENOMEM) */
int hm_parse_igmp(FILE *f, struct hm_family *fam);
int hm_parse_igmp6(FILE *f, struct hm_family *fam);
int hm_parse_mcfilter(FILE *f, struct hm_family *fam);
int hm_parse_mcfilter6(FILE *f, struct hm_family *fam);

/* All four files under hostmc_root; a file that cannot be read is not */
void hm_load(struct hostmc *hm);
void hm_free(struct hostmc *hm);

const struct hm_dev *hm_dev_by_name(const struct hm_family *fam,
				    const char *name);
/* The group on netdev @ifindex, or NULL */
const struct hm_group *hm_group_find(const struct hm_family *fam,
				     int ifindex, const uint8_t *addr);
/* Its filter's entry for @src, or NULL */
const struct hm_filter *hm_filter_find(const struct hm_family *fam,
				       int ifindex, const uint8_t *group,
				       const uint8_t *src);
/*
 * Whether mcfilter(6) lists netdev @ifindex's filters at all. The kernel
 * starts the listing at the first netdev whose newest group has sources
 * (igmp_mcf_get_first(), igmp6_mcf_get_first()) and lists every group of
 * the netdevs from there on, in the order of igmp(6): the netdevs before
 * it are not listed.
 */
int hm_filters_listed(const struct hm_family *fam, int ifindex);

/* A netdev of this namespace: its index and flags (SIOCGIFFLAGS's) */
struct hm_netdev {
	int ifindex;
	unsigned int flags;		/* IFF_UP, IFF_RUNNING, IFF_MULTICAST */
};

/*
 * Netdev @name of this process's network namespace (if_nametoindex(),
 * SIOCGIFFLAGS: /sys/class/net may be another namespace's, when it was
 * not mounted again there): 0, or -1 when there is none. Under a test's
 * root, its sys/class/net/NAME/ifindex and flags (IFF_RUNNING included).
 */
int hm_netdev(const char *name, struct hm_netdev *nd);

/*
 * An integer of /proc/sys/@path ("net/ipv4/igmp_max_msf"): 0 and *@v, or
 * -1 when it cannot be read
 */
int hm_sysctl(const char *path, long *v);
/*
 * A one-line file under the root (@fmt: its path, "/sys/..."), without
 * its newline: 0, or -1
 */
int hm_read_line(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The inode number of this process's network namespace, or 0 */
unsigned long hm_netns(void);

#endif /* RDMA_MCM_HOSTMC_H */
