/* SPDX-License-Identifier: GPL-2.0 */
/*
 * election.ko: instance life cycle and the locked core-call discipline.
 */
#ifndef _ELEC_INSTANCE_H
#define _ELEC_INSTANCE_H

#include <linux/types.h>

#include "types.h"

struct net_device;

struct elec_instance *elec_inst_create(struct elec_net *en,
				       struct net_device *dev,
				       const struct elec_config *cfg);
int elec_inst_publish(struct elec_instance *inst);
void elec_inst_free(struct elec_instance *inst);
void elec_inst_destroy(struct elec_instance *inst, bool resign);
void elec_inst_destroy_dev(struct elec_net *en, struct elec_dev *edev);
int elec_inst_init(void);
void elec_inst_exit(void);

void elec_inst_lock(struct elec_instance *inst, struct elec_actx *ax)
	__acquires(&inst->lock);
void elec_inst_unlock(struct elec_instance *inst, struct elec_actx *ax)
	__releases(&inst->lock);

bool elec_inst_link_ok(const struct elec_instance *inst);
void elec_inst_link_changed(struct elec_instance *inst, bool up,
			    bool resign);
void elec_inst_start(struct elec_instance *inst);
void elec_inst_stop(struct elec_instance *inst);
int elec_inst_elect(struct elec_instance *inst, const char **why);

void elec_inst_config(struct elec_instance *inst, struct elec_config *cfg);
/**
 * struct elec_key_req - a key change requested with a configuration.
 * @set: set @key (ELEC_ATTR_KEY): the key it has changes nothing, its
 *	second key is promoted, any other replaces the keys
 *	(elec_auth_key_plan())
 * @clear: remove the key and the second key
 * @key: ELECTION_KEY_LEN bytes, with @set
 * @next_set: accept @next too (ELEC_ATTR_KEY_NEXT)
 * @next_clear: drop the second key
 * @next: ELECTION_KEY_LEN bytes, with @next_set
 * @bad_next: set on refusal when the second key is the reason
 * @rx: with @set: the per-peer replay state (ELEC_MAX_PEERS entries,
 *	from elec_key_req_prepare()); taken by the instance when it gets
 *	its first key, freed by elec_key_req_release() otherwise
 */
struct elec_key_req {
	bool set;
	bool clear;
	u8 key[ELECTION_KEY_LEN];
	bool next_set;
	bool next_clear;
	u8 next[ELECTION_KEY_LEN];
	bool bad_next;
	struct elec_auth_peer *rx;
};

int elec_key_req_prepare(struct elec_key_req *kr);
void elec_key_req_release(struct elec_key_req *kr);
int elec_inst_set_config(struct elec_instance *inst,
			 const struct elec_config *cfg,
			 struct elec_key_req *kr, const char **why);
int elec_inst_peer_add(struct elec_instance *inst, u32 id, const u8 *lladdr,
		       u32 pos, const char **why);
int elec_inst_peer_del(struct elec_instance *inst, u32 id, const char **why);
int elec_inst_peer_reset(struct elec_instance *inst, u32 id, const char **why);
void elec_inst_dev_changed(struct elec_instance *inst);
bool elec_inst_mtu_ok(struct elec_instance *inst);
void elec_inst_rx(struct elec_instance *inst, const struct elec_msg *msg);
bool elec_inst_snapshot(struct elec_instance *inst, struct elec_snapshot *s,
			bool with_peers);

#endif /* _ELEC_INSTANCE_H */
