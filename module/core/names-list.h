/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names-list.h - the names people read for the uapi enum values: message
 * types, roles, drop reasons, transmit drop reasons, events.
 *
 * No include guard: define any of ELEC_MSG_NAME, ELEC_ROLE_NAME,
 * ELEC_DROP_NAME, ELEC_TX_DROP_NAME and ELEC_EVENT_NAME (SUFFIX, "name"),
 * for the enum value ELEC_<KIND>_SUFFIX, then include it (ELEC_DROP_NAME
 * has a third column, the groups the reason can count in: ALL, KEY (a
 * group with a key), NOKEY (a group without one), QUEUE (an algorithm
 * that queues frames, its
 * &elec_algo_ops.queue_bytes non-zero): enum elec_drop_when, which
 * electionctl's stats goes by); the others
 * expand to nothing, and every one is undefined afterwards. names.c
 * builds the tables the module's tracepoints, electionctl and electsim
 * print from; dist/election.lua and tests/inject/model.c keep
 * their own on purpose (an independent reading of the docs), and
 * tests/lists/check compares them with these.
 */
#ifndef ELEC_MSG_NAME
#define ELEC_MSG_NAME(e, n)
#endif
#ifndef ELEC_ROLE_NAME
#define ELEC_ROLE_NAME(e, n)
#endif
#ifndef ELEC_DROP_NAME
#define ELEC_DROP_NAME(e, n, when)
#endif
#ifndef ELEC_TX_DROP_NAME
#define ELEC_TX_DROP_NAME(e, n)
#endif
#ifndef ELEC_EVENT_NAME
#define ELEC_EVENT_NAME(e, n)
#endif

ELEC_MSG_NAME(ELECTION, "election")
ELEC_MSG_NAME(ANSWER, "answer")
ELEC_MSG_NAME(COORDINATOR, "coordinator")
ELEC_MSG_NAME(HEARTBEAT, "heartbeat")
ELEC_MSG_NAME(ACK, "ack")
ELEC_MSG_NAME(RETRY, "retry")
ELEC_MSG_NAME(QUERY, "query")
ELEC_MSG_NAME(CID, "cid")
ELEC_MSG_NAME(ARE_YOU_COORD, "ayc")
ELEC_MSG_NAME(AYC_REPLY, "ayc_reply")
ELEC_MSG_NAME(INVITE, "invite")
ELEC_MSG_NAME(ACCEPT, "accept")
ELEC_MSG_NAME(READY, "ready")
ELEC_MSG_NAME(ALIVE, "alive")

ELEC_ROLE_NAME(STOPPED, "stopped")
ELEC_ROLE_NAME(FOLLOWER, "follower")
ELEC_ROLE_NAME(CANDIDATE, "candidate")
ELEC_ROLE_NAME(LEADER, "leader")

ELEC_DROP_NAME(MALFORMED, "malformed", ALL)
ELEC_DROP_NAME(WRONG_GROUP, "wrong_group", ALL)
ELEC_DROP_NAME(WRONG_ALGO, "wrong_algo", ALL)
ELEC_DROP_NAME(UNKNOWN_PEER, "unknown_peer", ALL)
ELEC_DROP_NAME(STALE_TERM, "stale_term", ALL)
ELEC_DROP_NAME(WRONG_DST, "wrong_dst", ALL)
ELEC_DROP_NAME(STOPPED, "stopped", ALL)
ELEC_DROP_NAME(QUEUE_FULL, "queue_full", QUEUE)
ELEC_DROP_NAME(TERM_TOO_FAR, "term_too_far", ALL)
ELEC_DROP_NAME(WRONG_LLADDR, "wrong_lladdr", ALL)
ELEC_DROP_NAME(AUTH_MISSING, "auth_missing", KEY)
ELEC_DROP_NAME(AUTH_BAD, "auth_bad", KEY)
ELEC_DROP_NAME(AUTH_TRUNCATED, "auth_truncated", ALL)
ELEC_DROP_NAME(AUTH_REPLAY, "auth_replay", KEY)
ELEC_DROP_NAME(AUTH_UNEXPECTED, "auth_unexpected", NOKEY)
ELEC_DROP_NAME(AUTH_CLOCK, "auth_clock", KEY)

ELEC_TX_DROP_NAME(MTU, "mtu")
ELEC_TX_DROP_NAME(NO_BUFFER, "no_buffer")
ELEC_TX_DROP_NAME(DEV_XMIT, "dev_xmit")

ELEC_EVENT_NAME(ELECTION_STARTED, "election_started")
ELEC_EVENT_NAME(LEADER_CHANGED, "leader_changed")
ELEC_EVENT_NAME(PEER_UP, "peer_up")
ELEC_EVENT_NAME(PEER_DOWN, "peer_down")
ELEC_EVENT_NAME(STOPPED, "stopped")

#undef ELEC_MSG_NAME
#undef ELEC_ROLE_NAME
#undef ELEC_DROP_NAME
#undef ELEC_TX_DROP_NAME
#undef ELEC_EVENT_NAME
