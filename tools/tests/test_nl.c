// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of librdmamcm's netlink client (lib/netlink.c) on the fake
 * generic netlink kernel (tests/fake_nl.c): the parsers on canned kernel
 * messages, dumps, stats, the "events" group and its ENOBUFS; the sources
 * of a source-specific join and who joined (LIBRDMAMCM_1.5).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <poll.h>
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
}
