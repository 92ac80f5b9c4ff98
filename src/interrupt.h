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
/*
 * A path to unlink if the process is killed by a second signal (up to
 * INTERRUPT_PATHS are kept); NULL forgets them all.
 */
void	interrupt_set_cleanup(const char *);
/* Forget one path given to interrupt_set_cleanup. */
void	interrupt_forget_cleanup(const char *);

#define INTERRUPT_PATHS	64

#endif
