/*
 * hcd/emu-ehci.h - the emulated EHCI controller (hcd/emu-ehci.c), as
 * QEMU's hw/usb/hcd-ehci.c: what the machine builder attaches device
 * models to.  The EHCI driver (hcd/ehci.h) does not include this: the
 * two meet at registers, DMA memory and the interrupt line.
 */
#ifndef HCD_EMU_EHCI_H
#define HCD_EMU_EHCI_H

#include "core/hcd.h"
#include "hcd/devmodel.h"

/* ------------------------------------------------------------------------
 * The emulated EHCI controller (hcd/emu-ehci.c): capability, operational
 * and port registers with their reset values and side effects, async and
 * periodic schedule walkers over DMA memory, ITC interrupt coalescing, the
 * IAA doorbell, FRINDEX on the virtual clock.  High-speed devices only.
 */
struct emu_ehci;

#define EMU_EHCI_PORTS	6

/* One bus transaction, for the bus-level view (token, data, handshake). */
struct emu_xact {
	uint64_t	 ts_ns;
	uint8_t		 pid;		/* DM_PID_* */
	uint8_t		 addr;
	uint8_t		 ep;
	uint8_t		 data_pid;	/* DATA0 0xc3 / DATA1 0x4b, 0 none */
	int		 result;	/* bytes, or DM_* */
	uint16_t	 len;
	const uint8_t	*data;		/* sent (len bytes), or received
					   (result bytes) */
};

struct emu_ehci	*emu_ehci_new(struct sim *sim, struct dma_mem *dma,
		     int nports);
void		 emu_ehci_free(struct emu_ehci *e);
extern const struct hcd_mmio_ops emu_ehci_mmio;	/* hw = struct emu_ehci */
extern const struct sim_hw_ops emu_ehci_hw;
/* Plug a device into port 1..nports (connect change, PCD irq). */
int		 emu_ehci_attach(struct emu_ehci *e, int port,
		     struct usb_devmodel *dm);
/* Unplug: returns the model (caller destroys it), NULL if none. */
struct usb_devmodel *emu_ehci_detach(struct emu_ehci *e, int port);
/* The model plugged into port, or NULL (for fault injection). */
struct usb_devmodel *emu_ehci_port_device(struct emu_ehci *e, int port);
/* Bus-level log: called for every transaction (NULL = off). */
void		 emu_ehci_set_xact_log(struct emu_ehci *e,
		     void (*fn)(void *, const struct emu_xact *), void *arg);

#endif /* HCD_EMU_EHCI_H */
