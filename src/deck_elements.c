// SPDX-License-Identifier: MIT
// Deck reader: the `elements` section (rigid bodies, point masses, springs, bushings, beams).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "beam.h"
#include "core.h"
#include "deck_impl.h"
#include "spec_impl.h"

static const char* const elem_types[] = {"rigid_body", "point_mass", "spring", "bushing", "beam",
                                         NULL};
enum { ELEM_RIGID_BODY, ELEM_POINT_MASS, ELEM_SPRING, ELEM_BUSHING, ELEM_BEAM };

static const char* const elem_keys[] = {
    "name",          "type",   "node",      "nodes",   "mass",        "inertia", "com",
    "inertia_about", "anchor", "stiffness", "damping", "rest_length", "from",    "to",
    "sections",      "quadrature", "span",  "load",    NULL};
static const char* const body_keys[] = {"name",    "type", "node",          "mass",
                                        "inertia", "com",  "inertia_about", NULL};
static const char* const mass_keys[] = {"name", "type", "node", "mass", NULL};
static const char* const spring_keys[] = {"name",      "type",    "node",        "nodes", "anchor",
                                          "stiffness", "damping", "rest_length", NULL};
static const char* const bushing_keys[] = {"name",      "type",    "node", "nodes",
                                           "stiffness", "damping", NULL};
static const char* const beam_keys[] = {"name",       "type", "nodes", "from", "to",   "sections",
                                        "quadrature", "span", "damping", "load", NULL};
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
static const char* const frame_names[] = {"global", "body", NULL};  // rdFrame order
static const char* const section_keys[] = {"s", "stiffness", "mass", NULL};
static const char* const load_keys[] = {"force", "moment", "frame", "function", NULL};


// quaternion of the smallest rotation taking the x axis to the unit vector e
static void x_to(double q[4], const double e[3]) {
  // q = (1 + x.e, x cross e), normalized; opposite to x: half a turn about z
  double r[4] = {1 + e[0], 0, -e[2], e[1]};
  if (e[0] < -1 + 1e-14) {
    r[0] = r[1] = r[2] = 0;
    r[3] = 1;
  }
  double n = sqrt(r[0] * r[0] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++) {
    q[k] = r[k] / n;
  }
}


// `nodes: N` with `from` and `to`: N rigid nodes NAME_0 .. NAME_{N-1} at the GLL points of the
// straight line, body x along it
static int generate_nodes(rdDeck* dk, struct fy_node* map, struct fy_node* v, const char* name,
                          int* nodes, int* n) {
  double cnt, a[3], b[3], xi[RD_BEAM_MAX_NODES];
  int st = rd_deckReal(dk, v, "nodes", &cnt);
  if (st < 0) {
    return st;
  }
  if (cnt != floor(cnt) || cnt < 2 || cnt > RD_BEAM_MAX_NODES) {
    return rd_deckError(dk, v, "'nodes' must be a list of node names or a count from 2 to %d",
                        RD_BEAM_MAX_NODES);
  }
  st = rd_deckGetVec(dk, map, "from", 3, 1, a);
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "to", 3, 1, b);
  }
  if (st < 0) {
    return st;
  }
  double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  if (!(len > 0)) {
    return rd_deckError(dk, rd_deckLookup(map, "to", NULL), "'from' and 'to' are the same point");
  }
  for (int k = 0; k < 3; k++) {
    e[k] /= len;
  }
  *n = (int)cnt;
  rd_beamGLL(*n, xi);  // the kernel's GLL points of [-1, 1]
  rdNodeDef def = rd_defaultNodeDef();
  x_to(def.orientation, e);
  for (int k = 0; k < *n; k++) {
    char nm[512];
    snprintf(nm, sizeof(nm), "%s_%d", name, k);
    def.name = nm;
    for (int j = 0; j < 3; j++) {
      def.position[j] = a[j] + 0.5 * (xi[k] + 1) * (b[j] - a[j]);
    }
    int idx = rds_addNode(dk->spec, &def);
    if (idx < 0) {
      return rd_deckRelay(dk, v, idx);
    }
    // the spec's copy of the name stays put (the document has none to point to)
    const char* kept = ((const rdNodeDef*)dk->spec->nodes.items)[idx].name;
    st = rd_deckAddName(dk, &dk->nodes, kept, def.position);
    st = st < 0 ? st : rd_deckOrigin(dk, v, RD_OBJ_NODE, idx);
    if (st < 0) {
      return st;
    }
    nodes[k] = idx;
  }
  return RD_OK;
}


// `nodes`: a list of node names or a count with `from` and `to`
static int beam_nodes(rdDeck* dk, struct fy_node* map, const char* name, int* nodes, int* n) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "nodes", &key);
  if (!key || rd_deckIsNull(v)) {
    return rd_deckError(dk, key ? key : map, "missing required key 'nodes'");
  }
  struct fy_node *kf, *kt;
  (void)rd_deckLookup(map, "from", &kf);
  (void)rd_deckLookup(map, "to", &kt);
  if (!fy_node_is_sequence(v)) {
    return generate_nodes(dk, map, v, name, nodes, n);
  }
  if (kf || kt) {
    return rd_deckError(dk, kf ? kf : kt,
                        "'from' and 'to' only go with a node count ('nodes: 15'), not a list");
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

static int read_beam(rdDeck* dk, struct fy_node* map, const char* name) {
  rdBeamDef def = rd_defaultBeamDef();
  def.name = name;
  int nodes[RD_BEAM_MAX_NODES], n = 0, ns = 0, quad = 0;
  double* buf = rd_alloc(dk->ctx, sizeof(double) * DECK_MAX_STATIONS * 73);
  if (!buf) {
    return RD_ERR_NOMEM;
  }
  double* eta = buf;
  double* K = eta + DECK_MAX_STATIONS;
  double* M = K + 36 * DECK_MAX_STATIONS;
  int st = beam_nodes(dk, map, name, nodes, &n);
  if (st >= 0) {
    st = beam_sections(dk, map, DECK_MAX_STATIONS, eta, K, M, &ns);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "damping", 6, 0, def.damping);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "quadrature", quad_names, 0, &quad);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "span", 2, 0, def.span);
  }
  if (st >= 0) {
    st = beam_load(dk, map, &def);
  }
  if (st >= 0) {
    def.nnode = n;
    def.nodes = nodes;
    def.nstation = ns;
    def.station = eta;
    def.stiffness = K;
    def.mass = M;
    def.quadrature = (rdBeamQuadrature)quad;
    int idx = rds_addBeam(dk->spec, &def);
    st = idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_BEAM, idx);
  }
  rd_free(dk->ctx, buf);
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
