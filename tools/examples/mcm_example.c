// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_example: join a multicast group through /dev/rdma_mcm, wait for
 * JOINED, print the group's MGID, leave.
 *
 *   mcm_example -b 192.0.2.1 239.1.1.1
 *   cc -o mcm_example mcm_example.c $(pkg-config --cflags --libs librdmamcm)
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <stdio.h>
#include <unistd.h>

#include <librdmamcm.h>

static int print_usage(void)
{
	fprintf(stderr, "usage: mcm_example -b SOURCE-ADDR GROUP-ADDR\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage src, group;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	char mgid[INET6_ADDRSTRLEN];
	const char *bind = NULL;
	uint32_t ctx_id, events;
	int c, ret = 1;

	while ((c = getopt(argc, argv, "b:")) != -1) {
		if (c != 'b')
			return print_usage();
		bind = optarg;
	}
	if (!bind || optind != argc - 1)
		return print_usage();
	if (rdma_mcm_parse_addr(bind, &src) ||
	    rdma_mcm_parse_addr(argv[optind], &group)) {
		perror("address");
		return 2;
	}

	/* One channel: it owns the context and the membership. */
	ch = rdma_mcm_open_channel(0);
	if (!ch) {
		perror("rdma_mcm_open_channel");
		return 1;
	}
	if (rdma_mcm_create_ctx(ch, (struct sockaddr *)&src, &ctx_id)) {
		perror("rdma_mcm_create_ctx");
		goto out;
	}

	/* Join and wait up to 10 s for JOINED; a failed join is left. */
	if (rdma_mcm_join_sync(ch, ctx_id, (struct sockaddr *)&group,
			       RDMA_MCM_JOIN_FULLMEMBER, 42, 10000, &ev)) {
		perror("rdma_mcm_join_sync");
		goto out;
	}
	inet_ntop(AF_INET6, ev.mgid, mgid, sizeof(mgid));
	printf("joined %s: mgid %s mlid 0x%x qkey 0x%x port %u\n",
	       argv[optind], mgid, ev.mlid, ev.qkey, ev.port_num);

	/* Leave: 0 or -1 with errno, as rdma_leave_multicast(3). */
	if (rdma_mcm_leave_ex(ch, ctx_id, ev.handle, NULL, &events)) {
		perror("rdma_mcm_leave_ex");
		goto out;
	}
	printf("left %s after %u event(s)\n", argv[optind], events);
	ret = 0;
out:
	/* Closing the channel would also have left every membership. */
	rdma_mcm_close_channel(ch);
	return ret;
}
