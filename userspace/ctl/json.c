// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - a small streaming JSON writer.
 *
 * Strings are escaped as RFC 8259 requires: '"' and '\\' get a backslash,
 * control characters (U+0000..U+001F) and DEL become \b \f \n \r \t or
 * \u00XX. Valid UTF-8 passes through unchanged; a byte that does not start a
 * valid, shortest-form UTF-8 sequence (interface names may hold any byte) is
 * written as \ufffd, so the output is always valid UTF-8 JSON.
 */
#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "json.h"

bool elec_json_pretty;

void elec_json_init(struct elec_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
	j->pretty = elec_json_pretty;
}

/* Pretty mode: a new line indented to @depth levels. */
static void json_newline(struct elec_json *j, int depth)
{
	fputc('\n', j->f);
	fprintf(j->f, "%*s", 4 * depth, "");
}

/* Length of the valid UTF-8 sequence at @s (at most @len bytes), 0 if none. */
static size_t utf8_seq_len(const unsigned char *s, size_t len)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void elec_json_write_string(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, n;

	fputc('"', f);
	while (i < len) {
		unsigned char c = s[i];

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
				break;
			}
			n = utf8_seq_len(s + i, len - i);
			if (!n) {
				fputs("\\ufffd", f);
				break;
			}
			fwrite(s + i, 1, n, f);
			i += n;
			continue;
		}
		i++;
	}
	fputc('"', f);
}

/* Separator and member name before a value at the current level. */
static void json_member(struct elec_json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputs(j->pretty ? "," : ", ", j->f);
	if (j->pretty && j->depth)
		json_newline(j, j->depth);
	if (key) {
		elec_json_write_string(j->f, key, strlen(key));
		fputs(": ", j->f);
	}
}

static void json_open(struct elec_json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	assert(j->depth < ELEC_JSON_MAX_DEPTH);
	j->count[++j->depth] = 0;
}

static void json_close(struct elec_json *j, char c)
{
	assert(j->depth > 0);
	j->depth--;
	if (j->pretty && j->count[j->depth + 1])
		json_newline(j, j->depth);
	fputc(c, j->f);
}

void elec_json_obj_begin(struct elec_json *j, const char *key)
{
	json_open(j, key, '{');
}

void elec_json_obj_end(struct elec_json *j)
{
	json_close(j, '}');
}

void elec_json_arr_begin(struct elec_json *j, const char *key)
{
	json_open(j, key, '[');
}

void elec_json_arr_end(struct elec_json *j)
{
	json_close(j, ']');
}

void elec_json_str(struct elec_json *j, const char *key, const char *val)
{
	json_member(j, key);
	elec_json_write_string(j->f, val, strlen(val));
}

void elec_json_u64(struct elec_json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void elec_json_i64(struct elec_json *j, const char *key, int64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRId64, val);
}

void elec_json_bool(struct elec_json *j, const char *key, bool val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void elec_json_null(struct elec_json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}
