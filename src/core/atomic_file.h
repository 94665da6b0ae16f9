// SPDX-License-Identifier: MIT
// Files that appear complete or not at all: write ".NAME.XXXXXX" (a unique name, mkstemp)
// beside NAME, then flush, fsync, rename into place and sync the directory.
#ifndef RD_ATOMIC_FILE_H
#define RD_ATOMIC_FILE_H

#include <stdio.h>

#include "rodrigues/context.h"

// open the temporary file for `path`; *tmp receives its name (caller frees with rd_free).
// Returns NULL with RD_ERR_IO / RD_ERR_NOMEM raised (and *tmp NULL) on failure.
FILE* rd_atomicOpen(rdContext* ctx, const char* path, char** tmp);

// flush, sync and close f, then rename tmp to path; on any failure tmp is removed and
// RD_ERR_IO raised. `failed` != 0 means an earlier write already failed.
int rd_atomicCommit(rdContext* ctx, FILE* f, const char* tmp, const char* path, int failed);

// close f and remove tmp (nothing is left behind); RD_OK or RD_ERR_IO
int rd_atomicAbort(rdContext* ctx, FILE* f, const char* tmp);

#endif  // RD_ATOMIC_FILE_H
