/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * election: coordinator election in the kernel.
 *
 * This header is shared by election.ko, the sans-IO protocol core (which also
 * builds into KUnit and userspace programs) and electionctl. It holds:
 *
 *  - the generic netlink API (family "election", multicast group "events"),
 *  - the enumerations that the netlink API and the wire format share
 *    (algorithms, message types, roles, drop reasons, events),
 *  - the wire format constants.
 *
 * Generic netlink requests and replies
 * ------------------------------------
 * Every request names an instance with ELEC_ATTR_IFINDEX and ELEC_ATTR_GROUP
 * (except ELEC_CMD_MODULE_GET and the dumps, where both are optional
 * filters). Mutating commands and ELEC_CMD_MODULE_GET need CAP_NET_ADMIN in
 * the initial user namespace (checked by hand, with an extack message); the
 * module parameter userns_admin lets CAP_NET_ADMIN over the socket's network
 * namespace's own user namespace mutate, within userns_max_instances,
 * userns_max_total and userns_min_interval_us
 * (Documentation/admin-guide.rst).
 *
 * ELEC_CMD_GROUP_NEW: IFINDEX, GROUP, NODE_ID, ALGO required;
 *	HB_INTERVAL_NS, HB_MISS, TIMEOUT_NS, COORD_TIMEOUT_NS, POS optional;
 *	SUPPRESS optional with ELEC_ALGO_RING only; ASK_SUSPECT, PREEMPT,
 *	PREEMPT_DELAY_NS optional with the Bully algorithms (bully,
 *	min-bully, enh-bully) only; the options of every algorithm
 *	(DETECTOR, DETECTOR_MARGIN_NS, DETECTOR_MAX_NS, TIMEOUT_AUTO,
 *	AUTH_WINDOW_NS) optional; KEY optional, KEY_NEXT optional with KEY.
 *	Creates a stopped instance.
 * ELEC_CMD_GROUP_SET: IFINDEX, GROUP; any of the four timing attributes
 *	and (the Bully algorithms only) ASK_SUSPECT, PREEMPT, PREEMPT_DELAY_NS;
 *	the options of every algorithm; KEY or KEY_NONE; KEY_NEXT or
 *	KEY_NEXT_NONE. All of it applies, or
 *	(refused) none of it.
 * ELEC_CMD_GROUP_DEL, _START, _STOP, _ELECT: IFINDEX, GROUP. A leader
 *	that GROUP_DEL or GROUP_STOP stops first broadcasts a HEARTBEAT
 *	flagged ELECTION_FLAG_LEAVING.
 * ELEC_CMD_PEER_ADD: IFINDEX, GROUP, PEER_ID, PEER_LLADDR; PEER_POS
 *	optional.
 * ELEC_CMD_PEER_DEL: IFINDEX, GROUP, PEER_ID.
 * ELEC_CMD_PEER_RESET: IFINDEX, GROUP, PEER_ID: forget the peer's
 *	counters (its replay state); nothing else changes.
 * ELEC_CMD_GROUP_GET (doit or dump; dump filters on IFINDEX and GROUP when
 *	given): reply IFINDEX, IFNAME, GROUP, NODE_ID, ALGO, ROLE, LEADER,
 *	TERM, PARTICIPANT, the four timing attributes, POS, SUPPRESS (ring
 *	only), ASK_SUSPECT, PREEMPT, PREEMPT_DELAY_NS, MTU, LLADDR, and
 *	ADMIN_UP, AUTH, AUTH_NEXT, SEQ (the namespace's last event number: a
 *	listener that joined the events group first drops this instance's
 *	events up to it),
 *	PEERS, a nest of ELEC_ATTR_PEER nests, each holding PEER_ID,
 *	PEER_LLADDR, PEER_ALIVE, PEER_POS.
 * ELEC_CMD_STATS_GET (doit or dump, same filters): reply IFINDEX, IFNAME,
 *	GROUP, NODE_ID, ALGO, AUTH, QUORUM (which counters can move), and
 *	the nests TX and RX (one u64 attribute per
 *	message type, attribute type = enum elec_msg_type value), DROPS (one
 *	u64 per enum elec_drop value), TX_DROPS (one u64 per enum
 *	elec_tx_drop value), and ELECTIONS, LEADER_CHANGES, TX_ERRORS,
 *	ELECTIONS_LIMITED, and the nest TIMER_LATE (timer lateness
 *	histogram).
 * ELEC_CMD_ALGO_GET (doit with ALGO, or dump; no privilege needed): reply
 *	per algorithm the module has ALGO, ALGO_NAME, ALGO_MSGS (the message
 *	types it sends and takes), ALGO_OPTS, a nest of ALGO_OPT (the
 *	attribute of each option it takes, in the module's list order), and
 *	OPTS_HASH (of the whole option list). A tool compares them with its
 *	own list to find a module built from another one.
 * ELEC_CMD_MODULE_GET: no request attributes; reply LIVE_INSTANCES,
 *	LIVE_PEERS, LIVE_SKBS (module-wide leak accounting), TIMER_THROTTLED
 *	and TIMER_THROTTLED_NS (the timer worker's budget pauses).
 * ELEC_CMD_EVENT: only sent to the "events" multicast group: EVENT,
 *	TIMESTAMP_NS (CLOCK_MONOTONIC), SEQ (per network namespace, +1 per
 *	event; a gap tells a listener it lost events; delivered in SEQ order,
 *	each instance's in its core's order), IFINDEX, IFNAME, GROUP,
 *	NODE_ID, ALGO, LEADER, TERM, ROLE (the role the input that produced
 *	the event left) and, for peer events, PEER_ID.
 *
 * Wire format
 * -----------
 * An Ethernet II frame with EtherType ELECTION_ETHERTYPE (a module
 * parameter may change it), followed by this fixed header, all multi-byte
 * fields in network byte order:
 *
 *	offset size field
 *	0      1    version       ELECTION_WIRE_VERSION
 *	1      1    type          enum elec_msg_type
 *	2      1    algo          enum elec_algo
 *	3      1    flags         ELECTION_FLAG_LEAVING on a HEARTBEAT, else 0
 *	                          (any other bit, or the bit on another type,
 *	                          is malformed)
 *	                          ELECTION_FLAG_AUTH on any type: the
 *	                          authentication trailer follows the payload
 *	4      2    group         1..65535
 *	6      2    payload_len   bytes of payload after the header
 *	8      4    src           sender's node id, 1..U32_MAX
 *	12     4    dst           receiver's node id, 0 = every node (broadcast)
 *	16     8    term          sender's term (see Documentation/)
 *	24     ...  payload       algorithm and type specific
 *
 * With ELECTION_FLAG_AUTH (the group has a key), ELECTION_AUTH_LEN bytes
 * follow the payload:
 *
 *	0      8    counter       the sender's frame counter (be64), above
 *	                          every counter it sent before (unless its
 *	                          clock ran more than auth-window ahead and
 *	                          was set right): its wall clock
 *	                          (CLOCK_REALTIME, ns) with the low
 *	                          ELECTION_AUTH_SEQ_BITS bits replaced by
 *	                          its frame number (see below)
 *	8      8    mac           SipHash-2-4 with the group's 16-byte key over
 *	                          every byte from the header's first to the
 *	                          counter's last, as the reference emits it
 *	                          (the 64-bit result, little-endian)
 *
 * Trailing bytes after the payload, or after the trailer (Ethernet
 * padding), are ignored.
 */
#ifndef _UAPI_LINUX_ELECTION_H
#define _UAPI_LINUX_ELECTION_H

#define ELECTION_GENL_NAME		"election"
#define ELECTION_GENL_VERSION		1
#define ELECTION_GENL_MCGRP_EVENTS	"events"

#define ELECTION_ETHERTYPE		0x88B5
#define ELECTION_WIRE_VERSION		1
#define ELECTION_HDR_LEN		24
/*
 * Header flag: a leader's last HEARTBEAT, sent when it stops on purpose
 * (group stop or delete, device going down, module unload): its
 * followers elect at once instead of waiting out the detection window.
 */
#define ELECTION_FLAG_LEAVING		0x01
/*
 * Header flag: the frame ends with the authentication trailer (counter
 * and MAC, ELECTION_AUTH_LEN bytes after the payload). A group with a key
 * sends every frame with it and drops frames without it; a group without
 * a key drops frames with it (Documentation/protocol.rst, "Authentication").
 */
#define ELECTION_FLAG_AUTH		0x02
#define ELECTION_AUTH_LEN		16
#define ELECTION_AUTH_MAC_LEN		8
/* A group key: SipHash-2-4's 128-bit key. */
#define ELECTION_KEY_LEN		16
/* Largest payload that fits a 1500-byte MTU after our header. */
#define ELECTION_MAX_PAYLOAD		(1500 - ELECTION_HDR_LEN)

/* Buckets of the timer lateness histogram (ELEC_ATTR_TIMER_LATE_BUCKETS). */
#define ELECTION_TIMER_LATE_BUCKETS	22

/* A group has at most this many nodes, the local one included. */
#define ELECTION_MAX_NODES		256

/*
 * Ring algorithms: every ELECTION and COORDINATOR payload begins with a
 * 4-byte hop number that the ACK echoes. The list ring's payload then
 * holds a 2-byte count, 2 reserved bytes and the ids, 4 bytes each; this
 * many fit one frame, more than ELECTION_MAX_NODES, so every valid group
 * fits (the simulator, which has no group limit, refuses larger rings).
 */
#define ELECTION_RING_HOP_LEN		4
#define ELECTION_RING_LIST_MAX_IDS	((ELECTION_MAX_PAYLOAD - 8) / 4)

/*
 * The Bully variants (Documentation/protocol.rst). min-bully: COORDINATOR
 * carries the coordinator's id, be32, which may differ from the sender's
 * (the initiator names the lowest responder); every other message is the
 * bare header. enh-bully: ELECTION carries the id of the coordinator whose
 * failure started the run (be32, 0 = none); COORDINATOR and CID carry the
 * coordinator's id (be32), the candidate count (be16, 1..
 * ELECTION_ENH_MAX_CANDS), 2 reserved zero bytes and the candidates'
 * ids (be32 each, strictly ascending, non-zero).
 */
#define ELECTION_COORD_LEN		4
#define ELECTION_ENH_SET_HDR_LEN	8
/*
 * ALIVE (the Bully algorithms, quorum on): the id of the leader the sender
 * names (be32, 0 = none) and that leader's term (be64, 0 with no id).
 */
#define ELECTION_ALIVE_LEN		12
#define ELECTION_ENH_MAX_CANDS		((ELECTION_MAX_NODES + 1) / 2)

/*
 * The Invitation algorithm (Documentation/protocol.rst). A group number
 * is (term, coordinator id): the header's term carries the sequence
 * number. AYC_REPLY carries the replier's coordinator (be32; 0 = it is
 * between groups) and the version of the membership it holds (be32) at
 * its group's sequence number. INVITE carries the new coordinator (be32),
 * a count (be16, 1..ELECTION_INV_MAX_IDS), the accept window's shift (u8,
 * 0..5: the window is the timeout << shift; 0 was a reserved zero byte
 * before the windows adapted), a reserved zero byte and the invited
 * groups' coordinators (be32 each, strictly ascending, non-zero).
 * READY carries a count (be16, 0..ELECTION_INV_MAX_IDS), 2 reserved zero
 * bytes, the membership's version (be32) and the members but the
 * coordinator (be32 each, strictly ascending, non-zero). ARE_YOU_COORD
 * and ACCEPT are the bare header.
 */
#define ELECTION_INV_REPLY_LEN		8
#define ELECTION_INV_INVITE_HDR_LEN	8
#define ELECTION_INV_READY_HDR_LEN	8
#define ELECTION_INV_MAX_IDS		(ELECTION_MAX_NODES - 1)

/* Valid range of every duration attribute, in nanoseconds. */
#define ELECTION_DUR_MIN_NS		100000ULL
#define ELECTION_DUR_MAX_NS		60000000000ULL
#define ELECTION_HB_MISS_MIN		1
#define ELECTION_HB_MISS_MAX		1000

/*
 * Terms: a frame whose term is more than this far above the highest term
 * the receiver has seen is dropped (ELEC_DROP_TERM_TOO_FAR), unless the
 * receiver is learning; terms saturate at 2^64 - 1, they never wrap.
 */
#define ELECTION_TERM_MAX_AHEAD		0x100000000ULL	/* 2^32 */

/*
 * Elections started by received frames (not by timers or the
 * administrator) are rate limited per instance: at most this many in a
 * burst, then one per coord-timeout; each refusal is counted in
 * ELEC_ATTR_ELECTIONS_LIMITED.
 */
#define ELECTION_RX_ELECT_BURST		8

/* Defaults (suited to a LAN; see Documentation/admin-guide.rst). */
#define ELECTION_DEF_HB_INTERVAL_NS	20000000ULL	/* 20 ms */
#define ELECTION_DEF_HB_MISS		3
#define ELECTION_DEF_TIMEOUT_NS		10000000ULL	/* 10 ms: T */
/*
 * A keyed group accepts a frame only when its counter's clock (the
 * sender's CLOCK_REALTIME in ns, the counter with its low
 * ELECTION_AUTH_SEQ_BITS cleared) is within this of the receiver's clock
 * (ELEC_ATTR_AUTH_WINDOW_NS).
 */
#define ELECTION_DEF_AUTH_WINDOW_NS	2000000000ULL	/* 2 s */
/*
 * The trailer's counter: the sender's wall clock in its high bits (ns,
 * the low ELECTION_AUTH_SEQ_BITS cleared: a tick of about 1.05 ms), its
 * frame number modulo 2^ELECTION_AUTH_SEQ_BITS in the low bits, one more
 * for each frame it sends (Documentation/protocol.rst, "Authentication").
 */
#define ELECTION_AUTH_SEQ_BITS		20
#define ELECTION_AUTH_SEQ_MASK		((1ULL << ELECTION_AUTH_SEQ_BITS) - 1)
/* coord-timeout defaults to this multiple of timeout (T). */
#define ELECTION_DEF_COORD_TIMEOUT_MULT	4
/*
 * The adaptive failure detector (ELEC_ATTR_DETECTOR): detector-max
 * defaults to this multiple of the fixed window (hb-interval x hb-miss);
 * its window is never below ELECTION_DETECTOR_FLOOR_MISS heartbeat
 * intervals.
 */
#define ELECTION_DEF_DETECTOR_MAX_MULT	10
#define ELECTION_DETECTOR_FLOOR_MISS	2

/**
 * enum elec_detector_kind - the failure detector of an instance
 *	(ELEC_ATTR_DETECTOR): how long its leader may be silent.
 * @ELECTION_DETECTOR_FIXED: hb-interval x hb-miss after the leader's last
 *	heartbeat (the default)
 * @ELECTION_DETECTOR_ADAPTIVE: the expected arrival of the leader's next
 *	heartbeat, estimated from its recent inter-arrival times (mean and
 *	mean deviation), plus a safety margin of detector-margin and four
 *	mean deviations; never below ELECTION_DETECTOR_FLOOR_MISS x
 *	hb-interval nor above detector-max (Documentation/protocol.rst,
 *	"Failure detection")
 * @__ELECTION_DETECTOR_AFTER_LAST: internal use
 * @ELECTION_DETECTOR_MAX: highest valid value
 */
enum elec_detector_kind {
	ELECTION_DETECTOR_FIXED,
	ELECTION_DETECTOR_ADAPTIVE,
	/* add new detectors above here */
	__ELECTION_DETECTOR_AFTER_LAST,
	ELECTION_DETECTOR_MAX = __ELECTION_DETECTOR_AFTER_LAST - 1
};

/**
 * enum elec_algo - election algorithm of an instance, also carried in every
 * frame's header.
 * @ELEC_ALGO_UNSPEC: not used; 0 on the wire is malformed
 * @ELEC_ALGO_BULLY: Garcia-Molina's Bully algorithm, highest id wins
 * @ELEC_ALGO_RING: Chang and Roberts' ring election (participant flag,
 *	the greatest id seen circulates, elected message); with
 *	ELEC_ATTR_SUPPRESS 0, the refinement without the participant flag
 * @ELEC_ALGO_RING_ALL: the ring election that collects every id (each
 *	process sends its own "elect me" and forwards the others; O(n^2))
 * @ELEC_ALGO_RING_LIST: the ring election whose one ELECTION message
 *	accumulates the list of live ids, skipping failed nodes
 * @ELEC_ALGO_MIN_BULLY: the Bully variant of Kabashi, Zeqiri and Zabeli:
 *	the lowest id wins; ELECTION, COORDINATOR and QUERY are broadcast,
 *	the second-lowest configured id takes over at once, COORDINATOR
 *	names its coordinator (ELECTION_COORD_LEN payload)
 * @ELEC_ALGO_ENH_BULLY: Murshed and Allen's Enhanced Bully: the highest id
 *	wins; the ceil(n/2) highest configured ids are candidates, asked
 *	first; the electioneer picks the highest responder and broadcasts
 *	COORDINATOR naming it and the candidate set
 * @ELEC_ALGO_INVITATION: Garcia-Molina's Invitation algorithm: every node
 *	is in one group (one per partition side); coordinators search for
 *	each other and the highest merges the lower ones' groups into a new
 *	group, numbered (sequence, coordinator id)
 * @__ELEC_ALGO_AFTER_LAST: internal use
 * @ELEC_ALGO_MAX: highest valid value
 */
enum elec_algo {
	ELEC_ALGO_UNSPEC,
	ELEC_ALGO_BULLY,
	ELEC_ALGO_RING,
	ELEC_ALGO_RING_ALL,
	ELEC_ALGO_RING_LIST,
	ELEC_ALGO_MIN_BULLY,
	ELEC_ALGO_ENH_BULLY,
	ELEC_ALGO_INVITATION,
	/* add new algorithms above here */
	__ELEC_ALGO_AFTER_LAST,
	ELEC_ALGO_MAX = __ELEC_ALGO_AFTER_LAST - 1
};

/**
 * enum elec_msg_type - protocol message types (wire header "type" field,
 * and the attribute types inside ELEC_ATTR_TX / ELEC_ATTR_RX).
 * @ELEC_MSG_UNSPEC: not used; 0 on the wire is malformed
 * @ELEC_MSG_ELECTION: Bully ELECTION, sent to each higher id; for the ring
 *	algorithms the election ("elect me") message passed to the successor
 * @ELEC_MSG_ANSWER: Bully ANSWER (OK), reply to ELECTION
 * @ELEC_MSG_COORDINATOR: COORDINATOR announcement, one frame per recipient;
 *	carries the leader's term; for the rings the elected ("new
 *	coordinator") message passed around the ring
 * @ELEC_MSG_HEARTBEAT: leader's periodic broadcast; carries its term
 * @ELEC_MSG_ACK: ring algorithms: acknowledgment of one ring hop, sent
 *	back to the frame's sender; echoes the hop number of its payload
 * @ELEC_MSG_RETRY: a counter only, never valid on the wire: a ring message
 *	re-sent to the next live position after its receiver did not
 *	acknowledge is counted here (on the wire it keeps its own type), so
 *	the ELECTION and COORDINATOR counters stay comparable with the texts
 * @ELEC_MSG_QUERY: min-bully and enh-bully: a joining process asks for
 *	the coordinator (min-bully: broadcast, only the leader answers;
 *	enh-bully: to the candidates, each that knows a leader answers)
 * @ELEC_MSG_CID: the answer to QUERY: the coordinator's id (min-bully:
 *	the sender itself, empty payload; enh-bully: the coordinator and the
 *	candidate set, as COORDINATOR's payload) at the coordinator's term
 * @ELEC_MSG_ARE_YOU_COORD: invitation: a coordinator's search, broadcast
 *	at its group's sequence number; every node answers
 * @ELEC_MSG_AYC_REPLY: invitation: the answer to ARE_YOU_COORD, to the
 *	searcher: the replier's group (ELECTION_INV_REPLY_LEN payload)
 * @ELEC_MSG_INVITE: invitation: broadcast by a merging coordinator, and
 *	relayed by each invited coordinator that accepts: the new group's
 *	coordinator and sequence number and the invited groups
 * @ELEC_MSG_ACCEPT: invitation: to the new coordinator, at the new
 *	sequence number: the sender moves into the new group
 * @ELEC_MSG_READY: invitation: the coordinator's broadcast of its group's
 *	number and membership, after a merge or when the membership changes
 * @ELEC_MSG_ALIVE: the Bully algorithms with quorum on: every node but a
 *	leader broadcasts one per hb-interval, and one at once when it
 *	follows a new leader or none; it names the leader the sender supports
 *	(ELECTION_ALIVE_LEN payload); header term: the highest the sender has
 *	seen
 * @__ELEC_MSG_AFTER_LAST: internal use
 * @ELEC_MSG_MAX: highest valid value
 */
enum elec_msg_type {
	ELEC_MSG_UNSPEC,
	ELEC_MSG_ELECTION,
	ELEC_MSG_ANSWER,
	ELEC_MSG_COORDINATOR,
	ELEC_MSG_HEARTBEAT,
	ELEC_MSG_ACK,
	ELEC_MSG_RETRY,
	ELEC_MSG_QUERY,
	ELEC_MSG_CID,
	ELEC_MSG_ARE_YOU_COORD,
	ELEC_MSG_AYC_REPLY,
	ELEC_MSG_INVITE,
	ELEC_MSG_ACCEPT,
	ELEC_MSG_READY,
	ELEC_MSG_ALIVE,
	/* add new message types above here */
	__ELEC_MSG_AFTER_LAST,
	ELEC_MSG_MAX = __ELEC_MSG_AFTER_LAST - 1
};

/**
 * enum elec_role - what the local node is doing in its group.
 * @ELEC_ROLE_STOPPED: instance stopped (created, stopped, or its device is
 *	down); sends nothing and ignores frames
 * @ELEC_ROLE_FOLLOWER: follows a leader, or (leader none) is learning the
 *	state after a start
 * @ELEC_ROLE_CANDIDATE: taking part in an election
 * @ELEC_ROLE_LEADER: is the elected coordinator
 * @__ELEC_ROLE_AFTER_LAST: internal use
 * @ELEC_ROLE_MAX: highest valid value
 */
enum elec_role {
	ELEC_ROLE_STOPPED,
	ELEC_ROLE_FOLLOWER,
	ELEC_ROLE_CANDIDATE,
	ELEC_ROLE_LEADER,
	__ELEC_ROLE_AFTER_LAST,
	ELEC_ROLE_MAX = __ELEC_ROLE_AFTER_LAST - 1
};

/**
 * enum elec_drop - why a received frame was dropped (attribute types inside
 * ELEC_ATTR_DROPS).
 * @ELEC_DROP_UNSPEC: not used
 * @ELEC_DROP_MALFORMED: the frame failed decoding (length, version, type,
 *	flags, zero group or source, payload)
 * @ELEC_DROP_WRONG_GROUP: no instance of that group on the receiving device
 * @ELEC_DROP_WRONG_ALGO: the frame's algorithm is not the instance's
 * @ELEC_DROP_UNKNOWN_PEER: the source id is not a configured peer
 * @ELEC_DROP_STALE_TERM: a COORDINATOR or heartbeat whose (term, sender id)
 *	is below the current (term, leader id)
 * @ELEC_DROP_WRONG_DST: unicast frame addressed to another node id
 * @ELEC_DROP_STOPPED: frame for an instance that is stopped
 * @ELEC_DROP_QUEUE_FULL: ring algorithms: a ring message that could not be
 *	queued for forwarding (the instance's ring queue is full)
 * @ELEC_DROP_TERM_TOO_FAR: the frame's term is more than
 *	ELECTION_TERM_MAX_AHEAD above the highest term the node has seen (a
 *	node that is learning, started and with no leader yet, accepts any
 *	term from a configured peer)
 * @ELEC_DROP_WRONG_LLADDR: the frame's Ethernet source address is not the
 *	configured link-layer address of the peer its source id names
 * @ELEC_DROP_AUTH_MISSING: the group has a key and the frame carries no
 *	authentication trailer
 * @ELEC_DROP_AUTH_BAD: the trailer's MAC is not the one the group's key
 *	gives (forged, altered, or another key)
 * @ELEC_DROP_AUTH_TRUNCATED: ELECTION_FLAG_AUTH set and the frame too
 *	short for the trailer (counted by the device, like MALFORMED: every
 *	instance of the device reports it)
 * @ELEC_DROP_AUTH_REPLAY: the trailer's frame number was accepted from
 *	that peer before, or is 960 or more behind the highest the receiver
 *	accepted: a replayed or duplicated frame, or one overtaken by 960 or
 *	more later frames of its sender
 * @ELEC_DROP_AUTH_UNEXPECTED: the frame carries a trailer and the group
 *	has no key
 * @ELEC_DROP_AUTH_CLOCK: the trailer's counter (the sender's clock) is more
 *	than the group's auth-window away from the receiver's clock: an old
 *	frame played back, or a sender or receiver whose clock is off
 * @__ELEC_DROP_AFTER_LAST: internal use
 * @ELEC_DROP_MAX: highest valid value
 */
enum elec_drop {
	ELEC_DROP_UNSPEC,
	ELEC_DROP_MALFORMED,
	ELEC_DROP_WRONG_GROUP,
	ELEC_DROP_WRONG_ALGO,
	ELEC_DROP_UNKNOWN_PEER,
	ELEC_DROP_STALE_TERM,
	ELEC_DROP_WRONG_DST,
	ELEC_DROP_STOPPED,
	ELEC_DROP_QUEUE_FULL,
	ELEC_DROP_TERM_TOO_FAR,
	ELEC_DROP_WRONG_LLADDR,
	ELEC_DROP_AUTH_MISSING,
	ELEC_DROP_AUTH_BAD,
	ELEC_DROP_AUTH_TRUNCATED,
	ELEC_DROP_AUTH_REPLAY,
	ELEC_DROP_AUTH_UNEXPECTED,
	ELEC_DROP_AUTH_CLOCK,
	__ELEC_DROP_AFTER_LAST,
	ELEC_DROP_MAX = __ELEC_DROP_AFTER_LAST - 1
};

/**
 * enum elec_tx_drop - why a frame the core emitted was not transmitted
 * (attribute types inside ELEC_ATTR_TX_DROPS).
 * @ELEC_TX_DROP_UNSPEC: not used
 * @ELEC_TX_DROP_MTU: the frame is larger than the device's MTU
 * @ELEC_TX_DROP_NO_BUFFER: no memory for the frame (or it could not be
 *	built)
 * @ELEC_TX_DROP_DEV_XMIT: the device layer refused the frame
 *	(dev_queue_xmit() failed: queue full, device down, qdisc drop)
 * @__ELEC_TX_DROP_AFTER_LAST: internal use
 * @ELEC_TX_DROP_MAX: highest valid value
 */
enum elec_tx_drop {
	ELEC_TX_DROP_UNSPEC,
	ELEC_TX_DROP_MTU,
	ELEC_TX_DROP_NO_BUFFER,
	ELEC_TX_DROP_DEV_XMIT,
	__ELEC_TX_DROP_AFTER_LAST,
	ELEC_TX_DROP_MAX = __ELEC_TX_DROP_AFTER_LAST - 1
};

/**
 * enum elec_event - events reported to the "events" multicast group.
 * @ELEC_EVENT_UNSPEC: not used
 * @ELEC_EVENT_ELECTION_STARTED: the local node began an election run
 * @ELEC_EVENT_LEADER_CHANGED: the local node's elected value changed
 *	(ELEC_ATTR_LEADER 0 means none); with quorum on, also when a claimant
 *	becomes leader (the value, itself, unchanged: its role changed)
 * @ELEC_EVENT_PEER_UP: a peer declared failed was heard from again
 * @ELEC_EVENT_PEER_DOWN: the local node declared a peer failed (missed
 *	heartbeats or an unanswered message)
 * @ELEC_EVENT_STOPPED: the instance stopped (command or device down)
 * @__ELEC_EVENT_AFTER_LAST: internal use
 * @ELEC_EVENT_MAX: highest valid value
 */
enum elec_event {
	ELEC_EVENT_UNSPEC,
	ELEC_EVENT_ELECTION_STARTED,
	ELEC_EVENT_LEADER_CHANGED,
	ELEC_EVENT_PEER_UP,
	ELEC_EVENT_PEER_DOWN,
	ELEC_EVENT_STOPPED,
	__ELEC_EVENT_AFTER_LAST,
	ELEC_EVENT_MAX = __ELEC_EVENT_AFTER_LAST - 1
};

/**
 * enum elec_cmd - generic netlink commands of the "election" family.
 * @ELEC_CMD_UNSPEC: not used
 * @ELEC_CMD_GROUP_NEW: create a stopped instance (device, group)
 * @ELEC_CMD_GROUP_DEL: delete an instance
 * @ELEC_CMD_GROUP_SET: change an instance's timing parameters and options
 * @ELEC_CMD_GROUP_START: start an instance (learn, then elect)
 * @ELEC_CMD_GROUP_STOP: stop an instance (silent, timers cancelled)
 * @ELEC_CMD_GROUP_ELECT: begin an election now
 * @ELEC_CMD_PEER_ADD: add a peer (id, link-layer address) to an instance
 * @ELEC_CMD_PEER_DEL: remove a peer from an instance
 * @ELEC_CMD_GROUP_GET: read an instance's state (doit), or all (dumpit)
 * @ELEC_CMD_STATS_GET: read an instance's counters (doit), or all (dumpit)
 * @ELEC_CMD_MODULE_GET: read the module-wide leak accounting
 * @ELEC_CMD_EVENT: notification on the "events" multicast group
 * @ELEC_CMD_ALGO_GET: read the algorithms the module has (doit with
 *	ELEC_ATTR_ALGO, or dumpit): name, message types, options
 * @ELEC_CMD_PEER_RESET: forget what an instance remembers of a peer's
 *	authentication counters (its replay state), so that the peer's frames
 *	within auth-window are taken again
 * @__ELEC_CMD_AFTER_LAST: internal use
 * @ELEC_CMD_MAX: highest valid value
 */
enum elec_cmd {
	ELEC_CMD_UNSPEC,
	ELEC_CMD_GROUP_NEW,
	ELEC_CMD_GROUP_DEL,
	ELEC_CMD_GROUP_SET,
	ELEC_CMD_GROUP_START,
	ELEC_CMD_GROUP_STOP,
	ELEC_CMD_GROUP_ELECT,
	ELEC_CMD_PEER_ADD,
	ELEC_CMD_PEER_DEL,
	ELEC_CMD_GROUP_GET,
	ELEC_CMD_STATS_GET,
	ELEC_CMD_MODULE_GET,
	ELEC_CMD_EVENT,
	ELEC_CMD_ALGO_GET,
	ELEC_CMD_PEER_RESET,
	/* add new commands above here */
	__ELEC_CMD_AFTER_LAST,
	ELEC_CMD_MAX = __ELEC_CMD_AFTER_LAST - 1
};

/**
 * enum elec_attr - generic netlink attributes of the "election" family.
 * @ELEC_ATTR_UNSPEC: not used
 * @ELEC_ATTR_IFINDEX: u32, network device index
 * @ELEC_ATTR_IFNAME: string, network device name (replies only)
 * @ELEC_ATTR_GROUP: u16, group id, 1..65535
 * @ELEC_ATTR_NODE_ID: u32, local node id, 1..U32_MAX
 * @ELEC_ATTR_ALGO: u8, enum elec_algo
 * @ELEC_ATTR_HB_INTERVAL_NS: u64, leader heartbeat interval
 * @ELEC_ATTR_HB_MISS: u32, missed heartbeats before the leader is declared
 *	failed
 * @ELEC_ATTR_TIMEOUT_NS: u64, T: how long to wait for an answer
 * @ELEC_ATTR_COORD_TIMEOUT_NS: u64, how long to wait for COORDINATOR after
 *	an answer before restarting the election
 * @ELEC_ATTR_ROLE: u8, enum elec_role; in EVENT, the role the input that
 *	produced the event left
 * @ELEC_ATTR_LEADER: u32, elected leader id, 0 = none; in EVENT, the one
 *	the input that produced the event left (every event of one input
 *	carries the same ROLE, LEADER and TERM)
 * @ELEC_ATTR_TERM: u64, term of the current leader; in EVENT, the one the
 *	input that produced the event left
 * @ELEC_ATTR_PARTICIPANT: u8, 1 while the node takes part in an election
 * @ELEC_ATTR_PEERS: nest of ELEC_ATTR_PEER nests
 * @ELEC_ATTR_PEER: nest holding one peer's PEER_ID, PEER_LLADDR, PEER_ALIVE,
 *	PEER_POS (and, invitation, PEER_MEMBER; PEER_HEARD_AGO_NS and
 *	PEER_SEEN_LLADDR once a frame carried the peer's id)
 * @ELEC_ATTR_PEER_ID: u32, peer node id
 * @ELEC_ATTR_PEER_LLADDR: binary, 6 bytes, peer's Ethernet address
 * @ELEC_ATTR_PEER_ALIVE: u8, 0 once the local node declared the peer
 *	failed (the algorithms' view: 1 for a peer never heard; a peer
 *	heard has PEER_HEARD_AGO_NS)
 * @ELEC_ATTR_TX: nest, frames sent per message type (u64 each, attribute
 *	type = enum elec_msg_type)
 * @ELEC_ATTR_RX: nest, frames received and accepted per message type
 * @ELEC_ATTR_DROPS: nest, frames dropped per reason (u64 each, attribute
 *	type = enum elec_drop)
 * @ELEC_ATTR_ELECTIONS: u64, elections this node started
 * @ELEC_ATTR_LEADER_CHANGES: u64, times the elected value changed to a leader
 *	id other than the last one held
 * @ELEC_ATTR_TX_ERRORS: u64, frames the core emitted that were not
 *	transmitted: the sum of ELEC_ATTR_TX_DROPS
 * @ELEC_ATTR_EVENT: u8, enum elec_event
 * @ELEC_ATTR_TIMESTAMP_NS: u64, CLOCK_MONOTONIC time of an event
 * @ELEC_ATTR_SEQ: u64, per network namespace event sequence number; in
 *	GROUP_GET, the namespace's last one when the reply was built (the
 *	instance's events up to it are reflected in the reply)
 * @ELEC_ATTR_LIVE_INSTANCES: u64, module-wide count of live instances
 * @ELEC_ATTR_LIVE_PEERS: u64, module-wide count of configured peers
 * @ELEC_ATTR_LIVE_SKBS: u64, module-wide count of skbs allocated by the
 *	module and not yet handed to the device layer or freed
 * @ELEC_ATTR_PAD: padding for 64-bit attributes
 * @ELEC_ATTR_POS: u32, the local node's ring position, 1..U32_MAX
 *	(default: its id); the ring order is ascending (position, id)
 * @ELEC_ATTR_PEER_POS: u32, a peer's ring position, 1..U32_MAX (default:
 *	its id)
 * @ELEC_ATTR_SUPPRESS: u8, ELEC_ALGO_RING only: 1 (default) for Chang and
 *	Roberts' participant flag, 0 for the refinement that forwards only the
 *	higher id without it
 * @ELEC_ATTR_ELECTIONS_LIMITED: u64, elections that received frames would
 *	have started but the rate limit refused (see
 *	ELECTION_RX_ELECT_BURST)
 * @ELEC_ATTR_TX_DROPS: nest, frames the core emitted that were not
 *	transmitted, per reason (u64 each, attribute type = enum
 *	elec_tx_drop); their sum is ELEC_ATTR_TX_ERRORS
 * @ELEC_ATTR_MTU: u32, the device's MTU (GROUP_GET replies)
 * @ELEC_ATTR_LLADDR: binary, 6 bytes, the device's own Ethernet address,
 *	the source address of the instance's frames (GROUP_GET replies)
 * @ELEC_ATTR_ASK_SUSPECT: u8, the Bully algorithms only: 1 (default) for an
 *	election run that also asks the leader whose silence started it (a
 *	leader that was only late answers and keeps its role), 0 to skip it;
 *	GROUP_NEW, GROUP_SET; GROUP_GET reports it for every algorithm (1 for
 *	the rings, which refuse it)
 * @ELEC_ATTR_PREEMPT: u8, the Bully algorithms only: 1 (default, the textbook)
 *	for a better id that (re)joins to take over from the current leader,
 *	0 to follow that leader until it fails; GROUP_NEW, GROUP_SET;
 *	GROUP_GET reports it for every algorithm (1 for the rings)
 * @ELEC_ATTR_PREEMPT_DELAY_NS: u64, the Bully algorithms only, with preemption:
 *	follow a worse leader for this long before taking over; 0 (default)
 *	or ELECTION_DUR_MIN_NS..ELECTION_DUR_MAX_NS; GROUP_NEW, GROUP_SET;
 *	GROUP_GET reports it for every algorithm (0 for the rings)
 * @ELEC_ATTR_TIMER_LATE: nest, STATS_GET replies: how late the instance's
 *	hrtimers ran, over every expiry since the instance was created (the
 *	time the callback began minus the programmed expiry): holds
 *	TIMER_LATE_BUCKETS, TIMER_LATE_MAX_NS, TIMER_LATE_COUNT
 * @ELEC_ATTR_TIMER_LATE_BUCKETS: nest of ELECTION_TIMER_LATE_BUCKETS u64
 *	counters, attribute type = bucket index + 1: bucket 0 counts expiries
 *	less than 1 us late, bucket k (1..ELECTION_TIMER_LATE_BUCKETS - 2)
 *	those at least 2^(k-1) us and less than 2^k us late, the last bucket
 *	the rest (2^20 us, about 1.05 s, or later); their sum is
 *	TIMER_LATE_COUNT
 * @ELEC_ATTR_TIMER_LATE_MAX_NS: u64, inside TIMER_LATE: the latest expiry
 *	seen, in ns
 * @ELEC_ATTR_TIMER_LATE_COUNT: u64, inside TIMER_LATE: expiries recorded
 * @ELEC_ATTR_SEARCH_INTERVAL_NS: u64, ELEC_ALGO_INVITATION only: a
 *	coordinator's search period; 0 (default) or ELECTION_DUR_MIN_NS..
 *	ELECTION_DUR_MAX_NS, 0 meaning hb-interval x hb-miss; GROUP_NEW,
 *	GROUP_SET; GROUP_GET reports the effective period (invitation only)
 * @ELEC_ATTR_INV_SEQ: u64, GROUP_GET, invitation only: the sequence number
 *	of the local node's group (its group number is (INV_SEQ,
 *	INV_COORDINATOR))
 * @ELEC_ATTR_INV_COORDINATOR: u32, GROUP_GET, invitation only: the
 *	coordinator of the local node's group (its own id when it
 *	coordinates)
 * @ELEC_ATTR_PEER_MEMBER: u8, inside PEER, invitation only: 1 when the
 *	peer is a member of the local node's group, as the node knows it
 *	(a coordinator: its membership; a member: its coordinator's last READY)
 * @ELEC_ATTR_QUORUM: u8, the Bully algorithms only: 1 for a leader that
 *	steps down, and a node that takes no leadership, without a majority
 *	of the group's configured nodes heard within the lease (hb-interval x
 *	(hb-miss - 1) - timeout); 0 (default) without; GROUP_NEW, GROUP_SET;
 *	GROUP_GET and STATS_GET report it for every algorithm (0 for the
 *	others)
 * @ELEC_ATTR_QUORUM_LOST: u64, STATS_GET: times the node stepped down, or
 *	did not take leadership, for want of a majority (quorum on)
 * @ELEC_ATTR_PEER_HEARD_AGO_NS: u64, inside PEER: ns since the last frame
 *	from the peer passed the receive checks, when the reply was built;
 *	absent when it never did
 * @ELEC_ATTR_PEER_SEEN_LLADDR: binary (ETH_ALEN bytes), inside PEER: the
 *	source address of the last frame that carried the peer's id to this
 *	instance, accepted or dropped as wrong_lladdr; absent before the
 *	first; differs from PEER_LLADDR when the configured address is wrong
 * @ELEC_ATTR_ADMIN_UP: u8, GROUP_GET: 1 after GROUP_START until
 *	GROUP_STOP (the instance runs while its device is up too), 0 before
 * @ELEC_ATTR_KEY: binary, ELECTION_KEY_LEN bytes, GROUP_NEW and GROUP_SET:
 *	the group's key; from then on every frame sent carries the
 *	authentication trailer and every frame received must (the key is
 *	never reported back)
 * @ELEC_ATTR_KEY_NONE: flag, GROUP_SET: remove the key (frames go
 *	unauthenticated again); not with ELEC_ATTR_KEY
 * @ELEC_ATTR_AUTH: u8, GROUP_GET, STATS_GET: 1 when the group has a key
 * @ELEC_ATTR_TIMER_THROTTLED: u64, MODULE_GET: times the SCHED_FIFO timer
 *	worker (timer_mode=2) had spent its budget (timer_budget_pct) and
 *	slept to the end of the window before a protocol step
 * @ELEC_ATTR_TIMER_THROTTLED_NS: u64, MODULE_GET: the time those pauses
 *	took, in ns
 * @ELEC_ATTR_DETECT_DEFERRED: u64, STATS_GET: times the failure
 *	detector's timer (or a learning window, which the same timer times)
 *	expired at least a heartbeat interval late (the node itself was held
 *	up) and was given one more detection window before it took effect
 * @ELEC_ATTR_ALGO_NAME: string, ALGO_GET: the algorithm's name
 *	("bully"), as electionctl's algo keyword takes it
 * @ELEC_ATTR_ALGO_MSGS: u32, ALGO_GET: the message types the algorithm
 *	sends and takes, bit (enum elec_msg_type value) set for each
 * @ELEC_ATTR_ALGO_OPTS: nest, ALGO_GET: one ALGO_OPT per option the
 *	algorithm takes
 * @ELEC_ATTR_ALGO_OPT: u16, inside ALGO_OPTS: an option's attribute type
 *	(ELEC_ATTR_HB_INTERVAL_NS, ...)
 * @ELEC_ATTR_OPTS_HASH: u32, ALGO_GET: a hash (32-bit FNV-1a) of the
 *	text of the option list the module was built from (each row's
 *	columns, macros expanded): a tool built from another list, however
 *	it differs (a range, a default, a kind), sees another value
 * @ELEC_ATTR_DETECTOR: u8, enum elec_detector_kind: the failure detector
 *	(default ELECTION_DETECTOR_FIXED); GROUP_NEW, GROUP_SET
 * @ELEC_ATTR_DETECTOR_MARGIN_NS: u64, the adaptive detector's fixed part
 *	of the safety margin; 0 (default: one hb-interval) or
 *	ELECTION_DUR_MIN_NS..ELECTION_DUR_MAX_NS; GROUP_NEW, GROUP_SET;
 *	GROUP_GET reports the effective margin
 * @ELEC_ATTR_DETECTOR_MAX_NS: u64, the adaptive detector's longest
 *	window; 0 (default: ELECTION_DEF_DETECTOR_MAX_MULT x hb-interval x
 *	hb-miss, at most ELECTION_DUR_MAX_NS, at least 2 x hb-interval) or
 *	ELECTION_DUR_MIN_NS..ELECTION_DUR_MAX_NS, not below 2 x
 *	hb-interval; GROUP_NEW, GROUP_SET; GROUP_GET reports the effective
 *	ceiling
 * @ELEC_ATTR_SUSPICIONS: u64, STATS_GET: expiries of the failure
 *	detector that made the node declare the leader it followed failed
 * @ELEC_ATTR_FALSE_SUSPICIONS: u64, STATS_GET: suspicions after which the
 *	suspect was heard again at the term it was suspected in, or was
 *	leader again when the node next had one (it kept its role)
 * @ELEC_ATTR_PEER_DETECT_WINDOW_NS: u64, inside PEER: the window the
 *	failure detector would watch the peer for as the node's leader,
 *	from its last heartbeat (the fixed detector: hb-interval x hb-miss)
 * @ELEC_ATTR_TIMEOUT_AUTO: u8, 1 for T from measured round trips (per
 *	peer, RFC 6298's SRTT + 4 x RTTVAR, at least ELECTION_DUR_MIN_NS,
 *	at most coord-timeout / ELECTION_DEF_COORD_TIMEOUT_MULT; TIMEOUT_NS
 *	until a round trip is measured),
 *	0 (default) for TIMEOUT_NS itself; GROUP_NEW, GROUP_SET (a request
 *	that carries TIMEOUT_NS but not TIMEOUT_AUTO turns it off)
 * @ELEC_ATTR_PEER_RTT_NS: u64, inside PEER: the smoothed round-trip time
 *	to the peer (SRTT), from the request and reply pairs the algorithm
 *	exchanges with it; measured only with DETECTOR adaptive or
 *	TIMEOUT_AUTO on; absent before the first
 * @ELEC_ATTR_AUTH_WINDOW_NS: u64, how far a keyed frame's counter (the
 *	sender's clock) may be from the receiver's clock; 0 (default:
 *	ELECTION_DEF_AUTH_WINDOW_NS) or ELECTION_DUR_MIN_NS..
 *	ELECTION_DUR_MAX_NS; GROUP_NEW, GROUP_SET
 * @ELEC_ATTR_KEY_NEXT: binary, ELECTION_KEY_LEN bytes, GROUP_NEW and
 *	GROUP_SET: a second key the group accepts frames under (frames are
 *	still sent under KEY), for a key rotation without a gap; needs a key
 *	(given in the same request or set before), not all zeroes, not the
 *	key itself; a later KEY equal to it promotes it (it becomes the key,
 *	the old key the second one, and the replay state stays); never
 *	reported back
 * @ELEC_ATTR_KEY_NEXT_NONE: flag, GROUP_SET: drop the second key; not
 *	with ELEC_ATTR_KEY_NEXT (KEY_NONE drops both keys)
 * @ELEC_ATTR_AUTH_NEXT: u8, GROUP_GET: 1 when the group accepts a second
 *	key (ELEC_ATTR_KEY_NEXT)
 * @ELEC_ATTR_STANDBY: u8, 0 or 1, admin standby (configuration): the node
 *	follows, answers and forwards as its algorithm requires but never
 *	takes the leader role; a leader set to standby resigns at once
 *	(Documentation/protocol.rst, "Standby"); GROUP_NEW, GROUP_SET, GROUP_GET
 * @ELEC_ATTR_STANDBY_TRACKED: u8, 0 or 1, tracked standby (runtime state
 *	that ``electionctl track`` sets from health checks): the same effect
 *	as ELEC_ATTR_STANDBY, either one applies; GROUP_NEW, GROUP_SET,
 *	GROUP_GET
 * @__ELEC_ATTR_AFTER_LAST: internal use
 * @ELEC_ATTR_MAX: highest valid value
 */
enum elec_attr {
	ELEC_ATTR_UNSPEC,
	ELEC_ATTR_IFINDEX,
	ELEC_ATTR_IFNAME,
	ELEC_ATTR_GROUP,
	ELEC_ATTR_NODE_ID,
	ELEC_ATTR_ALGO,
	ELEC_ATTR_HB_INTERVAL_NS,
	ELEC_ATTR_HB_MISS,
	ELEC_ATTR_TIMEOUT_NS,
	ELEC_ATTR_COORD_TIMEOUT_NS,
	ELEC_ATTR_ROLE,
	ELEC_ATTR_LEADER,
	ELEC_ATTR_TERM,
	ELEC_ATTR_PARTICIPANT,
	ELEC_ATTR_PEERS,
	ELEC_ATTR_PEER,
	ELEC_ATTR_PEER_ID,
	ELEC_ATTR_PEER_LLADDR,
	ELEC_ATTR_PEER_ALIVE,
	ELEC_ATTR_TX,
	ELEC_ATTR_RX,
	ELEC_ATTR_DROPS,
	ELEC_ATTR_ELECTIONS,
	ELEC_ATTR_LEADER_CHANGES,
	ELEC_ATTR_TX_ERRORS,
	ELEC_ATTR_EVENT,
	ELEC_ATTR_TIMESTAMP_NS,
	ELEC_ATTR_SEQ,
	ELEC_ATTR_LIVE_INSTANCES,
	ELEC_ATTR_LIVE_PEERS,
	ELEC_ATTR_LIVE_SKBS,
	ELEC_ATTR_PAD,
	ELEC_ATTR_POS,
	ELEC_ATTR_PEER_POS,
	ELEC_ATTR_SUPPRESS,
	ELEC_ATTR_ELECTIONS_LIMITED,
	ELEC_ATTR_TX_DROPS,
	ELEC_ATTR_MTU,
	ELEC_ATTR_LLADDR,
	ELEC_ATTR_ASK_SUSPECT,
	ELEC_ATTR_PREEMPT,
	ELEC_ATTR_PREEMPT_DELAY_NS,
	ELEC_ATTR_TIMER_LATE,
	ELEC_ATTR_TIMER_LATE_BUCKETS,
	ELEC_ATTR_TIMER_LATE_MAX_NS,
	ELEC_ATTR_TIMER_LATE_COUNT,
	ELEC_ATTR_SEARCH_INTERVAL_NS,
	ELEC_ATTR_INV_SEQ,
	ELEC_ATTR_INV_COORDINATOR,
	ELEC_ATTR_PEER_MEMBER,
	ELEC_ATTR_QUORUM,
	ELEC_ATTR_QUORUM_LOST,
	ELEC_ATTR_PEER_HEARD_AGO_NS,
	ELEC_ATTR_PEER_SEEN_LLADDR,
	ELEC_ATTR_ADMIN_UP,
	ELEC_ATTR_KEY,
	ELEC_ATTR_KEY_NONE,
	ELEC_ATTR_AUTH,
	ELEC_ATTR_TIMER_THROTTLED,
	ELEC_ATTR_TIMER_THROTTLED_NS,
	ELEC_ATTR_DETECT_DEFERRED,
	ELEC_ATTR_ALGO_NAME,
	ELEC_ATTR_ALGO_MSGS,
	ELEC_ATTR_ALGO_OPTS,
	ELEC_ATTR_ALGO_OPT,
	ELEC_ATTR_OPTS_HASH,
	ELEC_ATTR_DETECTOR,
	ELEC_ATTR_DETECTOR_MARGIN_NS,
	ELEC_ATTR_DETECTOR_MAX_NS,
	ELEC_ATTR_SUSPICIONS,
	ELEC_ATTR_FALSE_SUSPICIONS,
	ELEC_ATTR_PEER_DETECT_WINDOW_NS,
	ELEC_ATTR_TIMEOUT_AUTO,
	ELEC_ATTR_PEER_RTT_NS,
	ELEC_ATTR_AUTH_WINDOW_NS,
	ELEC_ATTR_KEY_NEXT,
	ELEC_ATTR_KEY_NEXT_NONE,
	ELEC_ATTR_AUTH_NEXT,
	ELEC_ATTR_STANDBY,
	ELEC_ATTR_STANDBY_TRACKED,
	/* add new attributes above here */
	__ELEC_ATTR_AFTER_LAST,
	ELEC_ATTR_MAX = __ELEC_ATTR_AFTER_LAST - 1
};

#endif /* _UAPI_LINUX_ELECTION_H */
