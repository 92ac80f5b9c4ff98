/* SPDX-License-Identifier: ISC */
/*
 * formula.c, voltype.c and voltype-judge.c: formulas and their errors; the
 * rules of every built-in type at the sizes AWS documents against its
 * numbers; the built-in profiles that name a type against its rules, and
 * sim:TYPE:SIZE volumes against the profiles; type files and specs that
 * are refused; and the judgement of every type against what a perfect
 * detector would measure on each built-in profile and on volumes made from
 * the rules at sizes no profile has (the true type stays consistent, the
 * figures rule the others out where they can, and pairs they cannot tell
 * apart are said to be so, with the run that would); and what a report
 * gives the judgement: the volume's size and model (none under
 * device-mapper or md), the figures, the time its I/O was drawn over.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formula.h"
#include "profiles.h"
#include "report.h"
#include "sim.h"
#include "t_rel.h"
#include "t_report.h"
#include "voltype.h"

#define MIB	1048576.0
#define GIB	1073741824.0

/* Fail unless text holds what. */
static void
t_has(const char *text, const char *what)
{
	if (text == NULL || strstr(text, what) == NULL)
		fail_msg("\"%s\" does not say \"%s\"", text != NULL ? text :
		    "(null)", what);
}

/* Formulas and their values. */
static void
test_formula(void **state)
{
	static const char *const names[] = { "size", "iops" };
	static const struct {
		const char	*text;
		double		 size, iops, want;
	} cases[] = {
		{ "clamp(3 * size, 100, 16000)", 33, 0, 100 },
		{ "clamp(3 * size, 100, 16000)", 100, 0, 300 },
		{ "clamp(3 * size, 100, 16000)", 5334, 0, 16000 },
		{ "size <= 170 ? 128 : 250", 170, 0, 128 },
		{ "size <= 170 ? 128 : 250", 171, 0, 250 },
		{ "iops <= 32000 ? min(500, 0.25 * iops) : 16 * iops / 1024",
		  0, 4000, 500 },
		{ "iops <= 32000 ? min(500, 0.25 * iops) : 16 * iops / 1024",
		  0, 48000, 750 },
		{ "min(4, 2, 3, 1.5)", 0, 0, 1.5 },
		{ "max(4, 2, 9, 1.5)", 0, 0, 9 },
		{ "-size + 2 * (3 - 1)", 1, 0, 3 },
		{ "!(size > 1) || iops == 2", 5, 2, 1 },
		{ "size >= 1 && size != 2", 2, 0, 0 },
		{ "1 ? 2 : 0 ? 3 : 4", 0, 0, 2 },
		{ "floor(2.5) + ceil(2.5)", 0, 0, 5 },
		{ "5.4e6", 0, 0, 5.4e6 },
		{ "1 - 2 - 3", 0, 0, -4 },
		{ "8 / 2 / 2", 0, 0, 2 },
	};
	struct formula	*f;
	double		 v[2];
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f = formula_parse(cases[i].text, names, 2, &cause);
		if (f == NULL)
			fail_msg("%s: %s", cases[i].text, cause);
		v[0] = cases[i].size;
		v[1] = cases[i].iops;
		if (fabs(formula_eval(f, v) - cases[i].want) > 1e-9)
			fail_msg("%s = %g, want %g", cases[i].text,
			    formula_eval(f, v), cases[i].want);
		assert_int_equal(formula_uses(f, 1),
		    strstr(cases[i].text, "iops") != NULL);
		formula_free(f);
	}
	/* NAN in, NAN out; a division by zero is NAN, not infinity. */
	f = formula_parse("size / iops", names, 2, &cause);
	v[0] = 1;
	v[1] = 0;
	assert_true(isnan(formula_eval(f, v)));
	v[0] = NAN;
	v[1] = 1;
	assert_true(isnan(formula_eval(f, v)));
	formula_free(f);
}

/* Formulas refused, with what the message must name. */
static void
test_formula_errors(void **state)
{
	static const char *const names[] = { "size" };
	static const struct {
		const char	*text;
		const char	*says;
	} cases[] = {
		{ "", "ends where" },
		{ "sise * 3", "unknown name \"sise\"" },
		{ "size *", "ends where" },
		{ "(size", "expected ')'" },
		{ "size 3", "unexpected \"3\"" },
		{ "min(size)", "at least 2" },
		{ "clamp(1, 2)", "takes 3 arguments" },
		{ "floor 2", "parentheses" },
		{ "1 ? 2", "expected ':'" },
		{ "size = 3", "unexpected" },
		{ "size & 3", "unexpected" },
		{ "1e999", "out of range" },
		{ "((((((((((((((((((((((((((((((((((((((((((((((((((1))))"
		  "))))))))))))))))))))))))))))))))))))))))))))))", "nested" },
	};
	char	*cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		if (formula_parse(cases[i].text, names, 1, &cause) != NULL)
			fail_msg("%s: accepted", cases[i].text);
		assert_non_null(cause);
		if (strstr(cause, cases[i].says) == NULL ||
		    strchr(cause, '\n') != NULL)
			fail_msg("%s: \"%s\" does not say %s", cases[i].text,
			    cause, cases[i].says);
		free(cause);
	}
}

/* A built-in type, or fail. */
static struct voltype *
t_type(const char *name)
{
	struct voltype	*t;
	char		*cause = NULL;

	if ((t = profiles_type_load(name, &cause)) == NULL)
		fail_msg("%s: %s", name, cause);
	return (t);
}

/* The figures of spec ("gp2:100G,..."), or fail. */
static void
t_eval(const char *text, struct voltype_figures *f)
{
	struct voltype_spec	 spec;
	struct voltype		*t;
	double			 values[VOLTYPE_SETTINGS_MAX];
	char			*cause = NULL;

	if (voltype_spec_parse(text, 1, &spec, &cause) != 0)
		fail_msg("%s: %s", text, cause);
	t = t_type(spec.name);
	if (voltype_settings(t, &spec, spec.size_bytes / GIB, values,
	    &cause) != 0)
		fail_msg("%s: %s", text, cause);
	voltype_eval(t, spec.size_bytes / GIB, values, 4096, f);
	voltype_free(t);
}

/* a equals want, where NAN wants NAN. */
static void
t_same(const char *what, const char *field, double a, double want)
{
	if (isnan(want) ? !isnan(a) : !(fabs(a - want) <= 1e-9 * want))
		fail_msg("%s: %s = %.10g, want %.10g", what, field, a, want);
}

/* The rules at the sizes and settings AWS documents, against its numbers. */
static void
test_rules(void **state)
{
	static const struct {
		const char	*spec;
		double		 iops, bw_mib, burst_iops, credits;
		double		 burst_bw_mib, credit_gib, long_bw_mib;
		double		 burst_s;	/* at the burst rate */
	} cases[] = {
		/* gp2: 3 IOPS/GiB, 100 to 16,000; the User Guide's table. */
		{ "gp2:1G", 100, 128, 3000, 5.4e6, NAN, NAN, 25, 1862 },
		{ "gp2:33G", 100, 128, 3000, 5.4e6, NAN, NAN, 25, 1862 },
		{ "gp2:100G", 300, 128, 3000, 5.4e6, NAN, NAN, 75, 2000 },
		{ "gp2:170G", 510, 128, 3000, 5.4e6, NAN, NAN, 127.5, 2169 },
		{ "gp2:250G", 750, 250, 3000, 5.4e6, NAN, NAN, 187.5, 2400 },
		{ "gp2:334G", 1002, 250, 3000, 5.4e6, NAN, NAN, 250, 2703 },
		{ "gp2:750G", 2250, 250, 3000, 5.4e6, NAN, NAN, 250, 7200 },
		{ "gp2:1000G", 3000, 250, NAN, NAN, NAN, NAN, 250, NAN },
		{ "gp2:5334G", 16000, 250, NAN, NAN, NAN, NAN, 250, NAN },
		{ "gp2:16T", 16000, 250, NAN, NAN, NAN, NAN, 250, NAN },
		/* gp3: included, and provisioned. */
		{ "gp3:100G", 3000, 125, NAN, NAN, NAN, NAN, 125, NAN },
		{ "gp3:1G", 3000, 125, NAN, NAN, NAN, NAN, 125, NAN },
		{ "gp3:500G,iops=6000,throughput=250M", 6000, 250, NAN, NAN,
		  NAN, NAN, 250, NAN },
		{ "gp3:32G,iops=16000,throughput=1000", 16000, 1000, NAN, NAN,
		  NAN, NAN, 1000, NAN },
		/* io1/io2: 256 KiB per IOPS to 500 MiB/s, 16 KiB past 32k. */
		{ "io1:400G,iops=4000", 4000, 500, NAN, NAN, NAN, NAN, 500,
		  NAN },
		{ "io1:100G,iops=1000", 1000, 250, NAN, NAN, NAN, NAN, 250,
		  NAN },
		{ "io1:1000G,iops=48000", 48000, 750, NAN, NAN, NAN, NAN, 750,
		  NAN },
		{ "io1:1000G,iops=50000", 50000, 781.25, NAN, NAN, NAN, NAN,
		  781.25, NAN },
		{ "io1:1280G,iops=64000", 64000, 1000, NAN, NAN, NAN, NAN,
		  1000, NAN },
		{ "io2:128G,iops=64000", 64000, 1000, NAN, NAN, NAN, NAN, 1000,
		  NAN },
		{ "io2-bx:256G,iops=256000", 256000, 4000, NAN, NAN, NAN, NAN,
		  4000, NAN },
		/* 0.256 MiB/s per IOPS, but an IOPS moves 256 KiB at most. */
		{ "io2-bx:100G,iops=10000", 10000, 2560, NAN, NAN, NAN, NAN,
		  2500, NAN },
		/* st1/sc1: MiB/s per TiB, a bucket of the volume's size. */
		{ "st1:125G", 500, 40 * 125 / 1024.0, NAN, NAN,
		  250 * 125 / 1024.0, 125, 40 * 125 / 1024.0, NAN },
		{ "st1:2T", 500, 80, NAN, NAN, 500, 2048, 80, NAN },
		{ "st1:16T", 500, 500, NAN, NAN, NAN, NAN, 500, NAN },
		{ "sc1:125G", 250, 12 * 125 / 1024.0, NAN, NAN,
		  80 * 125 / 1024.0, 125, 12 * 125 / 1024.0, NAN },
		{ "sc1:2T", 250, 24, NAN, NAN, 160, 2048, 24, NAN },
		{ "sc1:16T", 250, 192, NAN, NAN, 250, 16384, 192, NAN },
		/* Instance store: nothing imposed. */
		{ "instance-store:600G", NAN, NAN, NAN, NAN, NAN, NAN, NAN,
		  NAN },
	};
	struct voltype_figures	f;
	size_t			i;
	double			s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_eval(cases[i].spec, &f);
		t_same(cases[i].spec, "iops", f.iops, cases[i].iops);
		t_same(cases[i].spec, "bandwidth", f.bandwidth,
		    cases[i].bw_mib * MIB);
		t_same(cases[i].spec, "burst_iops", f.burst_iops,
		    cases[i].burst_iops);
		t_same(cases[i].spec, "burst_credits", f.burst_credits,
		    cases[i].credits);
		t_same(cases[i].spec, "burst_bandwidth", f.burst_bandwidth,
		    cases[i].burst_bw_mib * MIB);
		t_same(cases[i].spec, "credit bytes", f.burst_credit_bytes,
		    cases[i].credit_gib * GIB);
		t_same(cases[i].spec, "long bandwidth", f.long_bandwidth,
		    cases[i].long_bw_mib * MIB);
		/* The User Guide's burst durations, to the second. */
		s = f.burst_credits / (f.burst_iops - f.iops);
		if (isnan(cases[i].burst_s) ? !isnan(s) :
		    fabs(s - cases[i].burst_s) > 0.5)
			fail_msg("%s: burst lasts %g s, want %g",
			    cases[i].spec, s, cases[i].burst_s);
	}
	/* SSD volumes count 256 KiB, HDD ones 1 MiB. */
	t_eval("gp2:100G", &f);
	t_same("gp2", "io_accounting", f.io_accounting, 256 * 1024);
	t_eval("st1:2T", &f);
	t_same("st1", "io_accounting", f.io_accounting, 1024 * 1024);
	/*
	 * A 4 KiB read is one token, but st1 charges it 1 MiB of its MiB/s:
	 * 80 MiB/s at 2 TiB hold 80 a second, not the 500 IOPS of 1 MiB.
	 */
	t_same("st1", "charge", f.charge, 1024 * 1024);
	t_same("st1", "long IOPS", f.long_iops, 80);
	t_eval("sc1:1T", &f);
	t_same("sc1", "long IOPS", f.long_iops, 12);
	t_eval("gp2:100G", &f);
	t_same("gp2", "charge", f.charge, 4096);
	t_same("gp2", "long IOPS", f.long_iops, 300);
}

/* The path: the least limit, each bucket run dry in turn. */
static void
test_path(void **state)
{
	struct voltype_link	m5 = { "m5.large", 3600, 81.25e6, 18750,
				    593.75e6, 1800, 86400 };
	struct voltype_link	big = { "m5.8xlarge", 30000, 850e6, NAN, NAN,
				    NAN, NAN };
	struct voltype_figures	f;
	struct voltype_path	p;

	(void)state;
	/* gp3 6,000 IOPS behind an m5.large: the instance's 3,600. */
	t_eval("gp3:500G,iops=6000,throughput=250M", &f);
	voltype_path(&f, &m5, NAN, &p);
	t_same("m5.large", "iops", p.iops, 3600);
	assert_int_equal(p.iops_by, VOLTYPE_LIMIT_INSTANCE);
	t_same("m5.large", "bandwidth", p.bandwidth, 81.25e6);
	assert_int_equal(p.bandwidth_by, VOLTYPE_LIMIT_INSTANCE);
	/* From full at 6,000: (18,750 - 3,600) x 1,800 / (6,000 - 3,600). */
	t_same("m5.large", "drain", p.drain_s, 15150.0 * 1800 / 2400);
	assert_int_equal(p.drain_by, VOLTYPE_LIMIT_INSTANCE);
	/* At 3,700 the bucket lasts 75 h: full again each day, never dry. */
	voltype_path(&f, &m5, 3700, &p);
	assert_true(isinf(p.drain_s));
	/* Without a burst: the volume's own, nothing drains. */
	voltype_path(&f, &big, NAN, &p);
	t_same("m5.8xlarge", "iops", p.iops, 6000);
	assert_int_equal(p.iops_by, VOLTYPE_LIMIT_VOLUME);
	t_same("m5.8xlarge", "drain", p.drain_s, 0);
	/* gp2 100G behind an m5.large: its own bucket, 2,000 s. */
	t_eval("gp2:100G", &f);
	voltype_path(&f, &m5, NAN, &p);
	t_same("gp2", "iops", p.iops, 300);
	t_same("gp2", "drain", p.drain_s, 2000);
	assert_int_equal(p.drain_by, VOLTYPE_LIMIT_VOLUME);
	/*
	 * st1 500G at 4 KiB: 1 MiB a read of 125 MiB/s burst, 19.53 after;
	 * 500 GiB of credits at (125 - 19.53) MiB/s.
	 */
	t_eval("st1:500G", &f);
	voltype_path(&f, NULL, NAN, &p);
	t_same("st1", "iops", p.iops, 40 * 500 / 1024.0);
	assert_int_equal(p.iops_by, VOLTYPE_LIMIT_CHARGE);
	t_same("st1", "fresh", p.fresh_iops, 250 * 500 / 1024.0);
	t_same("st1", "drain", p.drain_s, 500 * 1024 / (250 * 500 /
	    1024.0 - 40 * 500 / 1024.0));
}

/* Settings and specs refused, with what the message names. */
static void
test_settings_refused(void **state)
{
	static const struct {
		const char	*spec;
		const char	*says;
	} cases[] = {
		{ "gp3:8G,iops=16000", "from 3000 to 4000" },
		{ "gp3:100G,throughput=1000", "from 125 to 750" },
		{ "gp3:100G,iops=2000", "from 3000 to 16000" },
		{ "io1:100G,iops=5001", "from 100 to 5000" },
		{ "io1:100G", "needs iops=VALUE" },
		{ "gp2:100G,iops=300", "no setting \"iops\" (it takes none)" },
		{ "gp3:100G,speed=1", "it takes iops, throughput" },
		{ "gp3:100G,iops=fast", "not a number" },
	};
	struct voltype_spec	 spec;
	struct voltype		*t;
	double			 values[VOLTYPE_SETTINGS_MAX];
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		assert_int_equal(voltype_spec_parse(cases[i].spec, 1, &spec,
		    &cause), 0);
		t = t_type(spec.name);
		if (voltype_settings(t, &spec, spec.size_bytes / GIB, values,
		    &cause) == 0)
			fail_msg("%s: accepted", cases[i].spec);
		if (strstr(cause, cases[i].says) == NULL)
			fail_msg("%s: \"%s\" does not say %s", cases[i].spec,
			    cause, cases[i].says);
		free(cause);
		voltype_free(t);
	}
	/* Specs. */
	cause = NULL;
	assert_int_equal(voltype_spec_parse("gp2", 1, &spec, &cause), -1);
	t_has(cause, "no size");
	free(cause);
	assert_int_equal(voltype_spec_parse("gp2:lots", 1, &spec, &cause), -1);
	t_has(cause, "size \"lots\"");
	free(cause);
	assert_int_equal(voltype_spec_parse("gp3,iops", 0, &spec, &cause), -1);
	t_has(cause, "SETTING=VALUE");
	free(cause);
	assert_int_equal(voltype_spec_parse("gp3,iops=1,iops=2", 0, &spec,
	    &cause), -1);
	t_has(cause, "given twice");
	free(cause);
	assert_int_equal(voltype_spec_parse("gp3,iops=6000", 0, &spec,
	    &cause), 0);
	assert_string_equal(spec.name, "gp3");
	assert_int_equal(spec.size_bytes, 0);
}

/* Type files refused, each with file:line and what is wrong. */
static void
test_type_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*says;
	} cases[] = {
		{ "[type]\nname = x\n", "source is missing" },
		{ "[type]\nname = x\nsource = s\n[figures]\niops = sise\n",
		  "t.ini:5: [figures] iops: \"sise\", column 1: unknown name" },
		{ "[type]\nname = x\nsource = s\n[figures]\nspeed = 1\n",
		  "t.ini:5: [figures] speed: unknown figure" },
		{ "[type]\nname = x\nsource = s\n[figures]\nburst_iops = 3\n",
		  "burst_iops and burst_credits go together" },
		{ "[type]\nname = x\nsource = s\n[setting.iops]\nmin = 1\n",
		  "min and max are required" },
		{ "[type]\nname = x\nsource = s\n[setting.iops]\nmin = 1\n"
		  "max = iops\n", "[setting.iops] max: \"iops\", column 1" },
		{ "[type]\nname = x\nsource = s\n[figures]\n"
		  "iops = bandwidth\nbandwidth = 3\n",
		  "t.ini:5: [figures] iops" },
		{ "[type]\nname = X Y\nsource = s\n", "name: lower-case" },
		{ "[type]\nname = x\nsource = s\nsize_min = 9\nsize_max = 1\n",
		  "size_max: below size_min" },
		{ "[type]\nname = x\nsource = s\ntolerance = 120\n",
		  "from 0 to 100" },
		{ "[type]\nname = x\nname = y\n", "given twice" },
		{ "[types]\n", "use [type], [figures]" },
		{ "name = x\n", "a key outside a section" },
		{ "[type]\nname = x\nsource = s\n[sim.limit]\niops = 1\n",
		  "the type's figures make [limit]" },
		{ "[type]\nname = x\nsource = s\n[sim.device]\nsize = 1G\n",
		  "made from the type" },
		{ "[type\n", "t.ini:1: syntax error" },
	};
	struct voltype	*t;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		t = voltype_parse(cases[i].text, strlen(cases[i].text),
		    "t.ini", &cause);
		if (t != NULL)
			fail_msg("case %zu: accepted", i);
		if (strstr(cause, cases[i].says) == NULL ||
		    strncmp(cause, "t.ini", 5) != 0)
			fail_msg("case %zu: \"%s\" does not say %s", i, cause,
			    cases[i].says);
		free(cause);
	}
	/* The smallest type there is, named after its file. */
	t = voltype_parse("[type]\nsource = s\n", 18, "dir/mine.ini", &cause);
	assert_non_null(t);
	assert_string_equal(t->name, "mine");
	voltype_free(t);
}

/* Every built-in profile that names a type has the figures of its rules. */
static void
test_profiles_follow_rules(void **state)
{
	struct voltype_spec	 spec;
	struct voltype_figures	 f;
	struct profile		*p;
	struct voltype		*t;
	double			 values[VOLTYPE_SETTINGS_MAX];
	char			**names, *cause = NULL;
	size_t			 n, i, typed = 0;

	(void)state;
	names = profiles_names(&n);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		if ((p = profiles_load(names[i], &cause)) == NULL)
			fail_msg("%s: %s", names[i], cause);
		if (p->model != NULL && strcmp(p->model,
		    "Amazon Elastic Block Store") == 0 && p->type == NULL)
			fail_msg("%s: an EBS volume naming no type", names[i]);
		if (p->type == NULL) {
			profiles_free(p);
			continue;
		}
		typed++;
		assert_int_equal(voltype_spec_parse(p->type, 0, &spec, &cause),
		    0);
		t = t_type(spec.name);
		if (voltype_settings(t, &spec, p->size / GIB, values,
		    &cause) != 0)
			fail_msg("%s: %s", names[i], cause);
		voltype_eval(t, p->size / GIB, values, 4096, &f);
		t_same(names[i], "[limit] iops", p->limit_iops > 0 ?
		    p->limit_iops : NAN, f.iops);
		t_same(names[i], "[limit] bandwidth", p->limit_bandwidth > 0 ?
		    p->limit_bandwidth : NAN, f.bandwidth);
		t_same(names[i], "[limit] io_accounting", p->io_accounting > 0 ?
		    (double)p->io_accounting : NAN, f.io_accounting);
		t_same(names[i], "[burst] iops", p->burst_iops > 0 ?
		    p->burst_iops : NAN, f.burst_iops);
		t_same(names[i], "[burst] credits", p->burst_iops > 0 ?
		    p->burst_credits : NAN, f.burst_credits);
		t_same(names[i], "[burst] bandwidth", p->burst_bandwidth > 0 ?
		    p->burst_bandwidth : NAN, f.burst_bandwidth);
		t_same(names[i], "[burst] credit_bytes", p->burst_bandwidth >
		    0 ? p->burst_credit_bytes : NAN, f.burst_credit_bytes);
		if (t->model == NULL || p->model == NULL ||
		    strcmp(t->model, p->model) != 0)
			fail_msg("%s: model \"%s\", its type's \"%s\"",
			    names[i], p->model, t->model);
		voltype_free(t);
		profiles_free(p);
	}
	profiles_names_free(names, n);
	assert_true(typed >= 8);
}

/* sim:TYPE:SIZE gives the truth of the profile of that type and size. */
static void
test_sim_from_rules(void **state)
{
	static const struct {
		const char	*spec;
		const char	*profile;
	} cases[] = {
		{ "gp2:100G", "ebs-gp2-100g" },
		{ "gp2:1000G", "ebs-gp2-1t" },
		{ "gp3:100G", "ebs-gp3" },
		{ "io1:1000G,iops=50000", "ebs-io1-50k" },
		{ "st1:2T", "ebs-st1" },
		{ "instance-store:600000000000", "nvme-instance-store" },
	};
	struct sim_truth	 a, b;
	struct profile		*p, *q;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if ((p = profiles_load(cases[i].spec, &cause)) == NULL)
			fail_msg("%s: %s", cases[i].spec, cause);
		q = profiles_load(cases[i].profile, &cause);
		assert_non_null(q);
		sim_truth_profile(p, 4096, &a);
		sim_truth_profile(q, 4096, &b);
		assert_int_equal(p->size, q->size);
		t_same(cases[i].spec, "iops_ceiling", a.iops_ceiling,
		    b.iops_ceiling);
		t_same(cases[i].spec, "iops_sustained", a.iops_sustained,
		    b.iops_sustained);
		t_same(cases[i].spec, "bandwidth_ceiling", a.bandwidth_ceiling,
		    b.bandwidth_ceiling);
		t_same(cases[i].spec, "bandwidth_sustained",
		    a.bandwidth_sustained, b.bandwidth_sustained);
		assert_int_equal(a.burst_detected, b.burst_detected);
		assert_int_equal(a.bw_burst_detected, b.bw_burst_detected);
		assert_string_equal(p->model, q->model);
		assert_string_equal(p->name, cases[i].spec);
		profiles_free(p);
		profiles_free(q);
	}
	/* On an instance, and refused specs, one line each. */
	p = profiles_load("gp3:100G@m5.large", &cause);
	assert_non_null(p);
	assert_string_equal(p->instance_name, "m5.large");
	profiles_free(p);
	assert_null(profiles_load("st1:100G", &cause));
	t_has(cause, "st1 volumes are 125 GiB to 16384 GiB");
	free(cause);
	assert_null(profiles_load("gp9:100G", &cause));
	t_has(cause, "no volume type \"gp9\"; built-in "
	    "types: gp2, gp3,");
	free(cause);
	assert_null(profiles_load("gp2:big", &cause));
	t_has(cause, "size \"big\": \"big\" is not a size");
	free(cause);
}

/* The instances known to tierprobe, as links. */
static size_t
t_links(struct voltype_link *l, size_t max)
{
	struct profile	*p;
	char		**v, *cause = NULL;
	size_t		 n, i, k = 0;

	v = profiles_instance_names(&n);
	for (i = 0; i < n && k < max; i++) {
		if ((p = profiles_load_instance(v[i], &cause)) == NULL)
			fail_msg("%s: %s", v[i], cause);
		memset(&l[k], 0, sizeof l[k]);
		snprintf(l[k].name, sizeof l[k].name, "%s", p->instance_name);
		l[k].iops = p->instance_iops > 0 ? p->instance_iops : NAN;
		l[k].bandwidth = p->instance_bandwidth > 0 ?
		    p->instance_bandwidth : NAN;
		l[k].burst_iops = p->instance_burst_iops > 0 ?
		    p->instance_burst_iops : NAN;
		l[k].burst_bandwidth = p->instance_burst_bandwidth > 0 ?
		    p->instance_burst_bandwidth : NAN;
		k++;
		profiles_free(p);
	}
	profiles_names_free(v, n);
	return (k);
}

/*
 * What a perfect detector measures on profile spec in a default run: the
 * truth's ceilings with buckets full, a sustained run of 120 s that held
 * (a bucket that lasts longer is unseen) or saw it run dry.
 */
static void
t_measure(const char *spec, struct voltype_measured *m,
    struct voltype_link *links, size_t nlinks)
{
	struct profile		*p;
	struct sim_truth	 t;
	char			*cause = NULL;

	if ((p = profiles_load(spec, &cause)) == NULL)
		fail_msg("%s: %s", spec, cause);
	sim_truth_profile(p, 4096, &t);
	voltype_measured_init(m);
	m->size_bytes = (double)p->size;
	snprintf(m->model, sizeof m->model, "%s", p->model != NULL ?
	    p->model : "");
	m->iops = t.iops_ceiling;
	m->bandwidth = t.bandwidth_ceiling;
	if (t.io_accounting_observable)
		m->io_accounting = t.io_accounting_bytes;
	if (t.burst_detected && t.burst_duration_s < 100) {
		m->burst.detected = 1;
		m->burst.burst_iops = t.burst_iops;
		m->burst.baseline_iops = t.baseline_iops;
		m->burst.credits_ios = t.burst_credits_ios;
		m->long_run_iops = t.baseline_iops;
	} else {
		m->burst.held_iops = t.iops_ceiling;
		m->burst.held_s = 117;
		m->burst.ruled_out_below_ios = t.iops_ceiling * 160;
		m->drawn_s = 200;
	}
	m->link = links;
	m->nlinks = nlinks;
	profiles_free(p);
}

/* The result of type name in j. */
static const struct voltype_result *
t_result(const struct voltype_judgement *j, const char *name)
{
	size_t	i;

	for (i = 0; i < j->n; i++)
		if (strcmp(j->result[i].name, name) == 0)
			return (&j->result[i]);
	fail_msg("no result for %s", name);
	return (NULL);
}

/* Each case: the profile, its true type, what must be ruled out. */
static void
test_judge_truths(void **state)
{
	static const struct {
		const char	*spec;
		const char	*type;
		const char	*ruled_out[8];
	} cases[] = {
		{ "ebs-gp2-100g", "gp2", { "io1", "io2", "io2-bx", "st1",
		  "sc1", "instance-store" } },
		{ "ebs-gp2-1t", "gp2", { "st1", "sc1", "instance-store",
		  "io2-bx" } },
		{ "ebs-gp3", "gp3", { "io1", "io2", "io2-bx", "st1", "sc1",
		  "instance-store" } },
		{ "ebs-gp3-restored", "gp3", { "io1", "st1",
		  "instance-store" } },
		{ "ebs-io1-4000", "io1", { "gp2", "st1", "sc1",
		  "instance-store" } },
		{ "ebs-io1-50k", "io1", { "gp2", "gp3", "st1", "sc1",
		  "instance-store", "io2-bx" } },
		{ "ebs-io1-50k-m5", "io1", { "gp2", "gp3", "st1", "sc1",
		  "instance-store" } },
		{ "ebs-st1", "st1", { "gp2", "gp3", "io1", "io2", "sc1",
		  "instance-store" } },
		{ "nvme-instance-store", "instance-store", { "gp2", "gp3",
		  "io1", "st1" } },
		/* Sizes no profile has, from the rules. */
		{ "gp2:250G", "gp2", { "io1", "st1", "sc1",
		  "instance-store" } },
		{ "gp2:33G", "gp2", { "io1", "st1", "instance-store" } },
		{ "gp3:500G,iops=6000,throughput=250", "gp3", { "gp2", "io1",
		  "io2", "st1", "sc1", "instance-store" } },
		{ "io1:400G,iops=4000", "io1", { "gp2", "st1", "sc1" } },
		{ "io2:200G,iops=40000", "io2", { "gp2", "gp3", "io1",
		  "st1" } },
		{ "io2-bx:300G,iops=100000", "io2-bx", { "gp2", "gp3", "io1",
		  "io2", "st1" } },
		{ "st1:500G", "st1", { "gp2", "gp3", "sc1" } },
		{ "st1:16T", "st1", { "gp2", "sc1", "instance-store" } },
		{ "sc1:2T", "sc1", { "gp2", "gp3", "io1", "st1" } },
	};
	struct voltype_link	 links[8];
	struct voltype_measured	 m;
	struct voltype_judgement j;
	struct voltype		**types;
	const struct voltype_result *r;
	char			*cause = NULL;
	size_t			 nt, nl, i, k;

	(void)state;
	types = profiles_types_load(&nt, &cause);
	assert_null(cause);
	assert_true(nt >= 8);
	nl = t_links(links, 8);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_measure(cases[i].spec, &m, links, nl);
		voltype_judge((const struct voltype *const *)types, nt, &m, &j);
		r = t_result(&j, cases[i].type);
		if (r->consistent != 1)
			fail_msg("%s: its type %s ruled out: %s",
			    cases[i].spec, r->name, r->ruled_out_by);
		for (k = 0; cases[i].ruled_out[k] != NULL; k++) {
			r = t_result(&j, cases[i].ruled_out[k]);
			if (r->consistent != 0 || *r->ruled_out_by == '\0')
				fail_msg("%s: %s not ruled out (%s)",
				    cases[i].spec, r->name, r->settings);
		}
		voltype_judgement_free(&j);
	}
	for (i = 0; i < nt; i++)
		voltype_free(types[i]);
	free(types);
}

/*
 * gp2 at 100 GiB against gp3: a default run cannot tell them apart
 * (gp3 with 128 MiB/s provisioned reads the same), and the judgement says
 * so with the run that would; after that run they are apart.
 */
static void
test_judge_gp2_gp3(void **state)
{
	struct voltype_link	 links[8];
	struct voltype_measured	 m;
	struct voltype_judgement j;
	struct voltype		**types;
	const struct voltype_result *r;
	char			*cause = NULL;
	size_t			 nt, nl, i;

	(void)state;
	types = profiles_types_load(&nt, &cause);
	nl = t_links(links, 8);

	t_measure("ebs-gp2-100g", &m, links, nl);
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	r = t_result(&j, "gp3");
	assert_int_equal(r->consistent, 1);
	assert_string_equal(r->settings, "iops=3000,throughput=128");
	r = t_result(&j, "gp2");
	assert_int_equal(r->consistent, 1);
	assert_int_equal(r->bucket, VOLTYPE_BUCKET_IOPS);
	T_REL(r->drain_s, 2000, 1e-6);
	assert_int_equal(r->settle_sustain_s, 2100);
	assert_string_equal(r->settle, "--sustain 2100");
	T_REL(r->long_run_iops, 300, 1e-9);
	T_REL(r->long_run_bandwidth, 75 * MIB, 1e-9);
	assert_int_equal(j.nconsistent, 2);
	assert_true(j.apart);
	assert_int_equal(j.settle_sustain_s, 2100);
	voltype_judgement_free(&j);

	/* gp3 measured: gp2 at 100 GiB is 2.3% over, within tolerance. */
	t_measure("ebs-gp3", &m, links, nl);
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	r = t_result(&j, "gp2");
	assert_int_equal(r->consistent, 1);
	t_has(r->caveat, "bandwidth 125 MiB/s is 2.3% below "
	    "gp2 at 100 GiB's 128 MiB/s");
	assert_true(j.apart);
	assert_int_equal(j.settle_sustain_s, 2100);
	voltype_judgement_free(&j);

	/* The run of 2,100 s: the bucket ran dry, gp3 is out. */
	t_measure("ebs-gp2-100g", &m, links, nl);
	m.burst.detected = 1;
	m.burst.burst_iops = 3000;
	m.burst.baseline_iops = 300;
	m.burst.credits_ios = 5.3e6;
	m.long_run_iops = 300;
	m.burst.held_iops = NAN;
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	r = t_result(&j, "gp3");
	assert_int_equal(r->consistent, 0);
	t_has(r->ruled_out_by, "a bucket ran dry (3,000 to 300): gp3 at "
	    "100 GiB (iops=3000,throughput=128) has none");
	assert_int_equal(t_result(&j, "gp2")->consistent, 1);
	assert_int_equal(j.nconsistent, 1);
	assert_false(j.apart);
	assert_true(isnan(j.settle_sustain_s));
	voltype_judgement_free(&j);

	/* A longer run that held: gp2 at 100 GiB would have run dry. */
	t_measure("ebs-gp2-100g", &m, links, nl);
	m.burst.held_s = 2997;
	m.burst.ruled_out_below_ios = 3000 * 3000.0;
	m.drawn_s = 3050;
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	r = t_result(&j, "gp2");
	assert_int_equal(r->consistent, 0);
	t_has(r->ruled_out_by, "would have run dry");
	assert_int_equal(t_result(&j, "gp3")->consistent, 1);
	voltype_judgement_free(&j);

	/* A bucket bigger than gp2's ran dry: not gp2. */
	t_measure("ebs-gp2-100g", &m, links, nl);
	m.burst.detected = 1;
	m.burst.burst_iops = 3000;
	m.burst.baseline_iops = 300;
	m.burst.credits_ios = 9e6;
	m.long_run_iops = 300;
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	t_has(t_result(&j, "gp2")->ruled_out_by, "a bucket of 9M I/Os ran dry: "
	    "gp2 at 100 GiB holds 5.4M");
	voltype_judgement_free(&j);
	for (i = 0; i < nt; i++)
		voltype_free(types[i]);
	free(types);
}

/* The device model, an unknown size, an instance, a given type. */
static void
test_judge_hints(void **state)
{
	struct voltype_link	 links[8];
	struct voltype_measured	 m;
	struct voltype_judgement j;
	struct voltype_spec	 spec;
	struct voltype_result	 r;
	struct voltype		**types, *t;
	char			*cause = NULL;
	size_t			 nt, nl, i;

	(void)state;
	types = profiles_types_load(&nt, &cause);
	nl = t_links(links, 8);

	/* This machine's kind of disk: nothing AWS documents. */
	t_measure("ebs-gp3", &m, links, nl);
	snprintf(m.model, sizeof m.model, "virtio block device");
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	assert_int_equal(j.nconsistent, 0);
	for (i = 0; i < j.n; i++)
		assert_non_null(strstr(j.result[i].ruled_out_by,
		    "device model \"virtio block device\""));
	voltype_judgement_free(&j);

	/* The model says EBS: the instance store is out, whatever else. */
	t_measure("nvme-instance-store", &m, links, nl);
	snprintf(m.model, sizeof m.model, "  amazon elastic block store ");
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	assert_int_equal(t_result(&j, "instance-store")->consistent, 0);
	voltype_judgement_free(&j);

	/* No size: not judged, but not guessed either. */
	t_measure("ebs-gp3", &m, links, nl);
	m.size_bytes = NAN;
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	assert_int_equal(t_result(&j, "gp3")->consistent, -1);
	assert_int_equal(t_result(&j, "instance-store")->consistent, 0);
	assert_int_equal(j.nconsistent, 0);
	voltype_judgement_free(&j);

	/* Held by m5.8xlarge's 30,000 IOPS: io1 at 50,000, said so. */
	t_measure("ebs-io1-50k-m5", &m, links, nl);
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	assert_string_equal(t_result(&j, "io1")->settings, "iops=50000");
	t_has(t_result(&j, "io1")->caveat, "IOPS 30,000 is m5.8xlarge's "
	    "limit");
	voltype_judgement_free(&j);
	/* Without the instances known, the same figures rule io1 out. */
	t_measure("ebs-io1-50k-m5", &m, NULL, 0);
	voltype_judge((const struct voltype *const *)types, nt, &m, &j);
	assert_int_equal(t_result(&j, "io1")->consistent, 0);
	voltype_judgement_free(&j);

	/* A type given: judged at its settings, not fitted. */
	t_measure("ebs-gp3", &m, links, nl);
	t = t_type("gp3");
	assert_int_equal(voltype_spec_parse("gp3,iops=6000", 0, &spec,
	    &cause), 0);
	assert_int_equal(voltype_judge_given(t, &spec, &m, &r, &cause), 0);
	assert_int_equal(r.consistent, 0);
	t_has(r.ruled_out_by, "IOPS 3,000: gp3 at 100 GiB "
	    "(iops=6000,throughput=125) gives 6,000");
	assert_int_equal(voltype_spec_parse("gp3", 0, &spec, &cause), 0);
	assert_int_equal(voltype_judge_given(t, &spec, &m, &r, &cause), 0);
	assert_int_equal(r.consistent, 1);
	m.size_bytes = NAN;
	assert_int_equal(voltype_judge_given(t, &spec, &m, &r, &cause), -1);
	t_has(cause, "--size");
	free(cause);
	voltype_free(t);
	for (i = 0; i < nt; i++)
		voltype_free(types[i]);
	free(types);
}

/* A report's figures as the judgement's inputs. */
static void
test_report_measured(void **state)
{
	struct voltype_measured	 m;
	struct report		 r;

	(void)state;
	t_report_make(&r);
	snprintf(r.context.device, sizeof r.context.device, "nvme1n1");
	snprintf(r.context.device_model, sizeof r.context.device_model,
	    "Amazon Elastic Block Store");
	r.context.device_size_bytes = 100ULL << 30;
	snprintf(r.finished_utc, sizeof r.finished_utc,
	    "2024-01-01T00:00:00Z");
	r.limits->iops_ceiling_low = 4990;
	r.limits->iops_ceiling_high = 5010;
	r.limits->bandwidth_ceiling_bytes_per_s = 128 * MIB;
	r.limits->io_accounting_bytes = 16384;
	r.limits->sustain_start_s = 40;
	r.limits->burst.held_iops = 5000;
	r.limits->burst.held_s = 117;
	r.limits->burst.ruled_out_below_ios = 8e5;
	report_voltype_measured(&r, &m);
	T_REL(m.size_bytes, 100 * GIB, 1e-12);
	assert_string_equal(m.model, "Amazon Elastic Block Store");
	assert_int_equal(m.bs, 4096);
	T_REL(m.iops, 5000, 1e-12);
	T_REL(m.iops_low, 4990, 1e-12);
	T_REL(m.bandwidth, 128 * MIB, 1e-12);
	assert_int_equal(m.io_accounting, 16384);
	T_REL(m.burst.ruled_out_below_ios, 8e5, 1e-12);
	/* The scan's 4.5 s, the sweeps' 40 s, the 117 s held. */
	T_REL(m.drawn_s, 4.5 + 40 + 117, 1e-12);
	assert_null(m.link);
	/* A longer wall clock (idle time refilled a bucket) bounds it. */
	snprintf(r.finished_utc, sizeof r.finished_utc,
	    "2024-01-01T00:10:00Z");
	report_voltype_measured(&r, &m);
	T_REL(m.drawn_s, 600, 1e-12);
	/* --size wins. */
	r.config.volume_size = 200ULL << 30;
	T_REL(report_voltype_size(&r), 200 * GIB, 1e-12);
	r.config.volume_size = 0;
	/* LVM or RAID: neither its size nor its model is a volume's. */
	snprintf(r.context.device, sizeof r.context.device, "dm-3");
	report_voltype_measured(&r, &m);
	assert_true(isnan(m.size_bytes));
	assert_string_equal(m.model, "");
	snprintf(r.context.device, sizeof r.context.device, "md0");
	assert_true(isnan(report_voltype_size(&r)));
	/* Our own CPU held the IOPS: no IOPS figure to judge by. */
	snprintf(r.context.device, sizeof r.context.device, "nvme1n1");
	r.limits->cpu_bound = 1;
	report_voltype_measured(&r, &m);
	assert_true(isnan(m.iops));
	report_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formula),
		cmocka_unit_test(test_formula_errors),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_settings_refused),
		cmocka_unit_test(test_type_errors),
		cmocka_unit_test(test_profiles_follow_rules),
		cmocka_unit_test(test_sim_from_rules),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_judge_truths),
		cmocka_unit_test(test_judge_gp2_gp3),
		cmocka_unit_test(test_judge_hints),
		cmocka_unit_test(test_report_measured),
	};
	const char	*top = getenv("TOP_SRCDIR");

	/* Types and profiles from this source tree, not an installed copy. */
	setenv("TIERPROBE_DATADIR", top != NULL ? top : TP_SRCDIR, 1);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}
