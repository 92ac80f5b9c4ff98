/* SPDX-License-Identifier: ISC */
/* Allocation that never returns NULL: out of memory is fatal. */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * A parser's first error: set *cause to "path:line: message" ("path:
 * message" for line 0) unless it is set already.
 */
void	 xcause_at(char **, const char *, int, const char *, va_list)
	    __attribute__((format(printf, 4, 0)));

#endif
