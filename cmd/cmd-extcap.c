/*
 * cmd/cmd-extcap.c - urbscope as a Wireshark extcap: Wireshark (and
 * tshark) run the program in their extcap folder with the arguments of
 * Wireshark's doc/README.extcap and extcap.h, and read what it writes to a
 * FIFO as a capture.  `make install` links urbscope there; the arguments
 * are taken as `urbscope extcap ...` or straight after the program name.
 *
 *   --extcap-interfaces [--extcap-version=X]   what urbscope offers
 *   --extcap-interface IF --extcap-dlts        its link type (220)
 *   --extcap-interface IF --extcap-config      its options
 *   --extcap-interface IF --extcap-capture-filter F
 *                                              is F a filter (-Y)?
 *   --extcap-interface IF --capture --fifo PATH [--extcap-capture-filter F]
 *                                              capture into PATH
 *
 * The interfaces: urbscope-usbmonN for each bus usbmon can watch (live
 * capture as `urbscope capture -i usbmonN`, driver events with --drivers),
 * and urbscope-sim, the simulated machine running a scenario (as
 * `urbscope sim SCENARIO -w`), in real time or as fast as it goes.  The
 * capture filter is urbscope's display filter language: what it shows is
 * what Wireshark gets.  Wireshark takes anything on standard error as an
 * error (its "Error by extcap pipe" dialog), so a capture's own lines there
 * (the start line, the summary) are kept back and said only when the
 * capture fails; its statistics reach Wireshark in the file's statistics
 * block.  Wireshark stops a capture with SIGTERM: the file is closed
 * complete.
 */
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/sysfs.h"
#include "hcd/machine.h"
#include "cmd.h"

#define XC_PREFIX	"urbscope-"
#define XC_SIM		"urbscope-sim"
#define XC_FILTER_NODES	64

enum {
	XO_INTERFACES = 256,
	XO_VERSION,
	XO_INTERFACE,
	XO_DLTS,
	XO_CONFIG,
	XO_CAPTURE,
	XO_FIFO,
	XO_FILTER,
	XO_CONTROL_IN,
	XO_CONTROL_OUT,
	XO_RELOAD,
	XO_DRIVERS,
	XO_SNAPLEN,
	XO_NO_DESC,
	XO_SCENARIO,
	XO_SCENARIO_FILE,
	XO_PACE,
};

static volatile sig_atomic_t extcap_stop;

static void
extcap_usage(FILE *f)
{
	fprintf(f,
	    "usage: urbscope extcap --extcap-interfaces\n"
	    "       urbscope extcap --extcap-interface IF --extcap-dlts | "
	    "--extcap-config\n"
	    "       urbscope extcap --extcap-interface IF "
	    "--extcap-capture-filter FILTER\n"
	    "       urbscope extcap --extcap-interface IF --capture --fifo "
	    "PATH [OPTIONS]\n"
	    "urbscope as a Wireshark extcap: 'make install' links urbscope "
	    "into\nWireshark's extcap folder (install-user: "
	    "~/.local/lib/wireshark/extcap),\nand Wireshark lists "
	    "urbscope-usbmonN (live, with driver events) and\n"
	    "urbscope-sim (the simulated machine) among its interfaces: "
	    "tshark -D,\ntshark -i urbscope-sim -a packets:100 -w F.  "
	    "The arguments are\nWireshark's (doc/README.extcap); they are "
	    "also taken without 'extcap'.\n\n"
	    "  --drivers            (usbmon) trace the drivers with eBPF\n"
	    "  --snaplen N          (usbmon) keep N bytes of each record\n"
	    "  --no-descriptors     (usbmon) leave out the descriptor "
	    "records\n"
	    "                       read from sysfs at the start\n"
	    "  --scenario NAME      (sim) a built-in scenario (default "
	    "demo)\n"
	    "  --scenario-file F    (sim) a scenario file instead\n"
	    "  --pace realtime|fast (sim) the scenario's own time, or as "
	    "fast\n"
	    "                       as it runs (default realtime)\n"
	    "  --extcap-capture-filter FILTER\n"
	    "                       urbscope's filter (-Y): only what it "
	    "shows\n"
	    "                       is captured\n");
}

/* The buses usbmon can watch here: 0 (all) and each root hub's. */
static size_t
extcap_buses(unsigned *bus, size_t max)
{
	struct sysfs_usb_dev *devs = NULL;
	const char	*root = cap_live_root();
	char		 path[512], err[300];
	struct stat	 sb;
	size_t		 ndevs = 0, i, n = 0;

	snprintf(path, sizeof path, "%s/dev/usbmon0", root);
	if (stat(path, &sb) != 0) {
		snprintf(path, sizeof path, "%s/sys/module/usbmon", root);
		if (stat(path, &sb) != 0)
			return 0;	/* usbmon not loaded: none */
	}
	bus[n++] = 0;
	snprintf(path, sizeof path, "%s/sys", root);
	if (sysfs_usb_scan(path, &devs, &ndevs, err, sizeof err) != 0)
		return n;
	for (i = 0; i < ndevs && n < max; i++)
		if (strncmp(devs[i].name, "usb", 3) == 0)
			bus[n++] = devs[i].busnum;
	sysfs_usb_free(devs, ndevs);
	return n;
}

static int
extcap_interfaces(void)
{
	unsigned	 bus[64];
	size_t		 n, i;

	printf("extcap {version=%s}{display=urbscope USB analyzer}"
	    "{help=https://www.kernel.org/doc/html/latest/usb/usbmon.html}\n",
	    cmd_version());
	n = extcap_buses(bus, 64);
	for (i = 0; i < n; i++) {
		if (bus[i] == 0)
			printf("interface {value=" XC_PREFIX "usbmon0}"
			    "{display=urbscope: all USB buses (usbmon, driver "
			    "events)}\n");
		else
			printf("interface {value=" XC_PREFIX "usbmon%u}"
			    "{display=urbscope: USB bus %u (usbmon, driver "
			    "events)}\n", bus[i], bus[i]);
	}
	printf("interface {value=" XC_SIM "}{display=urbscope: simulated USB "
	    "machine (scenarios, driver events)}\n");
	return 0;
}

/* The bus of "urbscope-usbmonN" into *bus; -1 when the name is none. */
static int
extcap_bus(const char *ifname, int *bus)
{
	const char	*p;
	char		*end;
	long		 v;

	if (strncmp(ifname, XC_PREFIX "usbmon", strlen(XC_PREFIX "usbmon"))
	    != 0)
		return -1;
	p = ifname + strlen(XC_PREFIX "usbmon");
	v = strtol(p, &end, 10);
	if (*p < '0' || *p > '9' || *end != '\0' || v < 0 || v > 255)
		return -1;
	*bus = (int)v;
	return 0;
}

static int
extcap_config(int sim)
{
	const char *const *s;

	if (!sim) {
		printf("arg {number=0}{call=--drivers}{display=Trace drivers "
		    "(eBPF)}{tooltip=Driver events (probe, submit, giveback, "
		    "rules) beside the URBs, as capture --drivers}"
		    "{type=boolflag}{default=false}{group=Capture}\n");
		printf("arg {number=1}{call=--snaplen}{display=Snap length}"
		    "{tooltip=Bytes kept of each record (0: all)}"
		    "{type=unsigned}{range=0,%d}{default=0}{group=Capture}\n",
		    CAP_SNAPLEN_MAX);
		printf("arg {number=2}{call=--no-descriptors}{display=No "
		    "descriptor records}{tooltip=Leave out the GET_DESCRIPTOR "
		    "records read from sysfs for the devices already there}"
		    "{type=boolflag}{default=false}{group=Capture}\n");
		return 0;
	}
	printf("arg {number=0}{call=--scenario}{display=Scenario}"
	    "{tooltip=A built-in scenario of the simulated machine}"
	    "{type=selector}{group=Simulation}\n");
	for (s = sim_scenario_names; *s != NULL; s++)
		printf("value {arg=0}{value=%s}{display=%s}{default=%s}\n",
		    *s, *s, strcmp(*s, "demo") == 0 ? "true" : "false");
	printf("arg {number=1}{call=--scenario-file}{display=Scenario file}"
	    "{tooltip=A scenario of your own (urbscope(1), SCENARIOS); it "
	    "goes before the built-in one}{type=fileselect}{mustexist=true}"
	    "{group=Simulation}\n");
	printf("arg {number=2}{call=--pace}{display=Pace}{tooltip=The "
	    "scenario's own time, or as fast as the machine runs it}"
	    "{type=radio}{group=Simulation}\n");
	printf("value {arg=2}{value=realtime}{display=Real time}"
	    "{default=true}\n");
	printf("value {arg=2}{value=fast}{display=As fast as possible}"
	    "{default=false}\n");
	return 0;
}

/* Is expr a filter?  Wireshark takes a line on standard output as the
 * reason it is not, and nothing as yes. */
static int
extcap_check_filter(const char *expr)
{
	struct dec_fnode nodes[XC_FILTER_NODES];
	struct dec_filter f;
	int		 rc;

	memset(&f, 0, sizeof f);
	f.node = nodes;
	f.max = XC_FILTER_NODES;
	rc = dec_filter_compile(&f, expr);
	if (rc < 0)
		printf("%s\n", f.err);
	dec_filter_free(&f);
	fflush(stdout);
	return rc < 0 ? EXIT_INPUT : 0;
}

static void
extcap_on_signal(int sig)
{
	(void)sig;
	extcap_stop = 1;
}

/*
 * Run fn with standard error kept back in a temporary file: said (on the
 * real standard error) when fn fails, dropped when it succeeds.
 */
static int
extcap_quiet(int (*fn)(void *), void *arg)
{
	FILE	*keep;
	char	 buf[4096];
	size_t	 n;
	int	 saved, rc;

	fflush(stderr);
	if ((keep = tmpfile()) == NULL || (saved = dup(STDERR_FILENO)) < 0) {
		if (keep != NULL)
			fclose(keep);
		return fn(arg);
	}
	dup2(fileno(keep), STDERR_FILENO);
	rc = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	if (rc != 0) {
		rewind(keep);
		while ((n = fread(buf, 1, sizeof buf, keep)) > 0)
			fwrite(buf, 1, n, stderr);
	}
	fclose(keep);
	return rc;
}

struct extcap_run {
	int		 bus;		/* -1: the simulator */
	const char	*fifo;
	const char	*filter;
	int		 drivers;
	const char	*snaplen;
	int		 no_desc;
	const char	*scenario;
	int		 fast;
};

/* A live capture: `urbscope capture` with the options it takes. */
static int
extcap_live(void *arg)
{
	const struct extcap_run *x = arg;
	char		 ifname[32], *filter = NULL, *argv[16];
	int		 argc = 0, rc;
	size_t		 n;

	snprintf(ifname, sizeof ifname, "usbmon%d", x->bus);
	argv[argc++] = (char *)"capture";
	argv[argc++] = (char *)"-i";
	argv[argc++] = ifname;
	argv[argc++] = (char *)"-q";
	argv[argc++] = (char *)"-F";
	argv[argc++] = (char *)"pcapng";
	argv[argc++] = (char *)"-w";
	argv[argc++] = (char *)x->fifo;
	if (x->drivers)
		argv[argc++] = (char *)"--drivers";
	if (x->snaplen != NULL && strcmp(x->snaplen, "0") != 0) {
		argv[argc++] = (char *)"-s";
		argv[argc++] = (char *)x->snaplen;
	}
	if (x->no_desc || (x->filter != NULL && *x->filter != '\0')) {
		n = (x->filter != NULL ? strlen(x->filter) : 0) + 32;
		if ((filter = malloc(n)) == NULL) {
			cmd_warnx("out of memory");
			return EXIT_INPUT;
		}
		if (x->no_desc && x->filter != NULL && *x->filter != '\0')
			snprintf(filter, n, "!synthetic && (%s)", x->filter);
		else if (x->no_desc)
			snprintf(filter, n, "!synthetic");
		else
			snprintf(filter, n, "%s", x->filter);
		argv[argc++] = (char *)"-Y";
		argv[argc++] = filter;
	}
	argv[argc] = NULL;
	rc = cmd_run(&cmd_capture_entry, argc, argv);
	free(filter);
	return rc;
}

/* The simulator: the scenario's records into the FIFO, at its pace. */
static int
extcap_sim(void *arg)
{
	const struct extcap_run *x = arg;
	struct convert_opts o;
	struct sigaction sa;
	char		*name;
	int		 rc;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = extcap_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if ((name = malloc(strlen(x->scenario) + 5)) == NULL) {
		cmd_warnx("out of memory");
		return EXIT_INPUT;
	}
	sprintf(name, "sim:%s", x->scenario);
	memset(&o, 0, sizeof o);
	o.filter = x->filter != NULL && *x->filter != '\0' ? x->filter : NULL;
	o.pace = !x->fast;
	o.stop = &extcap_stop;
	rc = convert_run_opts(name, x->fifo, "pcapng", &o);
	free(name);
	return rc;
}

static int
extcap_exec(const struct cmd_entry *ce, struct cmd_args *a)
{
	struct extcap_run x;
	const char	*ifname = args_get(a, XO_INTERFACE);
	const char	*pace = args_get(a, XO_PACE);
	const char	*const *s;
	const char	*file = args_get(a, XO_SCENARIO_FILE);

	(void)ce;
	if (args_has(a, XO_INTERFACES))
		return extcap_interfaces();
	if (ifname == NULL) {
		cmd_warnx("extcap: --extcap-interfaces, or --extcap-interface "
		    "IF with what to do ('urbscope extcap --help')");
		return EXIT_USAGE;
	}
	memset(&x, 0, sizeof x);
	if (strcmp(ifname, XC_SIM) == 0)
		x.bus = -1;
	else if (extcap_bus(ifname, &x.bus) != 0) {
		cmd_warnx("extcap: no interface %s: %s, %susbmonN", ifname,
		    XC_SIM, XC_PREFIX);
		return EXIT_USAGE;
	}
	if (args_has(a, XO_DLTS)) {
		printf("dlt {number=220}{name=USB_LINUX_MMAPPED}{display=USB "
		    "packets with Linux header and padding}\n");
		return 0;
	}
	if (args_has(a, XO_CONFIG))
		return extcap_config(x.bus < 0);
	x.filter = args_get(a, XO_FILTER);
	if (!args_has(a, XO_CAPTURE)) {
		if (x.filter != NULL)
			return extcap_check_filter(x.filter);
		cmd_warnx("extcap: --extcap-dlts, --extcap-config, "
		    "--extcap-capture-filter or --capture");
		return EXIT_USAGE;
	}
	if ((x.fifo = args_get(a, XO_FIFO)) == NULL) {
		cmd_warnx("extcap: --capture writes to --fifo PATH");
		return EXIT_USAGE;
	}
	if (x.filter != NULL && extcap_check_filter(x.filter) != 0)
		return EXIT_USAGE;
	if (x.bus >= 0) {
		x.drivers = args_has(a, XO_DRIVERS);
		x.snaplen = args_get(a, XO_SNAPLEN);
		x.no_desc = args_has(a, XO_NO_DESC);
		return extcap_quiet(extcap_live, &x);
	}
	x.scenario = args_get(a, XO_SCENARIO);
	if (file != NULL && *file != '\0')
		x.scenario = file;
	else if (x.scenario == NULL || *x.scenario == '\0')
		x.scenario = "demo";
	else {
		for (s = sim_scenario_names; *s != NULL; s++)
			if (strcmp(*s, x.scenario) == 0)
				break;
		if (*s == NULL) {
			cmd_warnx("extcap: no built-in scenario %s",
			    x.scenario);
			return EXIT_USAGE;
		}
	}
	if (pace != NULL && strcmp(pace, "fast") != 0 &&
	    strcmp(pace, "realtime") != 0) {
		cmd_warnx("extcap: --pace realtime or fast, not %s", pace);
		return EXIT_USAGE;
	}
	x.fast = pace != NULL && strcmp(pace, "fast") == 0;
	return extcap_quiet(extcap_sim, &x);
}

static const struct option extcap_longopts[] = {
	{ "extcap-interfaces", no_argument, NULL, XO_INTERFACES },
	{ "extcap-version", optional_argument, NULL, XO_VERSION },
	{ "extcap-interface", required_argument, NULL, XO_INTERFACE },
	{ "extcap-dlts", no_argument, NULL, XO_DLTS },
	{ "extcap-config", no_argument, NULL, XO_CONFIG },
	{ "capture", no_argument, NULL, XO_CAPTURE },
	{ "fifo", required_argument, NULL, XO_FIFO },
	{ "extcap-capture-filter", required_argument, NULL, XO_FILTER },
	{ "extcap-control-in", required_argument, NULL, XO_CONTROL_IN },
	{ "extcap-control-out", required_argument, NULL, XO_CONTROL_OUT },
	{ "extcap-reload-option", required_argument, NULL, XO_RELOAD },
	{ "drivers", no_argument, NULL, XO_DRIVERS },
	{ "snaplen", required_argument, NULL, XO_SNAPLEN },
	{ "no-descriptors", no_argument, NULL, XO_NO_DESC },
	{ "scenario", required_argument, NULL, XO_SCENARIO },
	{ "scenario-file", required_argument, NULL, XO_SCENARIO_FILE },
	{ "pace", required_argument, NULL, XO_PACE },
	{ NULL, 0, NULL, 0 }
};

const struct cmd_entry cmd_extcap_entry = {
	.name = "extcap",
	.usage = "--extcap-interfaces | --extcap-interface IF ...",
	.help = "urbscope as a Wireshark extcap (live usbmon with driver "
	    "events, the simulator)",
	.template = "",
	.longopts = extcap_longopts,
	.lower = 0,
	.upper = 0,
	.extra = "the extcap takes options only",
	.usage_fn = extcap_usage,
	.exec = extcap_exec,
};
