/* SPDX-License-Identifier: ISC */
/*
 * Reading a fleet: report files and directories of them (*.json, found
 * recursively, in name order); what cannot be read is noted as skipped
 * with the reason, and the rest is analysed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "report.h"
#include "xmalloc.h"

/* Load file into fl, or note it as skipped. */
static void
fleet_load_file(struct fleet *fl, const char *file,
    const struct check_list *checks)
{
	struct report	 r;
	char		*cause = NULL;
	size_t		 len = strlen(file);

	if (report_load_with(file, &r, REPORT_LOAD_LEAN, &cause) != 0) {
		if (strncmp(cause, file, len) == 0 && cause[len] == ':')
			fleet_skip(fl, file, cause + len + 2);
		else
			fleet_skip(fl, file, cause);
		free(cause);
		return;
	}
	fleet_add(fl, file, &r, checks);
	report_free(&r);
}

/* Load files and directories into fl and analyse it. */
void
fleet_load(struct fleet *fl, char **paths, int n,
    const struct check_list *checks)
{
	struct report_files	fs;
	size_t			i;

	report_files_find(&fs, paths, n);
	for (i = 0; i < fs.nbad; i++)
		fleet_skip(fl, fs.bad[i].path, fs.bad[i].why);
	for (i = 0; i < fs.n; i++)
		fleet_load_file(fl, fs.path[i], checks);
	report_files_free(&fs);
	fleet_analyse(fl);
}
