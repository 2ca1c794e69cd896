// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_mcfilter: print /proc/net/mcfilter (or, with -6, mcfilter6) whole,
 * for the VM tests' source filter checks (tools/testing/vm/lib.sh).
 *
 *   mcm_mcfilter [-6] [IFACE...]
 *
 * The kernel's reader starts a device's listing only if the device's
 * newest group has sources (igmp_mcf_get_first(), igmp6_mcf_get_first():
 * only the head of each device's list is looked at until one has sources;
 * from there on every group of every later device is listed). A device
 * whose newest group is an any-source one is skipped whole, unless an
 * earlier device was listed: "no entry" could then be a check that
 * cannot fail. So, while it reads the file, mcm_mcfilter holds a probe on
 * each IFACE (default: veth0 and veth1): a socket of its own with a
 * source-specific join (MCAST_JOIN_SOURCE_GROUP) of a group no test uses,
 * 239.254.77.77 from 192.0.2.254 or ff0e::fe:77 from 2001:db8::fe:77,
 * which makes it the device's newest group, with a source. It then checks
 * that the listing shows each probe: a device whose probe is listed has
 * all its groups listed (the walk takes a device from the head of its
 * list). The probes' own lines are not printed. A probe is found by the
 * Idx column (the IFACE's ifindex), not by the Device one: the kernel
 * prints that with "%6.6s", a name cut to six characters.
 *
 * Exit status: 0 with the listing on stdout (header included); 1 when a
 * probe could not be made, the file not read, or a probe is missing from
 * it (the listing would not be whole): the caller's check must fail then.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcm_probe.h"

#define PROBE4		"239.254.77.77"
#define PROBE4_SRC	"192.0.2.254"
#define PROBE6		"ff0e::fe:77"
#define PROBE6_SRC	"2001:db8::fe:77"
#define MAX_IFACES	16

static const char *prog = "mcm_mcfilter";

/*
 * A socket with a source-specific join of the probe on @ifname, or -1;
 * @ifname's index in *@ifindex (0 when there is no such interface)
 */
static int probe_open(int family, const char *ifname, unsigned int *ifindex)
{
	int fd;

	*ifindex = if_nametoindex(ifname);
	if (!*ifindex) {
		fprintf(stderr, "%s: %s: %s\n", prog, ifname, strerror(errno));
		return -1;
	}
	fd = mcm_probe_join(family, *ifindex,
			    family == AF_INET ? PROBE4 : PROBE6,
			    family == AF_INET ? PROBE4_SRC : PROBE6_SRC);
	if (fd < 0)
		fprintf(stderr, "%s: the probe on %s: %s\n", prog, ifname,
			strerror(errno));
	return fd;
}

/* The group and source of the probe as the file prints them */
static void probe_text(int family, char *group, char *source, size_t len)
{
	struct in6_addr a6;
	struct in_addr a4;
	int i;

	if (family == AF_INET) {
		inet_pton(AF_INET, PROBE4, &a4);
		snprintf(group, len, "0x%08x", ntohl(a4.s_addr));
		inet_pton(AF_INET, PROBE4_SRC, &a4);
		snprintf(source, len, "0x%08x", ntohl(a4.s_addr));
		return;
	}
	inet_pton(AF_INET6, PROBE6, &a6);
	for (i = 0; i < 16; i++)
		sprintf(group + 2 * i, "%02x", a6.s6_addr[i]);
	inet_pton(AF_INET6, PROBE6_SRC, &a6);
	for (i = 0; i < 16; i++)
		sprintf(source + 2 * i, "%02x", a6.s6_addr[i]);
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = { "veth0", "veth1" };
	const char *ifaces[MAX_IFACES];
	char line[512], dev[64], g[64], s[64], pg[64], ps[64];
	int fds[MAX_IFACES], seen[MAX_IFACES] = { 0 };
	unsigned int ifindex[MAX_IFACES];
	int family = AF_INET, n = 0, i, idx, ret = 0;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-6")) {
			family = AF_INET6;
			continue;
		}
		if (argv[i][0] == '-' || n == MAX_IFACES) {
			fprintf(stderr, "usage: %s [-6] [IFACE...] (at most %d)\n",
				prog, MAX_IFACES);
			return 2;
		}
		ifaces[n++] = argv[i];
	}
	if (!n)
		for (; n < 2; n++)
			ifaces[n] = dflt[n];
	for (i = 0; i < n; i++) {
		fds[i] = probe_open(family, ifaces[i], &ifindex[i]);
		if (fds[i] < 0)
			ret = 1;
	}
	probe_text(family, pg, ps, sizeof(pg));
	f = ret ? NULL : fopen(family == AF_INET ? "/proc/net/mcfilter" :
			       "/proc/net/mcfilter6", "r");
	if (!ret && !f) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		ret = 1;
	}
	/* rows "Idx Device MCA SRC INC EXC"; Device is cut to 6 characters */
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %63s %63s %63s", &idx, dev, g, s) == 4 &&
		    !strcmp(g, pg) && !strcmp(s, ps)) {
			for (i = 0; i < n; i++)
				seen[i] |= idx >= 0 && (unsigned int)idx == ifindex[i];
			continue;
		}
		fputs(line, stdout);
	}
	if (f)
		fclose(f);
	for (i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		if (!ret && !seen[i]) {
			fprintf(stderr, "%s: the probe on %s is not listed: %s\n",
				prog, ifaces[i], "the listing is not whole");
			ret = 1;
		}
	}
	return ret;
}
