/*
 * cmd/devices.h - what `urbscope devices` is made of: the devices from
 * sysfs or libusb (dev-enum.c), the descriptor tree laid out as
 * `lsusb -v` lays it out (dev-lsusb.c) and the bus tree as `lsusb -t`
 * (dev-tree.c); cmd-devices.c is the command, and prints with --why the
 * lines of capture/cap-why.c (capture/sysfs.h).
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
	const char	*none;			/* the no-devices message */
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

#endif /* TUI_DEVICES_H */
