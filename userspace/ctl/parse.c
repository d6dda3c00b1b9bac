// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - strict command line parsers.
 *
 * DUR: decimal digits followed by "us", "ms" or "s", from 100us to 60s
 *	inclusive (ELECTION_DUR_MIN_NS..ELECTION_DUR_MAX_NS). No sign, no
 *	fraction, no spaces, no other unit.
 * Ids: decimal 1..4294967295. Groups: decimal 1..65535.
 * hb-miss: decimal ELECTION_HB_MISS_MIN..ELECTION_HB_MISS_MAX.
 * MAC: six pairs of hex digits separated by ':', a unicast address.
 * Ring positions (pos): decimal 1..4294967295. suppress, ask-suspect,
 * preempt, quorum: "on" or "off". preempt-delay, search-interval,
 * detector-margin, detector-max: "0" or a DUR. detector: "fixed" or
 * "adaptive". timeout: a DUR or "auto" (timeout-auto on).
 * Device names: resolved with if_nametoindex(); unknown names are errors.
 * key-file, key-next-file: a file of exactly 16 bytes (the raw key), or
 *	of 32 hex digits optionally followed by blanks (a newline); key,
 *	key-next: "none" only.
 * Keywords, commands and subcommands: the word, or an unambiguous prefix
 * of it (iproute2 style; "hb" names both hb-interval and hb-miss, so it
 * is an error); a keyword added later (detector, detector-margin,
 * detector-max, key-next-file, key-next) gives way to the older one a
 * prefix also names ("d" and "de" are dev, "key-" is key-file); values
 * (algorithm names, on/off, detector's words) are never abbreviated.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"

static int find_kw(const char *s, unsigned int allowed);

static const char *const kw_names[ELEC_KW_COUNT] = {
	[ELEC_KW_DEV] = "dev",
	[ELEC_KW_GROUP] = "group",
	[ELEC_KW_ID] = "id",
	[ELEC_KW_ALGO] = "algo",
	[ELEC_KW_LLADDR] = "lladdr",
	[ELEC_KW_HOOK_TIMEOUT] = "hook-timeout",
	[ELEC_KW_KEY_FILE] = "key-file",
	[ELEC_KW_KEY] = "key",
	[ELEC_KW_KEY_NEXT_FILE] = "key-next-file",
	[ELEC_KW_KEY_NEXT] = "key-next",
#define ELEC_OPTION(ID, nm, ...) [ELEC_KW_OPT(ELEC_OPT_ ## ID)] = nm,
#include "options-list.h"
};

/* Reasons that carry numbers are formatted here. */
static char reason_buf[128];

const char *elec_kw_name(enum elec_kw kw)
{
	return kw < ELEC_KW_COUNT ? kw_names[kw] : "?";
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits of s[0..len), no overflow of u64. */
static bool digits_to_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (!is_digit(s[i]))
			return false;
		d = (unsigned int)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

const char *elec_parse_uint(const char *s, uint64_t min, uint64_t max,
			    uint64_t *out)
{
	uint64_t v;
	size_t len = strlen(s);

	if (!len || strspn(s, "0123456789") != len ||
	    !digits_to_u64(s, len, &v) || v < min || v > max) {
		snprintf(reason_buf, sizeof(reason_buf),
			 "expected an integer from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return reason_buf;
	}
	*out = v;
	return NULL;
}

const char *elec_parse_dur(const char *s, bool unchecked, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t mult;
	} units[] = {
		{ "us", 1000ULL },
		{ "ms", 1000000ULL },
		{ "s", 1000000000ULL },
	};
	static const char range[] = "out of range: a duration is 100us..60s";
	size_t ndig = strspn(s, "0123456789");
	const char *unit = s + ndig;
	uint64_t v, mult = 0;
	size_t i;

	if (!ndig)
		return "expected an integer followed by us, ms or s";
	if (!*unit)
		return "missing unit: us, ms or s";
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].unit))
			mult = units[i].mult;
	if (!mult)
		return "the unit must be us, ms or s";
	if (!digits_to_u64(s, ndig, &v) || v > UINT64_MAX / mult)
		return range;
	v *= mult;
	if (!unchecked && (v < ELECTION_DUR_MIN_NS || v > ELECTION_DUR_MAX_NS))
		return range;
	*ns = v;
	return NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

const char *elec_parse_mac(const char *s, bool unchecked, uint8_t mac[6])
{
	uint8_t m[6];
	int i;

	if (strlen(s) != 17)
		goto bad;
	for (i = 0; i < 6; i++) {
		int hi = hexval(s[3 * i]), lo = hexval(s[3 * i + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			goto bad;
		m[i] = (uint8_t)(hi << 4 | lo);
	}
	if (!unchecked) {
		static const uint8_t zero[6];

		if (m[0] & 1)
			return "must be a unicast address (multicast bit set)";
		if (!memcmp(m, zero, sizeof(zero)))
			return "must not be 00:00:00:00:00:00";
	}
	memcpy(mac, m, sizeof(m));
	return NULL;
bad:
	return "expected six hex pairs like 02:00:00:00:00:01";
}

static const char *parse_algo(const char *s, uint8_t *algo)
{
	unsigned int i;
	size_t off = 0;

	for (i = 1; i <= ELEC_ALGO_MAX; i++) {
		const char *name = elec_algo_name(i);

		if (name && !strcmp(s, name)) {
			*algo = (uint8_t)i;
			return NULL;
		}
	}
	off = (size_t)snprintf(reason_buf, sizeof(reason_buf),
			       "unknown algorithm; known:");
	for (i = 1; i <= ELEC_ALGO_MAX && off < sizeof(reason_buf); i++)
		if (elec_algo_name(i))
			off += (size_t)snprintf(reason_buf + off,
						sizeof(reason_buf) - off,
						" %s", elec_algo_name(i));
	return reason_buf;
}

static const char *parse_on_off(const char *s, uint8_t *v)
{
	if (!strcmp(s, "on"))
		*v = 1;
	else if (!strcmp(s, "off"))
		*v = 0;
	else
		return "expected on or off";
	return NULL;
}

static const char *parse_dev(const char *s, struct elec_args *a)
{
	unsigned int idx;

	if (!*s)
		return "empty device name";
	if (strlen(s) >= IF_NAMESIZE)
		return "device name too long";
	idx = if_nametoindex(s);
	if (!idx) {
		if (errno == ENODEV || errno == ENXIO)
			return "no such device";
		snprintf(reason_buf, sizeof(reason_buf),
			 "cannot resolve: %s", strerror(errno));
		return reason_buf;
	}
	strcpy(a->dev, s);
	a->ifindex = idx;
	return NULL;
}

void elec_args_wipe(struct elec_args *a)
{
	explicit_bzero(a->key, sizeof(a->key));
	a->key_len = 0;
	explicit_bzero(a->key_next, sizeof(a->key_next));
	a->key_next_len = 0;
}

static const char key_format[] =
	"expected exactly 16 raw bytes, or 32 hex digits optionally followed by a newline";
static const char key_zero[] = "an all-zero key is refused";

/* a decoded key of all zeroes is no secret (the kernel refuses it too) */
static const char *key_not_zero(uint8_t *key, size_t *key_len)
{
	size_t i;

	for (i = 0; i < *key_len; i++)
		if (key[i])
			return NULL;
	*key_len = 0;
	return key_zero;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The key in @buf (@len bytes read from the file) into @key
 * (ELEC_KEY_FILE_MAX bytes), its length to @key_len: 16 raw bytes, or 32
 * hex digits and nothing but blanks after them. Never quotes the content.
 */
static const char *decode_key(const uint8_t *buf, size_t len, bool unchecked,
			      uint8_t *key, size_t *key_len)
{
	size_t i;

	if (len == ELECTION_KEY_LEN) {
		memcpy(key, buf, len);
		*key_len = len;
		return unchecked ? NULL : key_not_zero(key, key_len);
	}
	if (len >= 2 * ELECTION_KEY_LEN) {
		for (i = 0; i < 2 * ELECTION_KEY_LEN; i++)
			if (hexval((char)buf[i]) < 0)
				break;
		while (i == 2 * ELECTION_KEY_LEN && len > i &&
		       is_blank((char)buf[len - 1]))
			len--;
		if (i == 2 * ELECTION_KEY_LEN && len == i) {
			for (i = 0; i < ELECTION_KEY_LEN; i++)
				key[i] = (uint8_t)(hexval((char)buf[2 * i]) << 4 |
						   hexval((char)buf[2 * i + 1]));
			*key_len = ELECTION_KEY_LEN;
			return unchecked ? NULL : key_not_zero(key, key_len);
		}
	}
	if (unchecked && len <= ELEC_KEY_FILE_MAX) {
		/* tests: the kernel must refuse a key of another length */
		memcpy(key, buf, len);
		*key_len = len;
		return NULL;
	}
	return key_format;
}

/*
 * A batch's validation (elec_check_begin()): the files genkey lines would
 * create, so that a later key-file line naming one is valid.
 */
static char **check_created;
static size_t check_n_created;
bool elec_check_only;

void elec_check_begin(void)
{
	elec_check_only = true;
}

void elec_check_end(void)
{
	size_t i;

	for (i = 0; i < check_n_created; i++)
		free(check_created[i]);
	free(check_created);
	check_created = NULL;
	check_n_created = 0;
	elec_check_only = false;
}

int elec_check_note_created(const char *path)
{
	char **n = realloc(check_created,
			   (check_n_created + 1) * sizeof(*n));

	if (!n)
		return -1;
	check_created = n;
	n[check_n_created] = strdup(path);
	if (!n[check_n_created])
		return -1;
	check_n_created++;
	return 0;
}

static bool check_will_exist(const char *path)
{
	size_t i;

	for (i = 0; i < check_n_created; i++)
		if (!strcmp(check_created[i], path))
			return true;
	return false;
}

/* a key that passes the parser's checks, for a file not read yet */
static const char *check_placeholder_key(uint8_t *key, size_t *key_len)
{
	memset(key, 0x5a, ELECTION_KEY_LEN);
	*key_len = ELECTION_KEY_LEN;
	return NULL;
}

/*
 * key-file PATH, key-next-file PATH: read the key into @key
 * (ELEC_KEY_FILE_MAX bytes) and its length to @key_len. Warns (on stderr,
 * like wg) when group or others may read or write the file; a key others
 * could read is no secret. In a batch's validation a file an earlier
 * genkey line creates is taken as it will be, and one that is not a
 * regular file (a FIFO, /dev/stdin) is not read (the run reads it once);
 * no warning is printed twice.
 */
static const char *parse_key_file(const char *path, bool unchecked,
				  uint8_t *key, size_t *key_len)
{
	uint8_t buf[2 * ELEC_KEY_FILE_MAX + 1];
	const char *why = NULL;
	size_t len = 0;
	struct stat st;
	int fd;

	if (!*path)
		return "empty file name";
	if (elec_check_only && check_will_exist(path))
		return check_placeholder_key(key, key_len);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (elec_check_only ?
							O_NONBLOCK : 0));
	if (fd < 0) {
		snprintf(reason_buf, sizeof(reason_buf), "cannot open: %s",
			 strerror(errno));
		return reason_buf;
	}
	if (fstat(fd, &st)) {
		snprintf(reason_buf, sizeof(reason_buf), "cannot stat: %s",
			 strerror(errno));
		close(fd);
		return reason_buf;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return "is a directory; expected a file holding the key";
	}
	if (elec_check_only && !S_ISREG(st.st_mode)) {
		close(fd);
		return check_placeholder_key(key, key_len);
	}
	while (len < sizeof(buf)) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(reason_buf, sizeof(reason_buf),
				 "cannot read: %s", strerror(errno));
			why = reason_buf;
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!why && len == sizeof(buf))
		why = key_format;
	if (!why)
		why = decode_key(buf, len, unchecked, key, key_len);
	explicit_bzero(buf, sizeof(buf));
	if (!why && !elec_check_only && S_ISREG(st.st_mode) &&
	    (st.st_mode & 0066)) {
		fflush(stdout);
		fprintf(stderr, "Warning: %skey file \"%s\" is readable or writable by group or others (mode %04o): chmod 600 it\n",
			elec_err_where ? elec_err_where : "", path,
			(unsigned int)(st.st_mode & 07777));
	}
	return why;
}

/* "0" (the default: no delay; the default period) or a duration */
static const char *parse_zero_or_dur(const char *s, bool unchecked,
				     uint64_t *ns)
{
	const char *why;

	if (!strcmp(s, "0")) {
		*ns = 0;
		return NULL;
	}
	why = elec_parse_dur(s, unchecked, ns);
	return why && !strcmp(why, "out of range: a duration is 100us..60s") ?
	       "out of range: 0 or a duration from 100us to 60s" : why;
}

/* one of an ELEC_OPTK_WORD option's words, whole: "fixed", "adaptive" */
static const char *parse_word(enum elec_opt o, const char *s, uint64_t *v)
{
	const char *const *w = elec_opts[o].words;
	int val = elec_opt_word_value(o, s);
	size_t off;
	int i;

	if (val >= 0) {
		*v = (uint64_t)val;
		return NULL;
	}
	off = (size_t)snprintf(reason_buf, sizeof(reason_buf), "expected ");
	for (i = 0; w[i] && off < sizeof(reason_buf); i++)
		off += (size_t)snprintf(reason_buf + off,
					sizeof(reason_buf) - off, "%s%s",
					!i ? "" : w[i + 1] ? ", " : " or ",
					w[i]);
	return reason_buf;
}

/* an option's value by its kind (options.h) */
static const char *parse_option(enum elec_opt o, const char *s,
				bool unchecked, struct elec_args *a)
{
	const struct elec_opt_desc *d = &elec_opts[o];
	const char *why;
	uint8_t b;

	switch (d->kind) {
	case ELEC_OPTK_DUR:
		return elec_parse_dur(s, unchecked, &a->opt[o]);
	case ELEC_OPTK_DUR0:
		return parse_zero_or_dur(s, unchecked, &a->opt[o]);
	case ELEC_OPTK_U32:
		return elec_parse_uint(s, unchecked ? 0 : d->lo,
				       unchecked ? UINT32_MAX : d->hi,
				       &a->opt[o]);
	case ELEC_OPTK_POS:
		return elec_parse_uint(s, unchecked ? 0 : 1, UINT32_MAX,
				       &a->opt[o]);
	case ELEC_OPTK_WORD:
		return parse_word(o, s, &a->opt[o]);
	default:
		why = parse_on_off(s, &b);
		if (!why)
			a->opt[o] = b;
		return why;
	}
}

static const char *parse_value(enum elec_kw kw, const char *s, bool unchecked,
			       struct elec_args *a)
{
	const char *why;
	uint64_t v;

	if (kw >= ELEC_KW_OPT0 && kw < ELEC_KW_COUNT)
		return parse_option((enum elec_opt)(kw - ELEC_KW_OPT0), s,
				    unchecked, a);
	switch (kw) {
	case ELEC_KW_DEV:
		return parse_dev(s, a);
	case ELEC_KW_GROUP:
		why = elec_parse_uint(s, unchecked ? 0 : 1, UINT16_MAX, &v);
		if (!why)
			a->group = (uint16_t)v;
		return why;
	case ELEC_KW_ID:
		why = elec_parse_uint(s, unchecked ? 0 : 1, UINT32_MAX, &v);
		if (!why)
			a->id = (uint32_t)v;
		return why;
	case ELEC_KW_ALGO:
		return parse_algo(s, &a->algo);
	case ELEC_KW_LLADDR:
		return elec_parse_mac(s, unchecked, a->lladdr);
	case ELEC_KW_HOOK_TIMEOUT:
		return elec_parse_dur(s, unchecked, &a->hook_timeout_ns);
	case ELEC_KW_KEY_FILE:
		return parse_key_file(s, unchecked, a->key, &a->key_len);
	case ELEC_KW_KEY:
		return strcmp(s, "none") ? "expected none (to remove the key; a key is set with key-file PATH)" : NULL;
	case ELEC_KW_KEY_NEXT_FILE:
		return parse_key_file(s, unchecked, a->key_next,
				      &a->key_next_len);
	case ELEC_KW_KEY_NEXT:
		return strcmp(s, "none") ? "expected none (to drop the second key; one is set with key-next-file PATH)" : NULL;
	default:
		break;
	}
	return "internal error";
}

int elec_lookup(const char *s, const char *const *names, const int *ids,
		size_t n)
{
	size_t len = strlen(s), i;
	int found = -1;

	if (!len)
		return -1;
	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return ids ? ids[i] : (int)i;
	for (i = 0; i < n; i++) {
		int id = ids ? ids[i] : (int)i;

		if (!names[i] || strncmp(s, names[i], len))
			continue;
		if (found >= 0 && found != id)
			return ELEC_LOOKUP_AMBIGUOUS;
		found = id;
	}
	return found;
}

const char *elec_lookup_candidates(const char *s, const char *const *names,
				   size_t n)
{
	static char buf[256];
	size_t len = strlen(s), off = 0, i;

	buf[0] = '\0';
	for (i = 0; i < n && off < sizeof(buf); i++)
		if (names[i] && !strncmp(s, names[i], len))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off,
						"%s%s", off ? ", " : "",
						names[i]);
	return buf;
}

/* The keyword @s among the @allowed ones: exact, else a unique prefix. */
int elec_kw_lookup(const char *s, unsigned int allowed)
{
	return find_kw(s, allowed);
}

/*
 * a keyword added after users learned the short forms (ELEC_OPTF_LATE;
 * the second key's: "key-" stays key-file)
 */
static bool kw_late(int kw)
{
	if (kw == ELEC_KW_KEY_NEXT_FILE || kw == ELEC_KW_KEY_NEXT)
		return true;
	return kw >= ELEC_KW_OPT0 && kw < ELEC_KW_COUNT &&
	       elec_opts[kw - ELEC_KW_OPT0].flags & ELEC_OPTF_LATE;
}

/*
 * The keyword @s names: exact, else a unique prefix among the keywords
 * users learned first, else among the late ones: "d" and "de" stay dev
 * beside detector, as "ip l" stays "ip link" (a fixed precedence).
 */
static int find_kw(const char *s, unsigned int allowed)
{
	const char *names[ELEC_KW_COUNT];
	int kw, pass, found = -1;

	for (pass = 0; pass < 2 && found == -1; pass++) {
		for (kw = 0; kw < ELEC_KW_COUNT; kw++)
			names[kw] = allowed & ELEC_KWB(kw) &&
				    kw_late(kw) == pass ? kw_names[kw] : NULL;
		found = elec_lookup(s, names, NULL, ELEC_KW_COUNT);
	}
	return found;
}

static int parse_args(const struct elec_ctx *ctx, const char *what,
		      int argc, char **argv, unsigned int allowed,
		      unsigned int required, struct elec_args *a)
{
	unsigned int missing;
	int i, kw;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i += 2) {
		const char *why;

		kw = find_kw(argv[i], allowed);
		if (kw == ELEC_LOOKUP_AMBIGUOUS) {
			const char *names[ELEC_KW_COUNT];
			int k;

			for (k = 0; k < ELEC_KW_COUNT; k++)
				names[k] = allowed & ELEC_KWB(k) ?
					   kw_names[k] : NULL;
			return elec_err("ambiguous keyword \"%s\" for \"%s\": %s",
					argv[i], what,
					elec_lookup_candidates(argv[i], names,
							       ELEC_KW_COUNT));
		}
		if (kw < 0)
			return elec_err("unknown keyword \"%s\" for \"%s\"",
					argv[i], what);
		if ((a->seen | a->named) & ELEC_KWB(kw))
			return elec_err("duplicate keyword \"%s\"",
					kw_names[kw]);
		if (i + 1 >= argc)
			return elec_err("keyword \"%s\" needs a value",
					argv[i]);
		/*
		 * "timeout auto": T from measured round trips, what
		 * "timeout-auto on" says (a duration turns it off: the
		 * kernel takes TIMEOUT_NS alone so)
		 */
		if (kw == ELEC_KW_OPT(ELEC_OPT_TIMEOUT) &&
		    !strcmp(argv[i + 1], "auto")) {
			if ((a->seen | a->named) & ELEC_KWB(kw))
				return elec_err("duplicate keyword \"%s\"",
						kw_names[kw]);
			kw = ELEC_KW_OPT(ELEC_OPT_TIMEOUT_AUTO);
			if ((a->seen | a->named) & ELEC_KWB(kw))
				return elec_err("duplicate keyword \"%s\"",
						kw_names[kw]);
			a->opt[ELEC_OPT_TIMEOUT_AUTO] = 1;
			a->seen |= ELEC_KWB(kw);
			/* timeout is named: "timeout 5ms" again is a duplicate */
			a->named |= ELEC_KWB(ELEC_KW_OPT(ELEC_OPT_TIMEOUT));
			continue;
		}
		why = parse_value((enum elec_kw)kw, argv[i + 1],
				  ctx->unchecked, a);
		if (why)
			return elec_err("invalid %s \"%s\": %s", argv[i],
					argv[i + 1], why);
		a->seen |= ELEC_KWB(kw);
	}
	if (ctx->unchecked)
		return 0;
	missing = required & ~a->seen;
	for (kw = 0; kw < ELEC_KW_COUNT; kw++)
		if (missing & ELEC_KWB(kw))
			return elec_err("missing required keyword \"%s\" for \"%s\"",
					kw_names[kw], what);
	return 0;
}

int elec_parse_args(const struct elec_ctx *ctx, const char *what,
		    int argc, char **argv, unsigned int allowed,
		    unsigned int required, struct elec_args *a)
{
	int ret = parse_args(ctx, what, argc, argv, allowed, required, a);

	if (ret)
		elec_args_wipe(a);
	return ret;
}
