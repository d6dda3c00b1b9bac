// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - electionctl: configure and watch the election.ko module.
 *
 * Global options come before the command; commands and keywords follow the
 * iproute2 style (see usage()): a keyword, command or option may be
 * abbreviated to any prefix that names only it. Hidden options for tests:
 *   --dry-run (or ELECTIONCTL_DRY_RUN=1 in the environment): parse, then
 *	print the request as JSON instead of sending it;
 *   --unchecked: skip range and required-keyword checks (syntax is still
 *	enforced), so tests can make the kernel refuse requests; key-file
 *	(key-next-file) then sends a file of up to 64 bytes as it is (a key
 *	of another length), and key-file with key none both (so the second
 *	key's keywords).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "electionctl.h"
#include "json.h"
#include "nl.h"

#define NETNS_RUN_DIR	"/var/run/netns"
#define MODULE_VERSION_FILE	"/sys/module/election/version"

void elec_usage_group(FILE *f)
{
	fputs("electionctl group add dev IF group G id ID algo ALGO [ pos P ]\n"
	      "                      [ suppress { on | off } ] [TIMING] [BULLY]\n"
	      "                      [ search-interval { DUR | 0 } ] [DETECTOR]\n"
	      "                      [ key-file PATH [ key-next-file PATH ] ]\n"
	      "electionctl group set dev IF group G [TIMING] [BULLY]\n"
	      "                      [ search-interval { DUR | 0 } ] [DETECTOR]\n"
	      "                      [ key-file PATH | key none ]\n"
	      "                      [ key-next-file PATH | key-next none ]\n"
	      "electionctl group { del | delete } dev IF group G\n"
	      "electionctl group { start | stop | elect } dev IF group G\n"
	      "electionctl group show [ dev IF ] [ group G ]\n",
	      f);
}

void elec_usage_peer(FILE *f)
{
	fputs("electionctl peer add dev IF group G id ID lladdr MAC [ pos P ]\n"
	      "electionctl peer { del | delete } dev IF group G id ID\n"
	      "electionctl peer reset dev IF group G id ID\n"
	      "electionctl peer show [ dev IF ] [ group G ] [ id ID ]\n", f);
}

static void usage_show(FILE *f)
{
	fputs("electionctl show [ dev IF ] [ group G ]\n"
	      "electionctl show dev IF group G { leader | role | term }\n", f);
}

static void usage_is_leader(FILE *f)
{
	fputs("electionctl is-leader dev IF group G\n", f);
}

static void usage_stats(FILE *f)
{
	fputs("electionctl [ -s -s | -d ] stats [ dev IF ] [ group G ]\n", f);
}

static void usage_monitor(FILE *f)
{
	fputs("electionctl [ -t | -ts ] monitor [ dev IF ] [ group G ] [ EVENT... ]\n"
	      "                      [ exit-on-reload ] [ hook-timeout DUR ]\n"
	      "                      [ exec CMD [ ARG... ] ]\n"
	      "EVENT   := { election_started | leader_changed | peer_up | peer_down |\n"
	      "            stopped }\n", f);
}

static void usage_track(FILE *f)
{
	fputs("electionctl track dev IF group G [ interface IF2 ]... [ interval DUR ]\n"
	      "                      [ fall N ] [ rise N ] [ exec CMD [ ARG... ] ]\n", f);
}

static void usage_module(FILE *f)
{
	fputs("electionctl module\n", f);
}

static void usage_algo(FILE *f)
{
	fputs("electionctl algo [ ALGO ]\n", f);
}

static void usage_genkey(FILE *f)
{
	fputs("electionctl genkey [ FILE ]\n", f);
}

static void usage_showconf(FILE *f)
{
	fputs("electionctl showconf [ dev IF ] [ group G ] [ keydir DIR ]\n"
	      "electionctl [ -force ] [ -start ] -batch FILE\n"
	      "electionctl -undo -batch FILE\n"
	      "electionctl -check FILE\n"
	      "electionctl syncconf FILE [ dry-run ]\n", f);
}

/* the syntax of every command, then the words they share */
static void usage_syntax(FILE *f)
{
	fputs("Usage: electionctl [ OPTIONS ] [ COMMAND ]\n"
	      "       electionctl help [ OBJECT ]\n"
	      "       electionctl help keywords { group-add | group-set | peer-add |\n"
	      "                                   algos | on-off | values | words }\n"
	      "       electionctl OBJECT help\n"
	      "\n", f);
	elec_usage_group(f);
	elec_usage_peer(f);
	usage_show(f);
	usage_is_leader(f);
	usage_stats(f);
	usage_monitor(f);
	usage_track(f);
	usage_module(f);
	usage_algo(f);
	usage_genkey(f);
	usage_showconf(f);
	fputs("\n"
	      "OBJECT  := { group | peer | show | is-leader | stats | monitor |\n"
	      "             track | module | algo | showconf | syncconf | genkey }\n"
	      "OPTIONS := { -j[son] | -p[retty] | -t[imestamp] | -ts[hort] |\n"
	      "             -n[etns] NETNS | -b[atch] FILE | -f[orce] | -s[tart] |\n"
	      "             -d[etails] | -u[ndo] | -c[heck] FILE | -V[ersion] |\n"
	      "             -h[elp] }\n"
	      "TIMING  := [ hb-interval DUR ] [ hb-miss N ] [ timeout DUR ]\n"
	      "           [ coord-timeout DUR ]\n"
	      "BULLY   := [ ask-suspect { on | off } ] [ preempt { on | off } ]\n"
	      "           [ preempt-delay { DUR | 0 } ] [ quorum { on | off } ]\n"
	      "           (the Bully algorithms: bully, min-bully, enh-bully)\n"
	      "DETECTOR := [ detector { fixed | adaptive } ]\n"
	      "           [ detector-margin { DUR | 0 } ] [ detector-max { DUR | 0 } ]\n"
	      "ALGO    := { bully | ring | ring-all | ring-list | min-bully | enh-bully |\n"
	      "            invitation }\n"
	      "P       := 1..4294967295: ring position (default: the id); the\n"
	      "           ring order is ascending (P, id), wrapping around\n"
	      "DUR     := an integer followed by us, ms or s, from 100us to 60s\n"
	      "ID      := 1..4294967295    G := 1..65535    N := 1..1000\n"
	      "MAC     := aa:bb:cc:dd:ee:ff (unicast)\n", f);
}

static void usage(FILE *f)
{
	usage_syntax(f);
	fputs("\n"
	      "bully: the highest id wins; min-bully: the lowest id wins\n"
	      "(Kabashi, Zeqiri and Zabeli); enh-bully: the highest id wins,\n"
	      "the upper half of the ids are asked first (Murshed and Allen).\n"
	      "suppress (algo ring only): on (default) is Chang and Roberts'\n"
	      "participant flag; off forwards the higher id without it.\n"
	      "ask-suspect on (default): an election also asks the leader whose\n"
	      "silence started it; preempt on (default): a better id (higher;\n"
	      "min-bully: lower) that joins takes over, after preempt-delay\n"
	      "(default 0); off: it follows. quorum on (default off): no leader\n"
	      "without a majority of the configured nodes (itself included)\n"
	      "naming it, so a partition's minority side has none; every node\n"
	      "then sends an ALIVE each hb-interval; set it on every node;\n"
	      "needs hb-interval x (hb-miss - 2) above 1.5 x timeout and a\n"
	      "stopped group to change.\n"
	      "invitation (Garcia-Molina): one group per side of a partition,\n"
	      "merged under the highest coordinator when it heals; each\n"
	      "coordinator searches every search-interval (default 0:\n"
	      "hb-interval x hb-miss).\n"
	      "key-file PATH: authenticate the group's frames with the key in\n"
	      "PATH (16 raw bytes, or 32 hex digits and a newline; keep it\n"
	      "mode 0600: a warning says when group or others may read it);\n"
	      "every node of the group needs the same key. key none removes\n"
	      "it. Keys are never printed; showconf writes a placeholder path,\n"
	      "or DIR/IF-G.key with keydir DIR (copy the key files there).\n"
	      "key-next-file PATH: accept frames under a second key too (same\n"
	      "file format); frames are still sent under the key. Rotating a\n"
	      "key without a gap, each step on every node before the next:\n"
	      "key-next-file NEW, then key-file NEW (the second key becomes\n"
	      "the key, the old key the second one, and the replay counters\n"
	      "stay), then key-next none (drops the second key).\n"
	      "peer reset forgets the peer's replay counters (a keyed group):\n"
	      "its frames within auth-window are taken again, for recovery\n"
	      "after its clock stepped back.\n"
	      "\n"
	      "show, stats, group show and peer show read one instance when dev\n"
	      "and group are both given, else every instance (filtered by the\n"
	      "one given); group show is show; electionctl alone, group alone\n"
	      "and peer alone show. show dev IF group G leader (or\n"
	      "role, or term) prints that value alone (leader: the id, or\n"
	      "none). is-leader dev IF group G prints nothing and exits 0 when\n"
	      "this node leads the group, 1 when it does not, 2 on any error,\n"
	      "for check scripts.\n"
	      "monitor prints a \"snapshot\" event per instance (its state now),\n"
	      "then events until interrupted, of the instances dev and group\n"
	      "select; a line with event \"gap\" reports lost events (lost = -1\n"
	      "when the count is unknown); -t and -ts add the wall-clock time.\n"
	      "EVENT words print only those events (the others still count for\n"
	      "the gaps and run no hook). Every event carries the role, leader\n"
	      "and term its protocol step left. When the module is unloaded it\n"
	      "prints \"family_gone\" and takes every instance as stopped; when\n"
	      "it is loaded again, \"family_back\" and the snapshot again;\n"
	      "exit-on-reload: exit 2 after family_gone instead. When the\n"
	      "module is not loaded and cannot be, monitor exits 2 (no wait).\n"
	      "exec CMD runs CMD (no shell) on each role change and snapshot,\n"
	      "one at a time, in order, with ELECTION_EVENT, ELECTION_DEV,\n"
	      "ELECTION_GROUP, ELECTION_ID, ELECTION_LEADER, ELECTION_TERM,\n"
	      "ELECTION_ROLE, ELECTION_PREV_ROLE, ELECTION_SEQ and\n"
	      "ELECTION_TS_NS in its environment; one running longer than\n"
	      "hook-timeout (default 30s) is killed. When the module goes, it\n"
	      "runs as ELECTION_EVENT family_gone, role stopped, leader none,\n"
	      "for each instance last seen in another role.\n"
	      "SIGTERM or SIGINT: monitor reads the events already queued,\n"
	      "runs their hooks to the end and exits 0; a second one kills the\n"
	      "running hook and exits at once.\n"
	      "track keeps the group's standby-tracked (runtime state, which\n"
	      "showconf does not write and syncconf leaves) at its decision,\n"
	      "in the foreground: on at once while an interface IF2 is down\n"
	      "(not up, or no carrier), on after CMD (exec: no shell, run\n"
	      "every interval, killed when still running at the next) failed\n"
	      "fall times in a row, off after rise successes in a row (CMD\n"
	      "exited 0, every interface up; without exec, an interval);\n"
	      "CMD gets ELECTION_DEV, ELECTION_GROUP and\n"
	      "ELECTION_STANDBY_TRACKED (on or off) in its environment.\n"
	      "Defaults: interval 1s (10ms..60s), fall 1, rise 1. It starts\n"
	      "at the kernel's value, runs the first check at once, reads the\n"
	      "kernel's value every interval and sets it again when it\n"
	      "differs; a missing group or module is reported and retried. A\n"
	      "line per change (-j: JSON). SIGTERM or SIGINT: exit 0, leaving\n"
	      "standby-tracked as it is (group set ... standby-tracked off\n"
	      "clears it). standby on (group add, set): admin standby, which\n"
	      "showconf writes; either one keeps the node from leading.\n"
	      "stats lists the counters that can count in the group (its\n"
	      "algorithm's message types; alive and quorum_lost with quorum\n"
	      "on; auth_ with a key, auth_unexpected without; queue_full,\n"
	      "retry with the rings) and\n"
	      "any other not 0; -s -s or -d lists every one (-j always has\n"
	      "every key); -s with -batch is -start.\n"
	      "peer show: \"alive no\" until the peer is heard, then when\n"
	      "(\"heard 17.4 s ago\", or \"never heard\").\n"
	      "module prints the module-wide leak counters.\n"
	      "algo lists the module's algorithms (id, message types, options)\n"
	      "and warns when the module was built from another option list.\n"
	      "showconf prints the configuration as a batch file that\n"
	      "recreates it (group add with the settings that are not the\n"
	      "default, peer add, group start when started);\n"
	      "-batch FILE runs one command per line (FILE - is stdin; #\n"
	      "starts a comment; errors name FILE:LINE). It validates every\n"
	      "line first and runs none when one is invalid; then it stops at\n"
	      "the first line the kernel refuses, unless -force: then it runs\n"
	      "every line, unvalidated; it reads the whole file (stdin too)\n"
	      "before it runs a line. -check FILE validates only (exit 0, 1\n"
	      "with the errors, 2 when the file cannot be read). -start: a\n"
	      "FILE without \"group start\" lines (hand-written) then has every\n"
	      "group a \"group add\" line created started; one with such lines\n"
	      "starts those groups only. -undo runs no line but deletes the\n"
	      "groups FILE adds, the last first (both for election@.service).\n"
	      "syncconf FILE makes the groups of the devices FILE's group add\n"
	      "lines name equal to FILE (showconf's lines; validated first):\n"
	      "adds what is missing, sets the options that differ, adds and\n"
	      "deletes peers, deletes the groups FILE does not add; a group\n"
	      "whose settings are FILE's keeps running. Another id, algo, pos\n"
	      "or suppress: deleted and added again; quorum on a running\n"
	      "group: stop, set, start. A keyed group always gets its key-file\n"
	      "(a key it has changes nothing). Each command is printed before\n"
	      "it runs; dry-run prints them only.\n"
	      "genkey writes a new random key in key-file's format (32 hex\n"
	      "digits) to FILE, created with mode 0600, or to stdout.\n"
	      "Keywords, commands and options may be abbreviated to any prefix\n"
	      "that names only one (\"gr sh\" is \"group show\"); values may not.\n"
	      "A prefix genkey shares with another command means that command\n"
	      "(\"g\" is \"group\"; genkey abbreviates to \"ge\"), and one the\n"
	      "detector keywords share with dev means dev (\"d\", \"de\").\n"
	      "-n NETNS runs the command in the network namespace NETNS (a name\n"
	      "under " NETNS_RUN_DIR ", or a path such as /proc/PID/ns/net).\n"
	      "-V prints the versions of electionctl and of the loaded module.\n"
	      "\n"
	      "Exit status: 0 success; 1 usage error or invalid arguments\n"
	      "(nothing was sent); 2 the kernel refused the request, or netlink\n"
	      "or the output failed; -batch: the highest of its lines' statuses\n"
	      "(without -force, 1: an invalid line, none sent; 2: the kernel\n"
	      "refused a line, the lines before it were sent). Errors are printed to\n"
	      "stderr as \"Error: <message>\" (in a batch \"Error: FILE:LINE:\n"
	      "<message>\"), with the kernel's extended ack message when it gave\n"
	      "one.\n", f);
}

static int cmd_syncconf(struct elec_ctx *ctx, int argc, char **argv);

/*
 * @late: a command added after users learned the short forms: a prefix it
 * shares with another command means the other ("g" is group, not genkey)
 */
static const struct elec_command {
	const char *name;
	int (*fn)(struct elec_ctx *ctx, int argc, char **argv);
	void (*usage)(FILE *f);
	bool late;
} commands[] = {
	{ "group", elec_cmd_group, elec_usage_group, false },
	{ "peer", elec_cmd_peer, elec_usage_peer, false },
	{ "show", elec_cmd_show, usage_show, false },
	{ "stats", elec_cmd_stats, usage_stats, false },
	{ "monitor", elec_cmd_monitor, usage_monitor, false },
	{ "module", elec_cmd_module, usage_module, false },
	{ "algo", elec_cmd_algo, usage_algo, false },
	{ "showconf", elec_cmd_showconf, usage_showconf, false },
	{ "help", NULL, NULL, false },
	{ "genkey", elec_cmd_genkey, usage_genkey, true },
	{ "is-leader", elec_cmd_is_leader, usage_is_leader, true },
	{ "syncconf", cmd_syncconf, usage_showconf, true },
	{ "track", elec_cmd_track, usage_track, true },
};

/*
 * Index in commands[] of the command @s names or abbreviates (@names:
 * theirs); a prefix of several means the one command that is not late,
 * if only one has it.
 */
static int command_index(const char *s, const char *const *names)
{
	const char *early[ARRAY_SIZE(commands)];
	int c = elec_lookup(s, names, NULL, ARRAY_SIZE(commands));
	int e;
	size_t i;

	if (c != ELEC_LOOKUP_AMBIGUOUS)
		return c;
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		early[i] = commands[i].late ? NULL : names[i];
	e = elec_lookup(s, early, NULL, ARRAY_SIZE(commands));
	return e >= 0 ? e : c;
}

/* commands[] entry named (or abbreviated) by @s, NULL after an error */
static const struct elec_command *find_command(const char *s)
{
	const char *names[ARRAY_SIZE(commands)];
	size_t i;
	int c;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	c = command_index(s, names);
	if (c == ELEC_LOOKUP_AMBIGUOUS) {
		elec_err("ambiguous command \"%s\": %s", s,
			 elec_lookup_candidates(s, names, ARRAY_SIZE(commands)));
		return NULL;
	}
	if (c < 0) {
		elec_err("unknown command \"%s\" (try \"electionctl help\")", s);
		return NULL;
	}
	return &commands[c];
}

/*
 * "help keywords WHAT": the words of the compiled option list, one line,
 * for the bash completion (and anyone who wants them): group-add,
 * group-set, peer-add (the keywords each takes), algos, on-off (the
 * keywords that take on or off), values (the keywords whose value is a
 * number or a duration), words (a line per keyword whose value is one of
 * a list of words: the keyword, then its words).
 */
static int help_keywords(int argc, char **argv)
{
	static const char *const whats[] = {
		"group-add", "group-set", "peer-add", "algos", "on-off",
		"values", "words",
	};
	/* the keywords that are not options, of group-add .. peer-add */
	static const char *const heads[] = {
		"dev group id algo", "dev group", "dev group id lladdr",
	};
	const char *sep = "";
	unsigned int a;
	int w, o;

	w = argc == 1 ? elec_lookup(argv[0], whats, NULL, ARRAY_SIZE(whats)) :
			-1;
	if (w < 0)
		return elec_err("\"help keywords\" takes one of group-add, group-set, peer-add, algos, on-off, values, words");
	if (w <= 2) {
		fputs(heads[w], stdout);
		sep = " ";
	}
	for (a = 1; w == 3 && a <= ELEC_ALGO_MAX; a++)
		if (elec_algo_name(a)) {
			printf("%s%s", sep, elec_algo_name(a));
			sep = " ";
		}
	for (o = 0; w != 3 && o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		bool onoff = d->kind == ELEC_OPTK_ON || d->kind == ELEC_OPTK_OFF;
		bool word = d->kind == ELEC_OPTK_WORD;
		bool want = w == 0 ? true :
			    w == 1 ? d->flags & ELEC_OPTF_SET :
			    w == 2 ? d->flags & ELEC_OPTF_NODE :
			    w == 4 ? onoff :
			    w == 5 ? !onoff && !word : word;
		int i;

		if (!want)
			continue;
		printf("%s%s", sep, d->name);
		sep = " ";
		for (i = 0; w == 6 && d->words[i]; i++)
			printf(" %s", d->words[i]);
		if (w == 6)
			sep = "\n";
	}
	if (w == 0)
		printf(" key-file key-next-file");
	else if (w == 1)
		printf(" key-file key key-next-file key-next");
	putchar('\n');
	return ELEC_EXIT_OK;
}

/* "help [OBJECT]" */
static int cmd_help(int argc, char **argv)
{
	const struct elec_command *c;

	if (argc >= 1 && !strcmp(argv[0], "keywords"))
		return help_keywords(argc - 1, argv + 1);
	if (argc == 0) {
		usage(stdout);
		return ELEC_EXIT_OK;
	}
	if (argc > 1)
		return elec_err("unexpected argument \"%s\" after \"help %s\"",
				argv[1], argv[0]);
	c = find_command(argv[0]);
	if (!c)
		return ELEC_EXIT_USAGE;
	if (!c->usage) {
		usage(stdout);
		return ELEC_EXIT_OK;
	}
	c->usage(stdout);
	return ELEC_EXIT_OK;
}

/* -n NETNS: a name under NETNS_RUN_DIR, or a path */
static int netns_switch(const char *name)
{
	char path[4096];
	int fd;

	if (!*name)
		return elec_err("empty network namespace name");
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else if (snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, name) >=
		 (int)sizeof(path))
		return elec_err("network namespace name too long");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return elec_err("cannot open network namespace \"%s\": %s",
				name, strerror(errno));
	if (setns(fd, CLONE_NEWNET)) {
		int err = errno;

		close(fd);
		if (err == EINVAL)
			return elec_err("\"%s\" is not a network namespace",
					name);
		return elec_fail("cannot enter network namespace \"%s\": %s",
				 name, strerror(err));
	}
	close(fd);
	return 0;
}

/* -V: this tool's version and the loaded module's */
static int print_version(void)
{
	char ver[64] = "";
	FILE *f = fopen(MODULE_VERSION_FILE, "r");

	printf("electionctl %s (genetlink family %s version %d)\n",
	       ELECTIONCTL_VERSION, ELECTION_GENL_NAME, ELECTION_GENL_VERSION);
	if (f) {
		if (!fgets(ver, sizeof(ver), f))
			ver[0] = '\0';
		fclose(f);
		ver[strcspn(ver, "\n")] = '\0';
	}
	if (ver[0])
		printf("election.ko %s\n", ver);
	else if (f)
		printf("election.ko loaded, version unknown\n");
	else
		printf("election.ko not loaded\n");
	return ELEC_EXIT_OK;
}

enum opt {
	OPT_JSON,
	OPT_PRETTY,
	OPT_TIMESTAMP,
	OPT_TSHORT,
	OPT_NETNS,
	OPT_BATCH,
	OPT_FORCE,
	OPT_START,
	OPT_UNDO,
	OPT_VERSION,
	OPT_HELP,
	OPT_DRY_RUN,
	OPT_UNCHECKED,
	OPT_CHECK,
	OPT_DETAILS,
};

#define OPT_SINGLE_DASH	14
/*
 * single-dash options may be abbreviated ("-t" is -timestamp, as in ip,
 * though it also begins -tshort); "--" spellings are exact
 */
static const char *const opt_names[] = {
	"-json", "-pretty", "-t", "-timestamp", "-tshort", "-netns",
	"-batch", "-force", "-start", "-undo", "-Version", "-help", "-check",
	"-details",
	"--json", "--pretty", "--timestamp", "--tshort", "--netns", "--batch",
	"--force", "--start", "--undo", "--version", "--help", "--dry-run",
	"--unchecked", "--check", "--details",
};

static const int opt_ids[] = {
	OPT_JSON, OPT_PRETTY, OPT_TIMESTAMP, OPT_TIMESTAMP, OPT_TSHORT,
	OPT_NETNS, OPT_BATCH, OPT_FORCE, OPT_START, OPT_UNDO, OPT_VERSION,
	OPT_HELP, OPT_CHECK, OPT_DETAILS,
	OPT_JSON, OPT_PRETTY, OPT_TIMESTAMP, OPT_TSHORT, OPT_NETNS, OPT_BATCH,
	OPT_FORCE, OPT_START, OPT_UNDO, OPT_VERSION, OPT_HELP, OPT_DRY_RUN,
	OPT_UNCHECKED, OPT_CHECK, OPT_DETAILS,
};

static int find_option(const char *o)
{
	int id;

	if (!strncmp(o, "--", 2)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(opt_names); i++)
			if (!strcmp(o, opt_names[i]))
				return opt_ids[i];
		return -1;
	}
	/* only the single-dash names take part in the prefix match */
	id = elec_lookup(o, opt_names, opt_ids, OPT_SINGLE_DASH);
	if (id == ELEC_LOOKUP_AMBIGUOUS)
		return -1;
	return id;
}

/* one command: argv[0] names it */
static int run_command(struct elec_ctx *ctx, int argc, char **argv,
		       bool in_batch)
{
	const struct elec_command *c = find_command(argv[0]);

	if (!c)
		return ELEC_EXIT_USAGE;
	if (!c->fn)
		return ctx->check_only ? ELEC_EXIT_OK :
					 cmd_help(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "help")) {
		if (!ctx->check_only)
			c->usage(stdout);
		return ELEC_EXIT_OK;
	}
	if (in_batch && (c->fn == elec_cmd_monitor || c->fn == elec_cmd_track))
		return elec_err("\"%s\" cannot run in a batch", c->name);
	if (in_batch && c->fn == cmd_syncconf)
		return elec_err("\"syncconf\" reads a file of its own: run it alone, not in a batch");
	if (in_batch && c->fn == elec_cmd_is_leader)
		return elec_err("\"is-leader\" answers with its exit status: run it alone, not in a batch");
	return c->fn(ctx, argc - 1, argv + 1);
}

static int run_batch_line(struct elec_ctx *ctx, int argc, char **argv)
{
	return run_command(ctx, argc, argv, true);
}

/*
 * What a batch line is: "group VERB ... dev D ... group G ..." or "peer
 * add ...", read as the parser would (dev and group in @g when both are
 * given)
 */
static enum elec_line_kind batch_line_kind(int argc, char **argv,
					   struct elec_batch_group *g)
{
	static const char *const subs[] = {
		"add", "set", "del", "delete", "start", "stop", "elect", "show",
	};
	static const enum elec_line_kind kinds[] = {
		ELEC_LINE_GROUP_ADD, ELEC_LINE_GROUP_SET, ELEC_LINE_GROUP_OTHER,
		ELEC_LINE_GROUP_OTHER, ELEC_LINE_GROUP_START,
		ELEC_LINE_GROUP_OTHER, ELEC_LINE_GROUP_OTHER,
		ELEC_LINE_GROUP_OTHER,
	};
	static const char *const peer_subs[] = {
		"add", "del", "delete", "reset", "show",
	};
	const char *names[ARRAY_SIZE(commands)];
	enum elec_line_kind kind;
	unsigned int seen = 0;
	size_t k;
	int i, c, s;

	memset(g, 0, sizeof(*g));
	for (k = 0; k < ARRAY_SIZE(commands); k++)
		names[k] = commands[k].name;
	c = argc >= 2 ? command_index(argv[0], names) : -1;
	if (c == 0) {
		s = elec_lookup(argv[1], subs, NULL, ARRAY_SIZE(subs));
		if (s < 0)
			return ELEC_LINE_OTHER;
		kind = kinds[s];
	} else if (c == 1) {
		s = elec_lookup(argv[1], peer_subs, NULL, ARRAY_SIZE(peer_subs));
		if (s < 0)
			return ELEC_LINE_OTHER;
		kind = s ? ELEC_LINE_GROUP_OTHER : ELEC_LINE_PEER_ADD;
	} else {
		return ELEC_LINE_OTHER;
	}
	for (i = 2; i + 1 < argc; i += 2) {
		int kw = elec_kw_lookup(argv[i], ~0u);
		uint64_t v;

		if (kw == ELEC_KW_DEV && strlen(argv[i + 1]) < sizeof(g->dev)) {
			strcpy(g->dev, argv[i + 1]);
			seen |= 1;
		} else if (kw == ELEC_KW_GROUP &&
			   !elec_parse_uint(argv[i + 1], 1, UINT16_MAX, &v)) {
			g->group = (uint16_t)v;
			seen |= 2;
		}
	}
	if (seen != 3)
		g->group = 0;
	return kind;
}

static const struct elec_batch_ops batch_ops = {
	.run = run_batch_line,
	.line_kind = batch_line_kind,
};

static int cmd_syncconf(struct elec_ctx *ctx, int argc, char **argv)
{
	return elec_syncconf(ctx, argc, argv, &batch_ops);
}

/* what "electionctl" alone runs */
static char *show_argv[] = { "show", NULL };

int main(int argc, char **argv)
{
	struct elec_ctx ctx = { 0 };
	const char *env = getenv("ELECTIONCTL_DRY_RUN");
	const char *netns = NULL, *batch = NULL;
	unsigned int batch_flags = 0;
	int ret, n_s = 0;

	if (env && !strcmp(env, "1"))
		ctx.dry_run = true;

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-' && argv[0][1]) {
		const char *o = argv[0];
		int id = find_option(o);

		/* -s: -start with -batch, else -s -s stats (as ip -s -s) */
		if (!strcmp(o, "-s")) {
			n_s++;
			argc--;
			argv++;
			continue;
		}
		if ((id == OPT_NETNS || id == OPT_BATCH || id == OPT_CHECK) &&
		    argc < 2)
			return elec_err("option \"%s\" needs an argument", o);
		switch (id) {
		case OPT_JSON:
			ctx.json = true;
			break;
		case OPT_PRETTY:
			elec_json_pretty = true;
			break;
		case OPT_TIMESTAMP:
			ctx.timestamp = ELEC_TS_LONG;
			break;
		case OPT_TSHORT:
			ctx.timestamp = ELEC_TS_SHORT;
			break;
		case OPT_NETNS:
			netns = argv[1];
			argc--;
			argv++;
			break;
		case OPT_BATCH:
		case OPT_CHECK:
			if (batch)
				return elec_err("\"-batch\" and \"-check\" take one file, once");
			batch = argv[1];
			if (id == OPT_CHECK)
				batch_flags |= ELEC_BATCH_CHECK;
			argc--;
			argv++;
			break;
		case OPT_FORCE:
			batch_flags |= ELEC_BATCH_FORCE;
			break;
		case OPT_START:
			batch_flags |= ELEC_BATCH_START;
			break;
		case OPT_UNDO:
			batch_flags |= ELEC_BATCH_UNDO;
			break;
		case OPT_HELP:
			usage(stdout);
			return ELEC_EXIT_OK;
		case OPT_VERSION:
			return print_version();
		case OPT_DRY_RUN:
			ctx.dry_run = true;
			break;
		case OPT_UNCHECKED:
			ctx.unchecked = true;
			break;
		case OPT_DETAILS:
			ctx.details = true;
			break;
		default:
			return elec_err("unknown option \"%s\" (try \"electionctl help\")",
					o);
		}
		argc--;
		argv++;
	}
	if (batch && n_s)
		batch_flags |= ELEC_BATCH_START;
	else
		ctx.stats = n_s;
	if (batch && argc > 0)
		return elec_err("unexpected argument \"%s\" after \"%s %s\"",
				argv[0], (batch_flags & ELEC_BATCH_CHECK) ?
				"-check" : "-batch", batch);
	if (batch_flags && !batch)
		return elec_err("\"-force\", \"-start\" and \"-undo\" apply to \"-batch\" only");
	if ((batch_flags & ELEC_BATCH_CHECK) &&
	    (batch_flags & ~ELEC_BATCH_CHECK))
		return elec_err("\"-check\" applies nothing: it does not go with \"-force\", \"-start\" or \"-undo\"");
	if ((batch_flags & ELEC_BATCH_UNDO) &&
	    (batch_flags & (ELEC_BATCH_START | ELEC_BATCH_FORCE)))
		return elec_err("\"-undo\" runs no line: it does not go with \"-start\" or \"-force\"");
	/* no command: show (as wg) */
	if (!batch && argc < 1) {
		argc = 1;
		argv = show_argv;
	}
	/* before the arguments: "dev IF" names a device of that namespace */
	if (netns) {
		ret = netns_switch(netns);
		if (ret)
			return ret;
	}
	if (batch)
		ret = elec_batch(&ctx, batch, batch_flags, &batch_ops);
	else
		ret = run_command(&ctx, argc, argv, false);
	elec_nl_close(&ctx);
	if (fflush(stdout) || ferror(stdout)) {
		/* e.g. a full disk: do not report success */
		if (!ret)
			ret = elec_fail("cannot write the output");
	}
	return ret;
}
