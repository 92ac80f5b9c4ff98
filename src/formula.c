/* SPDX-License-Identifier: ISC */
/*
 * Formulas: a recursive-descent parser into a node array, and an
 * evaluator over doubles.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formula.h"
#include "xmalloc.h"

/*
 * The grammar, lowest precedence first:
 *
 *   cond    := or [ '?' cond ':' cond ]
 *   or      := and { '||' and }
 *   and     := cmp { '&&' cmp }
 *   cmp     := sum [ ( '<' | '<=' | '>' | '>=' | '==' | '!=' ) sum ]
 *   sum     := prod { ( '+' | '-' ) prod }
 *   prod    := unary { ( '*' | '/' ) unary }
 *   unary   := ( '-' | '!' ) unary | primary
 *   primary := number | name | name '(' cond { ',' cond } ')' | '(' cond ')'
 *
 * min and max of more than two arguments nest as pairs.
 */

enum formula_op {
	FORMULA_NUM, FORMULA_VAR, FORMULA_NEG, FORMULA_NOT,
	FORMULA_ADD, FORMULA_SUB, FORMULA_MUL, FORMULA_DIV,
	FORMULA_LT, FORMULA_LE, FORMULA_GT, FORMULA_GE, FORMULA_EQ, FORMULA_NE,
	FORMULA_AND, FORMULA_OR, FORMULA_COND,
	FORMULA_MIN, FORMULA_MAX, FORMULA_CLAMP, FORMULA_FLOOR, FORMULA_CEIL,
};

struct formula_node {
	enum formula_op	 op;
	double		 value;		/* NUM */
	size_t		 var;		/* VAR */
	int		 a, b, c;	/* operands, by index; -1 none */
};

struct formula {
	char			*text;
	struct formula_node	*node;
	size_t			 n;
	int			 root;
};

struct formula_parser {
	const char		*text;
	const char		*p;
	const char *const	*names;
	size_t			 nnames;
	unsigned		 depth;
	char			*cause;		/* first error */
	struct formula		*f;
};

static const struct {
	const char	*name;
	enum formula_op	 op;
	int		 nargs;		/* -1: two or more */
} formula_funcs[] = {
	{ "min", FORMULA_MIN, -1 },
	{ "max", FORMULA_MAX, -1 },
	{ "clamp", FORMULA_CLAMP, 3 },
	{ "floor", FORMULA_FLOOR, 1 },
	{ "ceil", FORMULA_CEIL, 1 },
};
#define FORMULA_NFUNCS	(sizeof formula_funcs / sizeof formula_funcs[0])

static int	formula_cond(struct formula_parser *);

static void
formula_error(struct formula_parser *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Keep the first error, with the column it is at. */
static void
formula_error(struct formula_parser *fp, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (fp->cause != NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	xasprintf(&fp->cause, "\"%s\", column %zu: %s", fp->text,
	    (size_t)(fp->p - fp->text) + 1, msg != NULL ? msg : "error");
	free(msg);
}

static void
formula_skip(struct formula_parser *fp)
{
	while (isspace((unsigned char)*fp->p))
		fp->p++;
}

/* Take tok if it is next. */
static int
formula_accept(struct formula_parser *fp, const char *tok)
{
	size_t	len = strlen(tok);

	formula_skip(fp);
	if (strncmp(fp->p, tok, len) != 0)
		return (0);
	/* "<" is not the start of "<=", nor "!" of "!=". */
	if (len == 1 && strchr("<>!", *tok) != NULL && fp->p[1] == '=')
		return (0);
	fp->p += len;
	return (1);
}

static int
formula_node(struct formula_parser *fp, enum formula_op op, int a, int b,
    int c)
{
	struct formula		*f = fp->f;
	struct formula_node	*n;

	f->node = xreallocarray(f->node, f->n + 1, sizeof *f->node);
	n = &f->node[f->n];
	memset(n, 0, sizeof *n);
	n->op = op;
	n->a = a;
	n->b = b;
	n->c = c;
	return ((int)f->n++);
}

/* A name: a letter or '_', then letters, digits and '_'. */
static size_t
formula_name_len(const char *s)
{
	size_t	n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return (0);
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return (n);
}

/* The names accepted, for a message. */
static char *
formula_known(const struct formula_parser *fp)
{
	char	*list = NULL, *tmp;
	size_t	 i;

	for (i = 0; i < fp->nnames; i++) {
		xasprintf(&tmp, "%s%s%s", list != NULL ? list : "",
		    list != NULL ? ", " : "", fp->names[i]);
		free(list);
		list = tmp;
	}
	if (list == NULL)
		list = xstrdup("none");
	return (list);
}

/* A function call after its name: the arguments in parentheses. */
static int
formula_call(struct formula_parser *fp, size_t k)
{
	int	arg[3], n = 0, x;

	if (!formula_accept(fp, "(")) {
		formula_error(fp, "%s needs its arguments in parentheses",
		    formula_funcs[k].name);
		return (-1);
	}
	for (;;) {
		if ((x = formula_cond(fp)) < 0)
			return (-1);
		if (n < 3)
			arg[n] = x;
		else if (formula_funcs[k].nargs < 0)	/* min/max: chain */
			arg[2] = x;
		if (n >= 2 && formula_funcs[k].nargs < 0)
			arg[1] = formula_node(fp, formula_funcs[k].op, arg[1],
			    arg[2], -1);
		n++;
		if (!formula_accept(fp, ","))
			break;
	}
	if (!formula_accept(fp, ")")) {
		formula_error(fp, "expected ',' or ')' in %s(...)",
		    formula_funcs[k].name);
		return (-1);
	}
	if (formula_funcs[k].nargs < 0 ? n < 2 : n != formula_funcs[k].nargs) {
		formula_error(fp, "%s takes %s%d argument%s, not %d",
		    formula_funcs[k].name, formula_funcs[k].nargs < 0 ?
		    "at least " : "", formula_funcs[k].nargs < 0 ? 2 :
		    formula_funcs[k].nargs, formula_funcs[k].nargs == 1 ? "" :
		    "s", n);
		return (-1);
	}
	switch (formula_funcs[k].op) {
	case FORMULA_MIN:
	case FORMULA_MAX:
		return (formula_node(fp, formula_funcs[k].op, arg[0], arg[1],
		    -1));
	case FORMULA_CLAMP:
		return (formula_node(fp, FORMULA_CLAMP, arg[0], arg[1],
		    arg[2]));
	default:
		return (formula_node(fp, formula_funcs[k].op, arg[0], -1, -1));
	}
}

static int
formula_primary(struct formula_parser *fp)
{
	char	*end, *known, name[64];
	size_t	 len, i;
	double	 v;
	int	 x;

	formula_skip(fp);
	if (isdigit((unsigned char)*fp->p) || (*fp->p == '.' &&
	    isdigit((unsigned char)fp->p[1]))) {
		errno = 0;
		v = strtod(fp->p, &end);
		if (errno != 0 || !isfinite(v)) {
			formula_error(fp, "number out of range");
			return (-1);
		}
		fp->p = end;
		x = formula_node(fp, FORMULA_NUM, -1, -1, -1);
		fp->f->node[x].value = v;
		return (x);
	}
	if (formula_accept(fp, "(")) {
		if ((x = formula_cond(fp)) < 0)
			return (-1);
		if (!formula_accept(fp, ")")) {
			formula_error(fp, "expected ')'");
			return (-1);
		}
		return (x);
	}
	if ((len = formula_name_len(fp->p)) == 0) {
		formula_error(fp, *fp->p == '\0' ? "the formula ends where a "
		    "number, name or '(' was expected" : "expected a number, "
		    "a name or '('");
		return (-1);
	}
	snprintf(name, sizeof name, "%.*s", (int)len, fp->p);
	for (i = 0; i < FORMULA_NFUNCS; i++) {
		if (strlen(formula_funcs[i].name) == len &&
		    strncmp(formula_funcs[i].name, fp->p, len) == 0) {
			fp->p += len;
			return (formula_call(fp, i));
		}
	}
	for (i = 0; i < fp->nnames; i++) {
		if (strlen(fp->names[i]) == len &&
		    strncmp(fp->names[i], fp->p, len) == 0) {
			fp->p += len;
			x = formula_node(fp, FORMULA_VAR, -1, -1, -1);
			fp->f->node[x].var = i;
			return (x);
		}
	}
	known = formula_known(fp);
	formula_error(fp, "unknown name \"%s\"%s (variables here: %s; "
	    "functions: min, max, clamp, floor, ceil)", name,
	    len >= sizeof name ? "..." : "", known);
	free(known);
	return (-1);
}

static int
formula_unary(struct formula_parser *fp)
{
	int	x;

	if (++fp->depth > FORMULA_MAX_DEPTH) {
		formula_error(fp, "nested more than %d deep",
		    FORMULA_MAX_DEPTH);
		return (-1);
	}
	if (formula_accept(fp, "-"))
		x = (x = formula_unary(fp)) < 0 ? -1 :
		    formula_node(fp, FORMULA_NEG, x, -1, -1);
	else if (formula_accept(fp, "!"))
		x = (x = formula_unary(fp)) < 0 ? -1 :
		    formula_node(fp, FORMULA_NOT, x, -1, -1);
	else
		x = formula_primary(fp);
	fp->depth--;
	return (x);
}

/* A left-associative level: operands from next, operators from ops. */
static int
formula_level(struct formula_parser *fp, int (*next)(struct formula_parser *),
    const char *const *ops, const enum formula_op *codes, size_t nops,
    int repeat)
{
	size_t	i;
	int	x, y;

	if ((x = next(fp)) < 0)
		return (-1);
	do {
		for (i = 0; i < nops; i++)
			if (formula_accept(fp, ops[i]))
				break;
		if (i == nops)
			return (x);
		if ((y = next(fp)) < 0)
			return (-1);
		x = formula_node(fp, codes[i], x, y, -1);
	} while (repeat);
	return (x);
}

static int
formula_prod(struct formula_parser *fp)
{
	static const char *const ops[] = { "*", "/" };
	static const enum formula_op codes[] = { FORMULA_MUL, FORMULA_DIV };

	return (formula_level(fp, formula_unary, ops, codes, 2, 1));
}

static int
formula_sum(struct formula_parser *fp)
{
	static const char *const ops[] = { "+", "-" };
	static const enum formula_op codes[] = { FORMULA_ADD, FORMULA_SUB };

	return (formula_level(fp, formula_prod, ops, codes, 2, 1));
}

static int
formula_cmp(struct formula_parser *fp)
{
	static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">" };
	static const enum formula_op codes[] = { FORMULA_LE, FORMULA_GE,
	    FORMULA_EQ, FORMULA_NE, FORMULA_LT, FORMULA_GT };

	return (formula_level(fp, formula_sum, ops, codes, 6, 0));
}

static int
formula_and(struct formula_parser *fp)
{
	static const char *const ops[] = { "&&" };
	static const enum formula_op codes[] = { FORMULA_AND };

	return (formula_level(fp, formula_cmp, ops, codes, 1, 1));
}

static int
formula_or(struct formula_parser *fp)
{
	static const char *const ops[] = { "||" };
	static const enum formula_op codes[] = { FORMULA_OR };

	return (formula_level(fp, formula_and, ops, codes, 1, 1));
}

static int
formula_cond(struct formula_parser *fp)
{
	int	c, a, b;

	if (++fp->depth > FORMULA_MAX_DEPTH) {
		formula_error(fp, "nested more than %d deep",
		    FORMULA_MAX_DEPTH);
		return (-1);
	}
	c = formula_or(fp);
	if (c >= 0 && formula_accept(fp, "?")) {
		if ((a = formula_cond(fp)) < 0)
			c = -1;
		else if (!formula_accept(fp, ":")) {
			formula_error(fp, "expected ':' of c ? a : b");
			c = -1;
		} else if ((b = formula_cond(fp)) < 0)
			c = -1;
		else
			c = formula_node(fp, FORMULA_COND, c, a, b);
	}
	fp->depth--;
	return (c);
}

/* Parse a formula; see formula.h. */
struct formula *
formula_parse(const char *text, const char *const *names, size_t nnames,
    char **cause)
{
	struct formula_parser	fp;

	memset(&fp, 0, sizeof fp);
	fp.text = fp.p = text;
	fp.names = names;
	fp.nnames = nnames;
	fp.f = xcalloc(1, sizeof *fp.f);
	fp.f->text = xstrdup(text);
	if (strlen(text) > FORMULA_MAX_LEN)
		xasprintf(&fp.cause, "a formula of more than %d characters",
		    FORMULA_MAX_LEN);
	else if ((fp.f->root = formula_cond(&fp)) >= 0) {
		formula_skip(&fp);
		if (*fp.p != '\0')
			formula_error(&fp, "unexpected \"%.16s\" after the "
			    "formula", fp.p);
	}
	if (fp.cause != NULL) {
		*cause = fp.cause;
		formula_free(fp.f);
		return (NULL);
	}
	return (fp.f);
}

void
formula_free(struct formula *f)
{
	if (f == NULL)
		return;
	free(f->text);
	free(f->node);
	free(f);
}

static double
formula_node_eval(const struct formula *f, int i, const double *v)
{
	const struct formula_node	*n = &f->node[i];
	double				 a, b, c;

	switch (n->op) {
	case FORMULA_NUM:
		return (n->value);
	case FORMULA_VAR:
		return (v[n->var]);
	case FORMULA_COND:
		c = formula_node_eval(f, n->a, v);
		if (isnan(c))
			return (NAN);
		return (formula_node_eval(f, c != 0 ? n->b : n->c, v));
	default:
		break;
	}
	a = formula_node_eval(f, n->a, v);
	b = n->b >= 0 ? formula_node_eval(f, n->b, v) : 0;
	c = n->c >= 0 ? formula_node_eval(f, n->c, v) : 0;
	if (isnan(a) || isnan(b) || isnan(c))
		return (NAN);
	switch (n->op) {
	case FORMULA_NEG:	return (-a);
	case FORMULA_NOT:	return (a == 0);
	case FORMULA_ADD:	return (a + b);
	case FORMULA_SUB:	return (a - b);
	case FORMULA_MUL:	return (a * b);
	case FORMULA_DIV:	return (b != 0 ? a / b : NAN);
	case FORMULA_LT:	return (a < b);
	case FORMULA_LE:	return (a <= b);
	case FORMULA_GT:	return (a > b);
	case FORMULA_GE:	return (a >= b);
	case FORMULA_EQ:	return (a == b);
	case FORMULA_NE:	return (a != b);
	case FORMULA_AND:	return (a != 0 && b != 0);
	case FORMULA_OR:	return (a != 0 || b != 0);
	case FORMULA_MIN:	return (a < b ? a : b);
	case FORMULA_MAX:	return (a > b ? a : b);
	case FORMULA_CLAMP:	return (a < b ? b : a > c ? c : a);
	case FORMULA_FLOOR:	return (floor(a));
	case FORMULA_CEIL:	return (ceil(a));
	default:		return (NAN);
	}
}

/* The value of f for v; see formula.h. */
double
formula_eval(const struct formula *f, const double *v)
{
	double	x = formula_node_eval(f, f->root, v);

	return (isfinite(x) ? x : NAN);
}

/* Whether f reads variable i. */
int
formula_uses(const struct formula *f, size_t i)
{
	size_t	k;

	for (k = 0; k < f->n; k++)
		if (f->node[k].op == FORMULA_VAR && f->node[k].var == i)
			return (1);
	return (0);
}

/* The text f was parsed from. */
const char *
formula_text(const struct formula *f)
{
	return (f->text);
}
