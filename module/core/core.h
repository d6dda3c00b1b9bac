/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sans-IO protocol core: every election algorithm as a pure state
 * machine.
 *
 * Inputs: a decoded message (elec_core_rx), a timer expiry
 * (elec_core_timer), an admin command (elec_core_start, _stop, _elect,
 * _peer_add, _peer_del, _set_config), and the current time in ns, passed to
 * every input. Outputs: actions handed, one at a time and synchronously, to
 * the embedder's sink: send a message to a node id or broadcast it, arm or
 * cancel a named timer, report an event (election started, leader changed,
 * peer up/down, stopped).
 *
 * The core includes no kernel header but core_port.h, takes no lock and
 * allocates nothing: the embedder owns the struct elec_core and the peer
 * array, serialises calls on one instance, and carries out the actions.
 * Given the same inputs in the same order, it emits the same actions: the
 * kernel module, KUnit and the userspace simulator run this same code.
 */
#ifndef _ELEC_CORE_H
#define _ELEC_CORE_H

#include "core_port.h"
#include "options.h"

/* Link-layer address bytes stored per peer (Ethernet). */
#define ELEC_LLADDR_LEN	6

/**
 * enum elec_timer_id - the timers of an instance: two shared roles and a
 * set of slots each algorithm names for itself.
 * @ELEC_TIMER_HEARTBEAT: leader: time to broadcast the next heartbeat
 * @ELEC_TIMER_DETECT: follower: the leader has been silent for
 *	hb_interval * hb_miss; also the learning window after a start
 * @ELEC_TIMER_ALGO0: algorithm-defined (bully.h, ring.h, ... name it)
 * @ELEC_TIMER_ALGO1: algorithm-defined
 * @ELEC_TIMER_ALGO2: algorithm-defined
 * @ELEC_TIMER_ALGO3: algorithm-defined
 * @ELEC_TIMER_ALGO4: algorithm-defined
 * @ELEC_TIMER_COUNT: number of timers; the embedder provides this many
 *
 * An algorithm gives its slots names in its own header (for example
 * ELEC_BULLY_TIMER_ANSWER is ELEC_TIMER_ALGO0) and their printable names
 * in &elec_algo_ops.timer_names; elec_timer_name() returns them.
 */
enum elec_timer_id {
	ELEC_TIMER_HEARTBEAT,
	ELEC_TIMER_DETECT,
	ELEC_TIMER_ALGO0,
	ELEC_TIMER_ALGO1,
	ELEC_TIMER_ALGO2,
	ELEC_TIMER_ALGO3,
	ELEC_TIMER_ALGO4,
	ELEC_TIMER_COUNT
};

/**
 * struct elec_msg - a decoded protocol message (the wire header's fields).
 * @type: enum elec_msg_type
 * @algo: enum elec_algo
 * @flags: header flags: ELECTION_FLAG_LEAVING on a leader's last HEARTBEAT, else 0
 * @group: group id, non-zero
 * @payload_len: bytes at @payload
 * @src: sender's node id, non-zero
 * @dst: receiver's node id, 0 = broadcast
 * @term: sender's term
 * @payload: algorithm-specific payload; for a decoded message it points
 *	into the decoded buffer, for a sent one into core-owned memory valid
 *	only during the sink call
 * @src_lladdr: received messages: the link-layer source address of the
 *	frame (ELEC_LLADDR_LEN bytes), checked against the configured peer's;
 *	NULL when the embedder does not know it (not checked)
 * @auth_ctr: with ELECTION_FLAG_AUTH in @flags: the trailer's counter
 *	(the core fills it in on the frames it sends; the embedder writes
 *	the MAC, and checks a received one when elec_core_rx() asks it
 *	through &elec_sink.verify)
 * @frame: received messages: the frame's bytes from our header on (header,
 *	payload and trailer), for &elec_sink.verify; NULL when the embedder
 *	checks no MAC
 */
struct elec_msg {
	u8 type;
	u8 algo;
	u8 flags;
	u16 group;
	u16 payload_len;
	u32 src;
	u32 dst;
	u64 term;
	const u8 *payload;
	const u8 *src_lladdr;
	u64 auth_ctr;
	const u8 *frame;
};

/**
 * enum elec_action_kind - what an action asks the embedder to do.
 * @ELEC_ACT_SEND: transmit @msg (unicast to msg.dst, or broadcast when
 *	msg.dst is 0); the core has counted it in stats.tx
 * @ELEC_ACT_TIMER_ARM: (re)arm timer @timer.id to fire at absolute time
 *	@timer.expires_ns; a later arm of the same id replaces it
 * @ELEC_ACT_TIMER_CANCEL: cancel timer @timer.id (an expiry that still
 *	arrives is ignored by the core)
 * @ELEC_ACT_EVENT: report @event
 */
enum elec_action_kind {
	ELEC_ACT_SEND,
	ELEC_ACT_TIMER_ARM,
	ELEC_ACT_TIMER_CANCEL,
	ELEC_ACT_EVENT,
};

/**
 * struct elec_action - one output of the core.
 * @kind: enum elec_action_kind
 * @now_ns: the time of the input that produced this action
 * @msg: for ELEC_ACT_SEND
 * @timer: for ELEC_ACT_TIMER_ARM and ELEC_ACT_TIMER_CANCEL
 * @timer.id: enum elec_timer_id
 * @timer.expires_ns: absolute expiry (ARM only)
 * @event: for ELEC_ACT_EVENT
 * @event.type: enum elec_event
 * @event.peer: peer id for PEER_UP / PEER_DOWN, else 0
 * @event.leader: the leader after the event, 0 = none
 * @event.term: the term after the event
 */
struct elec_action {
	enum elec_action_kind kind;
	u64 now_ns;
	union {
		struct elec_msg msg;
		struct {
			u8 id;
			u64 expires_ns;
		} timer;
		struct {
			u8 type;
			u32 peer;
			u32 leader;
			u64 term;
		} event;
	};
};

/**
 * struct elec_sink - where the core delivers its actions.
 * @emit: called synchronously for every action, in order; must not call
 *	back into the core for the same instance
 * @verify: the MAC of a received authenticated frame (@msg's
 *	&elec_msg.frame): true when it is the group key's. elec_core_rx()
 *	calls it only for a frame that passed every other check, the
 *	counter's included, so a frame refused for free costs no MAC. NULL:
 *	every MAC holds (the simulator, which has no keys)
 * @ctx: passed to @emit and @verify
 */
struct elec_sink {
	void (*emit)(void *ctx, const struct elec_action *act);
	bool (*verify)(void *ctx, const struct elec_msg *msg);
	void *ctx;
};

/**
 * struct elec_peer - one configured peer of an instance.
 * @id: node id, non-zero, unique in the group, not the local id
 * @lladdr: link-layer address; opaque to the core, used by the embedder
 * @alive: 0 once the local node declared this peer failed (missed
 *	heartbeats or an unanswered message); 1 again when heard from
 * @flags: algorithm-private per-peer bits
 * @pos: ring position, 0 = the id (see elec_peer_pos())
 * @misses: invitation: searches in a row this member of the local
 *	coordinator's group did not answer
 * @heard_ns: when the last frame from this peer passed the receive checks
 *	(0: never); the Bully algorithms' quorum begins runs only with a
 *	majority heard lately
 * @support_ns: quorum on, the local node leading: when this peer's last
 *	ALIVE naming it (since its claim) arrived, 0: none
 * @told_until: Bully: until this time, a stale announcement from this
 *	peer gets no reply (it was sent an announcement or told lately)
 * @seen_lladdr: the source address of the last frame that carried this
 *	peer's id, accepted or dropped for its address (opaque, like
 *	@lladdr; set when the embedder passes elec_msg.src_lladdr; in a
 *	group with a key, only by an authenticated frame); all
 *	zeroes before the first (it fills the padding: the struct keeps its
 *	48 bytes, of which an instance holds ELEC_MAX_PEERS)
 */
struct elec_peer {
	u32 id;
	u8 lladdr[ELEC_LLADDR_LEN];
	u8 alive;
	u8 flags;
	u16 misses;
	u8 seen_lladdr[ELEC_LLADDR_LEN];
	u32 pos;
	u64 heard_ns;
	u64 support_ns;
	u64 told_until;
};

/**
 * struct elec_peer_est - what an instance estimates of one peer: the
 *	adaptive failure detector's history of its heartbeats (detect_adaptive.c)
 *	and its round trips (rtt.c). An array parallel to the peer table,
 *	which the embedder gives only to an instance whose configuration
 *	needs it (elec_config_needs_est(); elec_core_set_est()): the other
 *	instances do not pay for it.
 * @hb_rx_ns: when the last heartbeat (or equivalent frame) of this peer
 *	arrived while the local node followed it as leader (0: none yet)
 * @gap_ns: the estimate of the mean time between those arrivals (0: no
 *	sample yet)
 * @gap_dev_ns: the estimate of their mean deviation
 * @srtt_ns: the smoothed round-trip time to this peer (0: none measured)
 * @rttvar_ns: its mean deviation
 * @req_tx_ns: when the oldest request to this peer that has not been
 *	answered was sent (0: none outstanding)
 * @req_n: the requests sent since then and not answered (saturating)
 * @req_amb: more than one was outstanding at once: which request a reply
 *	answers is ambiguous, so none of the replies is a sample until all
 *	are answered (Karn)
 */
struct elec_peer_est {
	u64 hb_rx_ns;
	u64 gap_ns;
	u64 gap_dev_ns;
	u64 srtt_ns;
	u64 rttvar_ns;
	u64 req_tx_ns;
	u16 req_n;
	u8 req_amb;
};

/**
 * struct elec_config - the configuration of one instance.
 * @self_id: local node id, non-zero
 * @group: group id, non-zero
 * @algo: enum elec_algo
 * @hb_miss: heartbeats missed in a row before the leader is declared failed
 * @hb_interval_ns: leader heartbeat interval
 * @timeout_ns: T, how long to wait for an answer
 * @coord_timeout_ns: how long to wait for COORDINATOR after an answer;
 *	0 means ELECTION_DEF_COORD_TIMEOUT_MULT * @timeout_ns
 * @self_pos: the local node's ring position, 0 = its id
 * @suppress_off: ELEC_ALGO_RING only: no participant flag (the
 *	refinement of the all-ids ring); false is Chang and Roberts
 * @ask_suspect_off: the Bully algorithms only (bully, min-bully,
 *	enh-bully): a run skips the peer whose silence started it
 *	(ask-suspect off); false (the default) asks it like every better id,
 *	so a leader that was only late answers and keeps its role
 * @preempt_off: the Bully algorithms only: a better id that (re)joins
 *	follows the current leader until that leader fails (preempt off);
 *	false (the default) is the textbook: it takes over
 * @preempt_delay_ns: the Bully algorithms only, with preemption: follow a
 *	worse leader for this long before taking over; 0 (the default) takes
 *	over at once
 * @search_interval_ns: invitation only: a coordinator's search period;
 *	0 (the default) is the detection window, hb_interval * hb_miss
 * @quorum: the Bully algorithms only: a leader steps down, and no node
 *	takes leadership, without a majority of the configured nodes (itself
 *	included) heard within the lease, hb_interval * (hb_miss - 1) -
 *	timeout; every node but the leader then broadcasts ALIVE each
 *	hb_interval
 * @detector: enum elec_detector_kind: the failure detector (detect.h)
 * @detector_margin_ns: the adaptive detector's fixed safety margin; 0
 *	(the default): one hb_interval (elec_config_detector_margin())
 * @detector_max_ns: the adaptive detector's longest window; 0 (the
 *	default): ELECTION_DEF_DETECTOR_MAX_MULT x hb_interval x hb_miss
 *	(elec_config_detector_max())
 * @timeout_auto: T from the measured round trips (rtt.c) instead of
 *	@timeout_ns, which is T until the first is measured
 * @auth_window_ns: a keyed group takes a frame only when its counter (the
 *	sender's clock) is within this of the receiver's clock; 0 (the
 *	default): ELECTION_DEF_AUTH_WINDOW_NS (elec_config_auth_window())
 * @standby: admin standby: the node never takes the leader role
 *	(elec_core_standby_sync(); Documentation/protocol.rst, "Standby")
 * @standby_tracked: tracked standby, runtime state that health tracking
 *	sets; either one puts the node in standby
 */
struct elec_config {
	u32 self_id;
	u16 group;
	u8 algo;
	u32 hb_miss;
	u64 hb_interval_ns;
	u64 timeout_ns;
	u64 coord_timeout_ns;
	u32 self_pos;
	bool suppress_off;
	bool ask_suspect_off;
	bool preempt_off;
	u64 preempt_delay_ns;
	u64 search_interval_ns;
	bool quorum;
	u8 detector;
	u64 detector_margin_ns;
	u64 detector_max_ns;
	bool timeout_auto;
	u64 auth_window_ns;
	bool standby;
	bool standby_tracked;
};

/**
 * struct elec_stats - counters of one instance.
 * @tx: frames sent, per enum elec_msg_type (a broadcast counts once)
 * @rx: frames received and handed to the algorithm, per message type
 * @drops: frames dropped, per enum elec_drop
 * @elections: election runs this node started
 * @leader_changes: times the elected value changed to a leader id other
 *	than the last one held (a run that ends with the same leader, after
 *	a time with none, is not a change)
 * @elections_limited: elections that received frames would have started
 *	and the rate limit refused (elec_core_rx_may_elect())
 * @quorum_lost: times a Bully node with quorum on stepped down, or did not
 *	take leadership, for want of a majority
 * @detect_deferred: times ELEC_TIMER_DETECT (the failure detector, or a
 *	learning window) expired at least a heartbeat interval late and was
 *	re-armed for hb_interval x hb_miss before it took effect
 *	(elec_core_timer())
 * @suspicions: expiries of ELEC_TIMER_DETECT (on time, or deferred once)
 *	that made the algorithm declare the leader it followed failed
 *	(elec_detect_suspect())
 * @false_suspicions: suspicions after which the suspect was heard again
 *	at the term it was suspected in, or was the leader the node next
 *	accepted (it kept its role)
 *
 * Each u64 after @drops is a row of counters-list.h (options.c asserts
 * it): netlink, electionctl and electsim report them from there.
 */
struct elec_stats {
	u64 tx[ELEC_MSG_MAX + 1];
	u64 rx[ELEC_MSG_MAX + 1];
	u64 drops[ELEC_DROP_MAX + 1];
	u64 elections;
	u64 leader_changes;
	u64 elections_limited;
	u64 quorum_lost;
	u64 detect_deferred;
	u64 suspicions;
	u64 false_suspicions;
};

/**
 * enum elec_bully_phase - where an instance of a Bully algorithm (bully,
 * min-bully, enh-bully) is.
 * @ELEC_BULLY_IDLE: stopped
 * @ELEC_BULLY_LEARNING: started, listening for the leader's heartbeats
 *	(the variants: and for the answer to their QUERY)
 * @ELEC_BULLY_FOLLOWING: has a leader (or none yet) and watches it
 * @ELEC_BULLY_WAIT_ANSWER: sent ELECTION (bully: to the higher ids;
 *	min-bully: broadcast, for the lower ids; enh-bully: to a stage's
 *	ids), waiting T
 * @ELEC_BULLY_WAIT_COORD: bully: got an ANSWER, waiting for COORDINATOR
 * @ELEC_BULLY_LEADING: is the leader, sends heartbeats
 */
enum elec_bully_phase {
	ELEC_BULLY_IDLE,
	ELEC_BULLY_LEARNING,
	ELEC_BULLY_FOLLOWING,
	ELEC_BULLY_WAIT_ANSWER,
	ELEC_BULLY_WAIT_COORD,
	ELEC_BULLY_LEADING,
};

/**
 * enum elec_ring_phase - where a ring instance is (all three ring
 * algorithms); c->participant says whether it takes part in a run.
 * @ELEC_RING_IDLE: stopped
 * @ELEC_RING_LEARNING: started, listening for the leader's heartbeats
 * @ELEC_RING_FOLLOWING: has a leader (or none yet) and watches it
 * @ELEC_RING_LEADING: is the leader, sends heartbeats
 */
enum elec_ring_phase {
	ELEC_RING_IDLE,
	ELEC_RING_LEARNING,
	ELEC_RING_FOLLOWING,
	ELEC_RING_LEADING,
};

/**
 * enum elec_enh_stage - which ids an enh-bully run asks.
 * @ELEC_ENH_STAGE_NONE: no run
 * @ELEC_ENH_STAGE_CANDIDATES: stage 1: an ordinary node asks every
 *	candidate, a candidate the higher candidates
 * @ELEC_ENH_STAGE_ORDINARY: stage 2 (ordinary nodes only): the higher
 *	ordinary ids, after no candidate answered
 */
enum elec_enh_stage {
	ELEC_ENH_STAGE_NONE,
	ELEC_ENH_STAGE_CANDIDATES,
	ELEC_ENH_STAGE_ORDINARY,
};

/**
 * enum elec_inv_phase - where an instance of the Invitation algorithm is.
 * @ELEC_INV_IDLE: stopped
 * @ELEC_INV_COORD: coordinator of its group (maybe alone in it); sends
 *	heartbeats and searches for other coordinators
 * @ELEC_INV_MEMBER: member of a group, watches its coordinator's
 *	heartbeats
 * @ELEC_INV_MERGING: coordinator that invited the coordinators it found
 *	and collects their ACCEPTs (its group still runs meanwhile)
 * @ELEC_INV_ACCEPTED: accepted an invitation, waits for the new
 *	coordinator's READY (no leader meanwhile: the group is halted)
 */
enum elec_inv_phase {
	ELEC_INV_IDLE,
	ELEC_INV_COORD,
	ELEC_INV_MEMBER,
	ELEC_INV_MERGING,
	ELEC_INV_ACCEPTED,
};

/**
 * struct elec_inv - the Invitation algorithm's state.
 * @seq: the local node's group number: its sequence number
 * @coord: the local node's group number: its coordinator (the local id
 *	when it coordinates); 0 before the first group
 * @pend_seq: ELEC_INV_MERGING: the new group's sequence number;
 *	ELEC_INV_ACCEPTED: that of the group accepted
 * @pend_coord: ELEC_INV_ACCEPTED: the coordinator of the group accepted
 * @found_seq: the highest sequence number of the groups the current
 *	search found
 * @searching: a search's reply window is open
 * @found_higher: the current search found a higher coordinator
 * @found_lower: the current search found this many lower coordinators
 * @dirty: the membership changed since the last READY
 * @mver: the membership's version: a coordinator's count of the READYs it
 *	sent; a member's, that of the last READY it took (it echoes it in
 *	AYC_REPLY, and a coordinator that sees an old one sends READY)
 * @win_shift: the reply and accept windows are T << @win_shift
 *	(0 .. ELEC_INV_WIN_SHIFT_MAX); an INVITE states the accept window's
 *	shift, so that the nodes that accept wait long enough for READY
 * @win_fast: windows in a row whose last answer came within a quarter of
 *	the window (ELEC_INV_WIN_DECAY of them halve it)
 * @quiet: widened windows: the node's searches in a row that found a
 *	higher coordinator (up to ELEC_INV_WIN_SHIFT_MAX); its search period
 *	is doubled this many times and it makes no prompted search
 * @late_reply: an answer came after the last search's window closed (the
 *	window was widened for it; one widening per window)
 * @late_accept: an ACCEPT came after the last merge's window closed
 * @win_ns: when the current (or last) search or merge opened its window
 * @last_ans_ns: when its last on-time answer (AYC_REPLY or ACCEPT) came
 * @merge_seq: the sequence number of the last merge (a late ACCEPT
 *	names it); 0 before the first
 * @buf: where INVITE and READY payloads are built (kept off the stack:
 *	the core runs in softirq context in the kernel)
 */
struct elec_inv {
	u64 seq;
	u32 coord;
	u64 pend_seq;
	u32 pend_coord;
	u64 found_seq;
	bool searching;
	bool found_higher;
	u32 found_lower;
	bool dirty;
	u32 mver;
	u8 win_shift;
	u8 win_fast;
	u8 quiet;
	bool late_reply;
	bool late_accept;
	u64 win_ns;
	u64 last_ans_ns;
	u64 merge_seq;
	u8 buf[ELECTION_INV_INVITE_HDR_LEN + 4 * ELECTION_INV_MAX_IDS];
};

/*
 * The Invitation algorithm's windows adapt (invitation.c), as the ring's
 * hop timeout does: an AYC_REPLY or ACCEPT that arrives after its window
 * closed, or a search that lost several of the last search's answers,
 * doubles both windows (once per window), up to
 * T << ELEC_INV_WIN_SHIFT_MAX; ELEC_INV_WIN_DECAY windows in a row whose
 * last answer came within a quarter of the window halve them again.
 */
#define ELEC_INV_WIN_SHIFT_MAX	5
#define ELEC_INV_WIN_DECAY	8

/*
 * Bytes of ring queue the kernel gives each instance: every ring message
 * a node has to pass on waits here until its successor acknowledges it.
 * The all-ids ring keeps up to about two small records per node of the
 * group in it (32 bytes each), the list ring a few lists of up to 1 KiB.
 */
#define ELEC_RING_QUEUE_BYTES	16384

/*
 * The ring's hop timeout adapts (ring.c): an ACK that arrives after its
 * hop timed out doubles it, up to T << ELEC_RING_ACK_SHIFT_MAX;
 * ELEC_RING_ACK_DECAY on-time ACKs in a row, each within a quarter of
 * it (half of the next lower setting), halve it again.
 */
#define ELEC_RING_ACK_SHIFT_MAX	3
#define ELEC_RING_ACK_DECAY	16

/*
 * The Bully algorithms' wait for answers adapts the same way (bully.c):
 * a peer whose answer timed out and that is heard from within a
 * coord-timeout after (it answered late: a loaded host, a burst of
 * election traffic) doubles it, up to T << ELEC_BULLY_ANSWER_SHIFT_MAX;
 * ELEC_BULLY_ANSWER_DECAY answers in a row, each within a quarter of the
 * wait, halve it again.
 */
#define ELEC_BULLY_ANSWER_SHIFT_MAX	3
#define ELEC_BULLY_ANSWER_DECAY		8

/**
 * struct elec_ring - the hop machinery shared by the ring algorithms.
 * @q: embedder-owned queue memory, 8-byte aligned (elec_core_set_queue())
 * @q_cap: its size in bytes
 * @q_len: bytes in use; records are packed from @q, the head first
 * @dst: the node the head record was sent to and whose ACK is awaited;
 *	0 when nothing is in flight
 * @hop: hop number of the last frame sent (each transmission takes the
 *	next one; the ACK echoes it)
 * @run: the election run this node takes part in (the term its ELECTION
 *	frames carry); frames of an older run are stale, a newer one resets
 *	the per-run state below and the participant flag
 * @seen_max: ring-all: highest id of another node collected in the
 *	current run
 * @initiator: ring-all: this node began the current run itself
 * @sent_own: ring-all: this node sent its own "elect me" in the run
 * @sent_ns: when the frame in flight was sent
 * @late_dst: the node whose ACK of hop @late_hop timed out last (0: none);
 *	that ACK arriving after all shows the hop timeout is too short
 * @late_hop: see @late_dst
 * @late_sent_ns: when hop @late_hop was sent (its late ACK is a round-trip
 *	sample too)
 * @ack_shift: the hop timeout is T << @ack_shift (0 .. ELEC_RING_ACK_SHIFT_MAX)
 * @ack_fast: on-time ACKs in a row that came within a quarter of the hop
 *	timeout (ELEC_RING_ACK_DECAY of them halve it); a timeout restarts
 *	the count
 * @dst_greeted: @dst greeted (an ACK of hop 0: it started, or it was
 *	skipped) after the frame in flight was sent, so it may have lost it:
 *	the hop timeout sends it to @dst again (once per destination)
 *	instead of declaring @dst failed
 * @resigned: this node led and stepped down entering standby: its
 *	followers, which find it silent, count it failed, so it greets when
 *	it accepts the next leader, or when its window expires without one
 * @counted_term: the term at which this node knows the ring counts it:
 *	set, in any phase, when any ELECTION or COORDINATOR reaches it (its
 *	ACK revives it at the sender; elec_ring_rx()), or when it greets
 *	because neither came within a round of accepting the leader; 0 (no
 *	term) after a start. A node that learns a settled leader from
 *	heartbeats after it starts greets once more a round later, since its
 *	start greeting may predate the predecessor declaring it failed
 * @accept_ns: when this node accepted its current (leader, term)
 */
struct elec_ring {
	u8 *q;
	u32 q_cap;
	u32 q_len;
	u32 dst;
	u32 hop;
	u64 run;
	u32 seen_max;
	bool initiator;
	bool sent_own;
	u64 sent_ns;
	u32 late_dst;
	u32 late_hop;
	u64 late_sent_ns;
	u8 ack_shift;
	u8 ack_fast;
	bool dst_greeted;
	bool resigned;
	u64 counted_term;
	u64 accept_ns;
};

/**
 * struct elec_quorum - quorum on (the Bully algorithms): the node's
 *	promise, and as leader its claim (module/core/quorum.c).
 * @named: the leader the node's last ALIVE naming one named (0: none, or
 *	released: that leader said it leads no more); the node names no other
 *	until the promise window after @named_ns is over
 * @named_term: the term at which it named @named
 * @named_ns: when it sent that ALIVE
 * @claim_term: leading: the term of its claim; only ALIVE naming it at
 *	this term or a newer one count
 * @claim_ns: leading: when it claimed
 * @lapse_ns: leading: when its majority's namings lapsed (it gave up the
 *	role, not the claim, for T: namings arriving by then confirm it
 *	again); 0 while confirmed, and from a new claim on
 * @confirmed: leading: a majority named it since the claim (the role is
 *	leader only then; candidate before)
 * @start_bound: until then the node names nobody: it started then, and
 *	any promise it made before (a stop, a reboot) is forgotten, so it is
 *	kept a promise window from the start
 * @stale: following: its last ALIVE named nobody only because the leader
 *	had been silent longer than elec_quorum_fresh_ns(); the leader's next
 *	heartbeat gets an ALIVE naming it at once (elec_quorum_heard())
 * @release_term: the highest term the node put on a frame that releases
 *	promises made to it (an ALIVE's header term, its max_term; a
 *	resignation's term): a third party naming it leader at this term or
 *	an older one makes it claim anew above it (elec_quorum_named_stale()),
 *	so that no such frame still in flight releases a naming it counts.
 *	Kept across a stop and a start.
 */
struct elec_quorum {
	u32 named;
	u64 named_term;
	u64 named_ns;
	u64 start_bound;
	u64 claim_term;
	u64 claim_ns;
	u64 lapse_ns;
	u64 release_term;
	bool confirmed;
	bool stale;
};

/**
 * struct elec_bully - the run state of the Bully algorithms (bully,
 *	min-bully, enh-bully).
 * @q: quorum on: the promise and the claim (struct elec_quorum); not part
 *	of a run (elec_bully_run_clear() keeps it)
 * @suspect: the peer whose silence (or resignation) started the current
 *	run, 0 = none
 * @suspect_left: @suspect resigned (no run asks it, not even a restart
 *	after coord-timeout)
 * @probing: the run has asked only @suspect so far (a run that its
 *	detector began, ask-suspect on); T without an answer asks the other
 *	better ids
 * @run_best: min-bully, enh-bully: the best responder of the current run
 *	so far, 0 = none
 * @run_best_term: min-bully: the term at which @run_best announced itself
 *	during the run (0: it only answered)
 * @stage: enh-bully: which ids the run asks now (enum elec_enh_stage)
 * @wait_ns: when the current wait for answers began (ELEC_BULLY_TIMER_ANSWER
 *	armed)
 * @expired_ns: when the last wait for answers ran out (the peers still
 *	asked then are flagged ELEC_BULLY_TIMED_OUT)
 * @answer_shift: the wait for answers is T << @answer_shift (0 ..
 *	ELEC_BULLY_ANSWER_SHIFT_MAX): a frame from a peer whose answer timed
 *	out, arriving within a coord-timeout, doubles it (a loaded host: the
 *	answers come, later than T); not part of a run
 * @answer_fast: answers in a row that came within a quarter of the wait
 *	(ELEC_BULLY_ANSWER_DECAY of them halve it); a late one restarts the
 *	count
 */
struct elec_bully {
	struct elec_quorum q;
	u32 suspect;
	bool suspect_left;
	bool probing;
	u32 run_best;
	u64 run_best_term;
	u8 stage;
	u8 answer_shift;
	u8 answer_fast;
	u64 wait_ns;
	u64 expired_ns;
};

/* the frame numbers a receiver remembers per peer: a bitmap of 16 words */
#define ELEC_AUTH_MAP_WORDS	16
#define ELEC_AUTH_MAP_BITS	(ELEC_AUTH_MAP_WORDS * 64)
/* a frame this many frame numbers behind the highest, or more, is refused */
#define ELEC_AUTH_REORDER	(ELEC_AUTH_MAP_BITS - 64)

/**
 * struct elec_auth_peer - what a keyed receiver remembers of one peer's
 *	frames, to take each once in any order.
 * @top: the highest counter accepted from the peer (0: none yet)
 * @map: bit n % ELEC_AUTH_MAP_BITS set when frame number n (the counter's
 *	low ELECTION_AUTH_SEQ_BITS) was accepted, for the frame numbers of
 *	@top's word and the ELEC_AUTH_MAP_WORDS - 1 words below it; a word
 *	is cleared when @top first reaches it
 */
struct elec_auth_peer {
	u64 top;
	u64 map[ELEC_AUTH_MAP_WORDS];
};

/**
 * struct elec_auth - frame authentication of an instance (its group has a
 *	key; the embedder holds the key and computes the MACs).
 * @rx: embedder-owned, one entry per peer slot, kept parallel to the peer
 *	table: what was accepted from each peer; NULL when authentication is
 *	off
 * @tx_ctr: the counter of the last frame sent; kept while the instance
 *	lives, also across key changes
 * @clock_off: the embedder's wall clock minus the core's clock, as it
 *	last said (elec_core_set_auth(), elec_core_set_wall()): a sent
 *	frame's counter is the wall clock with the next frame number in its
 *	low bits (elec_auth_next_ctr()), and a received one is judged
 *	against the same clock
 *
 * The rule (Documentation/protocol.rst, "Authentication"): a receiver
 * accepts a frame only when its counter's clock is within auth-window of
 * its own wall clock (elec_config_auth_window()), and its counter is above
 * the highest accepted from the peer, or below it by fewer than
 * ELEC_AUTH_REORDER frame numbers with its frame number not accepted
 * before: so a frame is taken at most once, in whatever order the network
 * delivers it, and a recording stops being accepted anywhere an
 * auth-window after it was sent. A sender that restarts resumes from its
 * wall clock, above every counter it sent before as long as its clock did
 * not step back across the restart.
 */
struct elec_auth {
	struct elec_auth_peer *rx;
	u64 tx_ctr;
	u64 clock_off;
};

/**
 * enum elec_key_src - where a key of an instance comes from after a key
 *	change (elec_auth_key_plan()).
 * @ELEC_KEY_SRC_NONE: no key
 * @ELEC_KEY_SRC_CUR: the key the instance has (the one it sends under)
 * @ELEC_KEY_SRC_NEXT: the second key it accepts
 * @ELEC_KEY_SRC_KEY: the request's key (ELEC_ATTR_KEY)
 * @ELEC_KEY_SRC_KEY_NEXT: the request's second key (ELEC_ATTR_KEY_NEXT)
 */
enum elec_key_src {
	ELEC_KEY_SRC_NONE,
	ELEC_KEY_SRC_CUR,
	ELEC_KEY_SRC_NEXT,
	ELEC_KEY_SRC_KEY,
	ELEC_KEY_SRC_KEY_NEXT,
};

/**
 * struct elec_key_change - the keys of an instance and the change a
 *	request asks for. Each key is ELECTION_KEY_LEN bytes, compared as
 *	bytes; the core never keeps one.
 * @cur: the instance's key, NULL when it has none
 * @next: its second accepted key, NULL when none
 * @key: the request's key (ELEC_ATTR_KEY), NULL when not given
 * @key_none: the request removes the key (ELEC_ATTR_KEY_NONE)
 * @key_next: the request's second key (ELEC_ATTR_KEY_NEXT), NULL when not
 *	given
 * @key_next_none: the request drops the second key
 *	(ELEC_ATTR_KEY_NEXT_NONE)
 */
struct elec_key_change {
	const void *cur;
	const void *next;
	const void *key;
	bool key_none;
	const void *key_next;
	bool key_next_none;
};

/**
 * struct elec_key_plan - what a key change does (elec_auth_key_plan()).
 * @cur: where the key comes from (ELEC_KEY_SRC_NONE: the group has none)
 * @next: where the second accepted key comes from (ELEC_KEY_SRC_NONE:
 *	none)
 * @fresh: the per-peer replay state starts (elec_core_set_auth()): the
 *	group had no key; a change of key keeps it
 * @bad_next: on refusal, the request's second key (or its absence of a
 *	key) is the reason
 */
struct elec_key_plan {
	u8 cur;
	u8 next;
	bool fresh;
	bool bad_next;
};

struct elec_core;

/**
 * struct elec_info - one attribute of an algorithm's private state, as
 *	GROUP_GET reports it (&elec_algo_ops.info, &elec_algo_ops.peer_info).
 * @attr: the netlink attribute (enum elec_attr)
 * @width: its size in bytes: 1, 4 or 8
 * @value: its value
 */
struct elec_info {
	u16 attr;
	u8 width;
	u64 value;
};

/* the most attributes an algorithm reports per instance, and per peer */
#define ELEC_INFO_MAX		4
#define ELEC_PEER_INFO_MAX	2

/**
 * struct elec_algo_ops - one election algorithm.
 * @algo: enum elec_algo value
 * @name: name as electionctl spells it ("bully")
 * @start: the instance was started (or its device came up)
 * @stop: the instance is being stopped; the core cancels every timer
 *	and reports ELEC_EVENT_STOPPED itself afterwards
 * @elect: the administrator asked for an election now
 * @rx: a message passed the core's generic checks (group, algorithm,
 *	destination, known peer); the core counted it in stats.rx
 * @timer: an armed timer expired (every timer but ELEC_TIMER_DETECT)
 * @silent: the failure detector's window (ELEC_TIMER_DETECT, detect.h)
 *	ran out: the leader was silent, or a learning window ended; the
 *	algorithm's reaction (suspect the leader, begin a run)
 * @peer_removed: a peer is about to be removed from the table (optional)
 * @payload_ok: whether @len bytes of payload are valid for message @type
 *	(the codec calls it; NULL means: every type takes an empty payload)
 * @max_payload: the largest payload the algorithm sends in a group of
 *	@n_nodes nodes, the local one included (NULL: every message is the
 *	bare header)
 * @lowest_wins: the winner order: true when the lowest id is the best
 *	(min-bully), false when the highest is (every other algorithm); see
 *	elec_algo_better()
 * @timer_names: printable names of the timers, indexed by enum
 *	elec_timer_id (NULL, or a NULL entry: the generic name; see
 *	elec_timer_name())
 * @wait_timers: the algorithm's slots whose expiry concludes that an
 *	awaited frame did not come in time (bit 1 << enum elec_timer_id);
 *	ELEC_TIMER_DETECT is always one; see elec_timer_awaits_rx()
 * @msgs: the message types it sends and takes (ELEC_MSG_BIT() of each;
 *	the counter-only ELEC_MSG_RETRY not among them), as the algorithm
 *	dump (ELEC_CMD_ALGO_GET) reports them
 * @options: the options of options-list.h that only some algorithms take
 *	(ELEC_OPT_BIT() of each) that this one takes: elec_opt_applies()
 * @queue_bytes: bytes of queue memory the embedder gives each instance
 *	(elec_core_set_queue()); 0: the algorithm queues nothing
 * @set_queue: optional: take the queue memory (elec_core_set_queue())
 * @config_changed: optional: the timing or options change from @c->cfg
 *	to @cfg (elec_core_set_config(), which has checked @cfg): forget
 *	what the algorithm adapted to the old values
 * @info: optional: fill @info (room for ELEC_INFO_MAX entries) with the
 *	private state GROUP_GET reports; return how many were filled, at
 *	most ELEC_INFO_MAX (the KUnit suite elec_detect checks every table)
 * @peer_info: optional: the same for a peer of the table (a copy of it;
 *	room for ELEC_PEER_INFO_MAX entries)
 * @standby: standby (@c->standby) changed on a running instance
 *	(elec_core_standby_sync()): on, leave any candidacy (a leader has
 *	resigned already and follows nobody now); off, become a candidate
 *	again (elect when there is no leader, take over from a worse one as
 *	preemption allows)
 * @rtt_asks: the message types that ask their receiver for a reply
 *	(ELEC_MSG_BIT() of each): sending one to a peer starts a round trip
 *	(rtt.c)
 * @rtt_replies: the message types that answer one: receiving one from a
 *	peer ends the round trip to it
 *
 * Every op but @peer_removed, @payload_ok, @max_payload, @set_queue,
 * @config_changed, @info and @peer_info is required; elec_algo_find()
 * returns only complete tables.
 */
struct elec_algo_ops {
	u8 algo;
	const char *name;
	void (*start)(struct elec_core *c, u64 now);
	void (*stop)(struct elec_core *c, u64 now);
	void (*elect)(struct elec_core *c, u64 now);
	void (*rx)(struct elec_core *c, const struct elec_msg *msg, u64 now);
	void (*timer)(struct elec_core *c, enum elec_timer_id id, u64 now);
	void (*silent)(struct elec_core *c, u64 now);
	void (*peer_removed)(struct elec_core *c, struct elec_peer *peer,
			     u64 now);
	bool (*payload_ok)(u8 type, const u8 *payload, u16 len);
	u32 (*max_payload)(u32 n_nodes);
	bool lowest_wins;
	const char *const *timer_names;
	u8 wait_timers;
	u32 msgs;
	u32 options;
	u32 queue_bytes;
	void (*set_queue)(struct elec_core *c, void *buf, u32 cap);
	void (*config_changed)(struct elec_core *c,
			       const struct elec_config *cfg);
	u32 (*info)(const struct elec_core *c, struct elec_info *info);
	u32 (*peer_info)(const struct elec_peer *p, struct elec_info *info);
	void (*standby)(struct elec_core *c, u64 now);
	u32 rtt_asks;
	u32 rtt_replies;
};

/* message type sets of struct elec_algo_ops' @msgs */
#define ELEC_MSG_BIT(t)		(1U << (t))
/* the types only quorum on sends (quorum.c; electionctl's stats) */
#define ELEC_MSGS_QUORUM	ELEC_MSG_BIT(ELEC_MSG_ALIVE)
#define ELEC_MSGS_BULLY		(ELEC_MSG_BIT(ELEC_MSG_ELECTION) |	\
				 ELEC_MSG_BIT(ELEC_MSG_ANSWER) |	\
				 ELEC_MSG_BIT(ELEC_MSG_COORDINATOR) |	\
				 ELEC_MSG_BIT(ELEC_MSG_HEARTBEAT) |	\
				 ELEC_MSGS_QUORUM)
#define ELEC_MSGS_BULLY_QUERY	(ELEC_MSGS_BULLY |			\
				 ELEC_MSG_BIT(ELEC_MSG_QUERY) |		\
				 ELEC_MSG_BIT(ELEC_MSG_CID))
#define ELEC_MSGS_RING		(ELEC_MSG_BIT(ELEC_MSG_ELECTION) |	\
				 ELEC_MSG_BIT(ELEC_MSG_COORDINATOR) |	\
				 ELEC_MSG_BIT(ELEC_MSG_HEARTBEAT) |	\
				 ELEC_MSG_BIT(ELEC_MSG_ACK))
/*
 * the round trips of struct elec_algo_ops' @rtt_asks and @rtt_replies
 * (rtt.c): Bully's ELECTION answered by ANSWER, Invitation's search by
 * its replies; the rings measure their hops themselves (an ACK names the
 * transmission it acknowledges)
 */
#define ELEC_RTT_ASKS_BULLY	ELEC_MSG_BIT(ELEC_MSG_ELECTION)
#define ELEC_RTT_REPLIES_BULLY	ELEC_MSG_BIT(ELEC_MSG_ANSWER)
#define ELEC_RTT_ASKS_RING	0
#define ELEC_RTT_REPLIES_RING	0
#define ELEC_RTT_ASKS_INVITATION	ELEC_MSG_BIT(ELEC_MSG_ARE_YOU_COORD)
#define ELEC_RTT_REPLIES_INVITATION	ELEC_MSG_BIT(ELEC_MSG_AYC_REPLY)
#define ELEC_MSGS_INVITATION	(ELEC_MSG_BIT(ELEC_MSG_HEARTBEAT) |	\
				 ELEC_MSG_BIT(ELEC_MSG_ARE_YOU_COORD) |	\
				 ELEC_MSG_BIT(ELEC_MSG_AYC_REPLY) |	\
				 ELEC_MSG_BIT(ELEC_MSG_INVITE) |	\
				 ELEC_MSG_BIT(ELEC_MSG_ACCEPT) |	\
				 ELEC_MSG_BIT(ELEC_MSG_READY))

/**
 * struct elec_core - the protocol state of one instance.
 * @cfg: configuration
 * @ops: the algorithm
 * @sink: where actions go
 * @peers: peer table, sorted by ascending id (embedder-owned array)
 * @n_peers: entries in use in @peers
 * @max_peers: capacity of @peers
 * @peers_unordered: adjacent pairs of @peers whose ring order (position,
 *	id; elec_peer_pos()) is the reverse of their id order; 0 when the
 *	table is in ring order too (positions unset, or ascending with the
 *	ids), so that ring.c finds a successor without a scan; kept by
 *	elec_core_peer_add_pos() and elec_core_peer_del()
 * @peer_id_lo: the id of @peers[0] (0 while the table is empty), where a
 *	look-up by id guesses the index of dense ids from
 * @running: started and not stopped
 * @learning: started and no leader known since (cleared by the first
 *	leader set); a learning node accepts any term from a configured peer
 * @standby: in standby (admin or tracked, as elec_core_start() or
 *	elec_core_standby_sync() last took them from @cfg): the node never
 *	takes the leader role (elec_core_standby())
 * @detect_deferred: ELEC_TIMER_DETECT is armed for the extra window that
 *	a late expiry grants; an arming that expires later, or a cancel,
 *	clears it, an earlier one is ignored meanwhile
 * @role: enum elec_role, as reported
 * @participant: taking part in an election run
 * @phase: algorithm-defined phase (enum elec_bully_phase for Bully)
 * @leader: elected leader id, 0 = none (the texts' bottom)
 * @last_leader: the last non-zero @leader, 0 before the first
 * @term: term of @leader
 * @max_term: highest term seen in any accepted frame
 * @timer_expires: per timer, its absolute expiry, 0 when not armed
 * @elect_tat: rate limit of elections started by received frames: the
 *	theoretical arrival time of the next one (GCRA, see
 *	elec_core_rx_may_elect())
 * @leader_rx_ns: when the last HEARTBEAT or COORDINATOR of @leader was
 *	accepted (or the local node took the role); a follower trusts a
 *	leader heard within hb_interval * hb_miss
 * @est: the estimates of the peers, parallel to @peers (@max_peers
 *	entries), or NULL: the adaptive detector then keeps the fixed window
 *	and timeout-auto the configured timeout (elec_core_set_est())
 * @suspect: the leader the failure detector last suspected, until it is
 *	heard again at @suspect_term or another leader is accepted (0: none)
 * @suspect_term: the term it was suspected in
 * @bully: the Bully algorithms' run state (bully, min-bully, enh-bully)
 * @ring: the ring algorithms' hop state
 * @inv: the Invitation algorithm's state
 * @auth: frame authentication (elec_core_set_auth())
 * @stats: counters
 *
 * @bully, @ring and @inv share their memory (one algorithm's state is live per
 * instance, and the algorithm never changes): elec_core_init() zeroes it.
 */
struct elec_core {
	struct elec_config cfg;
	const struct elec_algo_ops *ops;
	struct elec_sink sink;
	struct elec_peer *peers;
	u32 n_peers;
	u32 max_peers;
	u32 peers_unordered;
	u32 peer_id_lo;
	bool running;
	bool learning;
	bool standby;
	bool detect_deferred;
	u8 role;
	bool participant;
	u8 phase;
	u32 leader;
	u32 last_leader;
	u64 term;
	u64 max_term;
	u64 timer_expires[ELEC_TIMER_COUNT];
	u64 elect_tat;
	u64 leader_rx_ns;
	struct elec_peer_est *est;
	u32 suspect;
	u64 suspect_term;
	union {
		struct elec_bully bully;
		struct elec_ring ring;
		struct elec_inv inv;
	};
	struct elec_auth auth;
	struct elec_stats stats;
};

/**
 * elec_ewma() - one step of an exponentially weighted moving average.
 * @avg: the average
 * @x: the new value
 * @shift: the gain is 1 / 2^@shift
 *
 * The step is rounded away from zero: the average reaches a steady @x
 * exactly (rounded toward zero it would stop up to 2^@shift - 1 short,
 * and a deviation would never fall to 0).
 *
 * Return: @avg + (@x - @avg) / 2^@shift.
 */
static inline u64 elec_ewma(u64 avg, u64 x, unsigned int shift)
{
	u64 round = (1ULL << shift) - 1;

	if (x >= avg)
		return avg + ((x - avg) >> shift) + !!((x - avg) & round);
	return avg - ((avg - x) >> shift) - !!((avg - x) & round);
}

/**
 * elec_core_standby() - whether the local node is in standby.
 * @c: the instance
 *
 * A node in standby follows, answers and forwards as its algorithm
 * requires, but never takes the leader role and never puts itself forward
 * as a candidate (Documentation/protocol.rst, "Standby").
 *
 * Return: true in standby (admin or tracked).
 */
static inline bool elec_core_standby(const struct elec_core *c)
{
	return c->standby;
}

/* core.c: instance life cycle, peers, generic receive checks, helpers */
const struct elec_algo_ops *elec_algo_find(u8 algo);
const struct elec_algo_ops *elec_algo_find_name(const char *name);
bool elec_algo_ops_valid(const struct elec_algo_ops *ops);
int elec_config_check(const struct elec_config *cfg, const char **why);
u64 elec_config_coord_timeout(const struct elec_config *cfg);
int elec_core_init(struct elec_core *c, const struct elec_config *cfg,
		   struct elec_peer *peer_buf, u32 max_peers,
		   const struct elec_sink *sink);
int elec_core_set_config(struct elec_core *c, const struct elec_config *cfg,
			 const char **why);
void elec_core_start(struct elec_core *c, u64 now);
void elec_core_stop(struct elec_core *c, u64 now);
void elec_core_resign(struct elec_core *c, u64 now);
void elec_core_standby_sync(struct elec_core *c, u64 now);
void elec_core_elect(struct elec_core *c, u64 now);
int elec_core_peer_add(struct elec_core *c, u32 id,
		       const u8 lladdr[ELEC_LLADDR_LEN]);
int elec_core_peer_add_pos(struct elec_core *c, u32 id,
			   const u8 lladdr[ELEC_LLADDR_LEN], u32 pos);
void elec_core_set_queue(struct elec_core *c, void *buf, u32 cap);
void elec_core_set_est(struct elec_core *c, struct elec_peer_est *est);
bool elec_config_needs_est(const struct elec_config *cfg);
struct elec_peer_est *elec_core_est(const struct elec_core *c,
				    const struct elec_peer *p);
bool elec_algo_better(const struct elec_algo_ops *ops, u32 a, u32 b);
int elec_core_peer_del(struct elec_core *c, u32 id, u64 now);
struct elec_peer *elec_core_peer_find(struct elec_core *c, u32 id);
u32 elec_core_peer_index(const struct elec_core *c, u32 id);
void elec_core_rx(struct elec_core *c, const struct elec_msg *msg, u64 now);
void elec_core_suspect_heard(struct elec_core *c, u32 id, u64 term);
void elec_core_drop(struct elec_core *c, enum elec_drop reason);
u32 elec_config_max_frame(const struct elec_config *cfg, u32 n_nodes);
u32 elec_core_max_frame(const struct elec_core *c, u32 n_nodes);
void elec_core_set_auth(struct elec_core *c, struct elec_auth_peer *rx,
			u64 wall_ns, u64 now);
void elec_core_set_wall(struct elec_core *c, u64 wall_ns, u64 now);
u64 elec_auth_next_ctr(struct elec_core *c, u64 now);
int elec_core_auth_forget(struct elec_core *c, u32 id);
int elec_auth_key_plan(const struct elec_key_change *kc,
		       struct elec_key_plan *plan, const char **why);

/* timers.c: the timer input, the timers' names and kinds */
void elec_core_timer(struct elec_core *c, enum elec_timer_id id, u64 now);
bool elec_timer_awaits_rx(const struct elec_algo_ops *ops,
			  enum elec_timer_id id);
const char *elec_timer_name(const struct elec_algo_ops *ops,
			    enum elec_timer_id id);

/* helpers for algorithms (core.c) */
void elec_core_send(struct elec_core *c, u8 type, u32 dst, u64 term,
		    const u8 *payload, u16 len, u64 now);
void elec_core_send_as(struct elec_core *c, u8 type, u8 counted, u32 dst,
		       u64 term, const u8 *payload, u16 len, u64 now);
void elec_core_arm(struct elec_core *c, enum elec_timer_id id, u64 expires,
		   u64 now);
void elec_core_arm_in(struct elec_core *c, enum elec_timer_id id, u64 delay,
		      u64 now);
void elec_core_cancel(struct elec_core *c, enum elec_timer_id id, u64 now);
void elec_core_event(struct elec_core *c, u8 type, u32 peer, u64 now);
void elec_core_set_leader(struct elec_core *c, u32 leader, u64 term,
			  u64 now);
void elec_core_peer_set_alive(struct elec_core *c, struct elec_peer *p,
			      bool alive, u64 now);
u64 elec_core_term_next(struct elec_core *c);
bool elec_core_rx_may_elect(struct elec_core *c, u64 now);

/* codec.c: the wire header and payload validation */
/**
 * enum elec_decode_result - outcome of decoding a frame.
 * @ELEC_DECODE_OK: valid
 * @ELEC_DECODE_SHORT: shorter than the fixed header
 * @ELEC_DECODE_VERSION: unknown version
 * @ELEC_DECODE_TYPE: unknown message type
 * @ELEC_DECODE_ALGO: unknown algorithm
 * @ELEC_DECODE_FLAGS: unknown flags, or ELECTION_FLAG_LEAVING off a HEARTBEAT
 * @ELEC_DECODE_GROUP: group id 0
 * @ELEC_DECODE_SRC: source id 0
 * @ELEC_DECODE_LENGTH: payload length beyond the frame or the maximum
 * @ELEC_DECODE_PAYLOAD: payload invalid for the algorithm and type
 * @ELEC_DECODE_AUTH_SHORT: ELECTION_FLAG_AUTH set and the frame too short
 *	for the authentication trailer (the message fields are filled in)
 * @ELEC_DECODE_COUNT: number of results
 */
enum elec_decode_result {
	ELEC_DECODE_OK,
	ELEC_DECODE_SHORT,
	ELEC_DECODE_VERSION,
	ELEC_DECODE_TYPE,
	ELEC_DECODE_ALGO,
	ELEC_DECODE_FLAGS,
	ELEC_DECODE_GROUP,
	ELEC_DECODE_SRC,
	ELEC_DECODE_LENGTH,
	ELEC_DECODE_PAYLOAD,
	ELEC_DECODE_AUTH_SHORT,
	ELEC_DECODE_COUNT
};

enum elec_decode_result elec_codec_decode(const u8 *buf, size_t len,
					  struct elec_msg *msg);
size_t elec_codec_encode(const struct elec_msg *msg, u8 *buf, size_t cap);
const char *elec_decode_reason(enum elec_decode_result r);

/*
 * Big-endian fields of the wire header and payloads (the codec, and the
 * algorithms' payloads).
 */
static inline u16 elec_get16(const u8 *p)
{
	return (u16)((p[0] << 8) | p[1]);
}

static inline u32 elec_get32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) |
	       (u32)p[3];
}

static inline u64 elec_get64(const u8 *p)
{
	return ((u64)elec_get32(p) << 32) | elec_get32(p + 4);
}

static inline void elec_put16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void elec_put32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void elec_put64(u8 *p, u64 v)
{
	elec_put32(p, (u32)(v >> 32));
	elec_put32(p + 4, (u32)v);
}

/**
 * elec_peer_pos() - a peer's ring position.
 * @p: the peer
 *
 * Return: its configured position, or its id when none was set.
 */
static inline u32 elec_peer_pos(const struct elec_peer *p)
{
	return p->pos ? p->pos : p->id;
}

/**
 * elec_self_pos() - the local node's ring position.
 * @cfg: the instance's configuration
 *
 * Return: the configured position, or the node id when none was set.
 */
static inline u32 elec_self_pos(const struct elec_config *cfg)
{
	return cfg->self_pos ? cfg->self_pos : cfg->self_id;
}

/* the algorithms' tables: bully.h, ring.h, invitation.h */

#endif /* _ELEC_CORE_H */
