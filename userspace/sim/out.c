// SPDX-License-Identifier: GPL-2.0
/*
 * Output: the trace (one line per send, receive, timer, event, decision),
 * the JSON object per run (--json) and the plain text summary.
 */
#include <stdarg.h>

#include "sim.h"

/* message type names as electionctl -j stats spells them */
const char *out_msg_name(u8 type)
{
	static const char *const names[] = {
		[ELEC_MSG_ELECTION] = "election",
		[ELEC_MSG_ANSWER] = "answer",
		[ELEC_MSG_COORDINATOR] = "coordinator",
		[ELEC_MSG_HEARTBEAT] = "heartbeat",
		[ELEC_MSG_ACK] = "ack",
		[ELEC_MSG_RETRY] = "retry",
	};

	if (type > ELEC_MSG_MAX || !names[type])
		return "unknown";
	return names[type];
}

void out_trace(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(s->trace, "%llu ", (unsigned long long)s->now);
	va_start(ap, fmt);
	vfprintf(s->trace, fmt, ap);
	va_end(ap);
	fputc('\n', s->trace);
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
		if (p->observe)
			printf("},\"changed_after\":%s",
			       r->changed_after ? "true" : "false");
		else
			printf("}");
		printf(",\"elapsed_ns\":%llu,\"live\":%u,\"highest_live\":%u,"
		       "\"events\":%llu}\n",
		       (unsigned long long)r->elapsed_ns, r->live, r->highest_live,
		       (unsigned long long)r->events);
		return;
	}
	printf("%s %s nodes=%u seed=%llu: leader=%u highest_live=%u "
	       "agreed=%s quiescent=%s messages=%llu (", p->ops->name,
	       scenario_names[p->scenario], p->n,
	       (unsigned long long)p->seed, r->leader, r->highest_live,
	       r->agreed ? "yes" : "no", r->stable ? "yes" : "no",
	       (unsigned long long)r->messages);
	for (t = ELEC_MSG_ELECTION; t <= ELEC_MSG_MAX; t++)
		printf("%s%s=%llu", t > ELEC_MSG_ELECTION ? " " : "",
		       out_msg_name(t), (unsigned long long)r->by_type[t]);
	if (p->observe)
		printf(") changed_after=%s", r->changed_after ? "yes" : "no");
	else
		printf(")");
	printf(" elapsed=%lluns events=%llu\n",
	       (unsigned long long)r->elapsed_ns,
	       (unsigned long long)r->events);
}
