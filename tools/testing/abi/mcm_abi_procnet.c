// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: what /proc/net says of a group on a device: its IGMP
 * (/proc/net/igmp) or MLD (/proc/net/igmp6) membership, and the source
 * filters of source-specific joins (/proc/net/mcfilter, mcfilter6), read
 * with a probe that makes the listing whole.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcm_abi.h"
#include "mcm_probe.h"

/*
 * /proc/net/mcfilter and mcfilter6 start each device's listing at its
 * newest group: one without sources hides every filter of the device
 * (igmp_mcf_get_first(), igmp6_mcf_get_first()), unless an earlier device
 * listed something. A probe makes the listing whole: a socket of ours
 * with a source-specific join of a group of its own on veth1, newer than
 * any of the test's, for as long as the file is read.
 */
#define PROBE4		"239.5.99.99"
#define PROBE4_SRC	"192.0.2.99"
#define PROBE6		"ff0e::6:99"
#define PROBE6_SRC	"2001:db8:6::99"

static int probe_open(int family)
{
	int fd = mcm_probe_join(family, if_nametoindex("veth1"),
				family == AF_INET ? PROBE4 : PROBE6,
				family == AF_INET ? PROBE4_SRC : PROBE6_SRC);

	if (fd < 0)
		printf("    # the probe of /proc/net/mcfilter%s: %s\n",
		       family == AF_INET ? "" : "6", strerror(errno));
	return fd;
}

static void probe_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * /proc/net/mcfilter: the INC count of @source in @dev's filter of
 * @group (IPv4, as text), or -1 when it lists no such entry.
 */
long filter_inc(const char *dev, const char *group, const char *source)
{
	unsigned int g, s, mg, ms;
	unsigned long inc, exc;
	char line[256], d[32];
	struct in_addr a;
	long ret = -1;
	int idx;
	int probe = probe_open(AF_INET);
	FILE *f = fopen("/proc/net/mcfilter", "r");

	if (!f) {
		probe_close(probe);
		return -2;
	}
	inet_pton(AF_INET, group, &a);
	mg = ntohl(a.s_addr);
	inet_pton(AF_INET, source, &a);
	ms = ntohl(a.s_addr);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %31s %x %x %lu %lu", &idx, d, &g, &s,
			   &inc, &exc) == 6 && !strcmp(d, dev) && g == mg &&
		    s == ms)
			ret = inc;
	fclose(f);
	probe_close(probe);
	return ret;
}

/* Entries of /proc/net/mcfilter for @group on any device */
int filters_of(const char *group)
{
	unsigned int g, s, mg;
	unsigned long inc, exc;
	char line[256], d[32];
	struct in_addr a;
	int idx, n = 0;
	int probe = probe_open(AF_INET);
	FILE *f = fopen("/proc/net/mcfilter", "r");

	if (!f) {
		probe_close(probe);
		return -1;
	}
	inet_pton(AF_INET, group, &a);
	mg = ntohl(a.s_addr);
	while (fgets(line, sizeof(line), f))
		n += sscanf(line, "%d %31s %x %x %lu %lu", &idx, d, &g, &s,
			    &inc, &exc) == 6 && g == mg;
	fclose(f);
	probe_close(probe);
	return n;
}

/* An IPv6 address as /proc/net/igmp6 and mcfilter6 print it (%pi6) */
static void hex6(const char *addr, char *out)
{
	struct in6_addr a;
	int i;

	inet_pton(AF_INET6, addr, &a);
	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", a.s6_addr[i]);
}

/* /proc/net/mcfilter6: INC of @source in @dev's filter of @group, or -1 */
long filter6_inc(const char *dev, const char *group, const char *source)
{
	char line[256], d[32], g[40], s[40], wg[40], ws[40];
	unsigned long inc, exc;
	long ret = -1;
	int idx;
	int probe = probe_open(AF_INET6);
	FILE *f = fopen("/proc/net/mcfilter6", "r");

	if (!f) {
		probe_close(probe);
		return -2;
	}
	hex6(group, wg);
	hex6(source, ws);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %31s %39s %39s %lu %lu", &idx, d, g, s,
			   &inc, &exc) == 6 && !strcmp(d, dev) &&
		    !strcmp(g, wg) && !strcmp(s, ws))
			ret = inc;
	fclose(f);
	probe_close(probe);
	return ret;
}

/* Entries of /proc/net/mcfilter6 whose group starts with @prefix (hex), the probe's not */
int filters6_of(const char *prefix)
{
	char line[256], d[32], g[40], s[40], pg[40];
	unsigned long inc, exc;
	int idx, n = 0;
	int probe = probe_open(AF_INET6);
	FILE *f = fopen("/proc/net/mcfilter6", "r");

	if (!f) {
		probe_close(probe);
		return -1;
	}
	hex6(PROBE6, pg);
	while (fgets(line, sizeof(line), f))
		n += sscanf(line, "%d %31s %39s %39s %lu %lu", &idx, d, g, s,
			    &inc, &exc) == 6 &&
		     !strncmp(g, prefix, strlen(prefix)) && strcmp(g, pg);
	fclose(f);
	probe_close(probe);
	return n;
}

/* Does /proc/net/igmp6 list @group on @dev? */
int igmp6_lists(const char *dev, const char *group)
{
	char line[256], d[32], g[40], want[40];
	int idx, found = 0;
	FILE *f = fopen("/proc/net/igmp6", "r");

	if (!f)
		return -1;
	hex6(group, want);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %31s %39s", &idx, d, g) == 3 &&
		    !strcmp(d, dev) && !strcmp(g, want))
			found = 1;
	fclose(f);
	return found;
}

/* Does /proc/net/igmp list IPv4 @group on @dev? */
int igmp_on(const char *dev, const char *group)
{
	char line[256], d[32], hex[16];
	unsigned int a, b, c, e;
	int found = 0, in = 0, idx;
	FILE *f = fopen("/proc/net/igmp", "r");

	if (!f)
		return -1;
	if (sscanf(group, "%u.%u.%u.%u", &a, &b, &c, &e) != 4) {
		fclose(f);
		return -1;
	}
	snprintf(hex, sizeof(hex), "%02X%02X%02X%02X", e, c, b, a);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %31s", &idx, d) == 2 && line[0] != '\t')
			in = !strcmp(d, dev);
		else if (in && strstr(line, hex))
			found = 1;
	}
	fclose(f);
	return found;
}
