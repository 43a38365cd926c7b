/*
 * tests/fuzz/replay.c - main() for a fuzz target built without libFuzzer:
 * runs the target once on each file named, and on each file of each
 * directory named (not recursively), as libFuzzer does with files.
 * Prints "NAME: N inputs" and exits 0 unless an input could not be read;
 * a crash or a sanitizer report ends the process as it would the fuzzer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

static int
run_file(const char *path)
{
	FILE	*fp;
	uint8_t	*buf;
	long	 n;

	if ((fp = fopen(path, "rb")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		perror(path);
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	/* an exact-size copy, so ASan sees a read one byte past the input */
	if ((buf = malloc(n > 0 ? (size_t)n : 1)) == NULL ||
	    fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		perror(path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		 path[4096];
	int		 i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]) != 0;
			n++;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
			    de->d_name);
			if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			bad |= run_file(path) != 0;
			n++;
		}
		closedir(d);
	}
	printf("%s: %d inputs\n", argv[0], n);
	return bad;
}
