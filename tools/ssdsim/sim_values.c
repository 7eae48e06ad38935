// SPDX-License-Identifier: GPL-2.0
/*
 * sim_values.c - the value list of a result (sim_values.h): building it,
 * rendering it as --json does, and walking its leaves by path.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/sim_values.h"

void sim_values_init(struct sim_values *vs)
{
	memset(vs, 0, sizeof(*vs));
}

void sim_values_free(struct sim_values *vs)
{
	for (size_t i = 0; i < vs->count; i++) {
		free((char *)vs->v[i].name);
		free((char *)vs->v[i].text);
	}
	free(vs->v);
	memset(vs, 0, sizeof(*vs));
}

/* A new value of @type named @name with its literal @text; NULL if out of memory. */
static struct ssdsim_value *add(struct sim_values *vs, const char *name, int type,
				const char *text)
{
	struct ssdsim_value *v;

	if (vs->failed)
		return NULL;
	if (vs->count == vs->room) {
		size_t room = vs->room ? 2 * vs->room : 256;
		struct ssdsim_value *grown = realloc(vs->v, room * sizeof(*grown));

		if (!grown)
			goto failed;
		vs->v = grown;
		vs->room = room;
	}
	v = &vs->v[vs->count];
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->name = name ? strdup(name) : NULL;
	v->text = text ? strdup(text) : NULL;
	if ((name && !v->name) || (text && !v->text)) {
		free((char *)v->name);
		free((char *)v->text);
		goto failed;
	}
	vs->count++;
	return v;
failed:
	vs->failed = true;
	return NULL;
}

void sim_values_object(struct sim_values *vs, const char *name)
{
	if (add(vs, name, SSDSIM_OBJECT, NULL))
		vs->depth++;
}

void sim_values_array(struct sim_values *vs, const char *name)
{
	if (add(vs, name, SSDSIM_ARRAY, NULL))
		vs->depth++;
}

void sim_values_end(struct sim_values *vs)
{
	if (add(vs, NULL, SSDSIM_END, NULL))
		vs->depth--;
}

void sim_values_uint(struct sim_values *vs, const char *name, u64 value)
{
	char text[24];
	struct ssdsim_value *v;

	snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
	v = add(vs, name, SSDSIM_UINT, text);
	if (v)
		v->uint = value;
}

void sim_values_real(struct sim_values *vs, const char *name, const char *fmt, double value)
{
	struct ssdsim_value *v;
	char text[64];

	snprintf(text, sizeof(text), fmt, value);
	/* "%g" may print a whole number, which a JSON reader takes as one. */
	if (text[0] && strspn(text, "0123456789") == strlen(text)) {
		v = add(vs, name, SSDSIM_UINT, text);
		if (v)
			v->uint = strtoull(text, NULL, 10);
		return;
	}
	v = add(vs, name, SSDSIM_REAL, text);
	if (v)
		v->real = strtod(text, NULL);
}

void sim_values_text(struct sim_values *vs, const char *name, const char *text)
{
	add(vs, name, SSDSIM_TEXT, text);
}

void sim_values_bool(struct sim_values *vs, const char *name, bool value)
{
	struct ssdsim_value *v = add(vs, name, SSDSIM_BOOL, value ? "true" : "false");

	if (v)
		v->uint = value;
}

void sim_values_null(struct sim_values *vs, const char *name)
{
	add(vs, name, SSDSIM_NULL, "null");
}

static void print_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* @v[0] inline (a container with its members): the number of values it took. */
static size_t print_inline(FILE *out, const struct ssdsim_value *v, size_t n)
{
	size_t used = 1, members = 0;
	bool object = v->type == SSDSIM_OBJECT;

	if (v->type == SSDSIM_TEXT) {
		print_string(out, v->text);
		return 1;
	}
	if (!object && v->type != SSDSIM_ARRAY) {
		fputs(v->text, out);
		return 1;
	}
	fputc(object ? '{' : '[', out);
	while (used < n && v[used].type != SSDSIM_END) {
		if (members++)
			fputs(", ", out);
		if (v[used].name) {
			print_string(out, v[used].name);
			fputs(": ", out);
		}
		used += print_inline(out, v + used, n - used);
	}
	fputc(object ? '}' : ']', out);
	return used + (used < n);
}

void sim_values_print_members(FILE *out, const struct ssdsim_value *v, size_t n, bool more)
{
	size_t i = 0;

	while (i < n && v[i].type != SSDSIM_END) {
		fputs(more ? ",\n  " : "\n  ", out);
		more = true;
		if (v[i].name) {
			print_string(out, v[i].name);
			fputs(": ", out);
		}
		i += print_inline(out, v + i, n - i);
	}
}

void sim_values_print_json(FILE *out, const struct sim_values *vs)
{
	bool object;

	if (!vs->count)
		return;
	object = vs->v[0].type == SSDSIM_OBJECT;
	fputc(object ? '{' : '[', out);
	sim_values_print_members(out, vs->v + 1, vs->count - 1, false);
	fputs(object ? "\n}\n" : "\n]\n", out);
}

/* An open container while walking: the path's length before it, its next index. */
struct walk_frame {
	size_t len;
	size_t index;
};

#define WALK_DEPTH	32

int sim_values_walk(const struct sim_values *vs, sim_values_leaf_fn fn, void *ctx)
{
	struct walk_frame frames[WALK_DEPTH];
	unsigned int depth = 0;
	char path[512] = "", name[24];
	size_t len = 0, before;
	int ret;

	for (size_t i = 0; i < vs->count; i++) {
		const struct ssdsim_value *v = &vs->v[i];
		const char *key = v->name;
		bool container = v->type == SSDSIM_OBJECT || v->type == SSDSIM_ARRAY;

		if (v->type == SSDSIM_END) {
			if (depth)
				len = frames[--depth].len;
			path[len] = '\0';
			continue;
		}
		before = len;
		if (i) {
			if (!key) {
				snprintf(name, sizeof(name), "%zu",
					 depth ? frames[depth - 1].index++ : 0);
				key = name;
			}
			len += snprintf(path + len, sizeof(path) - len, "%s%s", len ? "." : "", key);
			if (len >= sizeof(path))
				len = sizeof(path) - 1;
		}
		if (container) {
			if (depth == WALK_DEPTH)
				return -1;
			frames[depth].len = before;
			frames[depth++].index = 0;
			continue;
		}
		ret = fn(ctx, path, v);
		if (ret)
			return ret;
		len = before;
		path[len] = '\0';
	}
	return 0;
}
