/* SPDX-License-Identifier: ISC */
/*
 * Volume types as data: the type file's INI (inih) into formulas, a
 * type's figures at a size with its settings, and "gp3:500G,iops=6000".
 */
#include <ctype.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formula.h"
#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

#define VOLTYPE_MIB	1048576.0
#define VOLTYPE_GIB	1073741824.0

/* Figure names, by enum voltype_fig: the [figures] keys. */
static const char *const voltype_fig_names[VOLTYPE_NFIGS] = {
	[VOLTYPE_IOPS] = "iops",
	[VOLTYPE_BANDWIDTH] = "bandwidth",
	[VOLTYPE_IO_ACCOUNTING] = "io_accounting",
	[VOLTYPE_BURST_IOPS] = "burst_iops",
	[VOLTYPE_BURST_CREDITS] = "burst_credits",
	[VOLTYPE_BURST_BANDWIDTH] = "burst_bandwidth",
	[VOLTYPE_BURST_CREDIT_GIB] = "burst_credit_gib",
	[VOLTYPE_CHARGE_MIN] = "charge_min",
};

/* Sections of a simulated profile a type may not give: it makes them. */
static const char *const voltype_sim_own[] = { "limit", "burst", "promise",
    "instance" };
static const char *const voltype_sim_own_device[] = { "name", "description",
    "size", "model", "type" };

enum { VOLTYPE_DFLT, VOLTYPE_MIN, VOLTYPE_MAX };

/* A formula's text and line until the whole file is read. */
struct voltype_text {
	char	*text;
	int	 line;
};

struct voltype_ctx {
	const char		*buf;
	size_t			 len, off;
	const char		*path;
	int			 line;
	char			*cause;
	struct voltype		*t;
	int			 key_line[16];	/* [type] keys */
	struct voltype_text	 fig[VOLTYPE_NFIGS];
	struct voltype_text	 set[VOLTYPE_SETTINGS_MAX][3];
	int			 set_line[VOLTYPE_SETTINGS_MAX];
	char			*sim_section;	/* last one written */
};

static void
voltype_error(struct voltype_ctx *ctx, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keep the first error: "file:line: message". */
static void
voltype_error(struct voltype_ctx *ctx, int line, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	xcause_at(&ctx->cause, ctx->path, line, fmt, ap);
	va_end(ap);
}

/* A "[section]" line: unknown ones are errors, even when empty. */
static void
voltype_section_line(struct voltype_ctx *ctx, const char *line)
{
	size_t	len = strcspn(line + 1, "]");

	if (line[1 + len] != ']')
		return;		/* inih reports the syntax error */
	if ((len == 4 && strncmp(line + 1, "type", 4) == 0) ||
	    (len == 7 && strncmp(line + 1, "figures", 7) == 0) ||
	    (len > 8 && strncmp(line + 1, "setting.", 8) == 0) ||
	    (len > 4 && strncmp(line + 1, "sim.", 4) == 0))
		return;
	voltype_error(ctx, ctx->line, "[%.*s]: use [type], [figures], "
	    "[setting.NAME] or [sim.SECTION]", (int)len, line + 1);
}

/*
 * inih's reader over the buffer: counts lines, strips indentation (no
 * continuation lines), refuses NUL bytes and over-long lines.
 */
static char *
voltype_reader(char *str, int num, void *stream)
{
	struct voltype_ctx	*ctx = stream;
	size_t			 n = 0, skip;

	if (ctx->off >= ctx->len)
		return (NULL);
	ctx->line++;
	while (ctx->off < ctx->len && n + 1 < (size_t)num) {
		str[n] = ctx->buf[ctx->off++];
		if (str[n] == '\0')
			voltype_error(ctx, ctx->line, "a NUL byte");
		if (str[n++] == '\n')
			break;
	}
	str[n] = '\0';
	if (n > 0 && str[n - 1] != '\n' && ctx->off < ctx->len) {
		voltype_error(ctx, ctx->line, "line longer than %d characters",
		    num - 2);
		while (ctx->off < ctx->len && ctx->buf[ctx->off++] != '\n')
			;
		str[0] = '\0';
	}
	skip = strspn(str, " \t");
	memmove(str, str + skip, strlen(str + skip) + 1);
	if (str[0] == '[')
		voltype_section_line(ctx, str);
	return (str);
}

static int
voltype_number(const char *s, double *out)
{
	char	*end;

	if (*s == '\0' || isspace((unsigned char)*s))
		return (-1);
	*out = strtod(s, &end);
	return (*end != '\0' || !isfinite(*out) ? -1 : 0);
}

/* A [type] key. */
static void
voltype_type_key(struct voltype_ctx *ctx, const char *name, const char *value)
{
	static const char *const keys[] = { "name", "description", "model",
	    "source", "note", "size_min", "size_max", "tolerance", "of_time",
	    "latency_us_max" };
	struct voltype	*t = ctx->t;
	char		**s = NULL;
	double		*d = NULL, v;
	size_t		 i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(name, keys[i]) == 0)
			break;
	if (i == sizeof keys / sizeof keys[0]) {
		voltype_error(ctx, ctx->line, "[type] %s: unknown key (name, "
		    "description, model, source, note, size_min, size_max, "
		    "tolerance, of_time, latency_us_max)", name);
		return;
	}
	if (ctx->key_line[i] != 0) {
		voltype_error(ctx, ctx->line, "[type] %s: given twice (first "
		    "on line %d)", name, ctx->key_line[i]);
		return;
	}
	ctx->key_line[i] = ctx->line;
	switch (i) {
	case 0: s = &t->name; break;
	case 1: s = &t->description; break;
	case 2: s = &t->model; break;
	case 3: s = &t->source; break;
	case 4: s = &t->note; break;
	case 5: d = &t->size_min; break;
	case 6: d = &t->size_max; break;
	case 7: d = &t->tolerance_pct; break;
	case 8: d = &t->of_time_pct; break;
	default: d = &t->latency_us_max; break;
	}
	if (s != NULL) {
		*s = xstrdup(value);
		return;
	}
	if (voltype_number(value, &v) != 0 || v < 0 || ((i == 7 || i == 8) &&
	    v > 100)) {
		voltype_error(ctx, ctx->line, "[type] %s: \"%s\" is not a "
		    "number%s", name, value, i == 7 || i == 8 ? " from 0 to "
		    "100" : i == 9 ? " of microseconds, 0 or more" : " of GiB, "
		    "0 or more");
		return;
	}
	*d = v;
}

/* Keep a formula's text and line: it is parsed once the file is read. */
static void
voltype_keep(struct voltype_ctx *ctx, struct voltype_text *k,
    const char *section, const char *name, const char *value)
{
	if (k->text != NULL) {
		voltype_error(ctx, ctx->line, "[%s] %s: given twice (first on "
		    "line %d)", section, name, k->line);
		return;
	}
	k->text = xstrdup(value);
	k->line = ctx->line;
}

/* A [setting.NAME] key. */
static void
voltype_setting_key(struct voltype_ctx *ctx, const char *section,
    const char *name, const char *value)
{
	struct voltype		*t = ctx->t;
	struct voltype_setting	*s;
	const char		*sname = section + 8;
	size_t			 i, len = strlen(sname);

	if (len == 0 || len >= VOLTYPE_NAME_MAX || !isalpha((unsigned char)
	    *sname) || strspn(sname, "abcdefghijklmnopqrstuvwxyz_0123456789")
	    != len) {
		voltype_error(ctx, ctx->line, "[%s]: a setting's name is "
		    "lower-case letters, digits and '_'", section);
		return;
	}
	for (i = 0; i < t->nsettings; i++)
		if (strcmp(t->setting[i].name, sname) == 0)
			break;
	if (i == t->nsettings) {
		if (i == VOLTYPE_SETTINGS_MAX) {
			voltype_error(ctx, ctx->line, "[%s]: more than %d "
			    "settings", section, VOLTYPE_SETTINGS_MAX);
			return;
		}
		snprintf(t->setting[i].name, sizeof t->setting[i].name, "%s",
		    sname);
		ctx->set_line[i] = ctx->line;
		t->nsettings++;
	}
	s = &t->setting[i];
	if (strcmp(name, "default") == 0)
		voltype_keep(ctx, &ctx->set[i][VOLTYPE_DFLT], section, name,
		    value);
	else if (strcmp(name, "min") == 0)
		voltype_keep(ctx, &ctx->set[i][VOLTYPE_MIN], section, name,
		    value);
	else if (strcmp(name, "max") == 0)
		voltype_keep(ctx, &ctx->set[i][VOLTYPE_MAX], section, name,
		    value);
	else if (strcmp(name, "unit") == 0) {
		if (strcmp(value, "MiB/s") != 0 && strcmp(value, "IOPS") != 0)
			voltype_error(ctx, ctx->line, "[%s] unit: IOPS or "
			    "MiB/s, not \"%s\"", section, value);
		s->mib = strcmp(value, "MiB/s") == 0;
	} else
		voltype_error(ctx, ctx->line, "[%s] %s: unknown key (default, "
		    "min, max, unit)", section, name);
}

/* A [sim.SECTION] key: kept as the profile INI a simulated one adds. */
static void
voltype_sim_key(struct voltype_ctx *ctx, const char *section,
    const char *name, const char *value)
{
	const char	*sub = section + 4;
	char		*tmp;
	size_t		 i;

	for (i = 0; i < sizeof voltype_sim_own / sizeof voltype_sim_own[0];
	    i++) {
		if (strcmp(sub, voltype_sim_own[i]) == 0) {
			voltype_error(ctx, ctx->line, "[%s]: the type's "
			    "figures make [%s]", section, sub);
			return;
		}
	}
	for (i = 0; strcmp(sub, "device") == 0 && i <
	    sizeof voltype_sim_own_device / sizeof voltype_sim_own_device[0];
	    i++) {
		if (strcmp(name, voltype_sim_own_device[i]) == 0) {
			voltype_error(ctx, ctx->line, "[%s] %s: made from the "
			    "type and the spec", section, name);
			return;
		}
	}
	if (*sub == '\0' || strpbrk(sub, "[]\n") != NULL ||
	    strpbrk(name, "=\n") != NULL || strchr(value, '\n') != NULL) {
		voltype_error(ctx, ctx->line, "[%s]: not a profile section",
		    section);
		return;
	}
	if (ctx->sim_section == NULL || strcmp(ctx->sim_section, sub) != 0) {
		free(ctx->sim_section);
		ctx->sim_section = xstrdup(sub);
		xasprintf(&tmp, "%s[%s]\n", ctx->t->sim_ini != NULL ?
		    ctx->t->sim_ini : "", sub);
		free(ctx->t->sim_ini);
		ctx->t->sim_ini = tmp;
	}
	xasprintf(&tmp, "%s%s = %s\n", ctx->t->sim_ini, name, value);
	free(ctx->t->sim_ini);
	ctx->t->sim_ini = tmp;
}

static int
voltype_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct voltype_ctx	*ctx = user;
	size_t			 i;

	if (ctx->cause != NULL)
		return (0);
	if (strcmp(section, "type") == 0)
		voltype_type_key(ctx, name, value);
	else if (strcmp(section, "figures") == 0) {
		for (i = 0; i < VOLTYPE_NFIGS; i++)
			if (strcmp(name, voltype_fig_names[i]) == 0)
				break;
		if (i == VOLTYPE_NFIGS)
			voltype_error(ctx, ctx->line, "[figures] %s: unknown "
			    "figure (iops, bandwidth, io_accounting, "
			    "burst_iops, burst_credits, burst_bandwidth, "
			    "burst_credit_gib, charge_min)", name);
		else
			voltype_keep(ctx, &ctx->fig[i], section, name, value);
	} else if (strncmp(section, "setting.", 8) == 0)
		voltype_setting_key(ctx, section, name, value);
	else if (strncmp(section, "sim.", 4) == 0)
		voltype_sim_key(ctx, section, name, value);
	else
		voltype_error(ctx, ctx->line, "%s%s%s: use [type], [figures], "
		    "[setting.NAME] or [sim.SECTION]", *section != '\0' ? "[" :
		    "", *section != '\0' ? section : "a key outside a section",
		    *section != '\0' ? "]" : "");
	return (ctx->cause == NULL);
}

/* Parse k (when given) with names; NULL and no error when not given. */
static struct formula *
voltype_formula(struct voltype_ctx *ctx, const struct voltype_text *k,
    const char *what, const char *const *names, size_t n)
{
	struct formula	*f;
	char		*why = NULL;

	if (k->text == NULL || ctx->cause != NULL)
		return (NULL);
	if ((f = formula_parse(k->text, names, n, &why)) == NULL) {
		voltype_error(ctx, k->line, "%s: %s", what, why);
		free(why);
	}
	return (f);
}

/* The formulas, in the order they may use each other; what goes together. */
static void
voltype_check(struct voltype_ctx *ctx)
{
	static const char *const which[] = { "default", "min", "max" };
	struct voltype	*t = ctx->t;
	const char	*names[1 + VOLTYPE_SETTINGS_MAX + VOLTYPE_NFIGS];
	char		 what[64];
	size_t		 i, n = 0;
	int		 k;

	if (t->name == NULL || *t->name == '\0') {
		voltype_error(ctx, 0, "[type] name is missing");
		return;
	}
	if (strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789-_.") !=
	    strlen(t->name) || strlen(t->name) >= VOLTYPE_NAME_MAX) {
		voltype_error(ctx, ctx->key_line[0], "[type] name: lower-case "
		    "letters, digits, '-', '_' and '.', under %d characters",
		    VOLTYPE_NAME_MAX);
		return;
	}
	if (t->source == NULL || *t->source == '\0') {
		voltype_error(ctx, 0, "[type] source is missing: say which "
		    "document, and of which year, the rules come from");
		return;
	}
	if (t->size_max < t->size_min) {
		voltype_error(ctx, ctx->key_line[6], "[type] size_max: below "
		    "size_min");
		return;
	}
	names[n++] = "size";
	for (i = 0; i < t->nsettings; i++) {
		if (ctx->set[i][VOLTYPE_MIN].text == NULL ||
		    ctx->set[i][VOLTYPE_MAX].text == NULL) {
			voltype_error(ctx, ctx->set_line[i], "[setting.%s]: "
			    "min and max are required", t->setting[i].name);
			return;
		}
		for (k = 0; k < 3; k++) {
			snprintf(what, sizeof what, "[setting.%s] %s",
			    t->setting[i].name, which[k]);
			*(k == VOLTYPE_DFLT ? &t->setting[i].dflt :
			    k == VOLTYPE_MIN ? &t->setting[i].min :
			    &t->setting[i].max) = voltype_formula(ctx,
			    &ctx->set[i][k], what, names, n);
		}
		names[n++] = t->setting[i].name;
	}
	for (i = 0; i < VOLTYPE_NFIGS; i++) {
		snprintf(what, sizeof what, "[figures] %s",
		    voltype_fig_names[i]);
		t->fig[i] = voltype_formula(ctx, &ctx->fig[i], what, names, n);
		names[n++] = voltype_fig_names[i];
	}
	if (ctx->cause != NULL)
		return;
	if ((t->fig[VOLTYPE_BURST_IOPS] != NULL) !=
	    (t->fig[VOLTYPE_BURST_CREDITS] != NULL))
		voltype_error(ctx, 0, "[figures] burst_iops and burst_credits "
		    "go together");
	else if ((t->fig[VOLTYPE_BURST_BANDWIDTH] != NULL) !=
	    (t->fig[VOLTYPE_BURST_CREDIT_GIB] != NULL))
		voltype_error(ctx, 0, "[figures] burst_bandwidth and "
		    "burst_credit_gib go together");
}

/* The file's name without directory and ".ini". */
static char *
voltype_default_name(const char *path)
{
	const char	*b = strrchr(path, '/');
	char		*name = xstrdup(b != NULL ? b + 1 : path);
	size_t		 len = strlen(name);

	if (len > 4 && strcmp(name + len - 4, ".ini") == 0)
		name[len - 4] = '\0';
	return (name);
}

/* Parse the text of a type file; see voltype.h. */
struct voltype *
voltype_parse(const char *buf, size_t len, const char *path, char **cause)
{
	struct voltype_ctx	 ctx;
	size_t			 i;
	int			 r, k;

	memset(&ctx, 0, sizeof ctx);
	ctx.buf = buf;
	ctx.len = len;
	ctx.path = path;
	ctx.t = xcalloc(1, sizeof *ctx.t);
	ctx.t->path = xstrdup(path);
	ctx.t->size_max = INFINITY;
	ctx.t->tolerance_pct = NAN;
	ctx.t->of_time_pct = NAN;
	ctx.t->latency_us_max = NAN;
	r = ini_parse_stream(voltype_reader, &ctx, voltype_handler, &ctx);
	if (r == -2)
		voltype_error(&ctx, 0, "out of memory");
	else if (r > 0)
		voltype_error(&ctx, r, "syntax error: expected [section], "
		    "key = value or a ; comment");
	if (ctx.cause == NULL && ctx.t->name == NULL)
		ctx.t->name = voltype_default_name(path);
	if (ctx.cause == NULL)
		voltype_check(&ctx);
	for (i = 0; i < VOLTYPE_NFIGS; i++)
		free(ctx.fig[i].text);
	for (i = 0; i < VOLTYPE_SETTINGS_MAX; i++)
		for (k = 0; k < 3; k++)
			free(ctx.set[i][k].text);
	free(ctx.sim_section);
	if (ctx.cause != NULL) {
		*cause = ctx.cause;
		voltype_free(ctx.t);
		return (NULL);
	}
	if (ctx.t->description == NULL)
		ctx.t->description = xstrdup("");
	return (ctx.t);
}

void
voltype_free(struct voltype *t)
{
	size_t	i;

	if (t == NULL)
		return;
	free(t->name);
	free(t->description);
	free(t->model);
	free(t->source);
	free(t->note);
	free(t->path);
	free(t->sim_ini);
	for (i = 0; i < t->nsettings; i++) {
		formula_free(t->setting[i].dflt);
		formula_free(t->setting[i].min);
		formula_free(t->setting[i].max);
	}
	for (i = 0; i < VOLTYPE_NFIGS; i++)
		formula_free(t->fig[i]);
	free(t);
}

/* Parse "NAME[:SIZE][,KEY=VALUE...]"; see voltype.h. */
int
voltype_spec_parse(const char *text, int size_required,
    struct voltype_spec *spec, char **cause)
{
	const char	*help = "use TYPE:SIZE[,SETTING=VALUE...], as in "
			    "gp2:250G or gp3:500G,iops=6000,throughput=250M";
	char		*s, *p, *item, *eq, *colon, *save, *why = NULL;
	size_t		 i;

	memset(spec, 0, sizeof *spec);
	if (!size_required)
		help = "use TYPE[:SIZE][,SETTING=VALUE...], as in gp2 or "
		    "gp3,iops=6000,throughput=250M";
	s = xstrdup(text);
	if ((p = strchr(s, ',')) != NULL)
		*p++ = '\0';
	if ((colon = strrchr(s, ':')) != NULL)
		*colon++ = '\0';
	if (*s == '\0' || strlen(s) >= sizeof spec->name) {
		xasprintf(cause, "\"%s\": no type name: %s", text, help);
		goto fail;
	}
	snprintf(spec->name, sizeof spec->name, "%s", s);
	if (colon == NULL && size_required) {
		xasprintf(cause, "\"%s\": no size: %s", text, help);
		goto fail;
	}
	if (colon != NULL && (units_parse_size(colon, &spec->size_bytes,
	    &why) != 0 || spec->size_bytes == 0)) {
		xasprintf(cause, "\"%s\": size \"%s\": %s", text, colon,
		    why != NULL ? why : "must be more than zero");
		free(why);
		goto fail;
	}
	for (item = p != NULL ? strtok_r(p, ",", &save) : NULL; item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(item, '=')) == NULL || eq == item ||
		    eq[1] == '\0') {
			xasprintf(cause, "\"%s\": \"%s\" is not SETTING=VALUE: "
			    "%s", text, item, help);
			goto fail;
		}
		*eq++ = '\0';
		if (spec->nsettings == VOLTYPE_SETTINGS_MAX ||
		    strlen(item) >= VOLTYPE_NAME_MAX ||
		    strlen(eq) >= VOLTYPE_NAME_MAX) {
			xasprintf(cause, "\"%s\": too many or too long "
			    "settings", text);
			goto fail;
		}
		for (i = 0; i < spec->nsettings; i++) {
			if (strcmp(spec->key[i], item) == 0) {
				xasprintf(cause, "\"%s\": %s given twice",
				    text, item);
				goto fail;
			}
		}
		snprintf(spec->key[spec->nsettings], VOLTYPE_NAME_MAX, "%s",
		    item);
		snprintf(spec->value[spec->nsettings], VOLTYPE_NAME_MAX, "%s",
		    eq);
		spec->nsettings++;
	}
	free(s);
	return (0);
fail:
	free(s);
	return (-1);
}

/* The variables of t's formulas: size, settings, figures (NAN). */
static void
voltype_vars(const struct voltype *t, double size, const double *values,
    double *v)
{
	size_t	i;

	v[0] = size;
	for (i = 0; i < t->nsettings; i++)
		v[1 + i] = values != NULL ? values[i] : NAN;
	for (i = 0; i < VOLTYPE_NFIGS; i++)
		v[1 + t->nsettings + i] = NAN;
}

/* Range of setting i at size with the settings before it. */
void
voltype_setting_range(const struct voltype *t, size_t i, double size,
    const double *values, double *lo, double *hi)
{
	double	v[1 + VOLTYPE_SETTINGS_MAX + VOLTYPE_NFIGS];

	voltype_vars(t, size, values, v);
	*lo = formula_eval(t->setting[i].min, v);
	*hi = formula_eval(t->setting[i].max, v);
}

/* The default of setting i at size with the settings before it. */
double
voltype_setting_default(const struct voltype *t, size_t i, double size,
    const double *values)
{
	double	v[1 + VOLTYPE_SETTINGS_MAX + VOLTYPE_NFIGS];

	if (t->setting[i].dflt == NULL)
		return (NAN);
	voltype_vars(t, size, values, v);
	return (formula_eval(t->setting[i].dflt, v));
}

/* A setting's value as given: IOPS plain, MiB/s plain or as a rate. */
static int
voltype_setting_value(const struct voltype_setting *s, const char *text,
    double *out)
{
	uint64_t	 u;
	char		*v, *why = NULL, *end;
	size_t		 len;
	int		 rc = 0;

	*out = strtod(text, &end);
	if (*end == '\0' && end != text && isfinite(*out) && *out >= 0 &&
	    isdigit((unsigned char)*text))
		return (0);
	if (!s->mib)
		return (-1);
	v = xstrdup(text);
	len = strlen(v);
	if (len > 2 && strcmp(v + len - 2, "/s") == 0)
		v[len - 2] = '\0';
	if (units_parse_size(v, &u, &why) != 0)
		rc = -1;
	else
		*out = (double)u / VOLTYPE_MIB;
	free(why);
	free(v);
	return (rc);
}

/* The settings of spec for t at size; see voltype.h. */
int
voltype_settings(const struct voltype *t, const struct voltype_spec *spec,
    double size, double *values, char **cause)
{
	double	 v[1 + VOLTYPE_SETTINGS_MAX + VOLTYPE_NFIGS], lo, hi;
	char	*list = NULL, *tmp;
	size_t	 i, j;

	for (i = 0; i < t->nsettings; i++)
		values[i] = NAN;
	for (j = 0; j < spec->nsettings; j++) {
		for (i = 0; i < t->nsettings; i++)
			if (strcmp(spec->key[j], t->setting[i].name) == 0)
				break;
		if (i < t->nsettings)
			continue;
		for (i = 0; i < t->nsettings; i++) {
			xasprintf(&tmp, "%s%s%s", list != NULL ? list : "",
			    list != NULL ? ", " : "", t->setting[i].name);
			free(list);
			list = tmp;
		}
		xasprintf(cause, "%s has no setting \"%s\"%s%s", t->name,
		    spec->key[j], list != NULL ? "; it takes " : " (it takes "
		    "none)", list != NULL ? list : "");
		free(list);
		return (-1);
	}
	for (i = 0; i < t->nsettings; i++) {
		voltype_vars(t, size, values, v);
		for (j = 0; j < spec->nsettings; j++)
			if (strcmp(spec->key[j], t->setting[i].name) == 0)
				break;
		if (j < spec->nsettings) {
			if (voltype_setting_value(&t->setting[i],
			    spec->value[j], &values[i]) != 0) {
				xasprintf(cause, "%s %s=%s: not a number%s",
				    t->name, spec->key[j], spec->value[j],
				    t->setting[i].mib ? " of MiB/s or a rate "
				    "(250M)" : "");
				return (-1);
			}
		} else if (t->setting[i].dflt != NULL)
			values[i] = formula_eval(t->setting[i].dflt, v);
		else {
			xasprintf(cause, "%s needs %s=VALUE (it has no "
			    "default)", t->name, t->setting[i].name);
			return (-1);
		}
		voltype_setting_range(t, i, size, values, &lo, &hi);
		if (!(values[i] >= lo * (1 - 1e-9) &&
		    values[i] <= hi * (1 + 1e-9))) {
			xasprintf(cause, "%s at %g GiB takes %s from %g to "
			    "%g%s, not %g", t->name, size, t->setting[i].name,
			    lo, hi, t->setting[i].mib ? " MiB/s" : "",
			    values[i]);
			return (-1);
		}
	}
	return (0);
}

/* A figure's value, NAN when none is imposed (absent, 0 or less). */
static double
voltype_fig(const struct voltype *t, enum voltype_fig k, double *v)
{
	double	x;

	if (t->fig[k] == NULL)
		return (NAN);
	x = formula_eval(t->fig[k], v);
	return (x > 0 ? x : NAN);
}

/* The smaller of a and b, where NAN is no limit. */
static double
voltype_min(double a, double b)
{
	if (isnan(a))
		return (b);
	if (isnan(b))
		return (a);
	return (a < b ? a : b);
}

/* The figures of t at size with values, for I/Os of bs; see voltype.h. */
void
voltype_eval(const struct voltype *t, double size, const double *values,
    uint32_t bs32, struct voltype_figures *f)
{
	double	v[1 + VOLTYPE_SETTINGS_MAX + VOLTYPE_NFIGS], *fig;
	double	bs, peak;
	size_t	i;

	memset(f, 0, sizeof *f);
	voltype_vars(t, size, values, v);
	fig = v + 1 + t->nsettings;
	for (i = 0; i < VOLTYPE_NFIGS; i++)
		f->value[i] = fig[i] = voltype_fig(t, i, v);
	f->size_gib = size;
	f->bs = bs32 > 0 ? bs32 : 4096;
	bs = f->bs;
	f->iops = fig[VOLTYPE_IOPS];
	f->bandwidth = fig[VOLTYPE_BANDWIDTH] * VOLTYPE_MIB;
	f->io_accounting = fig[VOLTYPE_IO_ACCOUNTING] * 1024;
	f->burst_iops = f->burst_credits = NAN;
	if (fig[VOLTYPE_BURST_IOPS] > f->iops &&
	    fig[VOLTYPE_BURST_CREDITS] > 0) {
		f->burst_iops = fig[VOLTYPE_BURST_IOPS];
		f->burst_credits = fig[VOLTYPE_BURST_CREDITS];
	}
	f->burst_bandwidth = f->burst_credit_bytes = NAN;
	if (fig[VOLTYPE_BURST_BANDWIDTH] * VOLTYPE_MIB > f->bandwidth &&
	    fig[VOLTYPE_BURST_CREDIT_GIB] > 0) {
		f->burst_bandwidth = fig[VOLTYPE_BURST_BANDWIDTH] * VOLTYPE_MIB;
		f->burst_credit_bytes = fig[VOLTYPE_BURST_CREDIT_GIB] *
		    VOLTYPE_GIB;
	}
	f->cost = 1;
	if (f->io_accounting > 0 && bs > f->io_accounting)
		f->cost = ceil(bs / f->io_accounting);
	f->charge_min = fig[VOLTYPE_CHARGE_MIN] * 1024;
	f->charge = isfinite(f->charge_min) && f->charge_min > bs ?
	    f->charge_min : bs;
	/* As the simulator's truth: IOPS tokens and bytes both cap. */
	peak = isfinite(f->burst_iops) ? f->burst_iops : f->iops;
	f->fresh_iops = voltype_min(peak / f->cost, (isfinite(
	    f->burst_bandwidth) ? f->burst_bandwidth : f->bandwidth) /
	    f->charge);
	f->long_iops = voltype_min(f->iops / f->cost, f->bandwidth / f->charge);
	f->fresh_bandwidth = voltype_min(isfinite(f->burst_bandwidth) ?
	    f->burst_bandwidth : f->bandwidth, peak * f->io_accounting);
	f->long_bandwidth = voltype_min(f->bandwidth,
	    f->iops * f->io_accounting);
}

/* Settings as "iops=6000,throughput=250" into buf. */
char *
voltype_settings_text(const struct voltype *t, const double *values,
    char *buf, size_t len)
{
	size_t	i, off = 0;
	int	n;

	buf[0] = '\0';
	for (i = 0; i < t->nsettings && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%s=%.6g", i > 0 ? "," :
		    "", t->setting[i].name, values[i]);
		if (n > 0)
			off += (size_t)n;
	}
	return (buf);
}

/* s without leading and trailing blanks, squeezed, into out. */
static void
voltype_squeeze(const char *s, char *out, size_t len)
{
	size_t	n = 0;
	int	space = 0;

	for (; *s != '\0' && n + 1 < len; s++) {
		if (isspace((unsigned char)*s)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < len)
			out[n++] = ' ';
		space = 0;
		out[n++] = *s;
	}
	out[n] = '\0';
}

/* Whether t names itself by model m; see voltype.h. */
int
voltype_model_matches(const struct voltype *t, const char *m)
{
	char	a[160], b[160];

	if (t->model == NULL || m == NULL)
		return (0);
	voltype_squeeze(t->model, a, sizeof a);
	voltype_squeeze(m, b, sizeof b);
	return (*a != '\0' && strcasecmp(a, b) == 0);
}

/*
 * One bucket of the path: an I/O costs it cost units; it admits peak
 * units a second while it holds credits, base once they are spent.
 */
struct voltype_pbucket {
	double	cost;
	double	peak;
	double	base;
	double	credits;		/* 0: a plain ceiling */
	double	period_s;		/* full again; NAN: never */
	int	by;			/* enum voltype_limit */
};

/* The rate the path admits with buckets spent as they are, at most d. */
static double
voltype_path_rate(const struct voltype_pbucket *b, size_t n, const int *spent,
    double d, int *by)
{
	double	r = d, x;
	size_t	i;

	*by = VOLTYPE_LIMIT_NONE;
	for (i = 0; i < n; i++) {
		x = (spent[i] || b[i].credits <= 0 ? b[i].base : b[i].peak) /
		    b[i].cost;
		if (isfinite(x) && !(x >= r)) {
			r = x;
			*by = b[i].by;
		}
	}
	return (r);
}

/* Add a bucket (or a plain ceiling, credits 0) to b[*n] when imposed. */
static void
voltype_path_add(struct voltype_pbucket *b, size_t *n, double cost,
    double peak, double base, double credits, double period_s, int by)
{
	if (!isfinite(base) || !(base > 0) || !(cost > 0))
		return;
	b[*n].cost = cost;
	b[*n].base = base;
	b[*n].peak = isfinite(peak) && peak > base && credits > 0 ? peak :
	    base;
	b[*n].credits = b[*n].peak > base ? credits : 0;
	b[*n].period_s = period_s;
	b[*n].by = by;
	(*n)++;
}

/*
 * The path of f behind l; see voltype.h.  Buckets run dry one after the
 * other: at the rate the path admits, each unspent bucket drawn above its
 * base empties in credits / (rate x cost - base); the first to do so is
 * spent, the rate falls, and so on until none is drawn above its base.
 * A bucket full again every period_s that would not empty within one
 * never does at this demand.
 */
void
voltype_path(const struct voltype_figures *f, const struct voltype_link *l,
    double demand, struct voltype_path *p)
{
	struct voltype_pbucket	b[8];
	double			bs = f->bs, t = 0, r, dt, x, ls;
	size_t			n = 0, i, k, first;
	int			spent[8] = { 0 }, by, vol;

	memset(p, 0, sizeof *p);
	vol = f->charge > bs ? VOLTYPE_LIMIT_CHARGE : VOLTYPE_LIMIT_VOLUME;
	voltype_path_add(b, &n, f->cost, f->burst_iops, f->iops,
	    f->burst_credits, NAN, VOLTYPE_LIMIT_VOLUME);
	voltype_path_add(b, &n, f->charge, f->burst_bandwidth, f->bandwidth,
	    f->burst_credit_bytes, NAN, vol);
	if (l != NULL) {
		ls = isfinite(l->burst_s) ? l->burst_s : 0;
		voltype_path_add(b, &n, f->cost, l->burst_iops, l->iops,
		    (l->burst_iops - l->iops) * ls, l->period_s,
		    VOLTYPE_LIMIT_INSTANCE);
		voltype_path_add(b, &n, bs, l->burst_bandwidth, l->bandwidth,
		    (l->burst_bandwidth - l->bandwidth) * ls, l->period_s,
		    VOLTYPE_LIMIT_INSTANCE);
	}
	p->fresh_iops = voltype_path_rate(b, n, spent, INFINITY, &by);
	for (i = 0; i < n; i++)
		spent[i] = 1;
	p->iops = voltype_path_rate(b, n, spent, INFINITY, &p->iops_by);
	if (!isfinite(p->iops))
		p->iops = NAN;
	if (!isfinite(p->fresh_iops))
		p->fresh_iops = NAN;
	/* Large I/O: bytes a second, the IOPS limits at their units. */
	p->bandwidth = f->long_bandwidth;
	p->bandwidth_by = isfinite(p->bandwidth) ? VOLTYPE_LIMIT_VOLUME :
	    VOLTYPE_LIMIT_NONE;
	if (l != NULL && isfinite(l->bandwidth) && !(l->bandwidth >=
	    p->bandwidth)) {
		p->bandwidth = l->bandwidth;
		p->bandwidth_by = VOLTYPE_LIMIT_INSTANCE;
	}
	if (!isfinite(p->bandwidth))
		p->bandwidth = NAN;

	/* From full at the demand, bucket by bucket. */
	memset(spent, 0, sizeof spent);
	p->demand = isfinite(demand) && demand > 0 ? demand : INFINITY;
	p->demand = fmin(p->demand, isfinite(p->fresh_iops) ? p->fresh_iops :
	    p->demand);
	p->drain_by = VOLTYPE_LIMIT_NONE;
	for (k = 0; k < n; k++) {
		r = voltype_path_rate(b, n, spent, p->demand, &by);
		first = n;
		dt = INFINITY;
		for (i = 0; i < n; i++) {
			if (spent[i] || b[i].credits <= 0 ||
			    !(r * b[i].cost > b[i].base))
				continue;
			x = b[i].credits / (r * b[i].cost - b[i].base);
			if (x < dt) {
				dt = x;
				first = i;
			}
		}
		if (first == n)
			break;
		if (isfinite(b[first].period_s) && b[first].period_s > 0 &&
		    t + dt > b[first].period_s) {
			t = INFINITY;
			p->drain_by = b[first].by;
			break;
		}
		for (i = 0; i < n; i++)
			if (!spent[i] && b[i].credits > 0 &&
			    r * b[i].cost > b[i].base)
				b[i].credits -= dt * (r * b[i].cost -
				    b[i].base);
		spent[first] = 1;
		t += dt;
		p->drain_by = b[first].by;
	}
	p->drain_s = t;
}
