// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - the libnl-genl-3 session: resolve the family once, send requests,
 * read replies and acks, and report the kernel's extended ack messages.
 *
 * libnl's default error handling turns an NLMSG_ERROR into an errno and
 * drops the extack TLVs, so this file enables NETLINK_EXT_ACK (and
 * NETLINK_CAP_ACK, so error messages do not echo the request) and installs
 * its own error, ack and finish callbacks that read NLMSGERR_ATTR_MSG.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/cache.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/socket.h>

#include "json.h"
#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* an option's attribute type, by its kind (options.h) */
#define ELEC_CTL_NLA_DUR	NLA_U64
#define ELEC_CTL_NLA_DUR0	NLA_U64
#define ELEC_CTL_NLA_U32	NLA_U32
#define ELEC_CTL_NLA_POS	NLA_U32
#define ELEC_CTL_NLA_ON		NLA_U8
#define ELEC_CTL_NLA_OFF	NLA_U8
#define ELEC_CTL_NLA_WORD	NLA_U8

struct nla_policy elec_nl_policy[ELEC_ATTR_MAX + 1] = {
	/* every option, from the list */
#define ELEC_OPTION(ID, nm, at, field, kd, ...) \
	[at] = { .type = ELEC_CTL_NLA_ ## kd },
#include "options-list.h"
	/* every scalar counter, from the list */
#define ELEC_COUNTER(field, at, opt) [at] = { .type = NLA_U64 },
#include "counters-list.h"
	[ELEC_ATTR_PEER_DETECT_WINDOW_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_PEER_RTT_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_IFINDEX] = { .type = NLA_U32 },
	[ELEC_ATTR_IFNAME] = { .type = NLA_STRING, .maxlen = 16 },
	[ELEC_ATTR_GROUP] = { .type = NLA_U16 },
	[ELEC_ATTR_NODE_ID] = { .type = NLA_U32 },
	[ELEC_ATTR_ALGO] = { .type = NLA_U8 },
	[ELEC_ATTR_ROLE] = { .type = NLA_U8 },
	[ELEC_ATTR_LEADER] = { .type = NLA_U32 },
	[ELEC_ATTR_TERM] = { .type = NLA_U64 },
	[ELEC_ATTR_PARTICIPANT] = { .type = NLA_U8 },
	[ELEC_ATTR_PEERS] = { .type = NLA_NESTED },
	[ELEC_ATTR_PEER] = { .type = NLA_NESTED },
	[ELEC_ATTR_PEER_ID] = { .type = NLA_U32 },
	[ELEC_ATTR_PEER_LLADDR] = { .type = NLA_UNSPEC, .minlen = 6,
				    .maxlen = 6 },
	[ELEC_ATTR_PEER_ALIVE] = { .type = NLA_U8 },
	[ELEC_ATTR_TX] = { .type = NLA_NESTED },
	[ELEC_ATTR_RX] = { .type = NLA_NESTED },
	[ELEC_ATTR_DROPS] = { .type = NLA_NESTED },
	[ELEC_ATTR_TX_ERRORS] = { .type = NLA_U64 },
	[ELEC_ATTR_EVENT] = { .type = NLA_U8 },
	[ELEC_ATTR_TIMESTAMP_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_SEQ] = { .type = NLA_U64 },
	[ELEC_ATTR_LIVE_INSTANCES] = { .type = NLA_U64 },
	[ELEC_ATTR_LIVE_PEERS] = { .type = NLA_U64 },
	[ELEC_ATTR_LIVE_SKBS] = { .type = NLA_U64 },
	[ELEC_ATTR_PEER_POS] = { .type = NLA_U32 },
	[ELEC_ATTR_TX_DROPS] = { .type = NLA_NESTED },
	[ELEC_ATTR_MTU] = { .type = NLA_U32 },
	[ELEC_ATTR_LLADDR] = { .type = NLA_UNSPEC, .minlen = 6, .maxlen = 6 },
	[ELEC_ATTR_TIMER_LATE] = { .type = NLA_NESTED },
	[ELEC_ATTR_TIMER_LATE_BUCKETS] = { .type = NLA_NESTED },
	[ELEC_ATTR_TIMER_LATE_MAX_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_TIMER_LATE_COUNT] = { .type = NLA_U64 },
	[ELEC_ATTR_INV_SEQ] = { .type = NLA_U64 },
	[ELEC_ATTR_INV_COORDINATOR] = { .type = NLA_U32 },
	[ELEC_ATTR_PEER_MEMBER] = { .type = NLA_U8 },
	[ELEC_ATTR_PEER_HEARD_AGO_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_ADMIN_UP] = { .type = NLA_U8 },
	[ELEC_ATTR_PEER_SEEN_LLADDR] = { .type = NLA_UNSPEC, .minlen = 6,
					 .maxlen = 6 },
	[ELEC_ATTR_AUTH] = { .type = NLA_U8 },
	[ELEC_ATTR_AUTH_NEXT] = { .type = NLA_U8 },
	[ELEC_ATTR_TIMER_THROTTLED] = { .type = NLA_U64 },
	[ELEC_ATTR_TIMER_THROTTLED_NS] = { .type = NLA_U64 },
	[ELEC_ATTR_ALGO_NAME] = { .type = NLA_STRING, .maxlen = 32 },
	[ELEC_ATTR_ALGO_MSGS] = { .type = NLA_U32 },
	[ELEC_ATTR_ALGO_OPTS] = { .type = NLA_NESTED },
	[ELEC_ATTR_ALGO_OPT] = { .type = NLA_U16 },
	[ELEC_ATTR_OPTS_HASH] = { .type = NLA_U32 },
};

/**
 * struct elec_req - state of one request while its replies are read.
 * @ctx: session
 * @fn: reply handler, may be NULL
 * @arg: argument of @fn
 * @done: the ack, the end of the dump or an error arrived
 * @status: exit status set by a failing reply handler
 * @kerr: negative errno the kernel reported, 0 for none
 * @kmsg: the kernel's extack message, "" for none
 * @miss_type: attribute the kernel reported missing, -1 for none
 */
struct elec_req {
	struct elec_ctx *ctx;
	elec_reply_fn fn;
	void *arg;
	bool done;
	int status;
	int kerr;
	char kmsg[256];
	int miss_type;
};

uint64_t elec_nla_u64(struct nlattr **tb, int type, uint64_t def)
{
	struct nlattr *a = tb[type];

	if (!a)
		return def;
	switch (nla_len(a)) {
	case 1:
		return nla_get_u8(a);
	case 2:
		return nla_get_u16(a);
	case 4:
		return nla_get_u32(a);
	default:
		return nla_get_u64(a);
	}
}

int elec_nl_connect(struct elec_ctx *ctx)
{
	struct nl_sock *sk;
	int one = 1, fd, err;

	if (ctx->sk)
		return 0;
	sk = nl_socket_alloc();
	if (!sk)
		return elec_fail("cannot allocate a netlink socket");
	err = genl_connect(sk);
	if (err < 0) {
		nl_socket_free(sk);
		return elec_fail("cannot open a generic netlink socket: %s",
				 nl_geterror(err));
	}
	fd = nl_socket_get_fd(sk);
	/* Best effort: kernels without them just give no extack. */
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	ctx->sk = sk;
	return 0;
}

int elec_nl_open(struct elec_ctx *ctx)
{
	int err;

	if (ctx->family)
		return 0;
	if (elec_nl_connect(ctx))
		return ELEC_EXIT_FAIL;
	err = genl_ctrl_resolve(ctx->sk, ELECTION_GENL_NAME);
	if (err < 0) {
		elec_nl_close(ctx);
		if (err == -NLE_OBJ_NOTFOUND)
			return elec_fail("generic netlink family \"%s\" not found (is election.ko loaded?)",
					 ELECTION_GENL_NAME);
		return elec_fail("cannot resolve generic netlink family \"%s\": %s",
				 ELECTION_GENL_NAME, nl_geterror(err));
	}
	ctx->family = err;
	return 0;
}

void elec_nl_close(struct elec_ctx *ctx)
{
	if (ctx->sk)
		nl_socket_free(ctx->sk);
	ctx->sk = NULL;
	ctx->family = 0;
}

struct nl_msg *elec_nl_msg(struct elec_ctx *ctx, uint8_t cmd, bool dump)
{
	struct nl_msg *msg;

	if (!ctx->dry_run && elec_nl_open(ctx))
		return NULL;
	msg = nlmsg_alloc();
	if (!msg) {
		elec_fail("out of memory");
		return NULL;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ctx->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, ELECTION_GENL_VERSION)) {
		nlmsg_free(msg);
		elec_fail("cannot build the request");
		return NULL;
	}
	return msg;
}

/*
 * The options given, each as its kind carries it; for a peer (peer add)
 * pos is PEER_POS.
 */
static int put_options(struct nl_msg *msg, const struct elec_args *a,
		       bool peer)
{
	int o, err = 0;

	for (o = 0; o < ELEC_OPT_COUNT && !err; o++) {
		const struct elec_opt_desc *d = &elec_opts[o];
		int attr = peer && o == ELEC_OPT_POS ? ELEC_ATTR_PEER_POS :
			   d->attr;

		if (!(a->seen & ELEC_KWB_OPT(o)))
			continue;
		switch (elec_opt_width(o)) {
		case sizeof(uint64_t):
			err = nla_put_u64(msg, attr, a->opt[o]);
			break;
		case sizeof(uint32_t):
			err = nla_put_u32(msg, attr, (uint32_t)a->opt[o]);
			break;
		default:
			err = nla_put_u8(msg, attr, (uint8_t)a->opt[o]);
			break;
		}
	}
	return err;
}

int elec_nl_put_args(struct nl_msg *msg, const struct elec_args *a,
		     int id_attr)
{
	unsigned int s = a->seen;
	int err = 0;

	if (s & ELEC_KWB(ELEC_KW_DEV))
		err = err ?: nla_put_u32(msg, ELEC_ATTR_IFINDEX, a->ifindex);
	if (s & ELEC_KWB(ELEC_KW_GROUP))
		err = err ?: nla_put_u16(msg, ELEC_ATTR_GROUP, a->group);
	if (s & ELEC_KWB(ELEC_KW_ID))
		err = err ?: nla_put_u32(msg, id_attr, a->id);
	if (s & ELEC_KWB(ELEC_KW_ALGO))
		err = err ?: nla_put_u8(msg, ELEC_ATTR_ALGO, a->algo);
	if (s & ELEC_KWB(ELEC_KW_LLADDR))
		err = err ?: nla_put(msg, ELEC_ATTR_PEER_LLADDR,
				     sizeof(a->lladdr), a->lladdr);
	err = err ?: put_options(msg, a, id_attr == ELEC_ATTR_PEER_ID);
	if (s & ELEC_KWB(ELEC_KW_KEY_FILE))
		err = err ?: nla_put(msg, ELEC_ATTR_KEY, (int)a->key_len,
				     a->key);
	if (s & ELEC_KWB(ELEC_KW_KEY))
		err = err ?: nla_put_flag(msg, ELEC_ATTR_KEY_NONE);
	if (s & ELEC_KWB(ELEC_KW_KEY_NEXT_FILE))
		err = err ?: nla_put(msg, ELEC_ATTR_KEY_NEXT,
				     (int)a->key_next_len, a->key_next);
	if (s & ELEC_KWB(ELEC_KW_KEY_NEXT))
		err = err ?: nla_put_flag(msg, ELEC_ATTR_KEY_NEXT_NONE);
	if (err < 0)
		return elec_fail("cannot build the request: %s",
				 nl_geterror(err));
	return 0;
}

int elec_nl_parse(const struct elec_ctx *ctx, struct nlmsghdr *nlh,
		  struct nlattr **tb, uint8_t *cmd)
{
	if (nlh->nlmsg_type != ctx->family || !genlmsg_valid_hdr(nlh, 0))
		return -1;
	if (genlmsg_parse(nlh, 0, tb, ELEC_ATTR_MAX, elec_nl_policy) < 0)
		return -1;
	if (cmd)
		*cmd = genlmsg_hdr(nlh)->cmd;
	return 0;
}

/*
 * Read the extack TLVs that start @off bytes (aligned up) into the payload
 * of @nlh, when the kernel flagged their presence.
 */
static void parse_extack(const struct nlmsghdr *nlh, long off,
			 struct elec_req *req)
{
	static struct nla_policy pol[NLMSGERR_ATTR_MAX + 1] = {
		[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
		[NLMSGERR_ATTR_OFFS] = { .type = NLA_U32 },
		[NLMSGERR_ATTR_MISS_TYPE] = { .type = NLA_U32 },
		[NLMSGERR_ATTR_MISS_NEST] = { .type = NLA_U32 },
	};
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	long len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = (long)NLMSG_ALIGN(off);
	len = (long)nlh->nlmsg_len - (long)NLMSG_HDRLEN - off;
	if (off < 0 || len <= 0)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)(void *)((char *)NLMSG_DATA(nlh) + off),
		      (int)len, pol) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(req->kmsg, sizeof(req->kmsg), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE] && !tb[NLMSGERR_ATTR_MISS_NEST])
		req->miss_type = (int)nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
}

/* Offset of the TLVs after a struct nlmsgerr in the payload of @nlh. */
static long err_tlv_offset(const struct nlmsghdr *nlh,
			   const struct nlmsgerr *e)
{
	long off = (long)sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN)
			return -1;
		off += (long)e->msg.nlmsg_len - (long)NLMSG_HDRLEN;
	}
	return off;
}

static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	/* libnl passes nlmsg_data() of the NLMSG_ERROR message it checked. */
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)(const void *)((const char *)e -
						 NLMSG_HDRLEN);
	struct elec_req *req = arg;

	(void)nla;
	req->kerr = e->error < 0 ? e->error : -EPROTO;
	parse_extack(nlh, err_tlv_offset(nlh, e), req);
	req->done = true;
	return NL_STOP;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct elec_req *req = arg;

	parse_extack(nlh, err_tlv_offset(nlh, NLMSG_DATA(nlh)), req);
	if (req->kmsg[0])
		fprintf(stderr, "Warning: %s\n", req->kmsg);
	req->kmsg[0] = '\0';
	req->done = true;
	return NL_STOP;
}

/* NLMSG_DONE ends a dump; its payload is the dump's error (int). */
static int finish_cb(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct elec_req *req = arg;
	int err;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err)) {
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		if (err < 0) {
			req->kerr = err;
			parse_extack(nlh, (long)sizeof(err), req);
		}
	}
	req->done = true;
	return NL_STOP;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[ELEC_ATTR_MAX + 1];
	struct elec_req *req = arg;

	if (nlmsg_hdr(msg)->nlmsg_type != req->ctx->family)
		return NL_SKIP;
	if (elec_nl_parse(req->ctx, nlmsg_hdr(msg), tb, NULL)) {
		req->status = elec_fail("malformed reply from the kernel");
		req->done = true;
		return NL_STOP;
	}
	if (req->fn) {
		req->status = req->fn(tb, req->arg);
		if (req->status) {
			req->done = true;
			return NL_STOP;
		}
	}
	return NL_OK;
}

void elec_nl_msg_free(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *a;
	int rem;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN) {
		struct genlmsghdr *gh = genlmsg_hdr(nlh);

		nla_for_each_attr(a, genlmsg_attrdata(gh, 0),
				  genlmsg_attrlen(gh, 0), rem)
			if (nla_type(a) == ELEC_ATTR_KEY ||
			    nla_type(a) == ELEC_ATTR_KEY_NEXT)
				explicit_bzero(nla_data(a),
					       (size_t)nla_len(a));
	}
	nlmsg_free(msg);
}

/* Dry-run: print the request as JSON (never a key: only its length). */
static void dry_print(const struct elec_ctx *ctx, struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = genlmsg_hdr(nlh);
	const char *name = elec_cmd_name(gh->cmd);
	struct elec_json j;
	struct nlattr *a;
	char buf[64];
	int rem;

	elec_json_init(&j, stdout);
	elec_json_obj_begin(&j, NULL);
	elec_json_str(&j, "family", ELECTION_GENL_NAME);
	elec_json_u64(&j, "version", gh->version);
	if (name)
		elec_json_str(&j, "cmd", name);
	else
		elec_json_u64(&j, "cmd", gh->cmd);
	elec_json_bool(&j, "dump", nlh->nlmsg_flags & NLM_F_DUMP);
	if (ctx->unchecked)
		elec_json_bool(&j, "unchecked", true);
	elec_json_obj_begin(&j, "attrs");
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		int type = nla_type(a);
		const char *an = elec_attr_name((unsigned int)type);
		int len = nla_len(a), i, off = 0;

		if (!an) {
			snprintf(buf, sizeof(buf), "attr_%d", type);
			an = buf;
		}
		if (type == ELEC_ATTR_KEY || type == ELEC_ATTR_KEY_NEXT) {
			snprintf(buf, sizeof(buf), "hidden, %d bytes", len);
			elec_json_str(&j, an, buf);
		} else if ((type == ELEC_ATTR_KEY_NONE ||
			    type == ELEC_ATTR_KEY_NEXT_NONE) && !len) {
			elec_json_bool(&j, an, true);
		} else if (type == ELEC_ATTR_PEER_LLADDR && len == 6) {
			char mac[18];

			elec_fmt_mac(mac, sizeof(mac), nla_data(a));
			elec_json_str(&j, an, mac);
		} else if (type <= ELEC_ATTR_MAX &&
			   elec_nl_policy[type].type != NLA_NESTED &&
			   elec_nl_policy[type].type != NLA_STRING &&
			   elec_nl_policy[type].type != NLA_UNSPEC &&
			   (len == 1 || len == 2 || len == 4 || len == 8)) {
			struct nlattr *one[] = { a };

			elec_json_u64(&j, an, elec_nla_u64(one, 0, 0));
		} else {
			char hex[2 * 64 + 1];

			for (i = 0; i < len && i < 64; i++)
				off += snprintf(hex + off, sizeof(hex) - (size_t)off,
						"%02x",
						((unsigned char *)nla_data(a))[i]);
			hex[off] = '\0';
			elec_json_str(&j, an, hex);
		}
	}
	elec_json_obj_end(&j);
	elec_json_obj_end(&j);
	fputc('\n', stdout);
}

int elec_nl_transact(struct elec_ctx *ctx, struct nl_msg *msg,
		     elec_reply_fn fn, void *arg)
{
	struct elec_req req = {
		.ctx = ctx, .fn = fn, .arg = arg, .miss_type = -1,
	};
	struct nl_cb *cb;
	int err;

	if (ctx->dry_run) {
		if (!ctx->check_only)
			dry_print(ctx, msg);
		elec_nl_msg_free(msg);
		return 0;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		elec_nl_msg_free(msg);
		return elec_fail("out of memory");
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, &req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, &req);
	nl_cb_err(cb, NL_CB_CUSTOM, err_cb, &req);

	err = nl_send_auto(ctx->sk, msg);
	elec_nl_msg_free(msg);
	if (err < 0) {
		nl_cb_put(cb);
		return elec_fail("cannot send the request: %s",
				 nl_geterror(err));
	}
	while (!req.done) {
		err = nl_recvmsgs(ctx->sk, cb);
		if (err < 0)
			break;
	}
	nl_cb_put(cb);

	if (req.status)
		return req.status;
	if (req.kerr) {
		const char *an;

		if (req.kmsg[0])
			return elec_fail("%s", req.kmsg);
		an = req.miss_type >= 0 ?
		     elec_attr_name((unsigned int)req.miss_type) : NULL;
		if (an)
			return elec_fail("%s (missing attribute %s)",
					 strerror(-req.kerr), an);
		return elec_fail("%s", strerror(-req.kerr));
	}
	if (err == -NLE_DUMP_INTR)
		return ELEC_NL_DUMP_INTR;
	if (err < 0)
		return elec_fail("netlink: %s", nl_geterror(err));
	return 0;
}

int elec_nl_family_lookup(int known, int *grp)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	struct genl_family *f;
	int id = -1;

	if (grp)
		*grp = 0;
	if (!sk || genl_connect(sk) < 0 ||
	    genl_ctrl_alloc_cache(sk, &cache) < 0)
		goto out;
	id = 0;
	f = genl_ctrl_search_by_name(cache, ELECTION_GENL_NAME);
	if (f) {
		id = (int)genl_family_get_id(f);
		genl_family_put(f);
	}
	/* registered (a new id): its group, by name */
	if (grp && id && id != known) {
		*grp = genl_ctrl_resolve_grp(sk, ELECTION_GENL_NAME,
					     ELECTION_GENL_MCGRP_EVENTS);
		if (*grp < 0)
			*grp = 0;
	}
out:
	if (cache)
		nl_cache_free(cache);
	if (sk)
		nl_socket_free(sk);
	return id;
}

int elec_nl_join_events(struct elec_ctx *ctx)
{
	int grp, err;

	if (elec_nl_open(ctx))
		return ELEC_EXIT_FAIL;
	grp = genl_ctrl_resolve_grp(ctx->sk, ELECTION_GENL_NAME,
				    ELECTION_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return elec_fail("cannot resolve multicast group \"%s\": %s",
				 ELECTION_GENL_MCGRP_EVENTS, nl_geterror(grp));
	err = nl_socket_add_membership(ctx->sk, grp);
	if (err < 0)
		return elec_fail("cannot join multicast group \"%s\": %s",
				 ELECTION_GENL_MCGRP_EVENTS, nl_geterror(err));
	return 0;
}

/*
 * group add: an option of another algorithm, whatever its value
 * (elec_opt_applies(), as the kernel checks it, with its words, and the
 * algorithms that take it when there are several).
 */
static int check_algo_options(const struct elec_args *a)
{
	char names[128];
	unsigned int n, k, i;
	uint32_t set;
	int o;

	for (o = 0; o < ELEC_OPT_COUNT; o++) {
		size_t off = 0;

		if (!(a->seen & ELEC_KWB_OPT(o)) ||
		    elec_opt_applies(o, a->algo))
			continue;
		names[0] = 0;
		set = elec_opt_algos(o);
		n = (unsigned int)__builtin_popcount(set);
		for (i = 1, k = 0; n > 1 && i <= ELEC_ALGO_MAX; i++) {
			if (!(set & ELEC_ALGO_BIT(i)) || off >= sizeof(names))
				continue;
			k++;
			off += (size_t)snprintf(names + off, sizeof(names) - off,
						"%s%s", k == 1 ? ": algo " :
						k == n ? " or " : ", ",
						elec_algo_name(i) ?: "?");
		}
		return elec_err("%s%s%s (not \"%s\")", elec_opt_not_here[o], names,
				n > 1 ? " only" : "",
				elec_algo_name(a->algo) ?: "?");
	}
	return 0;
}

/*
 * "hb-interval, hb-miss, ..., key-file, key, key-next-file, key-next":
 * what group set takes
 */
static const char *set_keywords(void)
{
	static char buf[256];
	size_t off = 0;
	int o;

	buf[0] = 0;
	for (o = 0; o < ELEC_OPT_COUNT && off < sizeof(buf); o++)
		if (ELEC_KWB_OPTIONS_SET & ELEC_KWB_OPT(o))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off,
						"%s, ", elec_opts[o].name);
	if (off < sizeof(buf))
		snprintf(buf + off, sizeof(buf) - off,
			 "key-file, key, key-next-file, key-next");
	return buf;
}

int elec_nl_simple(struct elec_ctx *ctx, const char *what, uint8_t cmd,
		   int argc, char **argv, unsigned int allowed,
		   unsigned int required, int id_attr)
{
	struct elec_args a;
	struct nl_msg *msg;
	int ret;

	if (elec_parse_args(ctx, what, argc, argv, allowed, required, &a))
		return ELEC_EXIT_USAGE;
	ret = ELEC_EXIT_USAGE;
	if (!ctx->unchecked && (a.seen & ELEC_KWB_KEY) == ELEC_KWB_KEY) {
		elec_err("key-file and key none exclude each other: give one");
		goto out;
	}
	if (!ctx->unchecked &&
	    (a.seen & ELEC_KWB_KEY_NEXT) == ELEC_KWB_KEY_NEXT) {
		elec_err("key-next-file and key-next none exclude each other: give one");
		goto out;
	}
	if (!ctx->unchecked && (a.seen & ELEC_KWB(ELEC_KW_KEY)) &&
	    (a.seen & ELEC_KWB(ELEC_KW_KEY_NEXT_FILE))) {
		elec_err("key none removes both keys: not with key-next-file");
		goto out;
	}
	if (!ctx->unchecked && (a.seen & ELEC_KWB(ELEC_KW_KEY_FILE)) &&
	    (a.seen & ELEC_KWB(ELEC_KW_KEY_NEXT_FILE)) &&
	    a.key_len == a.key_next_len &&
	    !memcmp(a.key, a.key_next, a.key_len)) {
		elec_err("key-next-file holds the key key-file gives: a second key must differ");
		goto out;
	}
	if (cmd == ELEC_CMD_GROUP_NEW && !ctx->unchecked &&
	    (a.seen & ELEC_KWB(ELEC_KW_KEY))) {
		elec_err("key none applies to group set only (a new group has no key unless key-file is given)");
		goto out;
	}
	if (cmd == ELEC_CMD_GROUP_NEW && !ctx->unchecked &&
	    (a.seen & ELEC_KWB(ELEC_KW_KEY_NEXT))) {
		elec_err("key-next none applies to group set only (a new group has no second key unless key-next-file is given)");
		goto out;
	}
	if (cmd == ELEC_CMD_GROUP_NEW && !ctx->unchecked &&
	    (a.seen & ELEC_KWB(ELEC_KW_KEY_NEXT_FILE)) &&
	    !(a.seen & ELEC_KWB(ELEC_KW_KEY_FILE))) {
		elec_err("a second key needs a key: key-next-file needs key-file on group add");
		goto out;
	}
	if (cmd == ELEC_CMD_GROUP_SET && !ctx->unchecked &&
	    !(a.seen & (ELEC_KWB_OPTIONS_SET | ELEC_KWB_KEY |
			ELEC_KWB_KEY_NEXT))) {
		elec_err("\"%s\" needs at least one of %s", what,
			 set_keywords());
		goto out;
	}
	if (cmd == ELEC_CMD_GROUP_NEW && !ctx->unchecked &&
	    check_algo_options(&a))
		goto out;
	ret = ELEC_EXIT_FAIL;
	msg = elec_nl_msg(ctx, cmd, false);
	if (!msg)
		goto out;
	if (elec_nl_put_args(msg, &a, id_attr)) {
		elec_nl_msg_free(msg);
		goto out;
	}
	ret = elec_nl_transact(ctx, msg, NULL, NULL);
out:
	elec_args_wipe(&a);
	return ret;
}
