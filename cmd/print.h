/*
 * cmd/print.h - printing a pipe's records (print.c), shared by
 * read, capture and sim.
 */
#ifndef CMD_PRINT_H
#define CMD_PRINT_H

#include "capture/capture.h"
#include "cmd.h"

/* The getopt letters the printer takes, and their help lines. */
#define PRINT_OPTS	"E:e:T:t:VY:"
extern const char print_usage[];
/* Its long options, for the entries' longopts. */
#define PRINT_OPT_COLLAPSE	0x100
#define PRINT_OPT_DECODE_AS	0x101
#define PRINT_OPT_TRANSFERS	0x102
#define PRINT_OPT_TREE		0x103
#define PRINT_OPT_KEYS		0x104
#define PRINT_LONGOPTS \
	{ "keys", required_argument, NULL, PRINT_OPT_KEYS }, \
	{ "collapse", no_argument, NULL, PRINT_OPT_COLLAPSE }, \
	{ "decode-as", required_argument, NULL, PRINT_OPT_DECODE_AS }, \
	{ "transfers", no_argument, NULL, PRINT_OPT_TRANSFERS }, \
	{ "tree", no_argument, NULL, PRINT_OPT_TREE }

#define PRINT_MAX_DECODE_AS	16

#define PRINT_MAX_FIELDS	64

enum print_mode {
	PM_TEXT,
	PM_VERBOSE,
	PM_JSON,
	PM_USBMON,
	PM_FIELDS,
	PM_KEYS,
};

/* -T keys: what one keyboard typed. */
#define PRINT_MAX_KEYBOARDS	16
struct print_kbd {
	uint16_t	 busnum;
	uint8_t		 devnum;
	int16_t		 intf;
	uint64_t	 reports;	/* read */
	uint64_t	 unread;	/* its reports that did not read */
	uint64_t	 first_unread;	/* the frame of the first of them */
	struct dec_keys	 keys;		/* its text */
};

struct printer {
	enum print_mode	 mode;
	int		 verbose;	/* -V */
	int		 collapse;	/* --collapse */
	struct dec_fold	 fold;
	int		 transfers;	/* --transfers */
	int		 tree;		/* --tree */
	struct dec_xfer	 xfer;
	const char	*open_mark;	/* --transfers: what the rows of the
					   submits still open say */
	int		 quiet;		/* read -q: no notes on stderr */
	struct dec_fmt	 fmt;
	int		 notime_note;	/* -t a or e: say it if a record
					 * has no wall-clock time */
	const char	*expr;		/* -Y, or NULL */
	const char	*decode_as[PRINT_MAX_DECODE_AS];	/* --decode-as */
	size_t		 ndecode_as;
	const char	*fields[PRINT_MAX_FIELDS];
	struct dec_fref	 frefs[PRINT_MAX_FIELDS];	/* fields resolved */
	size_t		 nfields;
	struct dec_fields_opts fopts;	/* -E */
	int		 fopts_given;
	int		 fheader;	/* -E header=y */
	int		 event_fields;	/* -e or -Y names an event's own
					   field: -T fields prints events */
	struct dec_node	*nodes;		/* a record's tree */
	char		*arena;
	struct sbuf	 out;		/* what goes to standard output */
	struct cap_as_usbmon as_usbmon;	/* -T usbmon of a USBPcap capture */
	struct print_kbd kbd[PRINT_MAX_KEYBOARDS];	/* -T keys */
	size_t		 nkbd;
	int		 keys_mode;	/* --keys: DEC_KEYS_* */
	int		 keys_opt;	/* --keys was given */
};

void	 print_init(struct printer *pr);
/* -G fields: every field name, a line each: name, type, description. */
void	 print_field_list(FILE *f);
/* The PRINT_OPTS among a command's options: 0, or -1 when one is bad
 * (said). */
int	 print_args(struct printer *pr, const struct cmd_args *a);
/* Was any of them given? */
int	 print_chosen(const struct printer *pr);
/*
 * Check the options together and set the pipe's filter; 0, or minus the
 * exit status (EXIT_USAGE, EXIT_INPUT) after saying why.
 */
int	 print_begin(struct printer *pr, struct cap_pipe *pipe);
/* The record pipe just read (kind from cap_pipe_next), if the filter
 * passes it; flushes now and then.  0, or -1 after saying why. */
int	 print_record(struct printer *pr, struct cap_pipe *pipe, int kind);
/* Put what the printer still holds (folded lines) into its buffer: call
 * before the last print_flush. */
void	 print_last(struct printer *pr);
/* Write what is buffered; -1 on a write error (errno). */
int	 print_flush(struct printer *pr);
/* The URBs never completed, on stderr (text and -V only). */
void	 print_pending(const struct printer *pr, const struct cap_pipe *pipe);
void	 print_end(struct printer *pr);

#endif /* CMD_PRINT_H */
