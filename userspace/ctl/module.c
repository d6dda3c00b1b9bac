// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - "electionctl [-j] module": module-wide leak accounting (live
 * instances, peers and skbs), all zero once every group is deleted, and
 * the timer worker's budget pauses (a module without them prints none).
 */
#include <inttypes.h>

#include "json.h"
#include "nl.h"

struct module_counts {
	bool seen, throttle;
	uint64_t instances, peers, skbs, throttled, throttled_ns;
};

static int module_cb(struct nlattr **tb, void *arg)
{
	struct module_counts *c = arg;

	if (!tb[ELEC_ATTR_LIVE_INSTANCES] || !tb[ELEC_ATTR_LIVE_PEERS] ||
	    !tb[ELEC_ATTR_LIVE_SKBS])
		return elec_fail("incomplete reply from the kernel");
	c->instances = nla_get_u64(tb[ELEC_ATTR_LIVE_INSTANCES]);
	c->peers = nla_get_u64(tb[ELEC_ATTR_LIVE_PEERS]);
	c->skbs = nla_get_u64(tb[ELEC_ATTR_LIVE_SKBS]);
	c->throttle = tb[ELEC_ATTR_TIMER_THROTTLED] &&
		      tb[ELEC_ATTR_TIMER_THROTTLED_NS];
	if (c->throttle) {
		c->throttled = nla_get_u64(tb[ELEC_ATTR_TIMER_THROTTLED]);
		c->throttled_ns = nla_get_u64(tb[ELEC_ATTR_TIMER_THROTTLED_NS]);
	}
	c->seen = true;
	return 0;
}

int elec_cmd_module(struct elec_ctx *ctx, int argc, char **argv)
{
	struct module_counts c = { 0 };
	struct elec_json j;
	struct nl_msg *msg;
	int ret;

	if (argc > 0)
		return elec_err("unexpected argument \"%s\" for \"module\"",
				argv[0]);
	msg = elec_nl_msg(ctx, ELEC_CMD_MODULE_GET, false);
	if (!msg)
		return ELEC_EXIT_FAIL;
	ret = elec_nl_transact(ctx, msg, module_cb, &c);
	if (ret || ctx->dry_run)
		return ret;
	if (!c.seen)
		return elec_fail("no reply from the kernel");
	if (ctx->json) {
		elec_json_init(&j, stdout);
		elec_json_obj_begin(&j, NULL);
		elec_json_u64(&j, "instances", c.instances);
		elec_json_u64(&j, "peers", c.peers);
		elec_json_u64(&j, "skbs", c.skbs);
		if (c.throttle) {
			elec_json_u64(&j, "timer_throttled", c.throttled);
			elec_json_u64(&j, "timer_throttled_ns", c.throttled_ns);
		}
		elec_json_obj_end(&j);
		putchar('\n');
	} else {
		printf("instances %" PRIu64 " peers %" PRIu64 " skbs %" PRIu64,
		       c.instances, c.peers, c.skbs);
		if (c.throttle)
			printf(" timer_throttled %" PRIu64
			       " timer_throttled_ns %" PRIu64,
			       c.throttled, c.throttled_ns);
		putchar('\n');
	}
	return 0;
}
