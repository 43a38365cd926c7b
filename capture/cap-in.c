/*
 * capture/cap-in.c - buffered input for every file-like source: read()
 * into one buffer (1 MiB, grown only for records larger than that), so a
 * source sees records as pointers into the buffer and pays no syscall or
 * copy per record.  Works on files, pipes and standard input alike; peeking
 * never consumes, so the registry can look at the first bytes of a pipe.
 * A gzip input (RFC 1952; several members one after the other, as
 * concatenated .gz files are) is inflated with zlib on the way into the
 * buffer, so every source reads .pcap.gz and .pcapng.gz as Wireshark does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "capture.h"

#define CAP_IN_SIZE	(1024 * 1024)
#define CAP_GZ_RAW	(256 * 1024)	/* compressed bytes read at a time */

struct cap_gz {
	z_stream	 z;
	uint8_t		 raw[CAP_GZ_RAW];
	int		 end;		/* the raw input is all read */
	int		 bad;		/* inflate failed: the data is corrupt */
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

/*
 * The first bytes of the file are in buf[0..n): if they start a gzip
 * stream, take them as its first compressed bytes and inflate from now
 * on.  0, or -UE_NOMEM.
 */
static int
gz_start(struct cap_in *in, size_t n)
{
	struct cap_gz	*gz;

	if (n < 2 || in->buf[0] != 0x1f || in->buf[1] != 0x8b)
		return 0;
	if ((gz = calloc(1, sizeof *gz)) == NULL)
		return -UE_NOMEM;
	memcpy(gz->raw, in->buf, n);
	gz->z.next_in = gz->raw;
	gz->z.avail_in = (uInt)n;
	/* 15 + 16: a gzip header, not zlib's */
	if (inflateInit2(&gz->z, 15 + 16) != Z_OK) {
		free(gz);
		return -UE_NOMEM;
	}
	in->gz = gz;
	in->end = 0;
	return 0;
}

/*
 * Inflate into buf[end..size): bytes added (0 at the end of the data),
 * or -1 with in->err set (EIO for corrupt data).
 */
static ssize_t
gz_fill(struct cap_in *in)
{
	struct cap_gz	*gz = in->gz;
	ssize_t		 got;
	size_t		 before;
	int		 rc;

	if (gz->bad) {
		in->err = EIO;
		return -1;
	}
	gz->z.next_out = in->buf + in->end;
	gz->z.avail_out = (uInt)(in->size - in->end);
	before = gz->z.avail_out;
	while (gz->z.avail_out == before) {
		if (gz->z.avail_in == 0 && !gz->end) {
			if ((got = raw_read(in->fd, gz->raw,
			    sizeof gz->raw)) == -1) {
				in->err = errno;
				return -1;
			}
			if (got == 0)
				gz->end = 1;
			gz->z.next_in = gz->raw;
			gz->z.avail_in = (uInt)got;
		}
		if (gz->z.avail_in == 0 && gz->end)
			break;		/* a cut file ends where it is cut */
		rc = inflate(&gz->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* another member may follow */
			if (inflateReset(&gz->z) != Z_OK) {
				gz->bad = 1;
				break;
			}
			continue;
		}
		if (rc == Z_BUF_ERROR && gz->z.avail_in == 0)
			continue;
		if (rc != Z_OK) {
			gz->bad = 1;
			break;
		}
	}
	got = (ssize_t)(before - gz->z.avail_out);
	if (got == 0 && gz->bad) {
		in->err = EIO;
		return -1;
	}
	return got;
}

int
cap_in_open(struct cap_in *in, const char *path)
{
	ssize_t	 got;
	int	 fd, saved;

	memset(in, 0, sizeof *in);
	in->fd = -1;
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -UE_OPEN;
	if ((in->buf = malloc(CAP_IN_SIZE)) == NULL) {
		saved = errno;
		if (fd != STDIN_FILENO)
			close(fd);
		errno = saved;
		return -UE_NOMEM;
	}
	in->fd = fd;
	in->own_fd = fd != STDIN_FILENO;
	in->size = CAP_IN_SIZE;
	if (in->own_fd)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* the first bytes, to see whether the file is compressed */
	if ((got = raw_read(fd, in->buf, 2)) == -1) {
		in->err = errno;
		return 0;
	}
	in->end = (size_t)got;
	if (got == 0)
		in->eof = 1;
	if (gz_start(in, in->end) != 0) {
		cap_in_close(in);
		return -UE_NOMEM;
	}
	return 0;
}

void
cap_in_close(struct cap_in *in)
{
	if (in->gz != NULL) {
		inflateEnd(&in->gz->z);
		free(in->gz);
	}
	if (in->own_fd && in->fd != -1)
		close(in->fd);
	free(in->buf);
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

long
cap_in_peek(struct cap_in *in, size_t n, const uint8_t **p)
{
	uint8_t	*nb;
	size_t	 size;
	ssize_t	 got;

	if (in->end - in->pos >= n)
		goto out;
	if (in->err != 0)
		return -UE_IO;
	if (in->eof || in->fd == -1)
		goto out;

	cap_in_compact(in);
	if (n > in->size) {
		size = in->size;
		while (size < n)
			size *= 2;
		if ((nb = realloc(in->buf, size)) == NULL)
			return -UE_NOMEM;
		in->buf = nb;
		in->size = size;
	}
	while (in->end < n) {
		if (in->gz != NULL)
			got = gz_fill(in);
		else if ((got = raw_read(in->fd, in->buf + in->end,
		    in->size - in->end)) == -1)
			in->err = errno;
		if (got == -1)
			return -UE_IO;
		if (got == 0) {
			in->eof = 1;
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
	if (in->fd == -1 || in->gz != NULL ||
	    lseek(in->fd, (off_t)off, SEEK_SET) == -1)
		return -UE_IO;
	in->base = off;
	in->pos = in->end = 0;
	in->eof = 0;
	in->err = 0;
	return 0;
}
