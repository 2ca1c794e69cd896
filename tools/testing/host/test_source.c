// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Unit tests of LIBRDMAMCM_1.5 on the fake device: source-specific joins
 * (rdma_mcm_join_source, _sync, batch entries with sources): the sources
 * reach the kernel exactly as given, each errno of the library and of the
 * kernel, a module older than sources (E2BIG becomes EOPNOTSUPP), the
 * membership the library keeps for such a join; rdma_mcm_get_features;
 * and the versions of query, list and join_batch: a program linked
 * against an older version gets no more of its struct read or written
 * than its size. The fake's own checks of the sources (fake_src.c), as
 * the module makes them, through raw ioctls.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>

#include "fake_dev.h"
#include "harness.h"
#include "rdma_mcm_priv.h"
#include "tutil.h"

#define CANARY		0x5a
#define FEATURES	(RDMA_MCM_FEATURE_SOURCES | RDMA_MCM_FEATURE_IPV6_ROCE)

static int canary_intact(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++ != CANARY)
			return 0;
	return 1;
}

/* @n addresses from @text, and pointers to them */
struct srcs {
	struct sockaddr_storage ss[RDMA_MCM_MAX_SOURCES + 1];
	const struct sockaddr *p[RDMA_MCM_MAX_SOURCES + 1];
};

static const struct sockaddr *const *srcs_of(struct srcs *s,
					     const char *const *text,
					     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		s->ss[i] = addr(text[i]);
		s->p[i] = SA(s->ss[i]);
	}
	return s->p;
}

/* @n distinct IPv4 sources 10.1.0.1, 10.1.0.2, ... (or IPv6 2001:db8::N) */
static const struct sockaddr *const *many(struct srcs *s, unsigned int n,
					  int ip6)
{
	struct sockaddr_in6 *sin6;
	struct sockaddr_in *sin;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		if (ip6) {
			s->ss[i] = addr("2001:db8::");
			sin6 = (struct sockaddr_in6 *)&s->ss[i];
			sin6->sin6_addr.s6_addr[15] = (uint8_t)(i + 1);
		} else {
			sin = (struct sockaddr_in *)&s->ss[i];
			sin->sin_family = AF_INET;
			sin->sin_addr.s_addr = htonl(0x0a010001u + i);
		}
		s->p[i] = SA(s->ss[i]);
	}
	return s->p;
}

/* --- the sources as the kernel gets them --------------------------------- */

/* Each source is the application's sockaddr, its length, reserved 0 */
static void check_passed(const struct srcs *s, unsigned int n, size_t len)
{
	static const uint8_t zero[RDMA_MCM_ADDR_SIZE];
	unsigned int i;

	CHECK(fake.last_nr_sources == n);
	CHECK(fake.last_source_size ==
	      sizeof(struct rdma_mcm_source) + MCM_TEST_GROW);
	for (i = 0; i < n; i++) {
		const struct rdma_mcm_source *k = &fake.last_src[i];

		CHECK(k->addr_len == len && k->reserved == 0);
		CHECK(!memcmp(k->addr, &s->ss[i], len));
		CHECK(!memcmp(k->addr + len, zero, sizeof(k->addr) - len));
	}
}

static void test_passed_exactly(void)
{
	static const char *const v4[] = { "192.0.2.1", "192.0.2.7",
					  "198.51.100.3" };
	struct sockaddr_storage g = addr("239.6.0.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	struct mcm_member *m;
	struct srcs s;
	uint32_t ctx, h = 0;

	ch = setup(O_NONBLOCK, &ctx);
	fake.auto_complete = 1;
	srcs_of(&s, v4, 3);
	/* a port in a source goes as it is: the kernel ignores it */
	((struct sockaddr_in *)&s.ss[1])->sin_port = htons(4791);
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 3, 0, 77, &h) == 0);
	CHECK(h && fake.nr_source_joins == 1);
	check_passed(&s, 3, sizeof(struct sockaddr_in));
	CHECK(fake.ioc_size[_IOC_NR(RDMA_MCM_IOC_JOIN)] ==
	      sizeof(struct rdma_mcm_join) + MCM_TEST_GROW);
	/* the library keeps it as any membership: flags, events, leave */
	m = mcm_table_find(&ch->members, ctx, h);
	CHECK(m && m->join_flags == RDMA_MCM_JOIN_FULLMEMBER);
	CHECK(rdma_mcm_get_event(ch, &ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.handle == h &&
	      ev.cookie == 77);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.nr_sources == 3 && mb.flags == 0 && mb.cookie == 77);
	/* nr_sources 0: a join of any source, sources ignored */
	g = addr("239.6.0.2");
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), NULL, 0, 0, 78, &h) == 0);
	CHECK(fake.nr_source_joins == 1);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0 && mb.nr_sources == 0);
	CHECK(rdma_mcm_leave(ch, ctx, h) == 0);
	rdma_mcm_close_channel(ch);
}

/* IPv6 on RoCE v2: rdma_mcm joins it itself; 64 sources pass */
static void test_ipv6(void)
{
	static const char *const bad6[] = { "::", "ff02::1", "192.0.2.1" };
	struct sockaddr_storage src = addr("2001:db8::a"), g = addr("ff0e::6");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct srcs s;
	uint32_t ctx, h = 0;

	fake_install();
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch && rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	many(&s, RDMA_MCM_MAX_SOURCES, 1);
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), s.p, RDMA_MCM_MAX_SOURCES,
				   0, 1, &h) == 0);
	check_passed(&s, RDMA_MCM_MAX_SOURCES, sizeof(struct sockaddr_in6));
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0);
	CHECK(mb.nr_sources == RDMA_MCM_MAX_SOURCES);
	CHECK(mb.flags == RDMA_MCM_MEMBER_JOINED_BY_MCM);
	/* more than net.ipv6.mld_max_msf */
	fake.mld_max_msf = 8;
	g = addr("ff0e::7");
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 9, 0, 2, &h),
		    ENOBUFS);
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 8, 0, 2, &h) == 0);
	/* not unicast: the any address, a multicast one; an IPv4 one */
	g = addr("ff0e::9");
	srcs_of(&s, bad6, 3);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 1, 0, 4, &h),
		    EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p + 1, 1, 0, 4,
					 &h), EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p + 2, 1, 0, 4,
					 &h), EINVAL);
	/* an InfiniBand port: rdma_cm joined it, no source filter there */
	fake.ib_port = 1;
	g = addr("ff0e::8");
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 1, 0, 3, &h),
		    EOPNOTSUPP);
	CHECK(rdma_mcm_join(ch, ctx, SA(g), 0, 3, &h) == 0);
	CHECK(rdma_mcm_query(ch, ctx, h, &mb) == 0 && mb.flags == 0);
	rdma_mcm_close_channel(ch);
}

/* --- errnos ------------------------------------------------------------------ */

/* What the library refuses itself: nothing reaches the kernel */
static void test_library_errors(void)
{
	static const char *const two[] = { "192.0.2.1", "192.0.2.2" };
	struct sockaddr_storage g = addr("239.6.1.1"), bad;
	const struct sockaddr *holes[2];
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	unsigned int ioctls;
	struct srcs s;
	uint32_t ctx, h = 0;

	ch = setup(O_NONBLOCK, &ctx);
	srcs_of(&s, two, 2);
	ioctls = fake.nr_ioctls;
	CHECK_ERRNO(rdma_mcm_join_source(NULL, ctx, SA(g), s.p, 2, 0, 1, &h),
		    EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, NULL, s.p, 2, 0, 1, &h),
		    EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), NULL, 2, 0, 1, &h),
		    EINVAL);
	holes[0] = s.p[0];
	holes[1] = NULL;
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), holes, 2, 0, 1, &h),
		    EINVAL);
	many(&s, RDMA_MCM_MAX_SOURCES + 1, 0);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p,
					 RDMA_MCM_MAX_SOURCES + 1, 0, 1, &h),
		    EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 2,
					 RDMA_MCM_JOIN_SENDONLY_FULLMEMBER,
					 1, &h), EINVAL);
	memset(&bad, 0, sizeof(bad));
	bad.ss_family = AF_UNIX;
	holes[1] = SA(bad);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), holes, 2, 0, 1, &h),
		    EAFNOSUPPORT);
	CHECK_ERRNO(rdma_mcm_join_source_sync(NULL, ctx, SA(g), s.p, 1, 0, 1,
					      10, &ev), EINVAL);
	CHECK_ERRNO(rdma_mcm_join_source_sync(ch, ctx, SA(g), NULL, 1, 0, 1,
					      10, &ev), EINVAL);
	CHECK(fake.nr_ioctls == ioctls && h == 0);
	CHECK(ch->members.count == 0);
	rdma_mcm_close_channel(ch);
}

/* What the kernel refuses (the fake as the module): the errno, nothing kept */
static void test_kernel_errors(void)
{
	static const struct {
		const char *group;
		const char *src[3];
		unsigned int n;
		int err;
	} cases[] = {
		{ "239.6.2.1", { "2001:db8::1" }, 1, EINVAL },	/* family */
		{ "239.6.2.1", { "239.1.1.1" }, 1, EINVAL },	/* multicast */
		{ "239.6.2.1", { "0.0.0.0" }, 1, EINVAL },
		{ "239.6.2.1", { "0.1.2.3" }, 1, EINVAL },	/* 0/8 */
		{ "239.6.2.1", { "255.255.255.255" }, 1, EINVAL },
		{ "239.6.2.1", { "192.0.2.1", "192.0.2.2", "192.0.2.1" }, 3,
		  EINVAL },					/* twice */
		{ "239.6.2.9", { "192.0.2.1" }, 1, ENOENT },	/* no ctx */
	};
	struct sockaddr_storage g;
	struct rdma_mcm_channel *ch;
	struct srcs s;
	uint32_t ctx, c, h;
	size_t i;

	ch = setup(O_NONBLOCK, &ctx);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		g = addr(cases[i].group);
		srcs_of(&s, cases[i].src, cases[i].n);
		c = ctx;
		if (cases[i].err == ENOENT)
			c += 9;		/* no such context */
		h = 0;
		errno = 0;
		CHECK(rdma_mcm_join_source(ch, c, SA(g), s.p, cases[i].n, 0, 1,
					   &h) == -1);
		h_check(errno == cases[i].err, cases[i].src[0], __FILE__,
			__LINE__);
		CHECK(h == 0);
	}
	CHECK(ch->members.count == 0 && fake.nr_source_joins == 0);
	/* more sources than net.ipv4.igmp_max_msf (10) */
	g = addr("239.6.2.2");
	many(&s, 11, 0);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 11, 0, 1, &h),
		    ENOBUFS);
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 10, 0, 1, &h) == 0);
	/* one membership per group, sources or not */
	CHECK_ERRNO(rdma_mcm_join(ch, ctx, SA(g), 0, 2, &h), EADDRINUSE);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 1, 0, 2, &h),
		    EADDRINUSE);
	/* an InfiniBand port */
	fake.ib_port = 1;
	g = addr("239.6.2.3");
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 1, 0, 3, &h),
		    EOPNOTSUPP);
	CHECK(ch->members.count == 1);
	rdma_mcm_close_channel(ch);
}

/* A module older than sources: E2BIG is EOPNOTSUPP; plain joins work */
static void test_old_module(void)
{
	static const char *const one[] = { "192.0.2.1" };
	struct sockaddr_storage g = addr("239.6.3.1"), src = addr("10.0.0.1");
	struct rdma_mcm_join_entry je[2];
	struct rdma_mcm_source bs[1];
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	uint32_t ctx, features = 99, h = 0;
	struct srcs s;

	fake_install();
	fake.no_sources = 1;
	ch = rdma_mcm_open_channel(O_NONBLOCK);
	CHECK(ch);
	CHECK(rdma_mcm_get_features(ch, &features) == 0 && features == 0);
	CHECK(rdma_mcm_create_ctx(ch, SA(src), &ctx) == 0);
	srcs_of(&s, one, 1);
	CHECK_ERRNO(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 1, 0, 1, &h),
		    EOPNOTSUPP);
	CHECK_ERRNO(rdma_mcm_join_source_sync(ch, ctx, SA(g), s.p, 1, 0, 1,
					      100, &ev), EOPNOTSUPP);
	CHECK(h == 0 && ch->members.count == 0 && fake.nr_members == 0);
	/* without sources the longer struct has a zero tail: it joins */
	fake.auto_complete = 1;
	CHECK(rdma_mcm_join_source_sync(ch, ctx, SA(g), NULL, 0, 0, 2, 100,
					&ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED);
	/* 208 bytes asked, 200 written: the new fields read zero */
	memset(&mb, CANARY, sizeof(mb));
	CHECK(rdma_mcm_query(ch, ctx, ev.handle, &mb) == 0);
	CHECK(mb.nr_sources == 0 && mb.flags == 0 && mb.cookie == 2);
	/* a batch: the entry with sources alone fails */
	memset(je, 0, sizeof(je));
	memset(bs, 0, sizeof(bs));
	bs[0].addr_len = sizeof(struct sockaddr_in);
	memcpy(bs[0].addr, &s.ss[0], sizeof(struct sockaddr_in));
	entry_addr(je[0].addr, "239.6.3.2");
	je[0].sources = (uintptr_t)bs;
	je[0].nr_sources = 1;
	entry_addr(je[1].addr, "239.6.3.3");
	CHECK(rdma_mcm_join_batch(ch, ctx, je, 2) == 2);
	CHECK(je[0].result == -EOPNOTSUPP && je[0].handle == 0);
	CHECK(je[1].result == 0 && je[1].handle);
	CHECK(ch->members.count == 2);
	rdma_mcm_close_channel(ch);
}

static void test_features(void)
{
	struct rdma_mcm_channel *ch;
	uint32_t ctx, features = 0;

	ch = setup(O_NONBLOCK, &ctx);
	CHECK(rdma_mcm_get_features(ch, &features) == 0);
	CHECK(features == FEATURES);
	CHECK_ERRNO(rdma_mcm_get_features(NULL, &features), EINVAL);
	CHECK_ERRNO(rdma_mcm_get_features(ch, NULL), EINVAL);
	rdma_mcm_close_channel(ch);
	/* before healing, and an older one still: the field was reserved */
	ch = setup_kernel(O_NONBLOCK, &ctx, 1, 0);
	CHECK(rdma_mcm_get_features(ch, &features) == 0 && features == 0);
	rdma_mcm_close_channel(ch);
}

/* join_source_sync: the JOINED event; a failed join is left */
static void test_join_source_sync(void)
{
	static const char *const two[] = { "192.0.2.1", "192.0.2.2" };
	struct sockaddr_storage g = addr("239.6.4.1");
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	struct rdma_mcm_event ev;
	struct srcs s;
	uint32_t ctx;

	ch = setup(0, &ctx);
	fake.auto_complete = 1;
	srcs_of(&s, two, 2);
	CHECK(rdma_mcm_join_source_sync(ch, ctx, SA(g), s.p, 2, 0, 5, 1000,
					&ev) == 0);
	CHECK(ev.event == RDMA_MCM_EVENT_JOINED && ev.cookie == 5);
	CHECK(rdma_mcm_query(ch, ctx, ev.handle, &mb) == 0);
	CHECK(mb.nr_sources == 2 && mb.state == RDMA_MCM_STATE_JOINED);
	check_passed(&s, 2, sizeof(struct sockaddr_in));
	/* an ERROR: its status as errno, and nothing left behind */
	g = addr("239.6.4.2");
	fake.fail_group[0] = 239;
	fake.fail_group[1] = 6;
	fake.fail_group[2] = 4;
	fake.fail_group[3] = 2;
	fake.fail_status = -ECONNREFUSED;
	CHECK_ERRNO(rdma_mcm_join_source_sync(ch, ctx, SA(g), s.p, 2, 0, 6,
					      1000, &ev), ECONNREFUSED);
	CHECK(ev.event == RDMA_MCM_EVENT_ERROR);
	CHECK(fake.nr_members == 1 && ch->members.count == 1);
	/* no answer in time: left too */
	fake.auto_complete = 0;
	g = addr("239.6.4.3");
	CHECK_ERRNO(rdma_mcm_join_source_sync(ch, ctx, SA(g), s.p, 1, 0, 7,
					      20, &ev), ETIMEDOUT);
	CHECK(fake.nr_members == 1 && ch->members.count == 1);
	rdma_mcm_close_channel(ch);
}

/* --- the fake's own checks, as the module's ---------------------------------- */

/* A raw JOIN of 239.6.5.1 on context @ctx with @n sources of @size bytes */
static int raw_join(uint32_t ctx, const void *src, uint32_t n, uint32_t size,
		    uint32_t flags)
{
	struct rdma_mcm_join j;
	struct sockaddr_storage g = addr("239.6.5.1");

	memset(&j, 0, sizeof(j));
	j.ctx_id = ctx;
	j.join_flags = flags;
	j.addr_len = sizeof(struct sockaddr_in);
	memcpy(j.addr, &g, j.addr_len);
	j.sources = (uintptr_t)src;
	j.nr_sources = n;
	j.source_size = size;
	errno = 0;
	if (!fake_file_ioctl(fake.efd, RDMA_MCM_IOC_JOIN, &j))
		return 0;
	return errno;
}

static void test_fake_rules(void)
{
	struct {
		struct rdma_mcm_source s;
		uint8_t tail[8];
	} big[2];
	struct rdma_mcm_source src[2];
	struct sockaddr_storage a = addr("192.0.2.1");
	struct rdma_mcm_channel *ch;
	uint32_t ctx;

	ch = setup(O_NONBLOCK, &ctx);
	memset(src, 0, sizeof(src));
	src[0].addr_len = sizeof(struct sockaddr_in);
	memcpy(src[0].addr, &a, sizeof(struct sockaddr_in));
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]) - 1, 0) == EINVAL);
	CHECK(raw_join(ctx, src, 1, RDMA_MCM_MAX_ENTRY_SIZE + 1, 0) == E2BIG);
	CHECK(raw_join(ctx, NULL, 1, sizeof(src[0]), 0) == EFAULT);
	CHECK(raw_join(ctx, src, RDMA_MCM_MAX_SOURCES + 1, sizeof(src[0]), 0) ==
	      EINVAL);
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]),
		       RDMA_MCM_JOIN_SENDONLY_FULLMEMBER) == EINVAL);
	src[0].reserved = 1;
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]), 0) == EINVAL);
	src[0].reserved = 0;
	src[0].addr_len = 8;		/* shorter than a sockaddr_in */
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]), 0) == EINVAL);
	src[0].addr_len = RDMA_MCM_ADDR_SIZE + 1;
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]), 0) == EINVAL);
	src[0].addr_len = sizeof(struct sockaddr_in);
	src[0].addr[0] = 99;		/* no family the kernel knows */
	src[0].addr[1] = 0;
	CHECK(raw_join(ctx, src, 1, sizeof(src[0]), 0) == EAFNOSUPPORT);
	/* a longer struct: its tail must be zero */
	memset(big, 0, sizeof(big));
	big[0].s.addr_len = sizeof(struct sockaddr_in);
	memcpy(big[0].s.addr, &a, sizeof(struct sockaddr_in));
	big[0].tail[7] = 1;
	CHECK(raw_join(ctx, big, 1, sizeof(big[0]), 0) == E2BIG);
	big[0].tail[7] = 0;
	CHECK(raw_join(ctx, big, 1, sizeof(big[0]), 0) == 0);
	CHECK(fake.last_source_size == sizeof(big[0]));
	CHECK(fake.last_src[0].addr_len == sizeof(struct sockaddr_in));
	rdma_mcm_close_channel(ch);
}

/* --- the versions of query, list and join_batch ------------------------- */

static void test_member_versions(int new_kernel)
{
	static const char *const two[] = { "192.0.2.1", "192.0.2.2" };
	uint8_t buf[2 * MCM_API_MEMBER_SIZE + 32];
	struct sockaddr_storage g = addr("239.6.6.1");
	struct rdma_mcm_member *mb = (void *)buf;
	struct rdma_mcm_channel *ch;
	uint32_t ctx, h, h2, next;
	struct srcs s;
	size_t k, sz;

	ch = setup_kernel(O_NONBLOCK, &ctx, 0, new_kernel);
	srcs_of(&s, two, 2);
	CHECK(rdma_mcm_join_source(ch, ctx, SA(g), s.p, 2, 0, 1, &h) == 0);
	h2 = join(ch, ctx, "239.6.6.2", 2);
	/* 1.5: 208 bytes, nr_sources and flags at 200..207 */
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_query_v1_5(ch, ctx, h, mb) == 0);
	CHECK(mb->nr_sources == 2 && mb->flags == 0 && mb->handle == h);
	CHECK(canary_intact(buf + MCM_API_MEMBER_SIZE,
			    sizeof(buf) - MCM_API_MEMBER_SIZE));
	memset(buf, CANARY, sizeof(buf));
	CHECK(rdma_mcm_list_v1_5(ch, ctx, 0, mb, 2, &next) == 2);
	CHECK(mb[0].nr_sources == 2 && mb[1].nr_sources == 0);
	CHECK(mb[1].handle == h2 && next == 0);
	CHECK(canary_intact(buf + 2 * MCM_API_MEMBER_SIZE,
			    sizeof(buf) - 2 * MCM_API_MEMBER_SIZE));
	/* 1.3 and 1.0: 200 and 184 bytes, never more */
	for (k = 0; k < 2; k++) {
		sz = k ? MCM_API_MEMBER_SIZE_1_0 : MCM_API_MEMBER_SIZE_1_3;
		memset(buf, CANARY, sizeof(buf));
		CHECK((k ? rdma_mcm_query_v1_0 : rdma_mcm_query_v1_3)
		      (ch, ctx, h, buf) == 0);
		CHECK(mb->handle == h && mb->cookie == 1);
		CHECK(canary_intact(buf + sz, sizeof(buf) - sz));
		memset(buf, CANARY, sizeof(buf));
		CHECK((k ? rdma_mcm_list_v1_0 : rdma_mcm_list_v1_3)
		      (ch, ctx, 0, buf, 2, &next) == 2);
		CHECK(((struct rdma_mcm_member *)(buf + sz))->handle == h2);
		CHECK(canary_intact(buf + 2 * sz, sizeof(buf) - 2 * sz));
		if (!MCM_TEST_GROW)
			CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_LIST)] == sz);
	}
	rdma_mcm_close_channel(ch);
}

static void test_member_versions_current(void)
{
	test_member_versions(0);
}

static void test_member_versions_newer(void)
{
	test_member_versions(1);
}

/*
 * join_batch 1.0: 152-byte entries, followed here by bytes that are no
 * entry's (had the library read 168 bytes, the kernel would have seen a
 * non-zero tail); 1.5: 168-byte entries with their sources
 */
static void test_batch_versions(void)
{
	uint8_t buf[2 * MCM_API_JOIN_ENTRY_SIZE + 32];
	struct rdma_mcm_join_entry *e0 = (void *)buf, *e;
	struct sockaddr_storage a = addr("192.0.2.9");
	struct rdma_mcm_source bs[2];
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_member mb;
	uint32_t ctx;
	int i;

	ch = setup(O_NONBLOCK, &ctx);
	memset(buf, CANARY, sizeof(buf));
	for (i = 0; i < 2; i++) {
		e = (void *)(buf + i * MCM_API_JOIN_ENTRY_SIZE_1_0);
		memset(e, 0, MCM_API_JOIN_ENTRY_SIZE_1_0);
		entry_addr(e->addr, i ? "239.6.7.2" : "239.6.7.1");
		e->cookie = 10 + (uint64_t)i;
	}
	CHECK(rdma_mcm_join_batch_v1_0(ch, ctx, buf, 2) == 2);
	e = (void *)(buf + MCM_API_JOIN_ENTRY_SIZE_1_0);
	CHECK(e0->result == 0 && e0->handle && e->result == 0 && e->handle);
	CHECK(canary_intact(buf + 2 * MCM_API_JOIN_ENTRY_SIZE_1_0,
			    sizeof(buf) - 2 * MCM_API_JOIN_ENTRY_SIZE_1_0));
	CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] ==
	      (MCM_TEST_GROW ? sizeof(struct mcm_wire_join_entry) :
	       MCM_API_JOIN_ENTRY_SIZE_1_0));
	CHECK(ch->members.count == 2);

	/* 1.5: the first entry with two sources, source_size left 0 */
	memset(bs, 0, sizeof(bs));
	for (i = 0; i < 2; i++) {
		bs[i].addr_len = sizeof(struct sockaddr_in);
		memcpy(bs[i].addr, &a, sizeof(struct sockaddr_in));
		bs[i].addr[7] = (uint8_t)(9 + i);	/* 192.0.2.9, .10 */
	}
	memset(buf, CANARY, sizeof(buf));
	memset(buf, 0, 2 * MCM_API_JOIN_ENTRY_SIZE);
	e = (void *)buf;
	entry_addr(e[0].addr, "239.6.7.3");
	e[0].sources = (uintptr_t)bs;
	e[0].nr_sources = 2;
	entry_addr(e[1].addr, "239.6.7.4");
	CHECK(rdma_mcm_join_batch_v1_5(ch, ctx, e, 2) == 2);
	CHECK(e[0].result == 0 && e[1].result == 0);
	CHECK(e[0].source_size == sizeof(struct rdma_mcm_source));
	CHECK(fake.last_nr_sources == 2);
	CHECK(!memcmp(fake.last_src, bs, sizeof(bs)));
	CHECK(canary_intact(buf + 2 * MCM_API_JOIN_ENTRY_SIZE,
			    sizeof(buf) - 2 * MCM_API_JOIN_ENTRY_SIZE));
	CHECK(fake.entry_size[_IOC_NR(RDMA_MCM_IOC_BATCH_JOIN)] ==
	      MCM_API_JOIN_ENTRY_SIZE + MCM_TEST_GROW);
	CHECK(rdma_mcm_query(ch, ctx, e[0].handle, &mb) == 0);
	CHECK(mb.nr_sources == 2);
	/* a bad entry fails alone; its E2BIG is its own on this module */
	e[0].source_size = RDMA_MCM_MAX_ENTRY_SIZE + 8;
	entry_addr(e[0].addr, "239.6.7.5");
	entry_addr(e[1].addr, "239.6.7.6");
	CHECK(rdma_mcm_join_batch(ch, ctx, e, 2) == 2);
	CHECK(e[0].result == -E2BIG && e[1].result == 0);
	CHECK(ch->members.count == 5);
	rdma_mcm_close_channel(ch);
}

void source_tests(void)
{
	h_run("join_source: the sources reach the kernel as given",
	      test_passed_exactly);
	h_run("join_source: IPv6 on RoCE v2, 64 sources, mld_max_msf, IB",
	      test_ipv6);
	h_run("join_source: what the library refuses", test_library_errors);
	h_run("join_source: what the kernel refuses", test_kernel_errors);
	h_run("join_source: a module older than sources, EOPNOTSUPP",
	      test_old_module);
	h_run("get_features", test_features);
	h_run("join_source_sync", test_join_source_sync);
	h_run("the fake checks the sources as the module does",
	      test_fake_rules);
	h_run("query and list 1.5, 1.3, 1.0: 208, 200, 184 bytes",
	      test_member_versions_current);
	h_run("query and list 1.5, 1.3, 1.0 on a newer kernel",
	      test_member_versions_newer);
	h_run("join_batch 1.0 and 1.5: 152 and 168-byte entries",
	      test_batch_versions);
}
