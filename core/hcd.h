/*
 * core/hcd.h - the interface between the USB core and host controller
 * drivers, as Linux's include/linux/usb/hcd.h: the bus, struct hc_driver
 * that a controller driver implements, the glue (core/hcd.c: URB
 * bookkeeping, giveback, usbmon hooks, root hub), the register window a
 * driver reaches its controller through, and the simulated machine's DMA
 * memory (core/dma.c).
 *
 *   core (usb_submit_urb, hub driver)
 *     -> hcd glue (core/hcd.c)
 *       -> struct hc_driver (the EHCI driver, hcd/ehci-*.c)
 *   ===== registers (32-bit MMIO), DMA memory, one interrupt line =====
 *       -> emulated EHCI controller (hcd/emu-ehci.h)
 *         -> device models behind its ports (hcd/devmodel.h)
 *
 * A controller driver includes this header only: what lies below the
 * line it reaches through hcd_readl/hcd_writel, DMA memory and its irq
 * callback.  Facts: Linux's drivers/usb/core/hcd.c, the EHCI
 * specification r1.0.
 */
#ifndef CORE_HCD_H
#define CORE_HCD_H

#include <stddef.h>
#include <stdint.h>

#include "core/usb.h"
#include "core/sim.h"

/* ------------------------------------------------------------------------
 * DMA memory (core/dma.c): the simulated machine's physical memory that
 * host controllers read and write.  32-bit addresses starting at
 * DMA_PHYS_BASE; never 0, so 0 can mean "none".
 */
#define DMA_PHYS_BASE	0x10000000u

struct dma_mem {
	uint8_t		*base;		/* host pointer of DMA_PHYS_BASE */
	uint32_t	 size;
	void		*alloc;		/* allocator state */
};

struct dma_mem	*dma_mem_new(uint32_t size);
void		 dma_mem_free(struct dma_mem *m);
/* Allocate size bytes aligned to align (power of two, >= 8); zeroed.
 * Returns the host pointer and the DMA address in *dma, or NULL. */
void		*dma_alloc(struct dma_mem *m, size_t size, size_t align,
		     dma_addr_t *dma);
void		 dma_free(struct dma_mem *m, void *p);
/* Host pointer of [dma, dma+len), or NULL when outside the memory. */
void		*dma_to_virt(struct dma_mem *m, dma_addr_t dma, size_t len);
dma_addr_t	 virt_to_dma(struct dma_mem *m, const void *p);
/* A bounds-checked little-endian read, as the controller does it; 0 when
 * out of range. */
uint32_t	 dma_read32(struct dma_mem *m, dma_addr_t dma);

/* ------------------------------------------------------------------------
 * The register window: how a driver reaches its controller.
 */
struct hcd_mmio_ops {
	uint32_t	 (*readl)(void *hw, uint32_t off);
	void		 (*writel)(void *hw, uint32_t off, uint32_t val);
};

/* ------------------------------------------------------------------------
 * The USB bus and the host controller (drivers/usb/core/hcd.h shapes).
 */
struct usb_bus {
	int		 busnum;
	struct usb_device *root_hub;
	uint8_t		 devmap[128 / 8];	/* addresses in use */
	int		 devnum_next;		/* round robin: choose_devnum */
	struct usb_hcd	*hcd;
};

struct usb_hcd;

/* Return values of hc_driver.irq. */
#define IRQ_NONE	0
#define IRQ_HANDLED	1

/* drivers/usb/core/hcd.h struct hc_driver, the parts EHCI needs. */
struct hc_driver {
	const char	*description;	/* "ehci_hcd" */
	const char	*product_desc;	/* root hub iProduct */
	size_t		 hcd_priv_size;	/* bytes after struct usb_hcd */
	/* Interrupt: called in SIM_IRQ context while the line is high. */
	int		 (*irq)(struct usb_hcd *hcd);
	/* Reset the controller and read its capabilities.  Required. */
	int		 (*reset)(struct usb_hcd *hcd);
	/* Start it running (ehci_run).  Required. */
	int		 (*start)(struct usb_hcd *hcd);
	/* Halt it; pending URBs are given back with -ESHUTDOWN. */
	void		 (*stop)(struct usb_hcd *hcd);
	int		 (*get_frame_number)(struct usb_hcd *hcd);
	/* Queue an URB (hcd.c linked it to its endpoint already... see
	 * usb_hcd_link_urb_to_ep, which the driver calls).  0 or -errno;
	 * on 0 the URB is given back exactly once later. */
	int		 (*urb_enqueue)(struct usb_hcd *hcd, struct urb *urb,
			     gfp_t mem_flags);
	/* Begin unlinking; giveback follows with status. */
	int		 (*urb_dequeue)(struct usb_hcd *hcd, struct urb *urb,
			     int status);
	/* The endpoint's queue is empty and goes away: free its QH. */
	void		 (*endpoint_disable)(struct usb_hcd *hcd,
			     struct usb_host_endpoint *ep);
	/* Root hub: port change bitmap into buf; returns its length, or 0
	 * when nothing changed. */
	int		 (*hub_status_data)(struct usb_hcd *hcd, char *buf);
	/* Root hub: a hub-class request (typeReq = bmRequestType << 8 |
	 * bRequest, as in Linux).  Returns bytes in buf or -errno (-EPIPE
	 * stalls the request). */
	int		 (*hub_control)(struct usb_hcd *hcd, u16 typeReq,
			     u16 wValue, u16 wIndex, char *buf, u16 wLength);
};

/* hcd->flags (drivers/usb/core/hcd.h HCD_FLAG_*) */
#define HCD_FLAG_POLL_RH	0x0001	/* poll the root hub every 250 ms */
#define HCD_FLAG_POLL_PENDING	0x0002	/* a change waits for a status URB */

/* Bounce buffer size classes: 64 B << 0 .. 64 B << (n - 1). */
#define HCD_BOUNCE_CLASSES	19

/* hcd->state */
#define HC_STATE_HALT		0
#define HC_STATE_RUNNING	1
#define HC_STATE_QUIESCING	2

struct usb_hcd {
	struct usb_bus	 self;
	const struct hc_driver *driver;
	struct sim	*sim;
	const struct hcd_mmio_ops *mmio;	/* the register window */
	void		*hw;			/* its controller */
	struct dma_mem	*dma;
	struct sim_hw	 simhw;			/* clocking, irq line */
	int		 state;
	int		 rh_registered;
	struct urb	*status_urb;		/* root hub interrupt URB */
	struct sim_timer rh_timer;		/* root hub status polling */
	char		 product[64];
	/* private to hcd.c */
	unsigned int	 flags;			/* HCD_FLAG_* */
	struct list_head giveback_list;		/* root hub URBs to give back */
	struct sim_timer giveback_timer;	/* ... from softirq, as HCD_BH */
	dma_addr_t	 bounce_free[HCD_BOUNCE_CLASSES]; /* cached buffers */
	/* the driver's private data (struct ehci_hcd) follows */
	uint64_t	 hcd_priv[] __attribute__((aligned(16)));
};

static inline uint32_t
hcd_readl(struct usb_hcd *hcd, uint32_t off)
{
	return hcd->mmio->readl(hcd->hw, off);
}

static inline void
hcd_writel(struct usb_hcd *hcd, uint32_t off, uint32_t val)
{
	hcd->mmio->writel(hcd->hw, off, val);
}

static inline void *
hcd_priv(struct usb_hcd *hcd)
{
	return hcd->hcd_priv;
}

static inline struct usb_hcd *
bus_to_hcd(struct usb_bus *bus)
{
	return bus->hcd;
}

/*
 * The glue (core/hcd.c), as drivers/usb/core/hcd.c.
 */
/* A host controller on bus busnum, its registers behind mmio/hw. */
struct usb_hcd	*usb_create_hcd(struct sim *sim, const struct hc_driver *drv,
		     const struct hcd_mmio_ops *mmio, void *hw,
		     const struct sim_hw_ops *hwops, struct dma_mem *dma,
		     int busnum);
/* reset + start the controller, register and enumerate its root hub
 * (core's hub driver takes over).  Task context.  0 or -errno. */
int		 usb_add_hcd(struct usb_hcd *hcd);
void		 usb_remove_hcd(struct usb_hcd *hcd);
void		 usb_put_hcd(struct usb_hcd *hcd);

/* Called by usb_submit_urb after its checks: usbmon 'S', DMA mapping,
 * root hub or driver enqueue; 'E' on failure. */
int		 usb_hcd_submit_urb(struct urb *urb, gfp_t mem_flags);
int		 usb_hcd_unlink_urb(struct urb *urb, int status);
/* For drivers: queue bookkeeping and giveback (usbmon 'C', unmap,
 * complete() in SIM_IRQ context). */
int		 usb_hcd_link_urb_to_ep(struct usb_hcd *hcd, struct urb *urb);
int		 usb_hcd_check_unlink_urb(struct usb_hcd *hcd, struct urb *urb,
		     int status);
void		 usb_hcd_unlink_urb_from_ep(struct usb_hcd *hcd,
		     struct urb *urb);
void		 usb_hcd_giveback_urb(struct usb_hcd *hcd, struct urb *urb,
		     int status);
/*
 * The root hub device of hcd's bus (usb_alloc_dev of the core): devnum 1,
 * high speed, ep0 maxpacket 64, devpath "0", name "usbN", refcount 1.
 * usb_add_hcd calls it, keeps it in hcd->self.root_hub and registers it
 * with usb_new_device (which marks address 1 used and moves it to
 * ADDRESS); usb_remove_hcd disconnects it and drops that reference.
 */
struct usb_device *usb_hcd_alloc_root_hub(struct usb_hcd *hcd);
/*
 * The usbmon record of an URB event (core/hcd-mon.c), exactly as the kernel's
 * mon_bin builds it: type 'S' (submit), 'C' (complete, status) or 'E'
 * (submit error, status = the error), at ts_ns of wall-clock time.  The
 * record's data and ISO descriptors point into the URB and into iso
 * (caller storage for URB_ISO_MAX entries); valid until the URB changes.
 */
void		 hcd_mon_build(const struct urb *urb, int type, int status,
		     uint64_t ts_ns, struct urb_rec *r, struct urb_iso *iso);

/* The root hub's ports changed: complete its status URB soon. */
void		 usb_hcd_poll_rh_status(struct usb_hcd *hcd);
/* Flush an endpoint's URBs (-ESHUTDOWN) and disable it. */
void		 usb_hcd_disable_endpoint(struct usb_device *udev,
		     struct usb_host_endpoint *ep);

/*
 * Hub class requests and port status (USB 2.0 11.24, table 11-15/11-17,
 * 11.24.2.7), as include/linux/usb/hcd.h and ch11.h spell them; the
 * typeReq of hc_driver.hub_control is bmRequestType << 8 | bRequest.
 */
#define ClearHubFeature		(0x2000 | USB_REQ_CLEAR_FEATURE)
#define ClearPortFeature	(0x2300 | USB_REQ_CLEAR_FEATURE)
#define GetHubDescriptor	(0xa000 | USB_REQ_GET_DESCRIPTOR)
#define GetHubStatus		(0xa000 | USB_REQ_GET_STATUS)
#define GetPortStatus		(0xa300 | USB_REQ_GET_STATUS)
#define SetHubFeature		(0x2000 | USB_REQ_SET_FEATURE)
#define SetPortFeature		(0x2300 | USB_REQ_SET_FEATURE)

#define USB_PORT_FEAT_CONNECTION	0
#define USB_PORT_FEAT_ENABLE		1
#define USB_PORT_FEAT_SUSPEND		2
#define USB_PORT_FEAT_OVER_CURRENT	3
#define USB_PORT_FEAT_RESET		4
#define USB_PORT_FEAT_POWER		8
#define USB_PORT_FEAT_LOWSPEED		9
#define USB_PORT_FEAT_C_CONNECTION	16
#define USB_PORT_FEAT_C_ENABLE		17
#define USB_PORT_FEAT_C_SUSPEND		18
#define USB_PORT_FEAT_C_OVER_CURRENT	19
#define USB_PORT_FEAT_C_RESET		20
#define USB_PORT_FEAT_TEST		21
#define USB_PORT_FEAT_INDICATOR		22
#define C_HUB_LOCAL_POWER		0
#define C_HUB_OVER_CURRENT		1

/* wPortStatus */
#define USB_PORT_STAT_CONNECTION	0x0001
#define USB_PORT_STAT_ENABLE		0x0002
#define USB_PORT_STAT_SUSPEND		0x0004
#define USB_PORT_STAT_OVERCURRENT	0x0008
#define USB_PORT_STAT_RESET		0x0010
#define USB_PORT_STAT_POWER		0x0100
#define USB_PORT_STAT_LOW_SPEED		0x0200
#define USB_PORT_STAT_HIGH_SPEED	0x0400
#define USB_PORT_STAT_TEST		0x0800
#define USB_PORT_STAT_INDICATOR		0x1000
/* wPortChange */
#define USB_PORT_STAT_C_CONNECTION	0x0001
#define USB_PORT_STAT_C_ENABLE		0x0002
#define USB_PORT_STAT_C_SUSPEND		0x0004
#define USB_PORT_STAT_C_OVERCURRENT	0x0008
#define USB_PORT_STAT_C_RESET		0x0010

#endif /* CORE_HCD_H */
