// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rdma-mcm: the session's standard input, split into lines and words.
 *
 * A line is never split: it is run whole, up to CLI_LINE_MAX bytes, or
 * refused whole (too long, or with a NUL byte), with an error, and the
 * session goes on with the next line. A line has as many words as it
 * has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_mcm_cli.h"

#define READ_CHUNK	4096

void cli_input_free(struct cli_input *in)
{
	free(in->buf);
	memset(in, 0, sizeof(*in));
}

/* Room for READ_CHUNK more bytes; 0 or -1 */
static int room(struct cli_input *in)
{
	size_t cap = in->cap ? in->cap : READ_CHUNK;
	char *buf;

	while (cap - in->len < READ_CHUNK)
		cap *= 2;
	if (cap == in->cap)
		return 0;
	buf = realloc(in->buf, cap);
	if (!buf)
		return -1;
	in->buf = buf;
	in->cap = cap;
	return 0;
}

/* Run one whole line (without its newline); returns 1 for quit. */
static int one_line(struct cli *cli, struct cli_input *in, char *line,
		    size_t len, cli_line_fn fn)
{
	in->line++;
	if (in->skipping) {		/* the tail of a refused line */
		in->skipping = 0;
		return 0;
	}
	if (len > CLI_LINE_MAX) {
		cli_err("input line %lu is longer than %d bytes: ignored",
			in->line, CLI_LINE_MAX);
		return 0;
	}
	if (memchr(line, '\0', len)) {
		cli_err("input line %lu has a NUL byte: ignored", in->line);
		return 0;
	}
	line[len] = '\0';
	return fn(cli, line);
}

int cli_input_read(struct cli *cli, struct cli_input *in, int fd,
		   cli_line_fn fn)
{
	size_t used = 0;
	char *nl;
	ssize_t n;
	int quit = 0;

	if (room(in)) {
		cli_err("%s", strerror(ENOMEM));
		return 1;
	}
	n = read(fd, in->buf + in->len, in->cap - in->len - 1);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		in->eof = 1;
		if (in->len)	/* the last line had no newline */
			quit = one_line(cli, in, in->buf, in->len, fn);
		in->len = 0;
		return quit;
	}
	in->len += (size_t)n;
	while (!quit && (nl = memchr(in->buf + used, '\n', in->len - used))) {
		quit = one_line(cli, in, in->buf + used,
				(size_t)(nl - in->buf) - used, fn);
		used = (size_t)(nl - in->buf) + 1;
	}
	memmove(in->buf, in->buf + used, in->len - used);
	in->len -= used;
	if (in->len > CLI_LINE_MAX) {
		if (!in->skipping)
			cli_err("input line %lu is longer than %d bytes: ignored",
				in->line + 1, CLI_LINE_MAX);
		in->skipping = 1;
		in->len = 0;
	}
	return quit;
}

int cli_split(char *line, char ***words)
{
	char **w = NULL, **bigger, *save = NULL, *tok;
	size_t n = 0, cap = 0;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			bigger = realloc(w, cap * sizeof(*w));
			if (!bigger) {
				free(w);
				return -1;
			}
			w = bigger;
		}
		w[n++] = tok;
	}
	*words = w;
	return (int)n;
}
