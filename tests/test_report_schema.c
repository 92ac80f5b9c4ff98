/* SPDX-License-Identifier: ISC */
/*
 * report-schema.c against full reports and the man page: the real pipeline
 * runs twice on a simulated volume with a cache, a burst bucket and slow
 * first reads (every section of a report of one present), and on two
 * simulated volumes sharing an instance with a bucket (targets[] and
 * together, a shared limit and a shared bucket; volume types judged, and
 * one given with --type); every key of those
 * reports must be a row of the table, every row must appear in one (or in
 * the fixture of a class no tier explains) and be documented in
 * man/tierprobe-report.5 (which documents nothing else); `report
 * --output-format json` reproduces each file byte for byte, any one value
 * changed survives a load and a dump, and every key of the fixtures
 * survives with its value.
 */
#include <sys/wait.h>

#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report-schema.h"
#include "report.h"
#include "t_report.h"
#include "xmalloc.h"

#define T_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(17) | \
	JSON_ENSURE_ASCII)
#define T_MAX	1024

/* A simulated volume that makes every section of a report appear. */
static const char t_profile[] =
    "[device]\n"
    "name = schema-full\n"
    "description = every section of a report\n"
    "size = 1G\n"
    "block_size = 512\n"
    "transfer = 512M\n"
    "first_read_us = 2000\n"
    "first_read_sigma = 0.5\n"
    "[tier.0]\n"
    "capacity = 32M\n"
    "latency_us = 50\n"
    "sigma = 0.2\n"
    "[backing]\n"
    "latency_us = 500\n"
    "sigma = 0.25\n"
    "concurrency = 8\n"
    "[limit]\n"
    "iops = 2000\n"
    "bandwidth = 64M\n"
    "io_accounting = 64K\n"
    "[burst]\n"
    "iops = 6000\n"
    "credits = 40000\n"
    "[write]\n"			/* a buffer: writes.refill_timeline */
    "buffer = 256M\n"
    "drain = 16M\n";

/*
 * Two volumes on an instance with a bucket: alone below its baseline,
 * together above it (the bucket runs dry in 90 s) and above its bandwidth.
 */
static const char t_instance[] =
    "[instance]\n"
    "name = schema-instance\n"
    "iops = 1500\n"
    "bandwidth = 40M\n"
    "burst_iops = 3000\n"
    "burst_duration_s = 30\n";
static const char t_volume[] =
    "[device]\n"
    "name = schema-volume\n"
    "size = 1G\n"
    "block_size = 512\n"
    "transfer = 512M\n"
    "[tier.0]\n"
    "capacity = 32M\n"
    "latency_us = 50\n"
    "[backing]\n"
    "latency_us = 500\n"
    "concurrency = 8\n"
    "[limit]\n"
    "iops = 1000\n"
    "bandwidth = 32M\n";

static char	*t_dir;
#define T_DOCS	2
static char	 t_full[T_DOCS][512];	/* one target; several */
static json_t	*t_full_json[T_DOCS];

/* The keys tierprobe-report.5 documents: .It Li tags, by .Ss section. */
struct t_man {
	size_t	 n;
	char	*tag[T_MAX];
	char	*section[T_MAX];
	int	 used[T_MAX];
};

/* A set of pointers. */
struct t_set {
	size_t		 n;
	const void	*p[T_MAX];
};

/* What a walk of the table met. */
struct t_walk {
	struct t_man	*man;
	struct t_set	 tables;	/* documented or checked once */
	struct t_set	 rows;		/* in the full report */
	int		 errors;
};

static void
t_error(struct t_walk *w, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	w->errors++;
}

static void
t_man_load(struct t_man *m)
{
	char	 path[512], *text, *line, *save, *word, *wsave;
	char	*section = xstrdup("");

	snprintf(path, sizeof path, "%s/man/tierprobe-report.5",
	    getenv("TOP_SRCDIR") != NULL ? getenv("TOP_SRCDIR") : TP_SRCDIR);
	assert_non_null(text = t_slurp(path, NULL));
	memset(m, 0, sizeof *m);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, ".Ss ", 4) == 0) {
			free(section);
			section = xstrdup(line + 4);
			continue;
		}
		if (strncmp(line, ".It Li ", 7) != 0)
			continue;
		for (word = strtok_r(line + 7, " ", &wsave); word != NULL;
		    word = strtok_r(NULL, " ", &wsave)) {
			if (strcmp(word, ",") == 0)
				continue;
			assert_true(m->n < T_MAX);
			m->tag[m->n] = xstrdup(word);
			m->section[m->n] = xstrdup(section);
			m->n++;
		}
	}
	free(section);
	free(text);
}

static void
t_man_free(struct t_man *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++) {
		free(m->tag[i]);
		free(m->section[i]);
	}
}

/* Whether name is a tag of the page (in section, if not NULL). */
static int
t_man_has(struct t_man *m, const char *name, const char *section)
{
	size_t	i;
	int	found = 0;

	for (i = 0; i < m->n; i++) {
		if (strcmp(m->tag[i], name) != 0 || (section != NULL &&
		    strcmp(m->section[i], section) != 0))
			continue;
		m->used[i] = 1;
		found = 1;
	}
	return (found);
}

static int
t_set_has(const struct t_set *set, const void *p)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		if (set->p[i] == p)
			return (1);
	return (0);
}

/* Whether p was in the set; it is now. */
static int
t_set_add(struct t_set *set, const void *p)
{
	if (t_set_has(set, p))
		return (1);
	assert_true(set->n < T_MAX);
	set->p[set->n++] = p;
	return (0);
}

/*
 * Every key of t documented under prefix (in section if not NULL); a table
 * used again is documented at its first use, or in its own man_section.
 */
static void
t_documented(struct t_walk *w, const struct report_schema *t,
    const char *prefix, const char *section)
{
	const struct report_schema_key	*k;
	char				 name[256], sub[300];
	size_t				 i;

	if (t_set_add(&w->tables, t))
		return;
	for (i = 0; i < t->nkeys; i++) {
		k = &t->keys[i];
		if (k->doc == NULL || *k->doc == '\0')
			t_error(w, "%s%s: no doc in the table", prefix,
			    k->name != NULL ? k->name : "(inline)");
		if (k->flags & REPORT_SCHEMA_INLINE) {
			t_documented(w, k->sub, prefix, section);
			continue;
		}
		snprintf(name, sizeof name, "%s%s", prefix, k->name);
		if (!t_man_has(w->man, name, section) &&
		    k->type != REPORT_SCHEMA_OBJECT)
			t_error(w, "%s: not documented in "
			    "tierprobe-report.5%s%s", name,
			    section != NULL ? " under .Ss " : "",
			    section != NULL ? section : "");
		if (k->sub == NULL)
			continue;
		snprintf(sub, sizeof sub, "%s%s.", name,
		    k->type == REPORT_SCHEMA_ARRAY ? "[]" : "");
		if (k->sub->man_section != NULL)
			t_documented(w, k->sub, "", k->sub->man_section);
		else
			t_documented(w, k->sub, sub, section);
	}
}

/* The row of t (INLINE tables included) named name, or NULL. */
static const struct report_schema_key *
t_find(const struct report_schema *t, const char *name)
{
	const struct report_schema_key	*k;
	size_t				 i;

	for (i = 0; i < t->nkeys; i++) {
		k = &t->keys[i];
		if (k->flags & REPORT_SCHEMA_INLINE) {
			if ((k = t_find(k->sub, name)) != NULL)
				return (k);
		} else if (strcmp(k->name, name) == 0)
			return (k);
	}
	return (NULL);
}

/* Every key of the JSON object o (at path) is a row of t. */
static void
t_keys_in_table(struct t_walk *w, const struct report_schema *t,
    const json_t *o, const char *path)
{
	const struct report_schema_key	*k;
	const char			*name;
	json_t				*v, *e;
	char				 p[256];
	size_t				 i;

	json_object_foreach((json_t *)o, name, v) {
		snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", name);
		if ((k = t_find(t, name)) == NULL) {
			t_error(w, "%s: in the report, not in the table", p);
			continue;
		}
		t_set_add(&w->rows, k);
		if (k->sub == NULL)
			continue;
		if (k->type == REPORT_SCHEMA_OBJECT) {
			t_keys_in_table(w, k->sub, v, p);
			continue;
		}
		json_array_foreach(v, i, e) {
			snprintf(p, sizeof p, "%s%s%s[%zu]", path,
			    *path ? "." : "", name, i);
			t_keys_in_table(w, k->sub, e, p);
		}
	}
}

/* Every row of t was met in the report. */
static void
t_rows_met(struct t_walk *w, const struct report_schema *t,
    const char *prefix)
{
	const struct report_schema_key	*k;
	char				 name[256];
	size_t				 i;

	for (i = 0; i < t->nkeys; i++) {
		k = &t->keys[i];
		if (k->flags & REPORT_SCHEMA_INLINE) {
			t_rows_met(w, k->sub, prefix);
			continue;
		}
		snprintf(name, sizeof name, "%s%s", prefix, k->name);
		if (!t_set_has(&w->rows, k))
			t_error(w, "%s: not in the full report (make the "
			    "test's run produce it)", name);
		else if (k->sub != NULL) {
			snprintf(name, sizeof name, "%s%s%s.", prefix, k->name,
			    k->type == REPORT_SCHEMA_ARRAY ? "[]" : "");
			t_rows_met(w, k->sub, name);
		}
	}
}

static int
t_run(const char *cmd)
{
	int	status = system(cmd);

	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Write text to t_dir/name. */
static int
t_write(const char *name, const char *text)
{
	char	 path[600];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", t_dir, name);
	if ((f = fopen(path, "w")) == NULL)
		return (-1);
	fputs(text, f);
	return (fclose(f));
}

/*
 * A run that stopped on a fault, which the simulator cannot make: its
 * key added to full report i (and its first target) and written back as
 * tierprobe writes it.
 */
static int
t_add_fault(int i)
{
	json_t	*f, *targets;
	char	*cmd, raw[600];
	int	 ret;

	f = json_pack("{s:s, s:i, s:s, s:s}", "reason", "io-error", "errno",
	    5, "phase", "limits", "message", "t.dat: I/O error or short read");
	if (f == NULL)
		return (-1);
	json_object_set(t_full_json[i], "fault", f);
	if ((targets = json_object_get(t_full_json[i], "targets")) != NULL)
		json_object_set(json_array_get(targets, 0), "fault", f);
	json_decref(f);
	snprintf(raw, sizeof raw, "%s/raw%d.json", t_dir, i);
	if (json_dump_file(t_full_json[i], raw, 0) != 0)
		return (-1);
	json_decref(t_full_json[i]);
	xasprintf(&cmd, "'%s' report %s --output-format json > %s",
	    getenv("TIERPROBE"), raw, t_full[i]);
	ret = t_run(cmd);
	free(cmd);
	if (ret != 0 || (t_full_json[i] = json_load_file(t_full[i], 0,
	    NULL)) == NULL)
		return (-1);
	return (0);
}

static int
t_setup(void **state)
{
	char	*cmd;
	int	 i;

	(void)state;
	t_dir = t_tmpdir();
	for (i = 0; i < T_DOCS; i++)
		snprintf(t_full[i], sizeof t_full[i], "%s/full%d.json", t_dir,
		    i);
	if (t_write("full.ini", t_profile) != 0 ||
	    t_write("vol.ini", t_volume) != 0 ||
	    t_write("inst.ini", t_instance) != 0)
		return (-1);
	/* EBS's counters from pages: the sustained run reads and writes. */
	xasprintf(&cmd, "mkdir %s/ebs && p=$(dirname '%s')/../tests/t_ebspage "
	    "&& $p %s/ebs/default read_bin=0:100:0 read_bin=100:200:0 "
	    "write_bin=0:100:0 && $p %s/ebs/sustained-after read_ops=20 "
	    "read_bytes=81920 write_ops=5 write_bytes=20480 read_time=4000 "
	    "write_time=900 instance_iops=9000000 queue=2 read_bin=0:100:4 "
	    "read_bin=100:200:16 write_bin=0:100:5", t_dir, getenv("TIERPROBE"),
	    t_dir, t_dir);
	if (t_run(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		free(cmd);
		return (-1);
	}
	free(cmd);
	/*
	 * The bucket rules out --type instance-store (for its ruled_out_by):
	 * the first run exits 3, as a check does on a type ruled out.
	 */
	xasprintf(&cmd, "TIERPROBE_EBS_LOG_PAGE=%s/ebs "
	    "'%s' run sim:%s/full.ini --min-ws 8M --max-ws 128M "
	    "--points 4 --max-iodepth 8 --sustain 20 --precision 10 "
	    "--max-time 2 --first-touch --repeat 2 --seed 7 --quiet "
	    "--host h1 --kind full --expect 'burst<=1' --type instance-store "
	    "--json %s > /dev/null; [ $? = 3 ] && TIERPROBE_EBS_LOG_PAGE=%s/ebs "
	    "'%s' run sim:%s/vol.ini@%s/inst.ini sim:%s/vol.ini@%s/inst.ini "
	    "--min-ws 8M --max-ws 128M --points 4 --max-iodepth 8 --sustain 5 "
	    "--sustain-together 150 --precision 10 --max-time 2 --seed 7 "
	    "--quiet --json %s > /dev/null", t_dir, getenv("TIERPROBE"), t_dir,
	    t_full[0], t_dir, getenv("TIERPROBE"), t_dir, t_dir, t_dir, t_dir,
	    t_full[1]);
	if (t_run(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		free(cmd);
		return (-1);
	}
	free(cmd);
	for (i = 0; i < T_DOCS; i++)
		if ((t_full_json[i] = json_load_file(t_full[i], 0, NULL)) ==
		    NULL || t_add_fault(i) != 0)
			return (-1);
	return (0);
}

static int
t_teardown(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < T_DOCS; i++)
		json_decref(t_full_json[i]);
	t_rmdir(t_dir);
	free(t_dir);
	return (0);
}

/* The unit a key's name gives (tierprobe-report.5), or NULL. */
static const char *
t_unit_of_name(const char *name)
{
	static const struct {
		const char	*suffix;
		const char	*unit;
	} units[] = {
		{ "_bytes_per_s", "bytes/s" }, { "ops_per_s", "ops/s" },
		{ "_per_s", "bytes/s" },
		{ "_bytes", "bytes" }, { "_us", "us" }, { "_ns", "ns" },
		{ "_s", "s" }, { "_kb", "KiB" }, { "_iops", "IOPS" },
		{ "_ios", "I/Os" },
	};
	size_t	i, n = strlen(name), len;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		len = strlen(units[i].suffix);
		if (n >= len && strcmp(name + n - len, units[i].suffix) == 0)
			return (units[i].unit);
	}
	return (NULL);
}

/*
 * Rows a walker can follow: sizes fit the type, names unique, hooks in
 * pairs, and the unit the name says.
 */
static void
t_table_sane(struct t_walk *w, const struct report_schema *t)
{
	const struct report_schema_key	*k;
	const char			*unit;
	size_t				 i;

	if (t_set_add(&w->tables, t))
		return;
	for (i = 0; i < t->nkeys; i++) {
		k = &t->keys[i];
		unit = k->name != NULL && k->type != REPORT_SCHEMA_OBJECT ?
		    t_unit_of_name(k->name) : NULL;
		if (unit != NULL && (k->unit == NULL ||
		    strcmp(unit, k->unit) != 0))
			t_error(w, "%s.%s: unit %s, the name says %s", t->name,
			    k->name, k->unit != NULL ? k->unit : "none", unit);
		if ((k->get == NULL) != (k->set == NULL) ||
		    (k->name == NULL) != ((k->flags & REPORT_SCHEMA_INLINE) !=
		    0) || (k->name != NULL && t_find(t, k->name) != k)) {
			t_error(w, "%s: row %zu: hooks, name or a duplicate",
			    t->name, i);
			continue;
		}
		if (k->get != NULL)
			continue;
		switch (k->type) {
		case REPORT_SCHEMA_UINT:
		case REPORT_SCHEMA_UINT_NULL:
			if (k->size == 4 || k->size == 8)
				continue;
			break;
		case REPORT_SCHEMA_REAL:
			if (k->size == sizeof(double))
				continue;
			break;
		case REPORT_SCHEMA_BOOL:
		case REPORT_SCHEMA_BOOL_NULL:
			if (k->size == sizeof(int))
				continue;
			break;
		case REPORT_SCHEMA_WORD:
			if (k->size == sizeof(int) && k->word != NULL &&
			    k->word(0) != NULL)
				continue;
			break;
		case REPORT_SCHEMA_WORD_NULL:
			if (k->size == sizeof(int) && k->word != NULL &&
			    k->word(0) == NULL && k->word(1) != NULL)
				continue;
			break;
		case REPORT_SCHEMA_STRING:
		case REPORT_SCHEMA_STRING_NULL:
			if (k->size > 1)
				continue;
			break;
		case REPORT_SCHEMA_OBJECT:
		case REPORT_SCHEMA_ARRAY:
			if (k->sub != NULL) {
				t_table_sane(w, k->sub);
				continue;
			}
			break;
		}
		t_error(w, "%s.%s: size %zu, word or sub does not fit its "
		    "type", t->name, k->name, k->size);
	}
}

static void
test_table_sane(void **state)
{
	struct t_walk	w;

	(void)state;
	memset(&w, 0, sizeof w);
	t_table_sane(&w, &report_schema_root);
	assert_int_equal(w.errors, 0);
}

/*
 * Every key of the full report is a row, every row is in the full report
 * and documented, and the page documents no key the table lacks.
 */
static void
test_documented(void **state)
{
	struct t_man	man;
	struct t_walk	w;
	json_t		*u;
	size_t		i;

	(void)state;
	t_man_load(&man);
	memset(&w, 0, sizeof w);
	w.man = &man;
	for (i = 0; i < T_DOCS; i++)
		t_keys_in_table(&w, &report_schema_root, t_full_json[i], "");
	/* A class no tier explains leaves the tiers out: a fixture has it. */
	assert_non_null(u = json_load_file(t_data("report-unexplained.json"),
	    0, NULL));
	t_keys_in_table(&w, &report_schema_root, u, "");
	json_decref(u);
	t_rows_met(&w, &report_schema_root, "");
	t_documented(&w, &report_schema_root, "", NULL);
	for (i = 0; i < man.n; i++)
		if (!man.used[i])
			t_error(&w, "tierprobe-report.5 documents %s (.Ss %s), "
			    "which the table lacks", man.tag[i],
			    man.section[i]);
	t_man_free(&man);
	assert_int_equal(w.errors, 0);
}

/* report --output-format json of a saved full report gives its bytes. */
static void
t_round_trip(const char *full)
{
	char	*cmd, back[600], *a, *b;
	size_t	 alen, blen, i, line, bol;

	snprintf(back, sizeof back, "%s/back.json", t_dir);
	xasprintf(&cmd, "'%s' report %s --output-format json > %s",
	    getenv("TIERPROBE"), full, back);
	assert_int_equal(t_run(cmd), 0);
	free(cmd);
	assert_non_null(a = t_slurp(full, &alen));
	assert_non_null(b = t_slurp(back, &blen));
	for (i = 0, line = 1, bol = 0; i < alen && i < blen && a[i] == b[i];
	    i++) {
		if (a[i] == '\n') {
			line++;
			bol = i + 1;
		}
	}
	if (i < alen || i < blen)
		fail_msg("%s: line %zu differs: saved \"%.*s\", reloaded "
		    "\"%.*s\"", full, line, (int)strcspn(a + bol, "\n"),
		    a + bol, (int)strcspn(b + bol, "\n"), b + bol);
	free(a);
	free(b);
}

static void
test_full_round_trip(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < T_DOCS; i++)
		t_round_trip(t_full[i]);
}

/* A value of the type of k other than v, or NULL where none applies. */
static json_t *
t_other(const struct report_schema_key *k, const json_t *v)
{
	json_int_t	 i;
	double		 d;
	const char	*w;
	char		 buf[32];
	int		 n;

	if (k->flags & (REPORT_SCHEMA_CONST | REPORT_SCHEMA_ALIAS) ||
	    (k->shown != NULL && json_is_null(v)))
		return (NULL);
	switch (k->type) {
	case REPORT_SCHEMA_UINT:
	case REPORT_SCHEMA_UINT_NULL:
		if (json_is_null(v))
			return (json_integer(7));
		if (!json_is_integer(v))
			return (NULL);
		i = json_integer_value(v) ^ 1;
		return (json_integer(i != 0 ? i : 2));
	case REPORT_SCHEMA_REAL:
		/*
		 * Another possible figure (report-load.c refuses impossible
		 * ones): the low end of an interval halved, others doubled,
		 * an unknown high end far above its low.
		 */
		d = json_is_null(v) ? 0 : json_number_value(v);
		if (d == 0)
			return (json_real(strstr(k->name, "high") != NULL ?
			    1e9 : 1.5));
		/* To the 6 digits the writer keeps. */
		snprintf(buf, sizeof buf, "%.6g", strstr(k->name, "low") !=
		    NULL ? d / 2 : d * 2);
		return (json_real(strtod(buf, NULL)));
	case REPORT_SCHEMA_BOOL:
	case REPORT_SCHEMA_BOOL_NULL:
		return (json_boolean(!json_is_true(v)));
	case REPORT_SCHEMA_STRING:
	case REPORT_SCHEMA_STRING_NULL:
		/* A time is another date, not any string. */
		if (strstr(k->name, "_utc") != NULL)
			return (json_string(json_is_string(v) && strcmp(
			    json_string_value(v), "2001-02-03T04:05:06Z") == 0 ?
			    "2002-03-04T05:06:07Z" : "2001-02-03T04:05:06Z"));
		return (json_string(json_is_string(v) &&
		    strcmp(json_string_value(v), "x") == 0 ? "y" : "x"));
	case REPORT_SCHEMA_WORD:
		for (n = 0; (w = k->word(n)) != NULL; n++)
			if (strcmp(w, json_string_value(v)) == 0)
				break;
		return (json_string(k->word(n + 1) != NULL ?
		    k->word(n + 1) : k->word(0)));
	case REPORT_SCHEMA_WORD_NULL:
		if (json_is_null(v))
			return (json_string(k->word(1)));
		for (n = 1; (w = k->word(n)) != NULL; n++)
			if (strcmp(w, json_string_value(v)) == 0)
				break;
		return (k->word(n + 1) != NULL ? json_string(k->word(n + 1)) :
		    json_null());
	case REPORT_SCHEMA_OBJECT:
	case REPORT_SCHEMA_ARRAY:
		break;
	}
	return (NULL);
}

/* A path into a JSON document: keys and array indices. */
struct t_path {
	size_t		 n;
	const char	*key[16];
	size_t		 index[16];	/* with key NULL */
};

static json_t *
t_path_get(json_t *v, const struct t_path *p)
{
	size_t	i;

	for (i = 0; i < p->n && v != NULL; i++)
		v = p->key[i] != NULL ? json_object_get(v, p->key[i]) :
		    json_array_get(v, p->index[i]);
	return (v);
}

static void
t_path_print(const struct t_path *p, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < p->n && off < len; i++) {
		if (p->key[i] != NULL)
			off += snprintf(buf + off, len - off, "%s%s",
			    i > 0 ? "." : "", p->key[i]);
		else
			off += snprintf(buf + off, len - off, "[%zu]",
			    p->index[i]);
	}
}

/* root saved, loaded and dumped again; NULL when refused. */
static json_t *
t_reload(json_t *root)
{
	struct report	 r;
	json_t		*back;
	char		 file[600], *cause = NULL, *s;
	FILE		*f;

	snprintf(file, sizeof file, "%s/unchanged.json", t_dir);
	assert_non_null(f = fopen(file, "w"));
	assert_int_equal(json_dumpf(root, f, T_FLAGS), 0);
	fclose(f);
	if (report_load(file, &r, &cause) != 0) {
		free(cause);
		return (NULL);
	}
	s = t_json(&r);
	report_free(&r);
	back = json_loads(s, 0, NULL);
	free(s);
	return (back);
}

/*
 * Change the value of k in o (at path p of root) to another one, save
 * root, load and dump it: the dump must hold the new value, or for a
 * DERIVED key the one derived from the rest (root unchanged, reloaded:
 * t_first_only's cut arrays may derive another value than the file's).
 */
static void
t_change(struct t_walk *w, json_t *root, json_t *o,
    const struct report_schema_key *k, struct t_path *p)
{
	struct report	 r;
	json_t		*old, *new, *back, *base = NULL;
	char		 file[600], where[256], *cause = NULL, *s;
	FILE		*f;

	old = json_object_get(o, k->name);
	if ((new = t_other(k, old)) == NULL)
		return;
	json_incref(old);
	json_object_set(o, k->name, new);
	snprintf(file, sizeof file, "%s/changed.json", t_dir);
	assert_non_null(f = fopen(file, "w"));
	assert_int_equal(json_dumpf(root, f, T_FLAGS), 0);
	fclose(f);
	json_object_set_new(o, k->name, old);
	t_path_print(p, where, sizeof where);
	if (report_load(file, &r, &cause) != 0) {
		t_error(w, "%s changed: refused: %s", where, cause);
		free(cause);
		json_decref(new);
		return;
	}
	s = t_json(&r);
	report_free(&r);
	back = json_loads(s, 0, NULL);
	free(s);
	if (k->flags & REPORT_SCHEMA_DERIVED) {
		base = t_reload(root);
		old = t_path_get(base, p);
	}
	if ((k->flags & REPORT_SCHEMA_DERIVED) &&
	    !json_equal(t_path_get(back, p), old))
		t_error(w, "%s changed: the dump kept it, not derived again",
		    where);
	else if (!(k->flags & REPORT_SCHEMA_DERIVED) &&
	    !json_equal(t_path_get(back, p), new))
		t_error(w, "%s changed: the dump lost the new value", where);
	json_decref(base);
	json_decref(back);
	json_decref(new);
}

/* The first element of each array and each row of t under o. */
static void
t_change_all(struct t_walk *w, json_t *root, const struct report_schema *t,
    json_t *o, struct t_path *p)
{
	const struct report_schema_key	*k;
	const char			*name;
	json_t				*v;

	assert_true(p->n + 2 < sizeof p->key / sizeof p->key[0]);
	json_object_foreach(o, name, v) {
		if ((k = t_find(t, name)) == NULL)
			continue;
		p->key[p->n++] = k->name;
		if (k->type == REPORT_SCHEMA_OBJECT && k->sub != NULL)
			t_change_all(w, root, k->sub, v, p);
		else if (k->type == REPORT_SCHEMA_ARRAY && k->sub != NULL &&
		    json_array_size(v) > 0) {
			p->key[p->n] = NULL;
			p->index[p->n++] = 0;
			t_change_all(w, root, k->sub, json_array_get(v, 0), p);
			p->n--;
		} else
			t_change(w, root, o, k, p);
		p->n--;
	}
}

/* Keep the first element of each array of objects under o (it is quicker). */
static void
t_first_only(const struct report_schema *t, json_t *o)
{
	const struct report_schema_key	*k;
	const char			*name;
	json_t				*v;

	json_object_foreach(o, name, v) {
		if ((k = t_find(t, name)) == NULL || k->sub == NULL)
			continue;
		if (k->type == REPORT_SCHEMA_ARRAY) {
			while (json_array_size(v) > 1)
				json_array_remove(v, 1);
			v = json_array_get(v, 0);
		}
		if (v != NULL)
			t_first_only(k->sub, v);
	}
}

/* Any one value changed in the full report survives a load and a dump. */
static void
test_values_survive(void **state)
{
	struct t_walk	w;
	struct t_path	p;
	json_t		*root;
	int		 i;

	(void)state;
	memset(&w, 0, sizeof w);
	for (i = 0; i < T_DOCS; i++) {
		memset(&p, 0, sizeof p);
		root = json_deep_copy(t_full_json[i]);
		t_first_only(&report_schema_root, root);
		t_change_all(&w, root, &report_schema_root, root, &p);
		json_decref(root);
	}
	assert_int_equal(w.errors, 0);
}

/* Every value of a, at least, is in b (numbers to 6 digits). */
static void
t_subset(struct t_walk *w, const json_t *a, const json_t *b,
    const char *path)
{
	const char	*name;
	json_t		*v;
	char		 p[256], x[32], y[32];
	size_t		 i;

	if (json_is_number(a) && json_is_number(b)) {
		snprintf(x, sizeof x, "%.6g", json_number_value(a));
		snprintf(y, sizeof y, "%.6g", json_number_value(b));
		if (strcmp(x, y) != 0)
			t_error(w, "%s: %s became %s", path, x, y);
	} else if (json_is_object(a) && json_is_object(b)) {
		json_object_foreach((json_t *)a, name, v) {
			snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "",
			    name);
			if (json_object_get(b, name) == NULL)
				t_error(w, "%s: dropped", p);
			else
				t_subset(w, v, json_object_get(b, name), p);
		}
	} else if (json_is_array(a) && json_is_array(b) &&
	    json_array_size(a) == json_array_size(b)) {
		json_array_foreach((json_t *)a, i, v) {
			snprintf(p, sizeof p, "%s[%zu]", path, i);
			t_subset(w, v, json_array_get(b, i), p);
		}
	} else if (!json_equal((json_t *)a, (json_t *)b))
		t_error(w, "%s: changed", path);
}

/*
 * The fixtures, written by make-fixtures.py and some older than keys the
 * writer adds: every key survives with its value, and the dump is a fixed
 * point of load and dump.
 */
static void
test_fixtures_survive(void **state)
{
	static const char *const names[] = { "report-scan.json",
	    "report-scan-b.json", "report-limits.json",
	    "report-interrupted.json", "report-nulls.json",
	    "report-unexplained.json" };
	struct t_walk	 w;
	struct report	 r;
	json_t		*a, *b;
	char		*s, *s2, *cause = NULL, file[600];
	size_t		 i;
	FILE		*f;

	(void)state;
	memset(&w, 0, sizeof w);
	snprintf(file, sizeof file, "%s/fixture.json", t_dir);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		assert_non_null(a = json_load_file(t_data(names[i]), 0, NULL));
		if (report_load(t_data(names[i]), &r, &cause) != 0)
			fail_msg("%s", cause);
		s = t_json(&r);
		report_free(&r);
		assert_non_null(b = json_loads(s, 0, NULL));
		t_subset(&w, a, b, names[i]);
		json_decref(a);
		json_decref(b);
		assert_non_null(f = fopen(file, "w"));
		fputs(s, f);
		fclose(f);
		if (report_load(file, &r, &cause) != 0)
			fail_msg("%s dumped: %s", names[i], cause);
		s2 = t_json(&r);
		report_free(&r);
		if (strcmp(s, s2) != 0)
			t_error(&w, "%s: a second load and dump differs",
			    names[i]);
		free(s);
		free(s2);
	}
	assert_int_equal(w.errors, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sane),
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_full_round_trip),
		cmocka_unit_test(test_values_survive),
		cmocka_unit_test(test_fixtures_survive),
	};

	if (getenv("TIERPROBE") == NULL) {
		fprintf(stderr, "test_report_schema: TIERPROBE not set\n");
		return (77);
	}
	return (cmocka_run_group_tests(tests, t_setup, t_teardown));
}
