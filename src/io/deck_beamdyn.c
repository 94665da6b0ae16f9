// SPDX-License-Identifier: MIT
// Deck reader: beams from OpenFAST BeamDyn files, read by the importer's readers (beamdyn.h):
// `sections: {beamdyn_blade: FILE}` and `beamdyn: {primary: FILE, position, orientation,
// angular_velocity}`
// (docs/deck.md). File names are relative to the deck's directory.
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/core/strutil.h"
#include "src/io/deck_impl.h"

static const char* const sections_keys[] = {"beamdyn_blade", NULL};
static const char* const beamdyn_keys[] = {"primary", "position", "orientation", "angular_velocity",
                                           NULL};


// the file named by `key` of `map` (required), resolved against the deck's directory; `where`
// gets the position of the name
static int deck_file(rdDeck* dk, struct fy_node* map, const char* key, char* path, char* where,
                     int size) {
  const char* name = NULL;
  int st = rd_deckGetString(dk, map, key, 1, &name);
  if (st < 0) {
    return st;
  }
  struct fy_node* v = rd_deckLookup(map, key, NULL);
  if (!*name) {
    return rd_deckError(dk, v, "'%s' must name a file", key);
  }
  if (rd_pathBeside(path, size, dk->path, name)) {
    return rd_deckError(dk, v, "path too long");
  }
  rd_deckWhere(dk, v, where, (size_t)size);
  return RD_OK;
}


int rd_deckBeamDynSections(rdDeck* dk, struct fy_node* sec, rdBdBlade* b) {
  char path[RD_BD_MAXPATH], where[1024];
  int st = rd_deckCheckMap(dk, sec, "sections", sections_keys);
  if (st >= 0) {
    st = deck_file(dk, sec, "beamdyn_blade", path, where, sizeof(where));
  }
  return st < 0 ? st : rd_bdReadBlade(dk->ctx, path, where, b);
}


int rd_deckBeamDynBeam(rdDeck* dk, struct fy_node* v, const char* name, int* nodes, int* n,
                       rdBdBlade* b, int* quad) {
  char path[RD_BD_MAXPATH], where[1024];
  double pos[3], q[4] = {1, 0, 0, 0}, Rb[9], w[3] = {0, 0, 0};
  rdBdPrimary p;
  memset(&p, 0, sizeof(p));
  int st = rd_deckCheckMap(dk, v, "beamdyn", beamdyn_keys);
  if (st >= 0) {
    st = deck_file(dk, v, "primary", path, where, sizeof(where));
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "position", 3, 1, pos);
  }
  if (st >= 0) {
    st = rd_deckGetOrientation(dk, v, q);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "angular_velocity", 3, 0, w);  // the driver's RootVel(4:6)
  }
  if (st >= 0) {
    st = rd_bdReadPrimary(dk->ctx, path, where, &p);
  }
  if (st >= 0) {
    st = rd_bdReadBlade(dk->ctx, p.blade, where, b);
  }
  rdBdNodes nd;
  if (st >= 0) {
    rdu_quatToMat(Rb, q);  // the blade frame's axes, global: GlbDCM^T in a driver file
    st = rd_bdNodes(dk->ctx, &p, pos, Rb, &nd);
    st = st < 0 ? rd_deckRelay(dk, rd_deckLookup(v, "primary", NULL), st) : st;
  }
  const double* spin = w[0] != 0 || w[1] != 0 || w[2] != 0 ? w : NULL;
  for (int k = 0; st >= 0 && k < nd.n; k++) {
    st = rd_deckAddBeamNode(dk, v, name, k, nd.x[k], nd.q[k], spin, &nodes[k]);
  }
  *n = st >= 0 ? nd.n : 0;
  *quad = p.quadrature == 2 ? RD_BEAM_QUADRATURE_STATIONS : RD_BEAM_QUADRATURE_FULL;
  rd_bdFreePrimary(dk->ctx, &p);
  return st < 0 ? st : RD_OK;
}
