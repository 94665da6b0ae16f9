// SPDX-License-Identifier: MIT
// Private interface of the deck reader: the reading state and the typed value getters.
#ifndef RD_DECK_IMPL_H
#define RD_DECK_IMPL_H

#include <libfyaml.h>
#include <stddef.h>

#include "rodrigues/spec.h"
#include "src/io/beamdyn.h"

// names read so far (nodes, time functions), for references and did-you-mean hints; entry i
// is object i of the spec
typedef struct rdDeckNames_ {
  const char** name;  // points into the document
  double* pos;        // nodes: reference position (3 per entry)
  int count;
  int capacity;
} rdDeckNames;

// reading state of one deck
typedef struct rdDeck_ {
  rdContext* ctx;
  rdSpec* spec;
  const char* path;
  const char* text;  // the deck's bytes (the document's scalars point into them)
  size_t len;
  char* owned;  // the file's bytes when rd_deckLoad read them (freed by rd_deckUnload)
  struct fy_document* fyd;
  int resolved;  // 1 if libfyaml resolved aliases or merge keys in the document
  // nodes the --set overrides put into the document, with the override's text
  struct fy_node** set_node;
  const char** set_text;
  int nset;
  rdDeckNames nodes;
  rdDeckNames timefns;
} rdDeck;

// ---------------------------------------------------------------------------------------------
// loading (deck.c)

// parse dk->text (dk->len bytes), or if it is NULL the file dk->path read whole (at most
// RD_DECK_MAX_BYTES), into dk->fyd: the text checked first (printable UTF-8), anchors and aliases
// expanded within limits, tags refused; *diag gets the diagnostic object the document reports to.
// `kind` names the file in messages ("deck"), `not_mapping` is the message when the document is
// not a mapping. Call rd_deckUnload afterwards in any case.
int rd_deckLoad(rdDeck* dk, struct fy_diag** diag, const char* kind, const char* not_mapping);

// destroy dk->fyd and diag (may be NULL) and free the text rd_deckLoad read
void rd_deckUnload(rdDeck* dk, struct fy_diag* diag);

// ---------------------------------------------------------------------------------------------
// locations and errors (deck_where.c)

// write where `at` is: "FILE:LINE:COL", "--set KEY=VALUE" or "FILE" if it has no position
void rd_deckWhere(const rdDeck* dk, struct fy_node* at, char* buf, size_t size);
// forget the nodes earlier overrides put inside `old`, which a later one replaces (frees)
void rd_deckForget(rdDeck* dk, struct fy_node* old);

// raise RD_ERR_DECK with "WHERE: message"; returns RD_ERR_DECK
int rd_deckError(rdDeck* dk, struct fy_node* at, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// after a failed rds_* call: re-raise the context's last error prefixed with WHERE (status
// RD_ERR_DECK), or pass RD_ERR_NOMEM through
int rd_deckRelay(rdDeck* dk, struct fy_node* at, int status);

// record the origin "FILE:LINE:COL" of object `index` (its mapping `at`) in the spec
int rd_deckOrigin(rdDeck* dk, struct fy_node* at, rdObjKind kind, int index);

// ---------------------------------------------------------------------------------------------
// structure (deck_value.c)

// the mapping `map` must be a mapping whose keys are all in the NULL-terminated `keys`;
// `what` names it in messages
int rd_deckCheckMap(rdDeck* dk, struct fy_node* map, const char* what, const char* const* keys);

// like rd_deckCheckMap, also accepting the NULL-terminated `old` keys (renamed options, may be
// NULL), which are never suggested nor listed
int rd_deckCheckMapRenamed(rdDeck* dk, struct fy_node* map, const char* what,
                           const char* const* keys, const char* const* old);

// like rd_deckCheckMap for an object whose valid keys depend on its type: keys in `all` but
// not in `used` are reported as not applying to `what` (e.g. "a spherical joint")
int rd_deckCheckTyped(rdDeck* dk, struct fy_node* map, const char* what, const char* const* all,
                      const char* const* used);

// value of `key` in `map` (NULL if absent); *keyp gets the key node if not NULL
struct fy_node* rd_deckLookup(struct fy_node* map, const char* key, struct fy_node** keyp);

// 1 if the node is a null value (empty, "~" or "null")
int rd_deckIsNull(struct fy_node* v);

// the item list `key` of `map` as a sequence (NULL if absent or null); <0 on error
int rd_deckList(rdDeck* dk, struct fy_node* map, const char* key, struct fy_node** seq);

// call fn(dk, item) for each item of the list `key` of `map` (absent or null: none); items
// must not be null
int rd_deckEach(rdDeck* dk, struct fy_node* map, const char* key,
                int (*fn)(rdDeck* dk, struct fy_node* item));

// ---------------------------------------------------------------------------------------------
// values: each getter looks `key` up in `map`; returns 1 if set, 0 if absent (then `out` is
// untouched, an error if `required`), or a negative status

int rd_deckGetReal(rdDeck* dk, struct fy_node* map, const char* key, int required, double* out);

// exactly n numbers
int rd_deckGetVec(rdDeck* dk, struct fy_node* map, const char* key, int n, int required,
                  double* out);

// n x n row-major matrix from n lists of n numbers, or its diagonal from a list of n numbers
int rd_deckGetMatrix(rdDeck* dk, struct fy_node* map, const char* key, int n, int required,
                     double* out);

// any scalar, as text (points into the document)
int rd_deckGetString(rdDeck* dk, struct fy_node* map, const char* key, int required,
                     const char** out);

// one of the NULL-terminated `names`; *out gets its index
int rd_deckGetEnum(rdDeck* dk, struct fy_node* map, const char* key, const char* const* names,
                   int required, int* out);

// a node name; "ground" gives RD_GROUND if allow_ground
int rd_deckGetNode(rdDeck* dk, struct fy_node* map, const char* key, int allow_ground, int required,
                   int* out);

// the two nodes of a connection: `nodes: [a, b]` (b may be "ground") or `node: a` (to the
// ground); node[1] is RD_GROUND for the latter
int rd_deckGetNodePair(rdDeck* dk, struct fy_node* map, int node[2]);

// a time function name; absent leaves *out (RD_NO_TIMEFN)
int rd_deckGetTimeFn(rdDeck* dk, struct fy_node* map, const char* key, int* out);

// `orientation`: {rotation_vector: [..]} | {quaternion: [w,x,y,z]} | {matrix: [[..],[..],[..]]};
// absent leaves q; RD_OK or a negative status
int rd_deckGetOrientation(rdDeck* dk, struct fy_node* map, double q[4]);

// the object's `name`: required, a non-empty scalar not yet used by an object of `kind`
int rd_deckGetName(rdDeck* dk, struct fy_node* map, rdObjKind kind, const char* what,
                   const char** out);

// value-level versions, for list items and already looked-up values (`what` names the value)
int rd_deckReal(rdDeck* dk, struct fy_node* v, const char* what, double* out);
int rd_deckVec(rdDeck* dk, struct fy_node* v, const char* what, int n, double* out);
int rd_deckNodeRef(rdDeck* dk, struct fy_node* v, const char* what, int allow_ground, int* out);

// add a name (and a position, may be NULL) to a list; RD_OK or RD_ERR_NOMEM
int rd_deckAddName(rdDeck* dk, rdDeckNames* names, const char* name, const double pos[3]);

// release a list
void rd_deckFreeNames(rdDeck* dk, rdDeckNames* names);

// ---------------------------------------------------------------------------------------------
// sections

// apply the --set overrides to the document (deck_set.c)
int rd_deckApplyOverrides(rdDeck* dk, const char* const* overrides, int noverride);

// nodes and time functions (deck_nodes.c)
int rd_deckReadNodes(rdDeck* dk, struct fy_node* root);
int rd_deckReadTimeFns(rdDeck* dk, struct fy_node* root);

// elements (deck_elements.c)
int rd_deckReadElements(rdDeck* dk, struct fy_node* root);

// a generated rigid node NAME_k of a beam at x with orientation q (origin: `at`), at rest or,
// with w (global, rad/s; NULL: at rest), in rigid rotation about the global origin: velocity
// w x x, angular velocity w; *idx its index
int rd_deckAddBeamNode(rdDeck* dk, struct fy_node* at, const char* name, int k, const double x[3],
                       const double q[4], const double w[3], int* idx);

// beams from BeamDyn files (deck_beamdyn.c; the blade in rodrigues' section frame, beamdyn.h):
// `sections: {beamdyn_blade: FILE}`, the mapping `sec`, into *b
int rd_deckBeamDynSections(rdDeck* dk, struct fy_node* sec, rdBdBlade* b);
// `beamdyn: {primary: FILE, position, orientation}`, the mapping `v`, of the beam `name`: its
// generated nodes NAME_0 .. (into nodes, *n), the blade into *b, RD_BEAM_QUADRATURE_* into *quad
int rd_deckBeamDynBeam(rdDeck* dk, struct fy_node* v, const char* name, int* nodes, int* n,
                       rdBdBlade* b, int* quad);

// joints, loads and torque laws (deck_joints.c)
int rd_deckReadJoints(rdDeck* dk, struct fy_node* root);
int rd_deckReadLoads(rdDeck* dk, struct fy_node* root);
int rd_deckReadTorqueLaws(rdDeck* dk, struct fy_node* root);

// rigid subsystems of mixed stepping (deck_subsystems.c)
int rd_deckReadSubsystems(rdDeck* dk, struct fy_node* root);

// ---------------------------------------------------------------------------------------------
// small math (deck_elements.c, deck_nodes.c)

// inertia about the centre of mass from the inertia about the node (parallel-axis theorem):
// J_com = J_node - m (|c|^2 I - c c^T)
void rd_deckInertiaToCom(double jcom[9], const double jnode[9], double mass, const double c[3]);

// quaternion of a rotation matrix; 0, or -1 if R is not orthonormal with det +1 (to 1e-6),
// with *defect the largest |R R^T - I| entry or |det - 1|
int rd_deckMatrixToQuat(double q[4], const double R[9], double* defect);

#endif  // RD_DECK_IMPL_H
