// SPDX-License-Identifier: GPL-2.0
/*
 * enum-names.c - the names of the uapi enum values, for electionctl and
 * electsim: one table per list of module/core/names.h; algorithm names
 * from the protocol core's algorithm tables (elec_algo_find()).
 */
#include "core.h"
#include "names.h"
#include "enum-names.h"

#define ELEC_NAME_MSG(e, n)	[ELEC_MSG_ ## e] = n,
#define ELEC_NAME_ROLE(e, n)	[ELEC_ROLE_ ## e] = n,
#define ELEC_NAME_DROP(e, n)	[ELEC_DROP_ ## e] = n,
#define ELEC_NAME_TX_DROP(e, n)	[ELEC_TX_DROP_ ## e] = n,
#define ELEC_NAME_EVENT(e, n)	[ELEC_EVENT_ ## e] = n,

static const char *const role_names[ELEC_ROLE_MAX + 1] = {
	ELEC_ROLE_NAMES(ELEC_NAME_ROLE)
};
static const char *const msg_names[ELEC_MSG_MAX + 1] = {
	ELEC_MSG_NAMES(ELEC_NAME_MSG)
};
static const char *const drop_names[ELEC_DROP_MAX + 1] = {
	ELEC_DROP_NAMES(ELEC_NAME_DROP)
};
static const char *const tx_drop_names[ELEC_TX_DROP_MAX + 1] = {
	ELEC_TX_DROP_NAMES(ELEC_NAME_TX_DROP)
};
static const char *const event_names[ELEC_EVENT_MAX + 1] = {
	ELEC_EVENT_NAMES(ELEC_NAME_EVENT)
};

#define NAME_IN(tbl, v) \
	((v) < sizeof(tbl) / sizeof((tbl)[0]) ? (tbl)[v] : NULL)

const char *elec_algo_name(unsigned int v)
{
	const struct elec_algo_ops *ops = v <= ELEC_ALGO_MAX ?
					  elec_algo_find((u8)v) : NULL;

	return ops ? ops->name : NULL;
}

const char *elec_role_name(unsigned int v)
{
	return NAME_IN(role_names, v);
}

const char *elec_msg_name(unsigned int v)
{
	return NAME_IN(msg_names, v);
}

const char *elec_drop_name(unsigned int v)
{
	return NAME_IN(drop_names, v);
}

const char *elec_tx_drop_name(unsigned int v)
{
	return NAME_IN(tx_drop_names, v);
}

const char *elec_event_name(unsigned int v)
{
	return NAME_IN(event_names, v);
}
