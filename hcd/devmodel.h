/*
 * hcd/devmodel.h - the device side of the simulated bus: the framework
 * (hcd/devmodel.c) and the interface a device model implements (the
 * models are in samples/devices/).  The emulated controller drives it;
 * host controller drivers never see it.
 */
#ifndef HCD_DEVMODEL_H
#define HCD_DEVMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/hcd.h"

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
	DM_PASS = -6,		/* get_descriptor: the framework's tables */
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
	DM_FAULT_NAK,		/* the next N transactions are NAKed */
	DM_FAULT_DELAY,		/* NAKed for N milliseconds (dm_tick's) */
};

/* What sets an injected fault off: the host's own traffic (dm_arm). */
enum dm_trigger_kind {
	DM_ON_NOW = 0,		/* at once: dm_inject */
	DM_ON_REQUEST,		/* the Nth SETUP with bRequest value */
	DM_ON_SCSI,		/* the Nth bulk-only CBW with opcode value
				 * (-1: any), USB MSC BOT 5.1 */
	DM_ON_PACKET,		/* the Nth transaction on endpoint value */
	DM_ON_BYTES,		/* the first transaction on endpoint value
				 * after nth bytes went through it */
};

/*
 * An injection as the scenarios' "inject PORT FAULT [EP] [COUNT] [on
 * request|scsi|packet VALUE [N]]" or "... on bytes EP N" says it (dm_inject_parse), for the
 * simulator and for `urbscope serve` alike.
 */
struct dm_inject_spec {
	enum dm_fault_kind kind;
	int		 ep;		/* endpoint address, -1 = any */
	int		 count;
	enum dm_trigger_kind on;
	long		 value;
	long		 nth;		/* 1 = the first; DM_ON_BYTES: bytes */
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
	/* A standard GET_DESCRIPTOR, asked of the model first: its length,
	 * DM_STALL, or DM_PASS for the tables of desc.  Optional (a model
	 * whose descriptors are not fixed: replay). */
	int		 (*get_descriptor)(struct usb_devmodel *dm,
			     const struct usb_ctrlrequest *s, uint8_t *data);
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
	/* a fault armed to go off at a trigger (on != DM_ON_NOW) */
	struct dm_inject_spec armed;
	long		 armed_seen;	/* trigger matches (bytes) so far */
	uint64_t	 now_ns;	/* the last dm_tick */
	uint64_t	 fault_until;	/* DM_FAULT_DELAY's end */
	/* what the model has to say (dm_note): NULL drops it */
	void		 (*note_fn)(void *arg, const char *text);
	void		*note_arg;
	void		*priv;
};

/* A model of the catalog (sim_register) by name, initialised with args. */
struct usb_devmodel *dm_create(const char *name, const char *args);
/* The same, what it has to say (dm_note), from its init on, to fn. */
struct usb_devmodel *dm_create_noted(const char *name, const char *args,
		     void (*fn)(void *arg, const char *text), void *arg);
void		 dm_destroy(struct usb_devmodel *dm);
/*
 * One transaction from the host: pid, device address, endpoint number,
 * buf/len (OUT/SETUP data in, IN room out).  Returns bytes for IN (>= 0),
 * DM_ACK for OUT/SETUP, or a DM_* handshake/error.
 */
int		 dm_transact(struct usb_devmodel *dm, int pid, int addr,
		     int ep, uint8_t *buf, size_t len);
void		 dm_bus_reset(struct usb_devmodel *dm);
/* A millisecond passed (now_ns): the model's tick, and the time that
 * DM_FAULT_DELAY counts.  What the machine and the server call. */
void		 dm_tick(struct usb_devmodel *dm, uint64_t now_ns);
void		 dm_inject(struct usb_devmodel *dm, enum dm_fault_kind kind,
		     int ep, int count);
/*
 * The fault of s at once (s->on == DM_ON_NOW) or armed for the
 * transaction that meets its trigger (it then goes off on that very
 * transaction); one armed at a time, until it goes off.
 */
void		 dm_inject_spec(struct usb_devmodel *dm,
		     const struct dm_inject_spec *s);
/*
 * The words after "inject PORT" (w[0] the fault, nw of them) into *s:
 * 0, or -1 with the reason in err.
 */
int		 dm_inject_parse(char *const *w, int nw,
		     struct dm_inject_spec *s, char *err, size_t errlen);

/* For the models (samples/devices/): */
/* A model whose init gave it other ops (its own descriptors): the
 * framework reads the configuration's endpoints again. */
void		 dm_ops_changed(struct usb_devmodel *dm);
/* A line for the user (dm->note_fn), printf-style. */
void		 dm_note(struct usb_devmodel *dm, const char *fmt, ...)
		     __attribute__((format(printf, 2, 3)));
/* Halt (or un-halt) an endpoint by address from inside a model (the BOT
 * disk halts its pipes to end a data phase). */
void		 dm_halt(struct usb_devmodel *dm, int epaddr, int on);

/*
 * "1M", "512K", "4096", "2G" -> bytes in *out; 0 when args is such a
 * size, -1 when it is not (a path, say).
 */
int		 dm_parse_size(const char *args, uint64_t *out);

#endif /* HCD_DEVMODEL_H */
