/* SPDX-License-Identifier: ISC */
/*
 * SIGINT/SIGTERM: the first asks the run to stop (drain in-flight I/O, save
 * a partial report, exit 130); the second exits at once, removing the test
 * files this run created.
 */
#ifndef INTERRUPT_H
#define INTERRUPT_H

void	interrupt_install(void);
/* Nonzero once a stop was requested. */
int	interrupt_requested(void);
/* A path to unlink if a second signal ends the process (copied). */
void	interrupt_add_cleanup(const char *);
/* Forget a path added before (the file is kept, or already removed). */
void	interrupt_drop_cleanup(const char *);

#endif
