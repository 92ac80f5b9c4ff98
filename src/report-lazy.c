/* SPDX-License-Identifier: ISC */
/*
 * A JSON report read in pieces.  One pass over the text finds each array
 * whose elements are all objects and that spans REPORT_LAZY_MIN bytes or
 * more (scan points, timelines, targets), with its path and the span of
 * each element.  jansson then parses the text without their contents
 * (each such array "[]"), and the reader parses their elements one at a
 * time, each without the arrays left out inside it, freeing each tree
 * before the next.  The text stays in memory (once); the trees at any
 * time are the skeleton and one element.  The pass only needs to find
 * where values begin and end: jansson still checks every byte it parses,
 * and anything the pass cannot follow makes the reader parse the file
 * whole, as before.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report-lazy.h"
#include "xmalloc.h"

#ifndef REPORT_LAZY_MIN			/* the fuzz build lowers it */
#define REPORT_LAZY_MIN		4096	/* bytes: smaller arrays stay in */
#endif
#define REPORT_LAZY_DEPTH	64	/* deeper: parse the file whole */

struct report_lazy_array {
	size_t	 start;		/* offset of '[' */
	size_t	 end;		/* offset of ']' */
	char	*path;
	size_t	*span;		/* start and end (past) of each element */
	size_t	 n;
	int	 used;
};

struct report_lazy_scan {
	struct report_lazy	*lz;
	size_t			 pos;
	char			 path[512];	/* of the value at pos */
	size_t			 plen;
};

static int	report_lazy_value(struct report_lazy_scan *, int);

/* Append "[index]" to the path; -1 when it does not fit. */
static int
report_lazy_push_index(struct report_lazy_scan *s, size_t index)
{
	int	n;

	n = snprintf(s->path + s->plen, sizeof s->path - s->plen, "[%zu]",
	    index);
	if (n < 0 || (size_t)n >= sizeof s->path - s->plen)
		return (-1);
	s->plen += (size_t)n;
	return (0);
}

/* Append ".key" (len bytes; no dot at the top) to the path; -1 if long. */
static int
report_lazy_push_key(struct report_lazy_scan *s, const char *key,
    size_t len)
{
	size_t	dot = s->plen > 0;

	if (s->plen + dot + len >= sizeof s->path)
		return (-1);
	if (dot)
		s->path[s->plen++] = '.';
	memcpy(s->path + s->plen, key, len);
	s->plen += len;
	s->path[s->plen] = '\0';
	return (0);
}

static void
report_lazy_space(struct report_lazy_scan *s)
{
	const char	*t = s->lz->text;

	while (s->pos < s->lz->len && (t[s->pos] == ' ' ||
	    t[s->pos] == '\t' || t[s->pos] == '\n' || t[s->pos] == '\r'))
		s->pos++;
}

/* Past a string at pos; its contents' span in *from, *to. */
static int
report_lazy_string(struct report_lazy_scan *s, size_t *from, size_t *to)
{
	const char	*t = s->lz->text;

	if (t[s->pos] != '"')
		return (-1);
	*from = ++s->pos;
	while (s->pos < s->lz->len && t[s->pos] != '"') {
		if (t[s->pos] == '\\')
			s->pos++;
		s->pos++;
	}
	if (s->pos >= s->lz->len)
		return (-1);
	*to = s->pos++;
	return (0);
}

static void
report_lazy_add(struct report_lazy *lz, size_t start, size_t end,
    const char *path, size_t *span, size_t n)
{
	struct report_lazy_array	*a;

	lz->a = xreallocarray(lz->a, lz->n + 1, sizeof *lz->a);
	a = &lz->a[lz->n++];
	a->start = start;
	a->end = end;
	a->path = xstrdup(path);
	a->span = span;
	a->n = n;
	a->used = 0;
}

static int
report_lazy_array(struct report_lazy_scan *s, int depth)
{
	const char	*t = s->lz->text;
	size_t		 start = s->pos, *span = NULL, n = 0, cap = 0;
	size_t		 plen = s->plen;
	int		 objects = 1;

	s->pos++;
	report_lazy_space(s);
	if (s->pos < s->lz->len && t[s->pos] == ']') {
		s->pos++;
		return (0);
	}
	for (;;) {
		report_lazy_space(s);
		if (s->pos >= s->lz->len)
			goto fail;
		if (t[s->pos] != '{')
			objects = 0;
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			span = xreallocarray(span, cap, 2 * sizeof *span);
		}
		span[2 * n] = s->pos;
		if (report_lazy_push_index(s, n) != 0 ||
		    report_lazy_value(s, depth + 1) != 0)
			goto fail;
		s->path[s->plen = plen] = '\0';
		span[2 * n + 1] = s->pos;
		n++;
		report_lazy_space(s);
		if (s->pos >= s->lz->len)
			goto fail;
		if (t[s->pos] == ']')
			break;
		if (t[s->pos++] != ',')
			goto fail;
	}
	if (objects && s->pos - start >= REPORT_LAZY_MIN)
		report_lazy_add(s->lz, start, s->pos, s->path, span, n);
	else
		free(span);
	s->pos++;
	return (0);
fail:
	free(span);
	return (-1);
}

static int
report_lazy_object(struct report_lazy_scan *s, int depth)
{
	const char	*t = s->lz->text;
	size_t		 from, to, plen = s->plen;
	int		 rc;

	s->pos++;
	report_lazy_space(s);
	if (s->pos < s->lz->len && t[s->pos] == '}') {
		s->pos++;
		return (0);
	}
	for (;;) {
		report_lazy_space(s);
		if (s->pos >= s->lz->len ||
		    report_lazy_string(s, &from, &to) != 0)
			return (-1);
		report_lazy_space(s);
		if (s->pos >= s->lz->len || t[s->pos++] != ':')
			return (-1);
		if (report_lazy_push_key(s, t + from, to - from) != 0)
			return (-1);
		rc = report_lazy_value(s, depth + 1);
		s->path[s->plen = plen] = '\0';
		if (rc != 0)
			return (-1);
		report_lazy_space(s);
		if (s->pos >= s->lz->len)
			return (-1);
		if (t[s->pos] == '}')
			break;
		if (t[s->pos++] != ',')
			return (-1);
	}
	s->pos++;
	return (0);
}

/*
 * Past the value at pos (s->path names it); -1 if it cannot be followed.
 */
static int
report_lazy_value(struct report_lazy_scan *s, int depth)
{
	const char	*t = s->lz->text;
	size_t		 from, to;

	if (depth > REPORT_LAZY_DEPTH)
		return (-1);
	report_lazy_space(s);
	if (s->pos >= s->lz->len)
		return (-1);
	switch (t[s->pos]) {
	case '{':
		return (report_lazy_object(s, depth));
	case '[':
		return (report_lazy_array(s, depth));
	case '"':
		return (report_lazy_string(s, &from, &to));
	}
	from = s->pos;
	while (s->pos < s->lz->len && strchr("+-.0123456789Eaeflnrstu",
	    t[s->pos]) != NULL && t[s->pos] != '\0')
		s->pos++;
	return (s->pos > from ? 0 : -1);
}

static int
report_lazy_cmp(const void *a, const void *b)
{
	const struct report_lazy_array	*x = a, *y = b;

	return (x->start < y->start ? -1 : x->start > y->start);
}

/* Read file and find its large arrays; see report-lazy.h. */
int
report_lazy_open(struct report_lazy *lz, const char *file)
{
	struct report_lazy_scan	 s;
	struct stat		 st;
	ssize_t			 got;
	int			 fd;

	memset(lz, 0, sizeof *lz);
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return (-1);
	}
	lz->text = xmalloc((size_t)st.st_size + 1);
	while (lz->len < (size_t)st.st_size) {
		got = read(fd, lz->text + lz->len, (size_t)st.st_size -
		    lz->len);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		lz->len += (size_t)got;
	}
	close(fd);
	lz->text[lz->len] = '\0';
	memset(&s, 0, sizeof s);
	s.lz = lz;
	if (lz->len != (size_t)st.st_size || memchr(lz->text, '\0',
	    lz->len) != NULL || report_lazy_value(&s, 0) != 0) {
		report_lazy_close(lz);
		return (-1);
	}
	if (lz->n > 1)
		qsort(lz->a, lz->n, sizeof *lz->a, report_lazy_cmp);
	return (0);
}

/* The first array left out that starts at or after from. */
static size_t
report_lazy_first(const struct report_lazy *lz, size_t from)
{
	size_t	lo = 0, hi = lz->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (lz->a[mid].start < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* Text [from, to) with the arrays left out inside it emptied, parsed. */
static json_t *
report_lazy_parse(struct report_lazy *lz, size_t from, size_t to,
    json_error_t *err)
{
	const struct report_lazy_array	*a;
	char				*buf;
	size_t				 i, pos = from, o = 0;
	json_t				*v;

	buf = xmalloc(to - from + 1);
	for (i = report_lazy_first(lz, from); i < lz->n; i++) {
		a = &lz->a[i];
		if (a->start >= to)
			break;
		if (a->start < pos)
			continue;	/* inside one emptied already */
		memcpy(buf + o, lz->text + pos, a->start + 1 - pos);
		o += a->start + 1 - pos;
		pos = a->end;
	}
	memcpy(buf + o, lz->text + pos, to - pos);
	o += to - pos;
	v = json_loadb(buf, o, JSON_REJECT_DUPLICATES, err);
	free(buf);
	return (v);
}

/* The skeleton; see report-lazy.h. */
json_t *
report_lazy_root(struct report_lazy *lz, json_error_t *err)
{
	return (report_lazy_parse(lz, 0, lz->len, err));
}

/* The array left out at path; see report-lazy.h. */
struct report_lazy_array *
report_lazy_find(struct report_lazy *lz, const char *path, size_t *n)
{
	size_t	i;

	for (i = 0; i < lz->n; i++) {
		if (!lz->a[i].used && strcmp(lz->a[i].path, path) == 0) {
			lz->a[i].used = 1;
			*n = lz->a[i].n;
			return (&lz->a[i]);
		}
	}
	return (NULL);
}

/* Element i of a; see report-lazy.h. */
json_t *
report_lazy_element(struct report_lazy *lz,
    const struct report_lazy_array *a, size_t i, char **cause)
{
	json_error_t	 err;
	json_t		*v;
	const char	*p;
	size_t		 line = 1;

	v = report_lazy_parse(lz, a->span[2 * i], a->span[2 * i + 1], &err);
	if (v != NULL)
		return (v);
	for (p = lz->text; p < lz->text + a->span[2 * i]; p++)
		line += *p == '\n';
	xasprintf(cause, "line %zu: not a JSON report: %s",
	    line + (size_t)(err.line > 0 ? err.line - 1 : 0), err.text);
	return (NULL);
}

/* Whether every array left out was read; see report-lazy.h. */
int
report_lazy_all_used(const struct report_lazy *lz)
{
	size_t	i;

	for (i = 0; i < lz->n; i++)
		if (!lz->a[i].used)
			return (0);
	return (1);
}

void
report_lazy_close(struct report_lazy *lz)
{
	size_t	i;

	for (i = 0; i < lz->n; i++) {
		free(lz->a[i].path);
		free(lz->a[i].span);
	}
	free(lz->a);
	free(lz->text);
	memset(lz, 0, sizeof *lz);
}
