/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - the "election" tracepoints: every frame received and sent,
 * every timer expiry with its lateness, every change of role or leader,
 * every dropped frame with its reason. Off unless enabled (tracefs
 * events/election/, perf trace -e 'election:*', trace-cmd record -e
 * election); Documentation/admin-guide.rst ("Tracing a failover") times a
 * failover phase by phase with them.
 *
 * Each event names the instance (dev, group, id); frames carry the header
 * fields (type, src, dst, term).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM election

#if !defined(_ELEC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ELEC_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"
#include "core.h"
#include "names.h"
#include "types.h"

#ifndef _ELEC_TRACE_NAMES
#define _ELEC_TRACE_NAMES
/* the names (names-list.h) the events print; a value without one too */
static inline const char *elec_trace_msg(u8 type)
{
	return elec_msg_name(type) ? elec_msg_name(type) : "unspec";
}

static inline const char *elec_trace_role(u8 role)
{
	return elec_role_name(role) ? elec_role_name(role) : "?";
}

static inline const char *elec_trace_drop(u8 reason)
{
	return elec_drop_name(reason) ? elec_drop_name(reason) : "unspec";
}
#endif

DECLARE_EVENT_CLASS(election_frame,
		    TP_PROTO(const struct elec_instance *inst, const struct elec_msg *msg),
		    TP_ARGS(inst, msg),
		    TP_STRUCT__entry(__string(dev, inst->ifname)
				     __field(u16, group)
				     __field(u32, id)
				     __field(u8, type)
				     __string(type_name, elec_trace_msg(msg->type))
				     __field(u32, src)
				     __field(u32, dst)
				     __field(u64, term)
				     __field(u16, len)),
		    TP_fast_assign(elec_assign_str(dev, inst->ifname);
				   __entry->group = inst->group;
				   __entry->id = inst->core.cfg.self_id;
				   __entry->type = msg->type;
				   elec_assign_str(type_name, elec_trace_msg(msg->type));
				   __entry->src = msg->src;
				   __entry->dst = msg->dst;
				   __entry->term = msg->term;
				   __entry->len = msg->payload_len;),
		    TP_printk("dev=%s group=%u id=%u type=%s src=%u dst=%u term=%llu payload=%u",
			      __get_str(dev), __entry->group, __entry->id,
			      __get_str(type_name),
			      __entry->src, __entry->dst, __entry->term, __entry->len)
);

/* a frame for the instance, before the protocol core looks at it */
DEFINE_EVENT(election_frame, election_rx,
	     TP_PROTO(const struct elec_instance *inst, const struct elec_msg *msg),
	     TP_ARGS(inst, msg)
);

/* a frame the protocol core sends (dst 0: broadcast) */
DEFINE_EVENT(election_frame, election_tx,
	     TP_PROTO(const struct elec_instance *inst, const struct elec_msg *msg),
	     TP_ARGS(inst, msg)
);

/* a timer expiry's protocol step: which timer, how late it runs */
TRACE_EVENT(election_timer,
	    TP_PROTO(const struct elec_instance *inst, const char *timer,
		     s64 late_ns),
	    TP_ARGS(inst, timer, late_ns),
	    TP_STRUCT__entry(__string(dev, inst->ifname)
			     __field(u16, group)
			     __field(u32, id)
			     __string(timer, timer)
			     __field(s64, late_ns)),
	    TP_fast_assign(elec_assign_str(dev, inst->ifname);
			   __entry->group = inst->group;
			   __entry->id = inst->core.cfg.self_id;
			   elec_assign_str(timer, timer);
			   __entry->late_ns = late_ns;),
	    TP_printk("dev=%s group=%u id=%u timer=%s late_ns=%lld",
		      __get_str(dev), __entry->group, __entry->id,
		      __get_str(timer), __entry->late_ns)
);

/* after an input: the role or the leader changed */
TRACE_EVENT(election_role,
	    TP_PROTO(const struct elec_instance *inst, u8 old_role, u32 old_leader),
	    TP_ARGS(inst, old_role, old_leader),
	    TP_STRUCT__entry(__string(dev, inst->ifname)
			     __field(u16, group)
			     __field(u32, id)
			     __field(u8, old_role)
			     __field(u8, role)
			     __string(role_name, elec_trace_role(inst->core.role))
			     __string(old_role_name, elec_trace_role(old_role))
			     __field(u32, old_leader)
			     __field(u32, leader)
			     __field(u64, term)),
	    TP_fast_assign(elec_assign_str(dev, inst->ifname);
			   __entry->group = inst->group;
			   __entry->id = inst->core.cfg.self_id;
			   __entry->old_role = old_role;
			   __entry->role = inst->core.role;
			   elec_assign_str(role_name, elec_trace_role(inst->core.role));
			   elec_assign_str(old_role_name, elec_trace_role(old_role));
			   __entry->old_leader = old_leader;
			   __entry->leader = inst->core.leader;
			   __entry->term = inst->core.term;),
	    TP_printk("dev=%s group=%u id=%u role=%s leader=%u term=%llu old_role=%s old_leader=%u",
		      __get_str(dev), __entry->group, __entry->id,
		      __get_str(role_name),
		      __entry->leader, __entry->term,
		      __get_str(old_role_name),
		      __entry->old_leader)
);

/*
 * a dropped frame: @group and @id are 0 for a frame that reached no
 * instance (malformed, or for a group the device has none of)
 */
TRACE_EVENT(election_drop,
	    TP_PROTO(const char *dev, u16 group, u32 id, u8 reason, u8 type,
		     u32 src),
	    TP_ARGS(dev, group, id, reason, type, src),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u16, group)
			     __field(u32, id)
			     __field(u8, reason)
			     __string(reason_name, elec_trace_drop(reason))
			     __field(u8, type)
			     __field(u32, src)),
	    TP_fast_assign(elec_assign_str(dev, dev);
			   __entry->group = group;
			   __entry->id = id;
			   __entry->reason = reason;
			   elec_assign_str(reason_name, elec_trace_drop(reason));
			   __entry->type = type;
			   __entry->src = src;),
	    TP_printk("dev=%s group=%u id=%u reason=%s type=%u src=%u",
		      __get_str(dev), __entry->group, __entry->id,
		      __get_str(reason_name),
		      __entry->type, __entry->src)
);

#endif /* _ELEC_TRACE_H */

/* out of the kernel tree: the header is found through -I$(src) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
