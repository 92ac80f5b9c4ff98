/* SPDX-License-Identifier: ISC */
/*
 * SIGINT/SIGTERM handling.  The first signal sets a flag the measuring loops
 * poll; the second removes the registered test file and exits 130 at once.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "xmalloc.h"

static volatile sig_atomic_t	 interrupt_count;
static char			*interrupt_cleanup_path;

static void
interrupt_handler(int sig)
{
	(void)sig;
	if (++interrupt_count < 2)
		return;
	if (interrupt_cleanup_path != NULL)
		unlink(interrupt_cleanup_path);
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

/* Remember path for the second signal's cleanup (NULL forgets it). */
void
interrupt_set_cleanup(const char *path)
{
	char	*old = interrupt_cleanup_path;

	interrupt_cleanup_path = path != NULL ? xstrdup(path) : NULL;
	free(old);
}
