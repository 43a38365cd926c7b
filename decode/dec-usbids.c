/*
 * decode/dec-usbids.c - vendor, product and class names from usb.ids, the
 * database lsusb uses (http://www.linux-usb.org/usb.ids, Debian's hwdata
 * and usbutils packages).  Its format:
 *
 *	# comment
 *	vvvv  Vendor name
 *	<TAB>pppp  Product name
 *	<TAB><TAB>iiii  Interface name
 *	C 00  Class name	(other sections: the ids end here)
 *
 * The file (about 700 KB, 24000 names) is read whole on the first lookup
 * and its lines are cut in place into two sorted arrays searched by
 * bisection: one read, one pass, no allocation per name.  The database is
 * process-wide state on purpose: it is loaded once, never changes, and
 * every caller (devices, capture -D, the TUI) wants the same one.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "usbids.h"

#define USBIDS_MAX_SIZE	(64U * 1024 * 1024)

struct usbids_vendor {
	uint16_t	 vid;
	const char	*name;
	uint32_t	 first;	/* its products: prod[first..+n) */
	uint32_t	 n;
};

struct usbids_product {
	uint16_t	 pid;
	const char	*name;
};

static struct {
	int			 path_set;	/* set_path was called */
	const char		*path;		/* NULL: no database */
	int			 loaded;	/* load tried */
	char			*text;		/* the file, cut */
	struct usbids_vendor	*vendor;
	size_t			 nvendor;
	struct usbids_product	*prod;
	size_t			 nprod;
	const char		*cls[256];	/* "C xx  Name" lines */
} db;

/* Forget the database read so far: the next lookup reads it again. */
static void
unload(void)
{
	free(db.vendor);
	free(db.prod);
	free(db.text);
	db.vendor = NULL;
	db.prod = NULL;
	db.text = NULL;
	db.nvendor = db.nprod = 0;
	memset(db.cls, 0, sizeof db.cls);
	db.loaded = 0;
}

void
usbids_set_path(const char *path)
{
	unload();
	db.path_set = 1;
	db.path = path;
}

/* Four hex digits then a space at p (which has at least 5 bytes left)? */
static int
hex4(const char *p, uint16_t *out)
{
	int	 i, v = 0, h;

	for (i = 0; i < 4; i++) {
		if ((h = dec_hexval((unsigned char)p[i])) < 0)
			return 0;
		v = v << 4 | h;
	}
	if (p[4] != ' ' && p[4] != '\t')
		return 0;
	*out = (uint16_t)v;
	return 1;
}

/* The name after "xxxx  ": skip the blanks. */
static const char *
name_at(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int
vendor_cmp(const void *a, const void *b)
{
	const struct usbids_vendor *x = a, *y = b;

	return (int)x->vid - (int)y->vid;
}

static int
product_cmp(const void *a, const void *b)
{
	const struct usbids_product *x = a, *y = b;

	return (int)x->pid - (int)y->pid;
}

/* Read the whole file at path into a NUL-terminated buffer. */
static char *
slurp(const char *path, size_t *len)
{
	struct stat	 st;
	char		*buf;
	size_t		 got = 0;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > USBIDS_MAX_SIZE ||
	    (buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* End the line at nl (and a CR before it) in place. */
static void
cut(char *p, char *nl)
{
	*nl = '\0';
	if (nl > p && nl[-1] == '\r')
		nl[-1] = '\0';
}

/*
 * The class section: "C xx  Name" lines, each cut in place.  Its
 * subclass lines (a tab first) are skipped.  Runs before parse(), which
 * stops at the first of them.
 */
static void
parse_classes(char *text, size_t len)
{
	char	*p, *end = text + len, *nl;
	int	 hi, lo;

	for (p = text; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl - p < 6 || p[0] != 'C' || p[1] != ' ')
			continue;
		if ((hi = dec_hexval((unsigned char)p[2])) < 0 ||
		    (lo = dec_hexval((unsigned char)p[3])) < 0 ||
		    (p[4] != ' ' && p[4] != '\t'))
			continue;
		cut(p, nl);
		db.cls[hi << 4 | lo] = name_at(p + 4);
	}
}

/*
 * Cut text into lines and fill the arrays.  Two passes over the bytes:
 * one to count (so each array is one allocation), one to fill.
 */
static int
parse(char *text, size_t len)
{
	struct usbids_vendor	*v;
	char			*p, *end = text + len, *nl;
	size_t			 nv = 0, np = 0, pass, i;
	uint16_t		 id;
	int			 fill, invendor, sorted = 1;

	for (pass = 0; pass < 2; pass++) {
		fill = pass == 1;
		if (fill) {
			db.vendor = calloc(nv != 0 ? nv : 1,
			    sizeof *db.vendor);
			db.prod = calloc(np != 0 ? np : 1, sizeof *db.prod);
			if (db.vendor == NULL || db.prod == NULL)
				return -1;
			nv = np = 0;
		}
		v = NULL;
		invendor = 0;
		for (p = text; p < end; p = nl + 1) {
			if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
				nl = end;
			if (nl - p < 6 || p[0] == '#')
				continue;
			if (p[0] == '\t') {
				/* Interface lines (two tabs) are skipped. */
				if (!invendor || p[1] == '\t' || nl - p < 7 ||
				    !hex4(p + 1, &id))
					continue;
				if (fill) {
					cut(p, nl);
					db.prod[np].pid = id;
					db.prod[np].name = name_at(p + 5);
					v->n++;
				}
				np++;
				continue;
			}
			/* The first other section ("C 00") ends the ids. */
			if (!hex4(p, &id))
				break;
			invendor = 1;
			if (fill) {
				cut(p, nl);
				v = &db.vendor[nv];
				v->vid = id;
				v->name = name_at(p + 4);
				v->first = (uint32_t)np;
				if (nv > 0 && db.vendor[nv - 1].vid >= id)
					sorted = 0;
			}
			nv++;
		}
	}
	db.nvendor = nv;
	db.nprod = np;
	/* The file is sorted; a hand-edited one may not be. */
	if (!sorted)
		qsort(db.vendor, nv, sizeof *db.vendor, vendor_cmp);
	for (i = 0; i < nv; i++)
		qsort(db.prod + db.vendor[i].first, db.vendor[i].n,
		    sizeof *db.prod, product_cmp);
	return 0;
}

static void
load(void)
{
	static const char *const paths[] = {
		"/usr/share/hwdata/usb.ids",
		"/usr/share/misc/usb.ids",
		"/var/lib/usbutils/usb.ids",
	};
	const char	*env;
	size_t		 i, len = 0;

	db.loaded = 1;
	if (db.path_set) {
		if (db.path != NULL)
			db.text = slurp(db.path, &len);
	} else {
		/* The user's choice is final, even a missing file. */
		if ((env = getenv("URBSCOPE_USB_IDS")) != NULL && *env == '\0')
			env = NULL;
		if (env != NULL)
			db.text = slurp(env, &len);
		for (i = 0; env == NULL && db.text == NULL && i <
		    sizeof paths / sizeof paths[0]; i++)
			db.text = slurp(paths[i], &len);
	}
	if (db.text == NULL)
		return;
	parse_classes(db.text, len);
	if (parse(db.text, len) != 0) {
		unload();
		db.loaded = 1;		/* out of memory: numbers only */
	}
}

static const struct usbids_vendor *
vendor_find(uint16_t vid)
{
	struct usbids_vendor key;

	if (!db.loaded)
		load();
	if (db.nvendor == 0)
		return NULL;
	key.vid = vid;
	return bsearch(&key, db.vendor, db.nvendor, sizeof *db.vendor,
	    vendor_cmp);
}

const char *
usbids_vendor(uint16_t vid)
{
	const struct usbids_vendor *v = vendor_find(vid);

	return v != NULL ? v->name : NULL;
}

const char *
usbids_product(uint16_t vid, uint16_t pid)
{
	const struct usbids_vendor *v = vendor_find(vid);
	const struct usbids_product *p;
	struct usbids_product key;

	if (v == NULL || v->n == 0)
		return NULL;
	key.pid = pid;
	p = bsearch(&key, db.prod + v->first, v->n, sizeof *db.prod,
	    product_cmp);
	return p != NULL ? p->name : NULL;
}

const char *
usbids_class(uint8_t cls)
{
	if (!db.loaded)
		load();
	return db.cls[cls];
}
