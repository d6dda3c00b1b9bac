/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: receiving frames.
 */
#ifndef _ELEC_RX_H
#define _ELEC_RX_H

void elec_rx_init(void);
void elec_rx_exit(void);

#endif /* _ELEC_RX_H */
