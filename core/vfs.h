/*
 * core/vfs.h - the user side of the instrumented core, for scenarios,
 * tests and the TUI: the character devices of USB_MAJOR that drivers
 * registered with usb_register_dev, opened, read, written and closed as
 * a process would, and the virtual /dev and /sys/class entries listed.
 * Also the core's behaviour profile.
 *
 * Calls run on the machine sim_current (core/sim.h), in task context,
 * like system calls; each enters the driver's file operation with the
 * driver named (DRV_OPEN / DRV_RELEASE events for open and close).
 * Returns follow the system calls: >= 0 or a negative errno.
 */
#ifndef CORE_VFS_H
#define CORE_VFS_H

#include <stddef.h>
#include <sys/types.h>

struct sim;

/*
 * Behaviour profiles of the core:
 *	CORE_PROFILE_MODERN (default): usb_register_dev on a full table
 *	    -EXFULL, an interface registered twice -EADDRINUSE, class
 *	    "usbmisc"; submitting an active URB -EBUSY.
 *	CORE_PROFILE_260: the LWN article's 2.6.0: full table -EINVAL,
 *	    second registration not checked, class "usb"; submitting an
 *	    active URB -EINVAL.
 */
#define CORE_PROFILE_MODERN	0
#define CORE_PROFILE_260	1

/* Set the profile of machine s (before drivers run).  0 or -EINVAL. */
int		 core_set_profile(struct sim *s, int profile);

#define VFS_MAX_FILES	64

/*
 * Open "/dev/NAME" (NAME as the class driver's format gave it, e.g.
 * "/dev/usb/skel0"), as usb_open does: the minor's file operations
 * become the file's, and their open() runs with an inode of
 * USB_MAJOR << 8 | minor.  Returns a descriptor (>= 0); -ENOENT for no
 * such node, -ENODEV when its minor is no longer registered, -EMFILE,
 * or open()'s error.
 */
int		 vfs_open(struct sim *s, const char *path);
/* The driver's read/write/ioctl; -EINVAL when it has none, -EBADF for a
 * bad descriptor.  After the device went away the driver decides. */
ssize_t		 vfs_read(int fd, void *buf, size_t count);
ssize_t		 vfs_write(int fd, const void *buf, size_t count);
int		 vfs_ioctl(int fd, unsigned int cmd, unsigned long arg);
/* release(); its result (0 or -errno), -EBADF for a bad descriptor. */
int		 vfs_close(int fd);

/* One entry of the virtual file systems. */
struct vfs_entry {
	const char	*path;		/* "/dev/usb/skel0",
					 * "/sys/class/usbmisc/skel0" */
	int		 is_class;	/* 0: device node, 1: class device */
	int		 minor;
	const char	*name;		/* the class driver's, "usb/skel0" */
	const char	*node;		/* "/dev/usb/skel0" */
	unsigned int	 mode;		/* of the node: the class driver's
					 * (2.6.0 devfs), 0600 (modern) */
	const char	*dev;		/* the "dev" attribute, "180:192" */
	const char	*driver;	/* the registering driver, or NULL */
	const char	*intf;		/* its interface, "1-1:1.0" */
};

/*
 * Call cb for every node of /dev and every class device, in minor order
 * (node first).  Strings are valid during the call.  Returns the number
 * of entries.
 */
int		 vfs_list(struct sim *s,
		     void (*cb)(void *arg, const struct vfs_entry *e),
		     void *arg);

/*
 * Read an attribute of the virtual sysfs ("/sys/class/usbmisc/skel0/dev"
 * gives "180:192\n") into buf (NUL-terminated).  Bytes or -ENOENT.
 */
int		 vfs_read_attr(struct sim *s, const char *path, char *buf,
		     size_t size);

#endif /* CORE_VFS_H */
