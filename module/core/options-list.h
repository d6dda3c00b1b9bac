/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options-list.h - every option of an instance's configuration, once.
 *
 * No include guard: include it after defining ELEC_OPTION(ID, name, attr,
 * field, kind, lo, hi, def, algos, when, flags, eff) to expand each row
 * (the style of the kernel's kvm-x86-ops.h); it undefines ELEC_OPTION.
 * options.h says what each column means; Documentation/development.rst,
 * "Adding an option or counter", what else a new row needs. The order is
 * the one electionctl and electsim print the options in: a new row goes
 * at the end.
 */
ELEC_OPTION(HB_INTERVAL, "hb-interval", ELEC_ATTR_HB_INTERVAL_NS,
	    hb_interval_ns, DUR, 0, 0, ELECTION_DEF_HB_INTERVAL_NS, ALL, SET,
	    ELEC_OPTF_FLOOR, RAW)
ELEC_OPTION(HB_MISS, "hb-miss", ELEC_ATTR_HB_MISS, hb_miss, U32,
	    ELECTION_HB_MISS_MIN, ELECTION_HB_MISS_MAX, ELECTION_DEF_HB_MISS,
	    ALL, SET, 0, RAW)
ELEC_OPTION(TIMEOUT, "timeout", ELEC_ATTR_TIMEOUT_NS, timeout_ns, DUR, 0, 0,
	    ELECTION_DEF_TIMEOUT_NS, ALL, SET, ELEC_OPTF_FLOOR, RAW)
ELEC_OPTION(COORD_TIMEOUT, "coord-timeout", ELEC_ATTR_COORD_TIMEOUT_NS,
	    coord_timeout_ns, DUR, 0, 0, 0, ALL, SET,
	    ELEC_OPTF_ZERO | ELEC_OPTF_FLOOR, COORD_TIMEOUT)
ELEC_OPTION(POS, "pos", ELEC_ATTR_POS, self_pos, POS, 1, 0, 0, ALL, NEW,
	    ELEC_OPTF_ZERO | ELEC_OPTF_NODE, POS)
ELEC_OPTION(SUPPRESS, "suppress", ELEC_ATTR_SUPPRESS, suppress_off, OFF, 0, 1,
	    1, RING_CR, NEW, 0, RAW)
ELEC_OPTION(ASK_SUSPECT, "ask-suspect", ELEC_ATTR_ASK_SUSPECT,
	    ask_suspect_off, OFF, 0, 1, 1, BULLY, SET, ELEC_OPTF_REPORT_ALL,
	    RAW)
ELEC_OPTION(PREEMPT, "preempt", ELEC_ATTR_PREEMPT, preempt_off, OFF, 0, 1, 1,
	    BULLY, SET, ELEC_OPTF_REPORT_ALL, RAW)
ELEC_OPTION(PREEMPT_DELAY, "preempt-delay", ELEC_ATTR_PREEMPT_DELAY_NS,
	    preempt_delay_ns, DUR0, 0, 0, 0, BULLY, SET,
	    ELEC_OPTF_REPORT_ALL | ELEC_OPTF_ZERO, RAW)
ELEC_OPTION(QUORUM, "quorum", ELEC_ATTR_QUORUM, quorum, ON, 0, 1, 0, BULLY,
	    SET, ELEC_OPTF_REPORT_ALL, RAW)
ELEC_OPTION(SEARCH_INTERVAL, "search-interval", ELEC_ATTR_SEARCH_INTERVAL_NS,
	    search_interval_ns, DUR0, 0, 0, 0, INVITATION, SET,
	    ELEC_OPTF_ZERO | ELEC_OPTF_FLOOR, SEARCH_INTERVAL)
ELEC_OPTION(DETECTOR, "detector", ELEC_ATTR_DETECTOR, detector, WORD, 0,
	    ELECTION_DETECTOR_MAX, ELECTION_DETECTOR_FIXED, ALL, SET,
	    ELEC_OPTF_LATE, RAW)
ELEC_OPTION(DETECTOR_MARGIN, "detector-margin", ELEC_ATTR_DETECTOR_MARGIN_NS,
	    detector_margin_ns, DUR0, 0, 0, 0, ALL, SET,
	    ELEC_OPTF_ZERO | ELEC_OPTF_LATE, DETECTOR_MARGIN)
ELEC_OPTION(DETECTOR_MAX, "detector-max", ELEC_ATTR_DETECTOR_MAX_NS,
	    detector_max_ns, DUR0, 0, 0, 0, ALL, SET,
	    ELEC_OPTF_ZERO | ELEC_OPTF_LATE, DETECTOR_MAX)
ELEC_OPTION(TIMEOUT_AUTO, "timeout-auto", ELEC_ATTR_TIMEOUT_AUTO, timeout_auto,
	    ON, 0, 1, 0, ALL, SET, ELEC_OPTF_LATE, RAW)
ELEC_OPTION(AUTH_WINDOW, "auth-window", ELEC_ATTR_AUTH_WINDOW_NS,
	    auth_window_ns, DUR0, 0, 0, 0, ALL, SET,
	    ELEC_OPTF_ZERO | ELEC_OPTF_LATE, AUTH_WINDOW)
ELEC_OPTION(STANDBY, "standby", ELEC_ATTR_STANDBY, standby, ON, 0, 1, 0, ALL,
	    SET, ELEC_OPTF_LATE | ELEC_OPTF_SIM_IDS, RAW)
ELEC_OPTION(STANDBY_TRACKED, "standby-tracked", ELEC_ATTR_STANDBY_TRACKED,
	    standby_tracked, ON, 0, 1, 0, ALL, SET,
	    ELEC_OPTF_LATE | ELEC_OPTF_SIM_IDS | ELEC_OPTF_RUNTIME,
	    RAW)

#undef ELEC_OPTION
