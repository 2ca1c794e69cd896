// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the host's multicast state as the kernel lists it (hostmc.h).
 *
 * The formats are the kernel's seq_file shows (net/ipv4/igmp.c,
 * net/ipv6/mcast.c, unchanged from 6.1 to 7.2):
 *
 *   /proc/net/igmp     a netdev's line "Idx\tName : Count Querier", its
 *                      groups' lines "\t\t\t\tGROUP USERS TIMER REPORTER";
 *                      GROUP is the address's 32 bits as the host holds
 *                      them, in hex (239.1.1.1 is 010101EF on a
 *                      little-endian host); Querier is V1, V2 or V3, the
 *                      version in force (forced, or an older querier's)
 *   /proc/net/igmp6    "Idx Name GROUP USERS FLAGS TIMER", GROUP in 32
 *                      hex digits
 *   /proc/net/mcfilter "Idx Name 0xGROUP 0xSOURCE INC EXC" after a
 *                      header line, the addresses in hex as numbers
 *   /proc/net/mcfilter6 the same with 32 hex digits
 *
 * mcfilter(6) cut a netdev's name to 6 characters: a netdev is known by
 * its index in every file.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hostmc.h"

const char *hostmc_root = "";

/* Room for one more of @n elements of @size in *@v (capacity *@cap) */
int hostmc_grow(void **v, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

static struct hm_dev *add_dev(struct hm_family *fam, size_t *cap)
{
	if (hostmc_grow((void **)&fam->dev, fam->ndev, cap, sizeof(*fam->dev)))
		return NULL;
	memset(&fam->dev[fam->ndev], 0, sizeof(*fam->dev));
	return &fam->dev[fam->ndev++];
}

static struct hm_group *add_group(struct hm_family *fam, size_t *cap)
{
	if (hostmc_grow((void **)&fam->grp, fam->ngrp, cap, sizeof(*fam->grp)))
		return NULL;
	memset(&fam->grp[fam->ngrp], 0, sizeof(*fam->grp));
	return &fam->grp[fam->ngrp++];
}

static struct hm_filter *add_filter(struct hm_family *fam, size_t *cap)
{
	if (hostmc_grow((void **)&fam->flt, fam->nflt, cap, sizeof(*fam->flt)))
		return NULL;
	memset(&fam->flt[fam->nflt], 0, sizeof(*fam->flt));
	return &fam->flt[fam->nflt++];
}

/* 32 hex digits (%pi6) as 16 bytes: 0, or -1 */
static int hex16(const char *s, uint8_t *out)
{
	unsigned int b;
	int i;

	if (strlen(s) != 32)
		return -1;
	for (i = 0; i < 16; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return 0;
}

/* The devices already listed: a device of a later line is a new one */
static struct hm_dev *dev_of(struct hm_family *fam, size_t *cap, int ifindex)
{
	size_t i;

	for (i = 0; i < fam->ndev; i++)
		if (fam->dev[i].ifindex == ifindex)
			return &fam->dev[i];
	return add_dev(fam, cap);
}

int hm_parse_igmp(FILE *f, struct hm_family *fam)
{
	char line[256], name[IF_NAMESIZE], querier[8];
	struct hm_dev *d = NULL;
	struct hm_group *g;
	size_t dcap = 0, gcap = 0;
	unsigned int addr, users;
	int idx, count;

	while (fgets(line, sizeof(line), f)) {
		if (line[0] >= '0' && line[0] <= '9') {
			querier[0] = '\0';
			if (sscanf(line, "%d %15[^: \t] : %d %7s", &idx, name,
				   &count, querier) < 2) {
				d = NULL;
				continue;
			}
			d = dev_of(fam, &dcap, idx);
			if (!d)
				return -1;
			d->ifindex = idx;
			snprintf(d->name, sizeof(d->name), "%s", name);
			d->querier = querier[0] == 'V' &&
				     querier[1] >= '1' && querier[1] <= '3' ?
				     querier[1] - '0' : 0;
			continue;
		}
		if (!d || line[0] != '\t' ||
		    sscanf(line, " %x %u", &addr, &users) != 2)
			continue;
		g = add_group(fam, &gcap);
		if (!g)
			return -1;
		g->family = AF_INET;
		g->ifindex = d->ifindex;
		/* the 32 bits as the host holds them: the address's bytes */
		memcpy(g->addr, &addr, 4);
		g->users = users;
	}
	return 0;
}

int hm_parse_igmp6(FILE *f, struct hm_family *fam)
{
	char line[256], name[IF_NAMESIZE], hex[40];
	size_t dcap = 0, gcap = 0;
	unsigned int users;
	struct hm_group *g;
	struct hm_dev *d;
	int idx;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %15s %39s %u", &idx, name, hex,
			   &users) != 4)
			continue;
		d = dev_of(fam, &dcap, idx);
		g = d ? add_group(fam, &gcap) : NULL;
		if (!g)
			return -1;
		d->ifindex = idx;
		snprintf(d->name, sizeof(d->name), "%s", name);
		g->family = AF_INET6;
		g->ifindex = idx;
		g->users = users;
		if (hex16(hex, g->addr))
			fam->ngrp--;
	}
	return 0;
}

int hm_parse_mcfilter(FILE *f, struct hm_family *fam)
{
	unsigned int group, src;
	unsigned long inc, exc;
	struct hm_filter *e;
	char line[256], name[32];
	size_t cap = 0;
	int idx;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %31s 0x%x 0x%x %lu %lu", &idx, name,
			   &group, &src, &inc, &exc) != 6)
			continue;
		e = add_filter(fam, &cap);
		if (!e)
			return -1;
		e->family = AF_INET;
		e->ifindex = idx;
		/* printed as numbers: in network order they are addresses */
		group = htonl(group);
		src = htonl(src);
		memcpy(e->group, &group, 4);
		memcpy(e->src, &src, 4);
		e->inc = inc;
		e->exc = exc;
	}
	return 0;
}

int hm_parse_mcfilter6(FILE *f, struct hm_family *fam)
{
	char line[256], name[32], group[40], src[40];
	unsigned long inc, exc;
	struct hm_filter *e;
	size_t cap = 0;
	int idx;

	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %31s %39s %39s %lu %lu", &idx, name, group,
			   src, &inc, &exc) != 6)
			continue;
		e = add_filter(fam, &cap);
		if (!e)
			return -1;
		e->family = AF_INET6;
		e->ifindex = idx;
		e->inc = inc;
		e->exc = exc;
		if (hex16(group, e->group) || hex16(src, e->src))
			fam->nflt--;
	}
	return 0;
}

static FILE *open_under_root(const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", hostmc_root, path);
	return fopen(full, "re");
}

/* @path parsed by @parse: 1 when read, 0 when not (or out of memory) */
static int load(const char *path, int (*parse)(FILE *, struct hm_family *),
		struct hm_family *fam)
{
	FILE *f = open_under_root(path);
	int ret;

	if (!f)
		return 0;
	ret = parse(f, fam);
	fclose(f);
	return !ret;
}

void hm_load(struct hostmc *hm)
{
	memset(hm, 0, sizeof(*hm));
	hm->v4.read = load("/proc/net/igmp", hm_parse_igmp, &hm->v4);
	hm->v4.filters_read = load("/proc/net/mcfilter", hm_parse_mcfilter,
				   &hm->v4);
	hm->v6.read = load("/proc/net/igmp6", hm_parse_igmp6, &hm->v6);
	hm->v6.filters_read = load("/proc/net/mcfilter6", hm_parse_mcfilter6,
				   &hm->v6);
}

static void family_free(struct hm_family *fam)
{
	free(fam->dev);
	free(fam->grp);
	free(fam->flt);
}

void hm_free(struct hostmc *hm)
{
	family_free(&hm->v4);
	family_free(&hm->v6);
	memset(hm, 0, sizeof(*hm));
}

const struct hm_dev *hm_dev_by_name(const struct hm_family *fam,
				    const char *name)
{
	size_t i;

	for (i = 0; i < fam->ndev; i++)
		if (!strcmp(fam->dev[i].name, name))
			return &fam->dev[i];
	return NULL;
}

static size_t addr_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

const struct hm_group *hm_group_find(const struct hm_family *fam,
				     int ifindex, const uint8_t *addr)
{
	size_t i;

	for (i = 0; i < fam->ngrp; i++)
		if (fam->grp[i].ifindex == ifindex &&
		    !memcmp(fam->grp[i].addr, addr,
			    addr_len(fam->grp[i].family)))
			return &fam->grp[i];
	return NULL;
}

const struct hm_filter *hm_filter_find(const struct hm_family *fam,
				       int ifindex, const uint8_t *group,
				       const uint8_t *src)
{
	size_t i, n;

	for (i = 0; i < fam->nflt; i++) {
		n = addr_len(fam->flt[i].family);
		if (fam->flt[i].ifindex == ifindex &&
		    !memcmp(fam->flt[i].group, group, n) &&
		    !memcmp(fam->flt[i].src, src, n))
			return &fam->flt[i];
	}
	return NULL;
}

/* The position of netdev @ifindex in igmp(6)'s order, or -1 */
static long dev_pos(const struct hm_family *fam, int ifindex)
{
	size_t i;

	for (i = 0; i < fam->ndev; i++)
		if (fam->dev[i].ifindex == ifindex)
			return (long)i;
	return -1;
}

int hm_filters_listed(const struct hm_family *fam, int ifindex)
{
	long first, pos;

	if (!fam->filters_read || !fam->nflt)
		return 0;
	first = dev_pos(fam, fam->flt[0].ifindex);
	pos = dev_pos(fam, ifindex);
	return first >= 0 && pos >= first;
}

int hm_read_line(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;
	int ok;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = open_under_root(path);
	if (!f)
		return -1;
	ok = !!fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int hm_netdev(const char *name, struct hm_netdev *nd)
{
	struct ifreq ifr;
	char buf[32];
	int fd, ret;

	memset(nd, 0, sizeof(*nd));
	if (*hostmc_root) {
		if (hm_read_line(buf, sizeof(buf), "/sys/class/net/%s/ifindex",
				 name))
			return -1;
		nd->ifindex = atoi(buf);
		if (!hm_read_line(buf, sizeof(buf), "/sys/class/net/%s/flags",
				  name))
			nd->flags = (unsigned int)strtoul(buf, NULL, 0);
		return 0;
	}
	nd->ifindex = (int)if_nametoindex(name);
	if (!nd->ifindex)
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ret = ioctl(fd, SIOCGIFFLAGS, &ifr);
	close(fd);
	if (!ret)
		nd->flags = (unsigned short)ifr.ifr_flags;
	return 0;
}

int hm_sysctl(const char *path, long *v)
{
	char buf[64], *end;

	if (hm_read_line(buf, sizeof(buf), "/proc/sys/%s", path))
		return -1;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	return 0;
}

unsigned long hm_netns(void)
{
	char path[PATH_MAX], link[64];
	unsigned long ino;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/proc/self/ns/net", hostmc_root);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	if (sscanf(link, "net:[%lu]", &ino) != 1)
		return 0;
	return ino;
}
