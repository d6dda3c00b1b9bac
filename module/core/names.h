/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - the names of the uapi enum values that people read: message
 * types, roles, drop reasons, transmit drop reasons, events.
 *
 * X-macro lists, X(SUFFIX, "name") with the enum value ELEC_<KIND>_SUFFIX:
 * the tracepoints (module/trace.h), electionctl and electsim
 * (userspace/lib/names.c) and the JSON keys of their counters all spell
 * them from here. dist/election.lua and tests/inject/elec-inject.c keep
 * their own tables on purpose (an independent reading of the docs);
 * make check compares them with these (tests/lists).
 */
#ifndef _ELEC_NAMES_H
#define _ELEC_NAMES_H

#define ELEC_MSG_NAMES(X)						\
	X(ELECTION, "election")						\
	X(ANSWER, "answer")						\
	X(COORDINATOR, "coordinator")					\
	X(HEARTBEAT, "heartbeat")					\
	X(ACK, "ack")							\
	X(RETRY, "retry")						\
	X(QUERY, "query")						\
	X(CID, "cid")							\
	X(ARE_YOU_COORD, "ayc")						\
	X(AYC_REPLY, "ayc_reply")					\
	X(INVITE, "invite")						\
	X(ACCEPT, "accept")						\
	X(READY, "ready")						\
	X(ALIVE, "alive")

#define ELEC_ROLE_NAMES(X)						\
	X(STOPPED, "stopped")						\
	X(FOLLOWER, "follower")						\
	X(CANDIDATE, "candidate")					\
	X(LEADER, "leader")

#define ELEC_DROP_NAMES(X)						\
	X(MALFORMED, "malformed")					\
	X(WRONG_GROUP, "wrong_group")					\
	X(WRONG_ALGO, "wrong_algo")					\
	X(UNKNOWN_PEER, "unknown_peer")					\
	X(STALE_TERM, "stale_term")					\
	X(WRONG_DST, "wrong_dst")					\
	X(STOPPED, "stopped")						\
	X(QUEUE_FULL, "queue_full")					\
	X(TERM_TOO_FAR, "term_too_far")					\
	X(WRONG_LLADDR, "wrong_lladdr")					\
	X(AUTH_MISSING, "auth_missing")					\
	X(AUTH_BAD, "auth_bad")						\
	X(AUTH_TRUNCATED, "auth_truncated")				\
	X(AUTH_REPLAY, "auth_replay")					\
	X(AUTH_UNEXPECTED, "auth_unexpected")

#define ELEC_TX_DROP_NAMES(X)						\
	X(MTU, "mtu")							\
	X(NO_BUFFER, "no_buffer")					\
	X(DEV_XMIT, "dev_xmit")

#define ELEC_EVENT_NAMES(X)						\
	X(ELECTION_STARTED, "election_started")				\
	X(LEADER_CHANGED, "leader_changed")				\
	X(PEER_UP, "peer_up")						\
	X(PEER_DOWN, "peer_down")					\
	X(STOPPED, "stopped")

#endif /* _ELEC_NAMES_H */
