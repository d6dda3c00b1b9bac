// SPDX-License-Identifier: GPL-2.0
/*
 * Output: the trace (one line per send, receive, timer, event, decision),
 * the JSON object per run (--json) and the plain text summary.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "sim.h"

/*
 * The options of the algorithm that not every algorithm has, at the
 * values in effect, keyed as electionctl -j show keys them.
 */
static void put_json_options(const struct sim_params *p)
{
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		u64 v = elec_opt_report(&p->cfg, o);
		char key[40];

		if (d->flags & ELEC_OPTF_ALL ||
		    !elec_opt_applies(o, p->ops->algo))
			continue;
		elec_opt_json_key(o, key, sizeof(key));
		if (d->kind == ELEC_OPTK_ON || d->kind == ELEC_OPTK_OFF)
			printf("\"%s\":%s,", key, v ? "true" : "false");
		else if (d->kind == ELEC_OPTK_WORD)
			printf("\"%s\":\"%s\",", key, elec_opt_word(o, v) ?: "?");
		else
			printf("\"%s\":%llu,", key, (unsigned long long)v);
	}
}

/* message type names as electionctl -j stats spells them */
const char *out_msg_name(u8 type)
{
	return elec_msg_name(type) ?: "unknown";
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/*
 * A ring payload for the trace: " hop=H" and what follows it (ring: the
 * id or leader; ring-all: the origin, and the leader of a COORDINATOR;
 * ring-list: the ids). Empty for an empty payload (Bully, heartbeats).
 */
void out_payload(char *buf, size_t cap, u8 algo, u8 type, const u8 *pl,
		 u16 len)
{
	size_t o = 0;
	u32 i, n;

	buf[0] = 0;
	if (!len || !pl)
		return;
	if (!elec_algo_is_ring(algo) || len < 4 ||
	    (type != ELEC_MSG_ACK && type != ELEC_MSG_ELECTION &&
	     type != ELEC_MSG_COORDINATOR)) {
		snprintf(buf, cap, " len=%u", len);
		return;
	}
	o += snprintf(buf + o, cap - o, " hop=%u", be32(pl));
	pl += 4;
	len -= 4;
	if (type == ELEC_MSG_ACK)
		return;
	switch (algo) {
	case ELEC_ALGO_RING:
		if (len >= 4)
			snprintf(buf + o, cap - o, " %s=%u",
				 type == ELEC_MSG_ELECTION ? "id" : "leader",
				 be32(pl));
		break;
	case ELEC_ALGO_RING_ALL:
		if (type == ELEC_MSG_ELECTION && len >= 4)
			snprintf(buf + o, cap - o, " origin=%u", be32(pl));
		else if (len >= 8)
			snprintf(buf + o, cap - o, " leader=%u origin=%u",
				 be32(pl), be32(pl + 4));
		break;
	case ELEC_ALGO_RING_LIST:
		if (len < 4)
			break;
		n = (u32)pl[0] << 8 | pl[1];
		o += snprintf(buf + o, cap - o, " ids=");
		for (i = 0; i < n && 4 + 4 * i + 4 <= len; i++) {
			if (o + 16 >= cap) {
				snprintf(buf + o, cap - o, "...(%u)", n);
				return;
			}
			o += snprintf(buf + o, cap - o, "%s%u", i ? "," : "",
				      be32(pl + 4 + 4 * i));
		}
		break;
	}
}

const char *out_dur(char *buf, size_t cap, u64 ns)
{
	if (!ns)
		snprintf(buf, cap, "0s");
	else if (ns >= 1000000000ULL)
		snprintf(buf, cap, "%.6gs", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, cap, "%.6gms", ns / 1e6);
	else if (ns >= 1000ULL)
		snprintf(buf, cap, "%.6gus", ns / 1e3);
	else
		snprintf(buf, cap, "%lluns", (unsigned long long)ns);
	return buf;
}

/*
 * --timeline FILE: the run in the Trace Event format (a JSON object with
 * "traceEvents"; chrome://tracing and ui.perfetto.dev open it): one track
 * per node, holding a span per view of the leader ("leads", "follows K",
 * "no leader", "down") and an instant event per trace line (send, recv,
 * timer, event, decide, ...). Times are the virtual clock's, in us.
 */
#define TL_DOWN	0xffffffffu

static void tl_sep(struct sim *s)
{
	fputs(s->tl_events++ ? ",\n" : "\n", s->timeline);
}

static void tl_str(FILE *f, const char *str)
{
	fputc('"', f);
	for (; *str; str++) {
		if (*str == '"' || *str == '\\')
			fputc('\\', f);
		if ((unsigned char)*str >= 0x20)
			fputc(*str, f);
	}
	fputc('"', f);
}

static u32 tl_index(const struct sim *s, u32 id)
{
	u32 i;

	for (i = 0; i < s->n; i++)
		if (s->nodes[i].id == id)
			return i;
	return s->n;
}

/* begin ("B") or end ("E") node @id's span @name */
static void tl_span(struct sim *s, u32 id, char ph, const char *name)
{
	tl_sep(s);
	fprintf(s->timeline, "{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,"
		"\"ts\":%.3f,\"name\":", ph, id, s->now / 1e3);
	tl_str(s->timeline, name);
	fputc('}', s->timeline);
}

static void tl_span_name(char *buf, size_t cap, u32 id, u32 span)
{
	if (span == TL_DOWN)
		snprintf(buf, cap, "down");
	else if (span == 1)
		snprintf(buf, cap, "no leader");
	else if (span - 1 == id)
		snprintf(buf, cap, "leads");
	else
		snprintf(buf, cap, "follows %u", span - 1);
}

/* node @id's span becomes @span (0: none) */
static void tl_switch(struct sim *s, u32 id, u32 span)
{
	u32 i = tl_index(s, id);
	char name[32];

	if (i >= s->n || s->tl_span[i] == span)
		return;
	if (s->tl_span[i]) {
		tl_span_name(name, sizeof(name), id, s->tl_span[i]);
		tl_span(s, id, 'E', name);
	}
	s->tl_span[i] = span;
	if (span) {
		tl_span_name(name, sizeof(name), id, span);
		tl_span(s, id, 'B', name);
	}
}

/* one trace line: an instant event, and the span it changes */
static void tl_line(struct sim *s, const char *line)
{
	char *end, verb[16] = "";
	unsigned long id = strtoul(line, &end, 10);
	const char *rest = line;
	unsigned int leader;

	if (end != line && *end == ' ') {
		rest = end + 1;
		sscanf(rest, "%15s", verb);
	} else {
		id = 0;		/* the scenario's own lines */
	}
	tl_sep(s);
	fprintf(s->timeline, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,"
		"\"tid\":%lu,\"ts\":%.3f,\"cat\":", id, s->now / 1e3);
	tl_str(s->timeline, verb[0] ? verb : "scenario");
	fputs(",\"name\":", s->timeline);
	tl_str(s->timeline, rest);
	fputc('}', s->timeline);
	if (!id)
		return;
	if (!strcmp(verb, "decide") &&
	    sscanf(rest, "decide leader=%u", &leader) == 1)
		tl_switch(s, (u32)id, leader + 1);
	else if (!strcmp(verb, "crash") || !strcmp(verb, "down"))
		tl_switch(s, (u32)id, TL_DOWN);
	else if (!strcmp(verb, "recover"))
		tl_switch(s, (u32)id, 0);
}

int out_timeline_open(struct sim *s, const char *path)
{
	u32 i;

	s->timeline = fopen(path, "w");
	s->tl_span = calloc(s->n ? s->n : 1, sizeof(*s->tl_span));
	if (!s->timeline || !s->tl_span) {
		fprintf(stderr, "electsim: --timeline: cannot write '%s': %s\n",
			path, strerror(errno));
		if (s->timeline)
			fclose(s->timeline);
		s->timeline = NULL;
		return -1;
	}
	if (!s->trace) {
		/* the trace's call sites are what feed the timeline */
		s->trace = fopen("/dev/null", "w");
		s->trace_null = 1;
		if (!s->trace)
			return -1;
	}
	fprintf(s->timeline, "{\"displayTimeUnit\":\"ns\",\"otherData\":"
		"{\"algo\":\"%s\",\"nodes\":%u,\"seed\":%llu},"
		"\"traceEvents\":[", s->p->ops->name, s->n,
		(unsigned long long)s->p->seed);
	tl_sep(s);
	fputs("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
	      "\"args\":{\"name\":\"electsim\"}}", s->timeline);
	tl_sep(s);
	fputs("{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"thread_name\","
	      "\"args\":{\"name\":\"scenario\"}}", s->timeline);
	for (i = 0; i < s->n; i++) {
		tl_sep(s);
		fprintf(s->timeline, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"name\":\"thread_name\",\"args\":{\"name\":"
			"\"node %u\"}}", s->nodes[i].id, s->nodes[i].id);
	}
	return 0;
}

void out_timeline_close(struct sim *s)
{
	u32 i;

	if (s->timeline) {
		for (i = 0; i < s->n; i++)
			tl_switch(s, s->nodes[i].id, 0);
		fputs("\n]}\n", s->timeline);
		fclose(s->timeline);
		s->timeline = NULL;
	}
	free(s->tl_span);
	s->tl_span = NULL;
	if (s->trace_null && s->trace)
		fclose(s->trace);
	s->trace = NULL;
	s->trace_null = 0;
}

void out_trace(struct sim *s, const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!s->trace_null)
		fprintf(s->trace, "%llu %s\n", (unsigned long long)s->now, line);
	if (s->timeline)
		tl_line(s, line);
}

void out_result(const struct sim_params *p, const struct run_result *r)
{
	u8 t;

	if (p->json) {
		printf("{\"algo\":\"%s\",\"nodes\":%u,\"scenario\":\"%s\","
		       "\"seed\":%llu,", p->ops->name, p->n,
		       scenario_names[p->scenario],
		       (unsigned long long)p->seed);
		if (p->initiator_all)
			printf("\"initiator\":\"all\",");
		else
			printf("\"initiator\":%u,", p->initiator);
		put_json_options(p);
		if (p->n_absent) {
			u32 i;

			printf("\"absent\":[");
			for (i = 0; i < p->n_absent; i++)
				printf("%s%u", i ? "," : "", p->absent[i]);
			printf("],");
		}
		if (p->auth)
			printf("\"auth\":true,\"auth_replay\":%llu,"
			       "\"auth_clock\":%llu,",
			       (unsigned long long)r->auth_replay,
			       (unsigned long long)r->auth_clock);
		if (p->schedule)
			printf("\"schedule\":\"%s\",", p->schedule->text);
		if (p->rx_cost_ns)
			printf("\"rx_cost_ns\":%llu,",
			       (unsigned long long)p->rx_cost_ns);
		if (p->jitter_p > 0)
			printf("\"jitter\":{\"p\":%.17g,\"max_ns\":%llu},",
			       p->jitter_p,
			       (unsigned long long)p->jitter_max_ns);
		if (r->leader)
			printf("\"leader\":%u,", r->leader);
		else
			printf("\"leader\":null,");
		printf("\"agreed\":%s,\"quiescent\":%s,\"messages\":%llu,"
		       "\"by_type\":{", r->agreed ? "true" : "false",
		       r->stable ? "true" : "false",
		       (unsigned long long)r->messages);
		for (t = ELEC_MSG_ELECTION; t <= ELEC_MSG_MAX; t++)
			printf("%s\"%s\":%llu", t > ELEC_MSG_ELECTION ? "," : "",
			       out_msg_name(t),
			       (unsigned long long)r->by_type[t]);
		printf("},\"deliveries\":%llu,\"deliveries_by_type\":{",
		       (unsigned long long)r->deliveries);
		for (t = ELEC_MSG_ELECTION; t <= ELEC_MSG_MAX; t++)
			printf("%s\"%s\":%llu", t > ELEC_MSG_ELECTION ? "," : "",
			       out_msg_name(t),
			       (unsigned long long)r->deliveries_by_type[t]);
		if (p->observe)
			printf("},\"changed_after\":%s",
			       r->changed_after ? "true" : "false");
		else
			printf("}");
		if (elec_algo_is_ring(p->ops->algo))
			printf(",\"queue_full\":%llu,\"queue_max\":%u,"
			       "\"ring_skipped\":%u",
			       (unsigned long long)r->queue_full, r->queue_max,
			       r->ring_skipped);
		if (p->ops->algo == ELEC_ALGO_INVITATION)
			printf(",\"components\":%u,\"groups_reused\":%llu",
			       r->components, (unsigned long long)r->reused);
		printf(",\"elapsed_ns\":%llu,\"live\":%u,\"highest_live\":%u,"
		       "\"best_live\":%u,\"events\":%llu,\"dual_leader_ns\":%llu,"
		       "\"dual_leader_max_ns\":%llu,\"terms\":%llu,"
		       "\"leader_changes\":%llu,\"elections\":%llu}\n",
		       (unsigned long long)r->elapsed_ns, r->live, r->highest_live,
		       r->best_live, (unsigned long long)r->events,
		       (unsigned long long)r->dual_ns,
		       (unsigned long long)r->dual_max_ns,
		       (unsigned long long)r->terms,
		       (unsigned long long)r->leader_changes,
		       (unsigned long long)r->elections);
		return;
	}
	printf("%s %s nodes=%u seed=%llu: leader=%u highest_live=%u "
	       "best_live=%u agreed=%s quiescent=%s messages=%llu (",
	       p->ops->name, scenario_names[p->scenario], p->n,
	       (unsigned long long)p->seed, r->leader, r->highest_live,
	       r->best_live,
	       r->agreed ? "yes" : "no", r->stable ? "yes" : "no",
	       (unsigned long long)r->messages);
	for (t = ELEC_MSG_ELECTION; t <= ELEC_MSG_MAX; t++)
		printf("%s%s=%llu", t > ELEC_MSG_ELECTION ? " " : "",
		       out_msg_name(t), (unsigned long long)r->by_type[t]);
	/* deliveries per type after the frames, as type:count */
	printf(") deliveries=%llu (", (unsigned long long)r->deliveries);
	for (t = ELEC_MSG_ELECTION; t <= ELEC_MSG_MAX; t++)
		printf("%s%s:%llu", t > ELEC_MSG_ELECTION ? " " : "",
		       out_msg_name(t),
		       (unsigned long long)r->deliveries_by_type[t]);
	if (p->observe)
		printf(") changed_after=%s", r->changed_after ? "yes" : "no");
	else
		printf(")");
	if (elec_algo_is_ring(p->ops->algo))
		printf(" queue_full=%llu ring_skipped=%u",
		       (unsigned long long)r->queue_full, r->ring_skipped);
	if (p->ops->algo == ELEC_ALGO_INVITATION)
		printf(" components=%u groups_reused=%llu", r->components,
		       (unsigned long long)r->reused);
	{
		char e[32], d[32], dm[32];

		printf(" elapsed=%s events=%llu dual_leader=%s "
		       "dual_leader_max=%s terms=%llu\n",
		       out_dur(e, sizeof(e), r->elapsed_ns),
		       (unsigned long long)r->events,
		       out_dur(d, sizeof(d), r->dual_ns),
		       out_dur(dm, sizeof(dm), r->dual_max_ns),
		       (unsigned long long)r->terms);
	}
}
