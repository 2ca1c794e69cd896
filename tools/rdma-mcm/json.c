// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the one JSON writer of every command (-j). A record is built
 * compact in memory (struct rec), then printed on one line, or with -p
 * indented over several lines: the objects on standard output and the
 * errors, usage and help on standard error alike. The keys are
 * Documentation/rdma-mcm.schema.json's.
 *
 * Strings are written as valid UTF-8 whatever bytes they hold: a command
 * name (comm) or a device name is any process's or driver's choice.
 */
#include <stdlib.h>
#include <string.h>

#include "rdma_mcm_cli.h"

int cli_pretty;

/*
 * The well-formed UTF-8 sequence at @p, as RFC 3629's table (section 4)
 * has it: its length; or 0 when it is ill-formed, with *@skip the bytes
 * of its maximal subpart (Unicode 15, 3.9 D93b), which one U+FFFD
 * replaces. So an overlong form (C0, C1; E0 80-9F; F0 80-8F), a
 * surrogate (ED A0-BF), a code point above U+10FFFF (F4 90-BF; F5-FF) or
 * a stray continuation byte is refused. The NUL ending @p is no
 * continuation byte: a sequence it cuts short is ill-formed.
 */
size_t utf8_seq(const unsigned char *p, size_t *skip)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
	} else {
		*skip = 1;
		return 0;
	}
	/* the second byte's range after E0, ED, F0 and F4 */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++) {
		if (p[i] < lo || p[i] > hi) {
			*skip = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

/*
 * A JSON string: '"' and '\' escaped, control characters and DEL as
 * \u00XX, each ill-formed UTF-8 sequence as U+FFFD, so that every line
 * parses as strict UTF-8 JSON.
 */
void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, skip;

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
		n = utf8_seq(p, &skip);
		if (!n) {
			fputs("\\ufffd", f);
			p += skip;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void rec_begin(struct rec *r)
{
	r->text = NULL;
	r->f = open_memstream(&r->text, &r->len);
	if (!r->f) {
		perror("rdma-mcm");
		exit(1);
	}
	fputc('{', r->f);
	r->first = 1;
}

void rec_key(struct rec *r, const char *k)
{
	fprintf(r->f, "%s\"%s\":", r->first ? "" : ",", k);
	r->first = 0;
}

void rec_u64(struct rec *r, const char *k, uint64_t v)
{
	rec_key(r, k);
	fprintf(r->f, "%llu", (unsigned long long)v);
}

void rec_int(struct rec *r, const char *k, long long v)
{
	rec_key(r, k);
	fprintf(r->f, "%lld", v);
}

/* A number with three decimals (seconds to the millisecond) */
void rec_ms(struct rec *r, const char *k, double v)
{
	rec_key(r, k);
	fprintf(r->f, "%.3f", v);
}

void rec_str(struct rec *r, const char *k, const char *v)
{
	rec_key(r, k);
	json_str(r->f, v);
}

void rec_bool(struct rec *r, const char *k, int v)
{
	rec_key(r, k);
	fputs(v ? "true" : "false", r->f);
}

void rec_null(struct rec *r, const char *k)
{
	rec_key(r, k);
	fputs("null", r->f);
}

/* "k":"v", or "k":null without @v */
void rec_str_or_null(struct rec *r, const char *k, const char *v)
{
	if (v)
		rec_str(r, k, v);
	else
		rec_null(r, k);
}

/* A nested '{' or '[' under key @k, or an array's next element (NULL) */
void rec_open(struct rec *r, const char *k, char bracket)
{
	if (k)
		rec_key(r, k);
	else if (!r->first)
		fputc(',', r->f);
	fputc(bracket, r->f);
	r->first = 1;
}

void rec_close(struct rec *r, char bracket)
{
	fputc(bracket, r->f);
	r->first = 0;
}

/* A string as an array's next element */
void rec_item(struct rec *r, const char *v)
{
	if (!r->first)
		fputc(',', r->f);
	r->first = 0;
	json_str(r->f, v);
}

/* Print compact JSON @text indented, two spaces a level */
static void pretty(FILE *f, const char *text)
{
	int depth = 0, in_str = 0, esc = 0;
	const char *p;

	for (p = text; *p; p++) {
		char c = *p;

		if (in_str) {
			fputc(c, f);
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		switch (c) {
		case '"':
			in_str = 1;
			fputc(c, f);
			break;
		case '{':
		case '[':
			/* an empty one stays on its line */
			if (p[1] == (c == '{' ? '}' : ']')) {
				fprintf(f, "%c%c", c, p[1]);
				p++;
				break;
			}
			fprintf(f, "%c\n%*s", c, 2 * ++depth, "");
			break;
		case '}':
		case ']':
			fprintf(f, "\n%*s%c", 2 * --depth, "", c);
			break;
		case ',':
			fprintf(f, ",\n%*s", 2 * depth, "");
			break;
		case ':':
			fputs(": ", f);
			break;
		default:
			fputc(c, f);
		}
	}
	fputc('\n', f);
}

/* Close the record and print it on @f: one line, or indented with -p */
void rec_end_to(struct rec *r, FILE *f)
{
	fputc('}', r->f);
	fclose(r->f);
	if (cli_pretty)
		pretty(f, r->text);
	else
		fprintf(f, "%s\n", r->text);
	free(r->text);
	fflush(f);
}

void rec_end(struct rec *r)
{
	rec_end_to(r, stdout);
}

/* A text record: as it is, or with -j {"KEY":"TEXT"} */
void out_text(int json, FILE *f, const char *key, const char *text)
{
	struct rec r;

	if (!json) {
		fputs(text, f);
		return;
	}
	rec_begin(&r);
	rec_str(&r, key, text);
	rec_end_to(&r, f);
}
