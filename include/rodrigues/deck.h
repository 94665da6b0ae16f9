// SPDX-License-Identifier: MIT
// The YAML input deck: reads a deck file into a spec (see docs/deck.md for every key).
#ifndef RODRIGUES_DECK_H
#define RODRIGUES_DECK_H

#include <stddef.h>

#include "rodrigues/export.h"
#include "rodrigues/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

// Read the deck `path` into a new spec. `overrides` is an array of `noverride` strings
// "KEY=VALUE" (as given to the CLI's --set): KEY is a dotted path into the deck, e.g.
// "solver.time_step" or "nodes.top.position" (mapping keys and, for lists of named objects,
// their names), and VALUE a YAML scalar or flow sequence; overrides are applied to the document
// before it is read, so they take the same checks as the deck itself.
// On error returns RD_ERR_DECK (or RD_ERR_IO / RD_ERR_NOMEM) and the context's last error is
// "FILE:LINE:COLUMN: message" (for overrides: "--set KEY=VALUE: message"); *spec is NULL.
// Errors found later by rd_compile carry the same FILE:LINE:COLUMN prefix.
// The deck is read whole into memory first (a file, a pipe or /dev/stdin alike), at most
// RD_DECK_MAX_BYTES, and must be UTF-8 text without NUL bytes or control characters (YAML 1.2's
// printable set); anything else is refused with its FILE:LINE:COLUMN before parsing.
RD_API int rd_readDeck(rdContext* ctx, const char* path, const char* const* overrides,
                       int noverride, rdSpec** spec);

// The largest deck rd_readDeck reads, in bytes (64 MiB), and the largest --set override text.
#define RD_DECK_MAX_BYTES (64u << 20)
#define RD_DECK_MAX_OVERRIDE 65536

// rd_readDeck of a deck held in memory: `len` bytes at `text` (need not end in 0), `name`
// standing for the file in messages and for the directory that relative file names in the deck
// (BeamDyn files) are resolved against. The same limits and checks as rd_readDeck.
RD_API int rd_readDeckText(rdContext* ctx, const char* name, const char* text, size_t len,
                           const char* const* overrides, int noverride, rdSpec** spec);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_DECK_H
