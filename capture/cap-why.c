/*
 * capture/cap-why.c - for each USB interface sysfs shows, why the kernel
 * driver bound to it did, or why none did: the lines of `urbscope devices
 * --why` (cmd/cmd-devices.c) and of the TUI's Devices pane on a live
 * usbmon capture (tui/tui-devices.c).
 *
 * What the kernel has to go on is the interface's modalias
 * (drivers/usb/core/sysfs.c modalias_show, the MODALIAS= that usb_uevent
 * hands udev, which runs modprobe with it), matched against the aliases
 * depmod wrote from each module's MODULE_DEVICE_TABLE: modules.alias and,
 * for the modules built into the kernel, modules.builtin.alias.  kmod
 * matches them with fnmatch(3), no flags, the pattern against the
 * modalias (libkmod/libkmod-index.c index_searchwild, and
 * kmod_lookup_alias_from_builtin_file); modprobe then loads each module
 * found, and the driver core offers the interface to every registered
 * driver (drivers/usb/core/driver.c usb_device_match: driver_override
 * first, then the static ids, then those added through new_id).  Module
 * names compare with '-' and '_' the same (kmod's modname_normalize);
 * /sys/module holds the loaded (and some built-in) ones under their
 * normalized name.
 *
 * Each interface takes a header line and indented "label  value" lines:
 *
 *	2-2.1:1.0  ic 02/06/00 Communications  usb:v0525pA4A2d0000dc02...
 *	  driver      cdc_ether
 *	  bound       through alias usb:v*p*d*dc*dsc*dp*ic02isc06ip00in* ...
 *	  module      cdc_ether (loaded) alias usb:v*p*d*dc*dsc*dp*ic02...
 *	  authorized  interface 1, device 1
 *
 * and, when no driver is bound, one "why" line with the first reason
 * that applies (why_reason).
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/usbids.h"
#include "sysfs.h"

#define WHY_MAXMOD	16	/* modules listed for one interface */
#define WHY_NEWID_MAX	4096	/* new_id_show writes at most a page */

/* One module whose alias matches an interface's modalias. */
struct why_match {
	const struct why_alias *alias;	/* the first of its that matches */
	int		 state;		/* WHY_BUILTIN... */
};

enum { WHY_BUILTIN, WHY_LOADED, WHY_NOT_LOADED };

static const char *const why_states[] = {
	[WHY_BUILTIN] = "built in",
	[WHY_LOADED] = "loaded",
	[WHY_NOT_LOADED] = "not loaded",
};

/* Everything known of one interface, for why_bound and why_reason. */
struct why_intf {
	const struct sysfs_usb_dev *dev;
	const struct sysfs_usb_intf *in;
	const char	*root;		/* sysfs */
	struct why_modules *mods;
	struct why_match match[WHY_MAXMOD];
	size_t		 nmatch;
};

/* ------------------------------------------------------------------------
 * Module aliases.
 */

/* Module names are equal with '-' and '_' the same. */
static int
mod_eq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		if (*a != *b && !((*a == '-' || *a == '_') &&
		    (*b == '-' || *b == '_')))
			return 0;
	}
	return *a == *b;
}

/*
 * Append the "alias PATTERN MODULE" lines of path.  0, 1 when the file
 * is missing, -1 out of memory.
 */
static int
alias_read(struct why_modules *m, const char *path, int builtin,
    size_t *cap)
{
	struct why_alias *na;
	FILE		*f;
	char		*line = NULL, *pat, *mod, *save;
	size_t		 lsize = 0;
	int		 rc = 0;

	if ((f = fopen(path, "r")) == NULL)
		return 1;
	while (getline(&line, &lsize, f) != -1) {
		if (strtok_r(line, " \t\n", &save) == NULL ||
		    strcmp(line, "alias") != 0)
			continue;
		pat = strtok_r(NULL, " \t\n", &save);
		mod = strtok_r(NULL, " \t\n", &save);
		if (pat == NULL || mod == NULL)
			continue;
		if (dec_grow(&m->alias, m->nalias, cap, sizeof *na) != 0) {
			rc = -1;
			break;
		}
		na = &m->alias[m->nalias];
		na->builtin = builtin;
		na->pattern = strdup(pat);
		na->module = strdup(mod);
		if (na->pattern == NULL || na->module == NULL) {
			free(na->pattern);
			free(na->module);
			rc = -1;
			break;
		}
		m->nalias++;
	}
	free(line);
	fclose(f);
	return rc;
}

int
why_modules_load(struct why_modules *m, const char *dir)
{
	char	 path[4096];
	size_t	 cap = 0;
	int	 rc;

	memset(m, 0, sizeof *m);
	snprintf(path, sizeof path, "%s/modules.alias", dir);
	if ((rc = alias_read(m, path, 0, &cap)) < 0)
		return -1;
	m->have_alias = rc == 0;
	/* Older depmods write no modules.builtin.alias: nothing built in. */
	snprintf(path, sizeof path, "%s/modules.builtin.alias", dir);
	return alias_read(m, path, 1, &cap) < 0 ? -1 : 0;
}

void
why_modules_dir(const char *root, char *buf, size_t size)
{
	struct utsname	 u;

	if (root == NULL)
		root = "";
	if (uname(&u) == 0)
		snprintf(buf, size, "%s/lib/modules/%s", root, u.release);
	else
		snprintf(buf, size, "%s/lib/modules", root);
}

void
why_modules_free(struct why_modules *m)
{
	size_t	 i;

	for (i = 0; i < m->nalias; i++) {
		free(m->alias[i].pattern);
		free(m->alias[i].module);
	}
	free(m->alias);
	for (i = 0; i < m->nseen; i++) {
		free(m->seen[i].modalias);
		free(m->seen[i].idx);
	}
	free(m->seen);
	memset(m, 0, sizeof *m);
}

/* Built in, loaded (root/module/NAME, '-' as '_') or not loaded. */
static int
mod_state(const char *root, const struct why_alias *a)
{
	struct stat	 sb;
	char		 path[4096];
	size_t		 off, i;

	if (a->builtin)
		return WHY_BUILTIN;
	off = (size_t)snprintf(path, sizeof path, "%s/module/", root);
	for (i = 0; a->module[i] != '\0' && off + i < sizeof path - 1; i++)
		path[off + i] = a->module[i] == '-' ? '_' : a->module[i];
	path[off + i] = '\0';
	return stat(path, &sb) == 0 ? WHY_LOADED : WHY_NOT_LOADED;
}

/*
 * The aliases modalias matches, in the files' order (fnmatch, as kmod's
 * modprobe matches them): from m's matches of earlier calls, else found
 * and kept there; NULL out of memory.
 */
static const struct why_matched *
alias_matches(struct why_modules *m, const char *modalias)
{
	struct why_matched *c;
	size_t	 i, cap = 0;
	size_t	*nidx;

	for (i = 0; i < m->nseen; i++) {
		if (strcmp(m->seen[i].modalias, modalias) == 0)
			return &m->seen[i];
	}
	if (dec_grow(&m->seen, m->nseen, &m->cseen, sizeof *m->seen) < 0)
		return NULL;
	c = &m->seen[m->nseen];
	memset(c, 0, sizeof *c);
	if ((c->modalias = strdup(modalias)) == NULL)
		return NULL;
	for (i = 0; i < m->nalias; i++) {
		if (fnmatch(m->alias[i].pattern, modalias, 0) != 0)
			continue;
		if (c->n == cap) {
			cap = cap ? cap * 2 : 8;
			if ((nidx = realloc(c->idx, cap * sizeof *nidx)) ==
			    NULL) {
				free(c->idx);
				free(c->modalias);
				return NULL;
			}
			c->idx = nidx;
		}
		c->idx[c->n++] = i;
	}
	m->nseen++;
	return c;
}

/* Each module with an alias matching the interface's modalias, once. */
static void
match_modules(struct why_intf *w)
{
	const struct why_matched *c;
	const struct why_alias *a;
	size_t	 i, k;

	if ((c = alias_matches(w->mods, w->in->modalias)) == NULL)
		return;
	for (i = 0; i < c->n && w->nmatch < WHY_MAXMOD; i++) {
		a = &w->mods->alias[c->idx[i]];
		for (k = 0; k < w->nmatch; k++) {
			if (mod_eq(w->match[k].alias->module, a->module))
				break;
		}
		if (k < w->nmatch)
			continue;
		w->match[w->nmatch].alias = a;
		w->match[w->nmatch].state = mod_state(w->root, a);
		w->nmatch++;
	}
}

/* ------------------------------------------------------------------------
 * Drivers.
 */

/* The module a driver is in: its "module" link, else its own name. */
static void
driver_module(const char *root, const char *drv, char *buf, size_t size)
{
	char	 path[4096];

	snprintf(path, sizeof path, "%s/bus/usb/drivers/%s/module", root, drv);
	sysfs_link_name(path, buf, size);
	if (buf[0] == '\0')
		snprintf(buf, size, "%s", drv);
}

/*
 * The dynamic id of driver drv that matches the interface, from new_id
 * (new_id_show: "%04x %04x" and, when one was given, " %02x" with the
 * interface class, a line each; usb_store_new_id matches the device's
 * ids, and that class).  1 with *vid, *pid set, or 0.
 */
static int
dynamic_id(const struct why_intf *w, const char *drv, unsigned *vid,
    unsigned *pid)
{
	char		 path[4096], buf[WHY_NEWID_MAX + 1], *line, *save;
	unsigned	 v, p, cls;
	int		 n;

	snprintf(path, sizeof path, "%s/bus/usb/drivers/%s/new_id", w->root,
	    drv);
	if (sysfs_attr(path, buf, sizeof buf) == 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		n = sscanf(line, "%x %x %x", &v, &p, &cls);
		if (n < 2 || v != w->dev->vid || p != w->dev->pid)
			continue;
		if (n >= 3 && cls != w->in->cls)
			continue;
		*vid = v;
		*pid = p;
		return 1;
	}
	return 0;
}

/* Is a USB driver called drv registered (root/bus/usb/drivers/drv)? */
static int
driver_registered(const char *root, const char *drv)
{
	struct stat	 sb;
	char		 path[4096];

	snprintf(path, sizeof path, "%s/bus/usb/drivers/%s", root, drv);
	return stat(path, &sb) == 0;
}

/* How the bound driver came to match: the "bound" line. */
static void
why_bound(const struct why_intf *w, char *buf, size_t size)
{
	const char	*drv = w->in->driver;
	char		 mod[64];
	unsigned	 vid, pid;
	size_t		 i;

	if (w->in->driver_override[0] != '\0' &&
	    strcmp(w->in->driver_override, drv) == 0) {
		snprintf(buf, size, "through driver_override");
		return;
	}
	driver_module(w->root, drv, mod, sizeof mod);
	for (i = 0; i < w->nmatch; i++) {
		if (mod_eq(w->match[i].alias->module, mod)) {
			snprintf(buf, size, "through alias %s of module %s",
			    w->match[i].alias->pattern, mod);
			return;
		}
	}
	if (dynamic_id(w, drv, &vid, &pid)) {
		snprintf(buf, size, "through new_id (dynamic id %04x %04x)",
		    vid, pid);
		return;
	}
	if (!w->mods->have_alias || w->in->modalias[0] == '\0')
		snprintf(buf, size, "not known (no modules.alias or modalias, "
		    "no dynamic id)");
	else
		snprintf(buf, size, "claimed: no alias of module %s matches "
		    "and no dynamic id (a driver may claim other interfaces "
		    "of its device: usb_driver_claim_interface)", mod);
}

/* ------------------------------------------------------------------------
 * Why no driver.
 */

/* "a, b" of the matches in state st (st < 0: built in or loaded). */
static size_t
names_in(const struct why_intf *w, int st, char *buf, size_t size)
{
	size_t	 i, n = 0, off = 0;
	int	 in;

	buf[0] = '\0';
	for (i = 0; i < w->nmatch; i++) {
		in = st < 0 ? w->match[i].state != WHY_NOT_LOADED :
		    w->match[i].state == st;
		if (!in)
			continue;
		if (off < size)
			off += (size_t)snprintf(buf + off, size - off, "%s%s",
			    n > 0 ? ", " : "", w->match[i].alias->module);
		n++;
	}
	return n;
}

/*
 * The reason interface w has no driver, the first that applies: not
 * authorized (device, then interface); a driver_override naming a
 * driver; a probe the tracer saw fail (probes: NULL, 0 without a
 * tracer); module matches unknown; no alias matching; matching modules
 * not loaded; matching modules loaded (or built in) that are not bound.
 */
static void
why_reason(const struct why_intf *w, const struct why_probe *probes,
    size_t nprobes, char *buf, size_t size)
{
	const char	*ovr = w->in->driver_override, *what, *name;
	char		 names[512];
	size_t		 i, n;

	if (w->dev->authorized == 0) {
		snprintf(buf, size, "device not authorized (authorized=0)");
		return;
	}
	if (w->in->authorized == 0) {
		snprintf(buf, size, "interface not authorized (authorized=0)");
		return;
	}
	if (ovr[0] != '\0') {
		if (driver_registered(w->root, ovr))
			snprintf(buf, size, "driver_override=%s, and %s is "
			    "registered but not bound (its probe failed, or "
			    "the interface was unbound: see dmesg)", ovr, ovr);
		else
			snprintf(buf, size, "driver_override=%s, and no USB "
			    "driver %s is registered (its module is not "
			    "loaded?)", ovr, ovr);
		return;
	}
	for (i = 0; i < nprobes; i++) {
		if (strcmp(probes[i].intf, w->in->name) == 0 &&
		    probes[i].ret < 0) {
			name = dec_status_name(probes[i].ret);
			if (name != NULL)
				snprintf(buf, size, "driver %s was tried and "
				    "its probe returned %s", probes[i].driver,
				    name);
			else
				snprintf(buf, size, "driver %s was tried and "
				    "its probe returned %d", probes[i].driver,
				    probes[i].ret);
			return;
		}
	}
	if (w->in->modalias[0] == '\0') {
		snprintf(buf, size, "no modalias: module matches not known");
		return;
	}
	if (!w->mods->have_alias) {
		snprintf(buf, size, "no modules.alias: module matches not "
		    "known");
		return;
	}
	if (w->nmatch == 0) {
		snprintf(buf, size, "no module alias matches %s",
		    w->in->modalias);
		return;
	}
	if ((n = names_in(w, WHY_NOT_LOADED, names, sizeof names)) > 0) {
		snprintf(buf, size, n == 1 ? "module %s matches but is not "
		    "loaded" : "modules %s match but are not loaded", names);
		return;
	}
	/* Built in only when none is loaded; built in counts as loaded. */
	n = names_in(w, WHY_LOADED, names, sizeof names);
	what = n > 0 ? "loaded" : "built in";
	n = names_in(w, -1, names, sizeof names);
	snprintf(buf, size, n == 1 ? "module %s is %s but not bound (its probe "
	    "failed, or the interface was unbound: see dmesg)" : "modules %s "
	    "are %s but none is bound (their probes failed, or the interface "
	    "was unbound: see dmesg)", names, what);
}

/* ------------------------------------------------------------------------
 * The listing.
 */

static const char *
authorized_str(int v)
{
	return v < 0 ? "unknown" : v == 0 ? "0" : "1";
}

static void
why_intf(const struct sysfs_usb_dev *d, const struct sysfs_usb_intf *in,
    const char *root, struct why_modules *m,
    const struct why_probe *probes, size_t nprobes, struct sbuf *b)
{
	struct why_intf	 w;
	const char	*cls;
	char		 buf[1024];
	size_t		 i;

	memset(&w, 0, sizeof w);
	w.dev = d;
	w.in = in;
	w.root = root;
	w.mods = m;
	if (in->modalias[0] != '\0')
		match_modules(&w);

	/* usb.ids' name, as -t; the usb.org table without it. */
	if ((cls = usbids_class(in->cls)) == NULL &&
	    (cls = dec_name_find(dec_classes, in->cls)) == NULL)
		cls = "Unknown";
	sb_printf(b, "%s  ic %02X/%02X/%02X %s  %s\n", in->name, in->cls,
	    in->subcls, in->proto, cls, in->modalias[0] != '\0' ?
	    in->modalias : "(no modalias)");
	sb_printf(b, "  driver      %s\n", in->driver[0] != '\0' ?
	    in->driver : "(none)");
	if (in->driver[0] != '\0') {
		why_bound(&w, buf, sizeof buf);
		sb_printf(b, "  bound       %s\n", buf);
	}
	if (!m->have_alias)
		sb_printf(b, "  module      (not known: no modules.alias)\n");
	else if (w.nmatch == 0)
		sb_printf(b, "  module      (none)\n");
	for (i = 0; i < w.nmatch; i++)
		sb_printf(b, "  module      %s (%s) alias %s\n",
		    w.match[i].alias->module, why_states[w.match[i].state],
		    w.match[i].alias->pattern);
	if (in->driver_override[0] != '\0')
		sb_printf(b, "  override    %s\n", in->driver_override);
	sb_printf(b, "  authorized  interface %s, device %s\n",
	    authorized_str(in->authorized), authorized_str(d->authorized));
	if (in->driver[0] == '\0') {
		why_reason(&w, probes, nprobes, buf, sizeof buf);
		sb_printf(b, "  why         %s\n", buf);
	}
}

void
why_device(const struct sysfs_usb_dev *d, const char *intf, const char *root,
    struct why_modules *m, const struct why_probe *probes,
    size_t nprobes, struct sbuf *b)
{
	size_t	 i;

	/* An unauthorized device is left unconfigured: no interfaces. */
	if (d->nintf == 0 && intf == NULL) {
		sb_printf(b, "%s  device %04x:%04x, no interfaces\n",
		    d->name, d->vid, d->pid);
		sb_printf(b, "  authorized  device %s\n",
		    authorized_str(d->authorized));
		sb_printf(b, "  why         %s\n", d->authorized == 0 ?
		    "device not authorized (authorized=0)" :
		    "device not configured (no bConfigurationValue)");
		return;
	}
	for (i = 0; i < d->nintf; i++) {
		if (intf == NULL || strcmp(d->intf[i].name, intf) == 0)
			why_intf(d, &d->intf[i], root, m, probes, nprobes,
			    b);
	}
}
