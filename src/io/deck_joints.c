// SPDX-License-Identifier: MIT
// Deck reader: the `joints`, `loads` and `torque_laws` sections.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"
#include "src/io/deck_impl.h"
#include "src/math/vec3.h"

// ---------------------------------------------------------------------------------------------
// joints

static const char* const joint_types[] = {
    "fixed",       "rigid",  "spherical",  "revolute",         "universal", "prismatic",
    "cylindrical", "planar", "prescribed", "rotation_control", NULL};  // rdJointType order

static const char* const joint_keys[] = {"name",   "type",  "node",  "nodes",  "point",
                                         "axis",   "axis2", "angle", "torque", "torque_function",
                                         "motion", NULL};
static const char* const fixed_keys[] = {"name", "type", "node", NULL};
static const char* const rigid_keys[] = {"name", "type", "node", "nodes", NULL};
static const char* const spherical_keys[] = {"name", "type", "node", "nodes", "point", NULL};
static const char* const revolute_keys[] = {"name", "type",  "node",   "nodes",           "point",
                                            "axis", "angle", "torque", "torque_function", NULL};
static const char* const universal_keys[] = {"name",  "type", "node",  "nodes",
                                             "point", "axis", "axis2", NULL};
static const char* const slider_keys[] = {"name", "type", "node", "nodes", "point", "axis", NULL};
static const char* const prescribed_keys[] = {"name", "type", "node", "motion", NULL};
static const char* const rotctl_keys[] = {"name", "type", "node", "nodes", "axis", "angle", NULL};
static const char* const* const joint_type_keys[] = {
    fixed_keys,  rigid_keys,  spherical_keys, revolute_keys,   universal_keys,
    slider_keys, slider_keys, slider_keys,    prescribed_keys, rotctl_keys};

static const char* const motion_keys[] = {"x", "y", "z", "rx", "ry", "rz", NULL};


static int uses(int type, const char* key) {
  for (const char* const* k = joint_type_keys[type]; *k; k++) {
    if (!strcmp(*k, key)) {
      return 1;
    }
  }
  return 0;
}


// a direction: required, non-zero, normalized
static int read_axis(rdDeck* dk, struct fy_node* map, const char* key, double a[3]) {
  int st = rd_deckGetVec(dk, map, key, 3, 1, a);
  if (st < 0) {
    return st;
  }
  double n = v3_norm(a);
  if (n < 1e-12) {
    return rd_deckError(dk, rd_deckLookup(map, key, NULL), "'%s' must not be zero", key);
  }
  for (int k = 0; k < 3; k++) {
    a[k] /= n;
  }
  return RD_OK;
}


// motion: {x: fn, y: fn, z: fn, rx: fn, ry: fn, rz: fn}, each optional
static int read_motion(rdDeck* dk, struct fy_node* map, int fn[6]) {
  struct fy_node* k = NULL;
  struct fy_node* m = rd_deckLookup(map, "motion", &k);
  if (!k || rd_deckIsNull(m)) {
    return RD_OK;
  }
  int st = rd_deckCheckMap(dk, m, "motion", motion_keys);
  for (int i = 0; st >= 0 && i < 6; i++) {
    st = rd_deckGetTimeFn(dk, m, motion_keys[i], &fn[i]);
  }
  return st < 0 ? st : RD_OK;
}


// the joint's nodes: `node` only for fixed and prescribed joints
static int joint_nodes(rdDeck* dk, struct fy_node* map, int type, int node[2]) {
  if (!uses(type, "nodes")) {
    node[1] = RD_GROUND;
    int st = rd_deckGetNode(dk, map, "node", 0, 1, &node[0]);
    return st < 0 ? st : RD_OK;
  }
  return rd_deckGetNodePair(dk, map, node);
}


static int read_joint_fields(rdDeck* dk, struct fy_node* map, int type, rdJointDef* def) {
  int st = joint_nodes(dk, map, type, def->node);
  if (st >= 0 && uses(type, "point")) {
    memcpy(def->point, dk->nodes.pos + 3 * def->node[0], sizeof(def->point));
    st = rd_deckGetVec(dk, map, "point", 3, 0, def->point);
  }
  if (st >= 0 && uses(type, "axis")) {
    st = read_axis(dk, map, "axis", def->axis);
  }
  if (st >= 0 && uses(type, "axis2")) {
    st = read_axis(dk, map, "axis2", def->axis2);
  }
  if (st >= 0 && uses(type, "angle")) {
    st = rd_deckGetTimeFn(dk, map, "angle", &def->angle_fn);
    if (st == 0 && type == RD_JOINT_ROTATION_CONTROL) {
      st = rd_deckError(dk, map, "missing required key 'angle'");
    }
  }
  if (st >= 0 && uses(type, "torque")) {
    st = rd_deckGetReal(dk, map, "torque", 0, &def->torque);
  }
  if (st >= 0 && uses(type, "torque_function")) {
    st = rd_deckGetTimeFn(dk, map, "torque_function", &def->torque_fn);
  }
  if (st >= 0 && uses(type, "motion")) {
    st = read_motion(dk, map, def->motion_fn);
  }
  return st < 0 ? st : RD_OK;
}


static int read_joint(rdDeck* dk, struct fy_node* map) {
  rdJointDef def = rd_defaultJointDef();
  int type = 0;
  int st = rd_deckCheckMap(dk, map, "joint", joint_keys);
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", joint_types, 1, &type);
  }
  char what[64];
  snprintf(what, sizeof(what), "a %s joint", joint_types[type]);
  if (st >= 0) {
    st = rd_deckCheckTyped(dk, map, what, joint_keys, joint_type_keys[type]);
  }
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_JOINT, "joint", &def.name);
  }
  if (st >= 0) {
    def.type = (rdJointType)type;
    st = read_joint_fields(dk, map, type, &def);
  }
  if (st < 0) {
    return st;
  }
  int idx = rds_addJoint(dk->spec, &def);
  return idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_JOINT, idx);
}


int rd_deckReadJoints(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "joints", read_joint);
}

// ---------------------------------------------------------------------------------------------
// loads

static const char* const load_keys[] = {"name", "type", "node", "value", "frame", "function", NULL};
static const char* const load_types[] = {"force", "moment", NULL};  // rdLoadKind order
static const char* const frames[] = {"global", "body", NULL};       // rdFrame order


static int read_load(rdDeck* dk, struct fy_node* map) {
  rdLoadDef def = rd_defaultLoadDef();
  int kind = 0, frame = 0;
  int st = rd_deckCheckMap(dk, map, "load", load_keys);
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_LOAD, "load", &def.name);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", load_types, 1, &kind);
  }
  if (st >= 0) {
    st = rd_deckGetNode(dk, map, "node", 0, 1, &def.node);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "value", 3, 1, def.value);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "frame", frames, 0, &frame);
  }
  if (st >= 0) {
    st = rd_deckGetTimeFn(dk, map, "function", &def.timefn);
  }
  if (st < 0) {
    return st;
  }
  def.kind = (rdLoadKind)kind;
  def.frame = (rdFrame)frame;
  int idx = rds_addLoad(dk->spec, &def);
  return idx < 0 ? rd_deckRelay(dk, map, idx) : rd_deckOrigin(dk, map, RD_OBJ_LOAD, idx);
}


int rd_deckReadLoads(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "loads", read_load);
}

// ---------------------------------------------------------------------------------------------
// torque laws

static const char* const torque_types[] = {"coulomb_wall", "expression",
                                           NULL};  // rdTorqueLawType order
static const char* const torque_keys[] = {"name", "type", "node", "a", "c", "torque", NULL};
static const char* const wall_keys[] = {"name", "type", "node", "a", "c", NULL};
static const char* const expr_keys[] = {"name", "type", "node", "torque", NULL};


// torque: ["fx", "fy", "fz"], three formulas
static int torque_formulas(rdDeck* dk, struct fy_node* map, const char* expr[3]) {
  struct fy_node* key;
  struct fy_node* v = rd_deckLookup(map, "torque", &key);
  if (!key) {
    return rd_deckError(dk, map, "missing required key 'torque'");
  }
  if (!fy_node_is_sequence(v) || fy_node_sequence_item_count(v) != 3) {
    return rd_deckError(dk, rd_deckIsNull(v) ? key : v,
                        "'torque' must be a list of 3 formulas (x, y, z components)");
  }
  for (int k = 0; k < 3; k++) {
    struct fy_node* item = fy_node_sequence_get_by_index(v, k);
    if (rd_deckIsNull(item) || !fy_node_is_scalar(item)) {
      return rd_deckError(dk, rd_deckIsNull(item) ? v : item, "torque[%d] must be a formula", k);
    }
    expr[k] = fy_node_get_scalar0(item);
  }
  return RD_OK;
}


static int read_torque_fields(rdDeck* dk, struct fy_node* map, rdTorqueLawDef* def) {
  int type = 0;
  int st = rd_deckCheckMap(dk, map, "torque law", torque_keys);
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", torque_types, 1, &type);
  }
  if (st >= 0) {
    st = rd_deckCheckTyped(dk, map, type ? "an expression torque law" : "a coulomb_wall torque law",
                           torque_keys, type ? expr_keys : wall_keys);
  }
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_TORQUE, "torque law", &def->name);
  }
  if (st >= 0) {
    st = rd_deckGetNode(dk, map, "node", 0, 1, &def->node);
  }
  def->type = (rdTorqueLawType)type;
  if (st >= 0 && type == RD_TORQUE_COULOMB_WALL) {
    st = rd_deckGetReal(dk, map, "a", 0, &def->param[0]);
    if (st >= 0) {
      st = rd_deckGetReal(dk, map, "c", 0, &def->param[1]);
    }
  } else if (st >= 0) {
    st = torque_formulas(dk, map, def->expression);
  }
  return st < 0 ? st : RD_OK;
}


static int read_torque_law(rdDeck* dk, struct fy_node* map) {
  rdTorqueLawDef def = rd_defaultTorqueLawDef();
  int st = read_torque_fields(dk, map, &def);
  if (st < 0) {
    return st;
  }
  int idx = rds_addTorqueLaw(dk->spec, &def);
  if (idx < 0) {
    struct fy_node* at =
        rd_deckLookup(map, def.type == RD_TORQUE_EXPRESSION ? "torque" : "a", NULL);
    return rd_deckRelay(dk, at ? at : map, idx);
  }
  return rd_deckOrigin(dk, map, RD_OBJ_TORQUE, idx);
}


int rd_deckReadTorqueLaws(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "torque_laws", read_torque_law);
}
