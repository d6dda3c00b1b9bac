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
	static const char *const names[ELEC_MSG_MAX + 1] = {
		[ELEC_MSG_ELECTION] = "election",
		[ELEC_MSG_ANSWER] = "answer",
		[ELEC_MSG_COORDINATOR] = "coordinator",
		[ELEC_MSG_HEARTBEAT] = "heartbeat",
		[ELEC_MSG_ACK] = "ack",
		[ELEC_MSG_RETRY] = "retry",
		[ELEC_MSG_QUERY] = "query",
		[ELEC_MSG_CID] = "cid",
		[ELEC_MSG_ARE_YOU_COORD] = "ayc",
		[ELEC_MSG_AYC_REPLY] = "ayc_reply",
		[ELEC_MSG_INVITE] = "invite",
		[ELEC_MSG_ACCEPT] = "accept",
		[ELEC_MSG_READY] = "ready",
		[ELEC_MSG_ALIVE] = "alive",
	};

	if (type > ELEC_MSG_MAX || !names[type])
		return "unknown";
	return names[type];
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
		if (p->ops->algo == ELEC_ALGO_RING)
			printf("\"suppress\":%s,",
			       p->suppress_off ? "false" : "true");
		if (p->ops->algo == ELEC_ALGO_INVITATION)
			printf("\"search_interval_ns\":%llu,",
			       (unsigned long long)(p->search_interval_ns ?
				p->search_interval_ns :
				p->hb_interval_ns * p->hb_miss));
		else if (!elec_algo_is_ring(p->ops->algo))
			printf("\"ask_suspect\":%s,\"preempt\":%s,"
			       "\"preempt_delay_ns\":%llu,\"quorum\":%s,",
			       p->ask_suspect_off ? "false" : "true",
			       p->preempt_off ? "false" : "true",
			       (unsigned long long)p->preempt_delay_ns,
			       p->quorum ? "true" : "false");
		if (p->n_absent) {
			u32 i;

			printf("\"absent\":[");
			for (i = 0; i < p->n_absent; i++)
				printf("%s%u", i ? "," : "", p->absent[i]);
			printf("],");
		}
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
			printf(",\"queue_full\":%llu,\"queue_max\":%u",
			       (unsigned long long)r->queue_full, r->queue_max);
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
		printf(" queue_full=%llu", (unsigned long long)r->queue_full);
	if (p->ops->algo == ELEC_ALGO_INVITATION)
		printf(" components=%u groups_reused=%llu", r->components,
		       (unsigned long long)r->reused);
	printf(" elapsed=%lluns events=%llu dual_leader=%lluns "
	       "dual_leader_max=%lluns terms=%llu\n",
	       (unsigned long long)r->elapsed_ns,
	       (unsigned long long)r->events,
	       (unsigned long long)r->dual_ns,
	       (unsigned long long)r->dual_max_ns,
	       (unsigned long long)r->terms);
}
