// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_sniff: print the IGMP and MLD membership reports that cross one
 * network interface, one line per group record, so that the VM tests
 * (tools/testing/vm/62-ipv6.sh, 63-ssm.sh) can see what the kernel told
 * the network when rdma_mcm joined or left a group, with or without
 * sources.
 *
 *   mcm_sniff -i IFACE [-t SECONDS] [-c COUNT] [-d in|out] [-j]
 *             [--until GROUP[,TYPE[/TYPE...]][,SRC]]
 *
 * An AF_PACKET socket (SOCK_DGRAM, ETH_P_ALL, bound to IFACE) sees both
 * directions: what the host sends out of IFACE and what arrives on it. A
 * classic BPF filter keeps IPv4 protocol 2 (IGMP) and IPv6 packets whose
 * next header is hop-by-hop options (MLD's router alert) or ICMPv6. What
 * is printed:
 *
 *   igmpv3 GROUP TYPE SRC,SRC...   an IGMPv3 report's group record (0x22)
 *   mldv2 GROUP TYPE SRC,SRC...    an MLDv2 report's group record (143)
 *	TYPE: is_in, is_ex, to_in, to_ex, allow, block (RFC 3376 4.2.12,
 *	RFC 3810 5.2.12); no source: "-"
 *   igmpv1 GROUP report -  igmpv2 GROUP report -  igmpv2 GROUP leave -
 *   mldv1 GROUP report -   mldv1 GROUP done -
 *
 * With -j each record is a JSON object on a line:
 *   {"proto":"igmpv3","dir":"in","from":"192.0.2.2","group":"232.1.1.1",
 *    "type":"allow","sources":["192.0.2.1"]}
 * ("dir": "out" for what the host sent on IFACE, "in" for what it
 * received; "from": the report's IP source address).
 *
 * "listening" goes to stderr once the socket is bound and filtered: a
 * report sent after that line is seen. Exit status: 0 when --until matched
 * or COUNT records were printed, 1 on timeout (-t), 2 on a usage error or
 * a failure (the message says which).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SRC_TEXT	(64 * 1024)

static const char *prog = "mcm_sniff";

static const char usage_text[] =
"Usage: mcm_sniff -i IFACE [-t SECONDS] [-c COUNT] [-d in|out] [-j]\n"
"                 [--until GROUP[,TYPE[/TYPE...]][,SRC]]\n"
"Print the IGMP and MLD reports crossing IFACE, one line per group record:\n"
"  igmpv3|mldv2 GROUP TYPE SRC,SRC...   (TYPE is_in is_ex to_in to_ex allow\n"
"                                       block; no source: -)\n"
"  igmpv1|igmpv2|mldv1 GROUP report|leave|done -\n"
"\n"
"  -i, --interface IFACE  the interface (both directions)\n"
"  -t, --timeout SECONDS  give up after SECONDS: exit status 1\n"
"  -c, --count COUNT      exit 0 after COUNT records\n"
"  -d, --direction DIR    only records the host sent (out) or received (in)\n"
"  -u, --until GROUP[,TYPE[/TYPE...]][,SRC]\n"
"                         exit 0 after the first record of GROUP (of one of\n"
"                         these TYPEs, listing SRC); an empty TYPE is any\n"
"  -j, --json             one JSON object per record\n"
"  -h, --help             this help\n"
"Prints \"listening\" on stderr once it captures. Exit status: 0 matched or\n"
"counted, 1 timeout, 2 error.\n";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(2);
}

static void fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(2);
}

/* An address of either family, as parsed from the command line or a packet */
struct addr {
	int family;		/* AF_INET, AF_INET6 */
	uint8_t a[16];
};

static bool addr_parse(const char *s, struct addr *out)
{
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, s, out->a) == 1) {
		out->family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, out->a) == 1) {
		out->family = AF_INET6;
		return true;
	}
	return false;
}

static bool addr_eq(const struct addr *x, int family, const uint8_t *a)
{
	return x->family == family &&
	       !memcmp(x->a, a, family == AF_INET ? 4 : 16);
}

static const char *addr_text(int family, const uint8_t *a, char *buf,
			     size_t len)
{
	return inet_ntop(family, a, buf, len);
}

/* --until GROUP[,TYPE[/TYPE...]][,SRC] */
struct until {
	bool set;
	struct addr group;
	char types[128];	/* "/allow/to_in/", or "" for any */
	bool has_src;
	struct addr src;
};

static void until_parse(const char *arg, struct until *u)
{
	char buf[256], *type = NULL, *src = NULL, *p;

	if (strlen(arg) >= sizeof(buf))
		usage_error("--until '%s' is too long", arg);
	strcpy(buf, arg);
	p = strchr(buf, ',');
	if (p) {
		*p++ = '\0';
		type = p;
		p = strchr(p, ',');
		if (p) {
			*p++ = '\0';
			src = p;
		}
	}
	if (!addr_parse(buf, &u->group))
		usage_error("--until: '%s' is not an IPv4 or IPv6 address", buf);
	u->types[0] = '\0';
	if (type && *type) {
		if (strlen(type) + 3 > sizeof(u->types))
			usage_error("--until: type list '%s' is too long", type);
		snprintf(u->types, sizeof(u->types), "/%s/", type);
	}
	if (src && *src) {
		if (!addr_parse(src, &u->src))
			usage_error("--until: source '%s' is not an IPv4 or IPv6 address",
				    src);
		if (u->src.family != u->group.family)
			usage_error("--until: source '%s' is not of the group's family",
				    src);
		u->has_src = true;
	}
	u->set = true;
}

static struct {
	bool json;
	int dir;		/* 0 any, 1 in, 2 out */
	long count;		/* 0: no limit */
	long printed;
	struct until until;
	bool matched;
} opt;

static const char *const rec_type_names[] = {
	[1] = "is_in", [2] = "is_ex", [3] = "to_in",
	[4] = "to_ex", [5] = "allow", [6] = "block",
};

static const char *rec_type_name(unsigned int t, char *buf, size_t len)
{
	if (t < sizeof(rec_type_names) / sizeof(rec_type_names[0]) &&
	    rec_type_names[t])
		return rec_type_names[t];
	snprintf(buf, len, "type%u", t);
	return buf;
}

static bool type_listed(const char *types, const char *type)
{
	char key[40];

	if (!*types)
		return true;
	snprintf(key, sizeof(key), "/%s/", type);
	return strstr(types, key);
}

/*
 * One group record: print it, and see whether it ends the run. @srcs holds
 * @nsrc addresses of the family's size one after the other.
 */
static void record(const char *proto, bool out, int family,
		   const uint8_t *from, const uint8_t *group, const char *type,
		   const uint8_t *srcs, unsigned int nsrc)
{
	static char text[MAX_SRC_TEXT];
	size_t alen = family == AF_INET ? 4 : 16, used = 0;
	char g[INET6_ADDRSTRLEN], f[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN];
	bool src_hit = false;
	unsigned int i;

	if ((opt.dir == 1 && out) || (opt.dir == 2 && !out))
		return;
	addr_text(family, group, g, sizeof(g));
	addr_text(family, from, f, sizeof(f));
	text[0] = '\0';
	for (i = 0; i < nsrc; i++) {
		const uint8_t *a = srcs + i * alen;

		if (opt.until.has_src && addr_eq(&opt.until.src, family, a))
			src_hit = true;
		addr_text(family, a, s, sizeof(s));
		if (used + strlen(s) + 8 >= sizeof(text))
			break;	/* cannot happen within one packet's size */
		used += snprintf(text + used, sizeof(text) - used,
				 opt.json ? "%s\"%s\"" : "%s%s",
				 i ? "," : "", s);
	}
	if (opt.json) {
		printf("{\"proto\":\"%s\",\"dir\":\"%s\",\"from\":\"%s\",",
		       proto, out ? "out" : "in", f);
		printf("\"group\":\"%s\",\"type\":\"%s\",\"sources\":[%s]}\n",
		       g, type, text);
	} else {
		printf("%s %s %s %s\n", proto, g, type, nsrc ? text : "-");
	}
	opt.printed++;
	if (opt.until.set && addr_eq(&opt.until.group, family, group) &&
	    type_listed(opt.until.types, type) &&
	    (!opt.until.has_src || src_hit))
		opt.matched = true;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* IGMP message @m of @len bytes, from IPv4 address @from */
static void parse_igmp(const uint8_t *m, size_t len, bool out,
		       const uint8_t *from)
{
	char tbuf[16];
	size_t off;
	unsigned int n, i;

	if (len < 8)
		return;
	switch (m[0]) {
	case 0x12:
		record("igmpv1", out, AF_INET, from, m + 4, "report", NULL, 0);
		return;
	case 0x16:
		record("igmpv2", out, AF_INET, from, m + 4, "report", NULL, 0);
		return;
	case 0x17:
		record("igmpv2", out, AF_INET, from, m + 4, "leave", NULL, 0);
		return;
	case 0x22:
		break;
	default:
		return;		/* queries and the rest */
	}
	n = get16(m + 6);
	off = 8;
	for (i = 0; i < n; i++) {
		unsigned int nsrc, aux;

		if (off + 8 > len)
			return;
		aux = m[off + 1];
		nsrc = get16(m + off + 2);
		if (off + 8 + nsrc * 4 + aux * 4 > len)
			return;	/* truncated: print nothing of it */
		record("igmpv3", out, AF_INET, from, m + off + 4,
		       rec_type_name(m[off], tbuf, sizeof(tbuf)),
		       m + off + 8, nsrc);
		off += 8 + nsrc * 4 + aux * 4;
	}
}

/* ICMPv6 message @m of @len bytes, from IPv6 address @from */
static void parse_mld(const uint8_t *m, size_t len, bool out,
		      const uint8_t *from)
{
	char tbuf[16];
	size_t off;
	unsigned int n, i;

	if (len < 8)
		return;
	switch (m[0]) {
	case 131:
	case 132:
		if (len >= 24)
			record("mldv1", out, AF_INET6, from, m + 8,
			       m[0] == 131 ? "report" : "done", NULL, 0);
		return;
	case 143:
		break;
	default:
		return;
	}
	n = get16(m + 6);
	off = 8;
	for (i = 0; i < n; i++) {
		unsigned int nsrc, aux;

		if (off + 20 > len)
			return;
		aux = m[off + 1];
		nsrc = get16(m + off + 2);
		if (off + 20 + nsrc * 16 + aux * 4 > len)
			return;
		record("mldv2", out, AF_INET6, from, m + off + 4,
		       rec_type_name(m[off], tbuf, sizeof(tbuf)),
		       m + off + 20, nsrc);
		off += 20 + nsrc * 16 + aux * 4;
	}
}

static void parse_ipv4(const uint8_t *p, size_t len, bool out)
{
	size_t ihl, tot;

	if (len < 20 || p[0] >> 4 != 4)
		return;
	ihl = (size_t)(p[0] & 0xf) * 4;
	tot = get16(p + 2);
	if (ihl < 20 || tot < ihl || tot > len)
		return;
	if (get16(p + 6) & 0x3fff)
		return;		/* a fragment: reports are never fragmented */
	if (p[9] == IPPROTO_IGMP)
		parse_igmp(p + ihl, tot - ihl, out, p + 12);
}

static void parse_ipv6(const uint8_t *p, size_t len, bool out)
{
	size_t off = 40, end;
	uint8_t nh;

	if (len < 40 || p[0] >> 4 != 6)
		return;
	end = 40 + (size_t)get16(p + 4);
	if (end > len)
		return;
	nh = p[6];
	/* extension headers before ICMPv6: MLD carries hop-by-hop options */
	while (nh == IPPROTO_HOPOPTS || nh == IPPROTO_DSTOPTS ||
	       nh == IPPROTO_ROUTING) {
		if (off + 8 > end)
			return;
		nh = p[off];
		off += ((size_t)p[off + 1] + 1) * 8;
	}
	if (nh == IPPROTO_ICMPV6 && off < end)
		parse_mld(p + off, end - off, out, p + 8);
}

/*
 * Keep IGMP (IPv4 protocol 2) and IPv6 with next header hop-by-hop (0) or
 * ICMPv6 (58): offsets are from the network header (SOCK_DGRAM).
 */
static void attach_filter(int fd)
{
	static struct sock_filter code[] = {
		/* 0: A = the packet's protocol (host order) */
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IP, 0, 2),	/* 1 */
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 9),	/* 2: IPv4 protocol */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_IGMP, 4, 5),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IPV6, 0, 4),	/* 4 */
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 6),	/* 5: next header */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_HOPOPTS, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_ICMPV6, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),	/* 8: keep */
		BPF_STMT(BPF_RET | BPF_K, 0),		/* 9: drop */
	};
	struct sock_fprog fprog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog,
		       sizeof(fprog)))
		fail("SO_ATTACH_FILTER");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'c' },
		{ "direction", required_argument, NULL, 'd' },
		{ "until", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static uint8_t buf[65536];
	const char *iface = NULL;
	double timeout = 0, deadline = 0;
	struct sockaddr_ll sll;
	unsigned int ifindex;
	char *end;
	int c, fd, rcvbuf = 4 << 20;

	while ((c = getopt_long(argc, argv, "i:t:c:d:u:jh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			iface = optarg;
			break;
		case 't':
			timeout = strtod(optarg, &end);
			if (*end || end == optarg || timeout <= 0)
				usage_error("-t: '%s' is not a number of seconds above 0",
					    optarg);
			break;
		case 'c':
			opt.count = strtol(optarg, &end, 10);
			if (*end || end == optarg || opt.count <= 0)
				usage_error("-c: '%s' is not a count above 0",
					    optarg);
			break;
		case 'd':
			if (!strcmp(optarg, "in"))
				opt.dir = 1;
			else if (!strcmp(optarg, "out"))
				opt.dir = 2;
			else
				usage_error("-d: '%s' is neither in nor out",
					    optarg);
			break;
		case 'u':
			until_parse(optarg, &opt.until);
			break;
		case 'j':
			opt.json = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "Try '%s --help'.\n", prog);
			return 2;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!iface)
		usage_error("%s", "no interface: -i IFACE");
	ifindex = if_nametoindex(iface);
	if (!ifindex) {
		fprintf(stderr, "%s: no interface '%s': %s\n", prog, iface,
			strerror(errno));
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	if (fd < 0) {
		fprintf(stderr, "%s: socket(AF_PACKET): %s%s\n", prog,
			strerror(errno),
			errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		return 2;
	}
	attach_filter(fd);
	/* reports come in bursts (a report per group and its retransmits) */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		fail("bind to the interface");
	fputs("listening\n", stderr);
	if (timeout)
		deadline = now() + timeout;

	while (!opt.matched && (!opt.count || opt.printed < opt.count)) {
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = -1, r;
		ssize_t n;

		if (timeout) {
			double left = deadline - now();

			if (left <= 0)
				break;
			wait = (int)(left * 1000) + 1;
		}
		r = poll(&pfd, 1, wait);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fail("poll");
		}
		if (!r)
			continue;	/* the deadline, checked above */
		n = recvfrom(fd, buf, sizeof(buf), MSG_TRUNC,
			     (struct sockaddr *)&from, &fromlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("recvfrom");
		}
		if ((size_t)n > sizeof(buf))
			continue;	/* larger than any report */
		if (from.sll_ifindex != (int)ifindex)
			continue;
		switch (ntohs(from.sll_protocol)) {
		case ETH_P_IP:
			parse_ipv4(buf, (size_t)n,
				   from.sll_pkttype == PACKET_OUTGOING);
			break;
		case ETH_P_IPV6:
			parse_ipv6(buf, (size_t)n,
				   from.sll_pkttype == PACKET_OUTGOING);
			break;
		}
	}
	if (opt.matched || (opt.count && opt.printed >= opt.count))
		return 0;
	fprintf(stderr, "%s: timeout after %g s: %ld record(s)%s\n", prog,
		timeout, opt.printed,
		opt.until.set ? ", none matching --until" : "");
	return 1;
}
