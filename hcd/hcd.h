/*
 * hcd/hcd.h - host controller drivers and the emulated hardware below them.
 *
 * Three layers, as in Linux, and one honest boundary:
 *
 *   core (usb_submit_urb, hub driver)
 *     -> hcd glue (hcd.c: URB bookkeeping, giveback, usbmon hooks, root hub)
 *       -> struct hc_driver (the EHCI driver, ehci-*.c)
 *   ===== registers (32-bit MMIO), DMA memory, one interrupt line =====
 *       -> emulated EHCI controller (emu-ehci.c)
 *         -> device models behind its ports (devmodel.c + samples/devices/)
 *
 * The EHCI driver sees the controller only through hcd_readl/hcd_writel,
 * DMA memory (struct dma_mem) and its irq callback; the emulator sees only
 * register accesses, DMA memory and the device models.
 * Facts: Linux's drivers/usb/core/hcd.c (usbmon hooks, giveback), the
 * EHCI specification r1.0, QEMU's hw/usb/hcd-ehci.c.
 */
#ifndef HCD_H
#define HCD_H

#include <stddef.h>
#include <stdint.h>

#include "core/usb.h"
#include "core/sim.h"

/* ------------------------------------------------------------------------
 * DMA memory (hcd/dma.c): the simulated machine's physical memory that
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
 * The glue (hcd/hcd.c), as drivers/usb/core/hcd.c.
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
 * The usbmon record of an URB event (hcd-mon.c), exactly as the kernel's
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

/* The EHCI driver (hcd/ehci-hcd.c). */
extern const struct hc_driver ehci_hc_driver;

/* ------------------------------------------------------------------------
 * Device models (hcd/devmodel.c; models in samples/devices/): the device
 * side of the bus.  The framework answers chapter 9 itself (addressing
 * after the status stage, descriptors from tables, configuration, STALL
 * on unknown requests) and hands class/vendor requests and data endpoints
 * to the model.
 */

/* Handshakes and errors a transaction can end with. */
enum {
	DM_ACK = 0,		/* OUT/SETUP accepted; IN: >= 0 is a length */
	DM_NAK = -1,		/* try again later */
	DM_STALL = -2,
	DM_BABBLE = -3,		/* IN: more data than asked (injected) */
	DM_XACTERR = -4,	/* no response / CRC error (injected) */
	DM_NODEV = -5,		/* nobody there (unplugged, wrong address) */
};

/* Transaction PIDs (USB 2.0 table 8-1), as EHCI qTD PID codes map. */
enum {
	DM_PID_OUT = 0xe1,
	DM_PID_IN = 0x69,
	DM_PID_SETUP = 0x2d,
};

/* Injectable faults (dm_inject). */
enum dm_fault_kind {
	DM_FAULT_NONE = 0,
	DM_FAULT_STALL,		/* the endpoint halts until CLEAR_FEATURE */
	DM_FAULT_BABBLE,	/* the next IN returns babble */
	DM_FAULT_XACTERR,	/* the next N transactions get no response */
	DM_FAULT_DISCONNECT,	/* the device goes away mid-transfer */
};

struct usb_devmodel;

/* Descriptor tables of a model (wire bytes). */
struct dm_descriptors {
	const uint8_t	*device;		/* 18 bytes */
	const uint8_t	*config;		/* whole configuration */
	size_t		 config_len;
	const uint8_t	*qualifier;		/* 10 bytes or NULL (STALL) */
	const uint8_t	*bos;			/* or NULL */
	size_t		 bos_len;
	const char	*const *strings;	/* index 1.. ; UTF-8; NULL-ended */
	const uint8_t	*hid_report;		/* HID report descriptor */
	size_t		 hid_report_len;
};

struct usb_devmodel_ops {
	const char	*name;
	size_t		 priv_size;
	const struct dm_descriptors *desc;
	/* After creation (priv zeroed).  Optional. */
	int		 (*init)(struct usb_devmodel *dm, const char *args);
	void		 (*destroy)(struct usb_devmodel *dm);
	/* Bus reset: the framework already went back to address 0. */
	void		 (*reset)(struct usb_devmodel *dm);
	/* SET_CONFIGURATION / SET_INTERFACE accepted.  Optional. */
	void		 (*set_config)(struct usb_devmodel *dm, int value);
	void		 (*set_interface)(struct usb_devmodel *dm, int intf,
			     int alt);
	/* A class or vendor request on ep0.  IN: fill data (at most
	 * s->wLength) and return its length; OUT: data holds wLength bytes,
	 * return 0.  DM_STALL to refuse.  Optional (absent = STALL). */
	int		 (*control)(struct usb_devmodel *dm,
			     const struct usb_ctrlrequest *s, uint8_t *data);
	/* IN token on a data endpoint: bytes written into buf (<= max), or
	 * DM_NAK / DM_STALL. */
	int		 (*data_in)(struct usb_devmodel *dm, int ep,
			     uint8_t *buf, size_t max);
	/* OUT token on a data endpoint with len bytes: DM_ACK, DM_NAK or
	 * DM_STALL. */
	int		 (*data_out)(struct usb_devmodel *dm, int ep,
			     const uint8_t *buf, size_t len);
	/* Once per virtual millisecond, for scripted behaviour.  Optional. */
	void		 (*tick)(struct usb_devmodel *dm, uint64_t now_ns);
};

struct usb_devmodel {
	const struct usb_devmodel_ops *ops;
	uint8_t		 address;	/* 0 until SET_ADDRESS's status */
	uint8_t		 pending_address;
	uint8_t		 config;
	uint8_t		 alt[32];
	uint16_t	 halted;	/* bit per IN ep (high byte OUT) */
	/* ep0 control transfer in progress */
	int		 ctrl_stage;	/* idle, data in/out, status */
	struct usb_ctrlrequest ctrl;
	uint8_t		 ctrl_buf[4096];
	size_t		 ctrl_len, ctrl_pos;
	/* injected fault */
	enum dm_fault_kind fault;
	int		 fault_ep;	/* endpoint address, -1 = any */
	int		 fault_count;
	int		 gone;		/* disconnected by a fault */
	void		*priv;
};

/* The registry of models by name ("loopback", "keyboard", "disk"). */
extern const struct usb_devmodel_ops *const dm_models[];
struct usb_devmodel *dm_create(const char *name, const char *args);
void		 dm_destroy(struct usb_devmodel *dm);
/*
 * One transaction from the host: pid, device address, endpoint number,
 * buf/len (OUT/SETUP data in, IN room out).  Returns bytes for IN (>= 0),
 * DM_ACK for OUT/SETUP, or a DM_* handshake/error.
 */
int		 dm_transact(struct usb_devmodel *dm, int pid, int addr,
		     int ep, uint8_t *buf, size_t len);
void		 dm_bus_reset(struct usb_devmodel *dm);
void		 dm_inject(struct usb_devmodel *dm, enum dm_fault_kind kind,
		     int ep, int count);

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

#endif /* HCD_H */
