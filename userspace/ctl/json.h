/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small streaming JSON writer for electionctl.
 *
 * Output uses the separators ", " and ": " (the shape Python's json.dumps
 * produces), one document per line; the caller writes the newline. With
 * elec_json_pretty set (electionctl -p), members go one per line, indented
 * by four spaces per level (json.dumps(indent=4)), and a document spans
 * several lines.
 */
#ifndef ELECTIONCTL_JSON_H
#define ELECTIONCTL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ELEC_JSON_MAX_DEPTH	16

/**
 * struct elec_json - writer state.
 * @f: output stream
 * @depth: number of open objects and arrays
 * @count: per level, how many members were written (for the separators)
 * @pretty: indent (elec_json_pretty when elec_json_init() ran)
 */
struct elec_json {
	FILE *f;
	int depth;
	bool pretty;
	unsigned int count[ELEC_JSON_MAX_DEPTH + 1];
};

/* -p: indent the output (set before the first elec_json_init()). */
extern bool elec_json_pretty;

void elec_json_init(struct elec_json *j, FILE *f);
/* Every value writer takes @key: a member name inside an object, or NULL
 * for an array element or the top-level value.
 */
void elec_json_obj_begin(struct elec_json *j, const char *key);
void elec_json_obj_end(struct elec_json *j);
void elec_json_arr_begin(struct elec_json *j, const char *key);
void elec_json_arr_end(struct elec_json *j);
void elec_json_str(struct elec_json *j, const char *key, const char *val);
void elec_json_u64(struct elec_json *j, const char *key, uint64_t val);
void elec_json_i64(struct elec_json *j, const char *key, int64_t val);
void elec_json_bool(struct elec_json *j, const char *key, bool val);
void elec_json_null(struct elec_json *j, const char *key);

/* Write @s (@len bytes) as a quoted, escaped JSON string. */
void elec_json_write_string(FILE *f, const char *s, size_t len);

#endif /* ELECTIONCTL_JSON_H */
