/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: the "election" generic netlink family.
 */
#ifndef _ELEC_NETLINK_H
#define _ELEC_NETLINK_H

int elec_nl_init(void);
void elec_nl_exit(void);

#endif /* _ELEC_NETLINK_H */
