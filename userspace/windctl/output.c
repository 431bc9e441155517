// SPDX-License-Identifier: GPL-2.0
/*
 * Output of windctl: aligned tables for people, JSON for programs.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "windctl.h"

struct wc_table {
	size_t ncols;
	const char *const *headers;
	const enum wc_align *align;
	char **cells;			/* row-major, ncols per row */
	size_t ncells, cap;
};

struct wc_table *wc_table_new(size_t ncols, const char *const *headers,
			      const enum wc_align *align)
{
	struct wc_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->headers = headers;
	t->align = align;
	return t;
}

void wc_table_cell(struct wc_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (t->ncells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **cells = realloc(t->cells, cap * sizeof(*cells));

		if (!cells)
			return;
		t->cells = cells;
		t->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	t->cells[t->ncells++] = s;
}

static void print_cell(FILE *f, const char *s, size_t width,
		       enum wc_align align, bool last)
{
	if (!s)
		s = "?";
	if (align == WC_RIGHT)
		fprintf(f, "%*s", (int)width, s);
	else if (last)
		fputs(s, f);
	else
		fprintf(f, "%-*s", (int)width, s);
}

void wc_table_print(struct wc_table *t, FILE *f)
{
	size_t *width = calloc(t->ncols, sizeof(*width));
	size_t i, c;

	if (!width)
		return;
	for (c = 0; c < t->ncols; c++)
		width[c] = strlen(t->headers[c]);
	for (i = 0; i < t->ncells; i++) {
		size_t len = t->cells[i] ? strlen(t->cells[i]) : 1;

		if (len > width[i % t->ncols])
			width[i % t->ncols] = len;
	}
	for (c = 0; c < t->ncols; c++) {
		print_cell(f, t->headers[c], width[c], t->align[c],
			   c == t->ncols - 1);
		fputs(c == t->ncols - 1 ? "\n" : "  ", f);
	}
	for (i = 0; i < t->ncells; i++) {
		c = i % t->ncols;
		print_cell(f, t->cells[i], width[c], t->align[c],
			   c == t->ncols - 1);
		fputs(c == t->ncols - 1 ? "\n" : "  ", f);
	}
	if (t->ncells % t->ncols)
		fputc('\n', f);
	free(width);
}

void wc_table_free(struct wc_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

/*
 * JSON: one flag per open array or object says whether the next member
 * needs a comma before it.
 */
#define JSON_DEPTH 16
static bool json_first[JSON_DEPTH] = { true };
static int json_depth;

static void json_sep(FILE *f)
{
	if (!json_first[json_depth])
		fputc(',', f);
	json_first[json_depth] = false;
}

static void json_open(FILE *f, char c)
{
	fputc(c, f);
	if (json_depth < JSON_DEPTH - 1)
		json_depth++;
	json_first[json_depth] = true;
}

void wc_json_begin_array(FILE *f)
{
	json_open(f, '[');
}

void wc_json_end_array(FILE *f)
{
	fputc(']', f);
	if (json_depth)
		json_depth--;
}

void wc_json_begin_object(FILE *f)
{
	json_open(f, '{');
}

void wc_json_end_object(FILE *f)
{
	fputc('}', f);
	if (json_depth)
		json_depth--;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* A member name, or for an array element nothing but the separator */
void wc_json_key(FILE *f, const char *key)
{
	json_sep(f);
	if (key) {
		json_string(f, key);
		fputc(':', f);
	}
}

void wc_json_uint(FILE *f, const char *key, uint64_t v)
{
	wc_json_key(f, key);
	fprintf(f, "%llu", (unsigned long long)v);
}

void wc_json_str(FILE *f, const char *key, const char *s)
{
	wc_json_key(f, key);
	json_string(f, s);
}

void wc_json_null(FILE *f, const char *key)
{
	wc_json_key(f, key);
	fputs("null", f);
}

void wc_json_end(FILE *f)
{
	fputc('\n', f);
	json_depth = 0;
	json_first[0] = true;
}
