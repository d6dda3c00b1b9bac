/* SPDX-License-Identifier: GPL-2.0 */
/*
 * names.h - the names of the uapi enum values people read (names-list.h),
 * for the tracepoints, electionctl and electsim. Each returns NULL for a
 * value without a name.
 */
#ifndef _ELEC_NAMES_H
#define _ELEC_NAMES_H

const char *elec_algo_name(unsigned int v);
const char *elec_role_name(unsigned int v);
const char *elec_msg_name(unsigned int v);
const char *elec_drop_name(unsigned int v);

/*
 * The groups a drop reason can count in (names-list.h's third column):
 * every group, a group with a key, a group without one, a group whose
 * algorithm queues frames (&elec_algo_ops.queue_bytes non-zero).
 */
enum elec_drop_when {
	ELEC_DROP_WHEN_ALL,
	ELEC_DROP_WHEN_KEY,
	ELEC_DROP_WHEN_NOKEY,
	ELEC_DROP_WHEN_QUEUE,
};

enum elec_drop_when elec_drop_when(unsigned int v);
const char *elec_tx_drop_name(unsigned int v);
const char *elec_event_name(unsigned int v);

#endif /* _ELEC_NAMES_H */
