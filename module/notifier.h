/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: following network devices (NETDEV notifier).
 */
#ifndef _ELEC_NOTIFIER_H
#define _ELEC_NOTIFIER_H

int elec_notifier_init(void);
void elec_notifier_exit(void);

#endif /* _ELEC_NOTIFIER_H */
