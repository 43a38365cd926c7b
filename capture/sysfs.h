/*
 * capture/sysfs.h - the USB devices the running kernel knows, as sysfs
 * shows them (/sys/bus/usb/devices/): no bus traffic, no privileges.
 *
 * Used by `urbscope capture` (the descriptors of devices present at start,
 * written as synthetic GET_DESCRIPTOR records; -D), by `urbscope
 * devices` (the kernel driver bound to each interface, and with --why
 * why it bound or none did: cap-why.c) and by the TUI's Devices pane on a
 * live usbmon capture (the same why lines).  The root is a parameter so
 * tests can point it at a fake tree.
 */
#ifndef CAPTURE_SYSFS_H
#define CAPTURE_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#define SYSFS_USB_MAXINTF	32

struct sysfs_usb_intf {
	char		 name[64];	/* "1-2:1.0" */
	uint8_t		 num, alt;	/* bInterfaceNumber, bAlternateSetting */
	uint8_t		 cls, subcls, proto;
	char		 driver[64];	/* bound kernel driver, "" if none */
	char		 modalias[96];	/* "usb:v0525pA4A2d0000...", or "" */
	char		 driver_override[64]; /* "" when absent or "(null)" */
	int		 authorized;	/* 1, 0 (not authorized), -1 unknown */
};

struct sysfs_usb_dev {
	char		 name[64];	/* "1-2", "1-1.1", "usb1" */
	unsigned	 busnum, devnum;
	char		 devpath[32];	/* port path: "2", "1.1"; "0" root hub */
	unsigned	 speed;		/* Mb/s as sysfs says: 1 (1.5), 12, 480, 5000 */
	char		 speed_str[16];	/* as sysfs says: "1.5", "12", "480" */
	uint16_t	 vid, pid;
	uint8_t		 devclass;	/* bDeviceClass */
	int		 config;	/* bConfigurationValue, 0 = unconfigured */
	char		 driver[64];	/* "usb" normally */
	unsigned	 maxchild;	/* a hub's ports, else 0 */
	int		 authorized;	/* 1, 0 (not authorized), -1 unknown */
	char		 hcd[64];	/* a root hub's controller driver:
					   "ehci-pci" ("../driver"), or "" */
	char		 manufacturer[128], product[128], serial[128];
	/*
	 * The "descriptors" file: the 18-byte device descriptor followed by
	 * every configuration descriptor with all its subordinates, raw, in
	 * the device's byte order (little-endian), as the kernel cached them
	 * at enumeration.  Owned (malloc).
	 */
	uint8_t		*desc;
	size_t		 desclen;
	struct sysfs_usb_intf intf[SYSFS_USB_MAXINTF];
	size_t		 nintf;
};

/*
 * Scan root (NULL = "/sys") + "/bus/usb/devices".  *out is a malloc'ed
 * array sorted by bus then device number.  Returns 0 (also with zero
 * devices), or -1 with a message naming the path in err (no such
 * directory: sysfs not mounted).
 */
int	 sysfs_usb_scan(const char *root, struct sysfs_usb_dev **out,
	     size_t *n, char *err, size_t errlen);
void	 sysfs_usb_free(struct sysfs_usb_dev *devs, size_t n);

/*
 * Any text attribute by its path (a driver's new_id): into buf without
 * its trailing newlines and blanks; "" when missing.  Returns the length.
 */
size_t	 sysfs_attr(const char *path, char *buf, size_t size);
/* The basename of the symlink at path (a driver's "module"), or "". */
void	 sysfs_link_name(const char *path, char *buf, size_t size);

/* ------------------------------------------------------------------------
 * Why each interface has its driver or none (capture/cap-why.c).
 */
struct sbuf;

/* One line "alias PATTERN MODULE" of modules.alias. */
struct why_alias {
	char		*pattern;	/* "usb:v*p*d*dc*dsc*dp*ic03isc*..." */
	char		*module;	/* "usbhid" */
	int		 builtin;	/* from modules.builtin.alias */
};

/* The aliases one modalias matched (indexes into why_modules.alias). */
struct why_matched {
	char		*modalias;
	size_t		*idx;
	size_t		 n;
};

/*
 * The module aliases of one kernel (/lib/modules/RELEASE), and the
 * matches of each modalias asked about so far: matching all of Debian's
 * 16,000 aliases takes a millisecond or two an interface, and the TUI's
 * Devices pane asks again each time it is rebuilt.
 */
struct why_modules {
	struct why_alias *alias;	/* in the files' order */
	size_t		 nalias;
	int		 have_alias;	/* modules.alias was read */
	struct why_matched *seen;
	size_t		 nseen, cseen;
};

/*
 * A probe a tracer saw return an error: the TUI's Devices pane passes
 * the failed probes of the driver events (`tui -i usbmonN --drivers`);
 * `devices --why` has no tracer and passes NULL, 0.
 */
struct why_probe {
	const char	*intf;		/* "2-2.1:1.0" */
	const char	*driver;	/* "cdc_ether" */
	int		 ret;		/* what probe returned: -ENODEV */
};

/*
 * Read dir's modules.alias and modules.builtin.alias (either may be
 * missing: a missing modules.alias leaves have_alias 0, for the caller
 * to say).  0, or -1 out of memory.
 */
int	 why_modules_load(struct why_modules *m, const char *dir);
void	 why_modules_free(struct why_modules *m);
/*
 * The modules directory of the running kernel under root (NULL or "":
 * "/"): root/lib/modules/RELEASE, root/lib/modules when uname fails.
 */
void	 why_modules_dir(const char *root, char *buf, size_t size);
/*
 * Append to b why each interface of d (or only the one named intf, when
 * not NULL) has its driver or none, as `urbscope devices --why` prints
 * it: a header line and indented "label  value" lines each; root is the
 * sysfs root ("/sys").  m keeps the matches of each modalias.
 */
void	 why_device(const struct sysfs_usb_dev *d, const char *intf,
	     const char *root, struct why_modules *m,
	     const struct why_probe *probes, size_t nprobes, struct sbuf *b);

#endif /* CAPTURE_SYSFS_H */
