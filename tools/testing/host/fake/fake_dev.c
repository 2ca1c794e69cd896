// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The fake /dev/rdma_mcm: see fake_dev.h.
 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "fake_dev.h"
#include "mcm_model.h"
#include "mcm_test.h"
#include "rdma_mcm_priv.h"

struct fake_dev fake = { .efd = -1 };

#define FAKE_QKEY	0x01234567u

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void fake_lock(void)
{
	pthread_mutex_lock(&lock);
}

void fake_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

size_t fake_event_size(void)
{
	return sizeof(struct rdma_mcm_event) + (fake.new_kernel ? FAKE_GROW : 0);
}

int fake_has_sources(void)
{
	return !fake.no_sources && !fake.no_heal && !fake.old_kernel;
}

uint32_t fake_features(void)
{
	return fake_has_sources() ? RDMA_MCM_FEATURE_SOURCES |
				    RDMA_MCM_FEATURE_IPV6_ROCE : 0;
}

size_t fake_member_size(void)
{
	if (fake.no_heal || fake.old_kernel)
		return RDMA_MCM_MEMBER_SIZE_VER0;
	/* the module of healing, before sources: without nr_sources, flags */
	if (fake.no_sources)
		return offsetof(struct rdma_mcm_member, nr_sources);
	return sizeof(struct rdma_mcm_member) + (fake.new_kernel ? FAKE_GROW : 0);
}

size_t fake_join_size(void)
{
	return fake_has_sources() ? sizeof(struct rdma_mcm_join) :
				    RDMA_MCM_JOIN_SIZE_VER0;
}

uint64_t fake_boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int rejoin(uint32_t ctx_id, uint32_t handle, uint16_t mlid);
static int lose(uint32_t ctx_id, uint32_t handle, int32_t status);
static int device_gone(uint32_t ctx_id);
static int device_back(uint32_t ctx_id, uint8_t port, int rejoin_all);

/* A change of state, as the module records it */
static void set_state(struct fake_member *fm, uint32_t state, int32_t status)
{
	fm->m.state = state;
	/* as rdma_mcm_state.c: the reason of an error, and of a wait */
	fm->m.status = state == RDMA_MCM_STATE_ERROR ||
		       state == RDMA_MCM_STATE_WAITING ? status : 0;
	if (status)
		fm->m.last_status = status;
	fm->m.state_time_ns = fake_boottime_ns();
}

static int heals(uint32_t ctx_id)
{
	struct fake_ctx *c = fake_find_ctx(ctx_id);

	return c && c->flags & RDMA_MCM_CTX_HEAL;
}

/* --- readiness: one eventfd count per queued event -------------------- */

/* eventfd_read/write, not read(2)/write(2): fake_preload.c has those */
static void ready_add(void)
{
	if (eventfd_write(fake.efd, 1))
		abort();
}

static void ready_sub(void)
{
	eventfd_t v;

	if (eventfd_read(fake.efd, &v))
		abort();
}

/* --- addresses --------------------------------------------------------- */

static uint16_t addr_family(const uint8_t *addr)
{
	uint16_t f;

	memcpy(&f, addr, sizeof(f));
	return f;
}

/* Check an ABI address: 0, -EINVAL or -EAFNOSUPPORT, as the kernel */
static int check_addr(const uint8_t *addr, uint32_t len)
{
	int family;

	return -addr_errno(addr, len, &family);
}

/* The bytes naming a group, as the library's mcm_addr_key() */
static void group_key(const uint8_t *addr, uint8_t key[16])
{
	memset(key, 0, 16);
	if (addr_family(addr) == AF_INET)
		memcpy(key, addr + offsetof(struct sockaddr_in, sin_addr), 4);
	else if (addr_family(addr) == AF_INET6)
		memcpy(key, addr + offsetof(struct sockaddr_in6, sin6_addr), 16);
	else
		memcpy(key, addr + 8, 16);
}

static int is_multicast(const uint8_t *addr)
{
	uint8_t key[16];

	group_key(addr, key);
	if (addr_family(addr) == AF_INET)
		return (key[0] & 0xf0) == 0xe0;
	return key[0] == 0xff;
}

void fake_mgid(const uint8_t *addr, uint8_t mgid[16])
{
	uint8_t key[16];

	group_key(addr, key);
	if (addr_family(addr) != AF_INET) {
		memcpy(mgid, key, 16);
		return;
	}
	memset(mgid, 0, 16);
	mgid[10] = 0xff;
	mgid[11] = 0xff;
	memcpy(mgid + 12, key, 4);
}

/* --- contexts and members ---------------------------------------------- */

struct fake_ctx *fake_find_ctx(uint32_t id)
{
	int i;

	for (i = 0; i < FAKE_MAX_CTX; i++)
		if (fake.ctx[i].used && fake.ctx[i].id == id)
			return &fake.ctx[i];
	return NULL;
}

struct fake_member *fake_find(uint32_t ctx_id, uint32_t handle)
{
	int i;

	for (i = 0; i < FAKE_MAX_MEMBERS; i++)
		if (fake.mem[i].used && fake.mem[i].ctx_id == ctx_id &&
		    fake.mem[i].m.handle == handle)
			return &fake.mem[i];
	return NULL;
}

static struct fake_member *find_addr(uint32_t ctx_id, const uint8_t *addr)
{
	uint8_t a[16], b[16];
	int i;

	group_key(addr, a);
	for (i = 0; i < FAKE_MAX_MEMBERS; i++) {
		if (!fake.mem[i].used || fake.mem[i].ctx_id != ctx_id)
			continue;
		group_key(fake.mem[i].m.addr, b);
		if (!memcmp(a, b, 16))
			return &fake.mem[i];
	}
	return NULL;
}

/* Queue an event, if this file reads its type */
static void queue_event(const struct rdma_mcm_event *ev)
{
	struct fake_event *fe;

	if (ev->event >= 64 || !(fake.ev_mask & RDMA_MCM_EVENT_BIT(ev->event)))
		return;
	if (fake.qlen == FAKE_MAX_EVENTS)
		abort();
	fe = &fake.q[fake.qlen++];
	fe->ev = *ev;
	memset(fe->tail, fake.new_kernel ? FAKE_TAIL : 0, sizeof(fe->tail));
	ready_add();
}

/* Undelivered events of a membership go with it, as in the kernel. */
static void purge(uint32_t ctx_id, uint32_t handle, int any_handle)
{
	unsigned int i, kept = 0;

	for (i = 0; i < fake.qlen; i++) {
		if (fake.q[i].ev.ctx_id == ctx_id &&
		    (any_handle || fake.q[i].ev.handle == handle)) {
			ready_sub();
			continue;
		}
		fake.q[kept++] = fake.q[i];
	}
	fake.qlen = kept;
}

static void drop_member(struct fake_member *fm)
{
	purge(fm->ctx_id, fm->m.handle, 0);
	memset(fm, 0, sizeof(*fm));
	fake.nr_members--;
	fake.nr_leaves++;
}

/* A membership's event with the group's attributes (JOINED, REJOINED) */
static void joined_event(struct fake_member *fm, uint32_t type, uint16_t mlid)
{
	struct fake_ctx *c = fake_find_ctx(fm->ctx_id);
	struct rdma_mcm_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.cookie = fm->m.cookie;
	ev.ctx_id = fm->ctx_id;
	ev.handle = fm->m.handle;
	ev.event = type;
	fm->m.qkey = FAKE_QKEY;
	fm->m.mlid = mlid;
	fake_mgid(fm->m.addr, fm->m.mgid);
	ev.qkey = FAKE_QKEY;
	ev.mlid = mlid;
	memcpy(ev.mgid, fm->m.mgid, 16);
	memcpy(ev.dgid, fm->m.mgid, 16);
	ev.hop_limit = 255;
	ev.port_num = c && c->port ? c->port : 1;
	ev.is_global = 1;
	queue_event(&ev);
}

/* A membership's event with a status (ERROR, REJOINING) */
static void status_event(struct fake_member *fm, uint32_t type,
			 int32_t status)
{
	struct rdma_mcm_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.cookie = fm->m.cookie;
	ev.ctx_id = fm->ctx_id;
	ev.handle = fm->m.handle;
	ev.event = type;
	ev.status = status;
	queue_event(&ev);
}

/*
 * A failure of a joining or joined membership: in a healing context, a
 * transient one makes it WAITING (REJOINING), anything else ERROR.
 */
static void fail(struct fake_member *fm, int32_t status)
{
	if (heals(fm->ctx_id) && status_waiting(status)) {
		set_state(fm, RDMA_MCM_STATE_WAITING, status);
		status_event(fm, RDMA_MCM_EVENT_REJOINING, status);
		if (fake.auto_rejoin && status != -ENODEV)
			rejoin(fm->ctx_id, fm->m.handle, 0);
		return;
	}
	set_state(fm, RDMA_MCM_STATE_ERROR, status);
	status_event(fm, RDMA_MCM_EVENT_ERROR, status);
}

static int complete(uint32_t ctx_id, uint32_t handle, int32_t status)
{
	struct fake_member *fm = fake_find(ctx_id, handle);

	if (!fm || fm->m.state != RDMA_MCM_STATE_JOINING)
		return -1;
	if (status) {
		fail(fm, status);
		return 0;
	}
	set_state(fm, RDMA_MCM_STATE_JOINED, 0);
	joined_event(fm, RDMA_MCM_EVENT_JOINED, 0);
	return 0;
}

static int rejoin(uint32_t ctx_id, uint32_t handle, uint16_t mlid)
{
	struct fake_member *fm = fake_find(ctx_id, handle);
	struct fake_ctx *c = fake_find_ctx(ctx_id);

	if (!fm || !c || c->no_device ||
	    fm->m.state != RDMA_MCM_STATE_WAITING)
		return -1;
	fm->m.rejoins++;
	set_state(fm, RDMA_MCM_STATE_JOINED, 0);
	joined_event(fm, RDMA_MCM_EVENT_REJOINED, mlid);
	return 0;
}

int fake_rejoin(uint32_t ctx_id, uint32_t handle, uint16_t mlid)
{
	int ret;

	fake_lock();
	ret = rejoin(ctx_id, handle, mlid);
	fake_unlock();
	return ret;
}

int fake_complete(uint32_t ctx_id, uint32_t handle, int32_t status)
{
	int ret;

	fake_lock();
	ret = complete(ctx_id, handle, status);
	fake_unlock();
	return ret;
}

int fake_complete_all(void)
{
	int i, n = 0;

	fake_lock();
	for (i = 0; i < FAKE_MAX_MEMBERS; i++) {
		struct fake_member *fm = &fake.mem[i];

		if (fm->used && fm->m.state == RDMA_MCM_STATE_JOINING &&
		    fake.qlen < FAKE_MAX_EVENTS)
			n += !complete(fm->ctx_id, fm->m.handle, 0);
	}
	fake_unlock();
	return n;
}

static int lose(uint32_t ctx_id, uint32_t handle, int32_t status)
{
	struct fake_member *fm;

	fm = fake_find(ctx_id, handle);
	if (!fm || fm->m.state != RDMA_MCM_STATE_JOINED)
		return -1;
	fail(fm, status);
	return 0;
}

int fake_lose(uint32_t ctx_id, uint32_t handle, int32_t status)
{
	int ret;

	fake_lock();
	ret = lose(ctx_id, handle, status);
	fake_unlock();
	return ret;
}

static int device_removed(uint32_t ctx_id)
{
	struct rdma_mcm_event ev;

	if (!fake_find_ctx(ctx_id))
		return -1;
	memset(&ev, 0, sizeof(ev));
	ev.event = RDMA_MCM_EVENT_DEVICE_REMOVED;
	ev.status = -ENODEV;
	ev.ctx_id = ctx_id;
	queue_event(&ev);
	return 0;
}

int fake_device_removed(uint32_t ctx_id)
{
	int ret;

	fake_lock();
	ret = device_removed(ctx_id);
	fake_unlock();
	return ret;
}

static int device_gone(uint32_t ctx_id)
{
	struct fake_ctx *c = fake_find_ctx(ctx_id);
	int i;

	if (!c || c->no_device)
		return -1;
	for (i = 0; i < FAKE_MAX_MEMBERS; i++) {
		struct fake_member *fm = &fake.mem[i];

		if (fm->used && fm->ctx_id == ctx_id &&
		    (fm->m.state == RDMA_MCM_STATE_JOINING ||
		     fm->m.state == RDMA_MCM_STATE_JOINED))
			fail(fm, -ENODEV);
	}
	c->no_device = 1;
	return device_removed(ctx_id);
}

int fake_device_gone(uint32_t ctx_id)
{
	int ret;

	fake_lock();
	ret = device_gone(ctx_id);
	fake_unlock();
	return ret;
}

static int device_back(uint32_t ctx_id, uint8_t port, int rejoin_all)
{
	struct fake_ctx *c = fake_find_ctx(ctx_id);
	struct rdma_mcm_event ev;
	int i;

	if (!c || !c->no_device || !(c->flags & RDMA_MCM_CTX_HEAL))
		return -1;
	c->no_device = 0;
	c->port = port;
	memset(&ev, 0, sizeof(ev));
	ev.event = RDMA_MCM_EVENT_DEVICE_ADDED;
	ev.ctx_id = ctx_id;
	ev.port_num = port;
	queue_event(&ev);
	for (i = 0; rejoin_all && i < FAKE_MAX_MEMBERS; i++)
		if (fake.mem[i].used && fake.mem[i].ctx_id == ctx_id)
			rejoin(ctx_id, fake.mem[i].m.handle, 0);
	return 0;
}

int fake_device_back(uint32_t ctx_id, uint8_t port, int rejoin_all)
{
	int ret;

	fake_lock();
	ret = device_back(ctx_id, port, rejoin_all);
	fake_unlock();
	return ret;
}

int fake_route(void *priv, const struct sockaddr *dst,
	       struct sockaddr_storage *src, uint32_t *ifindex)
{
	(void)priv;
	fake_lock();
	fake.nr_routes++;
	if (fake.route_errno || dst->sa_family != fake.route_src.ss_family) {
		fake_unlock();
		return fake.route_errno ? -fake.route_errno : -ENETUNREACH;
	}
	*src = fake.route_src;
	*ifindex = fake.route_ifindex;
	fake_unlock();
	return 0;
}

/* --- commands ------------------------------------------------------------ */

static int do_create_ctx(struct rdma_mcm_create_ctx *c)
{
	const uint32_t known = fake.no_heal || fake.old_kernel ? 0 :
			       RDMA_MCM_CTX_HEAL | RDMA_MCM_CTX_ROUTE;
	const uint8_t *a4;
	int i, ret;

	if (c->flags & ~known || c->reserved)
		return -EINVAL;
	ret = check_addr(c->src, c->src_len);
	if (ret)
		return ret;
	/* TEST-NET-3 (203.0.113.0/24) is on no netdev */
	a4 = c->src + offsetof(struct sockaddr_in, sin_addr);
	if (!(c->flags & RDMA_MCM_CTX_ROUTE) &&
	    addr_family(c->src) == AF_INET && a4[0] == 203 && a4[1] == 0 &&
	    a4[2] == 113)
		return -EADDRNOTAVAIL;
	/* a route: to a group, and the fake's table has one */
	if (c->flags & RDMA_MCM_CTX_ROUTE &&
	    (!is_multicast(c->src) || fake.route_errno))
		return fake.route_errno ? -fake.route_errno : -EINVAL;
	for (i = 0; i < FAKE_MAX_CTX; i++) {
		if (fake.ctx[i].used)
			continue;
		memset(&fake.ctx[i], 0, sizeof(fake.ctx[i]));
		fake.ctx[i].used = 1;
		fake.ctx[i].id = ++fake.next_ctx;
		fake.ctx[i].family = addr_family(c->src);
		fake.ctx[i].next_handle = 1;
		fake.ctx[i].flags = c->flags;
		fake.ctx[i].port = 1;
		if (c->flags & RDMA_MCM_CTX_ROUTE)
			fake.ctx[i].src = fake.route_src;
		else
			memcpy(&fake.ctx[i].src, c->src, c->src_len);
		c->ctx_id = fake.ctx[i].id;
		return 0;
	}
	return -EMFILE;
}

static void leave_ctx(uint32_t ctx_id)
{
	int i;

	for (i = 0; i < FAKE_MAX_MEMBERS; i++)
		if (fake.mem[i].used && fake.mem[i].ctx_id == ctx_id)
			drop_member(&fake.mem[i]);
	purge(ctx_id, 0, 1);
}

static int do_destroy_ctx(struct rdma_mcm_destroy_ctx *d)
{
	struct fake_ctx *c = fake_find_ctx(d->ctx_id);

	if (d->reserved)
		return -EINVAL;
	if (!c)
		return -ENOENT;
	leave_ctx(c->id);
	memset(c, 0, sizeof(*c));
	return 0;
}

static struct fake_member *new_member(void)
{
	int i;

	for (i = 0; i < FAKE_MAX_MEMBERS; i++)
		if (!fake.mem[i].used)
			return &fake.mem[i];
	return NULL;
}

int fake_join_one(const struct fake_join_req *r, uint32_t *handle)
{
	const uint8_t *addr = r->addr;
	uint32_t ctx_id = r->ctx_id;
	struct fake_ctx *c = fake_find_ctx(ctx_id);
	struct fake_member *fm;
	uint8_t key[16];
	int ret;

	if (r->flags > RDMA_MCM_JOIN_SENDONLY_FULLMEMBER)
		return -EINVAL;
	ret = check_addr(addr, r->addr_len);
	if (ret)
		return ret;
	if (!c)
		return -ENOENT;
	if (addr_family(addr) != c->family || !is_multicast(addr))
		return -EINVAL;
	ret = fake_check_sources(c, r);
	if (ret)
		return ret;
	if (c->no_device)
		return -ENODEV;
	if (find_addr(ctx_id, addr))
		return -EADDRINUSE;
	fm = new_member();
	if (!fm || fake.nr_members >= fake.max_members)
		return -ENOBUFS;
	fm->used = 1;
	fm->ctx_id = ctx_id;
	fm->m.cookie = r->cookie;
	fm->m.handle = c->next_handle++;
	set_state(fm, RDMA_MCM_STATE_JOINING, 0);
	fm->m.join_flags = r->flags;
	fm->m.addr_len = r->addr_len;
	memcpy(fm->m.addr, addr, r->addr_len);
	if (fake_has_sources()) {
		fm->m.nr_sources = r->nr_sources;
		/* rdma_cm refuses IPv6 groups on RoCE v2: rdma_mcm joins them */
		if (c->family == AF_INET6 && !fake.ib_port)
			fm->m.flags = RDMA_MCM_MEMBER_JOINED_BY_MCM;
	}
	memset(fm->tail, fake.new_kernel ? FAKE_TAIL : 0, sizeof(fm->tail));
	fake.nr_members++;
	*handle = fm->m.handle;
	if (fake.auto_complete) {
		group_key(addr, key);
		complete(ctx_id, fm->m.handle,
			 memcmp(key, fake.fail_group, 16) ? 0 : fake.fail_status);
		/* the device goes: ERROR or REJOINING, then its notice */
		if (!memcmp(key, fake.remove_group, 16) &&
		    fm->m.state == RDMA_MCM_STATE_JOINED &&
		    !device_gone(ctx_id) && fake.device_back)
			device_back(ctx_id, 1, 1);
		/* a port event: lost, then joined again (or not yet) */
		if ((!memcmp(key, fake.rejoin_group, 16) ||
		     !memcmp(key, fake.wait_group, 16)) &&
		    !lose(ctx_id, fm->m.handle, -ENETRESET) &&
		    !memcmp(key, fake.rejoin_group, 16))
			rejoin(ctx_id, fm->m.handle, 0);
	}
	return 0;
}

static int do_join(struct rdma_mcm_join *j)
{
	const struct fake_join_req r = {
		.ctx_id = j->ctx_id, .cookie = j->cookie,
		.flags = j->join_flags, .addr_len = j->addr_len,
		.addr = j->addr, .sources = j->sources,
		.nr_sources = j->nr_sources, .source_size = j->source_size,
	};

	if (j->handle)
		return -EINVAL;
	return fake_join_one(&r, &j->handle);
}

int fake_leave_one(uint32_t ctx_id, uint32_t flags, uint32_t handle,
		   uint32_t addr_len, const uint8_t *addr,
		   uint32_t *events_reported)
{
	struct fake_member *fm;
	int ret;

	if (flags & ~RDMA_MCM_LEAVE_BY_ADDR)
		return -EINVAL;
	if (!fake_find_ctx(ctx_id))
		return -ENOENT;
	if (flags & RDMA_MCM_LEAVE_BY_ADDR) {
		if (handle)
			return -EINVAL;
		ret = check_addr(addr, addr_len);
		if (ret)
			return ret;
		fm = find_addr(ctx_id, addr);
	} else {
		fm = fake_find(ctx_id, handle);
	}
	if (!fm)
		return -EADDRNOTAVAIL;
	*events_reported = fm->m.events_reported;
	drop_member(fm);
	return 0;
}

static int do_leave(struct rdma_mcm_leave *l)
{
	if (l->reserved || l->events_reported)
		return -EINVAL;
	return fake_leave_one(l->ctx_id, l->flags, l->handle, l->addr_len, l->addr,
			 &l->events_reported);
}

static int do_query(struct rdma_mcm_query *q)
{
	struct fake_member *fm;

	if (!fake_find_ctx(q->ctx_id))
		return -ENOENT;
	fm = fake_find(q->ctx_id, q->handle);
	if (!fm)
		return -EADDRNOTAVAIL;
	q->member = fm->m;
	/* a newer kernel's member is longer: its tail follows the struct */
	memcpy(q + 1, fm->tail, fake.new_kernel ? FAKE_GROW : 0);
	return 0;
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

/* Where the context is: its source, port and device, once it has one */
static int do_query_ctx(struct rdma_mcm_query_ctx *q)
{
	struct fake_ctx *c;
	size_t len;

	if (q->flags || q->src_len || q->port_num || q->node_guid ||
	    !all_zero(q->src, sizeof(q->src)) ||
	    !all_zero(q->dev_name, sizeof(q->dev_name)) ||
	    !all_zero(q->reserved, sizeof(q->reserved)))
		return -EINVAL;
	c = fake_find_ctx(q->ctx_id);
	if (!c)
		return -ENOENT;
	q->flags = c->flags;
	if (c->no_device)
		return 0;
	len = family_len(c->src.ss_family);
	memcpy(q->src, &c->src, len);
	q->src_len = (uint32_t)len;
	q->port_num = c->port;
	q->node_guid = fake.node_guid;
	memcpy(q->dev_name, fake.dev_name, sizeof(fake.dev_name));
	return 0;
}

/* A command, its argument in the kernel's size; 0 or -errno */
int fake_dispatch(unsigned long nr, void *arg)
{
	switch (nr) {
	case _IOC_NR(RDMA_MCM_IOC_VERSION):
		if (fake.version_errno)
			return -fake.version_errno;
		((struct rdma_mcm_version *)arg)->abi_version =
			fake.abi_version;
		((struct rdma_mcm_version *)arg)->features = fake_features();
		return 0;
	case _IOC_NR(RDMA_MCM_IOC_CREATE_CTX):
		return do_create_ctx(arg);
	case _IOC_NR(RDMA_MCM_IOC_DESTROY_CTX):
		return do_destroy_ctx(arg);
	case _IOC_NR(RDMA_MCM_IOC_JOIN):
		return do_join(arg);
	case _IOC_NR(RDMA_MCM_IOC_LEAVE):
		return do_leave(arg);
	case _IOC_NR(RDMA_MCM_IOC_QUERY):
		return do_query(arg);
	case _IOC_NR(RDMA_MCM_IOC_LIST):
		return fake_do_list(arg);
	case _IOC_NR(RDMA_MCM_IOC_BATCH_JOIN):
		return fake_do_batch_join(arg);
	case _IOC_NR(RDMA_MCM_IOC_BATCH_LEAVE):
		return fake_do_batch_leave(arg);
	case _IOC_NR(RDMA_MCM_IOC_SET_EVENTS):
		if (fake.old_kernel)
			return -ENOTTY;
		return fake_do_set_events(arg);
	case _IOC_NR(RDMA_MCM_IOC_QUERY_CTX):
		if (fake.old_kernel || fake.no_heal || fake.no_query_ctx)
			return -ENOTTY;
		return do_query_ctx(arg);
	default:
		return -ENOTTY;
	}
}

/* read(): whole events of this file's size; bytes or -errno */
ssize_t fake_read_events(void *buf, size_t len)
{
	uint8_t *out = buf;
	struct fake_member *fm;
	size_t n, i;

	fake.nr_reads++;
	fake.read_len = (uint32_t)len;
	if (len < fake.ev_size)
		return -EINVAL;
	if (!fake.qlen)
		return -EAGAIN;
	n = len / fake.ev_size;
	if (n > fake.qlen)
		n = fake.qlen;
	for (i = 0; i < n; i++) {
		memcpy(out + i * fake.ev_size, &fake.q[i], fake.ev_size);
		fm = fake_find(fake.q[i].ev.ctx_id, fake.q[i].ev.handle);
		if (fm)
			fm->m.events_reported++;
		ready_sub();
	}
	memmove(fake.q, fake.q + n, (fake.qlen - n) * sizeof(fake.q[0]));
	fake.qlen -= (unsigned int)n;
	return (ssize_t)(n * fake.ev_size);
}

/* The last close of the file: every context and membership goes. */
void fake_close_file(void)
{
	int i;

	for (i = 0; i < FAKE_MAX_CTX; i++)
		if (fake.ctx[i].used)
			leave_ctx(fake.ctx[i].id);
	memset(fake.ctx, 0, sizeof(fake.ctx));
}
