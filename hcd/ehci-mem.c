/*
 * hcd/ehci-mem.c - the EHCI driver's memory, as Linux's ehci-mem.c: DMA
 * pools of 32-byte aligned qTDs, QH hardware parts and iTDs, the dummy
 * qTD every QH ends with, and the periodic frame list.
 *
 * A pool carves 4 KiB pages of DMA memory into fixed blocks and keeps the
 * free ones on a list threaded through the blocks themselves, so an URB
 * costs no trip to the general allocator once the pools are warm.
 */
#include <stdlib.h>
#include <string.h>

#include "hcd/ehci.h"

#define POOL_PAGE	4096u

int
ehci_pool_init(struct ehci_pool *p, struct dma_mem *dma, size_t size)
{
	memset(p, 0, sizeof *p);
	p->dma = dma;
	p->size = (size + 31) & ~(size_t)31;
	return p->size <= POOL_PAGE ? 0 : -EINVAL;
}

void
ehci_pool_destroy(struct ehci_pool *p)
{
	size_t	 i;

	for (i = 0; i < p->npages; i++)
		dma_free(p->dma, p->pages[i]);
	free(p->pages);
	p->pages = NULL;
	p->npages = p->maxpages = 0;
	p->free = NULL;
}

/* Add a page of blocks to the free list. */
static int
pool_grow(struct ehci_pool *p)
{
	dma_addr_t	 dma;
	uint8_t		*page;
	void		**np;
	size_t		 off, n;

	if (p->npages == p->maxpages) {
		n = p->maxpages ? p->maxpages * 2 : 8;
		if ((np = realloc(p->pages, n * sizeof *np)) == NULL)
			return -ENOMEM;
		p->pages = np;
		p->maxpages = n;
	}
	/* page aligned: no block crosses a 4 KiB boundary (EHCI 3.5) */
	if ((page = dma_alloc(p->dma, POOL_PAGE, POOL_PAGE, &dma)) == NULL)
		return -ENOMEM;
	p->pages[p->npages++] = page;
	for (off = 0; off + p->size <= POOL_PAGE; off += p->size) {
		*(void **)(void *)(page + off) = p->free;
		p->free = page + off;
	}
	return 0;
}

/* A zeroed block and its DMA address, or NULL. */
void *
ehci_pool_alloc(struct ehci_pool *p, dma_addr_t *dma)
{
	void	*v;

	if (p->free == NULL && pool_grow(p) != 0)
		return NULL;
	v = p->free;
	p->free = *(void **)v;
	memset(v, 0, p->size);
	*dma = virt_to_dma(p->dma, v);
	p->in_use++;
	return v;
}

void
ehci_pool_free(struct ehci_pool *p, void *v)
{
	if (v == NULL)
		return;
	*(void **)v = p->free;
	p->free = v;
	p->in_use--;
}

/* ------------------------------------------------------------------------
 * qTDs, QHs, iTDs.
 */
void
ehci_qtd_init(struct ehci_qtd *qtd, dma_addr_t dma)
{
	memset(qtd, 0, sizeof *qtd);
	qtd->qtd_dma = dma;
	qtd->hw_token = cpu_to_hc32(QTD_STS_HALT);
	qtd->hw_next = EHCI_LIST_END;
	qtd->hw_alt_next = EHCI_LIST_END;
	INIT_LIST_HEAD(&qtd->qtd_list);
}

struct ehci_qtd *
ehci_qtd_alloc(struct ehci_hcd *ehci)
{
	struct ehci_qtd	*qtd;
	dma_addr_t	 dma;

	if ((qtd = ehci_pool_alloc(&ehci->qtd_pool, &dma)) != NULL)
		ehci_qtd_init(qtd, dma);
	return qtd;
}

void
ehci_qtd_free(struct ehci_hcd *ehci, struct ehci_qtd *qtd)
{
	ehci_pool_free(&ehci->qtd_pool, qtd);
}

/* A QH with its dummy qTD, idle and halted-free (token 0). */
struct ehci_qh *
ehci_qh_alloc(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;

	if ((qh = calloc(1, sizeof *qh)) == NULL)
		return NULL;
	if ((qh->hw = ehci_pool_alloc(&ehci->qh_pool, &qh->qh_dma)) == NULL)
		goto fail;
	INIT_LIST_HEAD(&qh->qtd_list);
	INIT_LIST_HEAD(&qh->intr_node);
	INIT_LIST_HEAD(&qh->unlink_node);
	/* dummy td enables safe urb queuing (EHCI 4.10.2, notes 6.7) */
	if ((qh->dummy = ehci_qtd_alloc(ehci)) == NULL) {
		ehci_pool_free(&ehci->qh_pool, qh->hw);
		goto fail;
	}
	qh->qh_state = QH_STATE_IDLE;
	list_add(&qh->all_node, &ehci->qh_all);
	return qh;
fail:
	free(qh);
	return NULL;
}

void
ehci_qh_free(struct ehci_hcd *ehci, struct ehci_qh *qh)
{
	if (qh->dummy != NULL)
		ehci_qtd_free(ehci, qh->dummy);
	ehci_pool_free(&ehci->qh_pool, qh->hw);
	list_del_init(&qh->all_node);
	free(qh);
}

struct ehci_itd *
ehci_itd_alloc(struct ehci_hcd *ehci)
{
	struct ehci_itd	*itd;
	dma_addr_t	 dma;
	int		 i;

	if ((itd = ehci_pool_alloc(&ehci->itd_pool, &dma)) == NULL)
		return NULL;
	itd->itd_dma = dma;
	itd->hw_next = EHCI_LIST_END;
	INIT_LIST_HEAD(&itd->itd_list);
	for (i = 0; i < 8; i++)
		itd->index[i] = -1;
	return itd;
}

void
ehci_itd_free(struct ehci_hcd *ehci, struct ehci_itd *itd)
{
	ehci_pool_free(&ehci->itd_pool, itd);
}

/* ------------------------------------------------------------------------
 * Whole-controller memory.
 */
void
ehci_mem_cleanup(struct ehci_hcd *ehci)
{
	struct ehci_qh	*qh;

	/* QHs left behind by endpoints nobody disabled */
	while (!list_empty(&ehci->qh_all)) {
		qh = container_of(ehci->qh_all.next, struct ehci_qh, all_node);
		ehci_qh_destroy(ehci, qh);
	}
	ehci->async = NULL;
	if (ehci->periodic != NULL)
		dma_free(ehci->hcd->dma, ehci->periodic);
	ehci->periodic = NULL;
	free(ehci->pshadow);
	ehci->pshadow = NULL;
	ehci_pool_destroy(&ehci->qtd_pool);
	ehci_pool_destroy(&ehci->qh_pool);
	ehci_pool_destroy(&ehci->itd_pool);
}

/* Pools, the async head and the frame list.  0 or -ENOMEM. */
int
ehci_mem_init(struct ehci_hcd *ehci)
{
	struct dma_mem	*dma = ehci->hcd->dma;
	struct ehci_qh_hw *hw;
	unsigned	 i;

	INIT_LIST_HEAD(&ehci->qh_all);
	if (ehci_pool_init(&ehci->qtd_pool, dma, sizeof(struct ehci_qtd)) ||
	    ehci_pool_init(&ehci->qh_pool, dma, sizeof(struct ehci_qh_hw)) ||
	    ehci_pool_init(&ehci->itd_pool, dma, sizeof(struct ehci_itd)))
		goto fail;
	if ((ehci->async = ehci_qh_alloc(ehci)) == NULL)
		goto fail;

	/*
	 * The permanent dummy head of the async ring (notes 6.7): H = 1,
	 * halted, never carries qTDs; its dummy qTD is the "magic" alt-next
	 * target of short reads that must stop the queue.
	 */
	hw = ehci->async->hw;
	ehci->async->qh_next.qh = NULL;
	hw->hw_next = QH_NEXT(ehci->async->qh_dma);
	hw->hw_info1 = cpu_to_hc32(QH_HEAD);
	hw->hw_token = cpu_to_hc32(QTD_STS_HALT);
	hw->hw_qtd_next = EHCI_LIST_END;
	hw->hw_alt_next = QTD_NEXT(ehci->async->dummy->qtd_dma);
	ehci->async->qh_state = QH_STATE_LINKED;

	/* EHCI 3.1: the frame list is 4 KiB aligned, all entries empty */
	ehci->periodic_size = EHCI_PERIODIC_SIZE;
	ehci->periodic = dma_alloc(dma, ehci->periodic_size * sizeof(hc32),
	    4096, &ehci->periodic_dma);
	ehci->pshadow = calloc(ehci->periodic_size, sizeof *ehci->pshadow);
	if (ehci->periodic == NULL || ehci->pshadow == NULL)
		goto fail;
	for (i = 0; i < ehci->periodic_size; i++)
		ehci->periodic[i] = EHCI_LIST_END;
	return 0;
fail:
	ehci_mem_cleanup(ehci);
	return -ENOMEM;
}
