/*
 * cmd/devices.h - what `urbscope devices` is made of: the devices from
 * sysfs or libusb (dev-enum.c), the descriptor tree laid out as
 * `lsusb -v` lays it out (dev-lsusb.c) and the bus tree as `lsusb -t`
 * (dev-tree.c), why each interface's driver bound or none did
 * (dev-why.c); cmd-devices.c is the command.
 */
#ifndef TUI_DEVICES_H
#define TUI_DEVICES_H

#include <libusb.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/sysfs.h"

/* One device, from libusb or from sysfs. */
struct dv {
	unsigned	 bus, devnum;
	char		 port[64];	/* "1-1.4", "usb1" */
	char		 speed[24];	/* "480M" */
	uint16_t	 vid, pid;
	const uint8_t	*desc;		/* device + configurations */
	size_t		 desclen;
	uint8_t		*owned;		/* desc when rebuilt */
	const struct sysfs_usb_dev *sys; /* its sysfs entry, or NULL */
	libusb_device	*ld;		/* NULL with --sysfs */
	libusb_device_handle *h;	/* open for -v, else NULL */
	int		 langid;	/* -1 unknown, 0 none */
};

struct devopts {
	int		 verbose;
	int		 tree;			/* -t */
	int		 bus, devnum;		/* -s; -1 = any */
	int		 vid, pid;		/* -d; -1 = any */
	const char	*sysfs;			/* --sysfs ROOT */
	int		 why;			/* --why */
	const char	*modules;		/* --modules DIR */
};

/* dev-enum.c */
void		 dv_from_sysfs(struct dv *d, const struct sysfs_usb_dev *s);
int		 dv_from_libusb(struct dv *d, libusb_device *ld,
		     const struct sysfs_usb_dev *sys, size_t nsys);
void		 dv_free(struct dv *d);
/* String descriptor idx in the device's language, or NULL. */
const char	*dv_string(struct dv *d, uint8_t idx, char *buf, size_t size);
/* An IN control request to the open device: bytes or a libusb error. */
int		 dv_ctrl_in(struct dv *d, uint8_t rtype, uint8_t req,
		     uint16_t val, uint16_t idx, uint8_t *buf, uint16_t len);

/* dev-lsusb.c */
/* The device's descriptors, then each configuration, as lsusb -v. */
void		 ls_descriptors(struct dv *d);
/* What lsusb asks the device after them (hub, qualifier, status). */
void		 ls_requests(struct dv *d);

/* dev-tree.c */
/* The buses, hubs, ports and interfaces of sysfs, as lsusb -t. */
void		 ls_bustree(const struct sysfs_usb_dev *sys, size_t n);

/* dev-why.c */
/* One line "alias PATTERN MODULE" of modules.alias. */
struct why_alias {
	char		*pattern;	/* "usb:v*p*d*dc*dsc*dp*ic03isc*..." */
	char		*module;	/* "usbhid" */
	int		 builtin;	/* from modules.builtin.alias */
};

/* The module aliases of one kernel (/lib/modules/RELEASE). */
struct why_modules {
	struct why_alias *alias;	/* in the files' order */
	size_t		 nalias;
	int		 have_alias;	/* modules.alias was read */
};

/*
 * A probe a tracer saw return an error (the eBPF tracer to come): none
 * yet, so callers pass NULL, 0.
 */
struct why_probe {
	const char	*intf;		/* "2-2.1:1.0" */
	const char	*driver;	/* "cdc_ether" */
	int		 ret;		/* what probe returned: -ENODEV */
};

/*
 * Read dir's modules.alias and modules.builtin.alias (either may be
 * missing: a missing modules.alias is said once on stderr and leaves
 * have_alias 0).  0, or -1 out of memory.
 */
int		 why_modules_load(struct why_modules *m, const char *dir);
void		 why_modules_free(struct why_modules *m);
/*
 * Print why each interface of d (or only the one named intf, when not
 * NULL) has its driver or none; root is the sysfs root ("/sys").
 */
void		 why_device(const struct sysfs_usb_dev *d, const char *intf,
		     const char *root, const struct why_modules *m,
		     const struct why_probe *probes, size_t nprobes);

#endif /* TUI_DEVICES_H */
