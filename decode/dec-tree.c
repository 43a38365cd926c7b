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
#include <string.h>

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

struct dec_node *
dec_tree_add_bits(struct dec_tree *t, const struct dec_field *f, uint8_t buf,
    uint32_t off, uint32_t len, uint64_t raw)
{
	struct dec_node	*n;

	if (t->depth == UINT8_MAX)
		return NULL;
	t->depth++;
	n = dec_tree_add(t, f, buf, off, len, dec_mask_value(raw, f->mask));
	t->depth--;
	return n;
}

char *
dec_tree_alloc(struct dec_tree *t, size_t n)
{
	char *p;

	if (t->arena == NULL || t->arena_used >= t->arena_size ||
	    n >= t->arena_size - t->arena_used) {
		t->overflow = 1;
		return NULL;
	}
	p = t->arena + t->arena_used;
	t->arena_used += n + 1;
	p[n] = '\0';
	return p;
}

const char *
dec_tree_strdup(struct dec_tree *t, const char *s, size_t n)
{
	char *p;

	if ((p = dec_tree_alloc(t, n)) != NULL)
		memcpy(p, s, n);
	return p;
}

const char *
dec_tree_cat(struct dec_tree *t, ...)
{
	va_list		 ap;
	const char	*s;
	size_t		 k, len = 0;
	char		*p;

	if (t->arena == NULL || t->arena_used >= t->arena_size) {
		t->overflow = 1;
		return NULL;
	}
	p = t->arena + t->arena_used;
	va_start(ap, t);
	while ((s = va_arg(ap, const char *)) != NULL) {
		k = strlen(s);
		if (k >= t->arena_size - t->arena_used - len) {
			va_end(ap);
			*p = '\0';
			t->overflow = 1;
			return NULL;
		}
		memcpy(p + len, s, k);
		len += k;
	}
	va_end(ap);
	p[len] = '\0';
	t->arena_used += len + 1;
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
node_number(const struct dec_node *n, struct sbuf *b)
{
	const struct dec_field *f = n->f;

	switch (f->kind) {
	case DK_HEX:
		sb_hex0x(b, n->value, f->width != 0 ? f->width * 2 : 2);
		break;
	case DK_BCD:
		sb_hex(b, n->value >> 8 & 0xff, 1);
		sb_putc(b, '.');
		sb_hex(b, n->value & 0xff, 2);
		break;
	case DK_INT:
		sb_i64(b, sign_extend(n->value, f->width));
		break;
	case DK_CENTI:
		sb_u64(b, n->value / 100);
		sb_putc(b, '.');
		sb_putc(b, (char)('0' + n->value / 10 % 10));
		sb_putc(b, (char)('0' + n->value % 10));
		break;
	case DK_CHAR:
		if (n->value >= 0x20 && n->value < 0x7f) {
			sb_putc(b, '\'');
			sb_putc(b, (char)n->value);
			sb_putc(b, '\'');
		} else {
			sb_hex0x(b, n->value, 2);
		}
		break;
	case DK_TIME:
		/* signed: a capture's clock may step back between S and C */
		sb_secs(b, (int64_t)n->value, 9);
		sb_puts(b, " s");
		break;
	case DK_MSEC:
		sb_printf(b, "%.15g ms", (double)(int64_t)n->value / 1e6);
		break;
	default:
		sb_u64(b, n->value);
		break;
	}
}

void
dec_node_text(const struct dec_node *n, struct sbuf *b)
{
	const struct dec_field *f = n->f;
	const char	*name;

	if (f == NULL || f->kind == DK_LABEL) {
		if (n->str != NULL)
			sb_puts(b, n->str);
		return;
	}
	switch (f->kind) {
	case DK_STRING:
		sb_putc(b, '"');
		if (n->str != NULL)
			sb_puts(b, n->str);
		sb_putc(b, '"');
		return;
	case DK_BYTES:
		/* The bytes are in the record, not the node: decoders that
		 * want them shown here leave their hex in str. */
		if (n->str != NULL)
			sb_puts(b, n->str);
		else {
			sb_u64(b, n->len);
			sb_puts(b, n->len == 1 ? " byte" : " bytes");
		}
		return;
	case DK_BOOL:
		if (f->names == NULL) {
			sb_puts(b, n->value ? "set" : "not set");
			return;
		}
		break;
	default:
		break;
	}
	if (f->names == NULL) {
		node_number(n, b);
		return;
	}
	if ((name = dec_name_find(f->names, (uint32_t)n->value)) == NULL)
		name = "UNKNOWN";
	sb_puts(b, name);
	sb_puts(b, " (");
	node_number(n, b);
	sb_putc(b, ')');
}

const char *
dec_node_value(const struct dec_node *n, char *buf, size_t size)
{
	struct sbuf	 b = { 0 };

	if (size == 0)
		return buf;
	dec_node_text(n, &b);
	snprintf(buf, size, "%s", b.s != NULL ? b.s : "");
	sb_free(&b);
	return buf;
}
