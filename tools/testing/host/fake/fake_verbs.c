// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake libibverbs: see fake_verbs.h. Single-threaded users only (the
 * CLI, the library's unit tests), except the recorded calls, which the
 * library makes under its channel's lock.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fake_verbs.h"

struct fake_verbs fv;

#define FV_MAX_ATTACH	8
#define FV_RING		4096
#define FV_MAX_OBJ	64

struct fv_cq {
	struct ibv_cq cq;
	struct fv_dev *d;
	int armed;			/* ibv_req_notify_cq() asked */
	int users;			/* QPs on it */
	uint64_t done[FV_RING];		/* send completions' wr_ids */
	unsigned int ndone;
};

struct fv_qp {
	struct ibv_qp qp;
	struct fv_dev *d;
	struct fv_cq *scq, *rcq;
	uint8_t port;
	uint32_t qkey;
	uint64_t recv[FV_RING];		/* posted receives' wr_ids */
	uint64_t raddr[FV_RING];	/* ... their buffers (first SGE) */
	uint32_t rlen[FV_RING];		/* ... and lengths */
	unsigned int rhead, nrecv;
	uint8_t mgid[FV_MAX_ATTACH][16];
	uint16_t mlid[FV_MAX_ATTACH];
	int nattach;
};

struct fv_pd {
	struct ibv_pd pd;
	struct fv_dev *d;
	int users;			/* QPs, MRs, AHs */
};

/* Objects this fake made, to tell them from the tests' own structs */
static struct fv_qp *qps[FV_MAX_OBJ];

static void remember_qp(struct fv_qp *q)
{
	int i;

	for (i = 0; i < FV_MAX_OBJ; i++)
		if (!qps[i]) {
			qps[i] = q;
			return;
		}
	abort();
}

static struct fv_qp *fake_qp(struct ibv_qp *qp)
{
	int i;

	for (i = 0; i < FV_MAX_OBJ; i++)
		if (qps[i] && &qps[i]->qp == qp)
			return qps[i];
	return NULL;
}

static void forget_qp(struct fv_qp *q)
{
	int i;

	for (i = 0; i < FV_MAX_OBJ; i++)
		if (qps[i] == q)
			qps[i] = NULL;
}

void fv_reset(void)
{
	memset(&fv, 0, sizeof(fv));
	memset(qps, 0, sizeof(qps));
}

struct fv_dev *fv_add_dev(const char *name)
{
	int i;

	for (i = 0; i < FV_MAX_DEV; i++) {
		struct fv_dev *d = &fv.dev[i];

		if (d->used)
			continue;
		memset(d, 0, sizeof(*d));
		d->used = 1;
		d->present = 1;
		snprintf(d->ibdev.name, sizeof(d->ibdev.name), "%s", name);
		snprintf(d->ibdev.dev_name, sizeof(d->ibdev.dev_name), "%s",
			 name);
		d->guid = htobe64(0x0002c90300000100ULL + (uint64_t)i);
		return d;
	}
	abort();
}

int fv_add_port(struct fv_dev *d, uint8_t link_layer)
{
	if (d->nports == FV_MAX_PORT)
		abort();
	d->port[++d->nports].link_layer = link_layer;
	return d->nports;
}

void fv_add_gid(struct fv_dev *d, int port, const char *gid, uint32_t type,
		uint32_t ifindex)
{
	struct fv_port *p = &d->port[port];
	struct fv_gid *g;

	if (port < 1 || port > d->nports || p->ngids == FV_MAX_GID)
		abort();
	g = &p->gid[p->ngids++];
	if (inet_pton(AF_INET6, gid, g->gid) != 1)
		abort();
	g->type = type;
	g->ifindex = ifindex;
}

static void check_released(struct fv_dev *d)
{
	if (d->removing && !d->contexts && !d->objects) {
		d->removing = 0;
		if (fv.on_released)
			fv.on_released(d);
	}
}

void fv_remove(struct fv_dev *d)
{
	d->present = 0;
	d->removing = 1;
	check_released(d);
}

void fv_restore(struct fv_dev *d)
{
	d->present = 1;
	d->removing = 0;
}

/* The device of a context; a test's own zeroed context is the first */
static struct fv_dev *dev_of(struct ibv_context *ctx)
{
	int i;

	for (i = 0; ctx && ctx->device && i < FV_MAX_DEV; i++)
		if (ctx->device == &fv.dev[i].ibdev)
			return &fv.dev[i];
	return &fv.dev[0];
}

static void obj_add(struct fv_dev *d)
{
	d->objects++;
}

static void obj_del(struct fv_dev *d)
{
	d->objects--;
	check_released(d);
}

static int busy(void)
{
	fv.violations++;
	return EBUSY;
}

/* --- devices ------------------------------------------------------------ */

struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct ibv_device **list = calloc(FV_MAX_DEV + 1, sizeof(*list));
	int i, n = 0;

	if (!list)
		return NULL;
	for (i = 0; i < FV_MAX_DEV; i++)
		if (fv.dev[i].used && fv.dev[i].present)
			list[n++] = &fv.dev[i].ibdev;
	if (num_devices)
		*num_devices = n;
	return list;
}

void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
	int i;

	for (i = 0; i < FV_MAX_DEV; i++)
		if (device == &fv.dev[i].ibdev)
			return fv.dev[i].guid;
	return 0;
}

static int poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc);
static int req_notify_cq(struct ibv_cq *cq, int solicited_only);
static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad);
static int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad);

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct fv_dev *d = NULL;
	struct ibv_context *ctx;
	int i;

	for (i = 0; i < FV_MAX_DEV; i++)
		if (device == &fv.dev[i].ibdev)
			d = &fv.dev[i];
	if (!d || !d->present) {
		errno = ENODEV;
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->device = device;
	ctx->cmd_fd = -1;
	ctx->async_fd = -1;
	ctx->ops.poll_cq = poll_cq;
	ctx->ops.req_notify_cq = req_notify_cq;
	ctx->ops.post_send = post_send;
	ctx->ops.post_recv = post_recv;
	d->contexts++;
	d->opens++;
	return ctx;
}

int ibv_close_device(struct ibv_context *context)
{
	struct fv_dev *d = dev_of(context);

	/* every object made on the context must be gone first */
	if (d->objects)
		fv.violations++;
	d->contexts--;
	free(context);
	check_released(d);
	return 0;
}

int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	struct fv_dev *d = dev_of(context);

	memset(device_attr, 0, sizeof(*device_attr));
	device_attr->phys_port_cnt = (uint8_t)d->nports;
	device_attr->max_qp_wr = FV_RING / 2;
	device_attr->max_cqe = FV_RING / 2;
	return 0;
}

/* ibv_query_port() calls this for a context without the extended ops */
int (ibv_query_port)(struct ibv_context *context, uint8_t port_num,
		     struct _compat_ibv_port_attr *out)
{
	struct ibv_port_attr *pa = (struct ibv_port_attr *)(void *)out;
	struct fv_dev *d = dev_of(context);

	if (port_num < 1 || port_num > d->nports)
		return EINVAL;
	memset(pa, 0, sizeof(*pa));
	pa->state = IBV_PORT_ACTIVE;
	pa->max_mtu = IBV_MTU_1024;
	pa->active_mtu = IBV_MTU_1024;
	pa->link_layer = d->port[port_num].link_layer;
	pa->gid_tbl_len = d->port[port_num].ngids;
	return 0;
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
		      uint32_t gid_index, struct ibv_gid_entry *entry,
		      uint32_t flags, size_t entry_size)
{
	struct fv_dev *d = dev_of(context);
	const struct fv_gid *g;

	if (port_num < 1 || port_num > (uint32_t)d->nports || flags ||
	    entry_size < sizeof(*entry) ||
	    gid_index >= (uint32_t)d->port[port_num].ngids)
		return EINVAL;
	g = &d->port[port_num].gid[gid_index];
	memset(entry, 0, entry_size);
	memcpy(entry->gid.raw, g->gid, 16);
	entry->gid_index = gid_index;
	entry->port_num = port_num;
	entry->gid_type = g->type;
	entry->ndev_ifindex = g->ifindex;
	return 0;
}

/* --- objects ------------------------------------------------------------ */

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct fv_pd *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->pd.context = context;
	p->d = dev_of(context);
	obj_add(p->d);
	return &p->pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct fv_pd *p = (struct fv_pd *)pd;

	if (p->users)
		return busy();
	obj_del(p->d);
	free(p);
	return 0;
}

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct ibv_comp_channel *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return NULL;
	cc->context = context;
	cc->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (cc->fd < 0) {
		free(cc);
		return NULL;
	}
	obj_add(dev_of(context));
	return cc;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	if (channel->refcnt)
		return busy();
	close(channel->fd);
	obj_del(dev_of(channel->context));
	free(channel);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe,
			     void *cq_context,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct fv_cq *c;

	(void)comp_vector;
	if (cqe < 1 || cqe > FV_RING) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cq.context = context;
	c->cq.channel = channel;
	c->cq.cq_context = cq_context;
	c->cq.cqe = cqe;
	c->d = dev_of(context);
	if (channel)
		channel->refcnt++;
	obj_add(c->d);
	return &c->cq;
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct fv_cq *c = (struct fv_cq *)cq;

	if (c->users)
		return busy();
	if (cq->channel)
		cq->channel->refcnt--;
	obj_del(c->d);
	free(c);
	return 0;
}

struct ibv_mr *(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	struct ibv_mr *mr = calloc(1, sizeof(*mr));

	(void)access;
	if (!mr)
		return NULL;
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	mr->lkey = 0x1234;
	((struct fv_pd *)pd)->users++;
	obj_add(dev_of(pd->context));
	return mr;
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	((struct fv_pd *)mr->pd)->users--;
	obj_del(dev_of(mr->context));
	free(mr);
	return 0;
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr)
{
	struct fv_qp *q;

	if (qp_init_attr->qp_type != IBV_QPT_UD || !qp_init_attr->send_cq ||
	    !qp_init_attr->recv_cq) {
		errno = EINVAL;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->qp.context = pd->context;
	q->qp.pd = pd;
	q->qp.send_cq = qp_init_attr->send_cq;
	q->qp.recv_cq = qp_init_attr->recv_cq;
	q->qp.qp_type = IBV_QPT_UD;
	q->qp.state = IBV_QPS_RESET;
	q->qp.qp_num = 0x100;
	q->d = dev_of(pd->context);
	q->scq = (struct fv_cq *)qp_init_attr->send_cq;
	q->rcq = (struct fv_cq *)qp_init_attr->recv_cq;
	q->scq->users++;
	q->rcq->users++;
	((struct fv_pd *)pd)->users++;
	remember_qp(q);
	obj_add(q->d);
	return &q->qp;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct fv_qp *q = fake_qp(qp);

	if (!q)
		return EINVAL;
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	if (attr_mask & IBV_QP_PORT)
		q->port = attr->port_num;
	if (attr_mask & IBV_QP_QKEY)
		q->qkey = attr->qkey;
	return 0;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	struct fv_qp *q = fake_qp(qp);

	if (!q)
		return EINVAL;
	if (q->nattach)
		fv.destroyed_attached++;
	q->scq->users--;
	q->rcq->users--;
	((struct fv_pd *)qp->pd)->users--;
	forget_qp(q);
	obj_del(q->d);
	free(q);
	return 0;
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ibv_ah *ah = calloc(1, sizeof(*ah));

	fv.nr_create_ah++;
	fv.ah_attr = *attr;
	if (!ah)
		return NULL;
	ah->context = pd->context;
	ah->pd = pd;
	/* the library's tests hand in a PD of their own */
	if (pd->context && pd->context->ops.poll_cq == poll_cq) {
		((struct fv_pd *)pd)->users++;
		obj_add(dev_of(pd->context));
	}
	return ah;
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	if (ah->context && ah->context->ops.poll_cq == poll_cq) {
		((struct fv_pd *)ah->pd)->users--;
		obj_del(dev_of(ah->context));
	}
	free(ah);
	return 0;
}

/* --- multicast ----------------------------------------------------------- */

static void record(struct fv_mcast_call *calls, int *n, struct ibv_qp *qp,
		   const union ibv_gid *gid, uint16_t lid)
{
	struct fv_mcast_call *c = &calls[*n % FV_MAX_CALLS];

	(*n)++;
	c->qp = qp;
	memcpy(c->gid, gid->raw, 16);
	c->lid = lid;
}

/* Can @q receive a datagram now? */
static int deliverable(const struct fv_qp *q)
{
	return q->nattach && q->nrecv && q->qp.state >= IBV_QPS_RTR &&
	       !q->d->removing && q->d->present;
}

/* A completion event on @c's channel, if it asked for one */
static void signal_cq(struct fv_cq *c)
{
	uint64_t one = 1;

	if (!c->armed || !c->cq.channel)
		return;
	c->armed = 0;
	if (write(c->cq.channel->fd, &one, sizeof(one)) != sizeof(one))
		abort();
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	struct fv_qp *q = fake_qp(qp);

	record(fv.attached, &fv.nr_attached, qp, gid, lid);
	if (!q)
		return 0;
	if (q->d->removing)
		return ENODEV;
	if (q->nattach == FV_MAX_ATTACH)
		return ENOMEM;
	memcpy(q->mgid[q->nattach], gid->raw, 16);
	q->mlid[q->nattach++] = lid;
	if (deliverable(q))
		signal_cq(q->rcq);
	return 0;
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		     uint16_t lid)
{
	struct fv_qp *q = fake_qp(qp);
	int i;

	record(fv.detached, &fv.nr_detached, qp, gid, lid);
	if (!q)
		return 0;
	for (i = 0; i < q->nattach; i++) {
		if (memcmp(q->mgid[i], gid->raw, 16) || q->mlid[i] != lid)
			continue;
		memmove(q->mgid[i], q->mgid[i + 1],
			(size_t)(q->nattach - i - 1) * 16);
		memmove(&q->mlid[i], &q->mlid[i + 1],
			(size_t)(q->nattach - i - 1) * sizeof(q->mlid[0]));
		q->nattach--;
		return 0;
	}
	return EINVAL;
}

int fv_add_source(const char *text)
{
	uint8_t *a;

	if (fv.nsrc == FV_MAX_SRC)
		return -1;
	a = fv.src[fv.nsrc];
	memset(a, 0, 16);
	if (inet_pton(AF_INET, text, a + 12) == 1) {
		a[10] = 0xff;
		a[11] = 0xff;
	} else if (inet_pton(AF_INET6, text, a) != 1) {
		return -1;
	}
	fv.nsrc++;
	return 0;
}

int fv_qp_attached(struct ibv_qp *qp)
{
	struct fv_qp *q = fake_qp(qp);

	return q && q->nattach;
}

/* --- completions ----------------------------------------------------------- */

static int poll_cq(struct ibv_cq *cq, int num, struct ibv_wc *wc)
{
	struct fv_cq *c = (struct fv_cq *)cq;
	struct fv_qp *q;
	int n = 0, i;

	while (n < num && c->ndone) {
		memset(&wc[n], 0, sizeof(wc[n]));
		wc[n].wr_id = c->done[0];
		wc[n].status = IBV_WC_SUCCESS;
		wc[n].opcode = IBV_WC_SEND;
		memmove(c->done, c->done + 1, --c->ndone * sizeof(c->done[0]));
		n++;
	}
	if (n)
		return n;
	/* one datagram for a QP that receives on this CQ */
	for (i = 0; i < FV_MAX_OBJ; i++) {
		q = qps[i];
		if (!q || q->rcq != c || !deliverable(q))
			continue;
		memset(wc, 0, sizeof(*wc));
		wc->wr_id = q->recv[q->rhead];
		if (fv_grh_fill((uint8_t *)(uintptr_t)q->raddr[q->rhead],
				q->rlen[q->rhead], q->mgid[0]))
			wc->wc_flags = IBV_WC_GRH;
		q->rhead = (q->rhead + 1) % FV_RING;
		q->nrecv--;
		wc->status = IBV_WC_SUCCESS;
		wc->opcode = IBV_WC_RECV;
		wc->byte_len = 40 + 100;
		wc->qp_num = q->qp.qp_num;
		fv.delivered++;
		if (fv.on_datagram)
			fv.on_datagram();
		return 1;
	}
	return 0;
}

static int req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct fv_cq *c = (struct fv_cq *)cq;
	int i;

	(void)solicited_only;
	c->armed = 1;
	if (c->ndone)
		signal_cq(c);
	for (i = 0; i < FV_MAX_OBJ && c->armed; i++)
		if (qps[i] && qps[i]->rcq == c && deliverable(qps[i]))
			signal_cq(c);
	return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		     void **cq_context)
{
	uint64_t v;
	int i;

	if (read(channel->fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	/* the channel's CQ: the UD tools have one */
	for (i = 0; i < FV_MAX_OBJ; i++) {
		if (qps[i] && qps[i]->rcq->cq.channel == channel) {
			*cq = &qps[i]->rcq->cq;
			*cq_context = (*cq)->cq_context;
			return 0;
		}
	}
	return -1;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	(void)cq;
	(void)nevents;
}

static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad)
{
	struct fv_qp *q = fake_qp(qp);

	for (; wr; wr = wr->next) {
		if (!q || qp->state != IBV_QPS_RTS || !wr->wr.ud.ah ||
		    q->scq->ndone == FV_RING) {
			*bad = wr;
			return EINVAL;
		}
		q->scq->done[q->scq->ndone++] = wr->wr_id;
		fv.sent++;
		signal_cq(q->scq);
		if (fv.on_datagram)
			fv.on_datagram();
	}
	return 0;
}

static int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad)
{
	struct fv_qp *q = fake_qp(qp);
	unsigned int slot;

	for (; wr; wr = wr->next) {
		if (!q || q->nrecv == FV_RING) {
			*bad = wr;
			return EINVAL;
		}
		slot = (q->rhead + q->nrecv++) % FV_RING;
		q->recv[slot] = wr->wr_id;
		q->raddr[slot] = wr->num_sge ? wr->sg_list[0].addr : 0;
		q->rlen[slot] = wr->num_sge ? wr->sg_list[0].length : 0;
	}
	if (q && deliverable(q))
		signal_cq(q->rcq);
	return 0;
}
