/* SPDX-License-Identifier: ISC */
/*
 * SIGINT/SIGTERM: the first asks the run to stop (drain in-flight I/O, save
 * a partial report, exit 130); the second exits at once, removing the test
 * file this run created.
 */
#ifndef INTERRUPT_H
#define INTERRUPT_H

void	interrupt_install(void);
/* Nonzero once a stop was requested. */
int	interrupt_requested(void);
/* Path to unlink if the process is killed by a second signal; NULL clears. */
void	interrupt_set_cleanup(const char *);

#endif
