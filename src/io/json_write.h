// SPDX-License-Identifier: MIT
// JSON values written with stdio (summary.json, the sweep's case results).
#ifndef RD_JSON_WRITE_H
#define RD_JSON_WRITE_H

#include <stdio.h>

// a number with 17 significant digits, or null when it is not finite (JSON has no NaN)
void rd_jsonNumber(FILE* f, double x);

// a string in quotes: quotes, backslashes and control characters escaped; bytes that are not
// valid UTF-8 become U+FFFD so that the file always parses
void rd_jsonString(FILE* f, const char* s);

// `indent` spaces, the key as a string, then ": "
void rd_jsonKey(FILE* f, int indent, const char* key);

#endif  // RD_JSON_WRITE_H
