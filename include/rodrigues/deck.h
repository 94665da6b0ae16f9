// SPDX-License-Identifier: MIT
// The YAML input deck: reads a deck file into a spec (see docs/deck.md for every key).
#ifndef RODRIGUES_DECK_H
#define RODRIGUES_DECK_H

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
RD_API int rd_readDeck(rdContext* ctx, const char* path, const char* const* overrides,
                       int noverride, rdSpec** spec);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_DECK_H
