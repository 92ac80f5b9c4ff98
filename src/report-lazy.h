/* SPDX-License-Identifier: ISC */
/*
 * A JSON report read in pieces (report-lazy.c): its large arrays of
 * objects are left out of the tree jansson builds of it and parsed one
 * element at a time, so that reading a report takes a small multiple of
 * its size, not a tree of all of it at once.
 */
#ifndef REPORT_LAZY_H
#define REPORT_LAZY_H

#include <stddef.h>

#include <jansson.h>

struct report_lazy_array;

struct report_lazy {
	char			 *text;		/* the whole file */
	size_t			  len;
	struct report_lazy_array *a;		/* left out, by start */
	size_t			  n;
};

/*
 * Read file (a regular file) into lz and find its large arrays of
 * objects.  Returns 0, or -1 when it cannot (not a regular file, not
 * JSON as far as the scan can tell): read it whole then.
 */
int	 report_lazy_open(struct report_lazy *, const char *);
/*
 * The document without the contents of the arrays left out (each "[]"),
 * parsed; NULL with *err as jansson gives it.
 */
json_t	*report_lazy_root(struct report_lazy *, json_error_t *);
/*
 * The array left out at path (as report-load.c names keys: "scan.points",
 * "targets[0].limits.timeline"), marked used; its element count in *n.
 * NULL if none was left out there.
 */
struct report_lazy_array *report_lazy_find(struct report_lazy *,
	    const char *, size_t *);
/*
 * Element i of a, parsed (the caller decrefs it); NULL with *cause
 * ("line N: ...", the line in the file).
 */
json_t	*report_lazy_element(struct report_lazy *,
	    const struct report_lazy_array *, size_t, char **);
/* Whether every array left out was found (else some key went unread). */
int	 report_lazy_all_used(const struct report_lazy *);
void	 report_lazy_close(struct report_lazy *);

#endif
