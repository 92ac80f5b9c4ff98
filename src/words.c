/* SPDX-License-Identifier: ISC */
/*
 * Words close to a misspelt one: the Levenshtein distance (one row of the
 * table kept), and the closest word of a list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"
#include "xmalloc.h"

/* Edits (insert, delete or replace a letter) that turn a into b. */
size_t
words_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, diag, up, *row;

	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	j = row[lb];
	free(row);
	return (j);
}

/* Whether d edits are few enough to suggest for a word of len letters. */
int
words_close(size_t d, size_t len)
{
	return (d <= (len / 3 > 2 ? len / 3 : 2));
}

/* The closest word of v[n] to word, if close enough; else -1. */
long
words_closest(const char *word, const char *const *v, size_t n)
{
	size_t	i, d, best = SIZE_MAX;
	long	at = -1;

	for (i = 0; i < n; i++) {
		d = words_distance(word, v[i]);
		if (d < best) {
			best = d;
			at = (long)i;
		}
	}
	if (at < 0 || !words_close(best, strlen(word)))
		return (-1);
	return (at);
}
