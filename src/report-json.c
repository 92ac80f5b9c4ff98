/* SPDX-License-Identifier: ISC */
/*
 * A report as JSON (schema in man/tierprobe-report.5), built with jansson
 * and dumped once; unknown figures are null, sections not run are absent.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report-schema.h"
#include "report.h"
#include "xmalloc.h"

/*
 * Reals with REPORT_JSON_DIGITS (17) significant digits, enough to read
 * back the very double written: a saved report re-renders to the
 * figures, roundings and sentences the live run printed (6 digits did
 * not: a ceiling of 3000.5003 IOPS printed 3,001 live and 3,000 from its
 * 3000.5).
 */
#define REPORT_JSON_FLAGS (JSON_INDENT(2) | \
	JSON_REAL_PRECISION(REPORT_JSON_DIGITS) | JSON_ENSURE_ASCII)

static json_t	*report_json_value(const struct report_schema_key *,
		    const void *);

/* The member of obj that k describes (for a POINTER, what it points to). */
static const void *
report_json_member(const struct report_schema_key *k, const void *obj)
{
	const void	*p = (const char *)obj + k->offset;

	if (k->flags & REPORT_SCHEMA_POINTER)
		return (*(const void *const *)p);
	return (p);
}

static uint64_t
report_json_uint_of(const struct report_schema_key *k, const void *obj)
{
	const void	*p = report_json_member(k, obj);

	if (k->size == sizeof(uint32_t))
		return (*(const uint32_t *)p);
	return (*(const uint64_t *)p);
}

static int
report_json_int_of(const struct report_schema_key *k, const void *obj)
{
	return (*(const int *)report_json_member(k, obj));
}

static json_t *
report_json_uint(const struct report_schema_key *k, const void *obj)
{
	return (json_integer((json_int_t)report_json_uint_of(k, obj)));
}

static json_t *
report_json_uint_null(const struct report_schema_key *k, const void *obj)
{
	uint64_t	v = report_json_uint_of(k, obj);

	return (v != 0 ? json_integer((json_int_t)v) : json_null());
}

static json_t *
report_json_real(const struct report_schema_key *k, const void *obj)
{
	double	v = *(const double *)report_json_member(k, obj);

	return (isfinite(v) ? json_real(v) : json_null());
}

static json_t *
report_json_bool(const struct report_schema_key *k, const void *obj)
{
	return (json_boolean(report_json_int_of(k, obj)));
}

static json_t *
report_json_bool_null(const struct report_schema_key *k, const void *obj)
{
	int	v = report_json_int_of(k, obj);

	return (v < 0 ? json_null() : json_boolean(v));
}

static json_t *
report_json_string(const struct report_schema_key *k, const void *obj)
{
	return (json_string(report_json_member(k, obj)));
}

static json_t *
report_json_string_null(const struct report_schema_key *k, const void *obj)
{
	const char	*s = report_json_member(k, obj);

	return (s != NULL && *s != '\0' ? json_string(s) : json_null());
}

static json_t *
report_json_word(const struct report_schema_key *k, const void *obj)
{
	const char	*w = k->word(report_json_int_of(k, obj));

	return (json_string(w != NULL ? w : k->word(0)));
}

static json_t *
report_json_word_null(const struct report_schema_key *k, const void *obj)
{
	const char	*w = k->word(report_json_int_of(k, obj));

	return (w != NULL ? json_string(w) : json_null());
}

/* The keys of table t of struct obj into the JSON object o. */
static void
report_json_keys(const struct report_schema *t, const void *obj, json_t *o)
{
	const struct report_schema_key	*k;
	size_t				 i;

	for (i = 0; i < t->nkeys; i++) {
		k = &t->keys[i];
		if (k->type == REPORT_SCHEMA_OBJECT &&
		    (report_json_member(k, obj) == NULL ||
		    (k->shown != NULL && !k->shown(obj))))
			continue;
		/* An optional array that is not there is absent. */
		if (k->type == REPORT_SCHEMA_ARRAY &&
		    (k->flags & REPORT_SCHEMA_POINTER) &&
		    !(k->flags & REPORT_SCHEMA_REQUIRED) &&
		    report_json_member(k, obj) == NULL)
			continue;
		if (k->flags & REPORT_SCHEMA_INLINE)
			report_json_keys(k->sub, report_json_member(k, obj), o);
		else
			json_object_set_new(o, k->name,
			    report_json_value(k, obj));
	}
}

static json_t *
report_json_object(const struct report_schema_key *k, const void *obj)
{
	json_t	*o = json_object();

	report_json_keys(k->sub, report_json_member(k, obj), o);
	return (o);
}

static json_t *
report_json_array(const struct report_schema_key *k, const void *obj)
{
	const char	*v = report_json_member(k, obj);
	json_t		*a, *o;
	size_t		 i, n;

	n = *(const size_t *)((const char *)obj + k->count);
	if (k->max != 0 && n > k->max)
		n = k->max;
	a = json_array();
	for (i = 0; i < n; i++) {
		o = json_object();
		report_json_keys(k->sub, v + i * k->sub->size, o);
		json_array_append_new(a, o);
	}
	return (a);
}

static json_t *(*const report_json_types[REPORT_SCHEMA_NTYPES])(
    const struct report_schema_key *, const void *) = {
	[REPORT_SCHEMA_UINT] = report_json_uint,
	[REPORT_SCHEMA_UINT_NULL] = report_json_uint_null,
	[REPORT_SCHEMA_REAL] = report_json_real,
	[REPORT_SCHEMA_BOOL] = report_json_bool,
	[REPORT_SCHEMA_BOOL_NULL] = report_json_bool_null,
	[REPORT_SCHEMA_STRING] = report_json_string,
	[REPORT_SCHEMA_STRING_NULL] = report_json_string_null,
	[REPORT_SCHEMA_WORD] = report_json_word,
	[REPORT_SCHEMA_WORD_NULL] = report_json_word_null,
	[REPORT_SCHEMA_OBJECT] = report_json_object,
	[REPORT_SCHEMA_ARRAY] = report_json_array,
};

/* The value of key k of struct obj. */
static json_t *
report_json_value(const struct report_schema_key *k, const void *obj)
{
	if (k->shown != NULL && !k->shown(obj))
		return (k->type == REPORT_SCHEMA_ARRAY ? json_array() :
		    json_null());
	if (k->get != NULL)
		return (k->get(obj));
	return (report_json_types[k->type](k, obj));
}

/* JSON to a stream (one document and a newline).  Returns 0 or -1. */
int
report_json_dump(const struct report *r, FILE *f)
{
	json_t	*root;
	int	 rc;

	root = json_object();
	report_json_keys(&report_schema_root, r, root);
	rc = json_dumpf(root, f, REPORT_JSON_FLAGS);
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0 || ferror(f))
		return (-1);
	return (0);
}

/* JSON to path atomically: temp file beside it, fsync, rename. */
static int
report_json_write_file(const struct report *r, const char *path,
    char **cause)
{
	char	*copy, *copy2, *tmp = NULL;
	FILE	*f = NULL;
	mode_t	 mask;
	int	 fd = -1, dfd, saved;

	copy = xstrdup(path);
	copy2 = xstrdup(path);
	xasprintf(&tmp, "%s/.%s.XXXXXX", dirname(copy), basename(copy2));
	free(copy2);
	free(copy);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(tmp);
		return (-1);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) == -1)
		goto fail;
	if ((f = fdopen(fd, "w")) == NULL)
		goto fail;
	fd = -1;
	if (report_json_dump(r, f) != 0) {
		if (errno == 0)
			errno = EIO;
		goto fail;
	}
	if (fsync(fileno(f)) == -1)
		goto fail;
	if (fclose(f) != 0) {
		f = NULL;
		goto fail;
	}
	f = NULL;
	if (rename(tmp, path) == -1)
		goto fail;
	/* Make the rename itself durable. */
	copy = xstrdup(path);
	if ((dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	free(copy);
	free(tmp);
	return (0);

fail:
	saved = errno;
	if (f != NULL)
		fclose(f);
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	xasprintf(cause, "%s: %s", path, strerror(saved));
	return (-1);
}

/*
 * Write the report atomically, with SIGINT and SIGTERM held off meanwhile:
 * a second interrupt (which exits at once) then lands after the rename and
 * never leaves the temp file behind.
 */
int
report_json_write(const struct report *r, const char *path, char **cause)
{
	sigset_t	block, old;
	int		ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	ret = report_json_write_file(r, path, cause);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return (ret);
}

/* Write the report to path, or to a new file here if that fails. */
int
report_json_save(const struct report *r, const char *path, char **used,
    char **cause)
{
	char		*why = NULL, *why2 = NULL, stamp[32], *name;
	time_t		 now;

	*used = NULL;
	if (report_json_write(r, path, &why) == 0)
		return (0);
	now = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
	xasprintf(&name, "tierprobe-report-%s-%ld.json", stamp,
	    (long)getpid());
	if (report_json_write(r, name, &why2) == 0) {
		*used = name;
		*cause = why;
		return (1);
	}
	xasprintf(cause, "%s; and %s", why, why2);
	free(why);
	free(why2);
	free(name);
	return (-1);
}
