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

#define INTERRUPT_MAX_PATHS	64

static volatile sig_atomic_t	 interrupt_count;
static char			*interrupt_paths[INTERRUPT_MAX_PATHS];

static void
interrupt_handler(int sig)
{
	size_t	i;

	(void)sig;
	if (++interrupt_count < 2)
		return;
	for (i = 0; i < INTERRUPT_MAX_PATHS; i++)
		if (interrupt_paths[i] != NULL)
			unlink(interrupt_paths[i]);
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

/* Remember path for the second signal's cleanup. */
void
interrupt_add_cleanup(const char *path)
{
	size_t	i;

	for (i = 0; i < INTERRUPT_MAX_PATHS; i++) {
		if (interrupt_paths[i] == NULL) {
			interrupt_paths[i] = xstrdup(path);
			return;
		}
	}
}

/* Forget a path added before. */
void
interrupt_drop_cleanup(const char *path)
{
	char	*old;
	size_t	 i;

	for (i = 0; i < INTERRUPT_MAX_PATHS; i++) {
		if (interrupt_paths[i] != NULL &&
		    strcmp(interrupt_paths[i], path) == 0) {
			old = interrupt_paths[i];
			interrupt_paths[i] = NULL;
			free(old);
			return;
		}
	}
}
