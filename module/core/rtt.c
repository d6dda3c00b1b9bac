// SPDX-License-Identifier: GPL-2.0
/*
 * Round trips: how long a peer takes to answer, measured, and T from it.
 *
 * Every algorithm already asks and is answered: Bully's ELECTION and
 * ANSWER (the probe of a suspect included), Invitation's ARE_YOU_COORD
 * and AYC_REPLY (&elec_algo_ops.rtt_asks and .rtt_replies), a ring hop
 * and its ACK. For the first two, sending an asking frame to a peer (or
 * broadcasting one: to every peer) starts a round trip; the next
 * answering frame from that peer ends it: a sample. The frames carry
 * nothing that pairs a reply with its request, so a request sent while
 * another to the same peer is outstanding makes every reply ambiguous
 * (which request does it answer?): as Karn's algorithm does with
 * retransmissions, none of them is a sample, and measuring resumes with
 * the next request once all the outstanding ones are answered. The ring
 * matches its own: an ACK echoes the hop number of the very transmission
 * it acknowledges, so the sample is exact (elec_rtt_sample()), and so is
 * a late one, after the hop's timer expired (the ring samples it too, so
 * that an RTO measured on a quiet link grows when the link slows). A round
 * trip longer than coord-timeout is no sample, and requests outstanding
 * that long are forgotten. Only an instance whose configuration uses the
 * estimates measures (elec_config_needs_est(), elec_core_set_est()), and
 * its round trips measured before a time without measuring are
 * forgotten when it measures again.
 *
 * The estimator is RFC 6298's, per peer, in ns:
 *
 *	srtt = r, rttvar = r / 2				(first sample)
 *	rttvar += (|srtt - r| - rttvar) / 4, srtt += (r - srtt) / 8
 *	rto = srtt + 4 rttvar, at least ELECTION_DUR_MIN_NS, at most
 *	      coord-timeout / ELECTION_DEF_COORD_TIMEOUT_MULT
 *
 * With timeout-auto on, T (the Bully algorithms' wait for answers, a
 * ring hop's wait for its ACK, Invitation's reply and accept windows) is
 * the RTO of the peer waited for, or of the slowest peer measured when
 * several are (or the one waited for was never measured), and the
 * configured timeout until a round trip is measured; each algorithm's
 * widening after late answers applies on top, as it does to a fixed T.
 * Quorum's lease, promise and freshness keep the configured timeout.
 */
#include "rtt.h"

/* the longest round trip taken as a sample */
static u64 elec_rtt_sample_max(const struct elec_config *cfg)
{
	return elec_config_coord_timeout(cfg);
}

/**
 * elec_rtt_ceiling_ns() - the longest T timeout-auto gives.
 * @cfg: the configuration
 *
 * coord-timeout / ELECTION_DEF_COORD_TIMEOUT_MULT, at least
 * ELECTION_DUR_MIN_NS: the relation of the defaults (coord-timeout is
 * 4 x T) holds for a measured T too, so that a node that was answered
 * waits long enough for the answerer's own run (its wait for answers
 * and its announcement) before it gives up on it.
 *
 * Return: it, ns.
 */
u64 elec_rtt_ceiling_ns(const struct elec_config *cfg)
{
	u64 c = elec_config_coord_timeout(cfg) / ELECTION_DEF_COORD_TIMEOUT_MULT;

	return c < ELECTION_DUR_MIN_NS ? ELECTION_DUR_MIN_NS : c;
}

/* the configuration measures (the embedder gave estimates for it) */
static struct elec_peer_est *elec_rtt_est(const struct elec_core *c,
					  const struct elec_peer *p)
{
	if (!elec_config_needs_est(&c->cfg))
		return NULL;
	return elec_core_est(c, p);
}

static void elec_rtt_start(struct elec_peer_est *p, u64 now, u64 ceil)
{
	if (!p->req_tx_ns || now < p->req_tx_ns || now - p->req_tx_ns > ceil) {
		/* none outstanding (or only forgotten ones) */
		p->req_tx_ns = now ? now : 1;
		p->req_n = 1;
		p->req_amb = 0;
		return;
	}
	/* another while one is outstanding: the replies are ambiguous */
	if (p->req_n < U16_MAX)
		p->req_n++;
	p->req_amb = 1;
}

/**
 * elec_rtt_sent() - a frame went out: start a round trip if it asks.
 * @c: the instance
 * @type: its enum elec_msg_type
 * @dst: its receiver, 0 for a broadcast (every peer)
 * @now: current time, ns
 */
void elec_rtt_sent(struct elec_core *c, u8 type, u32 dst, u64 now)
{
	u64 ceil;
	u32 i;

	if (!c->est || !elec_config_needs_est(&c->cfg) || type >= 32 ||
	    !(c->ops->rtt_asks & ELEC_MSG_BIT(type)))
		return;
	ceil = elec_rtt_sample_max(&c->cfg);
	if (dst) {
		struct elec_peer_est *e;

		e = elec_core_est(c, elec_core_peer_find(c, dst));
		if (e)
			elec_rtt_start(e, now, ceil);
		return;
	}
	for (i = 0; i < c->n_peers; i++)
		elec_rtt_start(&c->est[i], now, ceil);
}

/**
 * elec_rtt_replied() - a frame from @p passed the receive checks: end
 *	the round trip to it if the frame answers.
 * @c: the instance
 * @peer: the sender, a peer of the table
 * @type: the frame's enum elec_msg_type
 * @now: current time, ns
 */
void elec_rtt_replied(struct elec_core *c, struct elec_peer *peer, u8 type,
		      u64 now)
{
	struct elec_peer_est *p = elec_rtt_est(c, peer);
	u64 r;

	if (!p || type >= 32 || !(c->ops->rtt_replies & ELEC_MSG_BIT(type)) ||
	    !p->req_tx_ns)
		return;
	r = now > p->req_tx_ns ? now - p->req_tx_ns : 1;
	if (p->req_n > 1) {
		/* answers one of several: no sample (Karn) */
		p->req_n--;
		return;
	}
	p->req_tx_ns = 0;
	p->req_n = 0;
	if (p->req_amb) {
		p->req_amb = 0;
		return;
	}
	elec_rtt_sample(c, peer, r);
}

/**
 * elec_rtt_sample() - a round trip to @peer took @r ns.
 * @c: the instance
 * @peer: a peer of the table
 * @r: the round trip, ns
 *
 * For an algorithm that matches its replies itself (a ring hop's ACK
 * echoes the hop number of that very transmission: the sample is exact);
 * elec_rtt_replied() calls it for the others. A round trip longer than
 * coord-timeout is no sample.
 */
void elec_rtt_sample(struct elec_core *c, struct elec_peer *peer, u64 r)
{
	struct elec_peer_est *p = elec_rtt_est(c, peer);
	u64 err;

	if (!p || r > elec_rtt_sample_max(&c->cfg))
		return;
	if (!r)
		r = 1;
	if (!p->srtt_ns) {
		p->srtt_ns = r;
		p->rttvar_ns = r / 2;
		return;
	}
	err = r > p->srtt_ns ? r - p->srtt_ns : p->srtt_ns - r;
	p->rttvar_ns = elec_ewma(p->rttvar_ns, err, 2);
	p->srtt_ns = elec_ewma(p->srtt_ns, r, 3) ?: 1;
}

/**
 * elec_rtt_rto_ns() - the retransmission timeout of a measured peer.
 * @cfg: the instance's configuration
 * @p: the peer's estimates
 *
 * Return: srtt + 4 x rttvar, at least ELECTION_DUR_MIN_NS, at most
 * elec_rtt_ceiling_ns(); 0 when no round trip to @p was measured.
 */
u64 elec_rtt_rto_ns(const struct elec_config *cfg,
		    const struct elec_peer_est *p)
{
	u64 ceil = elec_rtt_ceiling_ns(cfg), rto;

	if (!p->srtt_ns)
		return 0;
	rto = p->rttvar_ns > (U64_MAX - p->srtt_ns) / 4 ? U64_MAX :
	      p->srtt_ns + 4 * p->rttvar_ns;
	if (rto < ELECTION_DUR_MIN_NS)
		rto = ELECTION_DUR_MIN_NS;
	return rto > ceil ? ceil : rto;
}

/**
 * elec_rtt_timeout_ns() - T, for a wait on @p (or on several peers).
 * @c: the instance
 * @p: the peer waited for, NULL when several are
 *
 * With quorum on, never below the configured timeout: the quorum's
 * argument takes that T as the bound on a round trip and on a timer's
 * lateness, and a run that gives up on a higher node sooner than that
 * claims while the higher node's answer (or its leadership) is only
 * late; each such claim is a lease, a step-down and another election
 * (Documentation/protocol.rst, "Round trips and timeout auto").
 *
 * Return: the configured timeout with timeout-auto off; else @p's RTO
 * (elec_rtt_rto_ns()), or when @p is NULL or was never measured the
 * largest RTO of the measured peers, or the configured timeout when none
 * was; with quorum on, at least the configured timeout.
 */
u64 elec_rtt_timeout_ns(const struct elec_core *c, const struct elec_peer *p)
{
	const struct elec_peer_est *e = elec_core_est(c, p);
	u64 t = 0, rto;
	u32 i;

	if (!c->cfg.timeout_auto || !c->est)
		return c->cfg.timeout_ns;
	if (e && e->srtt_ns) {
		t = elec_rtt_rto_ns(&c->cfg, e);
	} else {
		for (i = 0; i < c->n_peers; i++) {
			rto = elec_rtt_rto_ns(&c->cfg, &c->est[i]);
			if (rto > t)
				t = rto;
		}
	}
	if (!t || (c->cfg.quorum && t < c->cfg.timeout_ns))
		t = c->cfg.timeout_ns;
	return t;
}
