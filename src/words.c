/* SPDX-License-Identifier: ISC */
/*
 * Words close to a misspelt one: an edit distance, and the closest word
 * of a list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"
#include "xmalloc.h"

/*
 * Edits (insert, delete or replace a letter, or swap two next to each
 * other: "scna" is one from "scan") that turn a into b: the optimal string
 * alignment distance, over the whole table (words are short).
 */
size_t
words_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, w = lb + 1, d, *t;

	t = xcalloc((la + 1) * w, sizeof *t);
	for (i = 0; i <= la; i++)
		t[i * w] = i;
	for (j = 0; j <= lb; j++)
		t[j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			d = t[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);
			if (t[(i - 1) * w + j] + 1 < d)
				d = t[(i - 1) * w + j] + 1;
			if (t[i * w + j - 1] + 1 < d)
				d = t[i * w + j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    t[(i - 2) * w + j - 2] + 1 < d)
				d = t[(i - 2) * w + j - 2] + 1;
			t[i * w + j] = d;
		}
	}
	d = t[la * w + lb];
	free(t);
	return (d);
}

/* Whether d edits are few enough to suggest for a word of len letters. */
int
words_close(size_t d, size_t len)
{
	return (d <= (len / 3 > 2 ? len / 3 : 2));
}

/*
 * The closest word of v[n] to word, if close enough and the only one that
 * close (gp9 is as close to gp2 as to gp3: neither is suggested); else -1.
 */
long
words_closest(const char *word, const char *const *v, size_t n)
{
	size_t	i, d, best = SIZE_MAX;
	long	at = -1;
	int	tie = 0;

	for (i = 0; i < n; i++) {
		d = words_distance(word, v[i]);
		if (d < best) {
			best = d;
			at = (long)i;
			tie = 0;
		} else if (d == best)
			tie = 1;
	}
	if (at < 0 || tie || !words_close(best, strlen(word)))
		return (-1);
	return (at);
}
