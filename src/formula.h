/* SPDX-License-Identifier: ISC */
/*
 * Formulas of the volume types' rules: small arithmetic expressions over
 * named variables ("clamp(3 * size, 100, 16000)"), parsed once, evaluated
 * many times.  Pure: no I/O.
 */
#ifndef FORMULA_H
#define FORMULA_H

#include <stddef.h>

#define FORMULA_MAX_LEN		1024	/* characters of a formula */
#define FORMULA_MAX_DEPTH	48	/* nesting of a formula */

struct formula;

/*
 * Parse text, whose variables are names[0 .. n - 1] (a name's index is
 * the index of its value in formula_eval).  The language: numbers
 * ("5.4e6"), the variables, + - * / and unary minus, comparisons < <= >
 * >= == != (1 or 0), && || !, c ? a : b, parentheses, and the functions
 * min(a, b, ...), max(a, b, ...), clamp(x, lo, hi), floor(x), ceil(x).
 * Returns the formula (free with formula_free), or NULL with an allocated
 * one-line message in *cause saying where it is wrong and what is
 * accepted there.
 */
struct formula	*formula_parse(const char *, const char *const *, size_t,
		    char **);
void		 formula_free(struct formula *);

/*
 * The value of f for the values of its variables, v[i] that of names[i].
 * NAN when a value it needs is NAN, or a condition is.
 */
double		 formula_eval(const struct formula *, const double *);

/* Whether f reads variable i (so a figure depends on it). */
int		 formula_uses(const struct formula *, size_t);

/* The text f was parsed from. */
const char	*formula_text(const struct formula *);

#endif
