/* SPDX-License-Identifier: ISC */
/*
 * SIGINT/SIGTERM handling.  The first signal sets a flag the measuring loops
 * poll; the second removes the registered test files and exits 130 at once.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "xmalloc.h"

static volatile sig_atomic_t	 interrupt_count;
static char			*interrupt_paths[INTERRUPT_PATHS];

static void
interrupt_handler(int sig)
{
	size_t	i;

	(void)sig;
	if (++interrupt_count < 2)
		return;
	for (i = 0; i < INTERRUPT_PATHS; i++) {
		if (interrupt_paths[i] != NULL)
			unlink(interrupt_paths[i]);
	}
	_exit(130);
}

/* Install the handlers for SIGINT and SIGTERM. */
void
interrupt_install(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interrupt_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Nonzero once a stop was requested. */
int
interrupt_requested(void)
{
	return (interrupt_count > 0);
}

/* Keep path for the second signal's cleanup (NULL forgets them all). */
void
interrupt_set_cleanup(const char *path)
{
	char	*old;
	size_t	 i;

	for (i = 0; i < INTERRUPT_PATHS; i++) {
		if (path != NULL && interrupt_paths[i] != NULL)
			continue;
		old = interrupt_paths[i];
		interrupt_paths[i] = path != NULL ? xstrdup(path) : NULL;
		free(old);
		if (path != NULL)
			return;
	}
}

/* Forget path. */
void
interrupt_forget_cleanup(const char *path)
{
	char	*old;
	size_t	 i;

	for (i = 0; i < INTERRUPT_PATHS; i++) {
		if (interrupt_paths[i] == NULL ||
		    strcmp(interrupt_paths[i], path) != 0)
			continue;
		old = interrupt_paths[i];
		interrupt_paths[i] = NULL;
		free(old);
	}
}
