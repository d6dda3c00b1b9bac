/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse.h - strict parsers for electionctl's command line.
 */
#ifndef ELECTIONCTL_PARSE_H
#define ELECTIONCTL_PARSE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "electionctl.h"
#include "options.h"

/* key-file: the most bytes read (--unchecked sends up to this many raw) */
#define ELEC_KEY_FILE_MAX	64

/*
 * Keywords of the iproute2-style argument lists: electionctl's own, then
 * one per option of module/core/options-list.h, in its order.
 */
enum elec_kw {
	ELEC_KW_DEV,
	ELEC_KW_GROUP,
	ELEC_KW_ID,
	ELEC_KW_ALGO,
	ELEC_KW_LLADDR,
	ELEC_KW_HOOK_TIMEOUT,
	ELEC_KW_KEY_FILE,
	ELEC_KW_KEY,
	ELEC_KW_KEY_NEXT_FILE,
	ELEC_KW_KEY_NEXT,
	ELEC_KW_OPT0,
	ELEC_KW_COUNT = ELEC_KW_OPT0 + ELEC_OPT_COUNT
};

_Static_assert(ELEC_KW_COUNT < 32, "the keywords fit an unsigned int");

/* the keyword of option @o (enum elec_opt) */
#define ELEC_KW_OPT(o)		(ELEC_KW_OPT0 + (o))
#define ELEC_KWB(kw)		(1u << (kw))
#define ELEC_KWB_OPT(o)		ELEC_KWB(ELEC_KW_OPT(o))

/* every option (group add), the ones group set may change (when: SET) */
#define ELEC_KWB_OPTIONS	(ELEC_KWB(ELEC_KW_COUNT) - ELEC_KWB(ELEC_KW_OPT0))
enum {
	ELEC_KWB_OPTIONS_SET = 0
#define ELEC_OPTION(ID, nm, at, f, k, lo, hi, d, set, when, ...) \
	| (ELEC_OPTF_WHEN_ ## when ? ELEC_KWB_OPT(ELEC_OPT_ ## ID) : 0)
#include "options-list.h"
};
/* the key of group add (key-file) and group set (key-file, key none) */
#define ELEC_KWB_KEY		(ELEC_KWB(ELEC_KW_KEY_FILE) | \
				 ELEC_KWB(ELEC_KW_KEY))
/* the second key: key-next-file (group add, set), key-next none (set) */
#define ELEC_KWB_KEY_NEXT	(ELEC_KWB(ELEC_KW_KEY_NEXT_FILE) | \
				 ELEC_KWB(ELEC_KW_KEY_NEXT))
#define ELEC_KWB_INSTANCE	(ELEC_KWB(ELEC_KW_DEV) | ELEC_KWB(ELEC_KW_GROUP))
/* the keywords group add, group set and peer add take */
#define ELEC_KWB_GROUP_ADD	(ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID) | \
				 ELEC_KWB(ELEC_KW_ALGO) | ELEC_KWB_OPTIONS | \
				 ELEC_KWB_KEY | ELEC_KWB_KEY_NEXT)
#define ELEC_KWB_GROUP_SET	(ELEC_KWB_INSTANCE | ELEC_KWB_OPTIONS_SET | \
				 ELEC_KWB_KEY | ELEC_KWB_KEY_NEXT)
#define ELEC_KWB_PEER_ADD	(ELEC_KWB_INSTANCE | ELEC_KWB(ELEC_KW_ID) | \
				 ELEC_KWB(ELEC_KW_LLADDR) | \
				 ELEC_KWB_OPT(ELEC_OPT_POS))

/**
 * struct elec_args - parsed keyword values.
 * @seen: ELEC_KWB() bits of the keywords given (each sent)
 * @named: ELEC_KWB() bits of keywords given in another's form, not sent
 *	themselves ("timeout auto" names timeout and sends timeout-auto)
 * @dev: device name as given
 * @ifindex: @dev resolved with if_nametoindex()
 * @group: group id
 * @id: node id (group add) or peer id (peer add/del)
 * @algo: enum elec_algo
 * @lladdr: peer's Ethernet address
 * @opt: each option's value as its attribute carries it (options-list.h;
 *	pos: of the node for group add, of the peer for peer add)
 * @hook_timeout_ns: monitor exec: how long a hook may run
 * @key: key-file: the key read from the file (secret: wipe it with
 *	elec_args_wipe() once the request is sent)
 * @key_len: bytes in @key: ELECTION_KEY_LEN (other lengths only with
 *	--unchecked, for tests of the kernel's checks)
 * @key_next: key-next-file: the second key, read and wiped like @key
 * @key_next_len: bytes in @key_next, as @key_len
 */
struct elec_args {
	unsigned int seen;
	unsigned int named;
	char dev[IF_NAMESIZE];
	uint32_t ifindex;
	uint16_t group;
	uint32_t id;
	uint8_t algo;
	uint8_t lladdr[6];
	uint64_t opt[ELEC_OPT_COUNT];
	uint64_t hook_timeout_ns;
	uint8_t key[ELEC_KEY_FILE_MAX];
	size_t key_len;
	uint8_t key_next[ELEC_KEY_FILE_MAX];
	size_t key_next_len;
};

/* Forget the keys of @a (explicit_bzero: not optimised away). */
void elec_args_wipe(struct elec_args *a);

/*
 * Parse "KEYWORD VALUE" pairs. @what names the command in messages
 * ("group add"). Keywords outside @allowed, repeated keywords, keywords
 * without a value, bad values and (unless ctx->unchecked) missing @required
 * keywords print an error naming the token. "key-file PATH" (and
 * "key-next-file PATH", the same way) reads the key (16 raw bytes, or 32
 * hex digits and optional trailing blanks) and warns when the file is
 * readable or writable by group or others. Returns 0 or ELEC_EXIT_USAGE
 * (then @a holds no key).
 */
int elec_parse_args(const struct elec_ctx *ctx, const char *what,
		    int argc, char **argv, unsigned int allowed,
		    unsigned int required, struct elec_args *a);

const char *elec_kw_name(enum elec_kw kw);

#define ELEC_LOOKUP_AMBIGUOUS	(-2)

/* enum elec_kw of @s among the @allowed keywords, as the parser finds it;
 * -1 or ELEC_LOOKUP_AMBIGUOUS.
 */
int elec_kw_lookup(const char *s, unsigned int allowed);

/*
 * Find the word @s among @n @names (NULL entries are skipped): an exact
 * match, else the only entry @s is a prefix of. Entries with the same
 * @ids value (aliases: del and delete) count as one; @ids NULL means the
 * index. Returns the id, -1 when nothing matches, ELEC_LOOKUP_AMBIGUOUS
 * when @s abbreviates several.
 */
int elec_lookup(const char *s, const char *const *names, const int *ids,
		size_t n);
/* "a, b, c": the @names that start with @s (for an ambiguity's message). */
const char *elec_lookup_candidates(const char *s, const char *const *names,
				   size_t n);

/*
 * Value parsers: return NULL on success, else a reason for the message.
 * With @unchecked, only the syntax and the attribute's type width are
 * enforced, not the documented range.
 */
const char *elec_parse_dur(const char *s, bool unchecked, uint64_t *ns);
const char *elec_parse_uint(const char *s, uint64_t min, uint64_t max,
			    uint64_t *out);
const char *elec_parse_mac(const char *s, bool unchecked, uint8_t mac[6]);

#endif /* ELECTIONCTL_PARSE_H */
