// SPDX-License-Identifier: GPL-2.0
/*
 * Side storage for the payloads of in-flight messages.
 *
 * An event is 32 bytes and has no room for a payload; a message that has
 * one (the ring algorithms' ELECTION, COORDINATOR and ACK) keeps it here
 * from the send to its delivery or loss, and its event carries a 32-bit
 * handle instead of the source id. Slots come in size classes of 16 << k
 * bytes, each class an array that grows by doubling, with a free list: a
 * ring message costs one slot of 24 or 32 bytes, a list-ring message one
 * sized to its list. Messages without a payload never touch the pool.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define SLOT_HDR	POOL_SLOT_HDR

static u32 slot_size(u32 k)
{
	return SLOT_HDR + (16U << k);
}

static u8 *slot_at(struct pool_class *pc, u32 k, u32 i)
{
	return pc->buf + (size_t)i * slot_size(k);
}

u32 pool_alloc(struct pool *pl, u32 src, const u8 *data, u16 len)
{
	struct pool_class *pc;
	u32 k = 0, i;
	u8 *slot;

	while ((16U << k) < len)
		k++;
	if (k >= POOL_CLASSES) {
		fprintf(stderr, "electsim: payload of %u bytes\n", len);
		exit(3);
	}
	pc = &pl->cls[k];
	if (pc->free_head) {
		i = pc->free_head - 1;
		memcpy(&pc->free_head, slot_at(pc, k, i), sizeof(u32));
	} else {
		if (pc->used == pc->cap) {
			u32 ncap = pc->cap ? pc->cap * 2 : 256;
			u8 *nb;

			if (ncap > 1U << POOL_IDX_BITS) {
				fprintf(stderr,
					"electsim: too many payloads in flight\n");
				exit(3);
			}
			nb = realloc(pc->buf, (size_t)ncap * slot_size(k));
			if (!nb) {
				fprintf(stderr, "electsim: out of memory\n");
				exit(3);
			}
			pc->buf = nb;
			pc->cap = ncap;
		}
		i = pc->used++;
	}
	slot = slot_at(pc, k, i);
	memcpy(slot, &src, sizeof(src));
	memcpy(slot + 4, &len, sizeof(len));
	if (len)
		memcpy(slot + SLOT_HDR, data, len);
	pl->live++;
	return k << POOL_IDX_BITS | i;
}

u16 pool_take(struct pool *pl, u32 handle, u32 *src, u8 *out)
{
	u32 k = handle >> POOL_IDX_BITS;
	u32 i = handle & ((1U << POOL_IDX_BITS) - 1);
	struct pool_class *pc = &pl->cls[k];
	u8 *slot = slot_at(pc, k, i);
	u16 len;

	memcpy(src, slot, sizeof(*src));
	memcpy(&len, slot + 4, sizeof(len));
	if (len)
		memcpy(out, slot + SLOT_HDR, len);
	memcpy(slot, &pc->free_head, sizeof(u32));
	pc->free_head = i + 1;
	pl->live--;
	return len;
}

void pool_free_all(struct pool *pl)
{
	u32 k;

	for (k = 0; k < POOL_CLASSES; k++)
		free(pl->cls[k].buf);
	memset(pl, 0, sizeof(*pl));
}
