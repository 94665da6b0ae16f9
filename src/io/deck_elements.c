// SPDX-License-Identifier: MIT
// Deck reader: the `elements` section (rigid bodies, point masses, springs, bushings, beams).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"
#include "src/io/deck_impl.h"
#include "src/math/vec3.h"
#include "src/model/geometry.h"
#include "src/model/spec_impl.h"

static const char* const elem_types[] = {"rigid_body", "point_mass", "spring",
                                         "bushing",    "beam",       NULL};
enum { ELEM_RIGID_BODY, ELEM_POINT_MASS, ELEM_SPRING, ELEM_BUSHING, ELEM_BEAM };

static const char* const elem_keys[] = {"name",
                                        "type",
                                        "node",
                                        "nodes",
                                        "mass",
                                        "inertia",
                                        "com",
                                        "inertia_about",
                                        "anchor",
                                        "stiffness",
                                        "damping",
                                        "rest_length",
                                        "from",
                                        "to",
                                        "sections",
                                        "quadrature",
                                        "span",
                                        "load",
                                        "arc",
                                        "key_points",
                                        "twist",
                                        "rotation_field",
                                        "virtual_rotation",
                                        "extension_twist",
                                        "beamdyn",
                                        NULL};
static const char* const body_keys[] = {"name",    "type", "node",          "mass",
                                        "inertia", "com",  "inertia_about", NULL};
static const char* const mass_keys[] = {"name", "type", "node", "mass", NULL};
static const char* const spring_keys[] = {"name",      "type",    "node",        "nodes", "anchor",
                                          "stiffness", "damping", "rest_length", NULL};
static const char* const bushing_keys[] = {"name",      "type",    "node", "nodes",
                                           "stiffness", "damping", NULL};
static const char* const beam_keys[] = {"name",
                                        "type",
                                        "nodes",
                                        "from",
                                        "to",
                                        "arc",
                                        "key_points",
                                        "twist",
                                        "sections",
                                        "quadrature",
                                        "span",
                                        "damping",
                                        "load",
                                        "rotation_field",
                                        "virtual_rotation",
                                        "extension_twist",
                                        "beamdyn",
                                        NULL};
// a beam from a BeamDyn primary file: the files give the rest (its physics may be switched)
static const char* const beamdyn_beam_keys[] = {"name", "type", "beamdyn", "extension_twist",
                                                "load", NULL};
static const char* const* const type_keys[] = {body_keys, mass_keys, spring_keys, bushing_keys,
                                               beam_keys};

static const char* const inertia_refs[] = {"com", "node", NULL};


void rd_deckInertiaToCom(double jcom[9], const double jnode[9], double mass, const double c[3]) {
  double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      jcom[3 * i + j] = jnode[3 * i + j] - mass * ((i == j) * cc - c[i] * c[j]);
    }
  }
}


int rd_deckGetNodePair(rdDeck* dk, struct fy_node* map, int node[2]) {
  struct fy_node *k1, *k2;
  (void)rd_deckLookup(map, "node", &k1);
  struct fy_node* two = rd_deckLookup(map, "nodes", &k2);
  if (k1 && k2) {
    return rd_deckError(dk, k2, "give either 'node' or 'nodes', not both");
  }
  if (!k1 && !k2) {
    return rd_deckError(dk, map,
                        "missing required key 'nodes' (or 'node' to connect a node to "
                        "the ground)");
  }
  node[1] = RD_GROUND;
  if (k1) {
    int st = rd_deckGetNode(dk, map, "node", 0, 1, &node[0]);
    return st < 0 ? st : RD_OK;
  }
  if (!fy_node_is_sequence(two) || fy_node_sequence_item_count(two) != 2) {
    return rd_deckError(dk, rd_deckIsNull(two) ? k2 : two,
                        "'nodes' must be a list of 2 node names");
  }
  int st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(two, 0), "nodes[0]", 0, &node[0]);
  if (st == RD_OK) {
    st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(two, 1), "nodes[1]", 1, &node[1]);
  }
  if (st == RD_OK && node[0] == node[1]) {
    return rd_deckError(dk, two, "'nodes' must name two different nodes");
  }
  return st;
}


// the element's relayed error or its origin
static int added(rdDeck* dk, struct fy_node* map, int idx) {
  return idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_ELEMENT, idx);
}


// a 3x3 inertia must be symmetric (positive definiteness is checked by rd_compile)
static int check_symmetric(rdDeck* dk, struct fy_node* map, const double J[9]) {
  double scale = 0;
  for (int k = 0; k < 9; k++) {
    scale = fmax(scale, fabs(J[k]));
  }
  for (int i = 0; i < 3; i++) {
    for (int j = i + 1; j < 3; j++) {
      if (fabs(J[3 * i + j] - J[3 * j + i]) > 1e-9 * scale) {
        return rd_deckError(dk, rd_deckLookup(map, "inertia", NULL),
                            "inertia must be symmetric: inertia[%d][%d] = %g but "
                            "inertia[%d][%d] = %g",
                            i, j, J[3 * i + j], j, i, J[3 * j + i]);
      }
    }
  }
  return RD_OK;
}


static int read_rigid_body(rdDeck* dk, struct fy_node* map, const char* name) {
  rdRigidBodyDef def = rd_defaultRigidBodyDef();
  def.name = name;
  double J[9];
  int about = 0;
  int st = rd_deckGetNode(dk, map, "node", 0, 1, &def.node);
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "mass", 1, &def.mass);
  }
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "inertia", 3, 1, J);
  }
  if (st >= 0) {
    st = check_symmetric(dk, map, J);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "com", 3, 0, def.com);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "inertia_about", inertia_refs, 0, &about);
  }
  if (st < 0) {
    return st;
  }
  if (about == 1) {
    rd_deckInertiaToCom(def.inertia, J, def.mass, def.com);
  } else {
    memcpy(def.inertia, J, sizeof(J));
  }
  return added(dk, map, rds_addRigidBody(dk->spec, &def));
}


static int read_point_mass(rdDeck* dk, struct fy_node* map, const char* name) {
  rdPointMassDef def = rd_defaultPointMassDef();
  def.name = name;
  int st = rd_deckGetNode(dk, map, "node", 0, 1, &def.node);
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "mass", 1, &def.mass);
  }
  return st < 0 ? st : added(dk, map, rds_addPointMass(dk->spec, &def));
}


// spring stiffness: k1, or [k1], [k1, k2] or [k1, k2, k3]
static int spring_stiffness(rdDeck* dk, struct fy_node* map, double k[3]) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "stiffness", &key);
  if (!key || !v || !fy_node_is_sequence(v)) {
    int st = rd_deckGetReal(dk, map, "stiffness", 1, &k[0]);
    return st < 0 ? st : RD_OK;
  }
  int n = fy_node_sequence_item_count(v);
  if (n < 1 || n > 3) {
    return rd_deckError(dk, v, "'stiffness' must be k1 or a list [k1, k2, k3] of 1 to 3 numbers");
  }
  return rd_deckVec(dk, v, "stiffness", n, k);
}


static int read_spring(rdDeck* dk, struct fy_node* map, const char* name) {
  rdSpringDef def = rd_defaultSpringDef();
  def.name = name;
  int st = rd_deckGetNodePair(dk, map, def.node);
  if (st >= 0) {
    struct fy_node* k;
    (void)rd_deckLookup(map, "anchor", &k);
    if (k && def.node[1] != RD_GROUND) {
      return rd_deckError(dk, k, "'anchor' is only used by a spring to the ground");
    }
    st = rd_deckGetVec(dk, map, "anchor", 3, def.node[1] == RD_GROUND, def.anchor);
  }
  if (st >= 0) {
    st = spring_stiffness(dk, map, def.stiffness);
  }
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "damping", 0, &def.damping);
  }
  if (st >= 0 && (st = rd_deckGetReal(dk, map, "rest_length", 0, &def.rest_length)) == 1 &&
      def.rest_length < 0) {
    return rd_deckError(dk, rd_deckLookup(map, "rest_length", NULL),
                        "'rest_length' must be >= 0 (leave it out to use the initial length)");
  }
  return st < 0 ? st : added(dk, map, rds_addSpring(dk->spec, &def));
}


static int read_bushing(rdDeck* dk, struct fy_node* map, const char* name) {
  rdBushingDef def = rd_defaultBushingDef();
  def.name = name;
  int st = rd_deckGetNodePair(dk, map, def.node);
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "stiffness", 6, 1, def.stiffness);
  }
  if (st >= 0) {
    st = rd_deckGetMatrix(dk, map, "damping", 6, 0, def.damping);
  }
  return st < 0 ? st : added(dk, map, rds_addBushing(dk->spec, &def));
}


// ---------------------------------------------------------------------------------------------
// beams

static const char* const quad_names[] = {"full", "reduced", "stations", NULL};
static const char* const field_names[] = {"total", "displacement", NULL};
static const char* const virtual_names[] = {"field", "interpolated", NULL};
static const char* const bool_names[] = {"false", "true", NULL};
static const char* const frame_names[] = {"global", "body", NULL};  // rdFrame order
static const char* const section_keys[] = {"s", "stiffness", "mass", NULL};
static const char* const load_keys[] = {"force", "moment", "frame", "function", NULL};


// ---------------------------------------------------------------------------------------------
// reference lines of generated nodes (rdu_beamLine*, src/model/geometry.c): straight (`from`,
// `to`), an exact circular arc (`arc`) or a natural cubic spline through key points
// (`key_points`); nodes at the GLL points of arc length

// in the order of rd_lineArc's arguments (rdLineFault.arg)
static const char* const arc_keys[] = {"center", "start", "angle", "normal", NULL};


// `arc: {center, start, angle, normal}`: start turned about normal (right hand) by angle degrees
static int read_arc(rdDeck* dk, struct fy_node* v, rdBeamLine* L) {
  double c[3], p[3], n[3], deg;
  int st = rd_deckCheckMap(dk, v, "arc", arc_keys);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "center", 3, 1, c);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "start", 3, 1, p);
  st = st < 0 ? st : rd_deckGetReal(dk, v, "angle", 1, &deg);
  st = st < 0 ? st : rd_deckGetVec(dk, v, "normal", 3, 1, n);
  if (st < 0) {
    return st;
  }
  rdLineFault f;
  if (rd_lineArc(L, c, p, deg, n, &f) != RD_OK) {
    return rd_deckError(dk, rd_deckLookup(v, arc_keys[f.arg], NULL), "%s", f.text);
  }
  return RD_OK;
}


// `key_points: [[x, y, z], ...]`: at least 3, consecutive ones distinct
static int read_key_points(rdDeck* dk, struct fy_node* v, rdBeamLine* L) {
  if (!fy_node_is_sequence(v) || fy_node_sequence_item_count(v) < 3 ||
      fy_node_sequence_item_count(v) > RD_BEAM_LINE_MAX_POINTS) {
    return rd_deckError(dk, v, "'key_points' must be a list of 3 to %d points [x, y, z]",
                        RD_BEAM_LINE_MAX_POINTS);
  }
  int n = fy_node_sequence_item_count(v);
  double p[RD_BEAM_LINE_MAX_POINTS][3];
  for (int i = 0; i < n; i++) {
    char what[32];
    snprintf(what, sizeof(what), "key_points[%d]", i);
    int st = rd_deckVec(dk, fy_node_sequence_get_by_index(v, i), what, 3, p[i]);
    if (st < 0) {
      return st;
    }
  }
  rdLineFault f;
  if (rd_lineSpline(L, n, &p[0][0], &f) != RD_OK) {
    return rd_deckError(dk, f.arg >= 0 ? fy_node_sequence_get_by_index(v, f.arg) : v, "%s", f.text);
  }
  return RD_OK;
}


// exactly one of `from`/`to`, `arc` and `key_points`
static int read_line(rdDeck* dk, struct fy_node* map, rdBeamLine* L) {
  struct fy_node *kf, *kt, *ka, *kk;
  (void)rd_deckLookup(map, "from", &kf);
  (void)rd_deckLookup(map, "to", &kt);
  struct fy_node* arc = rd_deckLookup(map, "arc", &ka);
  struct fy_node* kp = rd_deckLookup(map, "key_points", &kk);
  if ((kf || kt) + !!ka + !!kk > 1) {
    return rd_deckError(dk, kk ? kk : ka,
                        "give one reference line: 'from' and 'to', 'arc' or 'key_points'");
  }
  if (ka) {
    return read_arc(dk, arc, L);
  }
  if (kk) {
    return read_key_points(dk, kp, L);
  }
  double a[3], b[3];
  int st = rd_deckGetVec(dk, map, "from", 3, 1, a);
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "to", 3, 1, b);
  }
  if (st < 0) {
    return st;
  }
  rdLineFault f;
  if (rd_lineStraight(L, a, b, &f) != RD_OK) {
    return rd_deckError(dk, rd_deckLookup(map, f.arg ? "to" : "from", NULL), "%s", f.text);
  }
  return RD_OK;
}


int rd_deckAddBeamNode(rdDeck* dk, struct fy_node* at, const char* name, int k, const double x[3],
                       const double q[4], const double w[3], int* idx) {
  char nm[512];
  snprintf(nm, sizeof(nm), "%s_%d", name, k);
  rdNodeDef def = rd_defaultNodeDef();
  def.name = nm;
  memcpy(def.position, x, sizeof(def.position));
  memcpy(def.orientation, q, sizeof(def.orientation));
  if (w) {
    v3_cross(def.velocity, w, x);
    memcpy(def.angular_velocity, w, sizeof(def.angular_velocity));  // global frame
  }
  *idx = rds_addNode(dk->spec, &def);
  if (*idx < 0) {
    return rd_deckRelay(dk, at, *idx);
  }
  // the spec's copy of the name stays put (the document has none to point to)
  const char* kept = ((const rdNodeDef*)dk->spec->nodes.items)[*idx].name;
  int st = rd_deckAddName(dk, &dk->nodes, kept, def.position);
  return st < 0 ? st : rd_deckOrigin(dk, at, RD_OBJ_NODE, *idx);
}


// `nodes: N` with a reference line: N rigid nodes NAME_0 .. NAME_{N-1} at the GLL points of arc
// length, body x along the tangent (the smallest rotation taking x to it), turned by the
// `twist` [deg at s = 0, deg at s = 1] about it (rdu_beamLineNodes)
static int generate_nodes(rdDeck* dk, struct fy_node* map, struct fy_node* v, const char* name,
                          int* nodes, int* n) {
  double cnt, tw[2] = {0, 0};
  int st = rd_deckReal(dk, v, "nodes", &cnt);
  if (st < 0) {
    return st;
  }
  if (cnt != floor(cnt) || cnt < 2 || cnt > RD_BEAM_MAX_NODES) {
    return rd_deckError(dk, v, "'nodes' must be a list of node names or a count from 2 to %d",
                        RD_BEAM_MAX_NODES);
  }
  rdBeamLine* L = rd_alloc(dk->ctx, sizeof(rdBeamLine));
  if (!L) {
    return RD_ERR_NOMEM;
  }
  st = read_line(dk, map, L);
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "twist", 2, 0, tw);
  }
  *n = (int)cnt;
  double x[RD_BEAM_MAX_NODES][3], q[RD_BEAM_MAX_NODES][4];
  if (st >= 0) {
    st = rdu_beamLineNodes(L, *n, tw, &x[0][0], &q[0][0]);
  }
  for (int k = 0; k < *n && st >= 0; k++) {
    st = rd_deckAddBeamNode(dk, v, name, k, x[k], q[k], NULL, &nodes[k]);
  }
  rd_free(dk->ctx, L);
  return st < 0 ? st : RD_OK;
}


// `nodes`: a list of node names or a count with `from` and `to`
static int beam_nodes(rdDeck* dk, struct fy_node* map, const char* name, int* nodes, int* n) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "nodes", &key);
  if (!key || rd_deckIsNull(v)) {
    return rd_deckError(dk, key ? key : map, "missing required key 'nodes'");
  }
  struct fy_node *kf, *kt, *ka, *kk, *kw;
  (void)rd_deckLookup(map, "from", &kf);
  (void)rd_deckLookup(map, "to", &kt);
  (void)rd_deckLookup(map, "arc", &ka);
  (void)rd_deckLookup(map, "key_points", &kk);
  (void)rd_deckLookup(map, "twist", &kw);
  if (!fy_node_is_sequence(v)) {
    return generate_nodes(dk, map, v, name, nodes, n);
  }
  if (kf || kt) {
    return rd_deckError(dk, kf ? kf : kt,
                        "'from' and 'to' only go with a node count ('nodes: 15'), not a list");
  }
  if (ka || kk || kw) {
    return rd_deckError(dk,
                        ka   ? ka
                        : kk ? kk
                             : kw,
                        "'%s' only goes with a node count ('nodes: 15'), not a list",
                        ka   ? "arc"
                        : kk ? "key_points"
                             : "twist");
  }
  *n = fy_node_sequence_item_count(v);
  if (*n < 2 || *n > RD_BEAM_MAX_NODES) {
    return rd_deckError(dk, v, "a beam element has 2 to %d nodes, got %d", RD_BEAM_MAX_NODES, *n);
  }
  for (int k = 0; k < *n; k++) {
    char what[32];
    snprintf(what, sizeof(what), "nodes[%d]", k);
    int st = rd_deckNodeRef(dk, fy_node_sequence_get_by_index(v, k), what, 0, &nodes[k]);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


// `sections`: [{s, stiffness, mass}, ...] into eta, K, M (room for nmax stations)
static int beam_sections(rdDeck* dk, struct fy_node* map, int nmax, double* eta, double* K,
                         double* M, int* ns) {
  struct fy_node* seq;
  int st = rd_deckList(dk, map, "sections", &seq);
  if (st < 0) {
    return st;
  }
  if (st == 0 || fy_node_sequence_item_count(seq) < 1) {
    return rd_deckError(dk, seq ? seq : map, "a beam needs 'sections' with at least one station");
  }
  *ns = fy_node_sequence_item_count(seq);
  if (*ns > nmax) {
    return rd_deckError(dk, seq, "at most %d section stations", nmax);
  }
  for (int i = 0; i < *ns && st >= 0; i++) {
    struct fy_node* it = fy_node_sequence_get_by_index(seq, i);
    st = rd_deckCheckMap(dk, it, "section", section_keys);
    if (st >= 0) {
      st = rd_deckGetReal(dk, it, "s", 1, &eta[i]);
    }
    if (st >= 0) {
      st = rd_deckGetMatrix(dk, it, "stiffness", 6, 1, K + 36 * i);
    }
    if (st >= 0) {
      st = rd_deckGetMatrix(dk, it, "mass", 6, 1, M + 36 * i);
    }
  }
  return st < 0 ? st : RD_OK;
}


// optional `load: {force, moment, frame, function}`: distributed load per length
static int beam_load(rdDeck* dk, struct fy_node* map, rdBeamDef* def) {
  struct fy_node* v = rd_deckLookup(map, "load", NULL);
  if (!v || rd_deckIsNull(v)) {
    return RD_OK;
  }
  int frame = 0;
  int st = rd_deckCheckMap(dk, v, "beam load", load_keys);
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "force", 3, 0, def->force);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, v, "moment", 3, 0, def->moment);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, v, "frame", frame_names, 0, &frame);
  }
  if (st >= 0) {
    st = rd_deckGetTimeFn(dk, v, "function", &def->timefn);
  }
  def->load_frame = (rdFrame)frame;
  return st < 0 ? st : RD_OK;
}


#define DECK_MAX_STATIONS 256

// nodes, stations, damping and quadrature from `beamdyn: {primary, ...}` (the files say it all)
static int beam_from_primary(rdDeck* dk, struct fy_node* map, const char* name, rdBeamDef* def,
                             int* nodes, rdBdBlade* b) {
  int quad = 0;
  int st = rd_deckCheckTyped(dk, map, "a beam from a BeamDyn primary file ('beamdyn')", elem_keys,
                             beamdyn_beam_keys);
  if (st >= 0) {
    st = rd_deckBeamDynBeam(dk, rd_deckLookup(map, "beamdyn", NULL), name, nodes, &def->nnode, b,
                            &quad);
  }
  memcpy(def->damping, b->mu, sizeof(def->damping));
  def->quadrature = (rdBeamQuadrature)quad;
  def->rotation_field = RD_BEAM_ROTATION_DISPLACEMENT;            // BeamDyn's reference frames
  def->virtual_rotation = RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED;  // and its weak form
  return st;
}


// `sections: {beamdyn_blade: FILE}`: stations and damping from a BeamDyn blade file
static int sections_from_blade(rdDeck* dk, struct fy_node* map, rdBeamDef* def, rdBdBlade* b) {
  struct fy_node* kd;
  (void)rd_deckLookup(map, "damping", &kd);
  if (kd) {
    return rd_deckError(dk, kd,
                        "'damping' comes from the BeamDyn blade file (damp_type, mu1 ... "
                        "mu6) when the sections do");
  }
  int st = rd_deckBeamDynSections(dk, rd_deckLookup(map, "sections", NULL), b);
  memcpy(def->damping, b->mu, sizeof(def->damping));
  return st;
}


static int read_beam(rdDeck* dk, struct fy_node* map, const char* name) {
  rdBeamDef def = rd_defaultBeamDef();
  def.name = name;
  int nodes[RD_BEAM_MAX_NODES], quad = 0, field = 0, virt = 0, st;
  rdBdBlade blade;
  memset(&blade, 0, sizeof(blade));
  double* buf = NULL;
  int from_primary = rd_deckLookup(map, "beamdyn", NULL) != NULL;
  if (from_primary) {
    st = beam_from_primary(dk, map, name, &def, nodes, &blade);
  } else {
    st = beam_nodes(dk, map, name, nodes, &def.nnode);
    struct fy_node* sec = rd_deckLookup(map, "sections", NULL);
    if (st >= 0 && sec && fy_node_is_mapping(sec)) {
      st = sections_from_blade(dk, map, &def, &blade);
    } else if (st >= 0) {
      buf = rd_alloc(dk->ctx, sizeof(double) * DECK_MAX_STATIONS * 73);
      st = buf ? RD_OK : RD_ERR_NOMEM;
      if (st >= 0) {
        blade.eta = buf;
        blade.K = buf + DECK_MAX_STATIONS;
        blade.M = blade.K + 36 * DECK_MAX_STATIONS;
        st = beam_sections(dk, map, DECK_MAX_STATIONS, blade.eta, blade.K, blade.M, &blade.nst);
      }
      if (st >= 0) {
        st = rd_deckGetVec(dk, map, "damping", 6, 0, def.damping);
      }
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "quadrature", quad_names, 0, &quad);
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "rotation_field", field_names, 0, &field);
    }
    if (st >= 0) {
      st = rd_deckGetEnum(dk, map, "virtual_rotation", virtual_names, 0, &virt);
    }
    if (st >= 0) {
      st = rd_deckGetVec(dk, map, "span", 2, 0, def.span);
    }
    def.quadrature = (rdBeamQuadrature)quad;
    def.rotation_field = (rdBeamRotationField)field;
    def.virtual_rotation = (rdBeamVirtualRotation)virt;
  }
  // the extension-twist term: on with BeamDyn's files (its physics), off otherwise (beam.md)
  int et = from_primary;
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "extension_twist", bool_names, 0, &et);
  }
  def.extension_twist = et;
  if (st >= 0) {
    st = beam_load(dk, map, &def);
  }
  if (st >= 0) {
    def.nodes = nodes;
    def.nstation = blade.nst;
    def.station = blade.eta;
    def.stiffness = blade.K;
    def.mass = blade.M;
    int idx = rds_addBeam(dk->spec, &def);
    st = idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_BEAM, idx);
  }
  if (buf) {
    rd_free(dk->ctx, buf);  // blade points into it
  } else {
    rd_bdFreeBlade(dk->ctx, &blade);  // NULL pointers or the BeamDyn reader's arrays
  }
  return st;
}


static int read_element(rdDeck* dk, struct fy_node* map) {
  int type = 0;
  int st = rd_deckCheckMap(dk, map, "element", elem_keys);
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", elem_types, 1, &type);
  }
  char what[64];
  snprintf(what, sizeof(what), "a %s element", elem_types[type]);
  if (st >= 0) {
    st = rd_deckCheckTyped(dk, map, what, elem_keys, type_keys[type]);
  }
  const char* name = NULL;
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_ELEMENT, "element", &name);
  }
  if (st < 0) {
    return st;
  }
  switch (type) {
    case ELEM_RIGID_BODY:
      return read_rigid_body(dk, map, name);
    case ELEM_POINT_MASS:
      return read_point_mass(dk, map, name);
    case ELEM_SPRING:
      return read_spring(dk, map, name);
    case ELEM_BEAM:
      return read_beam(dk, map, name);
    default:
      return read_bushing(dk, map, name);
  }
}


int rd_deckReadElements(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "elements", read_element);
}
