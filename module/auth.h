/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: the MAC of authenticated frames (SipHash-2-4).
 */
#ifndef _ELEC_AUTH_H
#define _ELEC_AUTH_H

#include <linux/siphash.h>
#include <linux/types.h>

void elec_auth_key_import(siphash_key_t *key, const u8 *raw);
void elec_auth_sign(const siphash_key_t *key, u8 *frame, size_t len);
bool elec_auth_verify(const siphash_key_t *key, const u8 *frame,
		      size_t len);

#endif /* _ELEC_AUTH_H */
