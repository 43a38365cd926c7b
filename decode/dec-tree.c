/*
 * decode/dec-tree.c - the decoded tree: a flat array of nodes with depths,
 * in caller storage, plus an arena for the strings decoders make.
 *
 * Nothing here allocates; when the nodes or the arena run out, the add
 * functions return NULL and set overflow, and decoders carry on (a full
 * tree loses the fields that did not fit, nothing else).
 */
#include <stdarg.h>
#include <stdio.h>

#include "decode.h"

void
dec_tree_init(struct dec_tree *t, struct dec_node *nodes, size_t max,
    char *arena, size_t arena_size)
{
	memset(t, 0, sizeof *t);
	t->node = nodes;
	t->max = max;
	t->arena = arena;
	t->arena_size = arena_size;
}

struct dec_node *
dec_tree_add(struct dec_tree *t, const struct dec_field *f, uint8_t buf,
    uint32_t off, uint32_t len, uint64_t value)
{
	struct dec_node *n;

	if (t->node == NULL || t->n >= t->max) {
		t->overflow = 1;
		return NULL;
	}
	n = &t->node[t->n++];
	memset(n, 0, sizeof *n);
	n->f = f;
	n->value = value;
	n->off = off;
	n->len = len;
	n->buf = buf;
	n->depth = t->depth;
	return n;
}

struct dec_node *
dec_tree_push(struct dec_tree *t, const char *label, uint8_t buf,
    uint32_t off, uint32_t len)
{
	struct dec_node *n;

	n = dec_tree_add(t, NULL, buf, off, len, 0);
	if (n != NULL)
		n->str = label;
	/* Descend even when full, so that the caller's pop balances. */
	if (t->depth < UINT8_MAX)
		t->depth++;
	return n;
}

void
dec_tree_pop(struct dec_tree *t)
{
	if (t->depth > 0)
		t->depth--;
}

const char *
dec_tree_strdup(struct dec_tree *t, const char *s, size_t n)
{
	char *p;

	if (t->arena == NULL || t->arena_used >= t->arena_size ||
	    n >= t->arena_size - t->arena_used) {
		t->overflow = 1;
		return NULL;
	}
	p = t->arena + t->arena_used;
	memcpy(p, s, n);
	p[n] = '\0';
	t->arena_used += n + 1;
	return p;
}

const char *
dec_tree_printf(struct dec_tree *t, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 left;
	char	*p;
	int	 n;

	if (t->arena == NULL || t->arena_used >= t->arena_size) {
		t->overflow = 1;
		return NULL;
	}
	p = t->arena + t->arena_used;
	left = t->arena_size - t->arena_used;
	va_start(ap, fmt);
	n = vsnprintf(p, left, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= left) {
		*p = '\0';
		t->overflow = 1;
		return NULL;
	}
	t->arena_used += (size_t)n + 1;
	return p;
}

/* v as a signed number of width bytes (DK_INT). */
static int64_t
sign_extend(uint64_t v, uint8_t width)
{
	switch (width) {
	case 1:
		return (int8_t)(uint8_t)v;
	case 2:
		return (int16_t)(uint16_t)v;
	case 4:
		return (int32_t)(uint32_t)v;
	default:
		return (int64_t)v;
	}
}

/* The bare number, as the field's kind shows it. */
static void
node_number(const struct dec_node *n, char *buf, size_t size)
{
	const struct dec_field *f = n->f;
	int digits;

	switch (f->kind) {
	case DK_HEX:
		digits = f->width != 0 ? f->width * 2 : 2;
		snprintf(buf, size, "0x%0*llx", digits,
		    (unsigned long long)n->value);
		break;
	case DK_BCD:
		snprintf(buf, size, "%llx.%02llx",
		    (unsigned long long)(n->value >> 8 & 0xff),
		    (unsigned long long)(n->value & 0xff));
		break;
	case DK_INT:
		snprintf(buf, size, "%lld",
		    (long long)sign_extend(n->value, f->width));
		break;
	case DK_CHAR:
		if (n->value >= 0x20 && n->value < 0x7f)
			snprintf(buf, size, "'%c'", (int)n->value);
		else
			snprintf(buf, size, "0x%02llx",
			    (unsigned long long)n->value);
		break;
	case DK_TIME: {
		/* signed: a capture's clock may step back between S and C */
		int64_t	 v = (int64_t)n->value;
		uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

		snprintf(buf, size, "%s%llu.%09llu s", v < 0 ? "-" : "",
		    (unsigned long long)(u / 1000000000),
		    (unsigned long long)(u % 1000000000));
		break;
	}
	default:
		snprintf(buf, size, "%llu", (unsigned long long)n->value);
		break;
	}
}

const char *
dec_node_value(const struct dec_node *n, char *buf, size_t size)
{
	const struct dec_field *f = n->f;
	const char	*name;
	char		 num[48];

	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (f == NULL) {
		snprintf(buf, size, "%s", n->str != NULL ? n->str : "");
		return buf;
	}
	switch (f->kind) {
	case DK_LABEL:
		snprintf(buf, size, "%s", n->str != NULL ? n->str : "");
		return buf;
	case DK_STRING:
		snprintf(buf, size, "\"%s\"", n->str != NULL ? n->str : "");
		return buf;
	case DK_BYTES:
		/* The bytes are in the record, not the node: decoders that
		 * want them shown here leave their hex in str. */
		if (n->str != NULL)
			snprintf(buf, size, "%s", n->str);
		else
			snprintf(buf, size, "%u byte%s", n->len,
			    n->len == 1 ? "" : "s");
		return buf;
	case DK_BOOL:
		if (f->names == NULL) {
			snprintf(buf, size, "%s", n->value ? "set" : "not set");
			return buf;
		}
		break;
	default:
		break;
	}
	node_number(n, num, sizeof num);
	if (f->names == NULL) {
		snprintf(buf, size, "%s", num);
		return buf;
	}
	if ((name = dec_name_find(f->names, (uint32_t)n->value)) == NULL)
		name = "UNKNOWN";
	snprintf(buf, size, "%s (%s)", name, num);
	return buf;
}
