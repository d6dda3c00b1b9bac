// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - names of the netlink attributes and commands, formatting
 * helpers, errors. The names of algorithms, message types, roles, drop
 * reasons and events are module/core/names.c's, shared with electsim.
 *
 * Every table is indexed by its uapi enum; a value added to the uapi header
 * needs one row here and shows up in every output (unnamed values print as
 * "<kind>_<number>").
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "core.h"
#include "electionctl.h"

static const char *const attr_names[ELEC_ATTR_MAX + 1] = {
	[ELEC_ATTR_IFINDEX] = "ifindex",
	[ELEC_ATTR_IFNAME] = "ifname",
	[ELEC_ATTR_GROUP] = "group",
	[ELEC_ATTR_NODE_ID] = "node_id",
	[ELEC_ATTR_ALGO] = "algo",
	[ELEC_ATTR_ROLE] = "role",
	[ELEC_ATTR_LEADER] = "leader",
	[ELEC_ATTR_TERM] = "term",
	[ELEC_ATTR_PARTICIPANT] = "participant",
	[ELEC_ATTR_PEERS] = "peers",
	[ELEC_ATTR_PEER] = "peer",
	[ELEC_ATTR_PEER_ID] = "peer_id",
	[ELEC_ATTR_PEER_LLADDR] = "peer_lladdr",
	[ELEC_ATTR_PEER_ALIVE] = "peer_alive",
	[ELEC_ATTR_TX] = "tx",
	[ELEC_ATTR_RX] = "rx",
	[ELEC_ATTR_DROPS] = "drops",
	[ELEC_ATTR_TX_ERRORS] = "tx_errors",
	[ELEC_ATTR_EVENT] = "event",
	[ELEC_ATTR_TIMESTAMP_NS] = "timestamp_ns",
	[ELEC_ATTR_SEQ] = "seq",
	[ELEC_ATTR_LIVE_INSTANCES] = "live_instances",
	[ELEC_ATTR_LIVE_PEERS] = "live_peers",
	[ELEC_ATTR_LIVE_SKBS] = "live_skbs",
	[ELEC_ATTR_PAD] = "pad",
	[ELEC_ATTR_PEER_POS] = "peer_pos",
	[ELEC_ATTR_TX_DROPS] = "tx_drops",
	[ELEC_ATTR_MTU] = "mtu",
	[ELEC_ATTR_LLADDR] = "lladdr",
	[ELEC_ATTR_TIMER_LATE] = "timer_late",
	[ELEC_ATTR_TIMER_LATE_BUCKETS] = "timer_late_buckets",
	[ELEC_ATTR_TIMER_LATE_MAX_NS] = "timer_late_max_ns",
	[ELEC_ATTR_TIMER_LATE_COUNT] = "timer_late_count",
	[ELEC_ATTR_INV_SEQ] = "inv_seq",
	[ELEC_ATTR_INV_COORDINATOR] = "inv_coordinator",
	[ELEC_ATTR_PEER_MEMBER] = "peer_member",
	[ELEC_ATTR_PEER_HEARD_AGO_NS] = "peer_heard_ago_ns",
	[ELEC_ATTR_PEER_SEEN_LLADDR] = "peer_seen_lladdr",
	[ELEC_ATTR_ADMIN_UP] = "admin_up",
	[ELEC_ATTR_KEY] = "key",
	[ELEC_ATTR_KEY_NONE] = "key_none",
	[ELEC_ATTR_AUTH] = "auth",
	[ELEC_ATTR_KEY_NEXT] = "key_next",
	[ELEC_ATTR_KEY_NEXT_NONE] = "key_next_none",
	[ELEC_ATTR_AUTH_NEXT] = "auth_next",
	[ELEC_ATTR_TIMER_THROTTLED] = "timer_throttled",
	[ELEC_ATTR_TIMER_THROTTLED_NS] = "timer_throttled_ns",
	[ELEC_ATTR_ALGO_NAME] = "algo_name",
	[ELEC_ATTR_ALGO_MSGS] = "algo_msgs",
	[ELEC_ATTR_ALGO_OPTS] = "algo_opts",
	[ELEC_ATTR_ALGO_OPT] = "algo_opt",
	[ELEC_ATTR_OPTS_HASH] = "opts_hash",
	[ELEC_ATTR_PEER_DETECT_WINDOW_NS] = "peer_detect_window_ns",
	[ELEC_ATTR_PEER_RTT_NS] = "peer_rtt_ns",
	/* every scalar counter, by its name (counters-list.h) */
#define ELEC_COUNTER(field, at, opt) [at] = #field,
#include "counters-list.h"
};

static const char *const cmd_names[ELEC_CMD_MAX + 1] = {
	[ELEC_CMD_GROUP_NEW] = "group_new",
	[ELEC_CMD_GROUP_DEL] = "group_del",
	[ELEC_CMD_GROUP_SET] = "group_set",
	[ELEC_CMD_GROUP_START] = "group_start",
	[ELEC_CMD_GROUP_STOP] = "group_stop",
	[ELEC_CMD_GROUP_ELECT] = "group_elect",
	[ELEC_CMD_PEER_ADD] = "peer_add",
	[ELEC_CMD_PEER_DEL] = "peer_del",
	[ELEC_CMD_GROUP_GET] = "group_get",
	[ELEC_CMD_STATS_GET] = "stats_get",
	[ELEC_CMD_MODULE_GET] = "module_get",
	[ELEC_CMD_EVENT] = "event",
	[ELEC_CMD_ALGO_GET] = "algo_get",
	[ELEC_CMD_PEER_RESET] = "peer_reset",
};

#define NAME_IN(tbl, v) \
	((v) < sizeof(tbl) / sizeof((tbl)[0]) ? (tbl)[v] : NULL)

/* an option's attribute is named by its JSON key (elec_opt_json_key()) */
const char *elec_attr_name(unsigned int v)
{
	static char keys[ELEC_OPT_COUNT][40];
	int o = elec_opt_by_attr(v);

	if (o >= 0) {
		if (!keys[o][0])
			elec_opt_json_key(o, keys[o], sizeof(keys[o]));
		return keys[o];
	}
	return NAME_IN(attr_names, v);
}

const char *elec_cmd_name(unsigned int v)
{
	return NAME_IN(cmd_names, v);
}

void elec_fmt_dur(char *buf, unsigned long size, uint64_t ns)
{
	if (ns && !(ns % UINT64_C(1000000000)))
		snprintf(buf, size, "%" PRIu64 "s", ns / UINT64_C(1000000000));
	else if (ns && !(ns % UINT64_C(1000000)))
		snprintf(buf, size, "%" PRIu64 "ms", ns / UINT64_C(1000000));
	else if (ns && !(ns % UINT64_C(1000)))
		snprintf(buf, size, "%" PRIu64 "us", ns / UINT64_C(1000));
	else
		snprintf(buf, size, "%" PRIu64 "ns", ns);
}

void elec_fmt_mac(char *buf, unsigned long size, const uint8_t *m)
{
	snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
}

const char *elec_err_where;
char *elec_err_capture;
size_t elec_err_capture_size;

static __attribute__((format(printf, 1, 0)))
void verr(const char *fmt, va_list ap)
{
	if (elec_err_capture) {
		vsnprintf(elec_err_capture, elec_err_capture_size, fmt, ap);
		return;
	}
	fflush(stdout);
	fputs("Error: ", stderr);
	if (elec_err_where)
		fputs(elec_err_where, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int elec_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	return ELEC_EXIT_USAGE;
}

int elec_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	return ELEC_EXIT_FAIL;
}
