// SPDX-License-Identifier: GPL-2.0
/*
 * json-test.c - unit test of electionctl's JSON writer (ctl/json.c).
 * Prints "ok N - what" or "not ok N - what: got ... want ..." per case and
 * exits 1 when any case failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int n_ok, n_fail;

static void check(const char *what, const char *got, const char *want)
{
	int n = n_ok + n_fail + 1;

	if (!strcmp(got, want)) {
		n_ok++;
		printf("ok %d - %s\n", n, what);
	} else {
		n_fail++;
		printf("not ok %d - %s: got [%s] want [%s]\n", n, what, got,
		       want);
	}
}

/* Escape @len bytes of @in with elec_json_write_string, compare. */
static void esc(const char *what, const char *in, size_t len, const char *want)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	elec_json_write_string(f, in, len);
	fclose(f);
	check(what, buf, want);
	free(buf);
}

#define ESC(what, lit, want) esc(what, lit, sizeof(lit) - 1, want)

static void structure(void)
{
	struct elec_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	elec_json_init(&j, f);
	elec_json_arr_begin(&j, NULL);
	elec_json_obj_begin(&j, NULL);
	elec_json_str(&j, "ifname", "veth\"0");
	elec_json_u64(&j, "max", UINT64_MAX);
	elec_json_i64(&j, "min", INT64_MIN);
	elec_json_i64(&j, "lost", -1);
	elec_json_bool(&j, "t", true);
	elec_json_bool(&j, "f", false);
	elec_json_null(&j, "leader");
	elec_json_obj_begin(&j, "tx");
	elec_json_obj_end(&j);
	elec_json_arr_begin(&j, "peers");
	elec_json_obj_begin(&j, NULL);
	elec_json_u64(&j, "id", 1);
	elec_json_obj_end(&j);
	elec_json_obj_begin(&j, NULL);
	elec_json_u64(&j, "id", 2);
	elec_json_obj_end(&j);
	elec_json_arr_end(&j);
	elec_json_obj_end(&j);
	elec_json_obj_begin(&j, NULL);
	elec_json_obj_end(&j);
	elec_json_arr_end(&j);
	fclose(f);
	check("nested structure and separators", buf,
	      "[{\"ifname\": \"veth\\\"0\", \"max\": 18446744073709551615, "
	      "\"min\": -9223372036854775808, \"lost\": -1, \"t\": true, "
	      "\"f\": false, \"leader\": null, \"tx\": {}, "
	      "\"peers\": [{\"id\": 1}, {\"id\": 2}]}, {}]");
	check("depth back to zero", j.depth ? "open" : "closed", "closed");
	free(buf);
}

int main(void)
{
	ESC("plain", "abc", "\"abc\"");
	ESC("empty", "", "\"\"");
	ESC("quote", "a\"b", "\"a\\\"b\"");
	ESC("backslash", "a\\b", "\"a\\\\b\"");
	ESC("slash is not escaped", "a/b", "\"a/b\"");
	ESC("short escapes", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	ESC("control 0x01", "\x01", "\"\\u0001\"");
	ESC("control 0x1f", "\x1f", "\"\\u001f\"");
	ESC("DEL", "\x7f", "\"\\u007f\"");
	ESC("embedded NUL", "a\0b", "\"a\\u0000b\"");
	ESC("UTF-8 2 bytes passes", "\xc3\xa9", "\"\xc3\xa9\"");
	ESC("UTF-8 3 bytes passes", "\xe2\x82\xac", "\"\xe2\x82\xac\"");
	ESC("UTF-8 4 bytes passes", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	ESC("invalid byte 0xff", "a\xff" "b", "\"a\\ufffdb\"");
	ESC("truncated sequence at end", "a\xc3", "\"a\\ufffd\"");
	ESC("truncated sequence mid", "\xe2\x82" "a", "\"\\ufffd\\ufffda\"");
	ESC("overlong 2-byte", "\xc0\xaf", "\"\\ufffd\\ufffd\"");
	ESC("overlong 3-byte", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
	ESC("surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	ESC("beyond U+10FFFF", "\xf4\x90\x80\x80",
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	ESC("lone continuation", "\x80", "\"\\ufffd\"");
	ESC("mixed", "x\ty\"\xc3\xa9\\", "\"x\\ty\\\"\xc3\xa9\\\\\"");
	structure();
	printf("%d passed, %d failed\n", n_ok, n_fail);
	return n_fail ? 1 : 0;
}
