/* SPDX-License-Identifier: ISC */
/*
 * The keys of a JSON report as one table (report-schema.c): the writer
 * (report-json.c), the reader (report-load.c) and the test that keeps
 * man/tierprobe-report.5 in step all walk it.
 */
#ifndef REPORT_SCHEMA_H
#define REPORT_SCHEMA_H

#include <stddef.h>

#include <jansson.h>

enum report_schema_type {
	REPORT_SCHEMA_UINT,	 /* whole number >= 0 (4 or 8 bytes) */
	REPORT_SCHEMA_UINT_NULL, /* the same; 0 is written null */
	REPORT_SCHEMA_REAL,	 /* double; NAN is written null */
	REPORT_SCHEMA_BOOL,	 /* int 0 or 1 */
	REPORT_SCHEMA_BOOL_NULL, /* int; -1 is written null */
	REPORT_SCHEMA_STRING,	 /* char[size], always a string */
	REPORT_SCHEMA_STRING_NULL, /* char[size]; "" is written null */
	REPORT_SCHEMA_WORD,	 /* int written as word(value) */
	REPORT_SCHEMA_WORD_NULL, /* the same; 0 (word(0) NULL) is null */
	REPORT_SCHEMA_OBJECT,	 /* a struct described by sub */
	REPORT_SCHEMA_ARRAY,	 /* count structs described by sub */
};
#define REPORT_SCHEMA_NTYPES	(REPORT_SCHEMA_ARRAY + 1)

/*
 * Flags of a key.  REQUIRED: a file without it is refused.  POINTER: the
 * member is a pointer, to an object (NULL: absent), to count elements of
 * an array, or a char * (size bounds it).  INLINE: an object without a
 * key of its own, whose keys sit in the parent's.  ALIAS: another key
 * holds the same value (kept for older readers).  CONST: written as a
 * constant by get; the reader only checks it.  DERIVED: the value follows
 * from other keys (a figure's bucket state); the reader checks its type
 * and a table's loaded() derives it again.
 */
#define REPORT_SCHEMA_REQUIRED	0x1
#define REPORT_SCHEMA_POINTER	0x2
#define REPORT_SCHEMA_INLINE	0x4
#define REPORT_SCHEMA_ALIAS	0x8
#define REPORT_SCHEMA_CONST	0x10
#define REPORT_SCHEMA_DERIVED	0x20

struct report_schema;

/* One key: its name, type, where its value lives, unit and meaning. */
struct report_schema_key {
	const char	*name;		/* NULL for an INLINE object */
	enum report_schema_type type;
	int		 flags;
	size_t		 offset;	/* of the member in the struct */
	size_t		 size;		/* of the member */
	int		 dflt;		/* BOOL: when absent or null */
	const struct report_schema *sub; /* OBJECT, ARRAY */
	const char	*unless;	/* REQUIRED unless the parent object
					   holds this key instead */
	size_t		 count;		/* ARRAY: offset of a size_t */
	size_t		 max;		/* ARRAY in place: capacity */
	const char	*(*word)(int);	/* WORD: NULL past the last (and
					   for 0 of WORD_NULL) */
	/*
	 * NULL, or whether the value is known; if not, it is written null
	 * (an array empty, an object not at all).
	 */
	int		 (*shown)(const void *);
	/*
	 * Odd values, both or neither: the JSON value from the struct, and
	 * back into it (-1 and "KEY: why" in cause; key is the path).
	 */
	json_t		*(*get)(const void *);
	int		 (*set)(const json_t *, void *, const char *,
			    char **);
	const char	*unit;		/* "bytes", "us", ...; or NULL */
	const char	*doc;		/* one line */
};

/* The keys of one JSON object and the struct that holds them. */
struct report_schema {
	const char	*name;
	size_t		 size;		/* of the struct */
	const struct report_schema_key *keys; /* in output order */
	size_t		 nkeys;
	const char	*man_section;	/* NULL, or the .Ss of the man
					   page naming its keys alone */
	void		 (*loaded)(void *); /* after reading */
};

/* The whole report (struct report). */
extern const struct report_schema report_schema_root;

/* A JSON value's type for messages: "an object", "null", ... */
const char	*report_schema_json_type(const json_t *);

#endif
