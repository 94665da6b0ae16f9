// SPDX-License-Identifier: MIT
// Input files read whole into memory, with a size limit, and the encoding check that runs before
// any parser sees the text: every reader of the library (decks, --set values, BeamDyn files,
// checkpoints) goes through here, so no parser reads from a stream.
#ifndef RD_INPUT_H
#define RD_INPUT_H

#include <stddef.h>

#include "rodrigues/context.h"

// Read the file `path` (a regular file, a pipe, /dev/stdin) into a new buffer *text (free with
// rd_free) of *len bytes plus a terminating 0. More than `limit` bytes: *too_large = 1 and
// *text NULL, with at most limit + 1 bytes read (an endless stream ends there). `is_text`: stop
// reading after a NUL byte (which text readers refuse; /dev/zero ends at once). Returns RD_OK,
// RD_ERR_NOMEM, or RD_ERR_IO raised as "PATH: cannot open|read: reason" (also for a directory).
int rd_readInput(rdContext* ctx, const char* path, size_t limit, int is_text, char** text,
                 size_t* len, int* too_large);

// Length of the valid UTF-8 sequence of two to four bytes at s (its first byte >= 0x80), or 0
// if it is not valid (overlong, a surrogate, beyond U+10FFFF, truncated by a 0 byte).
int rd_utf8Length(const unsigned char* s);

// The first byte of text[0..len) that is not YAML 1.2 printable UTF-8 text (a NUL byte, a
// control character other than tab, line feed and carriage return, invalid UTF-8, U+FFFE/FFFF),
// as its offset, or len if there is none. *line and *col (1-based, columns in characters; may
// be NULL) give its place; *what (may be NULL) says what is wrong.
size_t rd_textCheck(const char* text, size_t len, int* line, int* col, const char** what);

#endif  // RD_INPUT_H
