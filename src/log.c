/* SPDX-License-Identifier: ISC */
/*
 * Messages on stderr, one line each, prefixed "tierprobe: ".  stdout is kept
 * for reports.  log_warn and fatal add strerror(errno); the x variants don't.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static int	log_quiet;

static void __attribute__((format(printf, 1, 0)))
log_vwrite(const char *fmt, va_list ap, int with_errno)
{
	int	saved = errno;

	fputs("tierprobe: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	fflush(stderr);
}

/* Silence log_info (warnings and errors still print). */
void
log_set_quiet(int quiet)
{
	log_quiet = quiet;
}

/* A notice the user may want; silenced by --quiet. */
void
log_info(const char *fmt, ...)
{
	va_list	ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	log_vwrite(fmt, ap, 0);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(fmt, ap, 0);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(fmt, ap, 1);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(fmt, ap, 1);
	va_end(ap);
	exit(1);
}
