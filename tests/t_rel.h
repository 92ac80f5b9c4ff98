/* SPDX-License-Identifier: ISC */
/*
 * Test helper: a figure within a relative tolerance of its truth, failing
 * the cmocka test with both values and the tolerance.
 */
#ifndef T_REL_H
#define T_REL_H

#include <math.h>

/* a within tol (a fraction) of b. */
#define T_REL(a, b, tol)	T_REL_AT("", a, b, tol)

/* The same, the failure prefixed with what (the case, the seed). */
#define T_REL_AT(what, a, b, tol) do {					\
	const char	*t_w_ = (what);					\
	double		 t_a_ = (a), t_b_ = (b);			\
	if (!(fabs(t_a_ / t_b_ - 1) <= (tol)))				\
		fail_msg("%s%s%s = %.6g, want %.6g +- %.0f%%", t_w_,	\
		    *t_w_ != '\0' ? ": " : "", #a, t_a_, t_b_,		\
		    100.0 * (tol));					\
} while (0)

#endif
