// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The event side: rdma_mcm's events become rdma_cm events on the id's
 * channel.
 *
 * A reader thread waits on /dev/rdma_mcm. JOINED and ERROR become a
 * queued MULTICAST_JOIN or MULTICAST_ERROR on the channel of the
 * membership's id; REJOINING and REJOINED detach and attach the QP
 * again, unseen (a healing membership); DEVICE_REMOVED marks the id's
 * verbs objects gone (the program gets librdmacm's own DEVICE_REMOVAL).
 *
 * The doorbell. A program that polls channel->fd must see it readable
 * while one of our events waits, and librdmacm's commands are written to
 * that very fd, so it cannot be replaced. Instead the channel gets a real
 * event: an rdma_cm_id of ours on the channel resolves a local address of
 * the device (ADDR_RESOLVED or ADDR_ERROR follows in a few milliseconds,
 * on every kernel). rdma_get_cm_event() swallows that event and returns
 * the queued ones; the bell is rung again while events remain. A bell
 * is rung only while events wait: when the last goes (fetched, left,
 * destroyed) before the bell's event was read, the bell id is destroyed,
 * and ucma drops its unread event with it, so that a program that polls
 * and then calls a blocking rdma_get_cm_event() never blocks. Linux
 * 6.18's ucma WRITE_CM_EVENT could inject the readiness without an id,
 * but it needs rdma-core 60's rdma_write_cm_event() and the id's kernel
 * handle, which librdmacm keeps private; the doorbell works everywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <infiniband/verbs.h>

#include "preload.h"

/* Every rdma_mcm event type: healing is handled here, unseen */
#define PL_EVENT_MASK	(RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_JOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_ERROR) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_REMOVED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINING) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_REJOINED) | \
			 RDMA_MCM_EVENT_BIT(RDMA_MCM_EVENT_DEVICE_ADDED))

static pthread_cond_t bell_done = PTHREAD_COND_INITIALIZER;

/*
 * Every bell id from its creation until its destruction returned: an
 * event of one (ADDR_RESOLVED, ADDR_ERROR, or a DEVICE_REMOVAL of its
 * device) is never the program's, whatever state its channel is in.
 */
struct pl_bell {
	struct pl_node node;
	struct rdma_cm_id *id;
};

static struct pl_table bells;

static struct pl_bell *bell_find(const struct rdma_cm_id *id)
{
	struct pl_node *n = pl_table_find(&bells, (uintptr_t)id, NULL);

	for (; n; n = pl_table_find(&bells, (uintptr_t)id, n))
		if (((struct pl_bell *)(void *)n)->id == id)
			return (struct pl_bell *)(void *)n;
	return NULL;
}

static int bell_remember(struct rdma_cm_id *id)
{
	struct pl_bell *b = calloc(1, sizeof(*b));

	if (!b)
		return -1;
	b->id = id;
	if (pl_table_add(&bells, &b->node, (uintptr_t)id)) {
		free(b);
		return -1;
	}
	return 0;
}

static void bell_forget(struct rdma_cm_id *id)
{
	struct pl_bell *b = bell_find(id);

	if (b) {
		pl_table_del(&bells, &b->node);
		free(b);
	}
}

void pl_lock(void)
{
	pthread_mutex_lock(&pl.lock);
}

void pl_unlock(void)
{
	pthread_mutex_unlock(&pl.lock);
}

static uint64_t ptr_key(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

struct pl_channel *pl_channel_find(struct rdma_event_channel *ch)
{
	struct pl_node *n = pl_table_find(&pl.chans, ptr_key(ch), NULL);

	for (; n; n = pl_table_find(&pl.chans, ptr_key(ch), n)) {
		struct pl_channel *c = (void *)((char *)n -
					offsetof(struct pl_channel, by_ch));

		if (c->ch == ch)
			return c;
	}
	return NULL;
}

struct pl_channel *pl_channel_get(struct rdma_event_channel *ch,
				  const struct sockaddr *local)
{
	struct pl_channel *c = pl_channel_find(ch);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ch = ch;
	c->wake_fd = -1;
	memcpy(&c->bell_addr, local, pl_addr_len(local));
	/* the bell binds a port of its own: the id's is taken */
	if (local->sa_family == AF_INET)
		((struct sockaddr_in *)&c->bell_addr)->sin_port = 0;
	else if (local->sa_family == AF_INET6)
		((struct sockaddr_in6 *)&c->bell_addr)->sin6_port = 0;
	if (pl_table_add(&pl.chans, &c->by_ch, ptr_key(ch))) {
		free(c);
		return NULL;
	}
	return c;
}

/* Remove a queued event from its channel and its membership */
void pl_event_unqueue(struct pl_event *e)
{
	struct pl_channel *c = e->chan;
	struct pl_event **pp;

	if (c) {
		if (e->prev)
			e->prev->next = e->next;
		else
			c->head = e->next;
		if (e->next)
			e->next->prev = e->prev;
		else
			c->tail = e->prev;
		c->queued--;
		e->chan = NULL;
		e->prev = NULL;
		e->next = NULL;
	}
	if (e->mc) {
		for (pp = &e->mc->queued; *pp; pp = &(*pp)->mc_next)
			if (*pp == e) {
				*pp = e->mc_next;
				break;
			}
		e->mc = NULL;
	}
	e->pid = NULL;
}

/* The id goes: its own undelivered events (DEVICE_REMOVAL) go with it */
void pl_id_purge(struct pl_id *pid)
{
	struct pl_channel *c = pl_channel_find(pid->id->channel);
	struct pl_event *e, *next;

	for (e = c ? c->head : NULL; e; e = next) {
		next = e->next;
		if (e->pid == pid) {
			pl_event_unqueue(e);
			free(e);
		}
	}
}

/* A membership goes: its undelivered events go with it */
void pl_mc_purge(struct pl_mc *mc)
{
	while (mc->queued) {
		struct pl_event *e = mc->queued;

		pl_event_unqueue(e);
		free(e);
	}
}

/* Everything of a channel, which the program destroys */
void pl_channel_free(struct pl_channel *c)
{
	while (c->head) {
		struct pl_event *e = c->head;

		pl_event_unqueue(e);
		free(e);
	}
	pl_table_del(&pl.chans, &c->by_ch);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	free(c);
}

/* Events wait, nobody waits for them inside get, and no bell rings */
int pl_needs_bell(const struct pl_channel *c)
{
	return c->bell_state == PL_BELL_IDLE && c->head && !c->waiters;
}

/*
 * An event was queued on @c (pl.lock held): wake a thread waiting in
 * get, or return the channel whose bell must ring (NULL: none)
 */
struct rdma_event_channel *pl_tell(struct pl_channel *c)
{
	uint64_t one = 1;

	if (c->waiters && c->wake_fd >= 0) {
		if (write(c->wake_fd, &one, sizeof(one)) != sizeof(one))
			pl_debug("wake: %s", strerror(errno));
		return NULL;
	}
	return pl_needs_bell(c) ? c->ch : NULL;
}

/*
 * Make @ch readable: start a resolve on a doorbell id of ours. Called
 * without pl.lock; a channel being destroyed waits for a ring under way.
 */
void pl_ring(struct rdma_event_channel *ch)
{
	struct sockaddr_storage addr;
	struct rdma_cm_id *bell = NULL;
	struct pl_channel *c;
	int ret, again = 0;

	pl_lock();
	c = pl_channel_find(ch);
	if (!c || !pl_needs_bell(c)) {
		pl_unlock();
		return;
	}
	c->bell_state = PL_BELL_RINGING;
	addr = c->bell_addr;
	pl_unlock();

	ret = pl_real.create_id(ch, &bell, NULL, RDMA_PS_UDP);
	if (!ret) {
		/* known before it can ring: a get may read its event at once */
		pl_lock();
		c = pl_channel_find(ch);
		c->bell = bell;
		c->bell_fired = 0;
		ret = bell_remember(bell);
		pl_unlock();
		if (!ret)
			ret = pl_real.resolve_addr(bell,
						   (struct sockaddr *)&addr,
						   (struct sockaddr *)&addr,
						   2000);
	}

	pl_lock();
	c = pl_channel_find(ch);
	if (c && !ret && !c->bell_fired) {
		/*
		 * Rung. If what it rang for was taken or left meanwhile, the
		 * program's thread that did so unrings it (pl_unring() waits
		 * for this ring to end): never this thread, behind a
		 * program's poll.
		 */
		c->bell_state = PL_BELL_RUNG;
		bell = NULL;
	} else if (c && !ret) {
		/* swallow() took its event already: done, ring again if need be */
		c->bell = NULL;
		c->bell_fired = 0;
		c->bell_state = PL_BELL_IDLE;
		again = pl_needs_bell(c);
	} else if (c) {
		c->bell = NULL;
		c->bell_state = PL_BELL_IDLE;
		if (!c->bell_failed)
			fprintf(stderr,
				"librdmamcm-preload: the doorbell of a channel failed (%s): its multicast events wait for the next librdmacm event\n",
				strerror(errno));
		c->bell_failed = 1;
	}
	pthread_cond_broadcast(&bell_done);
	pl_unlock();
	if (bell) {
		pl_real.destroy_id(bell);
		pl_lock();
		bell_forget(bell);
		pl_unlock();
	}
	if (again)
		pl_ring(ch);
}

/* Wait (pl.lock held) until no ring or unring of @c is under way */
void pl_bell_wait(struct pl_channel *c)
{
	while (c->bell_state == PL_BELL_RINGING ||
	       c->bell_state == PL_BELL_UNRINGING)
		pthread_cond_wait(&bell_done, &pl.lock);
}

/*
 * Nothing waits on @ch any more (taken, left, destroyed) but its bell is
 * rung: take it back, so that a poll does not find the fd readable and a
 * blocking rdma_get_cm_event() that follows it does not block. Destroying
 * the bell id drops its event if nobody read it (ucma discards an id's
 * unread events); a get that did read it meanwhile acks it in swallow(),
 * which the destroy waits for.
 */
void pl_unring(struct rdma_event_channel *ch)
{
	struct rdma_cm_id *bell = NULL;
	struct pl_channel *c;
	int again = 0;

	pl_lock();
	c = pl_channel_find(ch);
	if (c)
		pl_bell_wait(c);
	if (c && c->bell_state == PL_BELL_RUNG && !c->head) {
		c->bell_state = PL_BELL_UNRINGING;
		bell = c->bell;
		pl_unlock();

		pl_real.destroy_id(bell);

		pl_lock();
		bell_forget(bell);
		c = pl_channel_find(ch);
		if (c) {
			c->bell = NULL;
			c->bell_state = PL_BELL_IDLE;
		}
		pthread_cond_broadcast(&bell_done);
	}
	again = c && pl_needs_bell(c);
	pl_unlock();
	if (again)
		pl_ring(ch);
}

/* If @rev is an event of one of our bells: consume it and say so */
static int swallow(struct rdma_event_channel *ch, struct rdma_cm_event *rev)
{
	struct rdma_cm_id *bell = NULL;
	struct pl_channel *c;

	pl_lock();
	if (!bell_find(rev->id)) {
		pl_unlock();
		return 0;
	}
	c = pl_channel_find(ch);
	if (c && c->bell == rev->id) {
		if (c->bell_state == PL_BELL_RUNG) {
			bell = c->bell;
			c->bell = NULL;
			c->bell_state = PL_BELL_IDLE;
		} else if (c->bell_state == PL_BELL_RINGING) {
			/* its resolve returned to nobody yet: pl_ring() ends it */
			c->bell_fired = 1;
		}
		/* UNRINGING: pl_unring() destroys it once this is acked */
	}
	/* else: a bell on its way out (its destroy waits for this ack) */
	pl_unlock();
	pl_real.ack_event(rev);
	if (bell) {
		pl_real.destroy_id(bell);
		pl_lock();
		bell_forget(bell);
		pl_unlock();
		pl_ring(ch);	/* events queued since it rang */
	}
	return 1;
}

static void fill_ud(struct pl_event *e, const struct pl_mc *mc,
		    const struct rdma_mcm_event *ev, int sgid_index)
{
	struct ibv_ah_attr *ah = &e->ev.param.ud.ah_attr;

	memset(ah, 0, sizeof(*ah));
	ah->dlid = ev->mlid;
	ah->sl = ev->sl;
	ah->port_num = ev->port_num;
	ah->is_global = ev->is_global;
	memcpy(ah->grh.dgid.raw, ev->dgid, sizeof(ah->grh.dgid.raw));
	ah->grh.flow_label = ev->flow_label;
	ah->grh.hop_limit = ev->hop_limit;
	ah->grh.traffic_class = ev->traffic_class;
	ah->grh.sgid_index = sgid_index < 0 ? 0 : (uint8_t)sgid_index;
	e->ev.param.ud.qp_num = PL_MCAST_QPN;
	e->ev.param.ud.qkey = ev->qkey;
	(void)mc;
}

/* Queue an event of @mc on its id's channel; the channel, to ring */
static struct rdma_event_channel *queue(struct pl_mc *mc,
					enum rdma_cm_event_type type,
					const struct rdma_mcm_event *ev)
{
	struct rdma_cm_id *id = mc->owner->id;
	struct pl_channel *c = pl_channel_find(id->channel);
	struct pl_event *e;

	if (!c)
		return NULL;	/* migrated to a channel we lost: dropped */
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->ev.id = id;
	e->ev.event = type;
	e->ev.status = type == RDMA_CM_EVENT_MULTICAST_ERROR ? ev->status : 0;
	e->ev.param.ud.private_data = mc->context;
	if (type == RDMA_CM_EVENT_MULTICAST_JOIN)
		fill_ud(e, mc, ev, pl_sgid_index(mc->owner));
	e->mc = mc;
	e->mc_next = mc->queued;
	mc->queued = e;
	e->chan = c;
	e->prev = c->tail;
	if (c->tail)
		c->tail->next = e;
	else
		c->head = e;
	c->tail = e;
	c->queued++;
	return pl_tell(c);
}

/* Queue librdmacm's DEVICE_REMOVAL for the id, once; the channel to ring */
static struct rdma_event_channel *queue_removal(struct pl_id *pid)
{
	struct pl_channel *c = pl_channel_find(pid->id->channel);
	struct pl_event *e;

	if (!c || pid->removal_told)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	pid->removal_told = 1;
	e->ev.id = pid->id;
	e->ev.event = RDMA_CM_EVENT_DEVICE_REMOVAL;
	e->pid = pid;
	e->chan = c;
	e->prev = c->tail;
	if (c->tail)
		c->tail->next = e;
	else
		c->head = e;
	c->tail = e;
	c->queued++;
	return pl_tell(c);
}

/*
 * Is the id's source address still on an interface? Then a context's
 * DEVICE_REMOVED is the device going away; else the address went (and
 * the memberships wait for it to come back).
 */
static int address_present(const struct sockaddr *sa)
{
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return 1;
	if (getifaddrs(&ifa))
		return 1;
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != sa->sa_family)
			continue;
		if (sa->sa_family == AF_INET)
			found = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
				((const struct sockaddr_in *)sa)->sin_addr.s_addr;
		else
			found = !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
					&((const struct sockaddr_in6 *)sa)->sin6_addr,
					sizeof(struct in6_addr));
	}
	freeifaddrs(ifa);
	return found;
}

static void detach(struct pl_mc *mc)
{
	struct rdma_cm_id *id = mc->owner->id;

	if (mc->attached && id->qp)
		ibv_detach_mcast(id->qp, &mc->mgid, mc->mlid);
	mc->attached = 0;
}

/* One rdma_mcm event (pl.lock held); the channel to ring, if any */
static struct rdma_event_channel *on_event(const struct rdma_mcm_event *ev)
{
	struct pl_mc *mc = pl_mc_by_cookie(ev->cookie);
	struct rdma_cm_id *id;
	struct pl_event *e;
	struct pl_id *pid;

	switch (ev->event) {
	case RDMA_MCM_EVENT_DEVICE_REMOVED:
		/*
		 * The context lost its device, or its source address (the
		 * id's device may live on): detach, and attach again at
		 * REJOINED if the QP is still there. A device really going
		 * away tells the id itself (librdmacm's DEVICE_REMOVAL) and
		 * waits for the program to let go; rdma_destroy_qp() takes
		 * pl.lock, so the QP is never touched while it is destroyed.
		 */
		pid = pl_id_by_ctx(ev->ctx_id);
		for (mc = pid ? pid->mcs : NULL; mc; mc = mc->next) {
			if (mc->attached) {
				detach(mc);
				mc->healing = 1;
			}
		}
		if (!pid)
			return NULL;
		pid->sgid_index = -1;
		/*
		 * The device itself goes: tell the program now, as librdmacm's
		 * DEVICE_REMOVAL, which on a device without disassociation
		 * (rxe) only comes once every verbs user let go of it
		 */
		if (address_present(rdma_get_local_addr(pid->id))) {
			pl_debug("ctx %u: device removed: DEVICE_REMOVAL", ev->ctx_id);
			return queue_removal(pid);
		}
		pl_debug("ctx %u: source address gone: waiting", ev->ctx_id);
		return NULL;
	case RDMA_MCM_EVENT_DEVICE_ADDED:
		return NULL;
	}
	if (!mc || ev->ctx_id != mc->owner->ctx_id)
		return NULL;	/* left meanwhile */
	id = mc->owner->id;
	switch (ev->event) {
	case RDMA_MCM_EVENT_JOINED:
		memcpy(mc->mgid.raw, ev->mgid, sizeof(mc->mgid.raw));
		mc->mlid = ev->mlid;
		return queue(mc, RDMA_CM_EVENT_MULTICAST_JOIN, ev);
	case RDMA_MCM_EVENT_ERROR:
		pl_debug("ctx %u handle %u: error %d", ev->ctx_id, ev->handle,
			 ev->status);
		return queue(mc, RDMA_CM_EVENT_MULTICAST_ERROR, ev);
	case RDMA_MCM_EVENT_REJOINING:
		pl_debug("ctx %u handle %u: rejoining (%d)", ev->ctx_id,
			 ev->handle, ev->status);
		if (mc->attached) {
			detach(mc);
			mc->healing = 1;
		}
		return NULL;
	case RDMA_MCM_EVENT_REJOINED:
		memcpy(mc->mgid.raw, ev->mgid, sizeof(mc->mgid.raw));
		mc->mlid = ev->mlid;
		mc->owner->sgid_index = -1;
		/* a JOIN not fetched yet tells the group as it is now */
		for (e = mc->queued; e; e = e->mc_next)
			if (e->ev.event == RDMA_CM_EVENT_MULTICAST_JOIN)
				fill_ud(e, mc, ev, pl_sgid_index(mc->owner));
		if (mc->healing && id->qp)
			mc->attached = !ibv_attach_mcast(id->qp, &mc->mgid,
							 mc->mlid);
		mc->healing = 0;
		pl_debug("ctx %u handle %u: rejoined%s", ev->ctx_id,
			 ev->handle, mc->attached ? ", QP attached again" : "");
		return NULL;
	}
	return NULL;
}

static void drain_mcm(void)
{
	struct rdma_mcm_event ev;

	for (;;) {
		struct rdma_event_channel *bell;

		pl_lock();
		if (rdma_mcm_get_event(pl.mcm, &ev)) {
			pl_unlock();
			return;
		}
		bell = on_event(&ev);
		pl_unlock();
		if (bell)
			pl_ring(bell);
	}
}

static void *reader_main(void *arg)
{
	struct pollfd p[2] = {
		{ .fd = rdma_mcm_get_fd(pl.mcm), .events = POLLIN },
		{ .fd = pl.wake_fd, .events = POLLIN },
	};

	(void)arg;
	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (p[1].revents)
			return NULL;
		drain_mcm();
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			pl_debug("/dev/rdma_mcm broke (revents %#x): reader stops",
				 p[0].revents);
			return NULL;
		}
	}
}

/* A child of fork(): the parent's memberships are the parent's */
static void forked_child(void)
{
	pthread_mutex_init(&pl.lock, NULL);
	if (pl.mcm)
		close(rdma_mcm_get_fd(pl.mcm));	/* its file stays the parent's */
	if (pl.wake_fd >= 0)
		close(pl.wake_fd);
	/*
	 * The records are the parent's: forgotten, not freed. The events
	 * the parent fetched stay known, so that an ack of one in the child
	 * frees it instead of handing it to librdmacm.
	 */
	memset(&pl.ids, 0, offsetof(struct pl_state, outstanding) -
	       offsetof(struct pl_state, ids));
	pl.mcm = NULL;
	pl.wake_fd = -1;
	pl.ready = 0;
	pl.failed = 0;
}

/* Open /dev/rdma_mcm and start the reader, once (pl.lock held) */
int pl_start_reader(void)
{
	static int atfork_done;
	sigset_t all, old;
	uint64_t got;

	if (pl.ready)
		return 0;
	if (pl.failed)
		return -1;
	pl.mcm = rdma_mcm_open_channel(O_NONBLOCK | O_CLOEXEC);
	if (!pl.mcm) {
		pl_debug("no /dev/rdma_mcm (%s): librdmacm serves every join",
			 strerror(errno));
		pl.failed = 1;
		return -1;
	}
	if (rdma_mcm_set_event_mask(pl.mcm, PL_EVENT_MASK, &got) ||
	    (got & PL_EVENT_MASK) != PL_EVENT_MASK)
		pl_debug("the module delivers event mask %#llx only",
			 (unsigned long long)got);
	pl.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pl.wake_fd < 0)
		goto fail;
	/* the reader takes no signal: the program's handlers run in its threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&pl.reader, NULL, reader_main, NULL)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		goto fail;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_detach(pl.reader);
	if (!atfork_done) {
		pthread_atfork(NULL, NULL, forked_child);
		atfork_done = 1;
	}
	pl.ready = 1;
	pl.pid = getpid();
	pl.seed = (uint64_t)pl.pid * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&pl;
	pl_debug("/dev/rdma_mcm open, ABI %d", rdma_mcm_abi_version(pl.mcm));
	return 0;
fail:
	pl_debug("cannot start the event reader: %s", strerror(errno));
	if (pl.wake_fd >= 0)
		close(pl.wake_fd);
	pl.wake_fd = -1;
	rdma_mcm_close_channel(pl.mcm);
	pl.mcm = NULL;
	pl.failed = 1;
	return -1;
}

/* The program fetches a JOIN: attach its QP now, as librdmacm does */
static void deliver_join(struct pl_event *e, struct pl_mc *mc)
{
	struct rdma_cm_id *id = mc->owner->id;

	mc->delivered = 1;
	if (!id->qp || mc->sendonly || mc->attached)
		return;
	if (ibv_attach_mcast(id->qp, &mc->mgid, mc->mlid)) {
		/* librdmacm's way: MULTICAST_ERROR, status -1, errno set */
		e->ev.event = RDMA_CM_EVENT_MULTICAST_ERROR;
		e->ev.status = -1;
		return;
	}
	mc->attached = 1;
}

/* Is librdmacm's fd of @ch in blocking mode (the program may change it)? */
static int blocking(const struct rdma_event_channel *ch)
{
	int fl = fcntl(ch->fd, F_GETFL);

	return fl >= 0 && !(fl & O_NONBLOCK);
}

/*
 * A blocking get with nothing queued (pl.lock held, @c ours): register as
 * a waiter and return the eventfd to poll beside channel->fd, or -1
 */
static int wait_on(struct pl_channel *c)
{
	if (c->wake_fd < 0)
		c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake_fd < 0)
		return -1;
	c->waiters++;
	return c->wake_fd;
}

__attribute__((visibility("default")))
int rdma_get_cm_event(struct rdma_event_channel *channel,
		      struct rdma_cm_event **event)
{
	struct rdma_cm_event *rev;
	struct pl_channel *c;
	int ret;

	pl_real_init();
	if (!channel || !event)
		return pl_real.get_event(channel, event);
	for (;;) {
		struct pl_event *e = NULL;
		int wfd = -1;

		if (pl.ready) {
			int block = blocking(channel);

			pl_lock();
			c = pl_channel_find(channel);
			e = c ? c->head : NULL;
			if (e) {
				struct pl_mc *mc = e->mc;

				pl_event_unqueue(e);
				if (e->ev.event == RDMA_CM_EVENT_MULTICAST_JOIN)
					deliver_join(e, mc);
				if (pl_table_add(&pl.outstanding, &e->by_ptr,
						 ptr_key(e))) {
					pl_unlock();
					free(e);
					errno = ENOMEM;
					return -1;
				}
				/* more, and other threads waiting: wake them */
				if (c->head)
					pl_tell(c);
			} else if (c && block) {
				wfd = wait_on(c);
			}
			pl_unlock();
		}
		if (e) {
			/* the last one taken: the bell goes; more: it rings */
			pl_unring(channel);
			*event = &e->ev;
			return 0;
		}
		if (wfd >= 0) {
			/*
			 * Blocking, with nothing of ours queued: wait for
			 * librdmacm's fd or for the reader to queue ours,
			 * which then needs no bell
			 */
			struct pollfd p[2] = {
				{ .fd = channel->fd, .events = POLLIN },
				{ .fd = wfd, .events = POLLIN },
			};
			uint64_t n;
			int r = poll(p, 2, -1), err = errno;

			pl_lock();
			c = pl_channel_find(channel);
			if (c) {
				c->waiters--;
				if (p[1].revents &&
				    read(c->wake_fd, &n, sizeof(n)) < 0)
					n = 0;
			}
			ret = c && pl_needs_bell(c);
			pl_unlock();
			if (ret)
				pl_ring(channel);	/* for a poller, if any */
			if (r < 0) {
				errno = err;	/* EINTR, as librdmacm's read */
				return -1;
			}
			if (!(p[0].revents & POLLIN))
				continue;
		}
		/*
		 * librdmacm's, swallowing our bells: also for a thread that
		 * blocked here before the first join made the channel ours
		 */
		ret = pl_real.get_event(channel, &rev);
		if (ret)
			return ret;
		if (!pl.ready || !swallow(channel, rev)) {
			*event = rev;
			return 0;
		}
	}
}

__attribute__((visibility("default")))
int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	struct pl_node *n;

	pl_real_init();
	if (event && pl.outstanding.count) {
		pl_lock();
		n = pl_table_find(&pl.outstanding, ptr_key(event), NULL);
		for (; n; n = pl_table_find(&pl.outstanding, ptr_key(event), n)) {
			struct pl_event *e = (void *)((char *)n -
					     offsetof(struct pl_event, by_ptr));

			if (&e->ev == event) {
				pl_table_del(&pl.outstanding, n);
				pl_unlock();
				free(e);
				return 0;
			}
		}
		pl_unlock();
	}
	return pl_real.ack_event(event);
}
