/* SPDX-License-Identifier: ISC */
/* Helpers shared by the report tests: fixture paths, files, reports. */
#ifndef T_REPORT_H
#define T_REPORT_H

#include <stddef.h>

#include "report.h"

/* Path of a file under tests/data (static buffer). */
const char	*t_data(const char *);
/* A fresh temporary directory (caller removes it with t_rmdir). */
char		*t_tmpdir(void);
void		 t_rmdir(const char *);
/* Whole file into an allocated string; NULL if unreadable. */
char		*t_slurp(const char *, size_t *);
/* Render r as JSON into an allocated string. */
char		*t_json(const struct report *);
/* A small synthetic report with scan and limits (caller report_free). */
void		 t_report_make(struct report *);

#endif
