/* SPDX-License-Identifier: ISC */
/* Messages on stderr: notices, warnings, and fatal exits. */
#ifndef LOG_H
#define LOG_H

#define LOG_PRINTF(a, b) __attribute__((format(printf, a, b)))

void	log_set_quiet(int);
void	log_info(const char *, ...) LOG_PRINTF(1, 2);
void	log_warnx(const char *, ...) LOG_PRINTF(1, 2);
void	log_warn(const char *, ...) LOG_PRINTF(1, 2);
__attribute__((noreturn)) void fatal(const char *, ...) LOG_PRINTF(1, 2);

#endif
