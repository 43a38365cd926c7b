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
	uint16_t	 cls;			/* bInterfaceClass */
	uint16_t	 subcls;		/* or DEC_CLS_ANY */
	uint16_t	 proto;			/* or DEC_CLS_ANY */
	/* one line of a payload's meaning; 1 when written */
	int		(*summary)(const struct dec_cls_arg *, struct sbuf *);
	/* the payload's subtree, at the tree's depth; 1 when decoded */
	int		(*tree)(const struct dec_cls_arg *, struct dec_tree *);
	/* the fields of a class descriptor after its bLength and
	 * bDescriptorType; 1 when decoded (else shown as bytes) */
	int		(*desc)(const struct dec_cls_desc *, struct dec_tree *);
	/* keep what later records need into st */
	void		(*learn)(const struct urb_rec *,
			    const struct dec_info *, struct dec_cls_state *);
};

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

const char	*dec_scsi_op_name(uint8_t op, char *tmp);
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

#endif /* DECODE_CLASS_H */
