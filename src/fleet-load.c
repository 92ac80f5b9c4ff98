/* SPDX-License-Identifier: ISC */
/*
 * Reading a fleet: report files and directories of them (*.json, found
 * recursively, in name order); what cannot be read is noted as skipped
 * with the reason, and the rest is analysed.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "report.h"
#include "xmalloc.h"

struct fleet_load_files {
	char	**v;
	size_t	  n;
};

static int
fleet_load_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * Add the *.json files under dir (not hidden ones) to fs; a directory that
 * cannot be read is noted as skipped.  Returns 0, or -1 if dir is one.
 */
static int
fleet_load_walk(struct fleet *fl, const char *dir,
    struct fleet_load_files *fs, int depth)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*path;
	size_t		 len;

	if (depth > 16)
		return (0);
	if ((d = opendir(dir)) == NULL) {
		fleet_skip(fl, dir, strerror(errno));
		return (-1);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&path, "%s/%s", dir, de->d_name);
		len = strlen(de->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			fleet_load_walk(fl, path, fs, depth + 1);
		else if (len > 5 &&
		    strcmp(de->d_name + len - 5, ".json") == 0) {
			fs->v = xreallocarray(fs->v, fs->n + 1, sizeof *fs->v);
			fs->v[fs->n++] = path;
			continue;
		}
		free(path);
	}
	closedir(d);
	return (0);
}

/* Load file into fl, or note it as skipped. */
static void
fleet_load_file(struct fleet *fl, const char *file,
    const struct check_list *checks)
{
	struct report	 r;
	char		*cause = NULL;
	size_t		 len = strlen(file);

	if (report_load(file, &r, &cause) != 0) {
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
	struct fleet_load_files	 fs;
	struct stat		 st;
	size_t			 j;
	int			 i;

	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st) == -1) {
			fleet_skip(fl, paths[i], strerror(errno));
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			fleet_load_file(fl, paths[i], checks);
			continue;
		}
		memset(&fs, 0, sizeof fs);
		if (fleet_load_walk(fl, paths[i], &fs, 0) == 0 && fs.n == 0)
			fleet_skip(fl, paths[i], "no report (*.json) in this "
			    "directory");
		if (fs.n > 1)
			qsort(fs.v, fs.n, sizeof *fs.v, fleet_load_cmp);
		for (j = 0; j < fs.n; j++) {
			fleet_load_file(fl, fs.v[j], checks);
			free(fs.v[j]);
		}
		free(fs.v);
	}
	fleet_analyse(fl);
}
