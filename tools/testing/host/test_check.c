// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of rdma-mcm check's parsers: the IGMP and MLD queries as a
 * raw socket gives them (tools/rdma-mcm/querier.c), and the kernel's
 * /proc/net/igmp, igmp6, mcfilter and mcfilter6 (hostmc.c), fed as the
 * kernel writes them (net/ipv4/igmp.c, net/ipv6/mcast.c: the seq_printf()
 * formats). cli/96-check.sh runs the command on a tree of such files.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hostmc.h"
#include "querier.h"

/* --- IGMP ------------------------------------------------------------------- */

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static unsigned int csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/*
 * An IPv4 packet from 192.0.2.9 with @opt bytes of options (a router
 * alert) and the IGMP message @m of @len bytes, its checksum set: its
 * length
 */
static size_t igmp_pkt(uint8_t *pkt, const uint8_t *m, size_t len, int opt)
{
	size_t hl = 20 + (opt ? 4 : 0);

	memset(pkt, 0, hl);
	pkt[0] = (uint8_t)(0x40 | hl / 4);
	put16(pkt + 2, (unsigned int)(hl + len));
	pkt[8] = 1;
	pkt[9] = IPPROTO_IGMP;
	pkt[12] = 192;
	pkt[14] = 2;
	pkt[15] = 9;
	if (opt) {
		pkt[20] = 0x94;
		pkt[21] = 4;
	}
	memcpy(pkt + hl, m, len);
	put16(pkt + hl + 2, 0);
	put16(pkt + hl + 2, csum(pkt + hl, len));
	return hl + len;
}

static void test_codes(void)
{
	/* below 128 the value; above, (mant | 0x10) << (exp + 3) */
	CHECK(mcm_igmp_code_value(0) == 0);
	CHECK(mcm_igmp_code_value(100) == 100);
	CHECK(mcm_igmp_code_value(127) == 127);
	CHECK(mcm_igmp_code_value(0x80) == 128);
	CHECK(mcm_igmp_code_value(0x8f) == 248);
	CHECK(mcm_igmp_code_value(0xff) == 31744);
	CHECK(mcm_mld_mrc_value(10000) == 10000);
	CHECK(mcm_mld_mrc_value(32767) == 32767);
	CHECK(mcm_mld_mrc_value(0x8000) == 32768);
	CHECK(mcm_mld_mrc_value(0xffff) == 8387584);
}

static void test_igmp_v1_v2(void)
{
	uint8_t m[8] = { 0x11, 0 }, pkt[64];
	struct mcm_query q;
	size_t n;

	n = igmp_pkt(pkt, m, sizeof(m), 1);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.family == AF_INET && q.version == 1);
	CHECK(q.max_resp_ms == 10000 && !q.qqi_s && !q.qrv);
	CHECK(!memcmp(q.src, "\xc0\x00\x02\x09", 4));
	CHECK(!memcmp(q.group, "\0\0\0\0", 4) && !q.ignored);
	CHECK(!strcmp(mcm_query_name(&q), "igmpv1"));
	/* IGMPv2, group-specific: 239.1.1.1, 2.5 s */
	m[1] = 25;
	memcpy(m + 4, "\xef\x01\x01\x01", 4);
	n = igmp_pkt(pkt, m, sizeof(m), 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.version == 2 && q.max_resp_ms == 2500);
	CHECK(!memcmp(q.group, "\xef\x01\x01\x01", 4));
	CHECK(!strcmp(mcm_query_name(&q), "igmpv2"));
}

static void test_igmp_v3(void)
{
	uint8_t m[20] = { 0x11, 100 }, pkt[64];
	struct mcm_query q;
	size_t n;

	m[8] = 0x0a;		/* S, QRV 2 */
	m[9] = 125;
	n = igmp_pkt(pkt, m, 12, 1);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.version == 3 && q.max_resp_ms == 10000);
	CHECK(q.qqi_s == 125 && q.qrv == 2 && q.s_flag && !q.nsrcs);
	CHECK(!q.ignored && !strcmp(mcm_query_name(&q), "igmpv3"));
	/* QQIC in the floating-point form: 0x90 is 256 s */
	m[9] = 0x90;
	m[8] = 0x02;
	n = igmp_pkt(pkt, m, 12, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.qqi_s == 256 && !q.s_flag);
	/* a general query with a source: the host drops it */
	put16(m + 10, 1);
	memcpy(m + 12, "\xc0\x00\x02\x01", 4);
	n = igmp_pkt(pkt, m, 16, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.nsrcs == 1 && q.ignored);
	/* a source-specific one is a query like any */
	memcpy(m + 4, "\xe8\x01\x01\x01", 4);
	n = igmp_pkt(pkt, m, 16, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 1);
	CHECK(q.nsrcs == 1 && !q.ignored);
	/* two sources said, one there: cut short */
	put16(m + 10, 2);
	n = igmp_pkt(pkt, m, 16, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == -1);
}

static void test_igmp_not_queries(void)
{
	uint8_t m[12] = { 0x11, 100 }, pkt[64];
	struct mcm_query q;
	size_t n;

	/* 9 to 11 bytes: no version's query */
	n = igmp_pkt(pkt, m, 10, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == -1);
	/* a bad checksum */
	n = igmp_pkt(pkt, m, 12, 0);
	pkt[n - 1] ^= 1;
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == -1);
	/* more bytes than the packet has, fewer than its header */
	n = igmp_pkt(pkt, m, 12, 0);
	CHECK(mcm_query_parse_igmp(pkt, n - 1, &q) == -1);
	CHECK(mcm_query_parse_igmp(pkt, 19, &q) == -1);
	/* not IGMP */
	pkt[9] = IPPROTO_UDP;
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == -1);
	/* IGMP, not a query: a v3 report, a v2 leave */
	m[0] = 0x22;
	n = igmp_pkt(pkt, m, 12, 0);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 0);
	m[0] = 0x17;
	n = igmp_pkt(pkt, m, 8, 1);
	CHECK(mcm_query_parse_igmp(pkt, n, &q) == 0);
}

/* --- MLD ----------------------------------------------------------------------- */

static void test_mld(void)
{
	uint8_t m[44] = { 130, 0 }, ll[16], global[16];
	struct mcm_query q;

	inet_pton(AF_INET6, "fe80::1", ll);
	inet_pton(AF_INET6, "2001:db8::1", global);
	put16(m + 4, 10000);
	CHECK(mcm_query_parse_mld(m, 24, ll, 1, 1, &q) == 1);
	CHECK(q.family == AF_INET6 && q.version == 1);
	CHECK(q.max_resp_ms == 10000 && !q.ignored && !q.qqi_s);
	CHECK(!memcmp(q.src, ll, 16));
	CHECK(!strcmp(mcm_query_name(&q), "mldv1"));
	/* MLDv2: MRC in the floating-point form, QRV 2, QQIC 125 */
	put16(m + 4, 0x8000);
	m[24] = 0x02;
	m[25] = 125;
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 1, &q) == 1);
	CHECK(q.version == 2 && q.max_resp_ms == 32768);
	CHECK(q.qrv == 2 && q.qqi_s == 125 && !q.ignored);
	CHECK(!strcmp(mcm_query_name(&q), "mldv2"));
	/* with a source, and one said that is not there */
	put16(m + 26, 1);
	CHECK(mcm_query_parse_mld(m, 44, ll, -1, 1, &q) == 1 && q.nsrcs == 1);
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 1, &q) == -1);
	put16(m + 26, 0);
	/* what the host drops (RFC 3810 6.2) */
	CHECK(mcm_query_parse_mld(m, 28, global, 1, 1, &q) == 1 && q.ignored);
	CHECK(mcm_query_parse_mld(m, 28, ll, 255, 1, &q) == 1 && q.ignored);
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 0, &q) == 1 && q.ignored &&
	      strstr(q.ignored, "Router Alert"));
	/* a Router Alert not known (a truncated control message): heard */
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, -1, &q) == 1 && !q.ignored);
	/* a group-specific query for ff3e::1 is heard; one for 2001:db8::1 not */
	inet_pton(AF_INET6, "ff3e::1", m + 8);
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 1, &q) == 1 && !q.ignored);
	memcpy(m + 8, global, 16);
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 1, &q) == 1 && q.ignored &&
	      strstr(q.ignored, "not multicast"));
	memset(m + 8, 0, 16);
	/* no version's length; not a query */
	CHECK(mcm_query_parse_mld(m, 26, ll, 1, 1, &q) == -1);
	m[0] = 143;
	CHECK(mcm_query_parse_mld(m, 28, ll, 1, 1, &q) == 0);
}

/* --- /proc/net ------------------------------------------------------------------ */

/* @text as a FILE, parsed by @parse into @fam */
static int parse_text(const char *text, int (*parse)(FILE *, struct hm_family *),
		      struct hm_family *fam)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		return -1;
	ret = parse(f, fam);
	fclose(f);
	return ret;
}

static void addr4(const char *s, uint8_t *a)
{
	memset(a, 0, 16);
	inet_pton(AF_INET, s, a);
}

static void addr6(const char *s, uint8_t *a)
{
	inet_pton(AF_INET6, s, a);
}

static void test_igmp_file(void)
{
	/* igmp_mc_seq_show(); 239.1.1.1 as the host holds it */
	uint32_t g1 = htonl(0xef010101), g2 = htonl(0xe0000001);
	const struct hm_group *g;
	struct hm_family fam;
	char text[512];
	uint8_t a[16];

	snprintf(text, sizeof(text),
		 "Idx\tDevice    : Count Querier\tGroup    Users Timer\tReporter\n"
		 "1\tlo        :     1      V3\n"
		 "\t\t\t\t%08X     1 0:00000000\t\t0\n"
		 "3\tveth1     :     2      V2\n"
		 "\t\t\t\t%08X     2 1:0000003C\t\t1\n"
		 "\t\t\t\t%08X     1 0:00000000\t\t0\n"
		 "12\ta-longer-name15:     1      V1\n"
		 "\t\t\t\t%08X     1 0:00000000\t\t0\n",
		 g2, g1, g2, g2);
	memset(&fam, 0, sizeof(fam));
	CHECK(!parse_text(text, hm_parse_igmp, &fam));
	CHECK(fam.ndev == 3 && fam.ngrp == 4);
	CHECK(hm_dev_by_name(&fam, "lo")->querier == 3);
	CHECK(hm_dev_by_name(&fam, "veth1")->querier == 2);
	CHECK(hm_dev_by_name(&fam, "veth1")->ifindex == 3);
	CHECK(hm_dev_by_name(&fam, "a-longer-name15")->querier == 1);
	addr4("239.1.1.1", a);
	g = hm_group_find(&fam, 3, a);
	CHECK(g && g->users == 2 && g->family == AF_INET);
	CHECK(!hm_group_find(&fam, 1, a));
	addr4("224.0.0.1", a);
	CHECK(hm_group_find(&fam, 12, a));
	free(fam.dev);
	free(fam.grp);
}

static void test_igmp6_file(void)
{
	static const char text[] =
		"1    lo              ff020000000000000000000000000001     1 0000000C 0\n"
		"3    veth1           ff0e0000000000000000000000010001     2 00000004 0\n"
		"3    veth1           ff020000000000000000000000000001     1 0000000C 0\n";
	const struct hm_group *g;
	struct hm_family fam;
	uint8_t a[16];

	memset(&fam, 0, sizeof(fam));
	CHECK(!parse_text(text, hm_parse_igmp6, &fam));
	CHECK(fam.ndev == 2 && fam.ngrp == 3);
	CHECK(hm_dev_by_name(&fam, "veth1")->ifindex == 3);
	addr6("ff0e::1:1", a);
	g = hm_group_find(&fam, 3, a);
	CHECK(g && g->users == 2 && g->family == AF_INET6);
	free(fam.dev);
	free(fam.grp);
}

static void test_mcfilter_files(void)
{
	/* the name cut to 6 characters: the index is the netdev */
	static const char v4[] =
		"Idx Device        MCA        SRC    INC    EXC\n"
		"  3  veth1 0xe8010101 0xc0000201      1      0\n"
		" 12 a-long 0xe8010101 0xc0000202      0      1\n";
	const struct hm_filter *e;
	struct hm_family fam;
	uint8_t g[16], s[16];
	char v6[256];

	memset(&fam, 0, sizeof(fam));
	CHECK(!parse_text(v4, hm_parse_mcfilter, &fam));
	CHECK(fam.nflt == 2);
	addr4("232.1.1.1", g);
	addr4("192.0.2.1", s);
	e = hm_filter_find(&fam, 3, g, s);
	CHECK(e && e->inc == 1 && e->exc == 0);
	addr4("192.0.2.2", s);
	e = hm_filter_find(&fam, 12, g, s);
	CHECK(e && e->inc == 0 && e->exc == 1);
	CHECK(!hm_filter_find(&fam, 3, g, s));
	free(fam.flt);

	/* igmp6_mcf_seq_show()'s header and a row */
	snprintf(v6, sizeof(v6),
		 "Idx Device%16sMulticast Address%19sSource Address    INC    EXC\n"
		 "%3d %6.6s %s %s %6lu %6lu\n", "", "", 3, "veth1",
		 "ff3e0000000000000000000000630001",
		 "20010db8000000000000000000000001", 2UL, 0UL);
	memset(&fam, 0, sizeof(fam));
	CHECK(!parse_text(v6, hm_parse_mcfilter6, &fam));
	addr6("ff3e::63:1", g);
	addr6("2001:db8::1", s);
	e = hm_filter_find(&fam, 3, g, s);
	CHECK(fam.nflt == 1 && e && e->inc == 2 && e->family == AF_INET6);
	free(fam.flt);
}

/*
 * mcfilter starts at the first netdev (igmp's order) whose newest group
 * has sources: the netdevs before it are not listed, those after are
 */
static void test_filters_listed(void)
{
	static const char igmp[] =
		"1\tlo        :     1      V3\n"
		"\t\t\t\t010000E0     1 0:00000000\t\t0\n"
		"7\tveth0     :     1      V3\n"
		"\t\t\t\t010000E0     1 0:00000000\t\t0\n"
		"3\tveth1     :     1      V3\n"
		"\t\t\t\t010000E0     1 0:00000000\t\t0\n"
		"9\tveth2     :     1      V3\n"
		"\t\t\t\t010000E0     1 0:00000000\t\t0\n";
	static const char flt[] =
		"Idx Device        MCA        SRC    INC    EXC\n"
		"  3  veth1 0xe8010101 0xc0000201      1      0\n";
	struct hm_family fam;

	memset(&fam, 0, sizeof(fam));
	CHECK(!parse_text(igmp, hm_parse_igmp, &fam));
	fam.filters_read = 1;
	CHECK(!hm_filters_listed(&fam, 3));
	CHECK(!parse_text(flt, hm_parse_mcfilter, &fam));
	CHECK(!hm_filters_listed(&fam, 1) && !hm_filters_listed(&fam, 7));
	CHECK(hm_filters_listed(&fam, 3) && hm_filters_listed(&fam, 9));
	CHECK(!hm_filters_listed(&fam, 42));
	fam.filters_read = 0;
	CHECK(!hm_filters_listed(&fam, 3));
	free(fam.dev);
	free(fam.grp);
	free(fam.flt);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	h_run("query codes: value, floating-point form (RFC 3376, 3810)",
	      test_codes);
	h_run("IGMPv1 and IGMPv2 queries: 8 bytes, the code", test_igmp_v1_v2);
	h_run("IGMPv3 queries: QRV, QQIC, S, sources; a general one with sources is dropped",
	      test_igmp_v3);
	h_run("IGMP messages that are not queries, or not well formed",
	      test_igmp_not_queries);
	h_run("MLDv1 and MLDv2 queries; not link-local, hop limit not 1",
	      test_mld);
	h_run("/proc/net/igmp: netdevs, Querier column, groups",
	      test_igmp_file);
	h_run("/proc/net/igmp6: groups", test_igmp6_file);
	h_run("/proc/net/mcfilter and mcfilter6: by index, names cut short",
	      test_mcfilter_files);
	h_run("mcfilter lists the netdevs from its first on, in igmp's order",
	      test_filters_listed);
	return h_finish();
}
