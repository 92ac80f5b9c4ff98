/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the volume type files and their formulas: parse, evaluate the
 * figures at sizes across and outside the type's range with its default,
 * least and largest settings, judge the type against a measurement made of
 * its own figures, and parse the input as a TYPE:SIZE spec.  No crash,
 * leak or hang; a refusal is one line naming the file, line and key; a
 * type is consistent with its own figures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voltype.h"

#include "fuzz.h"

/* A measurement of t's own figures at size with values, judged. */
static void
t_judge_own(const struct voltype *t, double size, const double *values)
{
	struct voltype_figures		f;
	struct voltype_measured		m;
	struct voltype_judgement	j;

	voltype_eval(t, size, values, 4096, &f);
	voltype_measured_init(&m);
	m.size_bytes = size * 1073741824.0;
	snprintf(m.model, sizeof m.model, "%s", t->model != NULL ?
	    t->model : "");
	m.iops = f.fresh_iops;
	m.bandwidth = f.fresh_bandwidth;
	m.burst.held_iops = f.fresh_iops;
	m.burst.held_s = 117;
	m.burst.ruled_out_below_ios = f.fresh_iops * 120;
	m.drawn_s = 120;
	voltype_judge(&t, 1, &m, &j);
	T_ASSERT(j.n == 1);
	T_ASSERT(j.result[0].consistent != 0 || *j.result[0].ruled_out_by !=
	    '\0');
	voltype_judgement_free(&j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double sizes[] = { 0.5, 1, 33, 100, 170, 250, 334, 1000,
	    2048, 16384, 1e9 };
	struct voltype_spec	 spec;
	struct voltype		*t;
	double			 values[VOLTYPE_SETTINGS_MAX], lo, hi;
	char			*cause = NULL, *text;
	size_t			 i, k;
	int			 which;

	text = t_string(data, size);
	if (voltype_spec_parse(text, 0, &spec, &cause) != 0) {
		t_check_cause(cause, memchr(data, '\n', size) != NULL);
		free(cause);
		cause = NULL;
	}
	free(text);
	t = voltype_parse((const char *)data, size, "fuzz.ini", &cause);
	if (t == NULL) {
		t_check_cause(cause, 0);
		T_ASSERT(strncmp(cause, "fuzz.ini", 8) == 0);
		free(cause);
		return (0);
	}
	T_ASSERT(cause == NULL && t->name != NULL && t->source != NULL);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (which = 0; which < 3; which++) {
			for (k = 0; k < VOLTYPE_SETTINGS_MAX; k++)
				values[k] = NAN;
			for (k = 0; k < t->nsettings; k++) {
				voltype_setting_range(t, k, sizes[i], values,
				    &lo, &hi);
				values[k] = which == 1 ? lo : hi;
				if (which == 0)
					values[k] = voltype_setting_default(t,
					    k, sizes[i], values);
			}
			t_judge_own(t, sizes[i], values);
		}
	}
	voltype_free(t);
	return (0);
}
