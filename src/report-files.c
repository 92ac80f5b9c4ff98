/* SPDX-License-Identifier: ISC */
/*
 * The report files that check and fleet read: the files named, and the
 * *.json files under the directories named (recursively, in name order);
 * a path that cannot be read, or a directory without a report, is noted
 * with the reason.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "report.h"
#include "xmalloc.h"

#define REPORT_FILES_DEPTH	16	/* levels below the one named */

static void
report_files_add(struct report_files *fs, char *path)
{
	fs->path = xreallocarray(fs->path, fs->n + 1, sizeof *fs->path);
	fs->path[fs->n++] = path;
}

static void
report_files_bad(struct report_files *fs, const char *path, const char *why)
{
	fs->bad = xreallocarray(fs->bad, fs->nbad + 1, sizeof *fs->bad);
	fs->bad[fs->nbad].path = xstrdup(path);
	fs->bad[fs->nbad].why = xstrdup(why);
	fs->nbad++;
}

static int
report_files_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * Add the *.json files under dir (not hidden ones) to fs, unsorted; a
 * directory that cannot be read is noted.  Returns -1 if dir is one.
 */
static int
report_files_walk(struct report_files *fs, const char *dir, int depth)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*path;
	size_t		 len, dlen = strlen(dir);

	if (depth > REPORT_FILES_DEPTH)
		return (0);
	if ((d = opendir(dir)) == NULL) {
		report_files_bad(fs, dir, strerror(errno));
		return (-1);
	}
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		xasprintf(&path, "%.*s%s%s", (int)dlen, dir,
		    dir[dlen - 1] == '/' ? "" : "/", de->d_name);
		len = strlen(de->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			report_files_walk(fs, path, depth + 1);
		else if (len > 5 &&
		    strcmp(de->d_name + len - 5, ".json") == 0) {
			report_files_add(fs, path);
			continue;
		}
		free(path);
	}
	closedir(d);
	return (0);
}

/*
 * Drop from fs the files named again (by another path, a link, or a file
 * named and inside a directory named), by their real path, saying so: a
 * file read twice was a report of the same host and target twice.
 */
static void
report_files_dedupe(struct report_files *fs)
{
	char	**real;
	size_t	  i, j, k = 0;

	real = xcalloc(fs->n, sizeof *real);
	for (i = 0; i < fs->n; i++) {
		real[k] = realpath(fs->path[i], NULL);
		for (j = 0; real[k] != NULL && j < k; j++) {
			if (real[j] != NULL && strcmp(real[j], real[k]) == 0)
				break;
		}
		if (real[k] != NULL && j < k) {
			log_info("%s: the same file as %s: read once",
			    fs->path[i], fs->path[j]);
			free(real[k]);
			free(fs->path[i]);
			continue;
		}
		fs->path[k++] = fs->path[i];
	}
	for (i = 0; i < k; i++)
		free(real[i]);
	free(real);
	fs->n = k;
}

/* The report files named by paths[n] into fs; see report.h. */
void
report_files_find(struct report_files *fs, char *const *paths, int n)
{
	struct stat	 st;
	size_t		 from;
	int		 i;

	memset(fs, 0, sizeof *fs);
	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st) == -1) {
			report_files_bad(fs, paths[i], strerror(errno));
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			report_files_add(fs, xstrdup(paths[i]));
			continue;
		}
		from = fs->n;
		if (report_files_walk(fs, paths[i], 0) == 0 && fs->n == from)
			report_files_bad(fs, paths[i], "no report (*.json) "
			    "in this directory");
		if (fs->n - from > 1)
			qsort(fs->path + from, fs->n - from,
			    sizeof *fs->path, report_files_cmp);
	}
	report_files_dedupe(fs);
}

/* Free what report_files_find found; the struct stays. */
void
report_files_free(struct report_files *fs)
{
	size_t	i;

	for (i = 0; i < fs->n; i++)
		free(fs->path[i]);
	free(fs->path);
	for (i = 0; i < fs->nbad; i++) {
		free(fs->bad[i].path);
		free(fs->bad[i].why);
	}
	free(fs->bad);
	memset(fs, 0, sizeof *fs);
}
