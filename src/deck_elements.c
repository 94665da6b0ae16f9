// SPDX-License-Identifier: MIT
// Deck reader: the `elements` section (rigid bodies, point masses, springs, bushings).
#include <math.h>
#include <string.h>

#include "core.h"
#include "deck_impl.h"

static const char* const elem_types[] = {"rigid_body", "point_mass", "spring", "bushing", NULL};
enum { ELEM_RIGID_BODY, ELEM_POINT_MASS, ELEM_SPRING, ELEM_BUSHING };

static const char* const elem_keys[] = {
    "name",          "type",   "node",      "nodes",   "mass",        "inertia", "com",
    "inertia_about", "anchor", "stiffness", "damping", "rest_length", NULL};
static const char* const body_keys[] = {"name",    "type", "node",          "mass",
                                        "inertia", "com",  "inertia_about", NULL};
static const char* const mass_keys[] = {"name", "type", "node", "mass", NULL};
static const char* const spring_keys[] = {"name",      "type",    "node",        "nodes", "anchor",
                                          "stiffness", "damping", "rest_length", NULL};
static const char* const bushing_keys[] = {"name",      "type",    "node", "nodes",
                                           "stiffness", "damping", NULL};
static const char* const* const type_keys[] = {body_keys, mass_keys, spring_keys, bushing_keys};

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
    default:
      return read_bushing(dk, map, name);
  }
}


int rd_deckReadElements(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "elements", read_element);
}
