/*
 * capture/cap-gfp.c - a running kernel's gfp_t, as the tracer meets it:
 * which bit each __GFP_ flag is (include/linux/gfp_types.h), the name the
 * kernel's own %pGg would print (mm/debug.c, the composite names first),
 * and the simulator's mem_flags the rule checks read (core/usb.h: the
 * 2.6 layout, __GFP_WAIT 0x10, __GFP_HIGH 0x20, __GFP_IO 0x40, __GFP_FS
 * 0x80).
 *
 * The bits moved before and may move again: 6.1 has __GFP_ATOMIC as bit 9
 * (GFP_ATOMIC 0xa20), 6.4 dropped it (0x820), 6.10 made the bits an enum
 * (___GFP_DMA_BIT, ...) whose values depend on the kernel's configuration.
 * That enum is in the kernel's BTF: cap-bpf.c hands each enumerator to
 * cap_gfp_learn; without it, 6.1's layout (the bits 6.4-6.9 keep).
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"

/* 6.1's bits (include/linux/gfp_types.h, ___GFP_DMA 0x01u ...). */
static const char *const gfp61[] = {
	"DMA", "HIGHMEM", "DMA32", "MOVABLE", "RECLAIMABLE", "HIGH", "IO",
	"FS", "ZERO", "ATOMIC", "DIRECT_RECLAIM", "KSWAPD_RECLAIM", "WRITE",
	"NOWARN", "RETRY_MAYFAIL", "NOFAIL", "NORETRY", "MEMALLOC", "COMP",
	"NOMEMALLOC", "HARDWALL", "THISNODE", "ACCOUNT", "ZEROTAGS"
};

/* The mask of the flag called name ("IO"), 0 if the kernel has none. */
static uint32_t
gfp_bit(const struct cap_gfp *g, const char *name)
{
	int	 i;

	for (i = 0; i < CAP_GFP_BITS; i++) {
		if (strcmp(g->name[i], name) == 0)
			return 1u << i;
	}
	return 0;
}

/*
 * The masks of the flags the names and mem_flags are made of, once the
 * bits are known, and include/linux/gfp_types.h's composites from them
 * in mm/debug.c's order: not looked up again for every event.
 */
static void
gfp_derive(struct cap_gfp *g)
{
	uint32_t reclaim, io = gfp_bit(g, "IO"), fs = gfp_bit(g, "FS");
	uint32_t account = gfp_bit(g, "ACCOUNT");
	int	 n = 0;

	g->direct = gfp_bit(g, "DIRECT_RECLAIM");
	g->kswapd = gfp_bit(g, "KSWAPD_RECLAIM");
	g->high = gfp_bit(g, "HIGH");
	g->io = io;
	g->fs = fs;
	reclaim = g->direct | g->kswapd;
	g->comp[n].name = "GFP_KERNEL_ACCOUNT";
	g->comp[n].mask = account == 0 ? 0 : reclaim | io | fs | account;
	g->comp[n++].also = 0;
	g->comp[n].name = "GFP_KERNEL";
	g->comp[n].mask = reclaim | io | fs;
	g->comp[n++].also = 0;
	g->comp[n].name = "GFP_NOFS";
	g->comp[n].mask = reclaim | io;
	g->comp[n++].also = 0;
	/* with __GFP_ATOMIC where the kernel has it (before 6.4) */
	g->comp[n].name = "GFP_ATOMIC";
	g->comp[n].mask = g->high | g->kswapd;
	g->comp[n++].also = gfp_bit(g, "ATOMIC");
	g->comp[n].name = "GFP_NOIO";
	g->comp[n].mask = reclaim;
	g->comp[n++].also = 0;
	/* __GFP_NOWARN is part of it in the kernels with the enum */
	g->comp[n].name = "GFP_NOWAIT";
	g->comp[n].mask = g->kswapd | (g->learnt ? gfp_bit(g, "NOWARN") : 0);
	g->comp[n++].also = 0;
}

void
cap_gfp_init(struct cap_gfp *g)
{
	size_t	 i;

	memset(g, 0, sizeof *g);
	for (i = 0; i < sizeof gfp61 / sizeof gfp61[0]; i++)
		snprintf(g->name[i], sizeof g->name[i], "%s", gfp61[i]);
	gfp_derive(g);
}

int
cap_gfp_learn(struct cap_gfp *g, const char *enumerator, long long val)
{
	size_t	 n;

	n = strlen(enumerator);
	if (strncmp(enumerator, "___GFP_", 7) != 0 || n < 7 + 4 + 1 ||
	    strcmp(enumerator + n - 4, "_BIT") != 0)
		return 0;
	/* ___GFP_LAST_BIT counts them; _UNUSED_BIT holds a freed place */
	if (val < 0 || val >= CAP_GFP_BITS ||
	    strcmp(enumerator, "___GFP_LAST_BIT") == 0)
		return 0;
	if (!g->learnt) {
		/* the kernel's own enum: 6.1's table no longer counts */
		memset(g->name, 0, sizeof g->name);
		g->learnt = 1;
	}
	if (strcmp(enumerator, "___GFP_UNUSED_BIT") != 0) {
		n -= 7 + 4;
		if (n >= sizeof g->name[0])
			n = sizeof g->name[0] - 1;
		memcpy(g->name[val], enumerator + 7, n);
		g->name[val][n] = '\0';
	}
	gfp_derive(g);
	return 1;
}

uint32_t
cap_gfp_to_sim(const struct cap_gfp *g, uint32_t gfp)
{
	uint32_t sim = 0;

	if (gfp & g->direct)
		sim |= 0x10;		/* may sleep: 2.6's __GFP_WAIT */
	if (gfp & g->high)
		sim |= 0x20;
	if (gfp & g->io)
		sim |= 0x40;
	if (gfp & g->fs)
		sim |= 0x80;
	return sim;
}

void
cap_gfp_name(const struct cap_gfp *g, uint32_t gfp, char *buf, size_t len)
{
	uint32_t	 left = gfp;
	size_t		 k = 0;
	int		 i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < CAP_GFP_COMP; i++) {
		if (g->comp[i].mask == 0 ||
		    (left & g->comp[i].mask) != g->comp[i].mask)
			continue;
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
		    k != 0 ? "|" : "", g->comp[i].name);
		left &= ~(g->comp[i].mask | g->comp[i].also);
		if (k >= len)
			return;
	}
	for (i = 0; i < CAP_GFP_BITS && left != 0; i++) {
		if (!(left & 1u << i))
			continue;
		if (g->name[i][0] != '\0')
			k += (size_t)snprintf(buf + k, len - k, "%s__GFP_%s",
			    k != 0 ? "|" : "", g->name[i]);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s%#x",
			    k != 0 ? "|" : "", 1u << i);
		left &= ~(1u << i);
		if (k >= len)
			return;
	}
	if (k == 0)
		snprintf(buf, len, "0");
}
