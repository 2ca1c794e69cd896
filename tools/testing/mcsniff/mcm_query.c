// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_query: send IGMP or MLD membership queries out of one interface, as
 * a querier (a router, a snooping switch) does, so that the VM tests
 * (tools/testing/vm/79-check.sh) can play the network's side of the veth
 * pair: rdma-mcm check hears them, and the host on the other end answers
 * them and switches its IGMP/MLD version as RFC 3376 and 3810 say.
 *
 *   mcm_query -i IFACE -V igmpv1|igmpv2|igmpv3|mldv1|mldv2 [-s SRC]
 *             [-g GROUP] [-m CODE] [-q QQIC] [-r QRV] [-c COUNT]
 *             [-w MSEC] [-R]
 *
 * A raw socket (IPPROTO_IGMP, or ICMPv6 with the kernel's checksum) sends
 * each query to 224.0.0.1 (ff02::1), or to GROUP for a group-specific
 * one, with TTL / hop limit 1, a router alert (IPv4 option, IPv6
 * hop-by-hop option 0: MLD), without looping it back to this host's
 * own sockets. -s binds the source: an IPv4 address of IFACE, or a
 * link-local IPv6 one (MLD queries from another address are dropped by
 * the receiving stack).
 *
 *   -m CODE  the Max Resp Code as sent (IGMPv2/v3: tenths of a second,
 *            default 100; MLD: milliseconds, default 10000); IGMPv1's 0
 *   -q QQIC  IGMPv3/MLDv2 query interval code (default 125)
 *   -r QRV   IGMPv3/MLDv2 robustness variable (default 2)
 *   -c COUNT queries to send (default 1; 0: until killed)
 *   -w MSEC  between two of them (default 300)
 *   -R       MLD without its Router Alert option (a query the host drops)
 *
 * With -c, prints "sent N" on stdout at the end; with -c 0 it runs until
 * a signal ends it. Exit status 0, 1 when a send failed, 2 on a usage
 * error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
"Usage: mcm_query -i IFACE -V igmpv1|igmpv2|igmpv3|mldv1|mldv2 [-s SRC]\n"
"                 [-g GROUP] [-m CODE] [-q QQIC] [-r QRV] [-c COUNT]\n"
"                 [-w MSEC] [-R]\n"
"Send IGMP or MLD membership queries out of IFACE (general, or for GROUP).\n";

static void usage_error(const char *why, const char *arg)
{
	fprintf(stderr, "mcm_query: %s%s\n%s", why, arg ? arg : "",
		usage_text);
	exit(2);
}

static unsigned long parse_number(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > max)
		usage_error("not a number in range: ", s);
	return v;
}

static uint16_t csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

struct opts {
	const char *ifname, *src, *group;
	int family, version;
	unsigned long code, qqic, qrv, count, wait_ms;
	int code_set;
	int no_ra;
};

/* The IGMP query of @o: its length */
static size_t igmp_query(const struct opts *o, uint8_t *m)
{
	size_t len = o->version == 3 ? 12 : 8;
	uint16_t c;

	memset(m, 0, 12);
	m[0] = 0x11;
	m[1] = o->version == 1 ? 0 : (uint8_t)o->code;
	if (o->group)
		inet_pton(AF_INET, o->group, m + 4);
	if (o->version == 3) {
		m[8] = (uint8_t)(o->qrv & 7);
		m[9] = (uint8_t)o->qqic;
	}
	c = csum(m, len);
	m[2] = (uint8_t)(c >> 8);
	m[3] = (uint8_t)c;
	return len;
}

/* The MLD query of @o (the kernel sums it): its length */
static size_t mld_query(const struct opts *o, uint8_t *m)
{
	size_t len = o->version == 2 ? 28 : 24;

	memset(m, 0, 28);
	m[0] = 130;
	m[4] = (uint8_t)(o->code >> 8);
	m[5] = (uint8_t)o->code;
	if (o->group)
		inet_pton(AF_INET6, o->group, m + 8);
	if (o->version == 2) {
		m[24] = (uint8_t)(o->qrv & 7);
		m[25] = (uint8_t)o->qqic;
	}
	return len;
}

static void fail(const char *what)
{
	fprintf(stderr, "mcm_query: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A raw socket that sends out of @ifindex, from @o->src; its fd */
static int open4(const struct opts *o, unsigned int ifindex,
		 struct sockaddr_storage *dst)
{
	static const uint8_t ra[4] = { 0x94, 0x04, 0, 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)dst;
	struct ip_mreqn mr = { .imr_ifindex = (int)ifindex };
	struct sockaddr_in src = { .sin_family = AF_INET };
	int fd, one = 1, zero = 0;

	fd = socket(AF_INET, SOCK_RAW, IPPROTO_IGMP);
	if (fd < 0)
		fail("socket");
	if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof(mr)) ||
	    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &one, sizeof(one)) ||
	    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &zero,
		       sizeof(zero)) ||
	    setsockopt(fd, IPPROTO_IP, IP_OPTIONS, ra, sizeof(ra)))
		fail("setsockopt");
	if (o->src) {
		if (inet_pton(AF_INET, o->src, &src.sin_addr) != 1)
			usage_error("bad IPv4 source: ", o->src);
		if (bind(fd, (struct sockaddr *)&src, sizeof(src)))
			fail("bind");
	}
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, o->group ? o->group : "224.0.0.1", &sin->sin_addr);
	return fd;
}

static int open6(const struct opts *o, unsigned int ifindex,
		 struct sockaddr_storage *dst)
{
	/* hop-by-hop options: router alert 0 (MLD), PadN of 0 bytes */
	static const uint8_t hbh[8] = { 0, 0, 5, 2, 0, 0, 1, 0 };
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)dst;
	struct sockaddr_in6 src = { .sin6_family = AF_INET6 };
	int fd, one = 1, zero = 0, idx = (int)ifindex;

	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	if (fd < 0)
		fail("socket");
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &idx,
		       sizeof(idx)) ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &one,
		       sizeof(one)) ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &zero,
		       sizeof(zero)) ||
	    (!o->no_ra &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_HOPOPTS, hbh, sizeof(hbh))))
		fail("setsockopt");
	if (o->src) {
		if (inet_pton(AF_INET6, o->src, &src.sin6_addr) != 1)
			usage_error("bad IPv6 source: ", o->src);
		src.sin6_scope_id = ifindex;
		if (bind(fd, (struct sockaddr *)&src, sizeof(src)))
			fail("bind");
	}
	sin6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, o->group ? o->group : "ff02::1",
		  &sin6->sin6_addr);
	sin6->sin6_scope_id = ifindex;
	return fd;
}

static void parse(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->qqic = 125;
	o->qrv = 2;
	o->count = 1;
	o->wait_ms = 300;
	while ((c = getopt(argc, argv, "i:V:s:g:m:q:r:c:w:Rh")) != -1) {
		switch (c) {
		case 'i':
			o->ifname = optarg;
			break;
		case 'V':
			if (!strncmp(optarg, "igmpv", 5))
				o->family = AF_INET;
			else if (!strncmp(optarg, "mldv", 4))
				o->family = AF_INET6;
			o->version = optarg[strlen(optarg) - 1] - '0';
			if (!o->family || o->version < 1 ||
			    o->version > (o->family == AF_INET ? 3 : 2) ||
			    strlen(optarg) != (o->family == AF_INET ? 6u : 5u))
				usage_error("bad version: ", optarg);
			break;
		case 's':
			o->src = optarg;
			break;
		case 'g':
			o->group = optarg;
			break;
		case 'm':
			o->code = parse_number(optarg, 65535);
			o->code_set = 1;
			break;
		case 'q':
			o->qqic = parse_number(optarg, 255);
			break;
		case 'r':
			o->qrv = parse_number(optarg, 7);
			break;
		case 'c':
			o->count = parse_number(optarg, 1000000);
			break;
		case 'w':
			o->wait_ms = parse_number(optarg, 60000);
			break;
		case 'R':
			o->no_ra = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			usage_error("bad option", NULL);
		}
	}
	if (!o->ifname || !o->family || optind != argc)
		usage_error("-i IFACE and -V VERSION are needed", NULL);
	if (!o->code_set)
		o->code = o->family == AF_INET ? 100 : 10000;
	if (o->family == AF_INET && o->code > 255)
		usage_error("an IGMP code is at most 255", NULL);
}

int main(int argc, char **argv)
{
	struct timespec gap;
	struct sockaddr_storage dst;
	unsigned long sent = 0;
	unsigned int ifindex;
	uint8_t m[28];
	struct opts o;
	size_t len;
	int fd;

	parse(argc, argv, &o);
	ifindex = if_nametoindex(o.ifname);
	if (!ifindex)
		fail(o.ifname);
	memset(&dst, 0, sizeof(dst));
	if (o.family == AF_INET) {
		fd = open4(&o, ifindex, &dst);
		len = igmp_query(&o, m);
	} else {
		fd = open6(&o, ifindex, &dst);
		len = mld_query(&o, m);
	}
	gap.tv_sec = (time_t)(o.wait_ms / 1000);
	gap.tv_nsec = (long)(o.wait_ms % 1000) * 1000000;
	while (!o.count || sent < o.count) {
		if (sendto(fd, m, len, 0, (struct sockaddr *)&dst,
			   o.family == AF_INET ? sizeof(struct sockaddr_in) :
			   sizeof(struct sockaddr_in6)) != (ssize_t)len)
			fail("sendto");
		sent++;
		if (!o.count || sent < o.count)
			nanosleep(&gap, NULL);
	}
	printf("sent %lu\n", sent);
	close(fd);
	return 0;
}
