/*
 * capture/cap-in.c - buffered input for every file-like source: read()
 * into one buffer (1 MiB, or the size of a smaller regular file; grown
 * only for records larger than that), so a
 * source sees records as pointers into the buffer and pays no syscall or
 * copy per record.  Works on files, pipes and standard input alike; peeking
 * never consumes, so the registry can look at the first bytes of a pipe.
 * A gzip input (RFC 1952; several members one after the other, as
 * concatenated .gz files are) is inflated with zlib on the way into the
 * buffer, a Zstandard one (RFC 8878, several frames too) decompressed
 * with libzstd, so every source reads .pcap.gz, .pcapng.gz and .zst as
 * Wireshark does.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "capture.h"

#define CAP_IN_SIZE	(1024 * 1024)
#define CAP_IN_MIN	4096		/* the buffer of a small file */
#define CAP_GZ_RAW	(256 * 1024)	/* compressed bytes read at a time */

/* A compressed input: its kind, the decoder, the raw bytes read. */
struct cap_gz {
	int		 zstd;		/* Zstandard, else gzip */
	z_stream	 z;
	ZSTD_DStream	*zs;
	uint8_t		 raw[CAP_GZ_RAW];
	size_t		 rlen;		/* raw bytes in raw[] */
	size_t		 rpos;		/* ... used */
	int		 end;		/* the raw input is all read */
	int		 bad;		/* the data is corrupt */
};

/* read() that resumes after a signal: bytes, 0 at the end, -1. */
static ssize_t
raw_read(int fd, uint8_t *p, size_t n)
{
	ssize_t	 got;

	do
		got = read(fd, p, n);
	while (got == -1 && errno == EINTR);
	return got;
}

static void
gz_free(struct cap_gz *gz)
{
	if (gz->zstd)
		ZSTD_freeDStream(gz->zs);
	else
		inflateEnd(&gz->z);
	free(gz);
}

/* What p[0..n) starts: 0 a gzip stream (1f 8b, RFC 1952), 1 a Zstandard
 * frame (28 b5 2f fd, RFC 8878), -1 neither. */
static int
gz_kind(const uint8_t *p, size_t n)
{
	static const uint8_t zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return 0;
	if (n >= 4 && memcmp(p, zmagic, 4) == 0)
		return 1;
	return -1;
}

/*
 * The first bytes of the file are in buf[0..n): if they start a gzip
 * stream (1f 8b, RFC 1952) or a Zstandard frame (28 b5 2f fd, RFC 8878),
 * take them as the first compressed bytes and decompress from now on.
 * 0, or -UE_NOMEM.
 */
static int
gz_start(struct cap_in *in, size_t n)
{
	struct cap_gz	*gz;
	uint8_t		*nb;
	int		 zstd;

	if ((zstd = gz_kind(in->buf, n)) < 0)
		return 0;
	if ((gz = calloc(1, sizeof *gz)) == NULL)
		return -UE_NOMEM;
	gz->zstd = zstd;
	memcpy(gz->raw, in->buf, n);
	gz->rlen = n;
	if (zstd) {
		if ((gz->zs = ZSTD_createDStream()) == NULL ||
		    ZSTD_isError(ZSTD_initDStream(gz->zs))) {
			ZSTD_freeDStream(gz->zs);
			free(gz);
			return -UE_NOMEM;
		}
	} else if (inflateInit2(&gz->z, 15 + 16) != Z_OK) {
		/* 15 + 16: a gzip header, not zlib's */
		free(gz);
		return -UE_NOMEM;
	}
	if (in->size < CAP_IN_SIZE) {
		if ((nb = realloc(in->buf, CAP_IN_SIZE)) == NULL) {
			gz_free(gz);
			return -UE_NOMEM;
		}
		in->buf = nb;
		in->size = CAP_IN_SIZE;
	}
	in->gz = gz;
	in->end = 0;
	return 0;
}

/* One decoder step from raw[rpos..rlen) into out[*done..n): 0, or -1
 * when the data is corrupt.  A gzip member's end starts the next one. */
static int
gz_step(struct cap_gz *gz, uint8_t *out, size_t n, size_t *done)
{
	ZSTD_inBuffer	 zi;
	ZSTD_outBuffer	 zo;
	size_t		 r;
	int		 rc;

	if (gz->zstd) {
		zi.src = gz->raw;
		zi.size = gz->rlen;
		zi.pos = gz->rpos;
		zo.dst = out;
		zo.size = n;
		zo.pos = *done;
		r = ZSTD_decompressStream(gz->zs, &zo, &zi);
		gz->rpos = zi.pos;
		*done = zo.pos;
		return ZSTD_isError(r) ? -1 : 0;
	}
	gz->z.next_in = gz->raw + gz->rpos;
	gz->z.avail_in = (uInt)(gz->rlen - gz->rpos);
	gz->z.next_out = out + *done;
	gz->z.avail_out = (uInt)(n - *done);
	rc = inflate(&gz->z, Z_NO_FLUSH);
	gz->rpos = gz->rlen - gz->z.avail_in;
	*done = n - gz->z.avail_out;
	if (rc == Z_STREAM_END)
		return inflateReset(&gz->z) == Z_OK ? 0 : -1;
	if (rc == Z_OK || (rc == Z_BUF_ERROR && gz->rpos == gz->rlen))
		return 0;
	return -1;
}

/*
 * Decompress into buf[end..size): bytes added (0 at the end of the data),
 * or -1 with in->err set (EIO for corrupt data).
 */
static ssize_t
gz_fill(struct cap_in *in)
{
	struct cap_gz	*gz = in->gz;
	ssize_t		 got;
	size_t		 n = in->size - in->end, done = 0;

	while (done == 0 && !gz->bad) {
		if (gz->rpos == gz->rlen && !gz->end) {
			if ((got = raw_read(in->fd, gz->raw,
			    sizeof gz->raw)) == -1) {
				in->err = errno;
				return -1;
			}
			if (got == 0)
				gz->end = 1;
			gz->rlen = (size_t)got;
			gz->rpos = 0;
		}
		if (gz->rpos == gz->rlen && gz->end)
			break;		/* a cut file ends where it is cut */
		if (gz_step(gz, in->buf + in->end, n, &done) != 0)
			gz->bad = 1;
	}
	if (done == 0 && gz->bad) {
		in->err = EIO;
		return -1;
	}
	return (ssize_t)done;
}

/*
 * On the first seek, a regular uncompressed file of CAP_IN_SIZE or more
 * is mapped whole (mmap(2)): jumping about costs no read then.  A reader
 * that only goes forward keeps read(2) into one buffer: in a virtual
 * machine the mapping's page faults, TLB misses and MADV_DONTNEED's
 * shootdowns made `read FILE` twice as slow as the copy (make bench,
 * 1M records: 0.37 s against 0.16 s, best of 5, interleaved).  The
 * buffer read so far is kept until close: a record taken before the
 * seek stays readable.  1 if mapped.
 */
static int
in_map(struct cap_in *in)
{
	struct stat	 st;
	uint8_t		*p;
	size_t		 size;

	if (in->mapped || in->gz != NULL || in->fd == -1 ||
	    fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < CAP_IN_SIZE || (uint64_t)st.st_size > SIZE_MAX)
		return 0;
	size = (size_t)st.st_size;
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, in->fd, 0);
	if (p == MAP_FAILED)
		return 0;
	(void)madvise(p, size, MADV_SEQUENTIAL);
	in->spare = in->buf;
	in->buf = p;
	in->size = in->end = size;
	in->base = 0;
	in->pos = 0;
	in->dropped = 0;
	in->eof = 1;
	in->mapped = 1;
	return 1;
}

static void
in_sigbus(int sig)
{
	static const char msg[] = "urbscope: the input file shrank while it "
	    "was being read (truncated or rewritten by another program)\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(2);
}

void
cap_in_sigbus(void)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = in_sigbus;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, NULL);
}

int
cap_in_open(struct cap_in *in, const char *path)
{
	struct stat	 st;
	ssize_t		 got;
	size_t		 size = CAP_IN_SIZE;
	int		 fd, saved;

	memset(in, 0, sizeof *in);
	in->fd = -1;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -UE_OPEN;
	/* a small file needs no 1 MiB (a compressed one gets it back) */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < CAP_IN_SIZE) {
		size = CAP_IN_MIN;
		while (size < (size_t)st.st_size + 1)
			size *= 2;
	}
	if ((in->buf = malloc(size)) == NULL) {
		saved = errno;
		if (fd != STDIN_FILENO)
			close(fd);
		errno = saved;
		return -UE_NOMEM;
	}
	in->fd = fd;
	in->own_fd = fd != STDIN_FILENO;
	in->size = size;
	if (in->own_fd)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* the first bytes (a pipe may give them one at a time), to see
	 * whether the file is compressed */
	while (in->end < 4) {
		if ((got = raw_read(fd, in->buf + in->end, 4 - in->end)) ==
		    -1) {
			in->err = errno;
			return 0;
		}
		if (got == 0) {
			in->eof = 1;
			break;
		}
		in->end += (size_t)got;
	}
	if (gz_start(in, in->end) != 0) {
		cap_in_close(in);
		return -UE_NOMEM;
	}
	return 0;
}

void
cap_in_close(struct cap_in *in)
{
	if (in->gz != NULL)
		gz_free(in->gz);
	if (in->own_fd && in->fd != -1)
		close(in->fd);
	if (in->mapped)
		munmap(in->buf, in->size);
	else
		free(in->buf);
	free(in->spare);
	memset(in, 0, sizeof *in);
	in->fd = -1;
}

/* Move the unread bytes to the front of the buffer. */
static void
cap_in_compact(struct cap_in *in)
{
	if (in->pos == 0)
		return;
	if (in->end > in->pos)
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
	in->base += in->pos;
	in->end -= in->pos;
	in->pos = 0;
}

/*
 * A mapping's pages behind the reader go back (MADV_DONTNEED: they stay in
 * the page cache, and come back on a later access), so the resident size
 * does not grow with the file: streaming, as read() into one buffer is.
 * The record at pos, and what is kept before it, stay.
 */
static void
in_drop(struct cap_in *in)
{
	size_t	 page, upto;

	if (in->pos - in->dropped < 2 * CAP_MAP_KEEP)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	upto = (in->pos - CAP_MAP_KEEP) / page * page;
	if (upto > in->dropped) {
		(void)madvise(in->buf + in->dropped, upto - in->dropped,
		    MADV_DONTNEED);
		in->dropped = upto;
	}
}

/*
 * At the end of a regular file: did it shrink below what was read (cut or
 * rewritten by another program)?  Then it is an error, as SIGBUS is for a
 * mapping, not a quiet end.
 */
static int
in_shrank(struct cap_in *in)
{
	struct stat	 st;

	if (in->gz != NULL || in->fd == -1 || fstat(in->fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size >= in->base + in->end)
		return 0;
	in->err = ESTALE;
	in->shrank = 1;
	return 1;
}

const char *
cap_in_strerror(const struct cap_in *in)
{
	if (in->shrank)
		return "the input file shrank while it was being read "
		    "(truncated or rewritten by another program)";
	return strerror(in->err);
}

long
cap_in_peek_more(struct cap_in *in, size_t n, const uint8_t **p)
{
	struct stat	 st;
	uint8_t		*nb;
	size_t		 size, want;
	ssize_t		 got;

	if (in->mapped && in->pos > in->dropped)
		in_drop(in);
	if (in->end - in->pos >= n)
		goto out;
	if (in->err != 0)
		return -UE_IO;
	if (in->eof || in->fd == -1)
		goto out;

	cap_in_compact(in);
	if (n > in->size) {
		/* a length read from a damaged file may be far beyond its
		 * end: grow only to what the file still holds */
		want = n;
		if (in->gz == NULL && fstat(in->fd, &st) == 0 &&
		    S_ISREG(st.st_mode) && st.st_size >= 0 &&
		    (uint64_t)st.st_size - in->base < want)
			want = (size_t)((uint64_t)st.st_size - in->base);
		size = in->size;
		while (size < want)
			size *= 2;
		if ((nb = realloc(in->buf, size)) == NULL)
			return -UE_NOMEM;
		in->buf = nb;
		in->size = size;
	}
	while (in->end < n && in->end < in->size) {
		if (in->gz != NULL)
			got = gz_fill(in);
		else if ((got = raw_read(in->fd, in->buf + in->end,
		    in->size - in->end)) == -1)
			in->err = errno;
		if (got == -1)
			return -UE_IO;
		if (got == 0) {
			in->eof = 1;
			if (in_shrank(in))
				return -UE_IO;
			break;
		}
		in->end += (size_t)got;
	}
out:
	*p = in->buf + in->pos;
	if (in->end - in->pos < n)
		return (long)(in->end - in->pos);
	return (long)n;
}

void
cap_in_skip(struct cap_in *in, size_t n)
{
	if (n > in->end - in->pos)
		n = in->end - in->pos;
	in->pos += n;
}

int
cap_in_seek(struct cap_in *in, uint64_t off)
{
	if (in->mapped || in_map(in)) {
		if (off > in->end)
			return -UE_IO;
		in->pos = (size_t)off;
		in->err = 0;
		/* pages from here on are given back again as the reader
		 * passes them */
		if (in->dropped > in->pos)
			in->dropped = in->pos / (size_t)sysconf(_SC_PAGESIZE) *
			    (size_t)sysconf(_SC_PAGESIZE);
		return 0;
	}
	if (in->fd == -1 || in->gz != NULL ||
	    lseek(in->fd, (off_t)off, SEEK_SET) == -1)
		return -UE_IO;
	in->base = off;
	in->pos = in->end = 0;
	in->eof = 0;
	in->err = 0;
	return 0;
}
