/* SPDX-License-Identifier: ISC */
/*
 * Words close to a misspelt one: edit distance, and the closest of a list
 * for "did you mean" messages.
 */
#ifndef WORDS_H
#define WORDS_H

#include <stddef.h>

/* Edits (insert, delete, replace a letter, swap two) from a to b. */
size_t	words_distance(const char *, const char *);
/*
 * Whether a word d edits away from word (of len letters) is close enough
 * to suggest: a third of its letters or fewer, at least two.
 */
int	words_close(size_t d, size_t len);
/*
 * The index of the word of v[n] closest to word, when close enough to
 * suggest (words_close) and no other is as close; -1 if none is.
 */
long	words_closest(const char *, const char *const *, size_t);

#endif
