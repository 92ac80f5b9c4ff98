/* SPDX-License-Identifier: ISC */
/* Helpers shared by the libFuzzer harnesses (test-only, t_ prefix). */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int	LLVMFuzzerInitialize(int *, char ***);

/* Stop with a crash libFuzzer records when an invariant breaks. */
#define T_ASSERT(x) do {						\
	if (!(x))							\
		__builtin_trap();					\
} while (0)

/* The input as a NUL-terminated string (caller frees). */
static inline char *
t_string(const uint8_t *data, size_t size)
{
	char	*s = malloc(size + 1);

	T_ASSERT(s != NULL);
	memcpy(s, data, size);
	s[size] = '\0';
	return (s);
}

/*
 * A parser's message must be one line: present, non-empty, no newline
 * (unless the input itself carried one into it).
 */
static inline void
t_check_cause(const char *cause, int input_has_newline)
{
	T_ASSERT(cause != NULL && *cause != '\0');
	if (!input_has_newline)
		T_ASSERT(strchr(cause, '\n') == NULL);
}

#endif
