// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of librdmamcm's netlink client (lib/netlink.c) on the fake
 * generic netlink kernel (testing/host/fake/fake_nl.c): the parsers on canned kernel
 * messages, dumps, stats, the "events" group and its ENOBUFS; the sources
 * of a source-specific join and who joined (LIBRDMAMCM_1.5).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_nl.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

static uint8_t buf[65536];
/* Room for the parsed sources, as a handle has */
static struct mcm_nl_srcs srcs;

/* A canned message: @put fills it, with @i */
static const struct nlmsghdr *canned(void (*put)(struct nlb *, unsigned int),
				     unsigned int i, uint8_t cmd)
{
	struct nlb b;

	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, NLM_F_MULTI, 1, cmd);
	put(&b, i);
	CHECK(nlb_end(&b) > 0);
	return (const void *)buf;
}

static void put_stats(struct nlb *b, unsigned int i)
{
	(void)i;
	fnl_put_stats(b);
}

static const char *ip4(const struct sockaddr_storage *ss, char *out)
{
	return inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr,
			 out, INET_ADDRSTRLEN);
}

static void test_parse_member(void)
{
	struct rdma_mcm_nl_member m;
	char a[INET_ADDRSTRLEN];

	fake_nl_install();
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 0, 1), &m, &srcs));
	CHECK(m.ctx_id == 1 && m.handle == 1);
	CHECK(m.owner_kind == RDMA_MCM_OWNER_USER && m.owner_pid == 1001 &&
	      m.owner_uid == 0 && !strcmp(m.owner_name, "rdma-mcm"));
	CHECK(m.file_ctx == 1 && m.netns == 4026531840u && m.port == 1);
	CHECK(!strcmp(m.dev_name, "rxe0") && !strcmp(m.netdev, "veth0"));
	CHECK(m.family == AF_INET && m.group.ss_family == AF_INET);
	CHECK(!strcmp(ip4(&m.group, a), "239.1.0.1"));
	CHECK(!strcmp(ip4(&m.src, a), "10.0.0.1"));
	CHECK(m.mgid[10] == 0xff && m.mgid[12] == 239 && m.mgid[15] == 1);
	CHECK(m.qkey == 0x1234567 && m.mlid == 0);
	CHECK(m.state == RDMA_MCM_NL_JOINED && m.status == 0);
	CHECK(m.join_type == 0 && m.qp_attached == 1);
	CHECK(m.age_ms == 12300 && m.state_age_ms == 2000 && m.rejoins == 0);
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_MGID));
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_OWNER_PID));

	/* a failed one: its status, no MGID */
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 9, 1), &m, &srcs));
	CHECK(m.ctx_id == 5 && m.handle == 2);
	CHECK(m.state == RDMA_MCM_NL_ERROR && m.status == -ETIMEDOUT &&
	      m.last_status == -ETIMEDOUT);
	CHECK(!RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_MGID) && m.qkey == 0);
	CHECK(m.qp_attached == 0 && m.join_type == 1);

	/* a kernel ULP's: no pid, uid or file context */
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 4, 1), &m, &srcs));
	CHECK(m.ctx_id == 3 && m.owner_kind == RDMA_MCM_OWNER_KERNEL);
	CHECK(!strcmp(m.owner_name, "rdma_mcm_test_ulp"));
	CHECK(!RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_OWNER_PID) && !m.owner_pid);
	CHECK(!RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_FILE_CTX));
}

static void check_counters(const struct rdma_mcm_nl_counters *c,
			   uint64_t base)
{
	int i;

	for (i = 1; i < __RDMA_MCM_CNT_MAX; i++)
		CHECK(c->value[i] == base + (uint64_t)i);
	CHECK(c->present & (1ULL << RDMA_MCM_CNT_PURGED));
	CHECK(c->value[30] == 99);
	CHECK(c->n_join_failures == 2);
	CHECK(c->join_failures[0].err == ENOBUFS &&
	      c->join_failures[0].count == 3);
	CHECK(c->join_failures[1].err == 0 && c->join_failures[1].count == 1);
	CHECK(c->n_errors == 1 && c->errors[0].err == ETIMEDOUT &&
	      c->errors[0].count == base + 1);
}

static void test_parse_context(void)
{
	struct rdma_mcm_nl_context c;

	fake_nl_install();
	fnl.members = 6;
	CHECK(!mcm_nl_parse_context(canned(fnl_put_context, 1, 2), &c));
	CHECK(c.ctx_id == 2 && c.owner_uid == 1000 && c.owner_pid == 1002);
	CHECK(!strcmp(c.dev_name, "rxe1") && !strcmp(c.netdev, "veth1"));
	CHECK(c.flags == 1 && c.members == 2 && c.family == AF_INET);
	/* the zero-length padding (type 1 = JOINS) is not a counter */
	check_counters(&c.cnt, 200);
}

static void test_parse_stats(void)
{
	struct rdma_mcm_nl_stats st;

	fake_nl_install();
	fnl.members = 5;
	fnl.contexts = 3;
	fnl.events_lost = 42;
	memset(&st, 0, sizeof(st));
	CHECK(!mcm_nl_parse_stats(canned(put_stats, 0, 3), &st));
	check_counters(&st.cnt, 1000);
	CHECK(st.limits[RDMA_MCM_LIMIT_FILE_MEMBERSHIPS] == 1000);
	CHECK(st.limits[RDMA_MCM_LIMIT_USER_CONTEXTS] == 4000);
	CHECK(st.limits[RDMA_MCM_LIMIT_USER_SOURCES] == 5000);
	CHECK(st.limits_present == 0x3e);
	CHECK(st.usage[RDMA_MCM_USAGE_MEMBERSHIPS] == 5 &&
	      st.usage[RDMA_MCM_USAGE_CONTEXTS] == 3);
	CHECK(st.events_lost == 42);
	CHECK(st.n_devices == 2);
	if (st.n_devices == 2) {
		CHECK(!strcmp(st.devices[0].name, "rxe0"));
		CHECK(!strcmp(st.devices[1].name, "rxe1"));
		check_counters(&st.devices[1].cnt, 20);
	}
	free(st.devices);
}

static void test_parse_event(void)
{
	struct rdma_mcm_nl_notice ev;
	char a[INET_ADDRSTRLEN];

	fake_nl_install();
	CHECK(!mcm_nl_parse_event(canned(fnl_put_event, 1, 4), &ev, &srcs));
	CHECK(ev.event == RDMA_MCM_NL_EV_JOINED &&
	      ev.time_ns == 1000001000ull);
	CHECK(ev.m.ctx_id == 1 && ev.m.handle == 1 && ev.m.owner_pid == 1001);
	CHECK(!strcmp(ip4(&ev.m.group, a), "239.9.0.1"));
	CHECK(RDMA_MCM_NL_HAS(&ev.m, RDMA_MCM_A_STATE) && ev.m.state == 1);
	CHECK(!mcm_nl_parse_event(canned(fnl_put_event, 3, 4), &ev, &srcs));
	CHECK(ev.event == RDMA_MCM_NL_EV_DEVICE_LOST);
	CHECK(!strcmp(ev.m.dev_name, "rxe0") && ev.m.status == 0);
	CHECK(!RDMA_MCM_NL_HAS(&ev.m, RDMA_MCM_A_HANDLE));
}

/* Unknown attributes, also nested and flagged, are skipped */
static void test_parse_unknown(void)
{
	struct rdma_mcm_nl_member m;
	struct nlb b;

	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u32(&b, 63, 1);
	nlb_nest(&b, 61);
	nlb_u64(&b, 1, 5);
	nlb_nest_end(&b);
	nlb_u32(&b, 200, 9);		/* beyond what a table holds */
	nlb_u32(&b, RDMA_MCM_A_CTX_ID, 7);
	nlb_u32(&b, NLA_F_NET_BYTEORDER | 300, 3);
	nlb_end(&b);
	CHECK(!mcm_nl_parse_member((const void *)buf, &m, &srcs));
	CHECK(m.ctx_id == 7 && m.handle == 0);
}

static void test_parse_truncated(void)
{
	struct rdma_mcm_nl_member m;
	struct rdma_mcm_nl_context c;
	struct nlmsghdr *nlh = (void *)buf;
	struct nlattr *a;
	struct nlb b;
	size_t len;

	/* the last attribute (a u32) runs past the message */
	canned(fnl_put_member, 1, 1);
	len = nlh->nlmsg_len;
	nlh->nlmsg_len -= 4;
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);
	/* two bytes of an attribute's header */
	nlh->nlmsg_len = (uint32_t)len + 2;
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);
	nlh->nlmsg_len = (uint32_t)len;
	CHECK(!mcm_nl_parse_member(nlh, &m, &srcs));

	/* an attribute whose length is below its header */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u32(&b, RDMA_MCM_A_CTX_ID, 7);
	nlb_end(&b);
	a = (void *)(buf + NLMSG_LENGTH(GENL_HDRLEN));
	a->nla_len = 2;
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);

	/* a u32 of two bytes */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u16(&b, RDMA_MCM_A_CTX_ID, 7);
	nlb_end(&b);
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);

	/* an IPv4 group of three bytes */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u16(&b, RDMA_MCM_A_FAMILY, AF_INET);
	nlb_put(&b, RDMA_MCM_A_GROUP, "abc", 3);
	nlb_end(&b);
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);

	/* a counter of four bytes, inside the nest */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_CTX_GET);
	nlb_nest(&b, RDMA_MCM_A_COUNTERS);
	nlb_u32(&b, RDMA_MCM_CNT_JOINED, 1);
	nlb_nest_end(&b);
	nlb_end(&b);
	errno = 0;
	CHECK(mcm_nl_parse_context(nlh, &c) == -1 && errno == EBADMSG);

	/* an errno entry that runs past its nest */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_CTX_GET);
	nlb_nest(&b, RDMA_MCM_A_ERRORS);
	nlb_nest(&b, RDMA_MCM_A_ERRNO_COUNT);
	nlb_u32(&b, RDMA_MCM_A_ERRNO, 5);
	nlb_nest_end(&b);
	nlb_nest_end(&b);
	nlb_end(&b);
	a = (void *)(buf + NLMSG_LENGTH(GENL_HDRLEN) + NLA_HDRLEN);
	a->nla_len += 8;
	errno = 0;
	CHECK(mcm_nl_parse_context(nlh, &c) == -1 && errno == EBADMSG);

	/* no room for the generic netlink header */
	nlh->nlmsg_len = NLMSG_LENGTH(2);
	errno = 0;
	CHECK(mcm_nl_parse_member(nlh, &m, &srcs) == -1 && errno == EBADMSG);
}

static const char *ip6(const struct sockaddr_storage *ss, char *out)
{
	return inet_ntop(AF_INET6,
			 &((const struct sockaddr_in6 *)ss)->sin6_addr, out,
			 INET6_ADDRSTRLEN);
}

/* A membership message of @family (0: none) with @n sources of @len bytes */
static const struct nlmsghdr *with_sources(uint16_t family, unsigned int n,
					   size_t len)
{
	uint8_t a[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct nlb b;
	unsigned int i;

	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u32(&b, RDMA_MCM_A_CTX_ID, 9);
	if (family)
		nlb_u16(&b, RDMA_MCM_A_FAMILY, family);
	nlb_nest(&b, RDMA_MCM_A_SOURCES);
	for (i = 0; i < n; i++) {
		if (len == 4) {
			a[0] = 192;
			a[1] = 0;
			a[2] = (uint8_t)(2 + i / 250);
			a[3] = (uint8_t)(i % 250 + 1);
		} else {
			a[14] = (uint8_t)(i >> 8);
			a[15] = (uint8_t)(i + 1);
		}
		nlb_put(&b, RDMA_MCM_A_SOURCE, a, len);
	}
	nlb_nest_end(&b);
	nlb_u8(&b, RDMA_MCM_A_JOINED_BY, RDMA_MCM_JOINER_RDMA_MCM);
	CHECK(nlb_end(&b) > 0);
	return (const void *)buf;
}

/*
 * RDMA_MCM_A_SOURCES: 4- and 16-byte sources of the member's family, a
 * length that is not skipped, more than 64 kept, RDMA_MCM_A_JOINED_BY
 */
static void test_parse_sources(void)
{
	uint8_t odd[5] = { 1, 2, 3, 4, 5 }, s4[4] = { 198, 51, 100, 7 };
	uint8_t s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x42 };
	char a[INET6_ADDRSTRLEN];
	struct rdma_mcm_nl_member m;
	struct nlb b;
	unsigned int i;
	int ok = 1;

	/* IPv4: two sources, a 5-byte one, a 16-byte one and an unknown type */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_u16(&b, RDMA_MCM_A_FAMILY, AF_INET);
	nlb_nest(&b, RDMA_MCM_A_SOURCES);
	nlb_put(&b, RDMA_MCM_A_SOURCE, s4, 4);
	nlb_put(&b, RDMA_MCM_A_SOURCE, odd, sizeof(odd));
	nlb_put(&b, RDMA_MCM_A_SOURCE, s6, 16);
	nlb_u32(&b, FNL_A_FUTURE, 1);
	nlb_put(&b, RDMA_MCM_A_SOURCE, odd, 4);
	nlb_nest_end(&b);
	nlb_u8(&b, RDMA_MCM_A_JOINED_BY, RDMA_MCM_JOINER_RDMA_CM);
	nlb_end(&b);
	CHECK(!mcm_nl_parse_member((const void *)buf, &m, &srcs));
	CHECK(m.nr_sources == 2 && m.sources == srcs.v);
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_SOURCES));
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_JOINED_BY));
	CHECK(m.joined_by == RDMA_MCM_JOINER_RDMA_CM);
	if (m.nr_sources == 2) {
		CHECK(m.sources[0].ss_family == AF_INET &&
		      !strcmp(ip4(&m.sources[0], a), "198.51.100.7"));
		CHECK(!strcmp(ip4(&m.sources[1], a), "1.2.3.4"));
		CHECK(((const struct sockaddr_in *)&m.sources[0])->sin_port == 0);
	}

	/* IPv6: 16-byte sources; a 4-byte one is not of the family */
	CHECK(!mcm_nl_parse_member(with_sources(AF_INET6, 3, 16), &m, &srcs));
	CHECK(m.nr_sources == 3 && m.joined_by == RDMA_MCM_JOINER_RDMA_MCM);
	if (m.nr_sources == 3)
		CHECK(m.sources[2].ss_family == AF_INET6 &&
		      !strcmp(ip6(&m.sources[2], a), "2001:db8::3"));
	CHECK(!mcm_nl_parse_member(with_sources(AF_INET6, 3, 4), &m, &srcs));
	CHECK(m.nr_sources == 0 && !m.sources);
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_SOURCES));
	/* no family sent: the length tells, 4 or 16 */
	CHECK(!mcm_nl_parse_member(with_sources(0, 2, 16), &m, &srcs));
	CHECK(m.nr_sources == 2 && m.sources[0].ss_family == AF_INET6);
	CHECK(!mcm_nl_parse_member(with_sources(0, 2, 4), &m, &srcs));
	CHECK(m.nr_sources == 2 && m.sources[1].ss_family == AF_INET);
	CHECK(!mcm_nl_parse_member(with_sources(0, 2, 8), &m, &srcs));
	CHECK(m.nr_sources == 0);

	/* more than RDMA_MCM_MAX_SOURCES: all of them, the room grows */
	CHECK(!mcm_nl_parse_member(with_sources(AF_INET, 300, 4), &m, &srcs));
	CHECK(m.nr_sources == 300 && srcs.cap >= 300);
	for (i = 0; ok && i < m.nr_sources; i++)
		ok = m.sources[i].ss_family == AF_INET &&
		     ((const uint8_t *)&((const struct sockaddr_in *)
					 &m.sources[i])->sin_addr)[3] ==
		     i % 250 + 1;
	CHECK(ok);
	CHECK(!mcm_nl_parse_member(with_sources(AF_INET6, 100, 16), &m,
				   &srcs));
	CHECK(m.nr_sources == 100);
	CHECK(m.nr_sources == 100 &&
	      !strcmp(ip6(&m.sources[99], a), "2001:db8::64"));

	/* none: no sources, no pointer; an empty nest too */
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 0, 1), &m, &srcs));
	CHECK(m.nr_sources == 0 && !m.sources);
	CHECK(!RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_SOURCES));
	CHECK(!mcm_nl_parse_member(with_sources(AF_INET, 0, 4), &m, &srcs));
	CHECK(m.nr_sources == 0 && !m.sources);

	/* a source that runs past its nest, a JOINED_BY of no byte */
	with_sources(AF_INET, 2, 4);
	((struct nlattr *)(buf + NLMSG_LENGTH(GENL_HDRLEN) + 8 + 8 +
			   NLA_HDRLEN))->nla_len = 200;
	errno = 0;
	CHECK(mcm_nl_parse_member((const void *)buf, &m, &srcs) == -1 &&
	      errno == EBADMSG);
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_MEMBER_GET);
	nlb_put(&b, RDMA_MCM_A_JOINED_BY, NULL, 0);
	nlb_end(&b);
	errno = 0;
	CHECK(mcm_nl_parse_member((const void *)buf, &m, &srcs) == -1 &&
	      errno == EBADMSG);

	/* the canned ones: an IPv4 and an IPv6 source-specific join */
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 2, 1), &m, &srcs));
	CHECK(m.nr_sources == 2 && m.joined_by == RDMA_MCM_JOINER_RDMA_CM);
	CHECK(m.nr_sources == 2 &&
	      !strcmp(ip4(&m.sources[1], a), "192.0.2.2"));
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 6, 1), &m, &srcs));
	CHECK(m.family == AF_INET6 && m.nr_sources == 2);
	CHECK(m.joined_by == RDMA_MCM_JOINER_RDMA_MCM);
	CHECK(!strcmp(ip6(&m.group, a), "ff0e::1:0:7"));
	/* an event carries them as a dump does */
	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 0, RDMA_MCM_CMD_EVENT);
	nlb_u8(&b, RDMA_MCM_A_EVENT, RDMA_MCM_NL_EV_JOINED);
	nlb_u16(&b, RDMA_MCM_A_FAMILY, AF_INET6);
	nlb_nest(&b, RDMA_MCM_A_SOURCES);
	nlb_put(&b, RDMA_MCM_A_SOURCE, s6, 16);
	nlb_nest_end(&b);
	nlb_u8(&b, RDMA_MCM_A_JOINED_BY, RDMA_MCM_JOINER_RDMA_MCM);
	nlb_end(&b);
	{
		struct rdma_mcm_nl_notice ev;

		CHECK(!mcm_nl_parse_event((const void *)buf, &ev, &srcs));
		CHECK(ev.event == RDMA_MCM_NL_EV_JOINED &&
		      ev.m.nr_sources == 1 &&
		      !strcmp(ip6(&ev.m.sources[0], a), "2001:db8::42"));
		CHECK(ev.m.joined_by == RDMA_MCM_JOINER_RDMA_MCM);
	}
}

struct source_check {
	unsigned int n, with;
	int ok;
};

/* In a dump, each member's sources are there during its callback */
static int on_sources(const struct rdma_mcm_nl_member *m, void *arg)
{
	struct source_check *c = arg;
	char a[INET6_ADDRSTRLEN];
	int want = m->handle == 1 && (m->ctx_id == 2 || m->ctx_id == 4);

	c->n++;
	if (!want) {
		c->ok &= !m->nr_sources && !m->sources;
		return 0;
	}
	c->with++;
	c->ok &= m->nr_sources == 2;
	if (m->ctx_id == 2)
		c->ok &= !strcmp(ip4(&m->sources[0], a), "192.0.2.1");
	else
		c->ok &= !strcmp(ip6(&m->sources[1], a), "2001:db8::2") &&
			 m->joined_by == RDMA_MCM_JOINER_RDMA_MCM;
	return 0;
}

static void test_dump_sources(void)
{
	struct source_check c = { .ok = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 8;
	fnl.per_dgram = 3;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_sources, &c) == 0);
	CHECK(c.n == 8 && c.with == 2 && c.ok);
	rdma_mcm_nl_close(nl);
}

static void test_open_close(void)
{
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	nl = rdma_mcm_nl_open();
	CHECK(nl && fnl.sockets == 1);
	CHECK(rdma_mcm_nl_get_fd(nl) >= 0);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
	rdma_mcm_nl_close(NULL);

	fnl.absent = 1;
	CHECK_ERRNO(rdma_mcm_nl_open() ? 0 : -1, ENOENT);
	CHECK(fnl.sockets == 0);
}

struct collect {
	unsigned long n;
	unsigned long stop_at;
	int ret;
	int in_order;
	uint32_t last_ctx, last_handle;
	uint32_t ctx_ids;		/* xor of ctx ids */
};

static int on_member(const struct rdma_mcm_nl_member *m, void *arg)
{
	struct collect *c = arg;

	if (c->n && (m->ctx_id < c->last_ctx ||
		     (m->ctx_id == c->last_ctx && m->handle <= c->last_handle)))
		c->in_order = 0;
	c->last_ctx = m->ctx_id;
	c->last_handle = m->handle;
	c->ctx_ids ^= m->ctx_id;
	c->n++;
	return c->stop_at && c->n == c->stop_at ? c->ret : 0;
}

static void test_dump_members(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 1000;
	fnl.per_dgram = 7;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 1000 && c.in_order);

	/* the ctx filter goes to the kernel */
	memset(&c, 0, sizeof(c));
	c.in_order = 1;
	CHECK(rdma_mcm_nl_dump_members(nl, 5, on_member, &c) == 0);
	CHECK(c.n == 2 && c.last_ctx == 5 && c.last_handle == 2);

	/* nothing to dump */
	fnl.members = 0;
	memset(&c, 0, sizeof(c));
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0 && !c.n);
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, NULL, NULL), EINVAL);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* 100,000 memberships stream through, datagrams as full as they get */
static void test_dump_100k(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 100000;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 100000 && c.in_order && fnl.generated == 100000);
	rdma_mcm_nl_close(nl);
}

/*
 * A callback that stops the dump: its value is returned, the rest of the
 * dump is not read (nor built), and the handle works on
 */
static void test_dump_stop(void)
{
	struct collect c = { .stop_at = 10, .ret = 7, .in_order = 1 };
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 100000;
	fnl.per_dgram = 4;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 7);
	CHECK(c.n == 10 && fnl.generated < 100);
	CHECK(fnl.sockets == 1);

	/* a negative value stops it too, as a positive one */
	memset(&c, 0, sizeof(c));
	c.stop_at = 3;
	c.ret = -1;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) > 0);
	CHECK(c.n == 3);

	/* the next requests get their own replies */
	st = rdma_mcm_nl_get_stats(nl);
	CHECK(st && st->usage[RDMA_MCM_USAGE_MEMBERSHIPS] == 100000);
	rdma_mcm_nl_free_stats(st);
	memset(&c, 0, sizeof(c));
	c.in_order = 1;
	fnl.members = 50;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 50 && c.in_order);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

static void test_dump_eintr_error(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 20;
	fnl.per_dgram = 3;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	fnl.recv_eintr = 3;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 20 && !fnl.recv_eintr);
	/* the kernel's error reaches the caller */
	fnl.absent = 1;
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c), ENOENT);
	rdma_mcm_nl_close(nl);
}

static int on_context(const struct rdma_mcm_nl_context *ctx, void *arg)
{
	struct collect *c = arg;

	c->n++;
	c->ctx_ids ^= ctx->ctx_id;
	if (ctx->ctx_id == 3 && (ctx->owner_kind != RDMA_MCM_OWNER_KERNEL ||
				 ctx->cnt.value[RDMA_MCM_CNT_JOINS] != 301))
		c->in_order = 0;
	return 0;
}

static void test_dump_contexts(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 7;
	fnl.contexts = 4;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(rdma_mcm_nl_dump_contexts(nl, on_context, &c) == 0);
	CHECK(c.n == 4 && c.in_order && c.ctx_ids == (1 ^ 2 ^ 3 ^ 4));
	rdma_mcm_nl_close(nl);
}

static void test_stats(void)
{
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 3;
	fnl.events_lost = 5;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	st = rdma_mcm_nl_get_stats(nl);
	CHECK(st);
	if (st) {
		CHECK(st->events_lost == 5 && st->n_devices == 2);
		CHECK(st->cnt.value[RDMA_MCM_CNT_JOINS] == 1001);
		CHECK(RDMA_MCM_NL_HAS(st, RDMA_MCM_A_EVENTS_LOST));
	}
	rdma_mcm_nl_free_stats(st);
	rdma_mcm_nl_free_stats(NULL);
	rdma_mcm_nl_close(nl);
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

static void test_monitor(void)
{
	struct rdma_mcm_nl_notice ev;
	struct rdma_mcm_nl *nl;
	unsigned int i;
	int ok = 1;

	fake_nl_install();
	fnl.events = 10;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ENOTCONN);
	fnl.deny_monitor = 1;
	CHECK_ERRNO(rdma_mcm_nl_monitor(nl), EPERM);
	fnl.deny_monitor = 0;
	CHECK(rdma_mcm_nl_monitor(nl) == 0);
	CHECK(rdma_mcm_nl_monitor(nl) == 0);
	CHECK(readable(rdma_mcm_nl_get_fd(nl)));
	for (i = 0; i < 10; i++)
		ok &= rdma_mcm_nl_read_event(nl, &ev) == 1 &&
		      ev.time_ns == 1000000000ull + i * 1000ull;
	CHECK(ok);
	CHECK(rdma_mcm_nl_read_event(nl, &ev) == 0);
	CHECK(!readable(rdma_mcm_nl_get_fd(nl)));
	/* dumps go on beside the monitor */
	fnl.members = 4;
	{
		struct collect c = { .in_order = 1 };

		CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
		CHECK(c.n == 4);
	}
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* The socket overflowed: ENOBUFS once, then the events that follow */
static void test_monitor_enobufs(void)
{
	struct rdma_mcm_nl_notice ev;
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;
	int i, ok = 1;

	fake_nl_install();
	fnl.events = 10;
	fnl.enobufs_at = 3;
	fnl.lost = 2;
	nl = rdma_mcm_nl_open();
	CHECK(nl && !rdma_mcm_nl_monitor(nl));
	if (!nl)
		return;
	for (i = 0; i < 3; i++)
		ok &= rdma_mcm_nl_read_event(nl, &ev) == 1;
	CHECK(ok);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ENOBUFS);
	CHECK(rdma_mcm_nl_read_event(nl, &ev) == 1);
	CHECK(ev.time_ns == 1000005000ull);
	st = rdma_mcm_nl_get_stats(nl);
	CHECK(st && st->events_lost == 2);
	rdma_mcm_nl_free_stats(st);
	for (i = 6; i < 10; i++)
		ok &= rdma_mcm_nl_read_event(nl, &ev) == 1;
	CHECK(ok && rdma_mcm_nl_read_event(nl, &ev) == 0);
	rdma_mcm_nl_close(nl);
}

static void test_nl_strings(void)
{
	CHECK(!strcmp(rdma_mcm_nl_counter_str(RDMA_MCM_CNT_JOINS), "joins"));
	CHECK(!strcmp(rdma_mcm_nl_counter_str(RDMA_MCM_CNT_PURGED), "purged"));
	CHECK(!strcmp(rdma_mcm_nl_counter_str(0), "unknown"));
	CHECK(!strcmp(rdma_mcm_nl_counter_str(1000), "unknown"));
	CHECK(!strcmp(rdma_mcm_nl_limit_str(RDMA_MCM_LIMIT_USER_CONTEXTS),
		      "user_contexts"));
	CHECK(!strcmp(rdma_mcm_nl_limit_str(RDMA_MCM_LIMIT_USER_SOURCES),
		      "user_sources"));
	CHECK(!strcmp(rdma_mcm_nl_usage_str(RDMA_MCM_USAGE_CM_IDS), "cm_ids"));
	CHECK(!strcmp(rdma_mcm_nl_event_str(RDMA_MCM_NL_EV_DEVICE_LOST),
		      "device-lost"));
	CHECK(!strcmp(rdma_mcm_nl_event_str(__RDMA_MCM_NL_EV_MAX), "unknown"));
	CHECK(!strcmp(rdma_mcm_nl_owner_str(RDMA_MCM_OWNER_KERNEL), "kernel"));
	CHECK(!strcmp(rdma_mcm_nl_joiner_str(RDMA_MCM_JOINER_RDMA_CM),
		      "rdma_cm"));
	CHECK(!strcmp(rdma_mcm_nl_joiner_str(RDMA_MCM_JOINER_RDMA_MCM),
		      "rdma_mcm"));
	CHECK(!strcmp(rdma_mcm_nl_joiner_str(0), "unknown"));
	CHECK(!strcmp(rdma_mcm_nl_joiner_str(3), "unknown"));
	/* the state names of the ioctl ABI fit the family's states */
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_NL_WAITING), "waiting"));
	CHECK(!strcmp(rdma_mcm_state_str(RDMA_MCM_NL_JOINING), "joining"));
}

/* --- a handle used from its own callback (EBUSY) ------------------------- */

struct nested {
	struct rdma_mcm_nl *nl;
	unsigned int n;
	int ok;
};

static int on_inner(const struct rdma_mcm_nl_member *m, void *arg)
{
	(void)m;
	(void)arg;
	return 0;
}

static int on_ctx_inner(const struct rdma_mcm_nl_context *c, void *arg)
{
	(void)c;
	(void)arg;
	return 0;
}

/* Every call on the dump's own handle: EBUSY, and the handle unharmed */
static int on_nested(const struct rdma_mcm_nl_context *c, void *arg)
{
	struct nested *t = arg;
	struct rdma_mcm_nl_notice ev;
	int fd = rdma_mcm_nl_get_fd(t->nl);

	t->n++;
	errno = 0;
	t->ok &= rdma_mcm_nl_dump_members(t->nl, c->ctx_id, on_inner,
					  NULL) == -1 && errno == EBUSY;
	errno = 0;
	t->ok &= rdma_mcm_nl_dump_contexts(t->nl, on_ctx_inner, NULL) == -1 &&
		 errno == EBUSY;
	errno = 0;
	t->ok &= !rdma_mcm_nl_get_stats(t->nl) && errno == EBUSY;
	errno = 0;
	t->ok &= rdma_mcm_nl_monitor(t->nl) == -1 && errno == EBUSY;
	errno = 0;
	t->ok &= rdma_mcm_nl_read_event(t->nl, &ev) == -1 && errno == EBUSY;
	/* close does nothing: the dump goes on with the handle */
	rdma_mcm_nl_close(t->nl);
	t->ok &= fd >= 0 && rdma_mcm_nl_get_fd(t->nl) == fd;
	t->ok &= !rdma_mcm_nl_last_error(t->nl);
	return 0;
}

/* The natural "for each context, its memberships", on one handle */
static int on_nested_dump(const struct rdma_mcm_nl_context *c, void *arg)
{
	struct nested *t = arg;

	t->n++;
	errno = 0;
	t->ok &= rdma_mcm_nl_dump_members(t->nl, c->ctx_id, on_inner,
					  NULL) == -1 && errno == EBUSY;
	return 0;
}

struct count_members {
	unsigned int n;
};

static int on_count(const struct rdma_mcm_nl_member *m, void *arg)
{
	(void)m;
	((struct count_members *)arg)->n++;
	return 0;
}

/* ... and on a second handle, as the header says to */
static int on_second_handle(const struct rdma_mcm_nl_context *c, void *arg)
{
	struct nested *t = arg;
	struct count_members cm = { 0 };

	t->n++;
	t->ok &= rdma_mcm_nl_dump_members(t->nl, c->ctx_id, on_count,
					  &cm) == 0 && cm.n == 2;
	return 0;
}

static void test_reentrant(void)
{
	struct nested t = { .ok = 1 };
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl, *nl2;

	fake_nl_install();
	fnl.members = 40;
	fnl.contexts = 20;
	fnl.per_dgram = 3;
	nl = rdma_mcm_nl_open();
	nl2 = rdma_mcm_nl_open();
	CHECK(nl && nl2);
	if (!nl || !nl2)
		return;
	t.nl = nl;
	CHECK(rdma_mcm_nl_dump_contexts(nl, on_nested_dump, &t) == 0);
	CHECK(t.n == 20 && t.ok);
	t.n = 0;
	CHECK(rdma_mcm_nl_dump_contexts(nl, on_nested, &t) == 0);
	CHECK(t.n == 20 && t.ok);
	/* the handle works on afterwards, and was not closed */
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 40 && c.in_order && fnl.sockets == 2);
	t.n = 0;
	t.nl = nl2;
	CHECK(rdma_mcm_nl_dump_contexts(nl, on_second_handle, &t) == 0);
	CHECK(t.n == 20 && t.ok);
	rdma_mcm_nl_close(nl2);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* --- the fake answers as af_netlink and the controller do ---------------- */

/* A raw request of the family on socket @fd */
static void raw_send(int fd, uint16_t type, uint8_t cmd, uint16_t flags,
		     uint32_t seq)
{
	uint8_t req[64];
	struct nlb b;

	nlb_init(&b, req, sizeof(req));
	nlb_msg(&b, type, NLM_F_REQUEST | flags, seq, cmd);
	if (cmd == CTRL_CMD_GETFAMILY && type == GENL_ID_CTRL)
		nlb_str(&b, CTRL_ATTR_FAMILY_NAME, RDMA_MCM_GENL_NAME);
	nlb_end(&b);
	CHECK(mcm_nl_io->send(NULL, fd, req, b.len) == (ssize_t)b.len);
}

struct raw_tally {
	unsigned int msgs;		/* of the family */
	int done;			/* NLMSG_DONE */
	int error;			/* an NLMSG_ERROR's */
	uint32_t error_seq;
	uint8_t ctrl_cmd[8];		/* the controller's, in order */
	unsigned int ctrl;
	uint16_t ctrl_id;		/* the family id they name */
};

/* One datagram of @fd into @t: 0, or -1 when none is waiting */
static int raw_recv(int fd, uint32_t seq, struct raw_tally *t)
{
	static uint8_t rb[MCM_GENL_BUF];
	const struct nlmsghdr *nlh = (const void *)rb;
	uint32_t port = 7;
	ssize_t n = mcm_nl_io->recv(NULL, fd, rb, sizeof(rb), MSG_DONTWAIT,
				    &port);
	int left;

	if (n < 0)
		return -1;
	CHECK(port == 0);
	for (left = (int)n; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
		const struct genlmsghdr *g = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			t->error = e->error;
			t->error_seq = nlh->nlmsg_seq;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			t->done += nlh->nlmsg_seq == seq;
		} else if (nlh->nlmsg_type == GENL_ID_CTRL && !nlh->nlmsg_seq) {
			struct mcm_nl_family f = { .group = NULL };

			CHECK(!mcm_nl_parse_family(nlh, &f));
			t->ctrl_id = f.id;
			if (t->ctrl < sizeof(t->ctrl_cmd))
				t->ctrl_cmd[t->ctrl++] = g->cmd;
		} else if (nlh->nlmsg_seq == seq) {
			t->msgs++;
		}
	}
	return 0;
}

/* __netlink_dump_start(): a dump while one runs is refused, not restarted */
static void test_fake_ebusy(void)
{
	struct raw_tally t = { 0 };
	int fd;

	fake_nl_install();
	fnl.members = 30;
	fnl.per_dgram = 4;
	fd = mcm_nl_io->socket(NULL, NETLINK_GENERIC, -1);
	CHECK(fd >= 0);
	raw_send(fd, FNL_FAMILY, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP, 10);
	CHECK(!raw_recv(fd, 10, &t) && t.msgs == 4);
	raw_send(fd, FNL_FAMILY, RDMA_MCM_CMD_CTX_GET, NLM_F_DUMP, 11);
	while (!raw_recv(fd, 10, &t))
		;
	/* the second: EBUSY; the first: all of it, once */
	CHECK(t.error == -EBUSY && t.error_seq == 11);
	CHECK(t.msgs == 30 && t.done == 1);
	/* once the first has ended, a dump is taken again */
	memset(&t, 0, sizeof(t));
	raw_send(fd, FNL_FAMILY, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP, 12);
	while (!raw_recv(fd, 12, &t))
		;
	CHECK(t.msgs == 30 && t.done == 1 && !t.error);
	/* an empty dump ends at its request: the next one is not EBUSY */
	fnl.members = 0;
	memset(&t, 0, sizeof(t));
	raw_send(fd, FNL_FAMILY, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP, 13);
	raw_send(fd, FNL_FAMILY, RDMA_MCM_CMD_MEMBER_GET, NLM_F_DUMP, 14);
	while (!raw_recv(fd, 14, &t))
		;
	CHECK(!t.error && t.done == 1);
	mcm_nl_io->close(NULL, fd);
}

/*
 * genl_unregister_family(): the listeners dropped from "events", the
 * "notify" group told (DELMCAST_GRP, DELFAMILY), requests to the id
 * ENOENT; genl_register_family(): NEWFAMILY, NEWMCAST_GRP, a new id
 */
static void test_fake_family_removal(void)
{
	struct raw_tally t = { 0 };
	int mon, req, i;

	fake_nl_install();
	fnl.events = 3;
	mon = mcm_nl_io->socket(NULL, NETLINK_GENERIC, -1);
	req = mcm_nl_io->socket(NULL, NETLINK_GENERIC, -1);
	CHECK(mon >= 0 && req >= 0);
	CHECK(!mcm_nl_io->join_group(NULL, mon, GENL_ID_CTRL));
	CHECK(!mcm_nl_io->join_group(NULL, mon, FNL_MCGRP));
	fnl_unregister(1);
	/* what was sent before stays queued before the news */
	for (i = 0; i < 6 && !raw_recv(mon, 0, &t); i++)
		;
	CHECK(t.msgs == 3 && t.ctrl == 2);
	CHECK(t.ctrl_cmd[0] == CTRL_CMD_DELMCAST_GRP &&
	      t.ctrl_cmd[1] == CTRL_CMD_DELFAMILY && t.ctrl_id == FNL_FAMILY);
	fnl.events = 10;
	CHECK(raw_recv(mon, 0, &t) == -1 && errno == EAGAIN);
	raw_send(req, FNL_FAMILY, RDMA_MCM_CMD_STATS_GET, 0, 20);
	CHECK(!raw_recv(req, 20, &t) && t.error == -ENOENT);
	raw_send(req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, 21);
	CHECK(!raw_recv(req, 21, &t) && t.error == -ENOENT &&
	      t.error_seq == 21);
	fnl_register(0x2e, 9, 1);
	memset(&t, 0, sizeof(t));
	while (!raw_recv(mon, 0, &t))
		;
	CHECK(t.ctrl == 2 && t.ctrl_cmd[0] == CTRL_CMD_NEWFAMILY &&
	      t.ctrl_cmd[1] == CTRL_CMD_NEWMCAST_GRP && t.ctrl_id == 0x2e);
	/* the old listener hears no event of the new family */
	CHECK(!t.msgs);
	raw_send(req, 0x2e, RDMA_MCM_CMD_STATS_GET, 0, 22);
	memset(&t, 0, sizeof(t));
	CHECK(!raw_recv(req, 22, &t) && t.msgs == 1 && !t.error);
	mcm_nl_io->close(NULL, mon);
	mcm_nl_io->close(NULL, req);
}

/* --- the module unloaded and loaded again --------------------------------- */

static void read_events(struct rdma_mcm_nl *nl, unsigned int n, int *ok)
{
	struct rdma_mcm_nl_notice ev;

	while (n--)
		*ok &= rdma_mcm_nl_read_event(nl, &ev) == 1;
}

static void test_monitor_unload(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl_notice ev;
	struct rdma_mcm_nl *nl;
	unsigned long resolves;
	int fd, ok = 1;

	fake_nl_install();
	fnl.events = 5;
	fnl.members = 4;
	nl = rdma_mcm_nl_open();
	CHECK(nl && !rdma_mcm_nl_monitor(nl));
	if (!nl)
		return;
	fd = rdma_mcm_nl_get_fd(nl);
	read_events(nl, 2, &ok);
	CHECK(ok);
	/* modprobe -r: the events sent before it, then ESHUTDOWN, for good */
	fnl_unregister(1);
	read_events(nl, 3, &ok);
	CHECK(ok);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ESHUTDOWN);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ESHUTDOWN);
	CHECK(rdma_mcm_nl_get_fd(nl) == fd);
	/* while it is gone: ENOENT, and monitor() cannot join it again */
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c), ENOENT);
	CHECK_ERRNO(rdma_mcm_nl_monitor(nl), ENOENT);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ESHUTDOWN);
	/* modprobe: another id, another group; the handle finds them */
	fnl_register(0x2e, 9, 1);
	resolves = fnl.resolves;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0 && c.n == 4);
	CHECK(fnl.resolves == resolves + 1);
	CHECK(rdma_mcm_nl_monitor(nl) == 0);
	CHECK(rdma_mcm_nl_get_fd(nl) == fd);
	fnl.events += 3;
	read_events(nl, 2, &ok);
	CHECK(ok && rdma_mcm_nl_read_event(nl, &ev) == 1);
	CHECK(ev.time_ns == 1000007000ull);
	CHECK(rdma_mcm_nl_read_event(nl, &ev) == 0);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* What the "notify" group said was lost: the handle finds out anyway */
static void test_monitor_unload_unheard(void)
{
	struct rdma_mcm_nl_notice ev;
	struct rdma_mcm_nl *nl;
	int ok = 1;

	/* reloaded, its DELFAMILY lost: the NEWFAMILY of another id */
	fake_nl_install();
	fnl.events = 2;
	nl = rdma_mcm_nl_open();
	CHECK(nl && !rdma_mcm_nl_monitor(nl));
	if (!nl)
		return;
	read_events(nl, 2, &ok);
	fnl_unregister(0);
	fnl_register(0x2e, 9, 1);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ESHUTDOWN);
	CHECK(!rdma_mcm_nl_monitor(nl));
	/* the NEWFAMILY of the id now joined is old news */
	fnl.events = 3;
	CHECK(rdma_mcm_nl_read_event(nl, &ev) == 1 && ok);
	rdma_mcm_nl_close(nl);

	/* the socket overflowed, the module went meanwhile: ESHUTDOWN */
	fake_nl_install();
	fnl.events = 10;
	fnl.enobufs_at = 2;
	nl = rdma_mcm_nl_open();
	CHECK(nl && !rdma_mcm_nl_monitor(nl));
	if (!nl)
		return;
	read_events(nl, 2, &ok);
	CHECK(ok);
	fnl_unregister(0);
	CHECK_ERRNO(rdma_mcm_nl_read_event(nl, &ev), ESHUTDOWN);
	rdma_mcm_nl_close(nl);
}

/* A handle opened before a reload: its requests find the new id, once */
static void test_reload_requests(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl_stats *st;
	struct rdma_mcm_nl *nl;
	unsigned long resolves;

	fake_nl_install();
	fnl.members = 6;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	fnl_unregister(0);
	fnl_register(0x2e, 9, 0);
	resolves = fnl.resolves;
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0 && c.n == 6);
	CHECK(fnl.resolves == resolves + 1);
	st = rdma_mcm_nl_get_stats(nl);
	CHECK(st && fnl.resolves == resolves + 1);
	rdma_mcm_nl_free_stats(st);
	/* gone: one resolution, ENOENT */
	fnl_unregister(0);
	CHECK_ERRNO(rdma_mcm_nl_dump_contexts(nl, on_context, &c), ENOENT);
	CHECK(fnl.resolves == resolves + 2);
	/* back with the same id: ENOENT from the family itself stays */
	fnl_register(0x2e, 9, 0);
	fnl.error_value = -ENOENT;
	CHECK_ERRNO(rdma_mcm_nl_get_stats(nl) ? 0 : -1, ENOENT);
	CHECK(fnl.resolves == resolves + 3);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* --- the descriptor stays ---------------------------------------------- */

static void test_fd_stable(void)
{
	struct collect c = { .stop_at = 3, .ret = 1 };
	struct rdma_mcm_nl *nl;
	unsigned int opened;
	int fd;

	fake_nl_install();
	fnl.members = 50;
	fnl.per_dgram = 2;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	fd = rdma_mcm_nl_get_fd(nl);
	opened = fnl.opened;
	/* a stopped dump: a fresh socket, at the same number */
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 1);
	CHECK(fnl.opened == opened + 1 && fnl.sockets == 1);
	CHECK(rdma_mcm_nl_get_fd(nl) == fd && readable(fd) == 0);
	/* a failed one too (EBADMSG), and the number is the live socket's */
	fnl.error_value = INT32_MIN;
	memset(&c, 0, sizeof(c));
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c), EBADMSG);
	CHECK(fnl.opened == opened + 2 && rdma_mcm_nl_get_fd(nl) == fd);
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0 &&
	      c.n == 50 && fnl.sockets == 1);
	rdma_mcm_nl_close(nl);
	CHECK(fnl.sockets == 0);
}

/* --- errors: extended ACKs, values no kernel sends ----------------------- */

static void test_extack(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;
	const char *e;

	fake_nl_install();
	fnl.members = 6;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	CHECK(!rdma_mcm_nl_last_error(nl));
	/* a module whose dumps take no attribute: its policy's words */
	fnl.old_policy = 1;
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 3, on_member, &c), EINVAL);
	e = rdma_mcm_nl_last_error(nl);
	CHECK(e && !strcmp(e, "Unknown attribute type (attribute 2)"));
	/* the next request starts afresh */
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(!rdma_mcm_nl_last_error(nl));
	/* a kernel that echoes the request (no NETLINK_CAP_ACK) */
	fnl.no_cap_ack = 1;
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 3, on_member, &c), EINVAL);
	e = rdma_mcm_nl_last_error(nl);
	CHECK(e && !strcmp(e, "Unknown attribute type (attribute 2)"));
	/* one without NETLINK_EXT_ACK: the errno alone */
	fnl.no_ext_ack = 1;
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 3, on_member, &c), EINVAL);
	CHECK(!rdma_mcm_nl_last_error(nl));
	CHECK_ERRNO(rdma_mcm_nl_last_error(NULL) ? 0 : -1, EINVAL);
	rdma_mcm_nl_close(nl);
}

/* An error value no kernel sends is EBADMSG, never a negative errno */
static void test_bad_errors(void)
{
	static const int32_t bad[] = { INT32_MIN, 5, -4096, 1 };
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;
	unsigned int i;

	fake_nl_install();
	fnl.members = 3;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fnl.error_value = bad[i];
		CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c),
			    EBADMSG);
		fnl.done_error = bad[i];
		CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c),
			    EBADMSG);
		fnl.done_error = 0;
	}
	/* the largest errno a kernel sends is one */
	fnl.done_error = -4095;
	CHECK_ERRNO(rdma_mcm_nl_dump_members(nl, 0, on_member, &c), 4095);
	fnl.done_error = 0;
	/* a NULL handle, with each call */
	CHECK_ERRNO(rdma_mcm_nl_dump_members(NULL, 0, on_member, &c), EINVAL);
	CHECK_ERRNO(rdma_mcm_nl_dump_contexts(NULL, on_context, &c), EINVAL);
	CHECK_ERRNO(rdma_mcm_nl_get_stats(NULL) ? 0 : -1, EINVAL);
	CHECK_ERRNO(rdma_mcm_nl_monitor(NULL), EINVAL);
	CHECK_ERRNO(rdma_mcm_nl_get_fd(NULL), EINVAL);
	rdma_mcm_nl_close(nl);
}

/* Another process's datagram to our port: dropped, as it came */
static void test_forged_datagram(void)
{
	struct collect c = { .in_order = 1 };
	struct rdma_mcm_nl *nl;

	fake_nl_install();
	fnl.members = 12;
	fnl.inject_port = 4242;
	nl = rdma_mcm_nl_open();
	CHECK(nl);
	if (!nl)
		return;
	/* a forged NLMSG_DONE of the dump's seq came first */
	CHECK(rdma_mcm_nl_dump_members(nl, 0, on_member, &c) == 0);
	CHECK(c.n == 12 && c.in_order);
	rdma_mcm_nl_close(nl);
}

/* route.c on the fake rtnetlink: the kernel's answer, not another's */
static void test_route_checks(void)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_storage src;
	const struct sockaddr_in *sin = (const void *)&src;
	uint32_t ifindex = 0, seq;

	fake_nl_install();
	dst.sin_addr.s_addr = htonl(0xef010101);
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) == 0);
	CHECK(sin->sin_addr.s_addr == htonl(0x0a000001) && ifindex == 2);
	seq = fnl.route_seq;
	/* another port's answer first: dropped */
	fnl.inject_port = 999;
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) == 0);
	CHECK(sin->sin_addr.s_addr == htonl(0x0a000001) && ifindex == 2);
	/* not a constant seq */
	CHECK(fnl.route_seq != seq);
	fnl.inject_port = 0;
	fnl.route_errno = -ENETUNREACH;
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) ==
	      -ENETUNREACH);
	fnl.route_errno = INT32_MIN;
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) ==
	      -EBADMSG);
	/* messages shorter than what they claim */
	fnl.route_short = 1;
	fnl.route_errno = -ENETUNREACH;
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) ==
	      -EBADMSG);
	fnl.route_errno = 0;
	CHECK(mcm_route_lookup((struct sockaddr *)&dst, &src, &ifindex) ==
	      -EBADMSG);
	CHECK(fnl.sockets == 0);
}

/* --- the structs --------------------------------------------------------- */

/*
 * Every attribute type from 1 to 63, each with 16 bytes (enough for any
 * of them; a family, a string and the nests made valid)
 */
static const struct nlmsghdr *every_attribute(uint8_t cmd)
{
	uint8_t v[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct nlb b;
	unsigned int t;

	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, cmd);
	for (t = 1; t < 64; t++) {
		if (t == RDMA_MCM_A_FAMILY)
			nlb_u16(&b, (uint16_t)t, AF_INET);
		else if (t == RDMA_MCM_A_COUNTERS || t == RDMA_MCM_A_LIMITS ||
			 t == RDMA_MCM_A_USAGE || t == RDMA_MCM_A_SOURCES ||
			 t == RDMA_MCM_A_JOIN_FAILURES ||
			 t == RDMA_MCM_A_ERRORS || t == RDMA_MCM_A_DEVICE)
			nlb_put(&b, (uint16_t)t, NULL, 0);
		else if (t == RDMA_MCM_A_OWNER_NAME || t == RDMA_MCM_A_DEV_NAME ||
			 t == RDMA_MCM_A_NETDEV)
			nlb_str(&b, (uint16_t)t, "x");
		else
			nlb_put(&b, (uint16_t)t, v, sizeof(v));
	}
	CHECK(nlb_end(&b) > 0);
	return (const void *)buf;
}

#define ABIT(a)	(1ULL << RDMA_MCM_A_##a)

/* @present: what the library parsed into the struct, nothing else */
static void test_present(void)
{
	const uint64_t member = ABIT(CTX_ID) | ABIT(HANDLE) | ABIT(OWNER_KIND) |
		ABIT(OWNER_PID) | ABIT(OWNER_UID) | ABIT(OWNER_NAME) |
		ABIT(FILE_CTX) | ABIT(NETNS) | ABIT(DEV_NAME) | ABIT(PORT) |
		ABIT(NETDEV) | ABIT(FAMILY) | ABIT(SRC) | ABIT(GROUP) | ABIT(MGID) |
		ABIT(MLID) | ABIT(QKEY) | ABIT(JOIN_TYPE) | ABIT(STATE) |
		ABIT(STATUS) | ABIT(LAST_STATUS) | ABIT(AGE_MS) |
		ABIT(STATE_AGE_MS) | ABIT(REJOINS) | ABIT(QUEUED) |
		ABIT(QP_ATTACHED) | ABIT(SOURCES) | ABIT(JOINED_BY);
	const uint64_t context = ABIT(CTX_ID) | ABIT(OWNER_KIND) |
		ABIT(OWNER_PID) | ABIT(OWNER_UID) | ABIT(OWNER_NAME) |
		ABIT(FILE_CTX) | ABIT(NETNS) | ABIT(DEV_NAME) | ABIT(PORT) |
		ABIT(NETDEV) | ABIT(FAMILY) | ABIT(SRC) | ABIT(CTX_FLAGS) |
		ABIT(MEMBERS) | ABIT(COUNTERS) | ABIT(JOIN_FAILURES) |
		ABIT(ERRORS);
	const uint64_t stats = ABIT(COUNTERS) | ABIT(JOIN_FAILURES) |
		ABIT(ERRORS) | ABIT(LIMITS) | ABIT(USAGE) | ABIT(EVENTS_LOST) |
		ABIT(DEVICE);
	struct rdma_mcm_nl_member m;
	struct rdma_mcm_nl_context c;
	struct rdma_mcm_nl_stats st;
	struct rdma_mcm_nl_notice ev;

	CHECK(!mcm_nl_parse_member(every_attribute(1), &m, &srcs));
	CHECK(m.present == member && m.present_hi == 0);
	CHECK(!mcm_nl_parse_context(every_attribute(2), &c));
	CHECK(c.present == context && c.present_hi == 0);
	memset(&st, 0, sizeof(st));
	CHECK(!mcm_nl_parse_stats(every_attribute(3), &st));
	CHECK(st.present == stats && st.present_hi == 0);
	free(st.devices);
	CHECK(!mcm_nl_parse_event(every_attribute(4), &ev, &srcs));
	CHECK(ev.m.present == (member | ABIT(EVENT) | ABIT(TIME_NS)));
	/* the canned ones: a later kernel's attribute and the padding */
	CHECK(!mcm_nl_parse_member(canned(fnl_put_member, 0, 1), &m, &srcs));
	CHECK(!RDMA_MCM_NL_HAS(&m, FNL_A_FUTURE) &&
	      !RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_PAD));
	CHECK(RDMA_MCM_NL_HAS(&m, RDMA_MCM_A_GROUP));
	/* a context's AGE_MS has no field */
	CHECK(!RDMA_MCM_NL_HAS(&c, RDMA_MCM_A_AGE_MS));
	/* beyond the masks: 0, no undefined shift */
	m.present = ~0ULL;
	m.present_hi = 1ULL << 6;
	CHECK(!RDMA_MCM_NL_HAS(&m, 64) && !RDMA_MCM_NL_HAS(&m, 200));
	CHECK(RDMA_MCM_NL_HAS(&m, 63) && !RDMA_MCM_NL_HAS(&m, 70));
}

/* A context message with errno breakdowns of @n entries (@errs, @counts) */
static const struct nlmsghdr *with_errnos(const uint32_t *errs,
					  const uint64_t *counts,
					  unsigned int n)
{
	struct nlb b;
	unsigned int i;

	nlb_init(&b, buf, sizeof(buf));
	nlb_msg(&b, FNL_FAMILY, 0, 1, RDMA_MCM_CMD_CTX_GET);
	nlb_u32(&b, RDMA_MCM_A_CTX_ID, 1);
	nlb_nest(&b, RDMA_MCM_A_ERRORS);
	for (i = 0; i < n; i++) {
		nlb_nest(&b, RDMA_MCM_A_ERRNO_COUNT);
		nlb_u32(&b, RDMA_MCM_A_ERRNO, errs[i]);
		nlb_u64(&b, RDMA_MCM_A_COUNT, counts[i]);
		nlb_nest_end(&b);
	}
	nlb_nest_end(&b);
	CHECK(nlb_end(&b) > 0);
	return (const void *)buf;
}

/* The kernel's slots (drivers/rdma_mcm_counters.c), in its order */
static const uint32_t slots[20] = {
	0, EINVAL, EAFNOSUPPORT, EADDRINUSE, ENODEV, ESHUTDOWN, EOPNOTSUPP,
	ENETDOWN, EADDRNOTAVAIL, ENETUNREACH, ETIMEDOUT, ENOMEM, EIO,
	ENETRESET, ECONNREFUSED, ENOSPC, EMFILE, ENOBUFS, ENOENT, EFAULT,
};

/*
 * A breakdown folded to 16 entries: one errno 0 entry, no named entry
 * with another's count, nothing lost; *@other its count
 */
static int folded_ok(const struct rdma_mcm_nl_counters *cnt,
		     const uint32_t *errs, const uint64_t *counts,
		     unsigned int n, uint64_t *other)
{
	unsigned int i, j, zeros = 0;
	uint64_t sum = 0, total = 0;
	int ok = cnt->n_errors == RDMA_MCM_NL_ERRNOS;

	for (i = 0; i < n; i++)
		total += counts[i];
	for (i = 0; i < cnt->n_errors && i < RDMA_MCM_NL_ERRNOS; i++) {
		const struct rdma_mcm_nl_errno_count *e = &cnt->errors[i];

		sum += e->count;
		if (!e->err) {
			zeros++;
			*other = e->count;
			continue;
		}
		for (j = 0; j < n && errs[j] != e->err; j++)
			;
		ok &= j < n && counts[j] == e->count;
	}
	return ok && zeros == 1 && sum == total;
}

static int kept(const struct rdma_mcm_nl_counters *cnt, uint32_t err,
		uint64_t count)
{
	uint32_t i;

	for (i = 0; i < cnt->n_errors; i++)
		if (cnt->errors[i].err == err)
			return cnt->errors[i].count == count;
	return 0;
}

static void test_errnos_20(void)
{
	struct rdma_mcm_nl_context c;
	uint32_t errs[20];
	uint64_t counts[20], other = 0;
	unsigned int i;

	/* all 20 slots, equal counts: the limit errnos kept by name */
	for (i = 0; i < 20; i++)
		counts[i] = 100;
	CHECK(!mcm_nl_parse_context(with_errnos(slots, counts, 20), &c));
	CHECK(folded_ok(&c.cnt, slots, counts, 20, &other));
	CHECK(kept(&c.cnt, ENOSPC, 100) && kept(&c.cnt, EMFILE, 100) &&
	      kept(&c.cnt, ENOBUFS, 100));
	/* the kernel's "other" and the 4 named ones folded */
	CHECK(other == 500 && c.cnt.errors[0].err == 0);
	CHECK(kept(&c.cnt, EINVAL, 100) && !kept(&c.cnt, EFAULT, 100));
	/* the order of the kernel: EINVAL first after "other" */
	CHECK(c.cnt.errors[1].err == EINVAL &&
	      c.cnt.errors[15].err == ENOBUFS);

	/* by count: a frequent errno is kept over a rare one */
	for (i = 0; i < 20; i++)
		counts[i] = 10 + i;
	counts[13] = 5000;		/* ENETRESET */
	counts[15] = 1;			/* ENOSPC: a limit, kept */
	CHECK(!mcm_nl_parse_context(with_errnos(slots, counts, 20), &c));
	CHECK(folded_ok(&c.cnt, slots, counts, 20, &other));
	CHECK(kept(&c.cnt, ENETRESET, 5000) && kept(&c.cnt, ENOSPC, 1) &&
	      kept(&c.cnt, EMFILE, 26) && kept(&c.cnt, EFAULT, 29));
	CHECK(!kept(&c.cnt, EINVAL, 11) && !kept(&c.cnt, EAFNOSUPPORT, 12));
	CHECK(other == 10 + 11 + 12 + 13 + 14);

	/* slot 0 last, as a kernel might send it: the same entries */
	for (i = 0; i < 20; i++) {
		errs[i] = slots[(i + 1) % 20];
		counts[i] = 100;
	}
	CHECK(!mcm_nl_parse_context(with_errnos(errs, counts, 20), &c));
	CHECK(folded_ok(&c.cnt, errs, counts, 20, &other) && other == 500);
	CHECK(kept(&c.cnt, ENOSPC, 100) && kept(&c.cnt, EMFILE, 100) &&
	      c.cnt.errors[15].err == 0);

	/* no "other" from the kernel: one is made, last */
	CHECK(!mcm_nl_parse_context(with_errnos(slots + 1, counts, 19), &c));
	CHECK(folded_ok(&c.cnt, slots + 1, counts, 19, &other) &&
	      other == 400 && c.cnt.errors[15].err == 0);
	/* 16 fit as they are */
	CHECK(!mcm_nl_parse_context(with_errnos(slots, counts, 16), &c));
	CHECK(c.cnt.n_errors == 16 && c.cnt.errors[15].err == ENOSPC &&
	      c.cnt.errors[0].err == 0 && c.cnt.errors[0].count == 100);
}

/* The man pages give the receive buffer's size once, and right */
static void test_man_buffer(void)
{
	char path[256], line[512], want[32];
	const char *slash = strrchr(__FILE__, '/');
	unsigned int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s../../man/man3/rdma_mcm_nl_open.3",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
	snprintf(want, sizeof(want), "%d KiB", MCM_GENL_BUF / 1024);
	f = fopen(path, "r");
	CHECK(f);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "KiB"))
			found += strstr(line, want) ? 1 : 100;
	fclose(f);
	CHECK(found == 1);
}

void nl_tests(void)
{
	h_run("netlink: parse a membership", test_parse_member);
	h_run("netlink: parse a context and its counters", test_parse_context);
	h_run("netlink: parse stats and devices", test_parse_stats);
	h_run("netlink: parse events", test_parse_event);
	h_run("netlink: unknown attributes skipped", test_parse_unknown);
	h_run("netlink: truncated attributes rejected", test_parse_truncated);
	h_run("netlink: sources (4, 16 bytes, skipped, 300) and joined-by",
	      test_parse_sources);
	h_run("netlink: a dump's sources during its callback",
	      test_dump_sources);
	h_run("netlink: open, close, family absent", test_open_close);
	h_run("netlink: dump memberships, ctx filter", test_dump_members);
	h_run("netlink: dump of 100000 memberships", test_dump_100k);
	h_run("netlink: callback stops a dump", test_dump_stop);
	h_run("netlink: EINTR and a kernel error", test_dump_eintr_error);
	h_run("netlink: dump contexts", test_dump_contexts);
	h_run("netlink: stats", test_stats);
	h_run("netlink: monitor", test_monitor);
	h_run("netlink: monitor ENOBUFS", test_monitor_enobufs);
	h_run("netlink: names", test_nl_strings);
	h_run("netlink: a callback's calls on its own handle: EBUSY",
	      test_reentrant);
	h_run("netlink fake: a dump while one runs is EBUSY (af_netlink)",
	      test_fake_ebusy);
	h_run("netlink fake: the family unregistered and registered (genl)",
	      test_fake_family_removal);
	h_run("netlink: monitor after modprobe -r: ESHUTDOWN, then again",
	      test_monitor_unload);
	h_run("netlink: monitor: an unload it was not told of",
	      test_monitor_unload_unheard);
	h_run("netlink: requests after a reload find the family again",
	      test_reload_requests);
	h_run("netlink: the descriptor outlives a stopped or failed dump",
	      test_fd_stable);
	h_run("netlink: extended ACK text (rdma_mcm_nl_last_error)",
	      test_extack);
	h_run("netlink: error values no kernel sends: EBADMSG; NULL handle",
	      test_bad_errors);
	h_run("netlink: another port's datagram is dropped",
	      test_forged_datagram);
	h_run("netlink: route lookup: the kernel's answer, checked",
	      test_route_checks);
	h_run("netlink: present holds what was parsed; present_hi",
	      test_present);
	h_run("netlink: 20 errno slots into 16 entries", test_errnos_20);
	h_run("netlink: the man page gives the buffer's size",
	      test_man_buffer);
	fake_nl_uninstall();
}
