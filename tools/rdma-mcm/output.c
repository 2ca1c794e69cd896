// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: output of the join session, send and recv, one line per
 * record: "key value" text, or with -j a JSON object (json.c); and the
 * names of errnos, statuses, addresses and join types every command
 * prints.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rdma_mcm_cli.h"

#ifndef AF_IB
#define AF_IB	27
#endif

#define ERRNO_NAME(e)	{ e, #e }

/*
 * Errno names where the C library has no strerrorname_np() (glibc before
 * 2.32, musl): the membership statuses of uapi.rst ("Membership status")
 * first, then the other errnos of the ABI and of the library.
 */
static const struct {
	int err;
	const char *name;
} errno_names[] = {
	ERRNO_NAME(ENETRESET), ERRNO_NAME(ETIMEDOUT), ERRNO_NAME(ECONNREFUSED),
	ERRNO_NAME(ENODEV), ERRNO_NAME(ENOMEM), ERRNO_NAME(EIO),
	ERRNO_NAME(ENOTTY), ERRNO_NAME(EINVAL), ERRNO_NAME(E2BIG),
	ERRNO_NAME(EFAULT), ERRNO_NAME(EAFNOSUPPORT),
	ERRNO_NAME(EADDRNOTAVAIL), ERRNO_NAME(EOPNOTSUPP),
	ERRNO_NAME(ENETDOWN), ERRNO_NAME(EADDRINUSE), ERRNO_NAME(ENOENT),
	ERRNO_NAME(ENOBUFS), ERRNO_NAME(EMFILE), ERRNO_NAME(ENOSPC),
	ERRNO_NAME(EAGAIN), ERRNO_NAME(EINTR), ERRNO_NAME(ESHUTDOWN),
	ERRNO_NAME(ENETUNREACH), ERRNO_NAME(EHOSTUNREACH),
	ERRNO_NAME(ECANCELED), ERRNO_NAME(EPROTO), ERRNO_NAME(EPERM),
	ERRNO_NAME(EBUSY), ERRNO_NAME(EACCES), ERRNO_NAME(EEXIST),
	ERRNO_NAME(EMSGSIZE), ERRNO_NAME(EPROTONOSUPPORT),
	ERRNO_NAME(EBADMSG),
};

#if defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#define HAVE_STRERRORNAME_NP	1
#endif

/*
 * The name of errno @err ("ETIMEDOUT"), as the C library knows it
 * (strerrorname_np(), glibc 2.32+), else from the table above; NULL if
 * neither knows it
 */
const char *errno_name(int err)
{
	size_t i;

#ifdef HAVE_STRERRORNAME_NP
	const char *name = err > 0 ? strerrorname_np(err) : NULL;

	if (name)
		return name;
#endif
	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return NULL;
}

/*
 * A status as text: "-110 ETIMEDOUT (Connection timed out)"; without the
 * name if it is not known, the number alone if it is not negative.
 */
void status_text(int32_t status, char *buf, size_t len)
{
	const char *name = status < 0 ? errno_name(-status) : NULL;

	if (status >= 0)
		snprintf(buf, len, "%d", status);
	else if (name)
		snprintf(buf, len, "%d %s (%s)", status, name,
			 strerror(-status));
	else
		snprintf(buf, len, "%d (%s)", status, strerror(-status));
}

/*
 * A status as JSON: "status":-110,"errno":"ETIMEDOUT" (null when not
 * known), and with @textk its text, "error":"Connection timed out"; the
 * number alone when it is not negative
 */
void rec_status(struct rec *r, const char *k, const char *errk,
		const char *textk, int32_t status)
{
	rec_int(r, k, status);
	if (status >= 0)
		return;
	rec_str_or_null(r, errk, errno_name(-status));
	if (textk)
		rec_str(r, textk, strerror(-status));
}

/*
 * @s on @f, each byte that is not printable ASCII (a space is, with
 * @space), and each backslash, written \ooo (octal)
 */
void print_escaped(FILE *f, const char *s, int space)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if ((*p > ' ' || (space && *p == ' ')) && *p < 0x7f &&
		    *p != '\\')
			fputc(*p, f);
		else
			fprintf(f, "\\%03o", *p);
	}
}

/*
 * A name any process (comm) or driver (dev, netdev) chose, as text: so
 * that it can neither drive the reader's terminal nor split a key-value
 * pair, its spaces escaped too
 */
void print_name(const char *name)
{
	print_escaped(stdout, name, 0);
}

/* A join type; a later kernel's as "unknown", never as one it is not */
const char *join_type_name(uint32_t type)
{
	switch (type) {
	case RDMA_MCM_JOIN_FULLMEMBER:
		return "full";
	case RDMA_MCM_JOIN_SENDONLY_FULLMEMBER:
		return "send-only";
	default:
		return "unknown";
	}
}

void gid_name(const uint8_t *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

void addr_name(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	char ifname[IF_NAMESIZE];
	size_t n;

	switch (sa->sa_family) {
	case AF_INET:
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
			  buf, (socklen_t)len);
		return;
	case AF_INET6:
		inet_ntop(AF_INET6, &sin6->sin6_addr, buf, (socklen_t)len);
		if (!sin6->sin6_scope_id)
			return;
		n = strlen(buf);
		if (if_indextoname(sin6->sin6_scope_id, ifname))
			snprintf(buf + n, len - n, "%%%s", ifname);
		else
			snprintf(buf + n, len - n, "%%%u", sin6->sin6_scope_id);
		return;
	case AF_IB:
		gid_name((const uint8_t *)sa + 8, buf, len);
		return;
	default:
		snprintf(buf, len, "family-%u", sa->sa_family);
	}
}

/* The events with the group's attributes: JOINED and REJOINED */
static int with_group(uint32_t event)
{
	return event == RDMA_MCM_EVENT_JOINED ||
	       event == RDMA_MCM_EVENT_REJOINED;
}

/* A context's event: device-removed ctx C status ..., device-added ctx C port P */
static void out_ctx_event(struct cli *cli, const struct rdma_mcm_event *ev)
{
	const char *what = rdma_mcm_event_str(ev->event);
	char status[128];
	struct rec r;

	if (cli->json) {
		rec_begin(&r);
		rec_str(&r, "event", what);
		rec_u64(&r, "ctx", ev->ctx_id);
		if (ev->event == RDMA_MCM_EVENT_DEVICE_ADDED)
			rec_u64(&r, "port", ev->port_num);
		else
			rec_status(&r, "status", "errno", "error", ev->status);
		rec_end(&r);
		return;
	}
	if (ev->event == RDMA_MCM_EVENT_DEVICE_ADDED) {
		printf("%s ctx %u port %u\n", what, ev->ctx_id, ev->port_num);
		return;
	}
	status_text(ev->status, status, sizeof(status));
	printf("%s ctx %u status %s\n", what, ev->ctx_id, status);
}

void out_event(struct cli *cli, const struct rdma_mcm_event *ev,
	       const char *group)
{
	const char *what = rdma_mcm_event_str(ev->event);
	char mgid[INET6_ADDRSTRLEN], status[128];
	struct rec r;

	if (ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED ||
	    ev->event == RDMA_MCM_EVENT_DEVICE_ADDED) {
		out_ctx_event(cli, ev);
		return;
	}
	gid_name(ev->mgid, mgid, sizeof(mgid));
	if (cli->json) {
		rec_begin(&r);
		rec_str(&r, "event", what);
		rec_str(&r, "group", group);
		rec_u64(&r, "ctx", ev->ctx_id);
		rec_u64(&r, "handle", ev->handle);
		rec_u64(&r, "cookie", ev->cookie);
		if (with_group(ev->event)) {
			rec_str(&r, "mgid", mgid);
			rec_u64(&r, "mlid", ev->mlid);
			rec_u64(&r, "qkey", ev->qkey);
			rec_u64(&r, "sl", ev->sl);
			rec_u64(&r, "port", ev->port_num);
		} else {
			rec_status(&r, "status", "errno", "error", ev->status);
		}
		rec_end(&r);
		return;
	}
	if (with_group(ev->event)) {
		printf("%s %s handle %u mgid %s mlid 0x%x qkey 0x%x sl %u port %u\n",
		       what, group, ev->handle, mgid, ev->mlid, ev->qkey,
		       ev->sl, ev->port_num);
		return;
	}
	status_text(ev->status, status, sizeof(status));
	printf("%s %s handle %u status %s\n", what, group, ev->handle, status);
}

void out_left(struct cli *cli, const char *group, uint32_t handle,
	      uint32_t events)
{
	struct rec r;

	if (cli->json) {
		rec_begin(&r);
		rec_str(&r, "event", "left");
		rec_str(&r, "group", group);
		rec_u64(&r, "handle", handle);
		rec_u64(&r, "events", events);
		rec_end(&r);
		return;
	}
	printf("left %s handle %u events %u\n", group, handle, events);
}

/*
 * Seconds since @state_time_ns (CLOCK_BOOTTIME, as the kernel stamps a
 * change of state); -1 when the module does not say (before healing).
 */
static double state_age(uint64_t state_time_ns)
{
	struct timespec ts;
	uint64_t now;

	if (!state_time_ns || clock_gettime(CLOCK_BOOTTIME, &ts))
		return -1;
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return now > state_time_ns ? (double)(now - state_time_ns) / 1e9 : 0;
}

/*
 * Who joined the group on the device: rdma_mcm itself (an IPv6 group on
 * RoCE v2), else rdma_cm, as every module older than the flag did
 */
static const char *joined_by(const struct rdma_mcm_member *mb)
{
	return mb->flags & RDMA_MCM_MEMBER_JOINED_BY_MCM ? "rdma_mcm" :
							   "rdma_cm";
}

/*
 * A list entry in JSON: show's keys where both have the field ("type",
 * "state_age_ms"); "flags" and "age" too, its keys before they agreed,
 * which the schema keeps (its keys only grow)
 */
static void list_json(struct cli *cli, const struct rdma_mcm_member *mb,
		      const char *group, const char *mgid, double age)
{
	const char *type = join_type_name((uint32_t)mb->join_flags);
	struct rec r;

	rec_begin(&r);
	rec_str(&r, "group", group);
	rec_u64(&r, "ctx", cli->ctx_id);
	rec_u64(&r, "handle", mb->handle);
	rec_str(&r, "state", rdma_mcm_state_str(mb->state));
	rec_str(&r, "type", type);
	rec_str(&r, "flags", type);
	rec_status(&r, "status", "errno", "error", mb->status);
	rec_str(&r, "mgid", mgid);
	rec_u64(&r, "mlid", mb->mlid);
	rec_u64(&r, "qkey", mb->qkey);
	rec_u64(&r, "events", mb->events_reported);
	rec_u64(&r, "rejoins", mb->rejoins);
	rec_status(&r, "last_status", "last_errno", "last_error",
		   mb->last_status);
	if (age >= 0) {
		rec_u64(&r, "state_age_ms", (uint64_t)(age * 1000));
		rec_ms(&r, "age", age);
	} else {
		rec_null(&r, "age");
	}
	rec_u64(&r, "nr_sources", mb->nr_sources);
	rec_str_or_null(&r, "joined_by", mb->state == RDMA_MCM_STATE_JOINED ?
			joined_by(mb) : NULL);
	rec_end(&r);
}

void out_member(struct cli *cli, const struct rdma_mcm_member *mb)
{
	struct sockaddr_storage ss;
	char group[80], mgid[INET6_ADDRSTRLEN], status[128];
	double age = state_age(mb->state_time_ns);

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, mb->addr, sizeof(mb->addr) < sizeof(ss) ?
	       sizeof(mb->addr) : sizeof(ss));
	addr_name((struct sockaddr *)&ss, group, sizeof(group));
	gid_name(mb->mgid, mgid, sizeof(mgid));
	if (cli->json) {
		list_json(cli, mb, group, mgid, age);
		return;
	}
	printf("ctx %u handle %u group %s state %s type %s", cli->ctx_id,
	       mb->handle, group, rdma_mcm_state_str(mb->state),
	       join_type_name((uint32_t)mb->join_flags));
	if (mb->state == RDMA_MCM_STATE_JOINED)
		printf(" mgid %s mlid 0x%x qkey 0x%x", mgid, mb->mlid,
		       mb->qkey);
	/* why it failed, or why it waits */
	if (mb->state == RDMA_MCM_STATE_ERROR ||
	    mb->state == RDMA_MCM_STATE_WAITING) {
		status_text(mb->status, status, sizeof(status));
		printf(" status %s", status);
	}
	printf(" events %u rejoins %u", mb->events_reported, mb->rejoins);
	if (mb->last_status) {
		status_text(mb->last_status, status, sizeof(status));
		printf(" last_status %s", status);
	}
	if (age >= 0)
		printf(" state-age %.3fs", age);
	if (mb->nr_sources)
		printf(" sources %u", mb->nr_sources);
	if (mb->state == RDMA_MCM_STATE_JOINED)
		printf(" joined-by %s", joined_by(mb));
	putchar('\n');
}

void out_stats(struct cli *cli, const unsigned int counts[4],
	       unsigned int total)
{
	int abi = rdma_mcm_abi_version(cli->ch);
	struct rec r;

	if (cli->json) {
		rec_begin(&r);
		rec_int(&r, "abi", abi);
		rec_u64(&r, "contexts", (uint64_t)cli->have_ctx);
		rec_u64(&r, "memberships", total);
		rec_u64(&r, "joining", counts[RDMA_MCM_STATE_JOINING]);
		rec_u64(&r, "joined", counts[RDMA_MCM_STATE_JOINED]);
		rec_u64(&r, "error", counts[RDMA_MCM_STATE_ERROR]);
		rec_u64(&r, "waiting", counts[RDMA_MCM_STATE_WAITING]);
		rec_u64(&r, "events", cli->events);
		rec_end(&r);
		return;
	}
	printf("abi %d contexts %d memberships %u joining %u joined %u",
	       abi, cli->have_ctx, total, counts[RDMA_MCM_STATE_JOINING],
	       counts[RDMA_MCM_STATE_JOINED]);
	printf(" error %u waiting %u events %lu\n",
	       counts[RDMA_MCM_STATE_ERROR], counts[RDMA_MCM_STATE_WAITING],
	       cli->events);
}

/* recv's "sources":[{"addr":"192.0.2.1","datagrams":20},...] */
static void from_json(struct rec *r, const struct cli_from *from)
{
	char a[INET6_ADDRSTRLEN];
	size_t i;

	rec_open(r, "sources", '[');
	for (i = 0; i < from->n; i++) {
		from_name(from, i, a, sizeof(a));
		rec_open(r, NULL, '{');
		rec_str(r, "addr", a);
		rec_u64(r, "datagrams", from->v[i].datagrams);
		rec_close(r, '}');
	}
	if (from->unknown) {
		rec_open(r, NULL, '{');
		rec_null(r, "addr");
		rec_u64(r, "datagrams", from->unknown);
		rec_close(r, '}');
	}
	rec_close(r, ']');
}

/* recv's lines "from 192.0.2.1 datagrams 20", one per source */
static void from_text(const struct cli_from *from)
{
	char a[INET6_ADDRSTRLEN];
	size_t i;

	for (i = 0; i < from->n; i++) {
		from_name(from, i, a, sizeof(a));
		printf("from %s datagrams %lu\n", a, from->v[i].datagrams);
	}
	if (from->unknown)
		printf("from unknown datagrams %lu\n", from->unknown);
}

/* send's and recv's result; recv's with where its datagrams came from */
void out_count(struct cli *cli, const char *what, const char *group,
	       unsigned long count, unsigned long want,
	       const struct cli_from *from)
{
	struct rec r;

	if (cli->json) {
		rec_begin(&r);
		rec_str(&r, "event", what);
		rec_str(&r, "group", group);
		rec_u64(&r, "count", count);
		rec_u64(&r, "wanted", want);
		if (from)
			from_json(&r, from);
		rec_end(&r);
		return;
	}
	printf("%s %s count %lu of %lu\n", what, group, count, want);
	if (from)
		from_text(from);
}
