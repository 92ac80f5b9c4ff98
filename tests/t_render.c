/* SPDX-License-Identifier: ISC */
/*
 * Test driver: render saved reports the way the report, compare and plot
 * sub-commands will, so the renderers are tested before main is wired.
 * usage: t_render text|markdown|json|compare|compare-md|fio|plot FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fiojob.h"
#include "report.h"
#include "xmalloc.h"

int
main(int argc, char **argv)
{
	struct report	*reps;
	char		*cause = NULL;
	const char	*mode;
	int		 i, n, rc = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: t_render text|markdown|json|compare|"
		    "compare-md|fio|plot FILE... [OUTDIR FORMAT]\n");
		return (2);
	}
	mode = argv[1];
	n = argc - 2;
	if (strcmp(mode, "plot") == 0)
		n = 1;
	reps = xcalloc(n, sizeof *reps);
	for (i = 0; i < n; i++) {
		if (report_load(argv[i + 2], &reps[i], &cause) != 0) {
			fprintf(stderr, "t_render: %s\n", cause);
			free(cause);
			return (2);
		}
	}
	if (strcmp(mode, "text") == 0 || strcmp(mode, "markdown") == 0)
		report_text_write(&reps[0], stdout, mode[0] == 'm');
	else if (strcmp(mode, "json") == 0)
		rc = report_json_dump(&reps[0], stdout);
	else if (strncmp(mode, "compare", 7) == 0)
		rc = compare_write(reps, n, stdout, mode[7] == '-');
	else if (strcmp(mode, "fio") == 0)
		fiojob_dump(&reps[0], stdout);
	else if (strcmp(mode, "plot") == 0) {
		if (argc < 5) {
			fprintf(stderr, "t_render: plot FILE OUTDIR FORMAT\n");
			return (2);
		}
		if ((rc = report_plot(&reps[0], argv[3], argv[4], &cause)) !=
		    0) {
			fprintf(stderr, "t_render: %s\n", cause);
			free(cause);
		}
	} else {
		fprintf(stderr, "t_render: unknown mode %s\n", mode);
		return (2);
	}
	for (i = 0; i < n; i++)
		report_free(&reps[i]);
	free(reps);
	return (rc == 0 ? 0 : 1);
}
