// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - the compiled lists as JSON, for tests/lists/check: the options
 * (options-list.h), the counters (counters-list.h), the names
 * (names-list.h) and the algorithms (their tables), as the module,
 * electionctl and electsim compile them.
 */
#include <stdio.h>

#include "core.h"
#include "names.h"

static void names(const char *key, const char *(*fn)(unsigned int),
		  unsigned int lo, unsigned int hi, int last)
{
	unsigned int v;

	printf("\"%s\": {", key);
	for (v = lo; v <= hi; v++)
		printf("%s\"%u\": \"%s\"", v == lo ? "" : ", ", v,
		       fn(v) ? fn(v) : "");
	printf("}%s\n", last ? "" : ",");
}

int main(void)
{
	static const char *const kinds[] = { "dur", "dur0", "u32", "pos", "on",
					     "off", "word" };
	unsigned int a, i;
	int o;

	printf("{\"options\": [\n");
	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		char key[40];

		elec_opt_json_key(o, key, sizeof(key));
		printf("%s{\"name\": \"%s\", \"attr\": %u, \"json\": \"%s\", \"kind\": \"%s\", \"set\": %s, \"report_all\": %s, \"node\": %s, \"algos\": [",
		       o ? ",\n" : "", d->name, d->attr, key, kinds[d->kind],
		       d->flags & ELEC_OPTF_SET ? "true" : "false",
		       d->flags & ELEC_OPTF_REPORT_ALL ? "true" : "false",
		       d->flags & ELEC_OPTF_NODE ? "true" : "false");
		for (a = 1, i = 0; a <= ELEC_ALGO_MAX; a++)
			if (elec_opt_applies(o, (u8)a))
				printf("%s\"%s\"", i++ ? ", " : "",
				       elec_algo_name(a));
		printf("]}");
	}
	printf("],\n\"counters\": [");
	for (i = 0; i < ELEC_CTR_COUNT; i++)
		printf("%s{\"name\": \"%s\", \"attr\": %u}", i ? ", " : "",
		       elec_ctrs[i].name, elec_ctrs[i].attr);
	printf("],\n\"algos\": [");
	for (a = 1, i = 0; a <= ELEC_ALGO_MAX; a++) {
		const struct elec_algo_ops *ops = elec_algo_find((u8)a);
		unsigned int t, k = 0;

		if (!ops)
			continue;
		printf("%s{\"id\": %u, \"name\": \"%s\", \"msgs\": [",
		       i++ ? ", " : "", a, ops->name);
		for (t = 0; t <= ELEC_MSG_MAX; t++)
			if (ops->msgs & ELEC_MSG_BIT(t))
				printf("%s%u", k++ ? ", " : "", t);
		printf("]}");
	}
	printf("],\n");
	names("msgs", elec_msg_name, 1, ELEC_MSG_MAX, 0);
	names("roles", elec_role_name, 0, ELEC_ROLE_MAX, 0);
	names("drops", elec_drop_name, 1, ELEC_DROP_MAX, 0);
	names("tx_drops", elec_tx_drop_name, 1, ELEC_TX_DROP_MAX, 0);
	names("events", elec_event_name, 1, ELEC_EVENT_MAX, 1);
	printf("}\n");
	return 0;
}

/*
 * Each row's kind agrees with its struct elec_config member's width, and
 * a U32 row's range fits the netlink policy's s16 bounds: the array of a
 * row that does not has a negative size, and this file does not build.
 */
#define ROW_WIDTH_DUR	8
#define ROW_WIDTH_DUR0	8
#define ROW_WIDTH_U32	4
#define ROW_WIDTH_POS	4
#define ROW_WIDTH_ON	sizeof(bool)
#define ROW_WIDTH_OFF	sizeof(bool)
#define ROW_WIDTH_WORD	sizeof(u8)
#define ELEC_OPTION(ID, nm, at, field, kd, lo, hi, ...)			\
	[ELEC_OPT_ ## ID] = sizeof(char[sizeof(((struct elec_config *)0)->field) == \
				     ROW_WIDTH_ ## kd &&		\
				     (ELEC_OPTK_ ## kd != ELEC_OPTK_U32 ||	\
				      (hi) <= 32767) ? 1 : -1]),
const unsigned char rows_ok[ELEC_OPT_COUNT] = {
#include "options-list.h"
};
