// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_abi_test: IPv6 groups on RoCE v2, which rdma_mcm joins itself.
 *
 * With 2001:db8:6::2 on veth1 (added and removed here; a failure to add
 * it, rxe1 not listing it as a RoCE v2 GID within 20 s, or CREATE_CTX
 * failing on it is a failure, never a skip): the context is bound to it
 * (QUERY_CTX); a full, a send-only and a source-specific join of IPv6
 * groups on RoCE v2 work, with RDMA_MCM_MEMBER_JOINED_BY_MCM, alone and
 * in a batch; JOINED's address handle: hop limit 64, traffic class, flow
 * label and SL 0; MLD (/proc/net/igmp6) and the MLDv2 filter
 * (/proc/net/mcfilter6) come and go with them, close() taking the rest
 * before it returns; the errnos of IPv6 sources; an IPv4 group on an
 * IPv6 context is EINVAL.
 */
#include <arpa/inet.h>
#include <dirent.h>
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

/*
 * Does rxe1's GID table list @gid (as sysfs prints it) as a RoCE v2 GID?
 * Every entry of the table (ports/1/gids/N: the table's size is the
 * device's), not only the first ones.
 */
static int rxe1_has_gid(const char *gid)
{
	static const char dir[] = "/sys/class/infiniband/rxe1/ports/1";
	char path[384], line[64], type[32];
	struct dirent *de;
	int found = 0;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/gids", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/gids/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		found = fgets(line, sizeof(line), f) &&
			!strncmp(line, gid, strlen(gid));
		fclose(f);
		if (!found)
			continue;
		snprintf(path, sizeof(path), "%s/gid_attrs/types/%s", dir,
			 de->d_name);
		f = fopen(path, "r");
		found = f && fgets(type, sizeof(type), f) &&
			!strcmp(type, "RoCE v2\n");
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

/* QUERY_CTX: the context's bound source is @addr (IPv6), on rxe1 port 1 */
static int ctx_src_is(int fd, uint32_t c, const char *addr)
{
	struct rdma_mcm_query_ctx q = { .ctx_id = c };
	struct sockaddr_in6 s6, want = { .sin6_family = AF_INET6 };

	if (ioctl(fd, RDMA_MCM_IOC_QUERY_CTX, &q) ||
	    q.src_len != sizeof(s6) || q.port_num != 1 ||
	    strcmp(q.dev_name, "rxe1"))
		return 0;
	memcpy(&s6, q.src, sizeof(s6));
	inet_pton(AF_INET6, addr, &want.sin6_addr);
	return s6.sin6_family == AF_INET6 &&
	       !memcmp(&s6.sin6_addr, &want.sin6_addr, sizeof(want.sin6_addr));
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
	int fd, ret, ok;

	printf("    # IPv6 groups on RoCE v2, joined by rdma_mcm\n");
	/*
	 * Every bench kernel has IPv6 and rxe's RoCE v2 GIDs: a step that
	 * fails here is a failure (the checks after it are not made, and the
	 * run fails with it), never a skip.
	 */
	if (run_cmd(add)) {
		report(0, "ip -6 addr add %s/64 dev veth1 nodad", V6_SRC);
		return;
	}
	fd = open_dev();
	/* rxe1 takes the address's GID from a work item: wait for it */
	t0 = now();
	while (!(ok = rxe1_has_gid(V6_GID)) && now() - t0 < 20)
		usleep(100000);
	report(ok, "rxe1 lists [%s] as a RoCE v2 GID (%.1f s after the address)",
	       V6_SRC, now() - t0);
	ret = ok ? v6_ctx(fd, &c) : -1;
	report(!ret, "CREATE_CTX on [%s] (veth1, rxe1), its GID in rxe1's table (%s)",
	       V6_SRC, ret ? errname(errno) : "success");
	if (ret) {
		close(fd);
		run_cmd(del);
		return;
	}
	report(ctx_src_is(fd, c, V6_SRC),
	       "QUERY_CTX: bound to [%s] on rxe1 port 1 (the address handles' source GID)",
	       V6_SRC);

	v6_join_arg(&j, c, "ff0e::6:1", 0, NULL, 0);
	h1 = join_works(fd, &j, "JOIN ff0e::6:1, a full member, any source");
	report(h1 && query_src(fd, c, h1, 0, BY, &m),
	       "... QUERY: flags JOINED_BY_MCM, nr_sources 0 (got 0x%x, %u)",
	       m.flags, m.nr_sources);
	ok = joined_event(fd, h1, &ev);
	report(ok && mgid_is(ev.mgid, "ff0e::6:1") && !memcmp(ev.dgid, ev.mgid, 16) &&
	       ev.qkey == 0x01234567 && ev.is_global && ev.port_num == 1 &&
	       !ev.mlid,
	       "... JOINED: MGID and DGID ff0e::6:1, Q_Key 0x01234567, port 1, global, no MLID");
	/*
	 * The address handle as rdma_cm makes one for an IPv4 group on RoCE
	 * v2: hop limit 64, traffic class and flow label 0, SL 0 (the source
	 * GID is the context's bound address's: QUERY_CTX above; the event
	 * does not carry its index)
	 */
	report(ok && ev.hop_limit == 64 && !ev.traffic_class &&
	       !ev.flow_label && !ev.sl,
	       "... JOINED: hop limit 64, traffic class 0, flow label 0, SL 0 (got %u, %u, %u, %u)",
	       ev.hop_limit, ev.traffic_class, ev.flow_label, ev.sl);
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
	/* the file's release leaves every membership before close() returns */
	close(fd);
	report(igmp6_lists("veth1", "ff0e::6:5") == 0 &&
	       filters6_of("ff0e00000000000000000000000600") == 0,
	       "close() takes the rest: no ff0e::6:x in /proc/net/igmp6 or mcfilter6");
	report(!run_cmd(del), "the IPv6 address is removed from veth1");
}
