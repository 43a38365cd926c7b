/*
 * tests/tools/pcaploop.c - the bare libpcap baseline for the benchmarks.
 *
 *	pcaploop FILE
 *
 * Reads every record of a pcap or pcapng file with pcap_next_ex() and
 * nothing else: no decoding, no output per record.  The sum of the
 * captured lengths is printed with the count so the compiler cannot drop
 * the loop.  tests/bench.sh compares `urbscope read` against this: the
 * cost of reading the file is the floor under any analyzer.
 */

#include <stdint.h>
#include <stdio.h>

#include <pcap/pcap.h>

int
main(int argc, char **argv)
{
	char			 errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr	*h;
	const u_char		*data;
	pcap_t			*p;
	uint64_t		 n = 0, bytes = 0;
	int			 rc;

	if (argc != 2) {
		fprintf(stderr, "usage: pcaploop FILE\n");
		return 2;
	}
	if ((p = pcap_open_offline(argv[1], errbuf)) == NULL) {
		fprintf(stderr, "pcaploop: %s\n", errbuf);
		return 1;
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		n++;
		bytes += h->caplen;
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "pcaploop: %s: record %llu: %s\n", argv[1],
		    (unsigned long long)n + 1, pcap_geterr(p));
		pcap_close(p);
		return 1;
	}
	pcap_close(p);
	printf("%llu records, %llu bytes\n", (unsigned long long)n,
	    (unsigned long long)bytes);
	return 0;
}
