// SPDX-License-Identifier: MIT
// Deck reader: the `nodes` and `time_functions` sections.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/io/deck_impl.h"

// ---------------------------------------------------------------------------------------------
// nodes

static const char* const node_keys[] = {"name",
                                        "kind",
                                        "position",
                                        "orientation",
                                        "velocity",
                                        "angular_velocity",
                                        "angular_velocity_frame",
                                        NULL};
static const char* const point_keys[] = {"name", "kind", "position", "velocity", NULL};
static const char* const node_kinds[] = {"rigid", "point", NULL};  // rdNodeKind order
static const char* const frames[] = {"global", "body", NULL};      // rdFrame order
static const char* const orientation_keys[] = {"rotation_vector", "quaternion", "matrix", NULL};


int rd_deckMatrixToQuat(double q[4], const double R[9], double* defect) {
  double d = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double rrt = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
      d = fmax(d, fabs(rrt - (i == j)));
    }
  }
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
               R[2] * (R[3] * R[7] - R[4] * R[6]);
  d = fmax(d, fabs(det - 1));
  *defect = d;
  if (!(d <= 1e-6)) {
    return -1;
  }
  rdu_matToQuat(q, R);
  return 0;
}


// quaternion (w, x, y, z) given in the deck: unit to 1e-6
static int unit_quaternion(rdDeck* dk, struct fy_node* o, double q[4]) {
  struct fy_node* v = rd_deckLookup(o, "quaternion", NULL);
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < 1e-12) {
    return rd_deckError(dk, v, "quaternion has zero norm");
  }
  if (fabs(n - 1) > 1e-6) {
    return rd_deckError(dk, v, "quaternion must be unit (norm %.9g)", n);
  }
  for (int k = 0; k < 4; k++) {
    q[k] /= n;
  }
  return RD_OK;
}


int rd_deckGetOrientation(rdDeck* dk, struct fy_node* map, double q[4]) {
  struct fy_node* k = NULL;
  struct fy_node* o = rd_deckLookup(map, "orientation", &k);
  if (!k || rd_deckIsNull(o)) {
    return RD_OK;
  }
  int st = rd_deckCheckMap(dk, o, "orientation", orientation_keys);
  if (st < 0) {
    return st;
  }
  if (fy_node_mapping_item_count(o) != 1) {
    return rd_deckError(dk, o,
                        "orientation needs exactly one of rotation_vector, quaternion, "
                        "matrix");
  }
  double v[9];
  if ((st = rd_deckGetVec(dk, o, "rotation_vector", 3, 0, v)) != 0) {
    if (st == 1) {
      rdu_rotvecToQuat(q, v);
    }
    return st < 0 ? st : RD_OK;
  }
  if ((st = rd_deckGetVec(dk, o, "quaternion", 4, 0, v)) != 0) {
    if (st == 1) {
      memcpy(q, v, 4 * sizeof(double));
      st = unit_quaternion(dk, o, q);
    }
    return st < 0 ? st : RD_OK;
  }
  st = rd_deckGetMatrix(dk, o, "matrix", 3, 1, v);
  double defect;
  if (st == 1 && rd_deckMatrixToQuat(q, v, &defect) < 0) {
    return rd_deckError(dk, rd_deckLookup(o, "matrix", NULL),
                        "orientation matrix must be a rotation (orthonormal, det +1, to 1e-6); "
                        "its defect is %.3g",
                        defect);
  }
  return st < 0 ? st : RD_OK;
}


// the node's fields into def
static int read_node_fields(rdDeck* dk, struct fy_node* map, rdNodeDef* def) {
  int kind = RD_NODE_RIGID, frame = RD_FRAME_GLOBAL;
  int st = rd_deckGetEnum(dk, map, "kind", node_kinds, 0, &kind);
  if (st >= 0) {
    st = rd_deckCheckTyped(dk, map, kind == RD_NODE_POINT ? "a point node" : "a rigid node",
                           node_keys, kind == RD_NODE_POINT ? point_keys : node_keys);
  }
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_NODE, "node", &def->name);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "position", 3, 0, def->position);
  }
  if (st >= 0) {
    st = rd_deckGetOrientation(dk, map, def->orientation);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "velocity", 3, 0, def->velocity);
  }
  if (st >= 0) {
    st = rd_deckGetVec(dk, map, "angular_velocity", 3, 0, def->angular_velocity);
  }
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "angular_velocity_frame", frames, 0, &frame);
  }
  def->kind = (rdNodeKind)kind;
  def->angular_velocity_frame = (rdFrame)frame;
  return st < 0 ? st : RD_OK;
}


static int read_node(rdDeck* dk, struct fy_node* map) {
  rdNodeDef def = rd_defaultNodeDef();
  int st = read_node_fields(dk, map, &def);
  if (st < 0) {
    return st;
  }
  int idx = rds_addNode(dk->spec, &def);
  if (idx < 0) {
    return rd_deckRelay(dk, map, idx);
  }
  st = rd_deckAddName(dk, &dk->nodes, def.name, def.position);
  return st < 0 ? st : rd_deckOrigin(dk, map, RD_OBJ_NODE, idx);
}


int rd_deckReadNodes(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "nodes", read_node);
}

// ---------------------------------------------------------------------------------------------
// time functions

static const char* const fn_types[] = {"constant", "steps", "linear", "expression",
                                       NULL};  // rdTimeFnType order
static const char* const fn_keys[] = {"name", "type", "value", "points", "expression", NULL};
static const char* const fn_constant_keys[] = {"name", "type", "value", NULL};
static const char* const fn_points_keys[] = {"name", "type", "points", NULL};
static const char* const fn_expression_keys[] = {"name", "type", "expression", NULL};


// points: [[t0, y0], [t1, y1], ...] with t strictly increasing, into new arrays *t, *y
static int read_points(rdDeck* dk, struct fy_node* map, double** t, double** y, int* n) {
  struct fy_node* seq;
  int st = rd_deckList(dk, map, "points", &seq);
  if (st == 0) {
    return rd_deckError(dk, map, "missing required key 'points'");
  }
  if (st < 0) {
    return st;
  }
  *n = fy_node_sequence_item_count(seq);
  if (*n < 1) {
    return rd_deckError(dk, seq, "'points' needs at least one [t, value] pair");
  }
  *t = rd_alloc(dk->ctx, sizeof(double) * (size_t)*n);
  *y = rd_alloc(dk->ctx, sizeof(double) * (size_t)*n);
  if (!*t || !*y) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < *n; i++) {
    struct fy_node* item = fy_node_sequence_get_by_index(seq, i);
    char what[32];
    snprintf(what, sizeof(what), "points[%d]", i);
    double ty[2];
    st = rd_deckVec(dk, item, what, 2, ty);
    if (st < 0) {
      return st;
    }
    if (i && ty[0] <= (*t)[i - 1]) {
      return rd_deckError(dk, item, "times in 'points' must increase strictly (%g after %g)", ty[0],
                          (*t)[i - 1]);
    }
    (*t)[i] = ty[0];
    (*y)[i] = ty[1];
  }
  return RD_OK;
}


static int read_timefn_fields(rdDeck* dk, struct fy_node* map, rdTimeFnDef* def, double** t,
                              double** y) {
  int type = RD_TIMEFN_CONSTANT;
  int st = rd_deckCheckMap(dk, map, "time function", fn_keys);
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "type", fn_types, 1, &type);
  }
  if (st < 0) {
    return st;
  }
  def->type = (rdTimeFnType)type;
  const char* const* used = type == RD_TIMEFN_CONSTANT     ? fn_constant_keys
                            : type == RD_TIMEFN_EXPRESSION ? fn_expression_keys
                                                           : fn_points_keys;
  char what[64];
  snprintf(what, sizeof(what), "a %s time function", fn_types[type]);
  st = rd_deckCheckTyped(dk, map, what, fn_keys, used);
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_TIMEFN, "time function", &def->name);
  }
  if (st < 0) {
    return st;
  }
  if (type == RD_TIMEFN_CONSTANT) {
    st = rd_deckGetReal(dk, map, "value", 1, &def->value);
  } else if (type == RD_TIMEFN_EXPRESSION) {
    st = rd_deckGetString(dk, map, "expression", 1, &def->expression);
  } else {
    st = read_points(dk, map, t, y, &def->npoint);
    def->t = *t;
    def->y = *y;
  }
  return st < 0 ? st : RD_OK;
}


static int read_timefn(rdDeck* dk, struct fy_node* map) {
  rdTimeFnDef def = rd_defaultTimeFnDef();
  double* t = NULL;
  double* y = NULL;
  int st = read_timefn_fields(dk, map, &def, &t, &y);
  if (st == RD_OK) {
    int idx = rds_addTimeFn(dk->spec, &def);
    struct fy_node* at = rd_deckLookup(map, "expression", NULL);
    st = idx < 0 ? rd_deckRelay(dk, at ? at : map, idx) : RD_OK;
    if (st == RD_OK) {
      st = rd_deckAddName(dk, &dk->timefns, def.name, NULL);
    }
    if (st == RD_OK) {
      st = rd_deckOrigin(dk, map, RD_OBJ_TIMEFN, idx);
    }
  }
  rd_free(dk->ctx, t);
  rd_free(dk->ctx, y);
  return st;
}


int rd_deckReadTimeFns(rdDeck* dk, struct fy_node* root) {
  return rd_deckEach(dk, root, "time_functions", read_timefn);
}
