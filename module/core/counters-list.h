/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters-list.h - every scalar counter of struct elec_stats, once.
 *
 * No include guard: include it after defining ELEC_COUNTER(field, attr);
 * it undefines ELEC_COUNTER. @field is the struct elec_stats member (a
 * u64 the core counts) and the name electionctl -j stats and electsim
 * print; @attr the STATS_GET attribute. The per-type arrays (tx, rx,
 * drops) and the glue's own counters (tx_errors, timer lateness) are not
 * rows. A new row goes at the end.
 */
ELEC_COUNTER(elections, ELEC_ATTR_ELECTIONS)
ELEC_COUNTER(leader_changes, ELEC_ATTR_LEADER_CHANGES)
ELEC_COUNTER(elections_limited, ELEC_ATTR_ELECTIONS_LIMITED)
ELEC_COUNTER(quorum_lost, ELEC_ATTR_QUORUM_LOST)
ELEC_COUNTER(detect_deferred, ELEC_ATTR_DETECT_DEFERRED)
ELEC_COUNTER(suspicions, ELEC_ATTR_SUSPICIONS)
ELEC_COUNTER(false_suspicions, ELEC_ATTR_FALSE_SUSPICIONS)

#undef ELEC_COUNTER
