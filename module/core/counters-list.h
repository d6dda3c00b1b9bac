/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters-list.h - every scalar counter of struct elec_stats, once.
 *
 * No include guard: include it after defining ELEC_COUNTER(field, attr,
 * opt); it undefines ELEC_COUNTER. @field is the struct elec_stats member
 * (a u64 the core counts) and the name electionctl -j stats and electsim
 * print; @attr the STATS_GET attribute; @opt ALL, or the option
 * (options-list.h's ID) without which it cannot count: electionctl's
 * stats text shows it then only when it is not 0 (ELEC_OPT_ ## opt);
 * the STATS_GET reply carries the option's attribute (module/netlink.c;
 * scripts/nlspec --check fails while it does not). The per-type arrays (tx, rx,
 * drops) and the glue's own counters (tx_errors, timer lateness) are not
 * rows. A new row goes at the end.
 */
ELEC_COUNTER(elections, ELEC_ATTR_ELECTIONS, ALL)
ELEC_COUNTER(leader_changes, ELEC_ATTR_LEADER_CHANGES, ALL)
ELEC_COUNTER(elections_limited, ELEC_ATTR_ELECTIONS_LIMITED, ALL)
ELEC_COUNTER(quorum_lost, ELEC_ATTR_QUORUM_LOST, QUORUM)
ELEC_COUNTER(detect_deferred, ELEC_ATTR_DETECT_DEFERRED, ALL)
ELEC_COUNTER(suspicions, ELEC_ATTR_SUSPICIONS, ALL)
ELEC_COUNTER(false_suspicions, ELEC_ATTR_FALSE_SUSPICIONS, ALL)

#undef ELEC_COUNTER
