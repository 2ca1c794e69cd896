// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcm_cmprobe: a plain librdmacm multicast program (it knows nothing of
 * rdma_mcm) for the preload tests: run it as it is, and under
 * librdmamcm-preload.so, and compare.
 *
 *   mcm_cmprobe trap   -b SRC -m GROUP
 *       join, fetch the MULTICAST_JOIN and keep it unacked, then leave:
 *       prints "leave returned RC in MS ms" (librdmacm alone never returns)
 *   mcm_cmprobe cancel -b SRC -m GROUP [-s SEC]
 *       join and leave at once, before the event; then for SEC seconds
 *       (default 3) count the events that still come: "events after leave: N"
 *   mcm_cmprobe epoll  -b SRC -m GROUP [-n N] [-t SEC]
 *       a non-blocking channel watched with epoll: join N groups (GROUP,
 *       GROUP+1, ... for IPv4) and count each one's MULTICAST_JOIN:
 *       "joined K/N, wakeups W, empty reads E"
 *   mcm_cmprobe thread -b SRC -m GROUP
 *       a thread blocks in rdma_get_cm_event() before the first join; the
 *       main thread joins: the thread's first event must be the
 *       MULTICAST_JOIN (never an event of an id it does not know)
 *   mcm_cmprobe migrate -b SRC -m GROUP
 *       join, then rdma_migrate_id() to a new channel before fetching:
 *       the MULTICAST_JOIN comes on the new channel
 *   mcm_cmprobe wait   -b SRC -m GROUP [-t SEC]
 *       join, then print every later event for SEC seconds (default 10):
 *       "event NAME status S", then "quiet" if none came; stays joined;
 *       a DEVICE_REMOVAL ends the wait (the id is destroyed at once)
 *
 * Exit status: 0 when the mode's expectation holds (trap: the leave
 * returned 0; cancel: no event came; epoll: all N joined), 1 if not,
 * 2 for a usage or set-up error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>

static struct rdma_event_channel *ch;
static struct rdma_cm_id *id;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
	fprintf(stderr, "mcm_cmprobe: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int parse(const char *text, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, text, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		return 0;
	}
	return -1;
}

/* Next event within @ms (-1: blocking); NULL on timeout */
static struct rdma_cm_event *next_event(int ms)
{
	struct rdma_cm_event *ev;
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };

	if (ms >= 0 && poll(&p, 1, ms) <= 0)
		return NULL;
	if (rdma_get_cm_event(ch, &ev))
		return NULL;
	return ev;
}

static struct rdma_cm_event *expect(enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev = next_event(30000);

	if (!ev) {
		fprintf(stderr, "mcm_cmprobe: no %s within 30 s\n",
			rdma_event_str(type));
		exit(2);
	}
	if (ev->event != type) {
		fprintf(stderr, "mcm_cmprobe: %s (status %d), not %s\n",
			rdma_event_str(ev->event), ev->status,
			rdma_event_str(type));
		exit(1);
	}
	return ev;
}

/* An id bound to @src, its address resolved to @group, with a UD QP */
static void setup(const struct sockaddr_storage *src,
		  const struct sockaddr_storage *group)
{
	struct ibv_qp_init_attr qa = { 0 };
	struct ibv_pd *pd;
	struct ibv_cq *cq;

	ch = rdma_create_event_channel();
	if (!ch)
		die("rdma_create_event_channel");
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_UDP))
		die("rdma_create_id");
	if (rdma_bind_addr(id, (struct sockaddr *)src))
		die("rdma_bind_addr");
	if (rdma_resolve_addr(id, (struct sockaddr *)src,
			      (struct sockaddr *)group, 2000))
		die("rdma_resolve_addr");
	rdma_ack_cm_event(expect(RDMA_CM_EVENT_ADDR_RESOLVED));
	pd = ibv_alloc_pd(id->verbs);
	cq = pd ? ibv_create_cq(id->verbs, 16, NULL, NULL, 0) : NULL;
	if (!cq)
		die("ibv_alloc_pd/ibv_create_cq");
	qa.send_cq = cq;
	qa.recv_cq = cq;
	qa.qp_type = IBV_QPT_UD;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, pd, &qa))
		die("rdma_create_qp");
}

static void nth_group(const struct sockaddr_storage *g, int i,
		      struct sockaddr_storage *out)
{
	*out = *g;
	if (g->ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)out;

		sin->sin_addr.s_addr = htonl(ntohl(sin->sin_addr.s_addr) + i);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;

		sin6->sin6_addr.s6_addr[15] += i;
	}
}

static int mode_trap(struct sockaddr_storage *g)
{
	struct rdma_cm_event *ev;
	double t0;
	int ret;

	if (rdma_join_multicast(id, (struct sockaddr *)g, NULL))
		die("rdma_join_multicast");
	ev = expect(RDMA_CM_EVENT_MULTICAST_JOIN);
	printf("joined, event not acked; leaving\n");
	fflush(stdout);
	t0 = now_ms();
	ret = rdma_leave_multicast(id, (struct sockaddr *)g);
	printf("leave returned %d in %.0f ms\n", ret, now_ms() - t0);
	fflush(stdout);
	rdma_ack_cm_event(ev);
	return ret ? 1 : 0;
}

static int mode_cancel(struct sockaddr_storage *g, int secs)
{
	struct rdma_cm_event *ev;
	double end;
	int n = 0;

	if (rdma_join_multicast(id, (struct sockaddr *)g, NULL))
		die("rdma_join_multicast");
	if (rdma_leave_multicast(id, (struct sockaddr *)g))
		die("rdma_leave_multicast");
	printf("left before the event\n");
	fflush(stdout);
	end = now_ms() + secs * 1000.0;
	while (now_ms() < end) {
		ev = next_event((int)(end - now_ms()) + 1);
		if (!ev)
			continue;
		printf("event %s status %d\n", rdma_event_str(ev->event),
		       ev->status);
		rdma_ack_cm_event(ev);
		n++;
	}
	printf("events after leave: %d\n", n);
	return n ? 1 : 0;
}

static int mode_epoll(struct sockaddr_storage *g, int n, int secs)
{
	struct epoll_event e = { .events = EPOLLIN };
	int ep = epoll_create1(0), i, got = 0, wakeups = 0, empty = 0;
	struct sockaddr_storage gi;
	char *seen = calloc((size_t)n, 1);
	double end;

	if (ep < 0 || !seen)
		die("epoll_create1");
	if (fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK))
		die("O_NONBLOCK");
	if (epoll_ctl(ep, EPOLL_CTL_ADD, ch->fd, &e))
		die("epoll_ctl");
	for (i = 0; i < n; i++) {
		nth_group(g, i, &gi);
		if (rdma_join_multicast(id, (struct sockaddr *)&gi,
					(void *)(uintptr_t)(i + 1)))
			die("rdma_join_multicast");
	}
	end = now_ms() + secs * 1000.0;
	while (got < n && now_ms() < end) {
		struct rdma_cm_event *ev;
		int reads = 0;

		if (epoll_wait(ep, &e, 1, (int)(end - now_ms()) + 1) != 1)
			continue;
		wakeups++;
		while (!rdma_get_cm_event(ch, &ev)) {
			uintptr_t k = (uintptr_t)ev->param.ud.private_data;

			reads++;
			if (ev->event == RDMA_CM_EVENT_MULTICAST_JOIN &&
			    k >= 1 && k <= (uintptr_t)n && !seen[k - 1]) {
				seen[k - 1] = 1;
				got++;
			} else {
				printf("unexpected %s status %d context %lu\n",
				       rdma_event_str(ev->event), ev->status,
				       (unsigned long)k);
			}
			rdma_ack_cm_event(ev);
		}
		if (errno != EAGAIN)
			die("rdma_get_cm_event");
		if (!reads)
			empty++;
	}
	printf("joined %d/%d, wakeups %d, empty reads %d\n", got, n, wakeups,
	       empty);
	for (i = 0; i < n; i++) {
		nth_group(g, i, &gi);
		rdma_leave_multicast(id, (struct sockaddr *)&gi);
	}
	return got == n ? 0 : 1;
}

static struct rdma_cm_event *thread_ev;

static void *blocked_getter(void *arg)
{
	(void)arg;
	if (rdma_get_cm_event(ch, &thread_ev))
		thread_ev = NULL;
	return NULL;
}

static int mode_thread(struct sockaddr_storage *g)
{
	pthread_t t;
	int ok;

	if (pthread_create(&t, NULL, blocked_getter, NULL))
		die("pthread_create");
	usleep(300000);		/* let it block in the call first */
	if (rdma_join_multicast(id, (struct sockaddr *)g, (void *)0x5a))
		die("rdma_join_multicast");
	pthread_join(t, NULL);
	if (!thread_ev) {
		printf("the blocked thread got no event\n");
		return 1;
	}
	ok = thread_ev->event == RDMA_CM_EVENT_MULTICAST_JOIN &&
	     thread_ev->id == id &&
	     thread_ev->param.ud.private_data == (void *)0x5a;
	printf("the blocked thread got %s for %s id, context %p\n",
	       rdma_event_str(thread_ev->event),
	       thread_ev->id == id ? "our" : "an unknown",
	       thread_ev->param.ud.private_data);
	rdma_ack_cm_event(thread_ev);
	rdma_leave_multicast(id, (struct sockaddr *)g);
	return ok ? 0 : 1;
}

static int mode_migrate(struct sockaddr_storage *g)
{
	struct rdma_event_channel *old = ch, *nch = rdma_create_event_channel();
	struct rdma_cm_event *ev;
	int ok;

	if (!nch)
		die("rdma_create_event_channel");
	if (rdma_join_multicast(id, (struct sockaddr *)g, (void *)0x6b))
		die("rdma_join_multicast");
	if (rdma_migrate_id(id, nch))
		die("rdma_migrate_id");
	ch = nch;
	ev = next_event(30000);
	ok = ev && ev->event == RDMA_CM_EVENT_MULTICAST_JOIN && ev->id == id &&
	     ev->param.ud.private_data == (void *)0x6b;
	printf("after migrate: %s on the new channel\n",
	       ev ? rdma_event_str(ev->event) : "nothing");
	if (ev)
		rdma_ack_cm_event(ev);
	ch = old;
	ev = next_event(1000);
	printf("the old channel: %s\n", ev ? rdma_event_str(ev->event) : "quiet");
	if (ev) {
		rdma_ack_cm_event(ev);
		ok = 0;
	}
	ch = nch;
	rdma_leave_multicast(id, (struct sockaddr *)g);
	return ok ? 0 : 1;
}

static int mode_wait(struct sockaddr_storage *g, int secs)
{
	struct rdma_cm_event *ev;
	double end;
	int n = 0;

	if (rdma_join_multicast(id, (struct sockaddr *)g, NULL))
		die("rdma_join_multicast");
	rdma_ack_cm_event(expect(RDMA_CM_EVENT_MULTICAST_JOIN));
	printf("joined\n");
	fflush(stdout);
	end = now_ms() + secs * 1000.0;
	while (now_ms() < end) {
		ev = next_event((int)(end - now_ms()) + 1);
		if (!ev)
			continue;
		printf("event %s status %d\n", rdma_event_str(ev->event),
		       ev->status);
		fflush(stdout);
		n++;
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
			/* as a program should: let go of the device at once */
			rdma_ack_cm_event(ev);
			break;
		}
		rdma_ack_cm_event(ev);
	}
	if (!n)
		printf("quiet\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage src, group;
	int opt, n = 1, secs = -1, have_src = 0, have_group = 0, ret;
	const char *mode = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	optind = 2;
	while ((opt = getopt(argc, argv, "b:m:n:s:t:")) != -1) {
		switch (opt) {
		case 'b':
			have_src = !parse(optarg, &src);
			break;
		case 'm':
			have_group = !parse(optarg, &group);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
		case 't':
			secs = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!have_src || !have_group || n < 1 || n > 250) {
		fprintf(stderr, "usage: mcm_cmprobe MODE -b SRC -m GROUP [-n N] [-s|-t SEC]\n"
			"  MODE: trap, cancel, epoll, thread, migrate, wait\n");
		return 2;
	}
	setup(&src, &group);
	if (!strcmp(mode, "trap"))
		ret = mode_trap(&group);
	else if (!strcmp(mode, "cancel"))
		ret = mode_cancel(&group, secs < 0 ? 3 : secs);
	else if (!strcmp(mode, "epoll"))
		ret = mode_epoll(&group, n, secs < 0 ? 60 : secs);
	else if (!strcmp(mode, "thread"))
		ret = mode_thread(&group);
	else if (!strcmp(mode, "migrate"))
		ret = mode_migrate(&group);
	else if (!strcmp(mode, "wait"))
		ret = mode_wait(&group, secs < 0 ? 10 : secs);
	else
		return 2;
	rdma_destroy_qp(id);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return ret;
}
