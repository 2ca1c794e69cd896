// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: output, one line per record: "key value" text, or a JSON
 * object per line with -j.
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
 * Errno names: the membership statuses of uapi.rst ("Membership status")
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
};

/* The name of errno @err ("ETIMEDOUT"), or NULL if it is not known */
const char *errno_name(int err)
{
	size_t i;

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

/* A status in JSON: ,"status":-110,"errno":"ETIMEDOUT","error":"..." */
static void status_json(int32_t status)
{
	const char *name = status < 0 ? errno_name(-status) : NULL;

	printf(",\"status\":%d", status);
	if (status >= 0)
		return;
	if (name)
		printf(",\"errno\":\"%s\"", name);
	else
		printf(",\"errno\":null");
	printf(",\"error\":");
	json_str(stdout, strerror(-status));
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

/*
 * A JSON string. Bytes that are not valid UTF-8 (a user's input may have
 * any) are written as U+FFFD, so that every line parses.
 */
void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int i, n;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			continue;
		}
		n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 && *p >= 0xc2 ? 2 :
		    (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 &&
		    *p <= 0xf4 ? 4 : 0;
		for (i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (!n) {
			fputs("\\ufffd", f);
			p++;
			continue;
		}
		fwrite(p, 1, (size_t)n, f);
		p += n;
	}
	fputc('"', f);
}

static void json_key(const char *key, const char *val, int first)
{
	printf("%s\"%s\":", first ? "" : ",", key);
	json_str(stdout, val);
}

/* A text record: as it is, or with -j {"KEY":"TEXT"} on one line */
void out_text(int json, FILE *f, const char *key, const char *text)
{
	if (!json) {
		fputs(text, f);
		return;
	}
	fprintf(f, "{\"%s\":", key);
	json_str(f, text);
	fputs("}\n", f);
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

	if (cli->json) {
		putchar('{');
		json_key("event", what, 1);
		printf(",\"ctx\":%u", ev->ctx_id);
		if (ev->event == RDMA_MCM_EVENT_DEVICE_ADDED)
			printf(",\"port\":%u", ev->port_num);
		else
			status_json(ev->status);
		puts("}");
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

	if (ev->event == RDMA_MCM_EVENT_DEVICE_REMOVED ||
	    ev->event == RDMA_MCM_EVENT_DEVICE_ADDED) {
		out_ctx_event(cli, ev);
		return;
	}
	gid_name(ev->mgid, mgid, sizeof(mgid));
	status_text(ev->status, status, sizeof(status));
	if (cli->json) {
		putchar('{');
		json_key("event", what, 1);
		json_key("group", group, 0);
		printf(",\"ctx\":%u,\"handle\":%u,\"cookie\":%llu",
		       ev->ctx_id, ev->handle, (unsigned long long)ev->cookie);
		if (with_group(ev->event)) {
			json_key("mgid", mgid, 0);
			printf(",\"mlid\":%u,\"qkey\":%u,\"sl\":%u,\"port\":%u}\n",
			       ev->mlid, ev->qkey, ev->sl, ev->port_num);
		} else {
			status_json(ev->status);
			puts("}");
		}
		return;
	}
	if (with_group(ev->event))
		printf("%s %s handle %u mgid %s mlid 0x%x qkey 0x%x sl %u port %u\n",
		       what, group, ev->handle, mgid, ev->mlid, ev->qkey,
		       ev->sl, ev->port_num);
	else
		printf("%s %s handle %u status %s\n", what, group,
		       ev->handle, status);
}

void out_left(struct cli *cli, const char *group, uint32_t handle,
	      uint32_t events)
{
	if (cli->json) {
		putchar('{');
		json_key("event", "left", 1);
		json_key("group", group, 0);
		printf(",\"handle\":%u,\"events\":%u}\n", handle, events);
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

/* ,"last_status":-110,"last_errno":"ETIMEDOUT","last_error":"..." */
static void last_status_json(int32_t status)
{
	const char *name = status < 0 ? errno_name(-status) : NULL;

	printf(",\"last_status\":%d", status);
	if (status >= 0)
		return;
	if (name)
		printf(",\"last_errno\":\"%s\"", name);
	else
		printf(",\"last_errno\":null");
	printf(",\"last_error\":");
	json_str(stdout, strerror(-status));
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

void out_member(struct cli *cli, const struct rdma_mcm_member *mb)
{
	struct sockaddr_storage ss;
	char group[80], mgid[INET6_ADDRSTRLEN], status[128];
	const char *flags = mb->join_flags == RDMA_MCM_JOIN_SENDONLY_FULLMEMBER ?
			    "send-only" : "full";
	double age = state_age(mb->state_time_ns);

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, mb->addr, sizeof(mb->addr) < sizeof(ss) ?
	       sizeof(mb->addr) : sizeof(ss));
	addr_name((struct sockaddr *)&ss, group, sizeof(group));
	gid_name(mb->mgid, mgid, sizeof(mgid));
	if (cli->json) {
		putchar('{');
		json_key("group", group, 1);
		printf(",\"ctx\":%u,\"handle\":%u", cli->ctx_id, mb->handle);
		json_key("state", rdma_mcm_state_str(mb->state), 0);
		json_key("flags", flags, 0);
		status_json(mb->status);
		json_key("mgid", mgid, 0);
		printf(",\"mlid\":%u,\"qkey\":%u,\"events\":%u", mb->mlid,
		       mb->qkey, mb->events_reported);
		printf(",\"rejoins\":%u", mb->rejoins);
		last_status_json(mb->last_status);
		if (age < 0)
			printf(",\"age\":null");
		else
			printf(",\"age\":%.3f", age);
		printf(",\"nr_sources\":%u,\"joined_by\":", mb->nr_sources);
		if (mb->state == RDMA_MCM_STATE_JOINED)
			printf("\"%s\"}\n", joined_by(mb));
		else
			printf("null}\n");
		return;
	}
	printf("ctx %u handle %u group %s state %s flags %s", cli->ctx_id,
	       mb->handle, group, rdma_mcm_state_str(mb->state), flags);
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
		printf(" age %.3fs", age);
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

	if (cli->json) {
		printf("{\"abi\":%d,\"contexts\":%d,\"memberships\":%u", abi,
		       cli->have_ctx, total);
		printf(",\"joining\":%u,\"joined\":%u,\"error\":%u,\"waiting\":%u",
		       counts[RDMA_MCM_STATE_JOINING],
		       counts[RDMA_MCM_STATE_JOINED],
		       counts[RDMA_MCM_STATE_ERROR],
		       counts[RDMA_MCM_STATE_WAITING]);
		printf(",\"events\":%lu}\n", cli->events);
		return;
	}
	printf("abi %d contexts %d memberships %u joining %u joined %u",
	       abi, cli->have_ctx, total, counts[RDMA_MCM_STATE_JOINING],
	       counts[RDMA_MCM_STATE_JOINED]);
	printf(" error %u waiting %u events %lu\n",
	       counts[RDMA_MCM_STATE_ERROR], counts[RDMA_MCM_STATE_WAITING],
	       cli->events);
}

/* recv's ,"sources":[{"addr":"192.0.2.1","datagrams":20},...] */
static void from_json(const struct cli_from *from)
{
	char a[INET6_ADDRSTRLEN];
	size_t i;

	printf(",\"sources\":[");
	for (i = 0; i < from->n; i++) {
		from_name(from, i, a, sizeof(a));
		printf("%s{", i ? "," : "");
		json_key("addr", a, 1);
		printf(",\"datagrams\":%lu}", from->v[i].datagrams);
	}
	if (from->unknown)
		printf("%s{\"addr\":null,\"datagrams\":%lu}", from->n ? "," : "",
		       from->unknown);
	putchar(']');
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
	if (cli->json) {
		putchar('{');
		json_key("event", what, 1);
		json_key("group", group, 0);
		printf(",\"count\":%lu,\"wanted\":%lu", count, want);
		if (from)
			from_json(from);
		puts("}");
		return;
	}
	printf("%s %s count %lu of %lu\n", what, group, count, want);
	if (from)
		from_text(from);
}
