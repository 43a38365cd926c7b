/*
 * capture/cap-in.c - buffered input for every file-like source: read()
 * into one buffer (1 MiB, grown only for records larger than that), so a
 * source sees records as pointers into the buffer and pays no syscall or
 * copy per record.  Works on files, pipes and standard input alike; peeking
 * never consumes, so the registry can look at the first bytes of a pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

#define CAP_IN_SIZE	(1024 * 1024)

int
cap_in_open(struct cap_in *in, const char *path)
{
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
	return 0;
}

void
cap_in_close(struct cap_in *in)
{
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
		got = read(in->fd, in->buf + in->end, in->size - in->end);
		if (got == -1) {
			if (errno == EINTR)
				continue;
			in->err = errno;
			return -UE_IO;
		}
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
	if (in->fd == -1 || lseek(in->fd, (off_t)off, SEEK_SET) == -1)
		return -UE_IO;
	in->base = off;
	in->pos = in->end = 0;
	in->eof = 0;
	in->err = 0;
	return 0;
}
