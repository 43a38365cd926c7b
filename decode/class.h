/*
 * decode/class.h - the interface between the class dispatcher
 * (dec-class.c) and the class decoders, one file a class (dec-hid.c,
 * dec-msc.c, ...).  Private to decode/: the rest of urbscope calls the
 * dec_class_* functions of decode.h.
 *
 * A class decoder is a table of operations, the way Wireshark's USB
 * dissector hands a payload to the dissector registered for the
 * interface class (epan/dissectors/packet-usb.c, "usb.bInterfaceClass"
 * table).  Every operation is optional.
 */
#ifndef DECODE_CLASS_H
#define DECODE_CLASS_H

#include "decode.h"

#define DEC_CLS_ANY	0x100		/* subclass or protocol: any */

/* What a class decoder gets: one record, what the analysis says of it and
 * the state learnt for its interface (NULL when the interface is not
 * known).  The record's control request, when it is one, is info->setup
 * (DI_SETUP); r->data holds r->data_len bytes, maybe fewer than asked. */
struct dec_cls_arg {
	const struct urb_rec		*r;
	const struct dec_info		*info;
	const struct dec_cls_state	*st;
};

/* A class-specific descriptor inside a configuration (CS_INTERFACE 0x24,
 * CS_ENDPOINT 0x25, a functional descriptor 0x21 of a class other than
 * HID): p[0..n) of it is present, at offset off of the tree's DB_DATA
 * buffer; label is its heading node (never NULL), whose str the decoder
 * may replace
 * ("CS_INTERFACE descriptor: Header"). */
struct dec_cls_desc {
	const uint8_t		*p;
	size_t			 n;
	uint32_t		 off;
	uint8_t			 subcls;	/* of the interface it follows */
	uint8_t			 proto;
	struct dec_node		*label;
};

struct dec_class_ops {
	const char	*name;			/* "HID", "mass storage" */
	const char	*wsproto;		/* Wireshark's protocol, as a
						   filter names it ("usbms"),
						   when its dissector takes the
						   class's payloads */
	uint16_t	 cls;			/* bInterfaceClass */
	uint16_t	 subcls;		/* or DEC_CLS_ANY */
	uint16_t	 proto;			/* or DEC_CLS_ANY */
	/* one line of a payload's meaning; 1 when written */
	int		(*summary)(const struct dec_cls_arg *, struct sbuf *);
	/* the payload's subtree, at the tree's depth; 1 when decoded */
	int		(*tree)(const struct dec_cls_arg *, struct dec_tree *);
	/* tree sees records without data too (tshark's usbvideo names the
	 * control that a response without data answers) */
	int		 tree_empty;
	/* the fields of a class descriptor after its bLength and
	 * bDescriptorType; 1 when decoded (else shown as bytes) */
	int		(*desc)(const struct dec_cls_desc *, struct dec_tree *);
	/* keep what later records need into st */
	void		(*learn)(const struct urb_rec *,
			    const struct dec_info *, struct dec_cls_state *);
	/* the decoders read the interface's siblings in the active
	 * configuration (dec_info.cfg) */
	int		 needs_cfg;
	/* 1 when Wireshark finds r's payload without the descriptors (a
	 * heuristic dissector, as usbms's on bulk endpoints); a guessed
	 * class's payload it does not take is also usb.capdata.  NULL:
	 * none. */
	int		(*heuristic)(const struct urb_rec *r);
	/* 1 when Wireshark 4.0's dissection of r holds wsproto's protocol
	 * item (proto_tree_add_item(..., proto_xxx, ...)), which a bare
	 * `-Y usbhid` tests; its dissectors add fields without it too.
	 * mine: r goes to this decoder.  NULL: when r goes to it with a
	 * payload, or is a class request's submit. */
	int		(*item)(const struct urb_rec *r,
			    const struct dec_info *info, int mine);
};

/* dec-class.c: an item for no record (tshark 4.0's usbhub and usbvideo
 * dissectors put their fields in the USB tree, under no item of theirs) */
int		 dec_cls_no_item(const struct urb_rec *r,
		     const struct dec_info *info, int mine);

/* dec-record.c: r's data as the control transfer's usb.data_fragment,
 * for a class whose dissector in Wireshark leaves the bytes so. */
void		 dec_tree_fragment(const struct urb_rec *r, struct dec_tree *t);
/* dec-record.c: r's data as the answer of a class request that no
 * dissector takes (packet-usb.c's usb.control.Response). */
void		 dec_tree_ctl_response(const struct urb_rec *r,
		     struct dec_tree *t);
/* A CDC request's interface subclass, as tshark's generated
 * usbcom.control.subclass (on requests and answers with data). */
void		 dec_cdc_subclass(const struct dec_info *info,
		     struct dec_tree *t);
/* r's data as Wireshark leaves what no dissector takes: the fragment of a
 * control transfer's submit, else usb.capdata. */
void		 dec_tree_leftover(const struct urb_rec *r, struct dec_tree *t);

/* dec-at.c: is p[0..n) AT command text as Wireshark's heuristic AT
 * dissector (packet-at.c, usb.bulk and usb.control) takes it?  1 or 0.
 * dec_at_tree adds the at node of record r (bulk data, or the answer to
 * a class or vendor request) with its commands. */
int		 dec_at_heuristic(const uint8_t *p, size_t n);
void		 dec_at_tree(const struct urb_rec *r, struct dec_tree *t);

/* The decoder of (cls, subcls, proto), or NULL. */
const struct dec_class_ops *dec_class_find(int cls, int subcls, int proto);

/* The class decoders (the table is in dec-class.c). */
extern const struct dec_class_ops dec_class_hid;	/* dec-hid.c */
extern const struct dec_class_ops dec_class_msc;	/* dec-msc.c */
extern const struct dec_class_ops dec_class_uas;	/* dec-msc.c */
extern const struct dec_class_ops dec_class_ccid;	/* dec-ccid.c */
extern const struct dec_class_ops dec_class_dfu;	/* dec-dfu.c */
extern const struct dec_class_ops dec_class_printer;	/* dec-printer.c */
extern const struct dec_class_ops dec_class_cdc;	/* dec-cdc.c */
extern const struct dec_class_ops dec_class_cdc_data;	/* dec-cdc.c */
extern const struct dec_class_ops dec_class_hub;	/* dec-hub.c */
extern const struct dec_class_ops dec_class_audio;	/* dec-audio.c */
extern const struct dec_class_ops dec_class_video;	/* dec-video.c */
extern const struct dec_class_ops dec_class_bt;		/* dec-bt.c */

/*
 * A cursor over the bytes p[0..n) of a class structure that sit at offset
 * base of the tree's DB_DATA buffer.  dec_cur_field adds field f of size
 * bytes (1-4, little-endian; any size for DK_BYTES) at off, 1 and its
 * value in *v when present; a field the bytes end inside is shown on what
 * there is, flagged DN_CUT, and ends the walk (cut is set, nothing after
 * it is read).  dec_cur_word adds the field and its bit fields bits[]
 * (NULL-terminated).  dec_cur_rest adds the bytes from off to the end as f;
 * 1 if any.  dec_cls_bits adds bit fields of a word v (len bytes at off of
 * DB_DATA) one level below the node just added, each value shifted down
 * to its mask's lowest bit, as Wireshark shows them.
 */
struct dec_cur {
	struct dec_tree	*t;
	const uint8_t	*p;
	size_t		 n;
	uint32_t	 base;
	int		 cut;
};

int		 dec_cur_field(struct dec_cur *c, const struct dec_field *f,
		     size_t off, size_t size, uint32_t *v);
int		 dec_cur_word(struct dec_cur *c, const struct dec_field *f,
		     const struct dec_field *const *bits, size_t off,
		     size_t size, uint32_t *v);
int		 dec_cur_rest(struct dec_cur *c, const struct dec_field *f,
		     size_t off);
/* A row of a structure's layout: field f of size bytes at offset at,
 * with its bit fields (NULL-terminated) or NULL; dec_cur_rows adds the
 * n rows r[] in turn (dec_cur_word or dec_cur_field) until one is cut. */
struct dec_cur_row {
	uint8_t			 at;
	uint8_t			 size;
	const struct dec_field	*f;
	const struct dec_field *const *bits;
};
void		 dec_cur_rows(struct dec_cur *c, const struct dec_cur_row *r,
		     size_t n);
void		 dec_cls_bits(struct dec_tree *t,
		     const struct dec_field *const *bits, uint32_t off,
		     uint32_t len, uint32_t v);

/* dec-hid.c: the items of a HID report (or physical, want 0x23)
 * descriptor in p[0..len) as a subtree; dec-desc.c calls it for the
 * answer of GET_DESCRIPTOR(HID_REPORT). */
void		 dec_hid_rdesc_tree(const uint8_t *p, size_t len, int want,
		     struct dec_tree *t);

/*
 * dec-scsi.c: SCSI as mass storage carries it (BOT and UAS share it).  A
 * command is its CDB (cdb_len bytes, at most 16), the LUN it went to,
 * the command set of the device and the frame of the command (0: none).
 */
struct dec_scsi_cmd {
	const uint8_t	*cdb;
	size_t		 cdb_len;
	uint16_t	 lun;
	uint8_t		 devtype;
	uint64_t	 req_frame;
};

/* Bulk-only transport's wrappers (USB MSC BOT 1.0, 5.1 and 5.2). */
#define CBW_SIG		0x43425355	/* "USBC" */
#define CSW_SIG		0x53425355	/* "USBS" */
#define CBW_LEN		31
#define CSW_LEN		13

const char	*dec_scsi_op_name(uint8_t op, char *tmp);
/* Its name appended to b (sb_putname). */
void		 dec_scsi_put_op(struct sbuf *b, uint8_t op);
/* The LBA and block count of a READ, WRITE or VERIFY CDB (6, 10, 12, 16;
 * SBC-3 5.x), 0 when it is none of them. */
int		 dec_scsi_rw_args(const uint8_t *cdb, size_t n, uint64_t *lba,
		     uint32_t *blocks);
/* The name of a sense key (SPC-4 table 27); tmp as dec_name_or's. */
const char	*dec_scsi_sense_key_name(uint8_t key, char *tmp);
/* "SCSI CDB ..." subtree of the CDB at offset off of the record's data. */
void		 dec_scsi_cdb_tree(const uint8_t *cdb, size_t n, uint32_t off,
		     const struct dec_scsi_cmd *cmd, struct dec_tree *t);
/* "SCSI Payload (...)": the data of cmd in p[0..n) (in: to the host). */
void		 dec_scsi_data_tree(const uint8_t *p, size_t n, uint32_t off,
		     const struct dec_scsi_cmd *cmd, int in, struct dec_tree *t);
/* "SCSI Response (...)": status (SAM-5), dt_ns since the command or -1. */
void		 dec_scsi_status_tree(const struct dec_scsi_cmd *cmd,
		     int status, int64_t dt_ns, struct dec_tree *t);
/* "SCSI: SNS Info": fixed-format sense data in p[0..n). */
void		 dec_scsi_sense_tree(const uint8_t *p, size_t n, uint32_t off,
		     const struct dec_scsi_cmd *cmd, struct dec_tree *t);
/* "READ(10) lba 0 blocks 1", "INQUIRY", ... */
void		 dec_scsi_cdb_summary(const uint8_t *cdb, size_t n,
		     struct sbuf *b);
/* "INQUIRY data: QEMU QEMU HARDDISK 2.5+", ... */
void		 dec_scsi_data_summary(const uint8_t *p, size_t n,
		     const struct dec_scsi_cmd *cmd, int in, struct sbuf *b);
/* "NOT READY, MEDIUM NOT PRESENT (0x3a/0x00)" */
void		 dec_scsi_sense_summary(const uint8_t *p, size_t n,
		     struct sbuf *b);

/*
 * A report descriptor's layout (HID 1.11 6.2.2, 8.4): its Input, Output
 * and Feature items as fields, each report_count controls of report_size
 * bits at bit_off of its report (after the report ID byte, when the
 * descriptor has report IDs).  Bounded: at most DEC_HID_MAX_FIELDS fields
 * and DEC_HID_MAX_USAGES usage entries, more sets truncated.  Usages are
 * extended (page << 16 | id); a usage entry is one usage (min == max) or
 * a Usage Minimum/Maximum range.
 */
#define DEC_HID_MAX_FIELDS	128
#define DEC_HID_MAX_USAGES	512
#define DEC_HID_MAX_REPORTS	64	/* (kind, report ID) pairs */

#define DEC_HID_INPUT		0x08	/* field kinds: the main item tags */
#define DEC_HID_OUTPUT		0x09
#define DEC_HID_FEATURE		0x0b

/* Main item data bits (HID 1.11 6.2.2.5). */
#define DEC_HID_CONSTANT	0x001
#define DEC_HID_VARIABLE	0x002
#define DEC_HID_RELATIVE	0x004
#define DEC_HID_NULLSTATE	0x040

struct dec_hid_usage {
	uint32_t	 min, max;
};

struct dec_hid_field {
	uint8_t		 kind;		/* DEC_HID_INPUT, _OUTPUT, _FEATURE */
	uint8_t		 report_id;	/* 0 without report IDs */
	uint16_t	 flags;		/* the main item's data (DEC_HID_*) */
	uint32_t	 size;		/* Report Size, bits a control */
	uint32_t	 count;		/* Report Count */
	uint64_t	 bit_off;	/* in its report, after the ID byte */
	int32_t		 lmin;		/* Logical Minimum */
	int32_t		 lmax;		/* Logical Maximum as hosts read it:
					   unsigned when lmin >= 0 */
	int32_t		 lmax_signed;	/* as the item says (signed) */
	int32_t		 pmin, pmax;	/* Physical Minimum, Maximum */
	uint32_t	 unit;
	int32_t		 unit_exp;
	uint32_t	 page;		/* Usage Page at the main item */
	uint32_t	 app;		/* usage of its Application collection */
	uint16_t	 u_first;	/* its usages: u[u_first..+u_n) */
	uint16_t	 u_n;
};

/*
 * A layout never changes once parsed: the interface's state, its copies
 * (dec_ctx_clone) and the records kept for later (dec_rec_copy) share
 * it; refs counts the holders beyond the first, and the last
 * dec_cls_state_free frees it.
 */
struct dec_hid_layout {
	unsigned int	 refs;
	uint16_t	 nfields;
	uint16_t	 nusages;
	uint8_t		 uses_ids;	/* reports start with their ID */
	uint8_t		 truncated;	/* fields or usages left out */
	uint8_t		 bad;		/* malformed items were skipped */
	uint8_t		 incomplete;	/* it ends inside an item or a
					   collection: cut short */
	uint32_t	 app;		/* the first Application collection's
					   usage, 0 if none */
	struct dec_hid_field f[DEC_HID_MAX_FIELDS];
	struct dec_hid_usage u[DEC_HID_MAX_USAGES];
};

/* Let go of a layout: the last holder frees it (NULL: nothing). */
void		 dec_hid_layout_unref(struct dec_hid_layout *l);
/* Parse p[0..len) into *l (never reads past len); the fields found. */
int		 dec_hid_layout_parse(const uint8_t *p, size_t len,
		     struct dec_hid_layout *l);
/* The number of usages of a field and its i-th (0 when i is past them). */
uint64_t	 dec_hid_field_nusages(const struct dec_hid_layout *l,
		     const struct dec_hid_field *f);
uint32_t	 dec_hid_field_usage(const struct dec_hid_layout *l,
		     const struct dec_hid_field *f, uint64_t i);
/* The bits of a report's controls: n <= 32 bits at bit of p[0..len),
 * least significant first (HID 1.11 5.8); 0 past len. */
uint32_t	 dec_hid_bits(const uint8_t *p, size_t len, uint64_t bit,
		     uint32_t n);

/* Does report p[0..len) have the length of an input report of l (the
 * one of its report ID when l has IDs)?  1 or 0. */
int		 dec_hid_layout_fits(const struct dec_hid_layout *l,
		     const uint8_t *p, size_t len);

/* dec-hid-usages.c: the HID Usage Tables' names. */
extern const struct dec_name dec_hid_pages[];
/* A page's name; "Vendor" for 0xff00-0xffff, else "Reserved". */
const char	*dec_hid_page_name(uint32_t page);
/* A usage's name ("Keyboard a and A", "Button 4", "X") into buf. */
const char	*dec_hid_usage_name(uint32_t page, uint32_t id, char *buf,
		     size_t size);
/* A Keyboard/Keypad usage's short name ("a", "Enter", "LShift"). */
const char	*dec_hid_key_name(uint32_t id, char *buf, size_t size);

#endif /* DECODE_CLASS_H */
