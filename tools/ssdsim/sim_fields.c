// SPDX-License-Identifier: GPL-2.0
/*
 * sim_fields.c - --fields over the run's values (sim_fields.h): their
 * leaves as (path, text) pairs, the chosen ones printed.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/sim_fields.h"
#include "tools/ssdsim/sim_values.h"
#include "tools/msg/msg.h"

struct flat {
	char **name;
	char **value;		/* as written: a string without its quotes */
	bool *quoted;
	size_t count, room;
};

static int add(struct flat *f, const char *name, const char *v, size_t len, bool quoted)
{
	if (f->count == f->room) {
		size_t room = f->room ? 2 * f->room : 256;
		char **n = realloc(f->name, room * sizeof(*n));
		char **val = n ? realloc(f->value, room * sizeof(*val)) : NULL;
		bool *q = val ? realloc(f->quoted, room * sizeof(*q)) : NULL;

		if (n)
			f->name = n;
		if (val)
			f->value = val;
		if (!q)
			return -1;
		f->quoted = q;
		f->room = room;
	}
	f->name[f->count] = strdup(name);
	f->value[f->count] = strndup(v, len);
	f->quoted[f->count] = quoted;
	if (!f->name[f->count] || !f->value[f->count])
		return -1;
	f->count++;
	return 0;
}

/* One leaf of the values into @ctx's list. */
static int add_leaf(void *ctx, const char *path, const struct ssdsim_value *v)
{
	return add(ctx, path, v->text, strlen(v->text), v->type == SSDSIM_TEXT);
}

static void flat_free(struct flat *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->name[i]);
		free(f->value[i]);
	}
	free(f->name);
	free(f->value);
	free(f->quoted);
}

static int flatten(const struct sim_values *vs, struct flat *f)
{
	memset(f, 0, sizeof(*f));
	if (vs->failed || sim_values_walk(vs, add_leaf, f)) {
		msg_say("ssdsim: out of memory\n");
		flat_free(f);
		return -1;
	}
	return 0;
}

static long find(const struct flat *f, const char *name, size_t len)
{
	for (size_t i = 0; i < f->count; i++)
		if (strlen(f->name[i]) == len && !strncmp(f->name[i], name, len))
			return (long)i;
	return -1;
}

static bool in_list(const char *const *also, const char *name, size_t len)
{
	for (; also && *also; also++)
		if (strlen(*also) == len && !strncmp(*also, name, len))
			return true;
	return false;
}

/* Edit distance of @a[0..la) and @b, at most 99. */
static unsigned int distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i, j;
	unsigned int row[128], prev, tmp;

	if (la >= 127 || lb >= 127)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev :
				 1 + (prev < row[j] ? (prev < row[j - 1] ? prev : row[j - 1]) :
				      (row[j] < row[j - 1] ? row[j] : row[j - 1]));
			prev = tmp;
		}
	}
	return row[lb] > 99 ? 99 : row[lb];
}

/* "unknown field X; close names: a, b, c" on stderr. */
static void say_unknown(const struct flat *f, const char *name, size_t len)
{
	unsigned int limit = len / 3 > 2 ? len / 3 : 2, shown = 0;
	char *needle = strndup(name, len);

	msg_say("ssdsim: --fields: unknown field '%.*s'", (int)len, name);
	for (unsigned int d = 0; d <= 99 && shown < 8 && needle; d++) {
		for (size_t i = 0; i < f->count && shown < 8; i++) {
			unsigned int dist = strstr(f->name[i], needle) ? 0 :
					    distance(name, len, f->name[i]);

			if (dist != d || (d > limit))
				continue;
			msg_say("%s%s", shown++ ? ", " : "; close names: ", f->name[i]);
		}
	}
	if (!shown)
		msg_say("; the names are those of --json (nested: latency.write.p99_ns)");
	msg_say("\n");
	free(needle);
}

/* Every comma-separated name of @fields known: 0, or -1 after messages. */
static int check_names(const struct flat *f, const char *fields, const char *const *also)
{
	const char *p = fields;
	int bad = 0;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len || (find(f, p, len) < 0 && !in_list(also, p, len))) {
			say_unknown(f, p, len);
			bad = -1;
		}
		p += len;
		if (*p)
			p++;
	}
	return bad;
}

int sim_fields_check(const struct sim_values *vs, const char *fields, const char *const *also)
{
	struct flat f;
	int ret;

	if (flatten(vs, &f))
		return -1;
	ret = check_names(&f, fields, also);
	flat_free(&f);
	return ret;
}

/* A CSV cell: quoted if it holds a comma, a quote or a line break. */
static void csv_cell(FILE *out, const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		fputs(v, out);
		return;
	}
	fputc('"', out);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', out);
		fputc(*v, out);
	}
	fputc('"', out);
}

int sim_fields_print(FILE *out, const struct sim_values *vs, const char *fields, bool csv,
		     const char *const *also)
{
	struct flat f;
	const char *p;
	int pass;

	if (flatten(vs, &f))
		return -1;
	if (!fields) {
		/* Every field, in the JSON's order. */
		for (pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < f.count; i++) {
				if (i)
					fputc(',', out);
				csv_cell(out, pass ? (f.quoted[i] || strcmp(f.value[i], "null") ?
						      f.value[i] : "") : f.name[i]);
				if (i + 1 == f.count)
					fputc('\n', out);
			}
		flat_free(&f);
		return 0;
	}
	if (check_names(&f, fields, also)) {
		flat_free(&f);
		return -1;
	}
	/* CSV: the names, then the values; lines: "name value" each. */
	for (pass = csv ? 0 : 1; pass < 2; pass++) {
		for (p = fields; *p;) {
			size_t len = strcspn(p, ",");
			long i = find(&f, p, len);
			const char *v = i >= 0 ? f.value[i] : "null";

			if (csv && i >= 0 && !f.quoted[i] && !strcmp(v, "null"))
				v = "";
			else if (csv && i < 0)
				v = "";

			if (csv) {
				if (p != fields)
					fputc(',', out);
				if (pass)
					csv_cell(out, v);
				else
					fprintf(out, "%.*s", (int)len, p);
			} else {
				fprintf(out, "%-28.*s %s\n", (int)len, p, v);
			}
			p += len + (p[len] == ',');
		}
		if (csv)
			fputc('\n', out);
	}
	flat_free(&f);
	return 0;
}
