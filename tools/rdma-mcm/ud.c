// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: send and recv: UD datagrams to and from a group through a
 * verbs UD QP, as rdma-core's mckey does, on a membership of rdma_mcm.
 *
 * Both join and wait for JOINED, then build the QP with the event's Q_Key
 * and port. The receiver joins source-specific with --source, posts its
 * receives (each with 40 bytes of room for the GRH) before it attaches
 * the QP, counts datagrams, and where they came from (from.c: the GRH's
 * source address), and fails after -t seconds. The sender builds its
 * address handle from the event and waits for every send completion
 * before it leaves: a leave while sends are queued can lose them (mckey
 * on 6.12 does).
 *
 * Both watch the channel meanwhile. In a healing context (the default):
 *  - REJOINING: the library has detached the QP (the group is WAITING);
 *    the sender stops sending;
 *  - REJOINED: the receiver attaches its QP again (rdma_mcm_attach_qp),
 *    the sender makes a new address handle; a new port or Q_Key makes new
 *    verbs objects;
 *  - DEVICE_REMOVED: every verbs object on the device is released at once,
 *    the device closed (its removal waits for that);
 *  - DEVICE_ADDED: the device is opened again (rdma_mcm_open_device), and
 *    REJOINED builds the objects on it;
 * and the count goes on. Without healing (--no-heal), or for an ERROR,
 * they stop, release every verbs object at once, leave and exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "rdma_mcm_cli.h"

#define GRH_ROOM	40
#define MAX_DEPTH	512
#define DEFAULT_COUNT	10
#define DEFAULT_SIZE	100
#define MCAST_QPN	0xffffff

struct ud_opts {
	const char *group;
	unsigned long count;
	unsigned long size;		/* 0: default */
	unsigned long interval_us;
	int join_flags;
	int recv;
	struct cli_sources *srcs;	/* recv --source ADDR... */
};

struct ud {
	struct cli *cli;
	const struct ud_opts *o;
	struct ibv_context *dev;	/* NULL while the device is gone */
	struct cli_member *m;
	struct rdma_mcm_event joined;	/* the last JOINED or REJOINED */
	int64_t deadline;
	unsigned int mtu;
	size_t size;			/* bytes per datagram */
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	uint8_t *buf;
	size_t slot;			/* bytes per buffer */
	unsigned int depth;		/* buffers */
	int removed_notice;		/* DEVICE_REMOVED events are delivered */
	int waiting;			/* REJOINING read, REJOINED not yet */
	unsigned long posted;		/* sends posted */
	unsigned long done;		/* sends completed, datagrams received */
	struct cli_from from;		/* where the datagrams came from */
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(const struct ud *u)
{
	int64_t left = u->deadline - now_ms();

	return left > 0 ? (int)left : 0;
}

static unsigned int mtu_bytes(enum ibv_mtu mtu)
{
	switch (mtu) {
	case IBV_MTU_256:
		return 256;
	case IBV_MTU_512:
		return 512;
	case IBV_MTU_1024:
		return 1024;
	case IBV_MTU_2048:
		return 2048;
	case IBV_MTU_4096:
		return 4096;
	default:
		return 256;
	}
}

/* --- options ----------------------------------------------------------- */

static int parse_num(const char *opt, const char *val, unsigned long max,
		     unsigned long *out)
{
	if (!val || cli_parse_uint(val, max, out)) {
		cli_err("%s needs a number up to %lu", opt, max);
		return -1;
	}
	return 0;
}

static int parse_ud(struct cli *cli, int argc, char **argv, int recv,
		    struct ud_opts *o)
{
	static struct cli_sources srcs;
	struct sockaddr_storage group;
	unsigned long t;
	int i;

	memset(o, 0, sizeof(*o));
	o->count = DEFAULT_COUNT;
	o->recv = recv;
	o->srcs = &srcs;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-c")) {
			if (parse_num(a, v, 100000000, &o->count))
				return -1;
			if (!o->count) {
				cli_err("-c needs a count of at least 1");
				return -1;
			}
			i++;
		} else if (!strcmp(a, "-s")) {
			if (parse_num(a, v, 65536, &o->size))
				return -1;
			if (!o->size) {
				cli_err("-s needs a size of at least 1");
				return -1;
			}
			i++;
		} else if (!strcmp(a, "-i") && !recv) {
			if (parse_num(a, v, 10000000, &o->interval_us))
				return -1;
			i++;
		} else if (!strcmp(a, "-t")) {
			if (parse_num(a, v, 86400, &t) || !t)
				return -1;
			cli->timeout_s = (int)t;
			i++;
		} else if (!strcmp(a, "--send-only") && !recv) {
			o->join_flags = RDMA_MCM_JOIN_SENDONLY_FULLMEMBER;
		} else if (!strcmp(a, "--source") && recv) {
			if (cli_source_add(o->srcs, v))
				return -1;
			i++;
		} else if (!strcmp(a, "--no-heal")) {
			cli->no_heal = 1;
		} else if (a[0] != '-' && !o->group) {
			o->group = a;
		} else {
			cli_err("unexpected argument '%s'", a);
			return -1;
		}
	}
	if (!o->group) {
		cli_err("usage: %s", recv ?
			"recv GROUP [--source ADDR]... [-c COUNT] [-s SIZE] [--no-heal]" :
			"send GROUP [-c COUNT] [-s SIZE] [-i USEC] [--send-only] [--no-heal]");
		return -1;
	}
	/* a group that is none is a usage error, before anything is done */
	return cli_parse_group(o->group, &group);
}

/* --- membership ---------------------------------------------------------- */

static int ud_join(struct ud *u)
{
	struct cli *cli = u->cli;
	uint64_t granted = 0;

	if (cli_open(cli, 0))
		return -1;
	if (!rdma_mcm_set_event_mask(cli->ch, CLI_EVENTS, &granted))
		u->removed_notice = !!(granted &
			RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED));
	u->m = cli_member_new(cli, u->o->group, u->o->join_flags);
	if (!u->m || cli_sources_check(u->m, u->o->srcs) ||
	    cli_ensure_ctx(cli, (struct sockaddr *)&u->m->addr))
		return -1;
	/*
	 * The device is opened once joined, not before: join_sync waits
	 * across a device reset, which would wait for this process to close
	 * the device (rxe has no disassociate_ucontext).
	 */
	if (rdma_mcm_join_source_sync(cli->ch, cli->ctx_id,
				      (struct sockaddr *)&u->m->addr,
				      u->o->srcs->ptr, u->o->srcs->n,
				      u->o->join_flags, 1, remaining(u),
				      &u->joined)) {
		cli_join_failed(cli, u->m->name, u->m->addr.ss_family, errno,
				u->o->srcs->n);
		return -1;
	}
	u->m->handle = u->joined.handle;
	u->dev = cli_open_dev(cli);
	if (!u->dev)
		return -1;
	cli->events++;
	out_event(cli, &u->joined, u->m->name);
	return 0;
}

/* --- verbs resources ------------------------------------------------------ */

static int ud_qp_init(struct ud *u)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };

	ia.send_cq = u->cq;
	ia.recv_cq = u->cq;
	ia.qp_type = IBV_QPT_UD;
	ia.sq_sig_all = 1;
	ia.cap.max_send_wr = u->o->recv ? 1 : u->depth;
	ia.cap.max_recv_wr = u->o->recv ? u->depth : 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	u->qp = ibv_create_qp(u->pd, &ia);
	if (!u->qp)
		return -1;
	qa.qp_state = IBV_QPS_INIT;
	qa.pkey_index = 0;
	qa.port_num = u->joined.port_num;
	qa.qkey = u->joined.qkey;
	return ibv_modify_qp(u->qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_QKEY);
}

static int ud_ready(struct ud *u)
{
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_RTR };
	int ret;

	ret = ibv_modify_qp(u->qp, &qa, IBV_QP_STATE);
	if (ret || u->o->recv)
		return ret;
	qa.qp_state = IBV_QPS_RTS;
	qa.sq_psn = 0;
	return ibv_modify_qp(u->qp, &qa, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static unsigned int clamp_depth(struct ud *u, unsigned long count)
{
	struct ibv_device_attr da;
	unsigned long d = count < MAX_DEPTH ? count : MAX_DEPTH;

	if (!ibv_query_device(u->dev, &da)) {
		if (da.max_qp_wr > 0 && d > (unsigned long)da.max_qp_wr)
			d = (unsigned long)da.max_qp_wr;
		if (da.max_cqe > 0 && d > (unsigned long)da.max_cqe)
			d = (unsigned long)da.max_cqe;
	}
	return (unsigned int)d;
}

static int ud_create(struct ud *u)
{
	int flags;

	u->depth = clamp_depth(u, u->o->count);
	u->slot = u->size + (u->o->recv ? GRH_ROOM : 0);
	u->pd = ibv_alloc_pd(u->dev);
	u->cc = u->pd ? ibv_create_comp_channel(u->dev) : NULL;
	if (!u->cc)
		return -1;
	flags = fcntl(u->cc->fd, F_GETFL);
	if (flags < 0 || fcntl(u->cc->fd, F_SETFL, flags | O_NONBLOCK))
		return -1;
	u->cq = ibv_create_cq(u->dev, (int)u->depth + 1, NULL, u->cc, 0);
	if (!u->cq || ibv_req_notify_cq(u->cq, 0))
		return -1;
	u->buf = calloc(u->depth, u->slot);
	if (!u->buf)
		return -1;
	u->mr = ibv_reg_mr(u->pd, u->buf, u->depth * u->slot,
			   IBV_ACCESS_LOCAL_WRITE);
	if (!u->mr)
		return -1;
	return ud_qp_init(u) ? -1 : 0;
}

/*
 * Every verbs object, in the order librdmamcm(7) gives: the address
 * handle, the QP (detached: by the library at REJOINING, by leave_detach,
 * or here), the MR, the CQ and its channel, the PD; the device too unless
 * @keep_dev.
 */
static void ud_release(struct ud *u, int keep_dev)
{
	struct cli *cli = u->cli;

	if (u->ah)
		ibv_destroy_ah(u->ah);
	/* the library forgets the QP (it may keep it for a rejoin) */
	if (u->qp && u->m && u->m->handle)
		rdma_mcm_detach_qp(cli->ch, cli->ctx_id, u->m->handle, u->qp);
	if (u->qp)
		ibv_destroy_qp(u->qp);
	if (u->mr)
		ibv_dereg_mr(u->mr);
	free(u->buf);
	if (u->cq)
		ibv_destroy_cq(u->cq);
	if (u->cc)
		ibv_destroy_comp_channel(u->cc);
	if (u->pd)
		ibv_dealloc_pd(u->pd);
	u->ah = NULL;
	u->qp = NULL;
	u->mr = NULL;
	u->buf = NULL;
	u->cq = NULL;
	u->cc = NULL;
	u->pd = NULL;
	/* sends posted on the old QP and not completed: sent again */
	u->posted = u->done;
	if (keep_dev || !u->dev)
		return;
	ibv_close_device(u->dev);
	u->dev = NULL;
}

static int post_recv(struct ud *u, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(u->buf + i * u->slot),
		.length = (uint32_t)u->slot,
		.lkey = u->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(u->qp, &wr, &bad);
}

/*
 * The verbs objects for u->joined, on u->dev: the receiver's buffers
 * posted and its QP attached, the sender's QP ready and its address
 * handle made. 0, or -1 (reported).
 */
static int ud_build(struct ud *u)
{
	struct cli *cli = u->cli;
	struct ibv_port_attr pattr;
	unsigned int i;

	if (ibv_query_port(u->dev, u->joined.port_num, &pattr)) {
		cli_err("port %u: %s", u->joined.port_num, strerror(errno));
		return -1;
	}
	u->mtu = mtu_bytes(pattr.active_mtu);
	if (!u->size)
		u->size = u->o->size ? u->o->size :
			  u->o->recv ? u->mtu : DEFAULT_SIZE;
	if (u->size > u->mtu) {
		cli_err("SIZE %zu exceeds the port's MTU %u", u->size, u->mtu);
		return -1;
	}
	if (ud_create(u)) {
		cli_err("verbs: %s", strerror(errno));
		return -1;
	}
	for (i = 0; u->o->recv && i < u->depth; i++)
		if (post_recv(u, i)) {
			cli_err("verbs: %s", strerror(errno));
			return -1;
		}
	if (ud_ready(u)) {
		cli_err("verbs: %s", strerror(errno));
		return -1;
	}
	if (u->o->recv &&
	    rdma_mcm_attach_qp(cli->ch, u->qp, &u->joined)) {
		cli_err("attach %s: %s", u->m->name, strerror(errno));
		return -1;
	}
	if (!u->o->recv) {
		/* the source GID: the context's source address's */
		u->ah = rdma_mcm_create_ah_ex(cli->ch, u->pd, &u->joined);
		if (!u->ah) {
			cli_err("address handle: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* --- healing ---------------------------------------------------------------- */

/*
 * REJOINED: the group again, maybe on another port, with another MGID,
 * MLID or Q_Key. The receiver attaches its QP again (the library detached
 * it at REJOINING), the sender makes a new address handle; after the loss
 * of the device, or with another port or Q_Key, every object is new.
 */
static int ud_rejoined(struct ud *u, const struct rdma_mcm_event *ev)
{
	struct rdma_mcm_event old = u->joined;

	u->joined = *ev;
	u->waiting = 0;
	if (!u->dev) {
		u->dev = cli_open_dev(u->cli);
		if (!u->dev) {
			/*
			 * Read late: the device went again meanwhile (its
			 * DEVICE_REMOVED is queued behind): wait for the next.
			 */
			u->waiting = 1;
			return 0;
		}
	}
	if (u->qp && (ev->port_num != old.port_num || ev->qkey != old.qkey))
		ud_release(u, 1);
	if (!u->qp)
		return ud_build(u);
	if (u->o->recv) {
		if (rdma_mcm_attach_qp(u->cli->ch, u->qp, ev)) {
			cli_err("attach %s: %s", u->m->name, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (u->ah)
		ibv_destroy_ah(u->ah);
	u->ah = rdma_mcm_create_ah_ex(u->cli->ch, u->pd, ev);
	if (!u->ah) {
		cli_err("address handle: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* DEVICE_REMOVED of a healing context: let go of the device at once */
static void ud_device_removed(struct ud *u)
{
	ud_release(u, 0);
	u->waiting = 1;
}

/*
 * DEVICE_ADDED: open the device again, REJOINED builds on it. If it
 * cannot be opened yet, REJOINED tries again, and fails then.
 */
static int ud_device_added(struct ud *u)
{
	if (!u->dev)
		u->dev = rdma_mcm_open_device(u->cli->ch, u->cli->ctx_id);
	return 0;
}

/*
 * One event of the channel. Returns 0 to go on, -1 to stop (reported);
 * *lost is set for an ERROR -ENODEV whose DEVICE_REMOVED is to come.
 */
static int ud_event(struct ud *u, const struct rdma_mcm_event *ev, int *lost)
{
	struct cli *cli = u->cli;
	int heals = cli->ctx_flags & RDMA_MCM_CTX_HEAL;
	int mine = ev->ctx_id == cli->ctx_id;
	char status[128];

	cli->events++;
	out_event(cli, ev, u->m->name);
	if (!mine)
		return 0;
	switch (ev->event) {
	case RDMA_MCM_EVENT_DEVICE_REMOVED:
		if (!heals) {
			cli_err("the RDMA device went away: releasing it");
			return -1;
		}
		ud_device_removed(u);
		return 0;
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		return ud_device_added(u);
	case RDMA_MCM_EVENT_REJOINING:
		if (ev->handle == u->m->handle)
			u->waiting = 1;
		return 0;
	case RDMA_MCM_EVENT_REJOINED:
		return ev->handle == u->m->handle ? ud_rejoined(u, ev) : 0;
	case RDMA_MCM_EVENT_ERROR:
		if (ev->handle != u->m->handle)
			return 0;
		status_text(ev->status, status, sizeof(status));
		cli_err("%s lost: status %s", u->m->name, status);
		/*
		 * The device is going: its notice follows the errors of the
		 * context's memberships at once; report it too.
		 */
		if (ev->status != -ENODEV || !u->removed_notice)
			return -1;
		*lost = 1;
		return 0;
	default:
		return 0;
	}
}

/*
 * The channel's events meanwhile: the number handled, or -1 (reported)
 * when the device went away or the group was lost for good.
 */
static int ud_events(struct ud *u)
{
	struct rdma_mcm_event ev;
	int wait = 0, lost = 0, n = 0;

	while (!rdma_mcm_wait_event(u->cli->ch, &ev, wait)) {
		n++;
		if (ud_event(u, &ev, &lost))
			return -1;
		if (lost)
			wait = remaining(u);
	}
	if (errno == ETIMEDOUT && !lost)
		return n;
	if (errno != ETIMEDOUT)
		cli_err("reading events: %s", strerror(errno));
	return -1;
}

/*
 * Up to @max completions; waits on the completion channel (and the
 * channel's events) until the deadline. Returns their number, 0 on
 * timeout, -1 on error. While the device is gone, or the group waits to
 * be joined again, only the events are waited for.
 */
static int ud_poll(struct ud *u, struct ibv_wc *wc, int max)
{
	struct pollfd pfd[2] = {
		{ .fd = -1, .events = POLLIN },
		{ .fd = rdma_mcm_get_fd(u->cli->ch), .events = POLLIN },
	};
	struct ibv_cq *cq;
	void *cq_ctx;
	int n;

	for (;;) {
		/* events first: a busy CQ must not hide a lost device */
		n = ud_events(u);
		if (n < 0)
			return -1;
		if (n)
			return 0;	/* things changed: the caller looks again */
		if (u->cq) {
			n = ibv_poll_cq(u->cq, max, wc);
			if (n)
				return n < 0 ? -1 : n;
		}
		if (!remaining(u))
			return 0;
		pfd[0].fd = u->cc ? u->cc->fd : -1;
		pfd[0].revents = 0;
		if (poll(pfd, 2, remaining(u)) < 0 && errno != EINTR)
			return -1;
		if (!u->cc || !(pfd[0].revents & POLLIN))
			continue;
		if (ibv_get_cq_event(u->cc, &cq, &cq_ctx))
			continue;
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(cq, 0))
			return -1;
	}
}

static int wc_check(const struct ibv_wc *wc)
{
	if (wc->status == IBV_WC_SUCCESS)
		return 0;
	cli_err("completion: %s", ibv_wc_status_str(wc->status));
	return -1;
}

/* --- recv ------------------------------------------------------------------ */

/* Datagrams until the count or the deadline; -1 on error */
static int ud_receive(struct ud *u)
{
	struct ibv_wc wc[16];
	int n, i;

	while (u->done < u->o->count && remaining(u)) {
		n = ud_poll(u, wc, 16);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (wc_check(&wc[i]))
				return -1;
			u->done++;
			from_add(&u->from, u->buf + wc[i].wr_id * u->slot,
				 !!(wc[i].wc_flags & IBV_WC_GRH));
			if (post_recv(u, (unsigned int)wc[i].wr_id))
				return -1;
		}
	}
	return 0;
}

/* --- send ------------------------------------------------------------------ */

static int post_send(struct ud *u, unsigned long seq)
{
	unsigned int i = (unsigned int)(seq % u->depth);
	uint8_t *p = u->buf + i * u->slot;
	struct ibv_sge sge = {
		.addr = (uintptr_t)p,
		.length = (uint32_t)u->size,
		.lkey = u->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = seq, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad;
	size_t k;

	for (k = 0; k < u->size; k++)
		p[k] = k < 4 ? (uint8_t)(seq >> (24 - 8 * k)) : 0xa5;
	wr.wr.ud.ah = u->ah;
	wr.wr.ud.remote_qpn = MCAST_QPN;
	wr.wr.ud.remote_qkey = u->joined.qkey;
	return ibv_post_send(u->qp, &wr, &bad);
}

/* Sends until all completed or the deadline; -1 on error */
static int ud_transmit(struct ud *u)
{
	const struct ud_opts *o = u->o;
	struct ibv_wc wc[16];
	int n, i;

	while (u->done < o->count && remaining(u)) {
		/* nothing to send to while the group waits, or no device */
		while (!u->waiting && u->qp && u->posted < o->count &&
		       u->posted - u->done < u->depth) {
			if (post_send(u, u->posted))
				return -1;
			u->posted++;
			if (o->interval_us) {
				usleep((useconds_t)o->interval_us);
				break;
			}
		}
		n = ud_poll(u, wc, 16);
		if (n < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (wc_check(&wc[i]))
				return -1;
			u->done++;
		}
	}
	return 0;
}

/* --- commands --------------------------------------------------------------- */

static int ud_run(struct ud *u)
{
	struct cli *cli = u->cli;

	if (ud_build(u))
		return -1;
	if (u->o->recv ? ud_receive(u) : ud_transmit(u))
		return -1;
	out_count(cli, u->o->recv ? "received" : "sent", u->m->name, u->done,
		  u->o->count, u->o->recv ? &u->from : NULL);
	if (u->done < u->o->count) {
		cli_err("timed out after %d s", cli->timeout_s);
		return -1;
	}
	return 0;
}

static int ud_command(struct cli *cli, int argc, char **argv, int recv)
{
	struct ud u = { .cli = cli };
	struct ud_opts o;
	int ret;

	if (parse_ud(cli, argc, argv, recv, &o))
		return EXIT_USAGE;
	u.o = &o;
	u.deadline = now_ms() + (int64_t)cli->timeout_s * 1000;
	ret = ud_join(&u);
	if (!ret)
		ret = ud_run(&u);
	/* detach first, then leave; then the QP and the rest */
	if (u.m && u.m->handle &&
	    rdma_mcm_leave_detach(cli->ch, cli->ctx_id, u.m->handle, u.qp))
		cli_err("leave %s: %s", u.m->name, strerror(errno));
	ud_release(&u, 0);
	from_free(&u.from);
	rdma_mcm_close_channel(cli->ch);
	free(cli->mem);
	return ret ? 1 : 0;
}

int cmd_send(struct cli *cli, int argc, char **argv)
{
	return ud_command(cli, argc, argv, 0);
}

int cmd_recv(struct cli *cli, int argc, char **argv)
{
	return ud_command(cli, argc, argv, 1);
}
