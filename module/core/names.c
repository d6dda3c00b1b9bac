// SPDX-License-Identifier: GPL-2.0
/*
 * names.c - the names of the uapi enum values (names-list.h), one table
 * per enum; algorithm names from the algorithm tables (elec_algo_find()).
 */
#include "core.h"
#include "names.h"

#define ELEC_MSG_NAME(e, n) \
	[ELEC_MSG_ ## e] = n,
static const char *const elec_msg_names[ELEC_MSG_MAX + 1] = {
#include "names-list.h"
};

#define ELEC_ROLE_NAME(e, n) \
	[ELEC_ROLE_ ## e] = n,
static const char *const elec_role_names[ELEC_ROLE_MAX + 1] = {
#include "names-list.h"
};

#define ELEC_DROP_NAME(e, n, when) \
	[ELEC_DROP_ ## e] = n,
static const char *const elec_drop_names[ELEC_DROP_MAX + 1] = {
#include "names-list.h"
};

#define ELEC_DROP_NAME(e, n, when) \
	[ELEC_DROP_ ## e] = ELEC_DROP_WHEN_ ## when,
static const u8 elec_drop_whens[ELEC_DROP_MAX + 1] = {
#include "names-list.h"
};

#define ELEC_TX_DROP_NAME(e, n) \
	[ELEC_TX_DROP_ ## e] = n,
static const char *const elec_tx_drop_names[ELEC_TX_DROP_MAX + 1] = {
#include "names-list.h"
};

#define ELEC_EVENT_NAME(e, n) \
	[ELEC_EVENT_ ## e] = n,
static const char *const elec_event_names[ELEC_EVENT_MAX + 1] = {
#include "names-list.h"
};

static const char *elec_name_in(const char *const *tbl, size_t n,
				unsigned int v)
{
	return v < n ? tbl[v] : NULL;
}

/**
 * elec_algo_name() - an algorithm's name.
 * @v: enum elec_algo value
 *
 * Return: its table's name ("bully"), NULL when the core has none.
 */
const char *elec_algo_name(unsigned int v)
{
	const struct elec_algo_ops *ops = v <= ELEC_ALGO_MAX ?
					  elec_algo_find((u8)v) : NULL;

	return ops ? ops->name : NULL;
}

/**
 * elec_role_name() - a role's name.
 * @v: enum elec_role value
 *
 * Return: "stopped", ..., NULL for another value.
 */
const char *elec_role_name(unsigned int v)
{
	return elec_name_in(elec_role_names, ARRAY_SIZE(elec_role_names), v);
}

/**
 * elec_msg_name() - a message type's name.
 * @v: enum elec_msg_type value
 *
 * Return: "election", ..., NULL for another value.
 */
const char *elec_msg_name(unsigned int v)
{
	return elec_name_in(elec_msg_names, ARRAY_SIZE(elec_msg_names), v);
}

/**
 * elec_drop_name() - a drop reason's name.
 * @v: enum elec_drop value
 *
 * Return: "malformed", ..., NULL for another value.
 */
const char *elec_drop_name(unsigned int v)
{
	return elec_name_in(elec_drop_names, ARRAY_SIZE(elec_drop_names), v);
}

/**
 * elec_drop_when() - the groups a drop reason can count in.
 * @v: enum elec_drop value
 *
 * Return: its names-list.h row's enum elec_drop_when; ELEC_DROP_WHEN_ALL
 * for another value.
 */
enum elec_drop_when elec_drop_when(unsigned int v)
{
	return v < ARRAY_SIZE(elec_drop_whens) ? elec_drop_whens[v] :
						 ELEC_DROP_WHEN_ALL;
}

/**
 * elec_tx_drop_name() - a transmit drop reason's name.
 * @v: enum elec_tx_drop value
 *
 * Return: "mtu", ..., NULL for another value.
 */
const char *elec_tx_drop_name(unsigned int v)
{
	return elec_name_in(elec_tx_drop_names, ARRAY_SIZE(elec_tx_drop_names), v);
}

/**
 * elec_event_name() - an event's name.
 * @v: enum elec_event value
 *
 * Return: "election_started", ..., NULL for another value.
 */
const char *elec_event_name(unsigned int v)
{
	return elec_name_in(elec_event_names, ARRAY_SIZE(elec_event_names), v);
}
