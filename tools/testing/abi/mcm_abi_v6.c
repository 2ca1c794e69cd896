// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: IPv6 groups on RoCE v2, which rdma_mcm joins itself.
 *
 * With 2001:db8:6::2 on veth1 (added and removed here): a full, a
 * send-only and a source-specific join of IPv6 groups on RoCE v2 work,
 * with RDMA_MCM_MEMBER_JOINED_BY_MCM, alone and in a batch; MLD
 * (/proc/net/igmp6) and the MLDv2 filter (/proc/net/mcfilter6) come and
 * go with them; the errnos of IPv6 sources; an IPv4 group on an IPv6
 * context is EINVAL.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mcm_abi.h"

#define MSF6		"/proc/sys/net/ipv6/mld_max_msf"
#define V6_SRC		"2001:db8:6::2"	/* veth1, added for the IPv6 checks */
#define V6_GID		"2001:0db8:0006:0000:0000:0000:0000:0002"

static int v6_ctx(int fd, uint32_t *ctx_id)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct rdma_mcm_create_ctx cc = { 0 };
	int ret;

	inet_pton(AF_INET6, V6_SRC, &s6.sin6_addr);
	memcpy(cc.src, &s6, sizeof(s6));
	cc.src_len = sizeof(s6);
	ret = ioctl(fd, RDMA_MCM_IOC_CREATE_CTX, &cc);
	*ctx_id = cc.ctx_id;
	return ret;
}

/* Does rxe1's GID table list @gid (as sysfs prints it)? */
static int rxe1_has_gid(const char *gid)
{
	char path[96], line[64];
	int i, found = 0;
	FILE *f;

	for (i = 0; i < 32 && !found; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/rxe1/ports/1/gids/%d", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		found = fgets(line, sizeof(line), f) &&
			!strncmp(line, gid, strlen(gid));
		fclose(f);
	}
	return found;
}

static void v6_join_arg(struct rdma_mcm_join *j, uint32_t ctx,
			const char *group, uint32_t flags, const void *srcs,
			uint32_t nr)
{
	memset(j, 0, sizeof(*j));
	j->ctx_id = ctx;
	j->cookie = 600;
	j->join_flags = flags;
	j->handle = PAT32;
	put_group6(j->addr, &j->addr_len, group);
	j->sources = (uintptr_t)srcs;
	j->nr_sources = nr;
	j->source_size = RDMA_MCM_SOURCE_SIZE_VER0;
}

/* The membership's MGID is the IPv6 group itself */
static int mgid_is(const uint8_t *mgid, const char *group)
{
	struct in6_addr a;

	inet_pton(AF_INET6, group, &a);
	return !memcmp(mgid, a.s6_addr, 16);
}

static void v6_errnos(int fd, uint32_t c)
{
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	struct rdma_mcm_join j;
	long msf6 = read_long(MSF6);
	uint32_t h;
	int ok;

	v6_join_arg(&j, c, "ff0e::6:9", 0, sarr, 1);
	put_src4(sarr, S, 0, SRC_A, 0);
	join_fails(fd, &j, EINVAL, "JOIN of an IPv6 group, an IPv4 source");
	put_src6(sarr, S, 0, "ff02::1");
	join_fails(fd, &j, EINVAL, "JOIN of an IPv6 group, a multicast source");
	put_src6(sarr, S, 0, "::");
	join_fails(fd, &j, EINVAL, "JOIN of an IPv6 group, source ::");
	put_src6(sarr, S, 0, V6_SRC_A);
	src_at(sarr, S, 0)->addr_len = sizeof(struct sockaddr_in6) - 1;
	join_fails(fd, &j, EINVAL,
		   "JOIN of an IPv6 group, addr_len 27 (short of sockaddr_in6)");
	put_src6(sarr, S, 0, V6_SRC_A);
	put_src6(sarr, S, 1, V6_SRC_A);
	j.nr_sources = 2;
	join_fails(fd, &j, EINVAL, "JOIN of an IPv6 group, a source twice");
	put_src6(sarr, S, 1, V6_SRC_B);
	put_src6(sarr, S, 2, "2001:db8:99::8");
	j.join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
	join_fails(fd, &j, EINVAL, "JOIN of an IPv6 group send-only with sources");
	j.join_flags = 0;
	ok = !write_long(MSF6, 2);
	j.nr_sources = 3;
	join_fails(fd, &j, ENOBUFS, "JOIN with 3 sources, mld_max_msf set to 2");
	j.nr_sources = 2;
	h = join_works(fd, &j, "JOIN with 2 sources, mld_max_msf 2");
	if (h)
		leave(fd, c, h, NULL);
	ok &= !write_long(MSF6, msf6);
	report(ok && read_long(MSF6) == msf6, "mld_max_msf set back to %ld",
	       msf6);
}

/*
 * IPv6 groups on RoCE v2: rdma_cm refuses them, rdma_mcm joins them
 * itself (RDMA_MCM_MEMBER_JOINED_BY_MCM). A full member is in MLD
 * (/proc/net/igmp6), a send-only one is not, a source-specific one has
 * its MLDv2 filter (/proc/net/mcfilter6). Needs an IPv6 address on veth1,
 * which the test adds and removes.
 */
void test_v6_roce(void)
{
	static const char *const add[] = {
		"ip", "-6", "addr", "add", V6_SRC "/64", "dev", "veth1",
		"nodad", NULL,
	};
	static const char *const del[] = {
		"ip", "-6", "addr", "del", V6_SRC "/64", "dev", "veth1", NULL,
	};
	const uint32_t S = RDMA_MCM_SOURCE_SIZE_VER0;
	const uint32_t BY = RDMA_MCM_MEMBER_JOINED_BY_MCM;
	struct rdma_mcm_join_entry je[2];
	struct rdma_mcm_batch b;
	struct rdma_mcm_member m = { 0 };
	struct rdma_mcm_event ev;
	struct rdma_mcm_join j;
	uint32_t c, h1, h2, h3;
	double t0;
	int fd, ret, ok, i;

	printf("    # IPv6 groups on RoCE v2, joined by rdma_mcm\n");
	if (run_cmd(add)) {
		skip("no IPv6 address could be added to veth1",
		     "IPv6 groups on RoCE v2");
		return;
	}
	fd = open_dev();
	/* rxe1 takes the address's GID from a work item: wait for it */
	t0 = now();
	ret = -1;
	while (now() - t0 < 20) {
		if (rxe1_has_gid(V6_GID)) {
			ret = v6_ctx(fd, &c);
			if (!ret)
				break;
		}
		usleep(100000);
	}
	if (ret) {
		skip("rxe1 never took the IPv6 address",
		     "IPv6 groups on RoCE v2 (CREATE_CTX: %s)", errname(errno));
		close(fd);
		run_cmd(del);
		return;
	}
	report(1, "CREATE_CTX on [%s] (veth1, rxe1), its GID in rxe1's table",
	       V6_SRC);

	v6_join_arg(&j, c, "ff0e::6:1", 0, NULL, 0);
	h1 = join_works(fd, &j, "JOIN ff0e::6:1, a full member, any source");
	report(h1 && query_src(fd, c, h1, 0, BY, &m),
	       "... QUERY: flags JOINED_BY_MCM, nr_sources 0 (got 0x%x, %u)",
	       m.flags, m.nr_sources);
	ok = joined_event(fd, h1, &ev);
	report(ok && mgid_is(ev.mgid, "ff0e::6:1") && !memcmp(ev.dgid, ev.mgid, 16) &&
	       ev.qkey == 0x01234567 && ev.is_global && ev.port_num == 1 &&
	       ev.hop_limit == 64 && !ev.mlid,
	       "... JOINED: MGID and DGID ff0e::6:1, Q_Key 0x01234567, port 1, hop limit 64 (got %u)",
	       ev.hop_limit);
	report(query_src(fd, c, h1, 0, BY, &m) &&
	       m.state == RDMA_MCM_STATE_JOINED && mgid_is(m.mgid, "ff0e::6:1"),
	       "... QUERY: joined, MGID ff0e::6:1, JOINED_BY_MCM");
	report(igmp6_lists("veth1", "ff0e::6:1") == 1,
	       "... /proc/net/igmp6 lists ff0e::6:1 on veth1 (MLD)");

	v6_join_arg(&j, c, "ff0e::6:2", RDMA_MCM_JOIN_SENDONLY_FULLMEMBER,
		    NULL, 0);
	h2 = join_works(fd, &j, "JOIN ff0e::6:2, send-only");
	report(h2 && joined_event(fd, h2, NULL) &&
	       query_src(fd, c, h2, 0, BY, &m) &&
	       m.state == RDMA_MCM_STATE_JOINED,
	       "... joined, JOINED_BY_MCM");
	report(igmp6_lists("veth1", "ff0e::6:2") == 0,
	       "... a send-only member is not in /proc/net/igmp6");

	memset(sarr, 0, sizeof(sarr));
	put_src6(sarr, S, 0, V6_SRC_A);
	put_src6(sarr, S, 1, V6_SRC_B);
	v6_join_arg(&j, c, "ff0e::6:3", 0, sarr, 2);
	h3 = join_works(fd, &j, "JOIN ff0e::6:3 with sources 2001:db8:6::1 and 2001:db8:99::7");
	report(h3 && filter6_inc("veth1", "ff0e::6:3", V6_SRC_A) == 1 &&
	       filter6_inc("veth1", "ff0e::6:3", V6_SRC_B) == 1,
	       "... /proc/net/mcfilter6 lists both on veth1, once each");
	report(h3 && joined_event(fd, h3, NULL) &&
	       query_src(fd, c, h3, 2, BY, &m) &&
	       m.state == RDMA_MCM_STATE_JOINED,
	       "... joined, nr_sources 2, JOINED_BY_MCM (got %u, 0x%x)",
	       m.nr_sources, m.flags);
	report(list_cookie(fd, c, 600, &m) && m.flags == BY,
	       "LIST reports JOINED_BY_MCM too");
	v6_errnos(fd, c);

	memset(je, 0, sizeof(je));
	put_group6(je[0].addr, &je[0].addr_len, "ff0e::6:4");
	je[0].cookie = 604;
	je[0].sources = (uintptr_t)sarr;
	je[0].nr_sources = 1;
	je[0].source_size = S;
	put_group6(je[1].addr, &je[1].addr_len, "ff0e::6:5");
	je[1].cookie = 605;
	memset(&b, 0, sizeof(b));
	b.entries = (uintptr_t)je;
	b.ctx_id = c;
	b.count = 2;
	b.entry_size = sizeof(je[0]);
	expect_errno(ioctl(fd, RDMA_MCM_IOC_BATCH_JOIN, &b), 0,
		     "BATCH_JOIN of ff0e::6:4 (a source) and ff0e::6:5");
	report(b.done == 2 && !je[0].result && !je[1].result,
	       "... done 2, results %d and %d", je[0].result, je[1].result);
	ok = query_src(fd, c, je[0].handle, 1, BY, &m);
	report(ok, "... ff0e::6:4: nr_sources 1, JOINED_BY_MCM (got %u, 0x%x)",
	       m.nr_sources, m.flags);
	ok = query_src(fd, c, je[1].handle, 0, BY, &m);
	report(ok, "... ff0e::6:5: nr_sources 0, JOINED_BY_MCM (got %u, 0x%x)",
	       m.nr_sources, m.flags);
	report(filter6_inc("veth1", "ff0e::6:4", V6_SRC_A) == 1 &&
	       igmp6_lists("veth1", "ff0e::6:5") == 1,
	       "... the filter of ff0e::6:4 (INC %ld) and the MLD membership of ff0e::6:5 (%d)",
	       filter6_inc("veth1", "ff0e::6:4", V6_SRC_A),
	       igmp6_lists("veth1", "ff0e::6:5"));

	ok = !leave(fd, c, h1, NULL) && !leave(fd, c, h3, NULL) &&
	     !leave(fd, c, je[0].handle, NULL);
	report(ok && igmp6_lists("veth1", "ff0e::6:1") == 0 &&
	       filters6_of("ff0e0000000000000000000000060003") == 0 &&
	       filters6_of("ff0e0000000000000000000000060004") == 0,
	       "LEAVE takes the MLD membership and the filters away");
	expect_errno(join(fd, c, "239.6.12.1", 0, 0, NULL), EINVAL,
		     "JOIN of an IPv4 group on an IPv6 context");
	close(fd);
	for (i = 0, ok = 1; i < 10 && (ok = igmp6_lists("veth1", "ff0e::6:5")); i++)
		usleep(100000);
	report(!ok && filters6_of("ff0e00000000000000000000000600") == 0,
	       "close() takes the rest: no ff0e::6:x in /proc/net/igmp6 or mcfilter6");
	report(!run_cmd(del), "the IPv6 address is removed from veth1");
}
