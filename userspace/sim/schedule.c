// SPDX-License-Identifier: GPL-2.0
/*
 * Scripted fault schedules: --schedule "split:MASK@US;heal@US;crash:ID@US;
 * recover:ID@US;standby:ID@US;active:ID@US" (or the environment variable
 * ELECTSIM_SCRIPT holding the
 * same string). Each item is a fault at a time in microseconds after the
 * trigger of --scenario random, and of every --check run; a schedule
 * replaces the random one. MASK is a hexadecimal (0x...) or decimal
 * number; bit (id - 1) puts that id on side 1 of the split, every other
 * id on side 0 (a split while split re-splits). The checks below make
 * every schedule one the simulator can run as written: known ids, a
 * crash of a node that is up, a return of one that is down, a heal of a
 * split, at least one node up at every instant. standby:ID puts node ID
 * in tracked standby (electionctl track's GROUP_SET standby-tracked on),
 * active:ID takes it out.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static const char *const sched_op_names[] = {
	[SCHED_SPLIT] = "split",
	[SCHED_HEAL] = "heal",
	[SCHED_CRASH] = "crash",
	[SCHED_RECOVER] = "recover",
	[SCHED_STANDBY] = "standby",
	[SCHED_ACTIVE] = "active",
};

static int sched_err(char *err, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int sched_err(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return -1;
}

/* hex digits, most significant first, no leading zeros ("0" for none) */
static int sched_parse_mask(const char *s, size_t len, char **out)
{
	char *m;
	size_t i, k = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
		m = malloc(len + 1);
		if (!m)
			return -1;
		for (i = 0; i < len; i++) {
			char c = s[i];

			if (c >= 'A' && c <= 'F')
				c = (char)(c - 'A' + 'a');
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
				free(m);
				return -1;
			}
			if (k || c != '0')
				m[k++] = c;
		}
	} else {
		char buf[32], *end;
		unsigned long long v;

		if (!len || len >= sizeof(buf))
			return -1;
		memcpy(buf, s, len);
		buf[len] = 0;
		if (buf[0] < '0' || buf[0] > '9')
			return -1;
		errno = 0;
		v = strtoull(buf, &end, 10);
		if (errno || *end)
			return -1;
		m = malloc(20);
		if (!m)
			return -1;
		k = (size_t)snprintf(m, 20, "%llx", v);
		if (!v)
			k = 0;
	}
	if (!k)
		m[k++] = '0';
	m[k] = 0;
	*out = m;
	return 0;
}

/* bit @bit of a mask (hex digits, most significant first) */
int sched_mask_bit(const char *mask, u32 bit)
{
	size_t len = strlen(mask), d = bit / 4;
	char c;
	int v;

	if (d >= len)
		return 0;
	c = mask[len - 1 - d];
	v = c <= '9' ? c - '0' : c - 'a' + 10;
	return (v >> (bit % 4)) & 1;
}

/* the highest bit set, + 1 (0: none) */
static u32 sched_mask_bits(const char *mask)
{
	size_t len = strlen(mask);
	int v = mask[0] <= '9' ? mask[0] - '0' : mask[0] - 'a' + 10;
	u32 b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b ? (u32)(len - 1) * 4 + b : 0;
}

static int sched_item_cmp(const void *a, const void *b)
{
	const struct sched_item *x = a, *y = b;

	if (x->at_ns != y->at_ns)
		return x->at_ns < y->at_ns ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void sched_free(struct schedule *sc)
{
	u32 i;

	if (!sc)
		return;
	for (i = 0; i < sc->n; i++)
		free(sc->items[i].mask);
	free(sc->items);
	free(sc->text);
	free(sc);
}

struct schedule *sched_parse(const char *text, char *err, size_t cap)
{
	struct schedule *sc = calloc(1, sizeof(*sc));
	const char *p = text;
	u32 n = 1, i;

	if (!sc) {
		sched_err(err, cap, "out of memory");
		return NULL;
	}
	for (i = 0; text[i]; i++)
		n += text[i] == ';';
	sc->items = calloc(n, sizeof(*sc->items));
	if (!sc->items)
		goto nomem;
	while (*p) {
		const char *end = strchr(p, ';'), *at, *colon;
		struct sched_item *it = &sc->items[sc->n];
		size_t len, nl;
		char num[32], *e;
		unsigned long long v;
		int op;

		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		if (!len) {
			/* a trailing ';' is fine, an empty item is not */
			if (!*end || !end[1]) {
				p = *end ? end + 1 : end;
				continue;
			}
			sched_err(err, cap, "an empty item in '%s'", text);
			goto fail;
		}
		at = memchr(p, '@', len);
		if (!at) {
			sched_err(err, cap, "'%.*s': no @TIME (microseconds after the trigger)",
				  (int)len, p);
			goto fail;
		}
		colon = memchr(p, ':', (size_t)(at - p));
		nl = (size_t)((colon ? colon : at) - p);
		for (op = 0; op < SCHED_OP_COUNT; op++)
			if (strlen(sched_op_names[op]) == nl &&
			    !strncmp(p, sched_op_names[op], nl))
				break;
		if (op == SCHED_OP_COUNT) {
			sched_err(err, cap, "'%.*s': unknown fault (split:MASK, heal, crash:ID, recover:ID, standby:ID, active:ID)",
				  (int)len, p);
			goto fail;
		}
		it->op = (u8)op;
		it->order = sc->n;
		if ((op == SCHED_HEAL) != !colon) {
			sched_err(err, cap, op == SCHED_HEAL ?
				  "'%.*s': heal takes no argument" :
				  "'%.*s': needs an argument (split:MASK, crash:ID, recover:ID, standby:ID, active:ID)",
				  (int)len, p);
			goto fail;
		}
		if (op == SCHED_SPLIT) {
			if (sched_parse_mask(colon + 1, (size_t)(at - colon - 1),
					     &it->mask)) {
				sched_err(err, cap, "'%.*s': MASK is not a hexadecimal (0x...) or decimal number",
					  (int)len, p);
				goto fail;
			}
		} else if (colon) {
			size_t il = (size_t)(at - colon - 1);

			if (!il || il >= sizeof(num) || colon[1] < '0' ||
			    colon[1] > '9')
				goto bad_id;
			memcpy(num, colon + 1, il);
			num[il] = 0;
			errno = 0;
			v = strtoull(num, &e, 10);
			if (errno || *e || !v || v > U32_MAX)
				goto bad_id;
			it->id = (u32)v;
		}
		nl = (size_t)(end - at - 1);
		if (!nl || nl >= sizeof(num) || at[1] < '0' || at[1] > '9')
			goto bad_time;
		memcpy(num, at + 1, nl);
		num[nl] = 0;
		errno = 0;
		v = strtoull(num, &e, 10);
		if (errno || *e || v > ELECTION_DUR_MAX_NS / 1000 * 60)
			goto bad_time;
		it->at_ns = (u64)v * 1000;
		sc->n++;
		p = *end ? end + 1 : end;
		continue;
bad_id:
		sched_err(err, cap, "'%.*s': ID is not a node id (1..4294967295)",
			  (int)len, p);
		goto fail;
bad_time:
		sched_err(err, cap, "'%.*s': TIME is not a whole number of microseconds (at most 3600000000)",
			  (int)len, p);
		goto fail;
	}
	if (!sc->n) {
		sched_err(err, cap, "no fault in '%s'", text);
		goto fail;
	}
	qsort(sc->items, sc->n, sizeof(*sc->items), sched_item_cmp);
	sc->text = sched_format(sc);
	if (!sc->text)
		goto nomem;
	return sc;
nomem:
	sched_err(err, cap, "out of memory");
fail:
	sched_free(sc);
	return NULL;
}

char *sched_format(const struct schedule *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	u32 i;

	if (!f)
		return NULL;
	for (i = 0; i < sc->n; i++) {
		const struct sched_item *it = &sc->items[i];

		fprintf(f, "%s%s", i ? ";" : "", sched_op_names[it->op]);
		if (it->op == SCHED_SPLIT)
			fprintf(f, ":0x%s", it->mask);
		else if (it->op != SCHED_HEAL)
			fprintf(f, ":%u", it->id);
		fprintf(f, "@%llu", (unsigned long long)(it->at_ns / 1000));
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int sched_check(const struct schedule *sc, const u32 *ids, u32 n,
		char *err, size_t cap)
{
	u8 *down = calloc(n ? n : 1, 1);
	u32 i, k, live = n;
	int split = 0, rc = -1;

	if (!down)
		return sched_err(err, cap, "out of memory");
	for (i = 0; i < sc->n; i++) {
		const struct sched_item *it = &sc->items[i];
		u64 us = it->at_ns / 1000;

		switch (it->op) {
		case SCHED_SPLIT:
			for (k = 0; k < sched_mask_bits(it->mask); k++)
				if (sched_mask_bit(it->mask, k) &&
				    !ids_has(ids, n, k + 1)) {
					sched_err(err, cap, "split:0x%s@%llu: bit %u names id %u, not a node id (%u nodes)",
						  it->mask, (unsigned long long)us,
						  k, k + 1, n);
					goto out;
				}
			split = 1;
			break;
		case SCHED_HEAL:
			if (!split) {
				sched_err(err, cap, "heal@%llu: no split to heal",
					  (unsigned long long)us);
				goto out;
			}
			split = 0;
			break;
		case SCHED_CRASH:
		case SCHED_RECOVER:
			for (k = 0; k < n && ids[k] != it->id; k++)
				;
			if (k == n) {
				sched_err(err, cap, "%s:%u@%llu: %u is not a node id",
					  sched_op_names[it->op], it->id,
					  (unsigned long long)us, it->id);
				goto out;
			}
			if ((it->op == SCHED_CRASH) == down[k]) {
				sched_err(err, cap, "%s:%u@%llu: %u is %s then",
					  sched_op_names[it->op], it->id,
					  (unsigned long long)us, it->id,
					  down[k] ? "down already" : "up");
				goto out;
			}
			down[k] = it->op == SCHED_CRASH;
			live += down[k] ? -1 : 1;
			if (!live) {
				sched_err(err, cap, "crash:%u@%llu: no node would be left up",
					  it->id, (unsigned long long)us);
				goto out;
			}
			break;
		case SCHED_STANDBY:
		case SCHED_ACTIVE:
			if (!ids_has(ids, n, it->id)) {
				sched_err(err, cap, "%s:%u@%llu: %u is not a node id",
					  sched_op_names[it->op], it->id,
					  (unsigned long long)us, it->id);
				goto out;
			}
			break;
		}
	}
	rc = 0;
out:
	free(down);
	return rc;
}

u32 sched_min_nodes(const struct schedule *sc)
{
	u32 i, need = 1;

	for (i = 0; i < sc->n; i++) {
		const struct sched_item *it = &sc->items[i];
		u32 b = it->op == SCHED_SPLIT ? sched_mask_bits(it->mask) :
			it->op == SCHED_HEAL ? 0 : it->id;

		if (b > need)
			need = b;
	}
	return need;
}

void sched_push(struct sim *s, const struct schedule *sc, u64 *last_fault)
{
	u32 i;

	for (i = 0; i < sc->n; i++) {
		const struct sched_item *it = &sc->items[i];
		u64 t = s->now + it->at_ns;
		struct node *nd;

		switch (it->op) {
		case SCHED_SPLIT:
			sim_push(s, t, EV_SPLIT, 0, 0, i + 1, 0);
			break;
		case SCHED_HEAL:
			sim_push(s, t, EV_HEAL, 0, 0, 0, 0);
			break;
		case SCHED_CRASH:
		case SCHED_RECOVER:
			nd = sim_node_by_id(s, it->id);
			sim_push(s, t, it->op == SCHED_CRASH ? EV_CRASH :
				 EV_RECOVER, 0, nd->idx, 0, 0);
			break;
		case SCHED_STANDBY:
		case SCHED_ACTIVE:
			nd = sim_node_by_id(s, it->id);
			sim_push(s, t, EV_STANDBY, it->op == SCHED_STANDBY,
				 nd->idx, 0, 0);
			break;
		}
		if (t > *last_fault)
			*last_fault = t;
	}
}

int sched_fast_return(const struct schedule *sc, u64 gap_ns, u32 *id,
		      u64 *after_ns)
{
	u32 i, j;

	for (i = 0; i < sc->n; i++) {
		const struct sched_item *it = &sc->items[i];

		if (it->op != SCHED_RECOVER)
			continue;
		for (j = i; j-- > 0;) {
			const struct sched_item *c = &sc->items[j];

			if (c->op != SCHED_CRASH || c->id != it->id)
				continue;
			if (it->at_ns - c->at_ns < gap_ns) {
				*id = it->id;
				*after_ns = it->at_ns - c->at_ns;
				return 1;
			}
			break;
		}
	}
	return 0;
}

int sched_splits(const struct schedule *sc)
{
	u32 i;

	for (i = 0; i < sc->n; i++)
		if (sc->items[i].op == SCHED_SPLIT)
			return 1;
	return 0;
}
