// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_recv_heal: receive COUNT datagrams on a group through a healing
 * context, across resets of the RDMA device, with verbs objects the
 * application owns. What an application does, by event:
 *
 *   JOINED, REJOINED   build the verbs objects on the context's device
 *                      if there are none (rdma_mcm_open_device, the
 *                      event's port and Q_Key), attach the QP to the
 *                      group the event reports
 *   REJOINING          nothing: the library detached the QP it attached
 *   DEVICE_REMOVED     release everything made on the device at once,
 *                      QP detached first (rdma_mcm_detach_qp), no leave:
 *                      the device's removal waits for its users
 *   DEVICE_ADDED       nothing yet: the REJOINED that follows says which
 *                      port and Q_Key to build for
 *
 *   mcm_recv_heal [-b SOURCE-ADDR] [-c COUNT] [-t SECONDS] GROUP-ADDR
 *   cc -o mcm_recv_heal mcm_recv_heal.c \
 *      $(pkg-config --cflags --libs librdmamcm) -libverbs
 *
 * Without -b the context is bound by the route to GROUP-ADDR. It exits 0
 * once it has COUNT datagrams (default 10), 1 on an error or after
 * SECONDS (default 60).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <librdmamcm.h>

#define DEPTH	64
#define BUF	4096	/* a 40-byte GRH, then the datagram */

struct verbs {
	uint32_t port, qkey;	/* what the QP was made for */
	int broken;		/* a completion in error: wait for events */
	struct ibv_context *dev;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *buf;
};

/* Everything made on the device, in the order verbs wants it gone. */
static void verbs_release(struct rdma_mcm_channel *ch, uint32_t ctx_id,
			  struct verbs *v)
{
	if (v->qp) {
		rdma_mcm_detach_qp(ch, ctx_id, 0, v->qp);
		ibv_destroy_qp(v->qp);
	}
	if (v->cq)
		ibv_destroy_cq(v->cq);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->dev)
		ibv_close_device(v->dev);
	free(v->buf);
	memset(v, 0, sizeof(*v));
}

static int post_recv(struct verbs *v, int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(v->buf + (size_t)slot * BUF),
		.length = BUF, .lkey = v->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(v->qp, &wr, &bad);
}

/* A UD QP on the context's device, ready to receive with @joined's Q_Key */
static int verbs_build(struct rdma_mcm_channel *ch, uint32_t ctx_id,
		       const struct rdma_mcm_event *joined, struct verbs *v)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };
	int i;

	v->port = joined->port_num;
	v->qkey = joined->qkey;
	v->dev = rdma_mcm_open_device(ch, ctx_id);
	v->buf = calloc(DEPTH, BUF);
	if (!v->dev || !v->buf)
		return -1;
	v->pd = ibv_alloc_pd(v->dev);
	v->cq = ibv_create_cq(v->dev, DEPTH, NULL, NULL, 0);
	if (!v->pd || !v->cq)
		return -1;
	v->mr = ibv_reg_mr(v->pd, v->buf, (size_t)DEPTH * BUF,
			   IBV_ACCESS_LOCAL_WRITE);
	ia.send_cq = v->cq;
	ia.recv_cq = v->cq;
	ia.qp_type = IBV_QPT_UD;
	ia.cap.max_send_wr = 1;
	ia.cap.max_recv_wr = DEPTH;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	v->qp = v->mr ? ibv_create_qp(v->pd, &ia) : NULL;
	if (!v->qp)
		return -1;
	qa.qp_state = IBV_QPS_INIT;
	qa.port_num = joined->port_num;
	qa.qkey = joined->qkey;
	if (ibv_modify_qp(v->qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		return -1;
	qa.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(v->qp, &qa, IBV_QP_STATE))
		return -1;
	for (i = 0; i < DEPTH; i++)
		if (post_recv(v, i))
			return -1;
	return 0;
}

static int print_usage(void)
{
	fprintf(stderr,
		"usage: mcm_recv_heal [-b SOURCE-ADDR] [-c COUNT] [-t SECONDS] GROUP-ADDR\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage addr, group;
	struct rdma_mcm_channel *ch;
	struct rdma_mcm_event ev;
	struct verbs v = { 0 };
	const char *bind = NULL;
	long count = 10, got = 0, secs = 60;
	uint32_t ctx_id = 0, flags = RDMA_MCM_CTX_HEAL, handle;
	struct pollfd p;
	struct ibv_wc wc;
	time_t end;
	int c, ret = 1;

	while ((c = getopt(argc, argv, "b:c:t:")) != -1) {
		if (c == 'b')
			bind = optarg;
		else if (c == 'c')
			count = strtol(optarg, NULL, 0);
		else if (c == 't')
			secs = strtol(optarg, NULL, 0);
		else
			return print_usage();
	}
	if (optind != argc - 1 || count < 1 || secs < 1 ||
	    rdma_mcm_parse_addr(argv[optind], &group) ||
	    (bind && rdma_mcm_parse_addr(bind, &addr)))
		return print_usage();
	if (!bind) {		/* bound by the route to the group */
		addr = group;
		flags |= RDMA_MCM_CTX_ROUTE;
	}

	ch = rdma_mcm_open_channel(O_NONBLOCK);
	if (!ch) {
		perror("rdma_mcm_open_channel");
		return 1;
	}
	/* the events of a healing context are asked for */
	if (rdma_mcm_set_event_mask(ch, RDMA_MCM_EVENTS_DEFAULT |
			RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) |
			RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) |
			RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) |
			RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED), NULL) ||
	    rdma_mcm_create_ctx_ex(ch, (struct sockaddr *)&addr, flags,
				   &ctx_id) ||
	    rdma_mcm_join(ch, ctx_id, (struct sockaddr *)&group,
			  RDMA_MCM_JOIN_FULLMEMBER, 1, &handle)) {
		perror("mcm_recv_heal: join");
		goto out;
	}
	p.fd = rdma_mcm_get_fd(ch);
	p.events = POLLIN;
	end = time(NULL) + secs;
	while (got < count && time(NULL) < end) {
		/* datagrams, while there is a QP that works */
		while (v.qp && !v.broken && got < count &&
		       ibv_poll_cq(v.cq, 1, &wc) == 1) {
			if (wc.status != IBV_WC_SUCCESS) {
				v.broken = 1;	/* flushed: the device goes */
				break;
			}
			got++;
			if (post_recv(&v, (int)wc.wr_id))
				v.broken = 1;
		}
		if (poll(&p, 1, 10) < 1)
			continue;
		while (!rdma_mcm_get_event(ch, &ev)) {
			printf("%s\n", rdma_mcm_event_str(ev.event));
			fflush(stdout);
			switch (ev.event) {
			case RDMA_MCM_EVENT_JOINED:
			case RDMA_MCM_EVENT_REJOINED:
				/* another port or Q_Key: a QP made for it */
				if (v.qp && (v.port != ev.port_num ||
					     v.qkey != ev.qkey || v.broken))
					verbs_release(ch, ctx_id, &v);
				if (!v.qp && verbs_build(ch, ctx_id, &ev, &v)) {
					/*
					 * the device went again before this
					 * event was read: its DEVICE_REMOVED
					 * follows; wait
					 */
					verbs_release(ch, ctx_id, &v);
					break;
				}
				if (rdma_mcm_attach_qp(ch, v.qp, &ev))
					goto fail;
				break;
			case RDMA_MCM_EVENT_DEVICE_REMOVED:
				verbs_release(ch, ctx_id, &v);
				break;
			case RDMA_MCM_EVENT_ERROR:
				errno = -ev.status;
				goto fail;
			default:	/* REJOINING, DEVICE_ADDED: wait */
				break;
			}
		}
	}
	printf("received %ld of %ld\n", got, count);
	ret = got < count;
	goto out;
fail:
	perror("mcm_recv_heal");
out:
	verbs_release(ch, ctx_id, &v);
	/* closing the channel leaves the membership */
	rdma_mcm_close_channel(ch);
	return ret;
}
