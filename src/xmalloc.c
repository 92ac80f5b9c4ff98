/* SPDX-License-Identifier: ISC */
/* Allocation that never returns NULL: out of memory is fatal. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"

void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		size = 1;
	if ((p = malloc(size)) == NULL)
		fatal("xmalloc: allocating %zu bytes", size);
	return (p);
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		fatal("xcalloc: allocating %zu * %zu bytes", nmemb, size);
	return (p);
}

void *
xreallocarray(void *old, size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if (size != 0 && nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		fatal("xreallocarray: %zu * %zu bytes overflows", nmemb, size);
	}
	if ((p = realloc(old, nmemb * size)) == NULL)
		fatal("xreallocarray: allocating %zu * %zu bytes", nmemb, size);
	return (p);
}

char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		fatal("xstrdup");
	return (p);
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("xasprintf");
	return (n);
}

/* Keep the first error of a parser; see xmalloc.h. */
void
xcause_at(char **cause, const char *path, int line, const char *fmt,
    va_list ap)
{
	char	*msg;

	if (*cause != NULL)
		return;
	if (vasprintf(&msg, fmt, ap) == -1)
		fatal("xcause_at");
	if (line > 0)
		xasprintf(cause, "%s:%d: %s", path, line, msg);
	else
		xasprintf(cause, "%s: %s", path, msg);
	free(msg);
}
