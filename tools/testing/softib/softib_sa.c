// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * softib: the subnet administrator, at LID 1 behind QP1. It answers what
 * ib_sa asks of an SM for multicast: MCMemberRecord Set (join), Delete
 * (leave) and Get, and ClassPortInfo Get; anything else gets "unsupported
 * method/attribute". Like opensm it keeps one record per group and one per
 * member port, ORs join states, creates a group only for a full member
 * (or a send-only full member) that gives Q_Key, P_Key, SL, flow label and
 * traffic class, assigns an MGID for a zero one, takes MLIDs from a bounded
 * pool, deletes a group when its last full member leaves, and holds the
 * IPoIB broadcast group of the default partition from the start, as
 * opensm's partitions.conf "Default=0x7fff,ipoib" does.
 *
 * Faults for the tests: the next N requests answered BUSY, or not at all
 * (ib_sa times out), the next N creations refused NO_RESOURCES, every
 * answer delayed, the MLID pool shrunk, send-only full member support
 * withdrawn from ClassPortInfo, and an SM restart that forgets every
 * record. Every request and its answer is logged for the tests to read.
 *
 * Requests are answered from a workqueue, never inside the sender's
 * post_send; no lock of the SA is held while an answer is delivered.
 */
#include <linux/bitmap.h>
#include <linux/inet.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_sa.h>
#include "rdma_mcm_compat.h"
#include "softib.h"

#define SIB_SA_MAX_MLIDS	1024
#define SIB_SA_LOG		512

#define SIB_JS_FULL		BIT(0)
#define SIB_JS_NON		BIT(1)
#define SIB_JS_SENDONLY_NON	BIT(2)
#define SIB_JS_SENDONLY_FULL	BIT(3)

/* SA status codes (IBA 15.2.1.1), in the MAD status's class bits */
#define SIB_SA_ERR_NO_RESOURCES		0x0100
#define SIB_SA_ERR_REQ_INVALID		0x0200
#define SIB_SA_ERR_NO_RECORDS		0x0300
#define SIB_SA_ERR_INSUFFICIENT_COMPS	0x0600

static unsigned int mlids = 64;
module_param(mlids, uint, 0444);
MODULE_PARM_DESC(mlids, "the SA's MLID pool (1-1024, default 64)");
static bool sendonly_full = true;
module_param(sendonly_full, bool, 0444);
MODULE_PARM_DESC(sendonly_full,
		 "ClassPortInfo announces send-only full member support");

/* MCMemberRecord on the wire (IBA 15.2.5.17): 52 bytes */
struct sib_mcmr {
	union ib_gid mgid;
	union ib_gid port_gid;
	__be32 qkey;
	__be16 mlid;
	u8 mtu;			/* selector:2, mtu:6 */
	u8 tclass;
	__be16 pkey;
	u8 rate;		/* selector:2, rate:6 */
	u8 plt;			/* selector:2, life time:6 */
	__be32 sl_flow_hop;	/* sl:4, flow label:20, hop limit:8 */
	u8 scope_state;		/* scope:4, join state:4 */
	u8 proxy;		/* proxy join:1, reserved:7 */
	u8 reserved[2];
} __packed;

struct sib_sa_member {
	struct list_head node;
	union ib_gid port_gid;
	u8 join_state;
};

struct sib_sa_group {
	struct list_head node;
	struct list_head members;
	union ib_gid mgid;
	u16 mlid;
	u32 qkey;
	u16 pkey;
	u8 mtu, rate, plt, tclass, sl, scope, hop_limit;
	u32 flow_label;
	bool permanent;
};

struct sib_sa_logent {
	u32 seq;
	u32 ms;
	u64 tid;			/* a retransmission has its request's */
	u8 method;
	u16 attr;
	u8 join_state;
	u16 status;		/* 0xffff: not answered */
	u16 mlid;
	u16 slid;
	union ib_gid mgid, port_gid;	/* as asked */
	union ib_gid assigned;		/* the MGID made for zeros, or zeros */
};

struct sib_sa_req {
	struct delayed_work work;
	struct list_head node;		/* sa.pending, until it runs */
	u16 slid;
	u8 mad[IB_MGMT_MAD_SIZE];
};

static struct {
	spinlock_t lock;	/* everything below */
	struct list_head groups;
	struct list_head pending;	/* requests not answered yet */
	DECLARE_BITMAP(mlid_used, SIB_SA_MAX_MLIDS);
	unsigned int mlids;
	u32 next_mgid;
	unsigned int busy, drop, no_resources, delay_ms;
	union ib_gid target;		/* the faults' group; zero: any */
	bool sendonly_full;
	bool opensm_mgid;	/* refuse to create a named link-local a01b */
	u32 seq;
	struct sib_sa_logent log[SIB_SA_LOG];
	struct workqueue_struct *wq;
} sa;

static const union ib_gid sib_ipoib_bcast = { .raw = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
	0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff } };

static struct sib_sa_group *sib_sa_find(const union ib_gid *mgid)
{
	struct sib_sa_group *g;

	list_for_each_entry(g, &sa.groups, node)
		if (!memcmp(&g->mgid, mgid, sizeof(*mgid)))
			return g;
	return NULL;
}

static struct sib_sa_member *sib_sa_member(struct sib_sa_group *g,
					   const union ib_gid *gid)
{
	struct sib_sa_member *m;

	list_for_each_entry(m, &g->members, node)
		if (!memcmp(&m->port_gid, gid, sizeof(*gid)))
			return m;
	return NULL;
}

static void sib_sa_free_group(struct sib_sa_group *g)
{
	struct sib_sa_member *m, *n;

	list_for_each_entry_safe(m, n, &g->members, node)
		kfree(m);
	clear_bit(g->mlid - SIB_MLID_BASE, sa.mlid_used);
	list_del(&g->node);
	kfree(g);
}

/* A group lives while it has a full member (or is permanent). */
static void sib_sa_maybe_free(struct sib_sa_group *g)
{
	struct sib_sa_member *m;

	if (g->permanent)
		return;
	list_for_each_entry(m, &g->members, node)
		if (m->join_state & (SIB_JS_FULL | SIB_JS_SENDONLY_FULL))
			return;
	sib_sa_free_group(g);
}

static int sib_sa_alloc_mlid(u16 *mlid)
{
	unsigned long bit = find_first_zero_bit(sa.mlid_used, sa.mlids);

	if (bit >= sa.mlids)
		return -ENOSPC;
	set_bit(bit, sa.mlid_used);
	*mlid = SIB_MLID_BASE + bit;
	return 0;
}

/* The IPoIB broadcast group of the default partition; sa.lock held. */
static void sib_sa_add_broadcast(void)
{
	struct sib_sa_group *g = kzalloc_obj(*g, GFP_ATOMIC);

	if (!g || sib_sa_alloc_mlid(&g->mlid)) {
		kfree(g);
		pr_warn("softib: no IPoIB broadcast group\n");
		return;
	}
	INIT_LIST_HEAD(&g->members);
	g->mgid = sib_ipoib_bcast;
	g->qkey = 0x0b1b;
	g->pkey = IB_DEFAULT_PKEY_FULL;
	g->mtu = SIB_MTU;
	g->rate = IB_RATE_10_GBPS;
	g->plt = 18;
	g->scope = 2;
	g->permanent = true;
	list_add_tail(&g->node, &sa.groups);
}

static void sib_sa_fill(struct sib_mcmr *r, const struct sib_sa_group *g,
			const union ib_gid *port_gid, u8 join_state)
{
	r->mgid = g->mgid;
	r->port_gid = *port_gid;
	r->qkey = cpu_to_be32(g->qkey);
	r->mlid = cpu_to_be16(g->mlid);
	r->mtu = IB_SA_EQ << 6 | g->mtu;
	r->tclass = g->tclass;
	r->pkey = cpu_to_be16(g->pkey);
	r->rate = IB_SA_EQ << 6 | g->rate;
	r->plt = IB_SA_EQ << 6 | g->plt;
	r->sl_flow_hop = cpu_to_be32((u32)g->sl << 28 | g->flow_label << 8 |
				     g->hop_limit);
	r->scope_state = g->scope << 4 | join_state;
	r->proxy = 0;
}

/* Is the port at LID active, with GID? sib_fabric_lock held. */
static bool sib_sa_port_is(u16 lid, const union ib_gid *gid)
{
	struct sib_dev *d = sib_dev_by_lid(lid);
	union ib_gid g;

	if (!d || d->state != IB_PORT_ACTIVE)
		return false;
	sib_port_gid(d, &g);
	return !memcmp(&g, gid, sizeof(g));
}

/* Do the faults apply to a request for MGID (NULL: not a member record)? */
static bool sib_sa_targeted(const union ib_gid *mgid)
{
	static const union ib_gid any;

	if (!memcmp(&sa.target, &any, sizeof(any)))
		return true;
	return mgid && !memcmp(&sa.target, mgid, sizeof(*mgid));
}

#define SIB_CREATE_COMPS (IB_SA_MCMEMBER_REC_QKEY | IB_SA_MCMEMBER_REC_PKEY | \
			  IB_SA_MCMEMBER_REC_SL | IB_SA_MCMEMBER_REC_FLOW_LABEL | \
			  IB_SA_MCMEMBER_REC_TRAFFIC_CLASS)

/* A join (Set); sa.lock held. Returns the SA status. */
static u16 sib_sa_join(struct sib_mcmr *r, ib_sa_comp_mask mask)
{
	static const union ib_gid zero;
	u8 js = r->scope_state & 0xf;
	struct sib_sa_group *g = NULL;
	struct sib_sa_member *m;
	u32 sfh = be32_to_cpu(r->sl_flow_hop);
	/* a group named by the request; else the SA assigns one */
	bool named = (mask & IB_SA_MCMEMBER_REC_MGID) &&
		     memcmp(&r->mgid, &zero, sizeof(zero));

	if (!(mask & IB_SA_MCMEMBER_REC_PORT_GID) ||
	    !(mask & IB_SA_MCMEMBER_REC_JOIN_STATE))
		return SIB_SA_ERR_INSUFFICIENT_COMPS;
	if (!js)
		return SIB_SA_ERR_REQ_INVALID;
	if (named)
		g = sib_sa_find(&r->mgid);
	if (g) {
		if (((mask & IB_SA_MCMEMBER_REC_QKEY) &&
		     be32_to_cpu(r->qkey) != g->qkey) ||
		    ((mask & IB_SA_MCMEMBER_REC_PKEY) &&
		     be16_to_cpu(r->pkey) != g->pkey))
			return SIB_SA_ERR_REQ_INVALID;
	} else {
		if (!(js & (SIB_JS_FULL | SIB_JS_SENDONLY_FULL)))
			return SIB_SA_ERR_REQ_INVALID;
		if ((mask & SIB_CREATE_COMPS) != SIB_CREATE_COMPS)
			return SIB_SA_ERR_INSUFFICIENT_COMPS;
		/*
		 * opensm's validate_requested_mgid(): an SA-assigned (a01b)
		 * MGID of link-local scope is not made on request
		 */
		if (named && sa.opensm_mgid && r->mgid.raw[2] == 0xa0 &&
		    r->mgid.raw[3] == 0x1b && (r->mgid.raw[1] & 0xf) == 2)
			return SIB_SA_ERR_REQ_INVALID;
		if (sa.no_resources && sib_sa_targeted(&r->mgid)) {
			sa.no_resources--;
			return SIB_SA_ERR_NO_RESOURCES;
		}
		g = kzalloc_obj(*g, GFP_ATOMIC);
		if (!g)
			return SIB_SA_ERR_NO_RESOURCES;
		if (sib_sa_alloc_mlid(&g->mlid)) {
			kfree(g);
			return SIB_SA_ERR_NO_RESOURCES;
		}
		INIT_LIST_HEAD(&g->members);
		g->scope = mask & IB_SA_MCMEMBER_REC_SCOPE ?
			   r->scope_state >> 4 : 2;
		g->qkey = be32_to_cpu(r->qkey);
		g->pkey = be16_to_cpu(r->pkey);
		g->sl = sfh >> 28;
		g->flow_label = (sfh >> 8) & 0xfffff;
		g->hop_limit = mask & IB_SA_MCMEMBER_REC_HOP_LIMIT ?
			       sfh & 0xff : 0;
		g->tclass = r->tclass;
		g->mtu = SIB_MTU;
		g->rate = IB_RATE_10_GBPS;
		g->plt = 18;
		if (named) {
			g->mgid = r->mgid;
		} else {
			/* SA-assigned: ff1<scope>:a01b:<pkey>::<n> */
			g->mgid.raw[0] = 0xff;
			g->mgid.raw[1] = 0x10 | g->scope;
			g->mgid.raw[2] = 0xa0;
			g->mgid.raw[3] = 0x1b;
			g->mgid.raw[4] = g->pkey >> 8;
			g->mgid.raw[5] = g->pkey & 0xff;
			*(__be32 *)&g->mgid.raw[12] = cpu_to_be32(++sa.next_mgid);
		}
		list_add_tail(&g->node, &sa.groups);
	}
	m = sib_sa_member(g, &r->port_gid);
	if (!m) {
		m = kzalloc_obj(*m, GFP_ATOMIC);
		if (!m) {
			sib_sa_maybe_free(g);
			return SIB_SA_ERR_NO_RESOURCES;
		}
		m->port_gid = r->port_gid;
		list_add_tail(&m->node, &g->members);
	}
	m->join_state |= js;
	sib_sa_fill(r, g, &m->port_gid, m->join_state);
	return 0;
}

/* A leave (Delete); sa.lock held. */
static u16 sib_sa_leave(struct sib_mcmr *r, ib_sa_comp_mask mask)
{
	struct sib_sa_group *g = sib_sa_find(&r->mgid);
	struct sib_sa_member *m = g ? sib_sa_member(g, &r->port_gid) : NULL;
	union ib_gid port_gid = r->port_gid;
	u8 js;

	if (!m)
		return SIB_SA_ERR_REQ_INVALID;
	js = mask & IB_SA_MCMEMBER_REC_JOIN_STATE ? r->scope_state & 0xf :
		m->join_state;
	sib_sa_fill(r, g, &port_gid, js);
	m->join_state &= ~js;
	if (!m->join_state) {
		list_del(&m->node);
		kfree(m);
	}
	sib_sa_maybe_free(g);
	return 0;
}

static u16 sib_sa_get(struct sib_mcmr *r)
{
	struct sib_sa_group *g = sib_sa_find(&r->mgid);
	struct sib_sa_member *m;

	if (!g)
		return SIB_SA_ERR_NO_RECORDS;
	m = sib_sa_member(g, &r->port_gid);
	sib_sa_fill(r, g, &r->port_gid, m ? m->join_state : 0);
	return 0;
}

static void sib_sa_classport(struct ib_sa_mad *mad)
{
	struct ib_class_port_info *cpi = (void *)mad->data;

	memset(cpi, 0, sizeof(*cpi));
	cpi->base_version = IB_MGMT_BASE_VERSION;
	cpi->class_version = IB_SA_CLASS_VERSION;
	ib_set_cpi_resp_time(cpi, 18);
	ib_set_cpi_capmask2(cpi, sa.sendonly_full ?
			    IB_SA_CAP_MASK2_SENDONLY_FULL_MEM_SUPPORT : 0);
}

static void sib_sa_log(const struct ib_sa_mad *req, u16 slid, u16 status,
		       const struct sib_mcmr *r)
{
	struct sib_sa_logent *e = &sa.log[sa.seq % SIB_SA_LOG];

	memset(e, 0, sizeof(*e));
	e->seq = sa.seq++;
	e->ms = ktime_to_ms(ktime_get());
	e->tid = be64_to_cpu(req->mad_hdr.tid);
	e->method = req->mad_hdr.method;
	e->attr = be16_to_cpu(req->mad_hdr.attr_id);
	e->status = status;
	e->slid = slid;
	if (r) {
		const struct sib_mcmr *q = (const void *)req->data;

		e->mgid = q->mgid;
		if (!status && !memchr_inv(&q->mgid, 0, sizeof(q->mgid)))
			e->assigned = r->mgid;
		e->port_gid = q->port_gid;
		e->join_state = q->scope_state & 0xf;
		e->mlid = be16_to_cpu(r->mlid);
	}
}

static void sib_sa_work(struct work_struct *work)
{
	struct sib_sa_req *req = container_of(to_delayed_work(work),
					      struct sib_sa_req, work);
	struct ib_sa_mad *mad = (void *)req->mad;
	struct ib_sa_mad orig = *mad;
	struct sib_mcmr *r = (void *)mad->data;
	ib_sa_comp_mask mask = mad->sa_hdr.comp_mask;
	bool mcmr = mad->mad_hdr.attr_id == cpu_to_be16(IB_SA_ATTR_MC_MEMBER_REC);
	u16 status = 0;
	bool answer = true;

	/*
	 * The fabric's lock first (its order): a join is applied only for a
	 * port that is active now, with the GID it asks for, and a port that
	 * goes down or away afterwards has sib_sa_port_down() purge it.
	 */
	spin_lock_irq(&sib_fabric_lock);
	spin_lock(&sa.lock);
	list_del(&req->node);
	if (!sib_sa_targeted(mcmr ? &r->mgid : NULL)) {
		/* not the group the faults are for: answered as usual */
	} else if (sa.drop) {
		sa.drop--;
		answer = false;
		status = 0xffff;
	} else if (sa.busy) {
		sa.busy--;
		status = IB_MGMT_MAD_STATUS_BUSY;
	}
	if (status) {
		/* dropped, or busy */
	} else if (mcmr && mad->mad_hdr.method == IB_MGMT_METHOD_SET) {
		status = !(mask & IB_SA_MCMEMBER_REC_PORT_GID) ||
			 sib_sa_port_is(req->slid, &r->port_gid) ?
			 sib_sa_join(r, mask) : SIB_SA_ERR_REQ_INVALID;
	} else if (mcmr && mad->mad_hdr.method == IB_SA_METHOD_DELETE) {
		status = sib_sa_leave(r, mask);
	} else if (mcmr && mad->mad_hdr.method == IB_MGMT_METHOD_GET) {
		status = sib_sa_get(r);
	} else if (mad->mad_hdr.attr_id ==
		   cpu_to_be16(IB_SA_ATTR_CLASS_PORTINFO) &&
		   mad->mad_hdr.method == IB_MGMT_METHOD_GET) {
		sib_sa_classport(mad);
	} else {
		status = IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB;
	}
	sib_sa_log(&orig, req->slid, status, mcmr ? r : NULL);
	spin_unlock(&sa.lock);
	spin_unlock_irq(&sib_fabric_lock);

	if (answer) {
		mad->mad_hdr.method = orig.mad_hdr.method ==
			IB_SA_METHOD_DELETE ? IB_SA_METHOD_DELETE_RESP :
			IB_MGMT_METHOD_GET_RESP;
		mad->mad_hdr.status = cpu_to_be16(status);
		memset(&mad->rmpp_hdr, 0, sizeof(mad->rmpp_hdr));
		mad->sa_hdr.attr_offset = mcmr ?
			cpu_to_be16(DIV_ROUND_UP(sizeof(*r), 8)) : 0;
		if (status)
			memcpy(mad->data, orig.data, sizeof(mad->data));
		sib_wire_sa_reply(req->slid, mad, sizeof(*mad));
	}
	kfree(req);
}

void sib_sa_receive(u16 slid, const void *mad, size_t len)
{
	const struct ib_mad_hdr *hdr = mad;
	struct sib_sa_req *req;
	unsigned long flags, delay;

	/* a response, or not the SA's class: an SM would drop it too */
	if (len < sizeof(struct ib_sa_mad) ||
	    hdr->mgmt_class != IB_MGMT_CLASS_SUBN_ADM ||
	    (hdr->method & IB_MGMT_METHOD_RESP))
		return;
	req = kzalloc_obj(*req, GFP_ATOMIC);
	if (!req)
		return;
	req->slid = slid;
	memcpy(req->mad, mad, sizeof(req->mad));
	INIT_DELAYED_WORK(&req->work, sib_sa_work);
	spin_lock_irqsave(&sa.lock, flags);
	delay = msecs_to_jiffies(sa.delay_ms);
	list_add_tail(&req->node, &sa.pending);
	queue_delayed_work(sa.wq, &req->work, delay);
	spin_unlock_irqrestore(&sa.lock, flags);
}

bool sib_sa_port_receives(u16 mlid, const union ib_gid *port_gid)
{
	struct sib_sa_group *g;
	struct sib_sa_member *m;
	unsigned long flags;
	bool ret = false;

	spin_lock_irqsave(&sa.lock, flags);
	list_for_each_entry(g, &sa.groups, node) {
		if (g->mlid != mlid)
			continue;
		m = sib_sa_member(g, port_gid);
		ret = m && (m->join_state & (SIB_JS_FULL | SIB_JS_NON));
		break;
	}
	spin_unlock_irqrestore(&sa.lock, flags);
	return ret;
}

u16 sib_sa_mlid(const union ib_gid *mgid)
{
	struct sib_sa_group *g;
	unsigned long flags;
	u16 mlid;

	spin_lock_irqsave(&sa.lock, flags);
	g = sib_sa_find(mgid);
	mlid = g ? g->mlid : 0;
	spin_unlock_irqrestore(&sa.lock, flags);
	return mlid;
}

void sib_sa_port_down(const union ib_gid *port_gid)
{
	struct sib_sa_group *g, *n;
	struct sib_sa_member *m;

	spin_lock_irq(&sa.lock);
	list_for_each_entry_safe(g, n, &sa.groups, node) {
		m = sib_sa_member(g, port_gid);
		if (!m)
			continue;
		list_del(&m->node);
		kfree(m);
		sib_sa_maybe_free(g);
	}
	spin_unlock_irq(&sa.lock);
}

/* The SM restarts: every record is forgotten (the broadcast group is
 * created again, empty). The caller raises the ports' events.
 */
void sib_sa_restart(void)
{
	struct sib_sa_group *g, *n;

	spin_lock_irq(&sa.lock);
	list_for_each_entry_safe(g, n, &sa.groups, node)
		sib_sa_free_group(g);
	sib_sa_add_broadcast();
	spin_unlock_irq(&sa.lock);
}

void sib_sa_show_records(struct seq_file *m)
{
	struct sib_sa_group *g;
	struct sib_sa_member *mb;

	spin_lock_irq(&sa.lock);
	list_for_each_entry(g, &sa.groups, node) {
		seq_printf(m, "%pI6 mlid 0x%04x qkey 0x%08x pkey 0x%04x sl %u mtu %u members",
			   g->mgid.raw, g->mlid, g->qkey, g->pkey, g->sl,
			   g->mtu);
		list_for_each_entry(mb, &g->members, node)
			seq_printf(m, " %pI6/%x", mb->port_gid.raw,
				   mb->join_state);
		seq_putc(m, '\n');
	}
	spin_unlock_irq(&sa.lock);
}

void sib_sa_show_log(struct seq_file *m)
{
	u32 i, first;

	spin_lock_irq(&sa.lock);
	first = sa.seq > SIB_SA_LOG ? sa.seq - SIB_SA_LOG : 0;
	for (i = first; i < sa.seq; i++) {
		const struct sib_sa_logent *e = &sa.log[i % SIB_SA_LOG];

		seq_printf(m, "%u %u tid 0x%016llx slid %u method 0x%02x attr 0x%04x",
			   e->seq, e->ms, e->tid, e->slid, e->method, e->attr);
		if (e->attr == IB_SA_ATTR_MC_MEMBER_REC)
			seq_printf(m, " mgid %pI6 port %pI6 state %x mlid 0x%04x",
				   e->mgid.raw, e->port_gid.raw, e->join_state,
				   e->mlid);
		if (memchr_inv(e->assigned.raw, 0, sizeof(e->assigned)))
			seq_printf(m, " assigned %pI6", e->assigned.raw);
		if (e->status == 0xffff)
			seq_puts(m, " dropped\n");
		else
			seq_printf(m, " status 0x%04x\n", e->status);
	}
	spin_unlock_irq(&sa.lock);
}

/* "busy N", "drop N", "no-resources N", "delay MS", "mlids N",
 * "sendonly-full 0|1", "opensm-mgid 0|1", "clear-log", "target MGID|any"
 */
int sib_sa_control(const char *cmd, const char *arg)
{
	union ib_gid target = {};
	unsigned int v = 0;
	int ret = 0;

	if (!strcmp(cmd, "target")) {
		if (!arg || (strcmp(arg, "any") &&
			     !in6_pton(arg, -1, target.raw, -1, NULL)))
			return -EINVAL;
		spin_lock_irq(&sa.lock);
		sa.target = target;
		spin_unlock_irq(&sa.lock);
		return 0;
	}
	if (strcmp(cmd, "clear-log") && kstrtouint(arg ? arg : "", 0, &v))
		return -EINVAL;
	spin_lock_irq(&sa.lock);
	if (!strcmp(cmd, "busy"))
		sa.busy = v;
	else if (!strcmp(cmd, "drop"))
		sa.drop = v;
	else if (!strcmp(cmd, "no-resources"))
		sa.no_resources = v;
	else if (!strcmp(cmd, "delay") && v <= 60000)
		sa.delay_ms = v;
	else if (!strcmp(cmd, "mlids") && v >= 1 && v <= SIB_SA_MAX_MLIDS &&
		 find_next_bit(sa.mlid_used, SIB_SA_MAX_MLIDS, v) >=
		 SIB_SA_MAX_MLIDS)
		sa.mlids = v;
	else if (!strcmp(cmd, "sendonly-full") && v <= 1)
		sa.sendonly_full = v;
	else if (!strcmp(cmd, "opensm-mgid") && v <= 1)
		sa.opensm_mgid = v;
	else if (!strcmp(cmd, "clear-log"))
		sa.seq = 0;
	else
		ret = -EINVAL;
	spin_unlock_irq(&sa.lock);
	return ret;
}

int sib_sa_init(void)
{
	if (!mlids || mlids > SIB_SA_MAX_MLIDS)
		return -EINVAL;
	spin_lock_init(&sa.lock);
	INIT_LIST_HEAD(&sa.groups);
	INIT_LIST_HEAD(&sa.pending);
	sa.mlids = mlids;
	sa.sendonly_full = sendonly_full;
	/* one request at a time, as one SM answers: in the order they came,
	 * or with "sa delay" changed meanwhile, as their delays expire
	 */
	sa.wq = alloc_ordered_workqueue("softib_sa", 0);
	if (!sa.wq)
		return -ENOMEM;
	spin_lock_irq(&sa.lock);
	sib_sa_add_broadcast();
	spin_unlock_irq(&sa.lock);
	return 0;
}

void sib_sa_exit(void)
{
	struct sib_sa_group *g, *n;
	struct sib_sa_req *req, *rn;

	/*
	 * The devices are gone: a request still waiting is dropped here; one
	 * whose work has started takes itself off the list and frees itself,
	 * and destroy_workqueue() waits for it.
	 */
	spin_lock_irq(&sa.lock);
	list_for_each_entry_safe(req, rn, &sa.pending, node) {
		if (cancel_delayed_work(&req->work)) {
			list_del(&req->node);
			kfree(req);
		}
	}
	spin_unlock_irq(&sa.lock);
	destroy_workqueue(sa.wq);
	list_for_each_entry_safe(g, n, &sa.groups, node)
		sib_sa_free_group(g);
}
