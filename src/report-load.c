/* SPDX-License-Identifier: ISC */
/*
 * Read a JSON report back (schema_version 1 or older), checking the type of
 * every key it uses and that its figures are possible; a bad file gives one
 * line naming the file and the key.
 */
#define _XOPEN_SOURCE 700	/* strptime */
#define _DEFAULT_SOURCE		/* timegm */
#include <sys/stat.h>

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report-lazy.h"
#include "report-schema.h"
#include "report.h"
#include "xmalloc.h"

struct report_load {
	const char	*file;
	char		*cause;		/* the first error */
	int		 failed;
	struct report_lazy *lazy;	/* arrays left out of the tree, or
					   NULL */
	int		 lean;		/* REPORT_LOAD_LEAN */
	void		*scratch;	/* lean: histograms read into it */
};

static void	report_load_keys(struct report_load *,
		    const struct report_schema *, const json_t *, void *,
		    const char *);

static void
report_load_fail(struct report_load *ld, const char *key, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
report_load_fail(struct report_load *ld, const char *key, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*msg;

	if (ld->failed)
		return;
	ld->failed = 1;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	xasprintf(&ld->cause, "%s: %s: %s", ld->file, key,
	    msg != NULL ? msg : "bad value");
	free(msg);
}

/* Where the value of k lives in obj. */
static void *
report_load_member(const struct report_schema_key *k, void *obj)
{
	return ((char *)obj + k->offset);
}

/* Zeroed structs for the pointer member; returns them. */
static void *
report_load_alloc(void *member, size_t n, size_t size)
{
	void	**pp = member;

	*pp = xcalloc(n, size);
	return (*pp);
}

/*
 * What a figure of each unit can be.  Time, sizes, counts and rates are
 * never negative.  Rates have a ceiling far above any device's, so that a
 * figure past it is a damaged or made-up file, not a fast volume: the
 * fastest NVMe devices reach a few million IOPS and about 14 GB/s (PCIe 5
 * x4), a page-cache read on one core a few million a second, memory a few
 * hundred GB/s; a latency is at most a day (a run's longest limit).
 */
static const struct {
	const char	*unit;
	double		 max;		/* 0: no bound but finite */
	const char	*accepted;
} report_load_ranges[] = {
	{ "us", 86400e6, "0 to 86400000000 (a day)" },
	{ "ns", 86400e9, "0 to 86400000000000 (a day)" },
	{ "IOPS", 1e9, "0 to 1e9 (100 times the fastest NVMe device)" },
	{ "ops/s", 1e9, "0 to 1e9 (100 times the fastest NVMe device)" },
	{ "bytes/s", 1e12, "0 to 1e12 (1 TB/s, beyond any device and "
	    "memory)" },
	{ "s", 0, "0 or more seconds" },
	{ "bytes", 0, "0 or more bytes" },
	{ "I/Os", 0, "0 or more I/Os" },
	{ "cores", 0, "0 or more cores" },
};

/* Whether the figure d of key k is possible; if not, fail naming it. */
static void
report_load_range(struct report_load *ld, const struct report_schema_key *k,
    double d, const char *key)
{
	size_t	i;

	if (isnan(d))
		return;
	if (!isfinite(d)) {
		report_load_fail(ld, key, "%g is not a finite number", d);
		return;
	}
	for (i = 0; i < sizeof report_load_ranges /
	    sizeof report_load_ranges[0]; i++) {
		if (k->unit == NULL ||
		    strcmp(k->unit, report_load_ranges[i].unit) != 0)
			continue;
		if (d < 0 || (report_load_ranges[i].max > 0 &&
		    d > report_load_ranges[i].max))
			report_load_fail(ld, key, "%g %s is impossible; "
			    "accepted: %s", d, k->unit,
			    report_load_ranges[i].accepted);
		return;
	}
}

/* A whole number in the range of the member; null or absent give 0. */
static void
report_load_uint(struct report_load *ld, const struct report_schema_key *k,
    const json_t *v, void *obj, const char *key)
{
	void		*p = report_load_member(k, obj);
	uint64_t	 max, u = 0;
	json_int_t	 i;

	max = k->size == sizeof(uint32_t) ? UINT32_MAX : UINT64_MAX;
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_integer(v)) {
			report_load_fail(ld, key, "expected a whole number, "
			    "not %s", report_schema_json_type(v));
			return;
		}
		i = json_integer_value(v);
		if (i < 0 || (uint64_t)i > max) {
			report_load_fail(ld, key, "%" JSON_INTEGER_FORMAT
			    " is out of range", i);
			return;
		}
		u = (uint64_t)i;
		report_load_range(ld, k, (double)u, key);
	}
	if (k->size == sizeof(uint32_t))
		*(uint32_t *)p = (uint32_t)u;
	else
		*(uint64_t *)p = u;
}

/* A number; null or absent give NAN. */
static void
report_load_real(struct report_load *ld, const struct report_schema_key *k,
    const json_t *v, void *obj, const char *key)
{
	double	*p = report_load_member(k, obj);

	*p = NAN;
	if (v == NULL || json_is_null(v))
		return;
	if (!json_is_number(v)) {
		report_load_fail(ld, key, "expected a number, not %s",
		    report_schema_json_type(v));
		return;
	}
	*p = json_number_value(v);
	report_load_range(ld, k, *p, key);
}

/* true or false; null or absent give k->dflt (-1 for BOOL_NULL). */
static void
report_load_bool(struct report_load *ld, const struct report_schema_key *k,
    const json_t *v, void *obj, const char *key)
{
	int	*p = report_load_member(k, obj);

	*p = k->type == REPORT_SCHEMA_BOOL_NULL ? -1 : k->dflt;
	if (v == NULL || json_is_null(v))
		return;
	if (!json_is_boolean(v)) {
		report_load_fail(ld, key, "expected true or false, not %s",
		    report_schema_json_type(v));
		return;
	}
	*p = json_is_true(v);
}

/*
 * A string.  Null, absent or "" leave the member as it is: zeroed, or set
 * by an ALIAS key read before.  A POINTER string is never left NULL.
 */
static void
report_load_string(struct report_load *ld,
    const struct report_schema_key *k, const json_t *v, void *obj,
    const char *key)
{
	char	*p = report_load_member(k, obj), **pp = (char **)p;
	size_t	 len = 0;

	if (v != NULL && !json_is_null(v)) {
		if (!json_is_string(v)) {
			report_load_fail(ld, key, "expected a string, not %s",
			    report_schema_json_type(v));
			return;
		}
		len = json_string_length(v);
		if (len >= k->size) {
			report_load_fail(ld, key, "longer than %zu bytes",
			    k->size - 1);
			return;
		}
	}
	if (k->flags & REPORT_SCHEMA_POINTER) {
		free(*pp);
		*pp = xstrdup(len != 0 ? json_string_value(v) : "");
	} else if (len != 0)
		memcpy(p, json_string_value(v), len + 1);
}

/*
 * One of the words of k (from word(1) for WORD_NULL, whose 0 is null);
 * null or absent give 0.
 */
static void
report_load_word(struct report_load *ld, const struct report_schema_key *k,
    const json_t *v, void *obj, const char *key)
{
	int		*p = report_load_member(k, obj);
	const char	*s, *w;
	char		*list, *tmp;
	int		 i, first;

	*p = 0;
	first = k->type == REPORT_SCHEMA_WORD_NULL;
	if (v == NULL || json_is_null(v))
		return;
	if (!json_is_string(v)) {
		report_load_fail(ld, key, "expected a string, not %s",
		    report_schema_json_type(v));
		return;
	}
	s = json_string_value(v);
	for (i = first; (w = k->word(i)) != NULL; i++) {
		if (strcmp(s, w) == 0) {
			*p = i;
			return;
		}
	}
	list = xstrdup(k->word(first));
	for (i = first + 1; (w = k->word(i)) != NULL; i++) {
		xasprintf(&tmp, "%s%s%s", list, k->word(i + 1) == NULL ?
		    " or " : ", ", w);
		free(list);
		list = tmp;
	}
	report_load_fail(ld, key, "\"%s\" is not %s%s", s, list,
	    first ? " or null" : "");
	free(list);
}

/* An object: its keys into the member (allocated for a POINTER). */
static void
report_load_object(struct report_load *ld,
    const struct report_schema_key *k, const json_t *v, void *obj,
    const char *key)
{
	void	*p = report_load_member(k, obj);

	if (v == NULL && ((k->flags & REPORT_SCHEMA_POINTER) ||
	    k->shown != NULL))
		return;
	if (v != NULL && !json_is_object(v)) {
		report_load_fail(ld, key, "expected an object, not %s",
		    report_schema_json_type(v));
		return;
	}
	if (k->flags & REPORT_SCHEMA_POINTER)
		p = report_load_alloc(p, 1, k->sub->size);
	report_load_keys(ld, k->sub, v, p, key);
}

/* An array of objects, in place (at most k->max) or allocated. */
static void
report_load_array(struct report_load *ld, const struct report_schema_key *k,
    const json_t *v, void *obj, const char *key)
{
	void	*p = report_load_member(k, obj);
	size_t	*count = (size_t *)((char *)obj + k->count), i, n;
	char	*elem, ekey[256], *cause;
	json_t	*e;
	struct report_lazy_array *lazy;

	if (v == NULL)
		return;
	if (!json_is_array(v)) {
		report_load_fail(ld, key, "expected an array, not %s",
		    report_schema_json_type(v));
		return;
	}
	lazy = NULL;
	if ((n = json_array_size(v)) == 0 && (ld->lazy == NULL ||
	    (lazy = report_lazy_find(ld->lazy, key, &n)) == NULL))
		return;
	if (k->max != 0 && n > k->max) {
		report_load_fail(ld, key, "more than %zu elements", k->max);
		return;
	}
	if (k->flags & REPORT_SCHEMA_POINTER)
		p = report_load_alloc(p, n, k->sub->size);
	*count = n;
	for (i = 0; i < n; i++) {
		snprintf(ekey, sizeof ekey, "%s[%zu]", key, i);
		elem = (char *)p + i * k->sub->size;
		if (lazy == NULL)
			e = json_array_get(v, i);
		else if ((e = report_lazy_element(ld->lazy, lazy, i,
		    &cause)) == NULL) {
			ld->failed = 1;
			xasprintf(&ld->cause, "%s: %s", ld->file, cause);
			free(cause);
			return;
		}
		if (!json_is_object(e))
			report_load_fail(ld, ekey, "expected an object, not %s",
			    report_schema_json_type(e));
		else
			report_load_keys(ld, k->sub, e, elem, ekey);
		if (lazy != NULL)
			json_decref(e);
		if (ld->failed)
			return;
	}
}

static void (*const report_load_types[REPORT_SCHEMA_NTYPES])(
    struct report_load *, const struct report_schema_key *, const json_t *,
    void *, const char *) = {
	[REPORT_SCHEMA_UINT] = report_load_uint,
	[REPORT_SCHEMA_UINT_NULL] = report_load_uint,
	[REPORT_SCHEMA_REAL] = report_load_real,
	[REPORT_SCHEMA_BOOL] = report_load_bool,
	[REPORT_SCHEMA_BOOL_NULL] = report_load_bool,
	[REPORT_SCHEMA_STRING] = report_load_string,
	[REPORT_SCHEMA_STRING_NULL] = report_load_string,
	[REPORT_SCHEMA_WORD] = report_load_word,
	[REPORT_SCHEMA_WORD_NULL] = report_load_word,
	[REPORT_SCHEMA_OBJECT] = report_load_object,
	[REPORT_SCHEMA_ARRAY] = report_load_array,
};

/* A known figure of key k in obj as a double; NAN when unknown. */
static double
report_load_figure(const struct report_schema_key *k, void *obj)
{
	void		*p = report_load_member(k, obj);
	uint64_t	 u;

	if (k->type == REPORT_SCHEMA_REAL)
		return (*(double *)p);
	if (k->type != REPORT_SCHEMA_UINT &&
	    k->type != REPORT_SCHEMA_UINT_NULL)
		return (NAN);
	u = k->size == sizeof(uint32_t) ? *(uint32_t *)p : *(uint64_t *)p;
	return (u == 0 && k->type == REPORT_SCHEMA_UINT_NULL ? NAN :
	    (double)u);
}

/*
 * Each interval of table t in order: a key named with "low" is at most
 * the key named alike with "high" (capacity_low_bytes and
 * capacity_high_bytes), when both are known.
 */
static void
report_load_intervals(struct report_load *ld, const struct report_schema *t,
    void *obj, const char *prefix)
{
	const struct report_schema_key	*lo, *hi;
	const char			*at;
	char				 name[128], key[256];
	size_t				 i, j;
	double				 l, h;

	for (i = 0; i < t->nkeys && !ld->failed; i++) {
		lo = &t->keys[i];
		if (lo->name == NULL || lo->get != NULL ||
		    (at = strstr(lo->name, "low")) == NULL)
			continue;
		snprintf(name, sizeof name, "%.*shigh%s",
		    (int)(at - lo->name), lo->name, at + 3);
		for (j = 0; j < t->nkeys; j++) {
			hi = &t->keys[j];
			if (hi->name != NULL && hi->get == NULL &&
			    strcmp(hi->name, name) == 0)
				break;
		}
		if (j == t->nkeys)
			continue;
		l = report_load_figure(lo, obj);
		h = report_load_figure(hi, obj);
		if (isnan(l) || isnan(h) || l <= h)
			continue;
		snprintf(key, sizeof key, "%s%s%s", prefix,
		    *prefix != '\0' ? "." : "", lo->name);
		report_load_fail(ld, key, "%g is above %s (%g): an interval "
		    "is accepted low to high", l, hi->name, h);
	}
}

/*
 * The keys of table t from the JSON object o (NULL: absent, every key
 * unknown) into struct obj; prefix is the path of o for messages.
 */
static void
report_load_keys(struct report_load *ld, const struct report_schema *t,
    const json_t *o, void *obj, const char *prefix)
{
	const struct report_schema_key	*k;
	json_t				*v;
	char				 key[256], *cause;
	size_t				 i;
	void				*p;

	for (i = 0; i < t->nkeys && !ld->failed; i++) {
		k = &t->keys[i];
		if (k->flags & REPORT_SCHEMA_INLINE) {
			p = report_load_member(k, obj);
			if (k->flags & REPORT_SCHEMA_POINTER) {
				if (json_object_get(o, k->sub->keys[0].name) ==
				    NULL)
					continue;
				if (ld->lean && strcmp(k->sub->name,
				    "hist") == 0) {
					/* Checked, not kept. */
					if (ld->scratch == NULL)
						ld->scratch = xmalloc(
						    k->sub->size);
					memset(ld->scratch, 0, k->sub->size);
					report_load_keys(ld, k->sub, o,
					    ld->scratch, prefix);
					continue;
				}
				p = report_load_alloc(p, 1, k->sub->size);
			}
			report_load_keys(ld, k->sub, o, p, prefix);
			continue;
		}
		snprintf(key, sizeof key, "%s%s%s", prefix,
		    *prefix != '\0' ? "." : "", k->name);
		v = o != NULL ? json_object_get(o, k->name) : NULL;
		if (v == NULL && o != NULL &&
		    (k->flags & REPORT_SCHEMA_REQUIRED) && (k->unless == NULL ||
		    json_object_get(o, k->unless) == NULL)) {
			report_load_fail(ld, key, "missing");
			break;
		}
		if (k->set == NULL)
			report_load_types[k->type](ld, k, v, obj, key);
		else if (v != NULL && k->set(v, obj, key, &cause) != 0) {
			ld->failed = 1;
			xasprintf(&ld->cause, "%s: %s", ld->file, cause);
			free(cause);
		}
	}
	if (o != NULL && !ld->failed)
		report_load_intervals(ld, t, obj, prefix);
	if (!ld->failed && t->loaded != NULL)
		t->loaded(obj);
}

/*
 * A time the report was written with: "" (null), or ISO 8601 in UTC as
 * report-json.c writes it, a date that exists.
 */
static void
report_load_date(struct report_load *ld, const char *key, const char *s)
{
	struct tm	 tm, back;
	const char	*end;
	time_t		 t;

	if (*s == '\0')
		return;
	memset(&tm, 0, sizeof tm);
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (end != NULL && *end == '\0' && strlen(s) == 20) {
		back = tm;
		t = timegm(&back);
		if (t != (time_t)-1 && back.tm_mday == tm.tm_mday &&
		    back.tm_mon == tm.tm_mon && back.tm_hour == tm.tm_hour &&
		    back.tm_min == tm.tm_min && back.tm_sec == tm.tm_sec)
			return;
	}
	report_load_fail(ld, key, "\"%s\" is not a date; accepted: "
	    "YYYY-MM-DDTHH:MM:SSZ (ISO 8601, UTC) or null", s);
}

/* Read a report back.  Returns 0 or -1 with *cause (bad file: exit 2). */
int
report_load(const char *file, struct report *r, char **cause)
{
	return (report_load_with(file, r, 0, cause));
}

/* The same with flags (REPORT_LOAD_*); see report.h. */
int
report_load_with(const char *file, struct report *r, int flags,
    char **cause)
{
	struct report_load	 ld;
	json_error_t		 jerr;
	json_t			*root, *sv;
	json_int_t		 version;
	struct stat		 st;
	struct report_lazy	 lz;
	int			 whole = 0, lazy_all;

	memset(r, 0, sizeof *r);
	memset(&ld, 0, sizeof ld);
	ld.file = file;
	ld.lean = (flags & REPORT_LOAD_LEAN) != 0;
	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) {
		xasprintf(cause, "%s: is a directory; accepted: a JSON report "
		    "file (as --json FILE writes)", file);
		return (-1);
	}
	/*
	 * In pieces when it can (memory a small multiple of the file's
	 * size), else whole; a piece not read (a key the tables do not
	 * know) makes it read whole again.
	 */
again:
	root = NULL;
	if (!whole && report_lazy_open(&lz, file) == 0) {
		if ((root = report_lazy_root(&lz, &jerr)) != NULL)
			ld.lazy = &lz;
		else
			report_lazy_close(&lz);
	}
	if (root == NULL)
		root = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		if (jerr.line > 0)
			xasprintf(cause, "%s: line %d: not a JSON report: %s",
			    file, jerr.line, jerr.text);
		else
			xasprintf(cause, "%s: %s", file, jerr.text);
		return (-1);
	}
	if (!json_is_object(root)) {
		xasprintf(cause, "%s: not a tierprobe report (top level is "
		    "%s)", file, report_schema_json_type(root));
		json_decref(root);
		if (ld.lazy != NULL)
			report_lazy_close(ld.lazy);
		return (-1);
	}
	sv = json_object_get(root, "schema_version");
	if (sv == NULL || !json_is_integer(sv)) {
		xasprintf(cause, "%s: schema_version: %s", file, sv == NULL ?
		    "missing (not a tierprobe report)" : "expected an integer");
		json_decref(root);
		if (ld.lazy != NULL)
			report_lazy_close(ld.lazy);
		return (-1);
	}
	version = json_integer_value(sv);
	if (version < 1) {
		xasprintf(cause, "%s: schema_version: not a tierprobe report "
		    "version: %" JSON_INTEGER_FORMAT "; accepted: 1 to %d", file,
		    version, REPORT_SCHEMA_VERSION);
		json_decref(root);
		if (ld.lazy != NULL)
			report_lazy_close(ld.lazy);
		return (-1);
	}
	if (version > REPORT_SCHEMA_VERSION) {
		xasprintf(cause, "%s: schema_version: %" JSON_INTEGER_FORMAT
		    " is not supported (this tierprobe reads 1 to %d; a newer "
		    "tierprobe wrote it?)", file, version,
		    REPORT_SCHEMA_VERSION);
		json_decref(root);
		if (ld.lazy != NULL)
			report_lazy_close(ld.lazy);
		return (-1);
	}
	report_load_keys(&ld, &report_schema_root, root, r, "");
	json_decref(root);
	if (ld.lazy != NULL) {
		lazy_all = report_lazy_all_used(ld.lazy);
		report_lazy_close(ld.lazy);
		ld.lazy = NULL;
		if (!ld.failed && !lazy_all) {
			report_free(r);
			memset(r, 0, sizeof *r);
			whole = 1;
			goto again;
		}
	}
	free(ld.scratch);
	ld.scratch = NULL;
	report_load_date(&ld, "started_utc", r->started_utc);
	report_load_date(&ld, "finished_utc", r->finished_utc);
	if (ld.failed) {
		report_free(r);
		*cause = ld.cause;
		return (-1);
	}
	return (0);
}
