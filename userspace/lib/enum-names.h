/* SPDX-License-Identifier: GPL-2.0 */
/*
 * enum-names.h - the names electionctl and electsim print for the uapi enum
 * values, from the lists of module/core/names.h and the algorithm tables.
 * Each returns NULL for a value without a name.
 */
#ifndef ELEC_ENUM_NAMES_H
#define ELEC_ENUM_NAMES_H

const char *elec_algo_name(unsigned int v);
const char *elec_role_name(unsigned int v);
const char *elec_msg_name(unsigned int v);
const char *elec_drop_name(unsigned int v);
const char *elec_tx_drop_name(unsigned int v);
const char *elec_event_name(unsigned int v);

#endif /* ELEC_ENUM_NAMES_H */
