/*
 * capture/cap-bpf.c - `urbscope capture --drivers`: the USB core traced
 * with eBPF next to usbmon.  capture/bpf/usbtrace.bpf.c (built by the
 * Makefile with clang's BPF target and embedded here by `bpftool gen
 * skeleton`) reports usb_submit_urb, __usb_hcd_giveback_urb,
 * usb_kill_urb, usb_unlink_urb, usb_poison_urb, usb_register_driver,
 * usb_deregister, usb_device_match, usb_probe_interface,
 * usb_unbind_interface, usb_register_dev, usb_deregister_dev and usb_open
 * through a BPF ring buffer; this file loads it (libbpf, CO-RE against
 * /sys/kernel/btf), turns its records into driver events of the
 * simulator's kinds and merges them with the usbmon source's records in
 * time order, as one source.  Every event goes through the driver rules
 * (dec_rules_check, decode/dec-rules.c) in that order, and the rules it
 * broke come right after it as DRV_RULE events, as a simulated capture
 * has them.
 *
 * Callers are symbolised with /proc/kallsyms (a sorted table of text
 * symbols with their modules): func "usb_stor_msg_common+0x1c2", driver
 * "usb_storage".  A module loaded during the capture is read by a thread
 * of its own (ksreader_run), never by the capture loop, which goes on
 * reading usbmon meanwhile.  BPF stamps CLOCK_MONOTONIC
 * (bpf_ktime_get_ns); usbmon stamps the real-time clock in microseconds (ktime_get_real_ts64 in
 * drivers/usb/mon/mon_bin.c), so events are moved by the offset between
 * the two clocks measured at open.  A submit's event is stamped at the
 * call's entry but known only at its return, after usbmon's 'S' record:
 * records wait CAP_BPF_HOLD_NS (or until the bus is idle) so the event
 * goes before the 'S' of its URB, which gets the comment a simulated
 * capture gives it (cap_submit_comment).
 *
 * Built without clang, bpftool or libbpf, cap_bpf_open says so and the
 * capture goes on with usbmon alone.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#ifndef HAVE_BPF

int
cap_bpf_open(struct cap_source *live, int bus, struct cap_source **out,
    char *why, size_t len)
{
	(void)live;
	(void)bus;
	*out = NULL;
	snprintf(why, len, "built without eBPF support: install clang, "
	    "bpftool and libbpf-dev and rebuild");
	return -UE_NOTSUP;
}

int
cap_bpf_stats(struct cap_source *src, struct cap_bpf_stats *st)
{
	(void)src;
	memset(st, 0, sizeof *st);
	return -1;
}

#else /* HAVE_BPF */

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "capture/bpf/usbtrace.h"
#include "usbtrace.skel.h"

#define CAP_BPF_HOLD_NS		(100 * 1000000LL)
/* An 'S' this much before or after a submit's entry is its record. */
#define CAP_BPF_MATCH_NS	(1000 * 1000000LL)
#define CAP_BPF_KALLSYMS	"/proc/kallsyms"
#define CAP_BPF_MODULES		"/proc/modules"
/* An address this far into a vmlinux symbol, or outside every module,
 * is in code loaded after the table was read (a module): the table is
 * read again when /proc/modules changed, looked at every
 * CAP_BPF_RELOAD_S at most; an event naming such an address waits for
 * that CAP_BPF_KS_WAIT_S at most. */
#define CAP_BPF_FAR		0x10000
#define CAP_BPF_RELOAD_S	0.1
#define CAP_BPF_KS_WAIT_S	10.0

/* include/linux/usb.h: usb_pipeendpoint, usb_pipein */
#define PIPE_EP(p)	(((p) >> 15) & 0xf)
#define PIPE_IN(p)	((p) & 0x80)

/* One /proc/kallsyms text symbol. */
struct ksym {
	uint64_t	 addr;
	uint32_t	 name;		/* offsets into ksyms.str */
	uint32_t	 mod;		/* 0: vmlinux */
};

/* A module's text and data, from /proc/modules: "name size ... 0xaddr". */
struct kmodr {
	uint64_t	 lo, hi;
	char		 name[64];
};

struct ksyms {
	struct ksym	*sym;
	size_t		 n;
	char		*str;
	size_t		 used, size;
	struct kmodr	*mods;
	size_t		 nmods;
	char		*modtext;	/* /proc/modules as read */
};

/*
 * The thread that reads /proc/kallsyms again: about a second under QEMU's
 * TCG for 6.12's 170,000 symbols, during which usbmon's ring, unread,
 * overflows.  The capture loop asks (want) and goes on; the thread reads
 * /proc/modules and, when a module came or went, /proc/kallsyms, and
 * leaves the new table in fresh, which the loop takes in place of its
 * own.  Reads are numbered: an event waits until a read begun after it
 * asked has ended (done).  The thread reads the loop's table (the
 * modules to compare, those gone to keep) only while no fresh table waits,
 * and the loop replaces its table only when one does.
 */
struct ksreader {
	pthread_t	 thr;
	pthread_mutex_t	 mu;
	pthread_cond_t	 ask;		/* to the thread: want, stop */
	pthread_cond_t	 ended;		/* from it: done */
	uint64_t	 want, cur, done;	/* cur: the read going on, 0 */
	int		 stop;
	int		 has_fresh;
	struct ksyms	 fresh;
};

/* A record or an event waiting for its turn. */
struct pend {
	int64_t		 ts;
	int		 ord;		/* 0: an event put before its 'S' */
	uint64_t	 seq;
	int		 what;		/* CAP_URB, CAP_EVENT */
	int		 claimed;	/* a submit and its 'S' paired */
	uint64_t	 ks_read;	/* the kallsyms read it waits for, 0 */
	double		 ks_since;	/* since when */
	struct urb_rec	 r;
	uint8_t		*copy;		/* r's iso, data and comments */
	char		 cmt[CAP_SUBMIT_COMMENT_MAX];
	struct ut_record u;
};

struct tr_priv {
	struct cap_source *live;
	int		 bus;		/* 0: all */
	struct usbtrace	*skel;
	struct ring_buffer *rb;
	struct ksyms	 ks;
	struct ksreader	 rd;
	int		 rd_started;
	const char	*no_fentry;	/* why the giveback's fentry is off */
	int64_t		 mono_to_real;
	struct pend	**q;		/* sorted by (ts, ord, seq) */
	size_t		 nq, qsize;
	uint64_t	 seq;
	int64_t		 newest;	/* the latest usbmon record's time */
	int		 flush, ended;
	uint64_t	 events;
	int		 err;		/* UE_NOMEM from the callback */
	struct pend	*out;		/* handed out, freed at the next */
	struct dec_rules *rules;	/* the driver rules on the events */
	struct drv_event rule_ev[4];	/* what the last event broke */
	size_t		 nrule, rule_at;
	char		 func[160], driver[64], text[320];
	struct cap_gfp	 gfp;		/* the kernel's gfp_t bits */
};

/* ------------------------------------------------------------------------
 * /proc/kallsyms.
 */
static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint32_t
ksyms_str(struct ksyms *ks, const char *s, size_t n)
{
	char	*p;
	size_t	 at;

	if (ks->used + n + 1 > ks->size) {
		if ((p = realloc(ks->str, ks->size * 2 + n + 4096)) == NULL)
			return UINT32_MAX;
		ks->str = p;
		ks->size = ks->size * 2 + n + 4096;
	}
	at = ks->used;
	memcpy(ks->str + at, s, n);
	ks->str[at + n] = '\0';
	ks->used += n + 1;
	return (uint32_t)at;
}

/* A whole file of /proc (whose size says 0), NUL-terminated; NULL. */
static char *
read_proc(const char *path)
{
	FILE	*f;
	char	*b = NULL, *nb;
	size_t	 n = 0, size = 0, got;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	do {
		if (n + 4096 + 1 > size) {
			if ((nb = realloc(b, size * 2 + 8192)) == NULL) {
				free(b);
				fclose(f);
				return NULL;
			}
			b = nb;
			size = size * 2 + 8192;
		}
		got = fread(b + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	b[n] = '\0';
	return b;
}

/* The modules' address ranges: "name size refs deps state 0xaddr". */
static void
modules_load(struct ksyms *ks)
{
	char		*line, *next, name[64];
	unsigned long	 size;
	uint64_t	 addr;
	struct kmodr	*m;
	size_t		 cap = 0;

	if ((ks->modtext = read_proc(CAP_BPF_MODULES)) == NULL)
		return;
	for (line = ks->modtext; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			next++;
		if (sscanf(line, "%63s %lu %*s %*s %*s %" SCNx64, name, &size,
		    &addr) != 3 || addr == 0)
			continue;
		if (ks->nmods == cap) {
			cap = cap ? cap * 2 : 64;
			if ((m = realloc(ks->mods, cap * sizeof *m)) == NULL)
				return;
			ks->mods = m;
		}
		m = &ks->mods[ks->nmods++];
		m->lo = addr;
		m->hi = addr + size;
		snprintf(m->name, sizeof m->name, "%s", name);
	}
}

/* Text symbols with their modules, sorted; 0, or -1 (nothing usable). */
static int
ksyms_load(struct ksyms *ks)
{
	FILE		*f;
	char		 line[512], *name, *mod, *e;
	uint64_t	 addr;
	size_t		 cap = 0;
	struct ksym	*s;
	char		 type;
	uint32_t	 lastmod = 0;

	memset(ks, 0, sizeof *ks);
	if ((f = fopen(CAP_BPF_KALLSYMS, "r")) == NULL)
		return -1;
	(void)ksyms_str(ks, "", 0);
	while (fgets(line, sizeof line, f) != NULL) {
		addr = strtoull(line, &e, 16);
		if (addr == 0 || e[0] != ' ' || e[1] == '\0' || e[2] != ' ')
			continue;
		type = e[1];
		if (type != 't' && type != 'T')
			continue;
		name = e + 3;
		name[strcspn(name, " \t\n")] = '\0';
		mod = name + strlen(name) + 1;
		if (mod >= line + sizeof line || *mod != '[')
			mod = NULL;
		if (ks->n == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((s = realloc(ks->sym, cap * sizeof *s)) == NULL)
				break;
			ks->sym = s;
		}
		s = &ks->sym[ks->n];
		s->addr = addr;
		s->name = ksyms_str(ks, name, strlen(name));
		s->mod = 0;
		if (mod != NULL) {
			mod++;
			mod[strcspn(mod, "]")] = '\0';
			/* a module's symbols come together: share its name */
			if (lastmod != 0 && strcmp(ks->str + lastmod, mod) == 0)
				s->mod = lastmod;
			else
				s->mod = lastmod = ksyms_str(ks, mod,
				    strlen(mod));
		}
		if (s->name != UINT32_MAX && s->mod != UINT32_MAX)
			ks->n++;
	}
	fclose(f);
	if (ks->n == 0)
		return -1;
	qsort(ks->sym, ks->n, sizeof *ks->sym, ksym_cmp);
	modules_load(ks);
	return 0;
}

static void
ksyms_free(struct ksyms *ks)
{
	free(ks->sym);
	free(ks->str);
	free(ks->mods);
	free(ks->modtext);
	memset(ks, 0, sizeof *ks);
}

/* A module's address range, by name; NULL. */
static const struct kmodr *
ksyms_module(const struct ksyms *ks, const char *name)
{
	size_t	 i;

	for (i = 0; i < ks->nmods; i++) {
		if (strcmp(ks->mods[i].name, name) == 0)
			return &ks->mods[i];
	}
	return NULL;
}

/* The symbol holding addr, or NULL. */
static const struct ksym *
ksyms_find(const struct ksyms *ks, uint64_t addr)
{
	const struct kmodr *m;
	size_t	 lo = 0, hi = ks->n, mid;

	if (ks->n == 0 || addr < ks->sym[0].addr)
		return NULL;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ks->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* further than any function is long: not a symbol of ours */
	if (addr - ks->sym[lo].addr > (1 << 20))
		return NULL;
	/* past the end of its module: a module loaded since */
	if (ks->sym[lo].mod != 0 && (m = ksyms_module(ks, ks->str +
	    ks->sym[lo].mod)) != NULL && addr >= m->hi)
		return NULL;
	return &ks->sym[lo];
}

/* 1 when the table names addr as it is (0: nothing to name), 0 when addr
 * is in code loaded after the table was read. */
static int
ksyms_knows(const struct ksyms *ks, uint64_t addr)
{
	const struct ksym *s;

	return addr == 0 || ((s = ksyms_find(ks, addr)) != NULL &&
	    (s->mod != 0 || addr - s->addr < CAP_BPF_FAR));
}

/*
 * The caller of the traced function: the return address at entry, or when
 * a kretprobe put its trampoline there, the first frame of the stack
 * outside the traced function (whose name is fn).  *unknown is set when
 * an address looked at is in code loaded after the table was read.
 */
static uint64_t
ksyms_caller(const struct ksyms *ks, const struct ut_record *u,
    const char *fn, int *unknown)
{
	const struct ksym *s;
	const char	*name;
	size_t		 i;

	*unknown = !ksyms_knows(ks, u->caller);
	s = ksyms_find(ks, u->caller);
	if (s == NULL || strstr(ks->str + s->name, "trampoline") == NULL)
		return u->caller;
	for (i = 0; i < UT_STACK && u->stack[i] != 0; i++) {
		if (!ksyms_knows(ks, u->stack[i]))
			*unknown = 1;
		/* not in kallsyms: no trampoline, the caller unnamed */
		if ((s = ksyms_find(ks, u->stack[i])) == NULL)
			return u->stack[i];
		name = ks->str + s->name;
		if (strcmp(name, fn) != 0 && strstr(name, "trampoline") ==
		    NULL)
			return u->stack[i];
	}
	return u->caller;
}

/*
 * A PREEMPT_RT kernel: its version string says so (init/Makefile puts
 * "PREEMPT_RT" into UTS_VERSION), as does /sys/kernel/realtime where the
 * kernel has it.  The tracer keeps the giveback depth per thread there and
 * judges atomic context by more than the interrupt flag (usbtrace.bpf.c).
 */
static int
kernel_is_rt(void)
{
	struct utsname	 u;
	FILE		*f;
	int		 c = 0;

	if (uname(&u) == 0 && strstr(u.version, "PREEMPT_RT") != NULL)
		return 1;
	if ((f = fopen("/sys/kernel/realtime", "r")) != NULL) {
		c = fgetc(f);
		fclose(f);
	}
	return c == '1';
}

/* The text of usbcore's usb_unbind_interface (static: found by name),
 * from its address to the next symbol's; 0, 0 if not listed. */
static void
unbind_text(const struct ksyms *ks, uint64_t *lo, uint64_t *hi)
{
	size_t	 i;

	*lo = *hi = 0;
	for (i = 0; i + 1 < ks->n; i++) {
		if (strcmp(ks->str + ks->sym[i].name,
		    "usb_unbind_interface") == 0) {
			*lo = ks->sym[i].addr;
			*hi = ks->sym[i + 1].addr;
			return;
		}
	}
}

/* The address of text symbol name, or 0. */
static uint64_t
ksyms_addr(const struct ksyms *ks, const char *name)
{
	size_t	 i;

	for (i = 0; i < ks->n; i++)
		if (strcmp(ks->str + ks->sym[i].name, name) == 0)
			return ks->sym[i].addr;
	return 0;
}

/* "name+0xoff" (offset 0: "name") into func, the module into driver. */
static void
ksyms_name(const struct ksyms *ks, uint64_t addr, char *func, size_t flen,
    char *driver, size_t dlen)
{
	const struct ksym *s = ksyms_find(ks, addr);

	driver[0] = '\0';
	if (addr == 0)
		func[0] = '\0';
	else if (s == NULL)
		snprintf(func, flen, "0x%" PRIx64, addr);
	else {
		if (addr == s->addr)
			snprintf(func, flen, "%s", ks->str + s->name);
		else
			snprintf(func, flen, "%s+0x%" PRIx64,
			    ks->str + s->name, addr - s->addr);
		if (s->mod != 0)
			snprintf(driver, dlen, "%s", ks->str + s->mod);
	}
}

/* ------------------------------------------------------------------------
 * Why BPF cannot be used, before libbpf says it less clearly.
 */
static char cap_bpf_log[256];	/* libbpf's last warning: the log sink */

static int	cap_bpf_print(enum libbpf_print_level, const char *, va_list)
		    __attribute__((format(printf, 2, 0)));

static int
cap_bpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char	 line[256];
	size_t	 n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof line, fmt, ap);
	n = strcspn(line, "\n");
	line[n] = '\0';
	if (n > 0)
		snprintf(cap_bpf_log, sizeof cap_bpf_log, "%s", line);
	return 0;
}

/* A file of /sys, under URBSCOPE_SYSROOT's tree where tests put one. */
static int
path_exists(const char *path)
{
	char		 p[512];
	struct stat	 sb;

	snprintf(p, sizeof p, "%s%s", cap_live_root(), path);
	return stat(p, &sb) == 0;
}

static int
cap_bpf_preflight(char *why, size_t len)
{
	char	 buf[128];
	FILE	*f;

	if (geteuid() != 0) {
		snprintf(why, len, "not root: tracing the USB core with eBPF "
		    "needs root (CAP_BPF and CAP_PERFMON)");
		return -1;
	}
	if (!path_exists("/sys/kernel/btf/vmlinux")) {
		snprintf(why, len, "this kernel has no BTF "
		    "(/sys/kernel/btf/vmlinux is missing): tracing the USB "
		    "core needs a kernel built with CONFIG_DEBUG_INFO_BTF=y, "
		    "as Debian's, Ubuntu's and Fedora's are");
		return -1;
	}
	if ((f = fopen("/sys/kernel/security/lockdown", "r")) != NULL) {
		if (fgets(buf, sizeof buf, f) != NULL &&
		    strstr(buf, "[confidentiality]") != NULL) {
			fclose(f);
			snprintf(why, len, "the kernel is locked down "
			    "(/sys/kernel/security/lockdown: "
			    "confidentiality forbids kprobes and reading "
			    "kernel memory from BPF)");
			return -1;
		}
		fclose(f);
	}
	if (!path_exists("/sys/module/usbcore")) {
		snprintf(why, len, "usbcore is not loaded");
		return -1;
	}
	/* a module (it has an initstate) without BTF of its own */
	if (path_exists("/sys/module/usbcore/initstate") &&
	    !path_exists("/sys/kernel/btf/usbcore")) {
		snprintf(why, len, "usbcore has no BTF (/sys/kernel/btf/"
		    "usbcore: CONFIG_DEBUG_INFO_BTF_MODULES)");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * The merge queue.
 */
static int
pend_before(const struct pend *a, const struct pend *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->ord != b->ord)
		return a->ord < b->ord;
	return a->seq < b->seq;
}

static void
q_remove(struct tr_priv *tp, size_t i)
{
	memmove(&tp->q[i], &tp->q[i + 1], (tp->nq - i - 1) * sizeof *tp->q);
	tp->nq--;
}

static int
q_insert(struct tr_priv *tp, struct pend *p)
{
	struct pend	**nq;
	size_t		 i;

	if (tp->nq == tp->qsize) {
		if ((nq = realloc(tp->q, (tp->qsize * 2 + 256) *
		    sizeof *nq)) == NULL)
			return -UE_NOMEM;
		tp->q = nq;
		tp->qsize = tp->qsize * 2 + 256;
	}
	/* records come nearly in order: search from the end */
	for (i = tp->nq; i > 0 && pend_before(p, tp->q[i - 1]); i--)
		;
	memmove(&tp->q[i + 1], &tp->q[i], (tp->nq - i) * sizeof *tp->q);
	tp->q[i] = p;
	tp->nq++;
	/* usbmon is read a record at a time, the tracer drained whole:
	 * only usbmon's time says what can no longer come before */
	if (p->what == CAP_URB && p->ts > tp->newest)
		tp->newest = p->ts;
	return 0;
}

static void
pend_free(struct pend *p)
{
	if (p != NULL) {
		free(p->copy);
		free(p);
	}
}

static int
is_submit(const struct pend *p)
{
	return p->what == CAP_EVENT && p->u.kind == UT_SUBMIT;
}

static int
is_s(const struct pend *p)
{
	return p->what == CAP_URB && p->r.type == 'S';
}

/*
 * Put a submit's event just before the 'S' of its URB: the 'S' comes from
 * inside the call (usb_hcd_submit_urb calls usbmon_urb_submit), but the
 * clocks differ by rounding and the event arrives after the record.
 */
static struct pend *
pair(struct tr_priv *tp, struct pend *p)
{
	struct pend	*o, *ev, *s;
	size_t		 i;

	for (i = 0; i < tp->nq; i++) {
		o = tp->q[i];
		if (o->claimed)
			continue;
		if (!(is_submit(p) && is_s(o) && o->r.id == p->u.urb) &&
		    !(is_s(p) && is_submit(o) && o->u.urb == p->r.id))
			continue;
		ev = is_submit(p) ? p : o;
		s = is_submit(p) ? o : p;
		if (s->ts < ev->ts - CAP_BPF_MATCH_NS ||
		    s->ts > ev->ts + CAP_BPF_MATCH_NS)
			continue;
		/* the first found is the earliest (the queue is sorted) */
		ev->claimed = s->claimed = 1;
		return o;
	}
	return NULL;
}

/* Add p to the queue, a submit's event before its 'S'; p is freed on
 * failure. */
static int
q_add(struct tr_priv *tp, struct pend *p)
{
	struct pend	*o = NULL, *ev, *s;
	size_t		 i;
	int		 rc;

	p->seq = tp->seq++;
	if (is_submit(p) || is_s(p))
		o = pair(tp, p);
	if (o != NULL) {
		ev = is_submit(p) ? p : o;
		s = is_submit(p) ? o : p;
		if (ev->ts >= s->ts && ev == o) {
			/* take the event out, sort it in again */
			for (i = 0; i < tp->nq && tp->q[i] != o; i++)
				;
			q_remove(tp, i);
			o->ts = s->ts;
			o->ord = 0;
			if ((rc = q_insert(tp, o)) < 0) {
				pend_free(o);
				free(p);
				return rc;
			}
		} else if (ev->ts >= s->ts) {
			ev->ts = s->ts;
			ev->ord = 0;
		}
	}
	if ((rc = q_insert(tp, p)) < 0)
		pend_free(p);
	return rc;
}

/* A copy of r that outlives the live source's next record. */
static struct pend *
pend_urb(const struct urb_rec *r)
{
	struct pend	*p;
	size_t		 niso, ncmt = 0, i;
	const char	*c;
	uint8_t		*b;

	if ((p = calloc(1, sizeof *p)) == NULL)
		return NULL;
	p->what = CAP_URB;
	p->ord = 1;
	p->r = *r;
	p->ts = r->ts_ns;
	niso = r->iso != NULL ? r->niso * sizeof *r->iso : 0;
	for (i = 0, c = r->comments; c != NULL && i < r->ncomments; i++) {
		ncmt += strlen(c) + 1;
		c += strlen(c) + 1;
	}
	if (niso + r->data_len + ncmt > 0) {
		if ((p->copy = malloc(niso + r->data_len + ncmt)) == NULL) {
			free(p);
			return NULL;
		}
		b = p->copy;
		if (niso > 0) {
			memcpy(b, r->iso, niso);
			p->r.iso = (const struct urb_iso *)(void *)b;
			b += niso;
		}
		if (r->data_len > 0) {
			memcpy(b, r->data, r->data_len);
			p->r.data = b;
			b += r->data_len;
		}
		if (ncmt > 0) {
			memcpy(b, r->comments, ncmt);
			p->r.comments = (const char *)b;
		}
		/* ring_keep_synth keeps the pointer: a constant's */
		if (r->ncomments == 1 && strcmp(r->comments,
		    CAP_SYNTH_COMMENT) == 0)
			p->r.comments = CAP_SYNTH_COMMENT;
	}
	p->r.ifname = NULL;
	return p;
}

static int	tr_ready(struct tr_priv *, struct pend *, int);

/* ring_buffer__poll's callback: one ut_record. */
static int
tr_record(void *ctx, void *data, size_t size)
{
	struct tr_priv	*tp = ctx;
	struct pend	*p;
	int		 rc;

	if (size < sizeof p->u)
		return 0;
	if ((p = calloc(1, sizeof *p)) == NULL) {
		tp->err = UE_NOMEM;
		return -1;
	}
	memcpy(&p->u, data, sizeof p->u);
	/* usbmonN shows bus N; probes on another bus too are not ours */
	if (tp->bus != 0 && p->u.busnum != 0 && p->u.busnum != tp->bus) {
		free(p);
		return 0;
	}
	/* usb_device_match on a device, not an interface ("1-1:1.0") */
	if (p->u.kind == UT_MATCH && memchr(p->u.devname, ':',
	    sizeof p->u.devname) == NULL) {
		free(p);
		return 0;
	}
	p->what = CAP_EVENT;
	p->ord = 1;
	p->ts = (int64_t)p->u.ts_ns + tp->mono_to_real;
	tp->events++;
	/* a module new to the table: its read begins now, not when the
	 * event's turn comes */
	(void)tr_ready(tp, p, 0);
	if ((rc = q_add(tp, p)) < 0) {
		tp->err = -rc;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Events.
 */

/*
 * The running kernel's gfp_t bits: its BTF's ___GFP_*_BIT enum (6.10 and
 * after), else 6.1's layout (cap-gfp.c).
 */
static void
gfp_from_btf(struct cap_gfp *g, const struct btf *btf)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	uint32_t	 id, n;
	int		 j;

	cap_gfp_init(g);
	if (btf == NULL)
		return;
	n = btf__type_cnt(btf);
	for (id = 1; id < n && !g->learnt; id++) {
		t = btf__type_by_id(btf, id);
		if (t == NULL || !btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (j = 0; j < btf_vlen(t); j++)
			(void)cap_gfp_learn(g, btf__name_by_offset(btf,
			    e[j].name_off), e[j].val);
	}
}

/*
 * The symbols of the modules old had and nks has not, into nks: events
 * are named after they happened, and a module's exit and what it did
 * last (rmmod) are named once it is gone.  Not where a module loaded
 * since took its addresses.
 */
static void
ksyms_keep_gone(struct ksyms *nks, const struct ksyms *old)
{
	const struct kmodr *m;
	struct kmodr	*nm;
	struct ksym	*ns;
	const char	*name;
	size_t		 i, j, add, n0 = nks->n;
	uint32_t	 mo;
	int		 clash;

	for (i = 0; i < old->nmods; i++) {
		m = &old->mods[i];
		if (ksyms_module(nks, m->name) != NULL)
			continue;
		for (clash = 0, j = 0; j < nks->nmods && !clash; j++)
			clash = m->lo < nks->mods[j].hi && nks->mods[j].lo < m->hi;
		if (clash)
			continue;
		/* its symbols, in room made once */
		for (add = 0, j = 0; j < old->n; j++)
			add += old->sym[j].mod != 0 && strcmp(old->str +
			    old->sym[j].mod, m->name) == 0;
		if ((nm = reallocarray(nks->mods, nks->nmods + 1,
		    sizeof *nm)) == NULL)
			continue;
		nks->mods = nm;
		if ((ns = reallocarray(nks->sym, nks->n + add,
		    sizeof *ns)) == NULL)
			continue;
		nks->sym = ns;
		if ((mo = ksyms_str(nks, m->name, strlen(m->name))) ==
		    UINT32_MAX)
			continue;
		nks->mods[nks->nmods++] = *m;
		for (j = 0; j < old->n; j++) {
			if (old->sym[j].mod == 0 || strcmp(old->str +
			    old->sym[j].mod, m->name) != 0)
				continue;
			name = old->str + old->sym[j].name;
			ns = &nks->sym[nks->n];
			ns->addr = old->sym[j].addr;
			ns->mod = mo;
			if ((ns->name = ksyms_str(nks, name, strlen(name))) !=
			    UINT32_MAX)
				nks->n++;
		}
	}
	if (nks->n != n0)
		qsort(nks->sym, nks->n, sizeof *nks->sym, ksym_cmp);
}

/* The traced function whose caller an event names; NULL: none. */
static const char *
tr_traced(uint32_t kind)
{
	switch (kind) {
	case UT_SUBMIT:
		return "usb_submit_urb";
	case UT_UNLINK:
		return "usb_unlink_urb";
	case UT_POISON:
		return "usb_poison_urb";
	case UT_KILL:
		return "usb_kill_urb";
	case UT_REGISTER_DEV:
		return "usb_register_dev";
	case UT_DEREGISTER_DEV:
		return "usb_deregister_dev";
	}
	return NULL;
}

/* 1 when the table names every address event u shows: its caller, and a
 * giveback's completion handler. */
static int
ksyms_names(const struct ksyms *ks, const struct ut_record *u)
{
	const char	*fn;
	int		 unknown = 0;

	if (u->kind == UT_GIVEBACK)
		return ksyms_knows(ks, u->complete);
	if ((fn = tr_traced(u->kind)) != NULL)
		(void)ksyms_caller(ks, u, fn, &unknown);
	return !unknown;
}

/* The function that called the traced one into tp->func, its module
 * into mod. */
static void
tr_caller(struct tr_priv *tp, const struct ut_record *u, char *mod,
    size_t modlen)
{
	const char	*fn = tr_traced(u->kind);
	int		 unknown;

	ksyms_name(&tp->ks, fn != NULL ? ksyms_caller(&tp->ks, u, fn,
	    &unknown) : 0, tp->func, sizeof tp->func, mod, modlen);
}

/* ------------------------------------------------------------------------
 * The kallsyms reader (struct ksreader).
 */
static void *
ksreader_run(void *arg)
{
	struct tr_priv	*tp = arg;
	struct ksreader	*rd = &tp->rd;
	struct ksyms	 ks;
	double		 last = 0, now;
	uint64_t	 n;
	char		*mods;
	int		 fresh, nice;

	/* the capture loop first, when both want the CPU */
	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
	if (errno == 0)
		(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid),
		    nice + 5);
	pthread_mutex_lock(&rd->mu);
	for (;;) {
		while (!rd->stop && (rd->want <= rd->done || rd->has_fresh))
			pthread_cond_wait(&rd->ask, &rd->mu);
		if (rd->stop)
			break;
		n = rd->cur = rd->want;
		pthread_mutex_unlock(&rd->mu);
		if ((now = cap_clock_s()) - last < CAP_BPF_RELOAD_S)
			usleep((useconds_t)((CAP_BPF_RELOAD_S - (now - last)) *
			    1e6));
		last = cap_clock_s();
		/* no module came or went: the table has what there is */
		mods = read_proc(CAP_BPF_MODULES);
		fresh = !(mods != NULL && tp->ks.modtext != NULL &&
		    strcmp(mods, tp->ks.modtext) == 0) && ksyms_load(&ks) == 0;
		free(mods);
		if (fresh)
			ksyms_keep_gone(&ks, &tp->ks);
		pthread_mutex_lock(&rd->mu);
		if (fresh) {
			rd->fresh = ks;
			rd->has_fresh = 1;
		}
		rd->done = n;
		rd->cur = 0;
		pthread_cond_broadcast(&rd->ended);
	}
	pthread_mutex_unlock(&rd->mu);
	return NULL;
}

static int
ksreader_start(struct tr_priv *tp)
{
	struct ksreader	*rd = &tp->rd;
	int		 rc;

	pthread_mutex_init(&rd->mu, NULL);
	pthread_cond_init(&rd->ask, NULL);
	pthread_cond_init(&rd->ended, NULL);
	if ((rc = pthread_create(&rd->thr, NULL, ksreader_run, tp)) != 0) {
		pthread_cond_destroy(&rd->ended);
		pthread_cond_destroy(&rd->ask);
		pthread_mutex_destroy(&rd->mu);
		return rc;
	}
	tp->rd_started = 1;
	return 0;
}

static void
ksreader_stop(struct tr_priv *tp)
{
	struct ksreader	*rd = &tp->rd;

	if (!tp->rd_started)
		return;
	pthread_mutex_lock(&rd->mu);
	rd->stop = 1;
	pthread_cond_signal(&rd->ask);
	pthread_mutex_unlock(&rd->mu);
	pthread_join(rd->thr, NULL);
	if (rd->has_fresh)
		ksyms_free(&rd->fresh);
	pthread_cond_destroy(&rd->ended);
	pthread_cond_destroy(&rd->ask);
	pthread_mutex_destroy(&rd->mu);
	tp->rd_started = 0;
}

/* The reader's new table in place of the loop's (rd->mu held). */
static void
ksreader_take(struct tr_priv *tp, struct ksyms *old)
{
	struct ksreader	*rd = &tp->rd;

	memset(old, 0, sizeof *old);
	if (!rd->has_fresh)
		return;
	*old = tp->ks;
	tp->ks = rd->fresh;
	rd->has_fresh = 0;
	pthread_cond_signal(&rd->ask);
}

/*
 * 1 when p may be handed out: a record, an event whose addresses the
 * table names, or one that has waited for a read of kallsyms begun after
 * it asked (or CAP_BPF_KS_WAIT_S).  0: it waits, and what comes after it
 * with it, while the capture loop reads usbmon on.  With block, wait for
 * the read here (nothing more comes from usbmon).
 */
static int
tr_ready(struct tr_priv *tp, struct pend *p, int block)
{
	struct ksreader	*rd = &tp->rd;
	struct ksyms	 old;
	struct timespec	 until;
	double		 now;
	int		 ready;

	if (p->what != CAP_EVENT || (p->ks_read == 0 &&
	    ksyms_names(&tp->ks, &p->u)))
		return 1;
	now = cap_clock_s();
	pthread_mutex_lock(&rd->mu);
	ksreader_take(tp, &old);
	if (p->ks_read == 0) {
		if (ksyms_names(&tp->ks, &p->u)) {
			pthread_mutex_unlock(&rd->mu);
			ksyms_free(&old);
			return 1;
		}
		/* a read that begins from now on */
		p->ks_read = (rd->cur != 0 ? rd->cur : rd->done) + 1;
		p->ks_since = now;
		if (rd->want < p->ks_read) {
			rd->want = p->ks_read;
			pthread_cond_signal(&rd->ask);
		}
	}
	while (block && rd->done < p->ks_read && (now = cap_clock_s()) -
	    p->ks_since < CAP_BPF_KS_WAIT_S) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&rd->ended, &rd->mu, &until);
	}
	ready = rd->done >= p->ks_read ||
	    now - p->ks_since >= CAP_BPF_KS_WAIT_S;
	if (ready && old.n == 0)
		ksreader_take(tp, &old);
	pthread_mutex_unlock(&rd->mu);
	ksyms_free(&old);
	return ready;
}

/*
 * An interface's event: probe (at its return), disconnect (when the
 * driver's disconnect returned), usb_register_dev (at its return),
 * usb_deregister_dev.  The driver is the interface's (dev->driver), ptr
 * the interface's driver_data then (usb_get_intfdata: what the driver
 * left, which dec_rules checks at disconnect), minor intf->minor.
 */
static void
tr_intf_event(struct tr_priv *tp, const struct pend *p, struct drv_event *ev,
    const char *who)
{
	const struct ut_record *u = &p->u;
	char		 mod[64];
	int		 n;

	ev->intf = u->intf;
	ev->minor = u->minor;
	snprintf(tp->driver, sizeof tp->driver, "%.*s",
	    (int)sizeof u->driver, u->driver);
	ev->driver = tp->driver[0] != '\0' ? tp->driver : NULL;
	n = (int)strnlen(u->devname, sizeof u->devname);
	switch (u->kind) {
	case UT_PROBE:
	case UT_DISCONNECT:
		ev->kind = u->kind == UT_PROBE ? DRV_PROBE : DRV_DISCONNECT;
		ev->func = u->kind == UT_PROBE ? "probe" : "disconnect";
		ev->ptr = u->ptr;
		/* driver/core.c's words, as the simulator's
		 * (core/driver.c) */
		if (u->kind == UT_PROBE)
			snprintf(tp->text, sizeof tp->text, "%s %.*s: probe "
			    "returned %d, intfdata 0x%" PRIx64 " (%s)",
			    tp->driver, n, u->devname, u->result, ev->ptr, who);
		else
			snprintf(tp->text, sizeof tp->text, "%s %.*s: "
			    "disconnect returned, intfdata 0x%" PRIx64
			    " (0x%" PRIx64 " before it) minor %d (%s)",
			    tp->driver, n, u->devname, ev->ptr,
			    (uint64_t)u->ptr_entry,
			    u->minor, who);
		break;
	default:
		ev->kind = u->kind == UT_REGISTER_DEV ? DRV_REGISTER_DEV :
		    DRV_DEREGISTER_DEV;
		/* the caller: the driver's probe or disconnect */
		tr_caller(tp, u, mod, sizeof mod);
		ev->func = tp->func[0] != '\0' ? tp->func : NULL;
		/* core/file.c's words */
		if (u->kind == UT_REGISTER_DEV)
			snprintf(tp->text, sizeof tp->text, "register_dev "
			    "intf=%.*s base=%u -> minor=%d node=%s%.*s ret=%d "
			    "(%s)", n, u->devname, u->length, u->minor,
			    u->node[0] != '\0' ? "/dev/" : "-",
			    (int)strnlen(u->node, sizeof u->node), u->node,
			    u->result, who);
		else
			snprintf(tp->text, sizeof tp->text, "deregister_dev "
			    "intf=%.*s minor=%d (%s)", n, u->devname, u->minor,
			    who);
		break;
	}
	ev->text = tp->text;
}

/*
 * A driver's event: usb_register_driver and usb_deregister (the
 * simulator's words, core/driver.c, which are Linux's log lines), a
 * match tried on an interface (usb_device_match: the id table entry that
 * matched with its flags and driver_info, as the simulator's DRV_MATCH,
 * or a dynamic id, or none: result -ENODEV), usb_open (the minor, the
 * driver the module of its file operations, open's result).
 */
static void
tr_driver_event(struct tr_priv *tp, const struct pend *p,
    struct drv_event *ev, const char *who)
{
	const struct ut_record *u = &p->u;
	int	 n;

	snprintf(tp->driver, sizeof tp->driver, "%.*s",
	    (int)sizeof u->driver, u->driver);
	ev->driver = tp->driver[0] != '\0' ? tp->driver : NULL;
	n = (int)strnlen(u->devname, sizeof u->devname);
	switch (u->kind) {
	case UT_REGISTER:
		ev->kind = DRV_REGISTER;
		ev->func = "usb_register";
		snprintf(tp->text, sizeof tp->text, "usbcore: registered new "
		    "interface driver %s (%s)", tp->driver, who);
		break;
	case UT_DEREGISTER:
		ev->kind = DRV_DEREGISTER;
		ev->func = "usb_deregister";
		snprintf(tp->text, sizeof tp->text, "usbcore: deregistering "
		    "interface driver %s (%s)", tp->driver, who);
		break;
	case UT_OPEN:
		ev->kind = DRV_OPEN;
		ev->func = "open";
		ev->minor = u->minor;
		snprintf(tp->text, sizeof tp->text, "usb_open minor=%d fops=%s "
		    "ret=%d (%s)", u->minor, tp->driver[0] != '\0' ?
		    tp->driver : "-", u->result, who);
		break;
	default:
		ev->kind = DRV_MATCH;
		ev->func = "match";
		ev->intf = u->intf;
		ev->result = u->result != 0 ? 0 : -19;	/* -ENODEV */
		ev->entry = u->length > 0 ? u->length - 1 : 0;
		ev->ptr = u->length > 0 ? u->ptr : 0;
		if (u->result == 0)
			snprintf(tp->text, sizeof tp->text, "%s %.*s: no id "
			    "table entry or dynamic id matched (%s)",
			    tp->driver, n, u->devname, who);
		else if (u->length > 0)
			snprintf(tp->text, sizeof tp->text, "%s %.*s: entry %u "
			    "flags 0x%04x: matched (%s)", tp->driver, n,
			    u->devname, ev->entry, u->mem_flags, who);
		else
			snprintf(tp->text, sizeof tp->text, "%s %.*s: a "
			    "dynamic id (new_id) matched (%s)", tp->driver, n,
			    u->devname, who);
		break;
	}
	ev->text = tp->text;
}

static void
tr_event(struct tr_priv *tp, const struct pend *p, struct drv_event *ev)
{
	const struct ut_record *u = &p->u;
	const char	*gfp, *what;
	char		 who[64], handler[160], hmod[64], gfpname[128];

	memset(ev, 0, sizeof *ev);
	ev->ts_ns = p->ts;
	ev->intf = -1;
	ev->minor = -1;
	ev->busnum = u->busnum;
	ev->devnum = u->devnum;
	ev->context = u->context;
	ev->result = u->result;
	if (u->context == UT_CTX_TASK)
		snprintf(who, sizeof who, "pid %u %.16s", u->pid, u->comm);
	else if (u->context == UT_CTX_ATOMIC)
		snprintf(who, sizeof who, "pid %u %.16s, irqs off", u->pid,
		    u->comm);
	else
		snprintf(who, sizeof who, "irq on cpu %u", u->cpu);
	switch (u->kind) {
	case UT_PROBE:
	case UT_DISCONNECT:
	case UT_REGISTER_DEV:
	case UT_DEREGISTER_DEV:
		tr_intf_event(tp, p, ev, who);
		return;
	case UT_REGISTER:
	case UT_DEREGISTER:
	case UT_OPEN:
	case UT_MATCH:
		tr_driver_event(tp, p, ev, who);
		return;
	}

	ev->urb_id = u->urb;
	ev->ep = (uint8_t)(PIPE_EP(u->pipe) | PIPE_IN(u->pipe));
	tr_caller(tp, u, tp->driver, sizeof tp->driver);
	switch (u->kind) {
	case UT_SUBMIT:
		ev->kind = DRV_SUBMIT;
		ev->length = u->length;
		ev->mem_flags = cap_gfp_to_sim(&tp->gfp, u->mem_flags);
		cap_gfp_name(&tp->gfp, u->mem_flags, gfpname, sizeof gfpname);
		gfp = gfpname;
		snprintf(tp->text, sizeof tp->text, "usb_submit_urb "
		    "urb=%016" PRIx64 " ep=%02x len=%u flags=%#x %s -> %d "
		    "(%s)", ev->urb_id, ev->ep, ev->length, u->xfer_flags,
		    gfp, u->result, who);
		break;
	case UT_GIVEBACK:
		ev->kind = DRV_GIVEBACK;
		ev->length = u->length;
		/* the completion handler is the function it runs in */
		ksyms_name(&tp->ks, u->complete, handler, sizeof handler,
		    hmod, sizeof hmod);
		snprintf(tp->func, sizeof tp->func, "%s", handler);
		snprintf(tp->driver, sizeof tp->driver, "%s", hmod);
		snprintf(tp->text, sizeof tp->text, "giveback urb=%016" PRIx64
		    " ep=%02x status=%d actual=%u complete=%s (%s)",
		    ev->urb_id, ev->ep, u->result, ev->length,
		    handler[0] != '\0' ? handler : "-", who);
		break;
	default:
		/* a poison is a kill that also refuses later submits */
		ev->kind = u->kind == UT_UNLINK ? DRV_UNLINK : DRV_KILL;
		what = u->kind == UT_KILL ? "usb_kill_urb" : u->kind ==
		    UT_POISON ? "usb_poison_urb" : "usb_unlink_urb";
		snprintf(tp->text, sizeof tp->text, "%s urb=%016" PRIx64
		    " ep=%02x -> %d (%s)", what, ev->urb_id, ev->ep,
		    u->result, who);
		break;
	}
	ev->func = tp->func[0] != '\0' ? tp->func : NULL;
	ev->driver = tp->driver[0] != '\0' ? tp->driver : NULL;
	ev->text = tp->text;
}

/* ------------------------------------------------------------------------
 * The merged source.
 */
static int
tr_probe(const char *name, const uint8_t *head, size_t n)
{
	(void)name;
	(void)head;
	(void)n;
	return 0;	/* opened by cap_bpf_open only */
}

static int
tr_open(struct cap_source *src)
{
	(void)src;
	return 0;
}

static int
tr_next(struct cap_source *src, struct urb_rec *r, struct drv_event *ev)
{
	struct tr_priv	*tp = src->priv;
	struct pend	*p;
	int		 rc;

	pend_free(tp->out);
	tp->out = NULL;
	/* the rules an event broke come right after it, as the
	 * simulator's do */
	if (tp->rule_at < tp->nrule) {
		*ev = tp->rule_ev[tp->rule_at++];
		return CAP_EVENT;
	}
	for (;;) {
		if (tp->err != 0)
			return cap_error(src, tp->err, src->recno + 1, 0,
			    "tracing the USB core: %s", ue_strerror(tp->err));
		/* an event from a module loaded since the table was read
		 * waits for the reader's new one, while usbmon is read on */
		if (tp->nq > 0 && (tp->flush || tp->ended ||
		    tp->q[0]->ts <= tp->newest - CAP_BPF_HOLD_NS) &&
		    tr_ready(tp, tp->q[0], tp->ended)) {
			p = tp->out = tp->q[0];
			q_remove(tp, 0);
			if (p->what == CAP_EVENT) {
				tr_event(tp, p, ev);
				tp->nrule = dec_rules_check(tp->rules, ev,
				    tp->rule_ev, nitems(tp->rule_ev));
				tp->rule_at = 0;
				return CAP_EVENT;
			}
			*r = p->r;
			/* given back, whether or not its giveback was
			 * traced (a kprobe pair misses the one that runs
			 * inside another probe's handler); halts */
			dec_rules_record(tp->rules, r);
			return CAP_URB;
		}
		tp->flush = 0;
		if (tp->ended)
			return CAP_END;
		rc = cap_next(tp->live, r, ev);
		/* what the tracer has by now (never blocks) */
		if (ring_buffer__consume(tp->rb) < 0 && tp->err == 0)
			tp->err = UE_IO;
		switch (rc) {
		case CAP_AGAIN:
			/* the bus is idle: what waits may go */
			if (tp->nq == 0)
				return CAP_AGAIN;
			tp->flush = 1;
			break;
		case CAP_END:
			tp->ended = 1;
			break;
		case CAP_URB:
			if ((p = pend_urb(r)) == NULL)
				tp->err = UE_NOMEM;
			else if (q_add(tp, p) < 0)
				tp->err = UE_NOMEM;
			break;
		case CAP_EVENT:
			break;
		default:
			snprintf(src->err, sizeof src->err, "%s",
			    tp->live->err);
			return rc;
		}
	}
}

static void
tr_close(struct cap_source *src)
{
	struct tr_priv	*tp = src->priv;
	size_t		 i;

	pend_free(tp->out);
	for (i = 0; i < tp->nq; i++)
		pend_free(tp->q[i]);
	free(tp->q);
	ring_buffer__free(tp->rb);
	usbtrace__destroy(tp->skel);
	ksreader_stop(tp);
	ksyms_free(&tp->ks);
	dec_rules_free(tp->rules);
	cap_close(tp->live);
}

static int
tr_stats(struct cap_source *src, struct cap_stats *st)
{
	struct tr_priv	*tp = src->priv;
	struct cap_bpf_stats bst;

	cap_stats(tp->live, st);
	if (cap_bpf_stats(src, &bst) == 0) {
		st->have_events = 1;
		st->ev_received = bst.events;
		st->ev_dropped = bst.lost + bst.missed;
	}
	return 0;
}

static const struct cap_source_ops cap_bpf_ops = {
	.name = "usbmon+ebpf",
	.desc = "usbmon with the USB core traced by eBPF (capture --drivers)",
	.probe = tr_probe,
	.priv_size = sizeof (struct tr_priv),
	.open = tr_open,
	.next = tr_next,
	.close = tr_close,
	.stats = tr_stats,
};

/*
 * The probe points, by the events they make: a function another kernel
 * inlined, renamed or made notrace or static loses its events, not the
 * capture.  The giveback is needed (the context of every call inside a
 * completion is told by it): where its fentry and fexit cannot be
 * attached (arm64 before 6.2), a kprobe and kretprobe pair is.  The
 * programs of an event go together: an entry without its return would
 * keep its records forever.
 */
static const struct tr_point {
	const char	*event;
	const char	*prog[3];
	int		 needed;
	const char	*alt[3];	/* where prog cannot be attached */
} tr_points[] = {
	{ "submit", { "submit_entry", "submit_return" }, 0, { NULL } },
	{ "giveback", { "giveback_entry", "giveback_return" }, 1,
	    { "giveback_kprobe", "giveback_kretprobe" } },
	{ "kill", { "kill_entry" }, 0, { NULL } },
	{ "unlink", { "unlink_entry", "unlink_return" }, 0, { NULL } },
	{ "poison", { "poison_entry" }, 0, { NULL } },
	{ "probe", { "probe_entry", "probe_return" }, 0, { NULL } },
	{ "disconnect", { "unbind_entry", "unbind_return" }, 0, { NULL } },
	/* without them the disconnect is sent at the unbind's return */
	{ "disconnect's moment", { "enable_entry" }, 0, { NULL } },
	{ "disconnect's moment", { "set_interface_entry" }, 0, { NULL } },
	{ "register_dev", { "register_dev_entry", "register_dev_return" },
	    0, { NULL } },
	{ "deregister_dev", { "deregister_dev_entry" }, 0, { NULL } },
	{ "register", { "register_entry" }, 0, { NULL } },
	{ "deregister", { "deregister_entry" }, 0, { NULL } },
	{ "match", { "match_entry", "match_return" }, 0, { NULL } },
	{ "match's id table entry", { "match_id_return" }, 0, { NULL } },
	{ "open", { "open_entry", "open_return" }, 0, { NULL } },
};

/* The kernel function a program is on: its section's "kprobe/NAME". */
static const char *
prog_func(const struct bpf_program *prog)
{
	const char	*sec = bpf_program__section_name(prog);
	const char	*slash = strchr(sec, '/');

	return slash != NULL ? slash + 1 : sec;
}

/* 1 when the environment variable var lists fn ("fn,fn"). */
static int
env_lists(const char *var, const char *fn)
{
	const char	*e = getenv(var), *p;
	size_t		 n = strlen(fn);

	for (p = e; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
		p += *p == ',';
		if (strncmp(p, fn, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * For tests: URBSCOPE_BPF_ABSENT="fn,fn" makes the kernel functions named
 * there look absent, as in a kernel that inlined them: their kprobes go
 * to a name no kernel has, so the kernel refuses them as it would.
 */
static int
func_absent(const char *fn)
{
	return env_lists("URBSCOPE_BPF_ABSENT", fn);
}

/*
 * 1 when the kernel's BTF describes function fn of module mod (or of
 * vmlinux, where mod is built in), or when there is no BTF to ask (the
 * load then says so).  A fentry program needs its function's BTF when it
 * is loaded: without it the whole object would fail to load.  For tests,
 * URBSCOPE_BPF_NOBTF="fn,fn" hides the functions named there.
 */
static int
func_in_btf(struct btf *vm, const char *mod, const char *fn)
{
	struct btf	*m;
	int		 found;

	if (env_lists("URBSCOPE_BPF_NOBTF", fn))
		return 0;
	if (vm == NULL)
		return 1;
	found = btf__find_by_name_kind(vm, fn, BTF_KIND_FUNC) > 0;
	if (!found && (m = btf__load_module_btf(mod, vm)) != NULL) {
		found = btf__find_by_name_kind(m, fn, BTF_KIND_FUNC) > 0;
		btf__free(m);
	}
	return found;
}

/* Attach one program; 0 or -errno with libbpf's link. */
static int
prog_attach(struct bpf_program *prog, struct bpf_link **link)
{
	const char	*sec = bpf_program__section_name(prog);
	const char	*fn = prog_func(prog);
	char		 absent[96];
	int		 ret = strncmp(sec, "kretprobe/", 10) == 0;

	if (strncmp(sec, "kprobe/", 7) == 0 || ret) {
		if (func_absent(fn)) {
			snprintf(absent, sizeof absent, "urbscope_absent_%s",
			    fn);
			fn = absent;
		}
		*link = bpf_program__attach_kprobe(prog, ret, fn);
	} else
		*link = bpf_program__attach(prog);
	return *link != NULL ? 0 : -(errno != 0 ? errno : EINVAL);
}

/* The skeleton's index of program name; prog_cnt when there is none. */
static size_t
prog_index(const struct bpf_object_skeleton *sk, const char *name)
{
	size_t	 k;

	for (k = 0; k < (size_t)sk->prog_cnt; k++)
		if (strcmp(sk->progs[k].name, name) == 0)
			break;
	return k;
}

/*
 * Attach the programs of one event (names, NULL-ended in n at most): 0,
 * or errno with *fn the function that failed and none left attached.  A
 * program not loaded (turned off before the load) fails with ENOTSUP.
 *
 * The last first: the kretprobe before its kprobe.  Two probes on one
 * address share an aggregate kprobe whose handlers run newest first
 * (add_new_kprobe, kernel/kprobes.c), and the kretprobe's handler points
 * the return address at its trampoline (arch_rethook_prepare): the
 * entry's program, run before it, reads the real one.  On arm64 that
 * matters: the return address is only in x30 there, the caller's frame
 * not yet pushed, so the stack cannot give it back as x86's unwinder does.
 */
static int
group_attach(struct tr_priv *tp, const char *const *names, size_t n,
    const char **fn)
{
	const struct bpf_object_skeleton *sk = tp->skel->skeleton;
	struct bpf_program *prog;
	size_t		 j, k;
	int		 bad = 0, rc;

	for (j = 0; j < n && names[j] != NULL; j++)
		;
	while (j-- > 0 && !bad) {
		if ((k = prog_index(sk, names[j])) == (size_t)sk->prog_cnt)
			continue;
		prog = *sk->progs[k].prog;
		*fn = prog_func(prog);
		cap_bpf_log[0] = '\0';
		if (!bpf_program__autoload(prog))
			bad = ENOTSUP;
		else if ((rc = prog_attach(prog, sk->progs[k].link)) != 0)
			bad = -rc;
	}
	/* the event's other programs go too */
	for (j = 0; bad && j < n && names[j] != NULL; j++) {
		if ((k = prog_index(sk, names[j])) == (size_t)sk->prog_cnt)
			continue;
		bpf_link__destroy(*sk->progs[k].link);
		*sk->progs[k].link = NULL;
	}
	return bad;
}

/*
 * Attach every program, by tr_points: the events whose functions cannot
 * be traced are named in missing ("open (usb_open: No such file or
 * directory, not in /proc/kallsyms), ..."), an event traced by its
 * fallback in alt; -errno when the giveback cannot be traced either way
 * (libbpf's words in why), else 0.
 */
static int
tr_attach(struct tr_priv *tp, char *missing, size_t mlen, char *alt,
    size_t alen, char *why, size_t len)
{
	const struct tr_point *pt;
	size_t		 i, at = 0;
	int		 bad, abad;
	const char	*fn = "", *afn = "";
	char		 reason[160];

	missing[0] = alt[0] = '\0';
	for (i = 0; i < nitems(tr_points); i++) {
		pt = &tr_points[i];
		if ((bad = group_attach(tp, pt->prog, nitems(pt->prog),
		    &fn)) == 0)
			continue;
		/* ENOTSUPP (524, include/linux/errno.h) is the kernel's own,
		 * unknown to the C library: bpf_trampoline_update without
		 * an arch_prepare_bpf_trampoline */
		snprintf(reason, sizeof reason, "%s", bad == ENOTSUP &&
		    tp->no_fentry != NULL ? tp->no_fentry :
		    bad == 524 ? "not supported by this kernel (ENOTSUPP: "
		    "no DYNAMIC_FTRACE_WITH_DIRECT_CALLS)" : strerror(bad));
		if (pt->alt[0] != NULL && (abad = group_attach(tp, pt->alt,
		    nitems(pt->alt), &afn)) == 0) {
			snprintf(alt, alen, "%s traced by a kprobe pair on %s "
			    "(its fentry: %s)", pt->event, afn, reason);
			continue;
		}
		if (pt->needed) {
			snprintf(why, len, "cannot trace %s (%s): %s%s%s", fn,
			    pt->event, reason, cap_bpf_log[0] ? ": " : "",
			    cap_bpf_log);
			return -bad;
		}
		if (at < mlen)
			at += (size_t)snprintf(missing + at, mlen - at,
			    "%s%s (%s: %s%s)", at > 0 ? ", " : "", pt->event,
			    fn, reason, ksyms_addr(&tp->ks, fn) == 0 ||
			    func_absent(fn) ? ", not in /proc/kallsyms: "
			    "inlined or renamed in this kernel" : "");
	}
	return 0;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC, from the closest of a few reads. */
static int64_t
clock_offset(void)
{
	int64_t	 m0, rt, m1, best = INT64_MAX, off = 0;
	int	 i;

	for (i = 0; i < 5; i++) {
		m0 = cap_clock_ns(CLOCK_MONOTONIC);
		rt = cap_clock_ns(CLOCK_REALTIME);
		m1 = cap_clock_ns(CLOCK_MONOTONIC);
		if (m1 - m0 < best) {
			best = m1 - m0;
			off = rt - (m0 + (m1 - m0) / 2);
		}
	}
	return off;
}

int
cap_bpf_open(struct cap_source *live, int bus, struct cap_source **out,
    char *why, size_t len)
{
	struct cap_source *src;
	struct tr_priv	*tp;
	struct btf	*vm = NULL;
	size_t		 hdr = (sizeof *src + 15) & ~(size_t)15;
	uint64_t	 lo, hi;
	char		 missing[512], alt[256];
	int		 err;

	*out = NULL;
	if (cap_bpf_preflight(why, len) < 0)
		return -UE_NOTSUP;
	if ((src = calloc(1, hdr + sizeof *tp)) == NULL) {
		snprintf(why, len, "%s", ue_strerror(UE_NOMEM));
		return -UE_NOMEM;
	}
	src->ops = &cap_bpf_ops;
	src->priv = tp = (struct tr_priv *)(void *)((uint8_t *)src + hdr);
	src->name = live->name;
	src->live = 1;
	src->in.fd = -1;
	tp->live = live;
	tp->bus = bus;
	if ((tp->rules = dec_rules_new()) == NULL) {
		snprintf(why, len, "%s", ue_strerror(UE_NOMEM));
		goto fail;
	}
	vm = btf__load_vmlinux_btf();
	gfp_from_btf(&tp->gfp, vm);
	if (ksyms_load(&tp->ks) < 0) {
		snprintf(why, len, "%s lists no symbol addresses (as root, "
		    "kernel.kptr_restrict may hide them)", CAP_BPF_KALLSYMS);
		goto fail;
	}
	cap_bpf_log[0] = '\0';
	libbpf_set_print(cap_bpf_print);
	if ((tp->skel = usbtrace__open()) == NULL) {
		snprintf(why, len, "cannot open the BPF object: %s",
		    strerror(errno));
		goto fail;
	}
	unbind_text(&tp->ks, &lo, &hi);
	tp->skel->rodata->preempt_rt = kernel_is_rt();
	tp->skel->rodata->unbind_lo = lo;
	tp->skel->rodata->unbind_hi = hi;
	tp->skel->rodata->probe_device = ksyms_addr(&tp->ks,
	    "usb_probe_device");
	/* the giveback's fentry off where its function has no BTF (the
	 * kprobe pair then), and for tests as where it cannot be attached */
	if (getenv("URBSCOPE_BPF_NOFENTRY") != NULL)
		tp->no_fentry = "turned off by URBSCOPE_BPF_NOFENTRY";
	else if (!func_in_btf(vm, "usbcore", "__usb_hcd_giveback_urb"))
		tp->no_fentry = "not in the kernel's BTF";
	btf__free(vm);
	vm = NULL;
	if (tp->no_fentry != NULL) {
		bpf_program__set_autoload(tp->skel->progs.giveback_entry,
		    false);
		bpf_program__set_autoload(tp->skel->progs.giveback_return,
		    false);
	}
	if ((err = usbtrace__load(tp->skel)) != 0) {
		if (err == -EPERM || err == -EACCES)
			snprintf(why, len, "bpf() refused: %s (a container "
			    "or kernel.unprivileged_bpf_disabled?)",
			    strerror(-err));
		else
			snprintf(why, len, "cannot load the BPF programs: "
			    "%s%s%s", strerror(-err), cap_bpf_log[0] ? ": " :
			    "", cap_bpf_log);
		goto fail;
	}
	if (tr_attach(tp, missing, sizeof missing, alt, sizeof alt, why,
	    len) < 0)
		goto fail;
	tp->rb = ring_buffer__new(bpf_map__fd(tp->skel->maps.events),
	    tr_record, tp, NULL);
	if (tp->rb == NULL) {
		snprintf(why, len, "cannot read the BPF ring buffer: %s",
		    strerror(errno));
		goto fail;
	}
	if ((err = ksreader_start(tp)) != 0) {
		snprintf(why, len, "cannot start the thread that reads %s: "
		    "%s", CAP_BPF_KALLSYMS, strerror(err));
		goto fail;
	}
	tp->mono_to_real = clock_offset();
	/* said once, and the rest traced */
	why[0] = '\0';
	if (missing[0] != '\0')
		snprintf(why, len, "not traced on this kernel: %s; the rest "
		    "is%s%s", missing, alt[0] != '\0' ? ", the " : "", alt);
	else if (alt[0] != '\0')
		snprintf(why, len, "%s", alt);
	*out = src;
	return 0;

fail:
	btf__free(vm);
	libbpf_set_print(NULL);
	ring_buffer__free(tp->rb);
	usbtrace__destroy(tp->skel);
	ksyms_free(&tp->ks);
	dec_rules_free(tp->rules);
	free(src);
	return -UE_NOTSUP;
}

/*
 * The hits a kprobe's kernel side skipped (another kprobe's handler
 * running on the CPU: kprobe_running, kernel/kprobes.c), from the link's
 * info: struct bpf_link_info's perf_event.kprobe.missed, Linux 6.7 and
 * later (include/uapi/linux/bpf.h), laid out here for older headers.  0
 * where the kernel does not say.
 */
static uint64_t
link_kprobe_missed(const struct bpf_link *link)
{
	struct {
		uint32_t	 type, id, prog_id, pad;
		uint32_t	 pe_type, pe_pad;	/* perf_event */
		uint64_t	 func_name;		/* .kprobe */
		uint32_t	 name_len, offset;
		uint64_t	 addr, missed, cookie;
		uint64_t	 rest[4];
	} info;
	uint32_t	 ilen = sizeof info;

	memset(&info, 0, sizeof info);
	if (bpf_obj_get_info_by_fd(bpf_link__fd(link), &info, &ilen) != 0 ||
	    info.type != 7 /* BPF_LINK_TYPE_PERF_EVENT */ ||
	    (info.pe_type != 3 && info.pe_type != 4))	/* [RET]KPROBE */
		return 0;
	return info.missed;
}

int
cap_bpf_stats(struct cap_source *src, struct cap_bpf_stats *st)
{
	const struct bpf_object_skeleton *sk;
	struct tr_priv		*tp;
	struct bpf_program	*prog;
	struct bpf_prog_info	 info;
	uint32_t		 zero = 0, ilen;
	uint64_t		*v;
	int			 ncpu, i;

	memset(st, 0, sizeof *st);
	if (src == NULL || src->ops != &cap_bpf_ops)
		return -1;
	tp = src->priv;
	st->events = tp->events;
	bpf_object__for_each_program(prog, tp->skel->obj) {
		memset(&info, 0, sizeof info);
		ilen = sizeof info;
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info,
		    &ilen) == 0)
			st->missed += info.recursion_misses;
	}
	sk = tp->skel->skeleton;
	for (i = 0; i < sk->prog_cnt; i++)
		if (*sk->progs[i].link != NULL)
			st->missed += link_kprobe_missed(*sk->progs[i].link);
	if ((ncpu = libbpf_num_possible_cpus()) <= 0 ||
	    (v = calloc((size_t)ncpu, sizeof *v)) == NULL)
		return 0;
	if (bpf_map__lookup_elem(tp->skel->maps.lost, &zero, sizeof zero, v,
	    (size_t)ncpu * sizeof *v, 0) == 0) {
		for (i = 0; i < ncpu; i++)
			st->lost += v[i];
	}
	free(v);
	return 0;
}

#endif /* HAVE_BPF */
