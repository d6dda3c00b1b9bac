/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elec-inject's private header: the constants of the wire format, the
 * structures its files share, and what each file gives the others.
 *
 *   main.c      the command line, errors and progress
 *   model.c     the receivers' model, from Documentation/protocol.rst only
 *               (no module/core code: it is the other side of the
 *               differential check with codec-check)
 *   mac.c       SipHash-2-4 (the trailer's MAC), key files
 *   gen.c       frame generation: random numbers, categories, mutations
 *   pcap.c      pcap files, read and written
 *   sock.c      AF_PACKET sockets, the sending loop, pacing and rate
 *   args.c      argument parsing shared by the commands
 *   cmd-read.c  capture, list
 *   cmd-send.c  replay, flip, forge, fuzz, and their report
 *   selftest.c  selftest
 */
#ifndef ELEC_INJECT_H
#define ELEC_INJECT_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/election.h>

/* ------------------------------------------------------------------ */
/* constants of the wire format (Documentation/protocol.rst)           */

#define ETH_HDR		14
#define HDR		24		/* our header */
#define MAX_PAYLOAD	1476		/* 1500 - HDR */
#define MAX_BODY	1500		/* our bytes in one frame (MTU) */
#define FRAME_MAX	(ETH_HDR + MAX_BODY)
#define MIN_FRAME	60		/* Ethernet minimum without FCS */
#define FLAG_LEAVING	0x01
#define FLAG_AUTH	0x02		/* authentication trailer follows */
#define TRAILER		16		/* be64 counter + 8-byte MAC */
#define N_ALGOS		7
#define MAX_NODES	256
#define MAX_GROUPS	64
#define RING_LIST_MAX	367		/* ids in one ring-list message */
#define ENH_MAX_CANDS	128
#define INV_MAX_IDS	255
#define INV_WIN_SHIFT_MAX 5		/* INVITE byte 6: the accept window's shift */

/* offsets in our header */
#define O_VERSION	0
#define O_TYPE		1
#define O_ALGO		2
#define O_FLAGS		3
#define O_GROUP		4
#define O_PLEN		6
#define O_SRC		8
#define O_DST		12
#define O_TERM		16

#define N_TYPES 15		/* message types 0..14 */

/* what a receiving node does with a frame: enum elec_drop, and two more */
#define R_ACCEPT	(ELEC_DROP_MAX + 1)	/* passes every check */
#define R_NONE		(ELEC_DROP_MAX + 2)	/* not received */
#define N_REASONS	(ELEC_DROP_MAX + 3)

/* frame categories: what the generator meant a frame to be */
enum cat {
	C_RUNT,		/* shorter than our header */
	C_VERSION,	/* version other than 1 */
	C_TYPE,		/* type 0, 6 (retry) or above 14 */
	C_ALGO,		/* algorithm 0 or above 7 */
	C_FLAGS,	/* an unknown flag bit (never the AUTH bit) */
	C_LEAVING,	/* LEAVING on another type than heartbeat */
	C_GROUP0,	/* group 0 */
	C_SRC0,		/* source id 0 */
	C_LEN_MAX,	/* payload_len above 1476 */
	C_LEN_BEYOND,	/* payload_len beyond the frame */
	C_PAYLOAD_LEN,	/* a payload length wrong for the type */
	C_PAYLOAD,	/* a payload of the right length, invalid content */
	C_TYPE_ALGO,	/* a type the algorithm does not use */
	C_AUTH_TRAILER,	/* the AUTH flag and a trailer with a random MAC */
	C_AUTH_CUT,	/* the AUTH flag and a trailer cut short */
	C_AUTH_SIGNED,	/* to a keyed group, its MAC right (the key known) */
	C_WRONG_GROUP,	/* a group no node has */
	C_STOPPED,	/* a group whose instances are stopped */
	C_WRONG_ALGO,	/* another algorithm than the group's */
	C_WRONG_DST,	/* unicast to an id no node has */
	C_UNKNOWN_PEER,	/* from an id no node has */
	C_PEER_ID,	/* from a node's id (but not from its MAC) */
	C_MUTATED,	/* a valid frame, then 1..4 random mutations */
	C_RANDOM,	/* random bytes */
	C_FORGED,	/* forge */
	C_REPLAYED,	/* replay */
	C_FLIPPED,	/* flip */
	N_CATS
};

/* ------------------------------------------------------------------ */
/* byte order helpers                                                  */

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static inline uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* header fields */
struct hdr {
	uint8_t version, type, algo, flags;
	uint16_t group, plen;
	uint32_t src, dst;
	uint64_t term;
};

/* what the receiving device makes of a frame's bytes */
enum verdict {
	V_OK,		/* decodes */
	V_MALFORMED,	/* malformed (counted by the device) */
	V_AUTH_SHORT,	/* the AUTH flag, no room for the trailer: counted by
			 * the device as auth_truncated */
};

/* the receivers the model predicts for (model.c; args.c fills it) */
struct node {
	uint32_t id;
	uint8_t mac[6];
	bool has_mac;
};

struct group {
	uint16_t id;
	uint8_t algo;
	bool stopped;
	bool keyed;		/* the group has a key: key */
	uint8_t key[16];
};

struct model {
	struct node nodes[MAX_NODES];
	unsigned int n_nodes;
	struct group groups[MAX_GROUPS];
	unsigned int n_groups;
	uint16_t absent_group;		/* 0: pick at random */
	/* counts: [node][reason], and per category */
	uint64_t (*per_node)[N_REASONS];
	uint64_t total[N_REASONS];
	uint64_t per_cat[N_CATS][N_REASONS];
};

/* a frame: Ethernet header, then ours (gen.c builds them) */
struct frame {
	uint8_t b[FRAME_MAX];
	size_t len;		/* Ethernet header included */
};

/* generator settings */
struct gen {
	uint8_t algos[N_ALGOS];		/* algorithms to build frames of */
	unsigned int n_algos;
	uint16_t groups[MAX_GROUPS];	/* group ids frames are sent to */
	unsigned int n_groups;
	uint8_t src_mac[6], dst_mac[6];
	uint16_t ethertype;
};

/* a pcap file being read (pcap.c) */
struct pcap_in {
	FILE *f;
	const char *path;
	bool swap, ns;
	unsigned long index;
};

/* the sending commands' output: a packet socket or pcap:FILE (sock.c) */
#define BATCH_MAX 256

struct out {
	const char *dev;
	int fd;			/* packet socket, or -1 */
	FILE *pcap;		/* pcap:FILE output, or NULL */
	int ifindex;
	uint8_t own_mac[6];
	unsigned int batch;
	bool pace;
	double rate;		/* frames per second, 0: no limit */
	int backlog_fd;		/* /proc/net/softnet_stat */
	/* queued frames */
	uint8_t (*bufs)[FRAME_MAX];
	struct iovec iov[BATCH_MAX];
	struct mmsghdr msgs[BATCH_MAX];
	unsigned int queued;
	/* statistics */
	uint64_t sent, bytes, retries, pace_waits;
	double t0, t_end;
	uint32_t backlog_max;
};

/* the command line after the options (args.c) */
struct args {
	int argc;
	char **argv;
	int i;
};

/* options every sending command takes; true when the word was one */
struct common {
	const char *src_mac;	/* NULL: default of the command */
	const char *dst_mac;
	bool seen_ethertype, seen_batch, seen_pace, seen_rate, seen_nodes;
	bool seen_absent, seen_groups;
};

/* src-mac own|MAC (and keep where the command has one): after out_open */
enum src_mode { SRC_OWN, SRC_KEEP, SRC_SET };

/* main.c */
void die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void die_errno(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
extern const char *prog;
extern const char *cmd_name;
extern bool opt_json;
extern bool opt_quiet;
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double now_s(void);
void sleep_us(unsigned int us);

/* model.c */
extern const char *const algo_names[N_ALGOS + 1];
extern const char *const type_names[N_TYPES];
extern const uint8_t algo_types[N_ALGOS + 1][8];
const char *reason_name(int r);
bool algo_has_type(unsigned int algo, unsigned int type);
bool payload_valid(unsigned int algo, unsigned int type,
		   const uint8_t *p, unsigned int len);
void hdr_read(const uint8_t *b, struct hdr *h);
void hdr_write(uint8_t *b, const struct hdr *h);
extern const char *const verdict_names[];
enum verdict body_verdict(const uint8_t *b, size_t len, struct hdr *h);
bool body_decodes(const uint8_t *b, size_t len, struct hdr *h);
extern struct model model;
const struct node *node_by_id(uint32_t id);
const struct group *group_by_id(uint16_t id);
uint64_t wall_ns(void);
uint64_t next_counter(uint64_t last);
bool counter_near_now(const uint8_t *frame, size_t len, uint64_t *ctr);
int predict(const uint8_t *frame, size_t len, uint16_t ethertype,
	    const struct node *n);
void account(const uint8_t *frame, size_t len, uint16_t ethertype,
	     enum cat c);

/* mac.c */
uint64_t siphash24(const uint8_t key[16], const uint8_t *in, size_t len);
void siphash24_bytes(const uint8_t key[16], const uint8_t *in,
		     size_t len, uint8_t mac[8]);
size_t read_key(const char *path, uint8_t key[16]);

/* gen.c */
extern const char *const cat_names[N_CATS];
extern uint64_t rng_state;
uint64_t rnd64(void);
uint32_t rnd(uint32_t n);
void rnd_bytes(uint8_t *p, size_t n);
extern struct gen gen;
uint8_t *body_of(struct frame *f);
void eth_header(struct frame *f);
void pad(struct frame *f);
void build_valid(struct frame *f, uint8_t algo, uint8_t type,
		 uint16_t grp);
void sign(struct frame *f, const uint8_t key[16], uint64_t counter);
void flip_bits(struct frame *f, unsigned int bits);
void build_cat(struct frame *f, enum cat c);

/* pcap.c */
void pcap_open_in(struct pcap_in *in, const char *path);
bool pcap_next(struct pcap_in *in, struct frame *f, double *ts);
void pcap_write_header(FILE *f);
FILE *pcap_create(const char *path);
struct frame *pcap_load(const char *path, uint16_t ethertype, size_t *n);
void pcap_write(FILE *f, const uint8_t *b, size_t len);

/* sock.c */
int packet_socket(const char *dev, uint16_t proto, int *ifindex);
extern struct out out;
void out_open(const char *dev);
void out_put(const uint8_t *b, size_t len);
void out_close(void);

/* args.c */
bool more(struct args *a);
const char *next_word(struct args *a);
const char *need_word(struct args *a, const char *missing);
bool num_opt(struct args *a, const char *kw, const char *name, bool *seen,
	     uint64_t *v, uint64_t min, uint64_t max);
const char *value_of(struct args *a, const char *kw);
uint64_t parse_num(const char *s, const char *what, uint64_t min,
		   uint64_t max);
double parse_seconds(const char *s, const char *what);
uint8_t parse_algo(const char *s);
uint8_t parse_type(const char *s);
bool is_type_word(const char *s);
void add_target_group(uint16_t id);
void parse_algos(const char *s);
bool common_opt(struct args *a, const char *kw, struct common *c);
void common_finish(struct common *c);
enum src_mode src_mode_of(const char *s, bool keep_ok);

/* cmd-send.c */
int cmd_replay_flip(struct args *a, bool flip);
int cmd_forge(struct args *a);
int cmd_fuzz(struct args *a);

/* cmd-read.c */
int cmd_capture(struct args *a);
int cmd_list(struct args *a);

/* selftest.c */
int cmd_selftest(struct args *a);

#endif /* ELEC_INJECT_H */
