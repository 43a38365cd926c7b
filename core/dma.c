/*
 * core/dma.c - the simulated machine's DMA memory: one region with 32-bit
 * physical addresses from DMA_PHYS_BASE, a first-fit allocator with
 * coalescing (the metadata lives outside the region, so a controller that
 * scribbles cannot corrupt it), and a bounds-checked little-endian read
 * for the emulated controller.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hcd.h"

/* An extent of the region, free or allocated, in address order. */
struct extent {
	uint32_t	 off;
	uint32_t	 len;
	int		 used;
	struct extent	*next;
};

struct dma_alloc {
	struct extent	*head;
};

struct dma_mem *
dma_mem_new(uint32_t size)
{
	struct dma_mem	 *m;
	struct dma_alloc *a;

	if ((m = calloc(1, sizeof *m)) == NULL)
		return NULL;
	a = calloc(1, sizeof *a);
	m->base = calloc(1, size);
	if (a == NULL || m->base == NULL ||
	    (a->head = calloc(1, sizeof *a->head)) == NULL) {
		free(a);
		free(m->base);
		free(m);
		return NULL;
	}
	a->head->len = size;
	m->size = size;
	m->alloc = a;
	return m;
}

void
dma_mem_free(struct dma_mem *m)
{
	struct dma_alloc *a;
	struct extent	*e, *n;

	if (m == NULL)
		return;
	a = m->alloc;
	for (e = a->head; e != NULL; e = n) {
		n = e->next;
		free(e);
	}
	free(a);
	free(m->base);
	free(m);
}

void *
dma_alloc(struct dma_mem *m, size_t size, size_t align, dma_addr_t *dma)
{
	struct dma_alloc *a = m->alloc;
	struct extent	*e, *n;
	uint32_t	 start, pad;

	if (size == 0)
		size = 1;
	if (align < 8)
		align = 8;
	size = (size + 7) & ~(size_t)7;
	for (e = a->head; e != NULL; e = e->next) {
		if (e->used)
			continue;
		/* align the physical address, not the offset */
		start = (uint32_t)((DMA_PHYS_BASE + e->off + align - 1) &
		    ~(align - 1)) - DMA_PHYS_BASE;
		pad = start - e->off;
		if ((uint64_t)pad + size > e->len)
			continue;
		if (pad > 0) {
			/* split off the padding as a free extent */
			if ((n = calloc(1, sizeof *n)) == NULL)
				return NULL;
			n->off = start;
			n->len = e->len - pad;
			n->next = e->next;
			e->len = pad;
			e->next = n;
			e = n;
		}
		if (e->len > size) {
			if ((n = calloc(1, sizeof *n)) == NULL)
				return NULL;
			n->off = e->off + (uint32_t)size;
			n->len = e->len - (uint32_t)size;
			n->next = e->next;
			e->len = (uint32_t)size;
			e->next = n;
		}
		e->used = 1;
		memset(m->base + e->off, 0, e->len);
		*dma = DMA_PHYS_BASE + e->off;
		return m->base + e->off;
	}
	return NULL;
}

void
dma_free(struct dma_mem *m, void *p)
{
	struct dma_alloc *a = m->alloc;
	struct extent	*e, *prev = NULL, *n;
	uint32_t	 off;

	if (p == NULL)
		return;
	off = (uint32_t)((uint8_t *)p - m->base);
	for (e = a->head; e != NULL && e->off != off; e = e->next)
		prev = e;
	if (e == NULL || !e->used)
		return;		/* not ours: ignore, as kfree of junk would not */
	e->used = 0;
	/* merge with the next and the previous free extents */
	if ((n = e->next) != NULL && !n->used) {
		e->len += n->len;
		e->next = n->next;
		free(n);
	}
	if (prev != NULL && !prev->used) {
		prev->len += e->len;
		prev->next = e->next;
		free(e);
	}
}

void *
dma_to_virt(struct dma_mem *m, dma_addr_t dma, size_t len)
{
	if (dma < DMA_PHYS_BASE || (uint64_t)dma - DMA_PHYS_BASE + len >
	    m->size)
		return NULL;
	return m->base + (dma - DMA_PHYS_BASE);
}

dma_addr_t
virt_to_dma(struct dma_mem *m, const void *p)
{
	return DMA_PHYS_BASE + (dma_addr_t)((const uint8_t *)p - m->base);
}

uint32_t
dma_read32(struct dma_mem *m, dma_addr_t dma)
{
	uint8_t	*p = dma_to_virt(m, dma, 4);

	return p != NULL ? get_le32(p) : 0;
}
