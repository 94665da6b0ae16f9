// SPDX-License-Identifier: MIT
// Compile a spec into an immutable model: copy, resolve, validate, number DOFs and multipliers.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "solver/stepper.h"
#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/model/model_impl.h"

#define ITEM(vec, type, i) (((const type*)(vec).items)[i])

// raise RD_ERR_MODEL with the object's origin as prefix
static int fail(rdContext* ctx, const char* origin, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(rdContext* ctx, const char* origin, const char* fmt, ...) {
  char msg[RD_ERRLEN - 256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (origin && *origin) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "%s: %s", origin, msg);
  }
  return RD_ERROR(ctx, RD_ERR_MODEL, "%s", msg);
}


// 0 if the 3x3 matrix is symmetric (relative tolerance) and positive definite
static const char* check_spd3(const double J[9]) {
  double scale = fabs(J[0]) + fabs(J[4]) + fabs(J[8]);
  for (int i = 0; i < 3; i++) {
    for (int j = i + 1; j < 3; j++) {
      if (fabs(J[3 * i + j] - J[3 * j + i]) > 1e-12 * scale + 1e-300) {
        return "is not symmetric";
      }
    }
  }
  double inv[9];
  if (m3_spdInverse(inv, J)) {
    return "is not positive definite";
  }
  return NULL;
}


// 0 if the 6x6 matrix is symmetric positive semi-definite (eigenvalues >= -1e-12 max)
static const char* check_spsd6(const double K[36]) {
  double scale = 0;
  for (int i = 0; i < 6; i++) {
    scale = fmax(scale, fabs(K[7 * i]));
    for (int j = i + 1; j < 6; j++) {
      scale = fmax(scale, fabs(K[6 * i + j]));
    }
  }
  for (int i = 0; i < 6; i++) {
    for (int j = i + 1; j < 6; j++) {
      if (fabs(K[6 * i + j] - K[6 * j + i]) > 1e-12 * scale) {
        return "is not symmetric";
      }
    }
  }
  // LDL^T without pivoting on a copy, with a tolerance for semi-definiteness
  double a[36];
  memcpy(a, K, sizeof(a));
  double tol = 1e-12 * (scale > 0 ? scale : 1);
  for (int k = 0; k < 6; k++) {
    double d = a[7 * k];
    if (d < -tol) {
      return "is not positive semi-definite";
    }
    if (d <= tol) {
      for (int j = k + 1; j < 6; j++) {
        if (fabs(a[6 * j + k]) > 1e-8 * (scale > 0 ? scale : 1)) {
          return "is not positive semi-definite";
        }
      }
      continue;
    }
    for (int i = k + 1; i < 6; i++) {
      double l = a[6 * i + k] / d;
      for (int j = k + 1; j < 6; j++) {
        a[6 * i + j] -= l * a[6 * k + j];
      }
    }
  }
  return NULL;
}


// a model-owned copy of an object's origin ("" if none); NULL when out of memory
static const char* dup_origin(rdModel* m, const rdSpec* s, rdObjKind kind, int i) {
  return rd_strdup(m->ctx, rd_specOrigin(s, kind, i));
}


static int node_ref_ok(const rdModel* m, int node, int allow_ground) {
  return (node >= 0 && node < m->nnode) || (allow_ground && node == RD_GROUND);
}


static const char* node_label(const rdModel* m, int node) {
  return node == RD_GROUND ? "ground" : m->node_name[node];
}


static int compile_nodes(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->nodes.count;
  m->nnode = n;
  m->node_name = rd_calloc(ctx, (size_t)n + 1, sizeof(char*));
  m->node_origin = rd_calloc(ctx, (size_t)n + 1, sizeof(char*));
  m->node_kind = rd_calloc(ctx, (size_t)n + 1, sizeof(int));
  m->node_dof = rd_calloc(ctx, (size_t)n + 1, sizeof(int));
  m->node_q0 = rd_calloc(ctx, 7 * (size_t)n + 1, sizeof(double));
  m->node_v0 = rd_calloc(ctx, 6 * (size_t)n + 1, sizeof(double));
  if (!m->node_name || !m->node_origin || !m->node_kind || !m->node_dof || !m->node_q0 ||
      !m->node_v0) {
    return RD_ERR_NOMEM;
  }
  int dof = 0;
  for (int i = 0; i < n; i++) {
    const rdNodeDef* d = &ITEM(s->nodes, rdNodeDef, i);
    m->node_name[i] = rd_strdup(ctx, d->name);
    if (!m->node_name[i]) {
      return RD_ERR_NOMEM;
    }
    m->node_origin[i] = dup_origin(m, s, RD_OBJ_NODE, i);
    if (!m->node_origin[i]) {
      return RD_ERR_NOMEM;
    }
    m->node_kind[i] = d->kind;
    m->node_dof[i] = dof;
    dof += d->kind == RD_NODE_RIGID ? 6 : 3;
    double* q = m->node_q0 + 7 * i;
    v3_copy(q, d->position);
    memcpy(q + 3, d->orientation, 4 * sizeof(double));
    double* v = m->node_v0 + 6 * i;
    v3_copy(v, d->velocity);
    if (d->kind == RD_NODE_POINT) {
      q[3] = 1;
      q[4] = q[5] = q[6] = 0;
      if (v3_norm(d->angular_velocity) > 0) {
        return fail(ctx, m->node_origin[i], "node '%s': a point node has no angular velocity",
                    d->name);
      }
    } else if (d->angular_velocity_frame == RD_FRAME_GLOBAL) {
      rdu_quatRotateInv(v + 3, q + 3, d->angular_velocity);
    } else {
      v3_copy(v + 3, d->angular_velocity);
    }
  }
  m->ndof = dof;
  // names are unique (the spec refuses duplicates), so the index holds each node
  if (rd_nameIndexReserve(ctx, &m->node_index, n) < 0) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    rd_nameIndexPut(ctx, &m->node_index, m->node_name[i], i);
  }
  return RD_OK;
}


static int compile_timefns(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->timefns.count;
  m->ntimefn = n;
  m->timefn = rd_calloc(ctx, (size_t)n + 1, sizeof(rdTimeFn));
  m->timefn_name = rd_calloc(ctx, (size_t)n + 1, sizeof(char*));
  if (!m->timefn || !m->timefn_name) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    const rdTimeFnDef* d = &ITEM(s->timefns, rdTimeFnDef, i);
    rdTimeFn* f = &m->timefn[i];
    m->timefn_name[i] = rd_strdup(ctx, d->name);
    if (!m->timefn_name[i]) {
      return RD_ERR_NOMEM;
    }
    f->type = d->type;
    f->value = d->value;
    f->callback = d->callback;
    f->user = d->user;
    if (d->type == RD_TIMEFN_STEPS || d->type == RD_TIMEFN_LINEAR) {
      f->t = rd_alloc(ctx, sizeof(double) * (size_t)d->npoint);
      f->y = rd_alloc(ctx, sizeof(double) * (size_t)d->npoint);
      if (!f->t || !f->y) {
        return RD_ERR_NOMEM;
      }
      memcpy(f->t, d->t, sizeof(double) * (size_t)d->npoint);
      memcpy(f->y, d->y, sizeof(double) * (size_t)d->npoint);
      f->npoint = d->npoint;
    }
    if (d->type == RD_TIMEFN_EXPRESSION) {
      f->expr = rd_calloc(ctx, 1, sizeof(rdExpr));
      if (!f->expr) {
        return RD_ERR_NOMEM;
      }
      char owner[256];
      snprintf(owner, sizeof(owner), "time function '%s'", d->name);
      int st = rd_exprCreate(ctx, f->expr, d->expression, "t", owner);
      if (st < 0) {
        return st;
      }
    }
  }
  return RD_OK;
}


static int check_timefn(const rdModel* m, int k, const char* origin, const char* what,
                        const char* name) {
  if (k != RD_NO_TIMEFN && (k < 0 || k >= m->ntimefn)) {
    return fail(m->ctx, origin, "%s '%s': time function index %d out of range", what, name, k);
  }
  return RD_OK;
}


static int compile_element(rdModel* m, rdElement* e) {
  rdContext* ctx = m->ctx;
  const char* o = e->origin;
  const char* why;
  switch (e->def.type) {
    case RD_ELEM_RIGID_BODY: {
      const rdRigidBodyDef* b = &e->def.u.body;
      if (!node_ref_ok(m, b->node, 0)) {
        return fail(ctx, o, "rigid body '%s': undefined node (index %d)", b->name, b->node);
      }
      if (m->node_kind[b->node] != RD_NODE_RIGID) {
        return fail(ctx, o, "rigid body '%s': node '%s' is a point node (needs rotation)", b->name,
                    m->node_name[b->node]);
      }
      if (!(b->mass > 0)) {
        return fail(ctx, o, "rigid body '%s': mass must be > 0, got %g", b->name, b->mass);
      }
      if ((why = check_spd3(b->inertia))) {
        return fail(ctx, o, "rigid body '%s': inertia %s", b->name, why);
      }
      m->nbody++;
      return RD_OK;
    }
    case RD_ELEM_POINT_MASS: {
      const rdPointMassDef* p = &e->def.u.mass;
      if (!node_ref_ok(m, p->node, 0)) {
        return fail(ctx, o, "point mass '%s': undefined node (index %d)", p->name, p->node);
      }
      if (!(p->mass > 0)) {
        return fail(ctx, o, "point mass '%s': mass must be > 0, got %g", p->name, p->mass);
      }
      return RD_OK;
    }
    case RD_ELEM_SPRING: {
      rdSpringDef* sp = &e->def.u.spring;
      if (!node_ref_ok(m, sp->node[0], 0) || !node_ref_ok(m, sp->node[1], 1)) {
        return fail(ctx, o, "spring '%s': undefined node", sp->name);
      }
      if (sp->node[0] == sp->node[1]) {
        return fail(ctx, o, "spring '%s': both ends on node '%s'", sp->name,
                    m->node_name[sp->node[0]]);
      }
      if (sp->stiffness[0] < 0 || sp->damping < 0) {
        return fail(ctx, o, "spring '%s': stiffness k1 and damping must be >= 0", sp->name);
      }
      double xb[3], d[3];
      if (sp->node[1] == RD_GROUND) {
        v3_copy(xb, sp->anchor);
      } else {
        v3_copy(xb, m->node_q0 + 7 * sp->node[1]);
      }
      v3_sub(d, xb, m->node_q0 + 7 * sp->node[0]);
      if (sp->rest_length < 0) {
        sp->rest_length = v3_norm(d);
      }
      if (v3_norm(d) == 0 && sp->rest_length == 0 && sp->stiffness[0] == 0) {
        return fail(ctx, o, "spring '%s': zero length and no stiffness", sp->name);
      }
      return RD_OK;
    }
    case RD_ELEM_BUSHING: {
      const rdBushingDef* bu = &e->def.u.bushing;
      if (!node_ref_ok(m, bu->node[0], 0) || !node_ref_ok(m, bu->node[1], 1)) {
        return fail(ctx, o, "bushing '%s': undefined node", bu->name);
      }
      for (int k = 0; k < 2; k++) {
        if (bu->node[k] >= 0 && m->node_kind[bu->node[k]] != RD_NODE_RIGID) {
          return fail(ctx, o, "bushing '%s': node '%s' is a point node", bu->name,
                      m->node_name[bu->node[k]]);
        }
      }
      if (bu->node[0] == bu->node[1]) {
        return fail(ctx, o, "bushing '%s': both ends on one node", bu->name);
      }
      if ((why = check_spsd6(bu->stiffness))) {
        return fail(ctx, o, "bushing '%s': stiffness %s", bu->name, why);
      }
      if ((why = check_spsd6(bu->damping))) {
        return fail(ctx, o, "bushing '%s': damping %s", bu->name, why);
      }
      return RD_OK;
    }
    default:
      return fail(ctx, o, "unknown element type %d", e->def.type);
  }
}


static int compile_elements(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->elems.count;
  m->nelem = n;
  m->elem = rd_calloc(ctx, (size_t)n + 1, sizeof(rdElement));
  if (!m->elem) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    rdElement* e = &m->elem[i];
    e->def = ITEM(s->elems, rdElemDef, i);
    e->origin = dup_origin(m, s, RD_OBJ_ELEMENT, i);
    // the name is re-owned by the model: copy it first, so cleanup is uniform
    const char* nm = rd_elemDefName(&e->def);
    char* copy = rd_strdup(ctx, nm);
    if (!copy || !e->origin) {
      rd_free(ctx, copy);
      e->def.type = -1;
      return RD_ERR_NOMEM;
    }
    switch (e->def.type) {
      case RD_ELEM_RIGID_BODY:
        e->def.u.body.name = copy;
        break;
      case RD_ELEM_POINT_MASS:
        e->def.u.mass.name = copy;
        break;
      case RD_ELEM_SPRING:
        e->def.u.spring.name = copy;
        break;
      default:
        e->def.u.bushing.name = copy;
        break;
    }
    int st = compile_element(m, e);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


// number of constraint equations of a joint; -1 if the node kinds do not fit
static int joint_rows(const rdModel* m, const rdJointDef* d) {
  int point = m->node_kind[d->node[0]] == RD_NODE_POINT ||
              (d->node[1] >= 0 && m->node_kind[d->node[1]] == RD_NODE_POINT);
  switch (d->type) {
    case RD_JOINT_SPHERICAL:
      return 3;
    case RD_JOINT_PRESCRIBED:
    case RD_JOINT_FIXED:
      return m->node_kind[d->node[0]] == RD_NODE_POINT ? 3 : 6;
    case RD_JOINT_RIGID:
    case RD_JOINT_ROTATION_CONTROL:
      return point ? -1 : 6;
    case RD_JOINT_REVOLUTE:
      // a prescribed angle adds the 6th equation
      return point ? -1 : d->angle_fn != RD_NO_TIMEFN ? 6 : 5;
    case RD_JOINT_PRISMATIC:
      return point ? -1 : 5;
    case RD_JOINT_UNIVERSAL:
    case RD_JOINT_CYLINDRICAL:
      return point ? -1 : 4;
    case RD_JOINT_PLANAR:
      return point ? -1 : 3;
    default:
      return -1;
  }
}


static int compile_joints(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->joints.count;
  m->njoint = n;
  m->joint = rd_calloc(ctx, (size_t)n + 1, sizeof(rdJoint));
  if (!m->joint) {
    return RD_ERR_NOMEM;
  }
  int row = 0;
  for (int i = 0; i < n; i++) {
    rdJoint* j = &m->joint[i];
    j->def = ITEM(s->joints, rdJointDef, i);
    j->def.name = rd_strdup(ctx, j->def.name);
    j->origin = dup_origin(m, s, RD_OBJ_JOINT, i);
    if (!j->def.name || !j->origin) {
      return RD_ERR_NOMEM;
    }
    rdJointDef* d = &j->def;
    const char* o = j->origin;
    if (!node_ref_ok(m, d->node[0], 0) || !node_ref_ok(m, d->node[1], 1)) {
      return fail(ctx, o, "joint '%s': undefined node", d->name);
    }
    if (d->node[0] == d->node[1]) {
      return fail(ctx, o, "joint '%s': connects node '%s' to itself", d->name,
                  node_label(m, d->node[0]));
    }
    int needs_axis = d->type == RD_JOINT_REVOLUTE || d->type == RD_JOINT_UNIVERSAL ||
                     d->type == RD_JOINT_PRISMATIC || d->type == RD_JOINT_CYLINDRICAL ||
                     d->type == RD_JOINT_PLANAR || d->type == RD_JOINT_ROTATION_CONTROL;
    if (needs_axis) {
      double len = v3_norm(d->axis);
      if (!(len > 1e-12)) {
        return fail(ctx, o, "joint '%s': axis has zero length", d->name);
      }
      v3_scale(d->axis, d->axis, 1 / len);
    }
    if (d->type == RD_JOINT_UNIVERSAL) {
      double len = v3_norm(d->axis2);
      if (!(len > 1e-12)) {
        return fail(ctx, o, "joint '%s': axis2 has zero length", d->name);
      }
      v3_scale(d->axis2, d->axis2, 1 / len);
      if (fabs(v3_dot(d->axis, d->axis2)) > 1e-6) {
        return fail(ctx, o, "joint '%s': universal axes must be perpendicular", d->name);
      }
    }
    int st = check_timefn(m, d->angle_fn, o, "joint", d->name);
    st = st ? st : check_timefn(m, d->torque_fn, o, "joint", d->name);
    for (int k = 0; k < 6 && !st; k++) {
      st = check_timefn(m, d->motion_fn[k], o, "joint", d->name);
    }
    if (st < 0) {
      return st;
    }
    j->nrow = joint_rows(m, d);
    if (j->nrow < 0) {
      return fail(ctx, o, "joint '%s': needs rigid nodes (position and rotation)", d->name);
    }
    j->row = row;
    row += j->nrow;
  }
  m->nconstraint = row;
  return RD_OK;
}


static int compile_loads(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  m->nload = s->loads.count;
  m->load = rd_calloc(ctx, (size_t)m->nload + 1, sizeof(rdLoad));
  if (!m->load) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nload; i++) {
    rdLoad* l = &m->load[i];
    l->def = ITEM(s->loads, rdLoadDef, i);
    l->def.name = rd_strdup(ctx, l->def.name);
    l->origin = dup_origin(m, s, RD_OBJ_LOAD, i);
    if (!l->def.name || !l->origin) {
      return RD_ERR_NOMEM;
    }
    if (!node_ref_ok(m, l->def.node, 0)) {
      return fail(ctx, l->origin, "load '%s': undefined node", l->def.name);
    }
    int point = m->node_kind[l->def.node] == RD_NODE_POINT;
    if (point && (l->def.kind == RD_LOAD_MOMENT || l->def.frame == RD_FRAME_BODY)) {
      return fail(ctx, l->origin,
                  "load '%s': node '%s' is a point node (no moments, no body frame)", l->def.name,
                  m->node_name[l->def.node]);
    }
    int st = check_timefn(m, l->def.timefn, l->origin, "load", l->def.name);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


static int compile_torques(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  m->ntorque = s->torques.count;
  m->torque = rd_calloc(ctx, (size_t)m->ntorque + 1, sizeof(rdTorqueLaw));
  if (!m->torque) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->ntorque; i++) {
    rdTorqueLaw* tl = &m->torque[i];
    tl->def = ITEM(s->torques, rdTorqueLawDef, i);
    tl->def.name = rd_strdup(ctx, tl->def.name);
    for (int k = 0; k < 3; k++) {
      tl->def.expression[k] = NULL;  // not kept: compiled below
    }
    tl->origin = dup_origin(m, s, RD_OBJ_TORQUE, i);
    if (!tl->def.name || !tl->origin) {
      return RD_ERR_NOMEM;
    }
    if (!node_ref_ok(m, tl->def.node, 0) || m->node_kind[tl->def.node] != RD_NODE_RIGID) {
      return fail(ctx, tl->origin, "torque law '%s': needs a rigid node", tl->def.name);
    }
    if (tl->def.type == RD_TORQUE_EXPRESSION) {
      tl->expr = rd_calloc(ctx, 3, sizeof(rdExpr));
      if (!tl->expr) {
        return RD_ERR_NOMEM;
      }
      const rdTorqueLawDef* sd = &ITEM(s->torques, rdTorqueLawDef, i);
      for (int k = 0; k < 3; k++) {
        char owner[256];
        snprintf(owner, sizeof(owner), "torque law '%s' component %d", tl->def.name, k + 1);
        int st = rd_exprCreate(ctx, &tl->expr[k], sd->expression[k],
                               "t r11 r12 r13 r21 r22 r23 r31 r32 r33 w1 w2 w3 W1 W2 W3", owner);
        if (st < 0) {
          return st;
        }
      }
    }
  }
  return RD_OK;
}


static int compile_callbacks(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->callbacks.count;
  m->ncallback = n;
  m->callback = rd_calloc(ctx, (size_t)n + 1, sizeof(rdLoadCallbackDef));
  if (!m->callback) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    const rdLoadCallbackDef* d = &ITEM(s->callbacks, rdLoadCallbackDef, i);
    rdLoadCallbackDef* c = &m->callback[i];
    *c = *d;
    c->name = rd_strdup(ctx, d->name);
    int* nodes = rd_alloc(ctx, sizeof(int) * (size_t)d->nnode);
    c->nodes = nodes;
    if (!c->name || !nodes) {
      return RD_ERR_NOMEM;
    }
    for (int k = 0; k < d->nnode; k++) {
      nodes[k] = d->nodes[k];
      if (!node_ref_ok(m, nodes[k], 0)) {
        return fail(ctx, "", "load callback '%s': undefined node (index %d)", d->name, nodes[k]);
      }
    }
    if (d->nnode > m->callback_maxnode) {
      m->callback_maxnode = d->nnode;
    }
    if (d->jacobian && d->nnode > m->jac_maxnode) {
      m->jac_maxnode = d->nnode;
    }
  }
  return RD_OK;
}


static int compile_users(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->users.count;
  m->nuser = n;
  m->user = rd_calloc(ctx, (size_t)n + 1, sizeof(rdUserElementDef));
  if (!m->user) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    const rdUserElementDef* d = &ITEM(s->users, rdUserElementDef, i);
    rdUserElementDef* u = &m->user[i];
    *u = *d;
    u->name = rd_strdup(ctx, d->name);
    int* nodes = rd_alloc(ctx, sizeof(int) * (size_t)d->nnode);
    u->nodes = nodes;
    if (!u->name || !nodes) {
      return RD_ERR_NOMEM;
    }
    for (int k = 0; k < d->nnode; k++) {
      nodes[k] = d->nodes[k];
      if (!node_ref_ok(m, nodes[k], 0)) {
        return fail(ctx, "", "user element '%s': undefined node (index %d)", d->name, nodes[k]);
      }
    }
    if (d->nnode > m->user_maxnode) {
      m->user_maxnode = d->nnode;
    }
    if (d->nnode > m->jac_maxnode) {
      m->jac_maxnode = d->nnode;
    }
  }
  return RD_OK;
}


// the checks of one beam definition that need the model; RD_OK or RD_ERR_MODEL
static int check_beam(const rdModel* m, const rdBeamDef* d, const char* o) {
  rdContext* ctx = m->ctx;
  const char* nm = d->name;
  const char* why;
  if (d->nnode < 2 || d->nnode > RD_BEAM_MAX_NODES) {
    return fail(ctx, o, "beam '%s': %d nodes; an element has 2 .. %d (order 1 .. %d)", nm, d->nnode,
                RD_BEAM_MAX_NODES, RD_BEAM_MAX_NODES - 1);
  }
  double scale = 0;
  for (int k = 0; k < d->nnode; k++) {
    int nd = d->nodes[k];
    if (!node_ref_ok(m, nd, 0)) {
      return fail(ctx, o, "beam '%s': undefined node (index %d)", nm, nd);
    }
    if (m->node_kind[nd] != RD_NODE_RIGID) {
      return fail(ctx, o, "beam '%s': node '%s' is a point node (a beam needs rigid nodes)", nm,
                  m->node_name[nd]);
    }
    for (int j = 0; j < k; j++) {
      if (d->nodes[j] == nd) {
        return fail(ctx, o, "beam '%s': node '%s' appears twice", nm, m->node_name[nd]);
      }
    }
    scale = fmax(scale, v3_norm(m->node_q0 + 7 * nd));
  }
  for (int k = 1; k < d->nnode; k++) {
    double dx[3];
    v3_sub(dx, m->node_q0 + 7 * d->nodes[k], m->node_q0 + 7 * d->nodes[k - 1]);
    if (!(v3_norm(dx) > 1e-12 * (scale > 0 ? scale : 1))) {
      return fail(ctx, o, "beam '%s': nodes '%s' and '%s' are at the same position (zero length)",
                  nm, m->node_name[d->nodes[k - 1]], m->node_name[d->nodes[k]]);
    }
  }
  if (!(d->span[0] >= 0 && d->span[1] > d->span[0] && d->span[1] <= 1)) {
    return fail(ctx, o, "beam '%s': span [%g, %g] must satisfy 0 <= span[0] < span[1] <= 1", nm,
                d->span[0], d->span[1]);
  }
  int ns = d->nstation;
  for (int i = 0; i < ns; i++) {
    double s = d->station[i];
    if (!(s >= 0 && s <= 1)) {
      return fail(ctx, o, "beam '%s': station %d: s = %g is outside [0, 1]", nm, i + 1, s);
    }
    if (i > 0 && !(s > d->station[i - 1])) {
      return fail(ctx, o,
                  "beam '%s': station %d: s = %g does not follow s = %g (stations must "
                  "increase)",
                  nm, i + 1, s, d->station[i - 1]);
    }
  }
  if (ns > 1 && (d->station[0] != 0 || d->station[ns - 1] != 1)) {
    return fail(ctx, o, "beam '%s': the stations must run from s = 0 to s = 1 (got %g .. %g)", nm,
                d->station[0], d->station[ns - 1]);
  }
  for (int i = 0; i < ns; i++) {
    if ((why = rd_beamMatrixDefect(d->stiffness + 36 * i))) {
      return fail(ctx, o, "beam '%s': station %d (s = %g): stiffness %s", nm, i + 1, d->station[i],
                  why);
    }
    if ((why = rd_beamMatrixDefect(d->mass + 36 * i))) {
      return fail(ctx, o, "beam '%s': station %d (s = %g): mass %s", nm, i + 1, d->station[i], why);
    }
  }
  for (int k = 0; k < 6; k++) {
    if (d->damping[k] < 0) {
      return fail(ctx, o, "beam '%s': damping factor %d is negative (%g)", nm, k + 1,
                  d->damping[k]);
    }
  }
  return check_timefn(m, d->timefn, o, "beam", nm);
}


// the kernel object of a checked beam definition
static int create_beam(rdModel* m, const rdBeamDef* d, const char* o, struct rdBeam_** out) {
  rdContext* ctx = m->ctx;
  double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES];
  for (int k = 0; k < d->nnode; k++) {
    const double* q = m->node_q0 + 7 * d->nodes[k];
    v3_copy(x0 + 3 * k, q);
    memcpy(q0 + 4 * k, q + 3, 4 * sizeof(double));
  }
  rdBeamSection sec = {d->nstation, d->station, d->stiffness, d->mass, {0}};
  memcpy(sec.mu, d->damping, sizeof(sec.mu));
  rdBeamElemDef ed = {
      d->nnode,
      d->nodes,
      x0,
      q0,
      &sec,
      d->span[0],
      d->span[1],
      (rdBeamQuad)d->quadrature,
      d->rotation_field == RD_BEAM_ROTATION_DISPLACEMENT ? RD_BEAM_FIELD_DISPLACEMENT
                                                         : RD_BEAM_FIELD_TOTAL,
      d->virtual_rotation == RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED ? RD_BEAM_VIRTUAL_INTERPOLATED
                                                                   : RD_BEAM_VIRTUAL_FIELD,
      d->extension_twist};
  int st = rd_createBeam(ctx, &ed, out);
  if (st == RD_ERR_NOMEM || st >= 0) {
    return st;
  }
  char msg[RD_ERRLEN / 2];
  const char* e = rd_lastError(ctx);
  snprintf(msg, sizeof(msg), "%s", strncmp(e, "beam: ", 6) ? e : e + 6);
  return fail(ctx, o, "beam '%s': %s", d->name, msg);
}


static int compile_beams(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->beams.count;
  m->nbeam = n;
  m->beam = rd_calloc(ctx, (size_t)n + 1, sizeof(rdModelBeam));
  if (!m->beam) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    const rdBeamDef* d = &ITEM(s->beams, rdBeamDef, i);
    rdModelBeam* b = &m->beam[i];
    b->def = *d;
    b->def.station = b->def.stiffness = b->def.mass = NULL;  // kept by the kernel, not here
    b->def.name = rd_strdup(ctx, d->name);
    int* nodes = rd_alloc(ctx, sizeof(int) * (size_t)d->nnode);
    b->def.nodes = nodes;
    b->origin = dup_origin(m, s, RD_OBJ_BEAM, i);
    if (!b->def.name || !nodes || !b->origin) {
      return RD_ERR_NOMEM;
    }
    memcpy(nodes, d->nodes, sizeof(int) * (size_t)d->nnode);
    int st = check_beam(m, d, b->origin);
    st = st < 0 ? st : create_beam(m, d, b->origin, &b->kernel);
    if (st < 0) {
      return st;
    }
    size_t nd = 6 * (size_t)d->nnode;
    // rd_assembleBeamScratch
    size_t need = nd + nd * nd + 9 * (size_t)d->nnode + rd_beamWorkSize(b->kernel);
    if (need > m->beam_work) {
      m->beam_work = need;
    }
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// rigid subsystems (mixed stepping, docs/mixed.md): what the partition can integrate

static const char* sub_name(const rdModel* m, int node) {
  return m->sub[m->node_sub[node]].name;
}


// an element, user element or load callback touching nodes[0..n) may lie within one subsystem
// and the flexible part, not across two subsystems
static int check_across(const rdModel* m, const char* o, const char* what, const char* name,
                        const int* nodes, int n) {
  int first = -1;
  for (int k = 0; k < n; k++) {
    int s = nodes[k] >= 0 ? m->node_sub[nodes[k]] : -1;
    if (s >= 0 && first >= 0 && s != m->node_sub[nodes[first]]) {
      return fail(m->ctx, o,
                  "%s '%s' ties subsystems '%s' (node '%s') and '%s' (node '%s'): put their "
                  "bodies in one subsystem",
                  what, name, sub_name(m, nodes[first]), m->node_name[nodes[first]],
                  sub_name(m, nodes[k]), m->node_name[nodes[k]]);
    }
    if (s >= 0 && first < 0) {
      first = k;
    }
  }
  return RD_OK;
}


static int check_sub_elements(const rdModel* m) {
  int* body = rd_alloc(m->ctx, sizeof(int) * ((size_t)m->nnode + 1));
  if (!body) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nnode; i++) {
    body[i] = -1;
  }
  int st = RD_OK;
  for (int e = 0; e < m->nelem && st == RD_OK; e++) {
    const rdElemDef* d = &m->elem[e].def;
    const char* o = m->elem[e].origin;
    if (d->type == RD_ELEM_RIGID_BODY) {
      int n = d->u.body.node;
      if (m->node_sub[n] >= 0 && body[n] >= 0) {
        st =
            fail(m->ctx, o,
                 "rigid bodies '%s' and '%s' share node '%s' of subsystem '%s' (one "
                 "body per node)",
                 m->elem[body[n]].def.u.body.name, d->u.body.name, m->node_name[n], sub_name(m, n));
      }
      body[n] = e;
    } else if (d->type == RD_ELEM_POINT_MASS && m->node_sub[d->u.mass.node] >= 0) {
      st = fail(m->ctx, o,
                "point mass '%s' is on node '%s' of subsystem '%s': a subsystem holds rigid "
                "bodies only (put the mass into the body's mass and inertia)",
                d->u.mass.name, m->node_name[d->u.mass.node], sub_name(m, d->u.mass.node));
    } else if (d->type == RD_ELEM_SPRING || d->type == RD_ELEM_BUSHING) {
      const int* nd = d->type == RD_ELEM_SPRING ? d->u.spring.node : d->u.bushing.node;
      st = check_across(m, o, d->type == RD_ELEM_SPRING ? "spring" : "bushing", rd_elemDefName(d),
                        nd, 2);
    }
  }
  for (int k = 0; k < m->nsub && st == RD_OK; k++) {
    const rdSubsystem* b = &m->sub[k];
    for (int i = 0; i < b->nbody && st == RD_OK; i++) {
      if (body[b->node[i]] < 0) {
        st = fail(m->ctx, b->origin, "subsystem '%s': node '%s' carries no rigid body", b->name,
                  m->node_name[b->node[i]]);
      }
    }
  }
  rd_free(m->ctx, body);
  for (int i = 0; i < m->nbeam && st == RD_OK; i++) {
    const rdBeamDef* d = &m->beam[i].def;
    for (int k = 0; k < d->nnode && st == RD_OK; k++) {
      if (m->node_sub[d->nodes[k]] >= 0) {
        st = fail(m->ctx, m->beam[i].origin,
                  "beam '%s': node '%s' is in subsystem '%s' (a subsystem holds rigid bodies "
                  "only; tie the body to the beam with a joint or a bushing)",
                  d->name, m->node_name[d->nodes[k]], sub_name(m, d->nodes[k]));
      }
    }
  }
  for (int i = 0; i < m->nuser && st == RD_OK; i++) {
    st = check_across(m, "", "user element", m->user[i].name, m->user[i].nodes, m->user[i].nnode);
  }
  for (int i = 0; i < m->ncallback && st == RD_OK; i++) {
    st = check_across(m, "", "load callback", m->callback[i].name, m->callback[i].nodes,
                      m->callback[i].nnode);
  }
  return st;
}


// the position of x relative to the size of the model's coordinates
static double distance_rel(const double a[3], const double b[3]) {
  double d[3];
  v3_sub(d, a, b);
  return v3_norm(d) / fmax(1, fmax(v3_norm(a), v3_norm(b)));
}


static const char* const joint_names[] = {
    "fixed",     "rigid",       "spherical", "revolute",   "universal",
    "prismatic", "cylindrical", "planar",    "prescribed", "rotation_control"};


// 1 if a body on a revolute joint to the flexible part may take `method`: those whose form on
// the one-parameter subgroup of the joint's rotation is velocity Verlet (docs/mixed.md)
static int revolute_method(int method) {
  return method == RD_METHOD_NMB || method == RD_METHOD_NMS || method == RD_METHOD_SW ||
         method == RD_METHOD_LIEMID_EA;
}


// a revolute joint j on the body on node `body` of subsystem b, to node `other`: to a node of the
// flexible part, no prescribed angle, a method that integrates it
static int check_revolute(rdModel* m, int j, const rdSubsystem* b, int body, int other) {
  const rdJointDef* d = &m->joint[j].def;
  const char* o = m->joint[j].origin;
  // (the joint's own check wants nodes with rotations)
  if (other < 0) {
    return fail(m->ctx, o,
                "joint '%s' (revolute) holds node '%s' of subsystem '%s' to the ground: a "
                "revolute joint on a subsystem body must tie it to a node of the flexible part "
                "(leave the body out of the subsystem)",
                d->name, m->node_name[body], b->name);
  }
  if (d->angle_fn != RD_NO_TIMEFN) {
    return fail(m->ctx, o,
                "joint '%s' (revolute) prescribes the angle of the body on node '%s' of subsystem "
                "'%s': this joint leaves the body no motion of its own: leave it out of the "
                "subsystem, generalized-alpha carries it",
                d->name, m->node_name[body], b->name);
  }
  if (!revolute_method(b->method)) {
    return fail(m->ctx, o,
                "joint '%s' (revolute) holds node '%s' of subsystem '%s', whose method '%s' "
                "does not integrate a body on a revolute joint (nmb, nms, sw or liemid_ea do)",
                d->name, m->node_name[body], b->name, rd_methodName(b->method));
  }
  return RD_OK;
}


// joints on subsystem nodes: a spherical joint to the ground (a fixed pivot) or to a node of the
// flexible part at the joint point (a pivot that moves with it), or a revolute joint to a node
// of the flexible part with rotations (the body turns about the axis); one per body, and a
// subsystem with a body on a revolute joint has no other kind of body
static int check_sub_joints(rdModel* m) {
  for (int j = 0; j < m->njoint; j++) {
    const rdJointDef* d = &m->joint[j].def;
    const char* o = m->joint[j].origin;
    int s0 = m->node_sub[d->node[0]], s1 = d->node[1] >= 0 ? m->node_sub[d->node[1]] : -1;
    if (s0 < 0 && s1 < 0) {
      continue;
    }
    int a = s0 >= 0 ? 0 : 1;  // the end on the body
    int body = d->node[a], other = d->node[1 - a];
    const rdSubsystem* b = &m->sub[m->node_sub[body]];
    if (d->type != RD_JOINT_SPHERICAL && d->type != RD_JOINT_REVOLUTE) {
      return fail(
          m->ctx, o,
          "joint '%s' (%s) holds node '%s' of subsystem '%s': the bodies of a subsystem "
          "take only spherical joints, to the ground or to a node of the flexible part, and "
          "revolute joints to a node of the flexible part%s",
          d->name, d->type >= 0 && d->type < RD_JOINT_COUNT ? joint_names[d->type] : "?",
          m->node_name[body], b->name,
          d->type == RD_JOINT_FIXED || d->type == RD_JOINT_RIGID || d->type == RD_JOINT_PRESCRIBED
              ? " (this joint leaves the body no motion of its own: leave it out of the "
                "subsystem, generalized-alpha carries it)"
              : " (leave the body out of the subsystem)");
    }
    if (s0 >= 0 && s1 >= 0) {
      return fail(m->ctx, o,
                  "joint '%s' ties the bodies on nodes '%s' and '%s' (subsystem%s '%s'%s%s%s): "
                  "the rigid methods integrate no joints between bodies (leave the bodies to "
                  "generalized-alpha)",
                  d->name, m->node_name[d->node[0]], m->node_name[d->node[1]], s0 == s1 ? "" : "s",
                  m->sub[s0].name, s0 == s1 ? "" : " and '", s0 == s1 ? "" : m->sub[s1].name,
                  s0 == s1 ? "" : "'");
    }
    if (d->type == RD_JOINT_REVOLUTE) {
      int st = check_revolute(m, j, b, body, other);
      if (st != RD_OK) {
        return st;
      }
    }
    int k = 0;
    while (b->node[k] != body) {
      k++;
    }
    if (b->pivot[k] >= 0) {
      return fail(m->ctx, o,
                  "joints '%s' and '%s' both pin the body on node '%s' of subsystem '%s' (one "
                  "pivot per body)",
                  m->joint[b->pivot[k]].def.name, d->name, m->node_name[body], b->name);
    }
    if (other >= 0) {
      const double* x = m->node_q0 + 7 * other;
      if (distance_rel(x, d->point) > 1e-9) {
        double dx[3];
        v3_sub(dx, x, d->point);
        return fail(m->ctx, o,
                    "joint '%s': the pivot of the body on node '%s' (subsystem '%s') must be at "
                    "node '%s' of the flexible part, which is %g m from the joint point: put a "
                    "node at the pivot",
                    d->name, m->node_name[body], b->name, m->node_name[other], v3_norm(dx));
      }
    }
    b->pivot[k] = j;
    b->anchor[k] = other;
  }
  for (int k = 0; k < m->nsub; k++) {
    const rdSubsystem* b = &m->sub[k];
    int nrev = 0, other = -1;
    for (int i = 0; i < b->nbody; i++) {
      int rev = b->pivot[i] >= 0 && m->joint[b->pivot[i]].def.type == RD_JOINT_REVOLUTE;
      nrev += rev;
      other = rev ? other : i;
    }
    if (nrev > 0 && other >= 0) {
      return fail(m->ctx, b->origin,
                  "subsystem '%s': the body on node '%s' is not on a revolute joint, others are "
                  "(a subsystem of bodies on revolute joints holds no other kind of body: put it "
                  "in a subsystem of its own)",
                  b->name, m->node_name[b->node[other]]);
    }
  }
  return RD_OK;
}


static int compile_subsystems(const rdSpec* s, rdModel* m) {
  rdContext* ctx = m->ctx;
  int n = s->subsystems.count;
  m->nsub = n;
  m->sub = rd_calloc(ctx, (size_t)n + 1, sizeof(rdSubsystem));
  m->node_sub = rd_alloc(ctx, sizeof(int) * ((size_t)m->nnode + 1));
  if (!m->sub || !m->node_sub) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nnode; i++) {
    m->node_sub[i] = -1;
  }
  for (int i = 0; i < n; i++) {
    const rdSubsystemDef* d = &ITEM(s->subsystems, rdSubsystemDef, i);
    rdSubsystem* b = &m->sub[i];
    b->name = rd_strdup(ctx, d->name);
    b->origin = dup_origin(m, s, RD_OBJ_SUBSYSTEM, i);
    b->node = rd_alloc(ctx, sizeof(int) * (size_t)d->nbody);
    b->pivot = rd_alloc(ctx, sizeof(int) * (size_t)d->nbody);
    b->anchor = rd_alloc(ctx, sizeof(int) * (size_t)d->nbody);
    if (!b->name || !b->origin || !b->node || !b->pivot || !b->anchor) {
      return RD_ERR_NOMEM;
    }
    b->method = d->method;
    b->substeps = d->substeps;
    b->predictor = d->predictor;
    b->nbody = d->nbody;
    for (int k = 0; k < d->nbody; k++) {
      int nd = d->nodes[k];
      b->node[k] = nd;
      b->pivot[k] = -1;
      b->anchor[k] = RD_GROUND;
      if (!node_ref_ok(m, nd, 0)) {
        return fail(ctx, b->origin, "subsystem '%s': undefined node (index %d)", b->name, nd);
      }
      if (m->node_sub[nd] >= 0) {
        return fail(ctx, b->origin, "subsystem '%s': node '%s' is already in subsystem '%s'",
                    b->name, m->node_name[nd], m->sub[m->node_sub[nd]].name);
      }
      m->node_sub[nd] = i;
    }
  }
  if (n == 0) {
    return RD_OK;
  }
  const char* o = m->sub[0].origin;
  if (m->opt.method != RD_METHOD_GENERALIZED_ALPHA) {
    return fail(ctx, o,
                "subsystem '%s': rigid subsystems step inside generalized-alpha; solver.method "
                "is '%s'",
                m->sub[0].name, rd_methodName(m->opt.method));
  }
  if (m->opt.formulation == RD_GA_STABILIZED) {
    return fail(ctx, o,
                "subsystem '%s': mixed stepping works with solver.formulation = index3 (the "
                "stabilized formulation is not implemented for it)",
                m->sub[0].name);
  }
  int st = check_sub_elements(m);
  return st < 0 ? st : check_sub_joints(m);
}


static int compile_outputs(const rdSpec* s, rdModel* m) {
  int n = s->outputs.count ? s->outputs.count : m->nnode;
  m->nout = n;
  m->out_node = rd_calloc(m->ctx, (size_t)n + 1, sizeof(int));
  if (!m->out_node) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < n; i++) {
    m->out_node[i] = s->outputs.count ? ITEM(s->outputs, int, i) : i;
  }
  // reactions and section loads for the history (indices checked by rds_addOutput*)
  m->nout_reaction = s->out_reactions.count;
  m->nout_section = s->out_sections.count;
  m->out_reaction = rd_calloc(m->ctx, (size_t)m->nout_reaction + 1, sizeof(int));
  m->out_section_beam = rd_calloc(m->ctx, (size_t)m->nout_section + 1, sizeof(int));
  m->out_section_s = rd_calloc(m->ctx, (size_t)m->nout_section + 1, sizeof(double));
  if (!m->out_reaction || !m->out_section_beam || !m->out_section_s) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nout_reaction; i++) {
    m->out_reaction[i] = ITEM(s->out_reactions, int, i);
  }
  for (int i = 0; i < m->nout_section; i++) {
    const rdOutputSection* o = &ITEM(s->out_sections, rdOutputSection, i);
    m->out_section_beam[i] = o->beam;
    m->out_section_s[i] = o->s;
  }
  return RD_OK;
}


static int compile_options(const rdSpec* s, rdModel* m) {
  m->opt = s->opt;
  memcpy(m->gravity, s->gravity, sizeof(m->gravity));
  if (m->opt.adaptive && m->opt.method == RD_METHOD_STATIC) {
    return fail(m->ctx, rd_specOrigin(s, RD_OBJ_OPTION, rd_optionIndex("solver.adaptive")),
                "solver.adaptive needs a time-stepping method; static has no time error (use "
                "load_steps and step cutting)");
  }
  if (m->opt.final_time < m->opt.start_time) {
    return fail(m->ctx, rd_specOrigin(s, RD_OBJ_OPTION, rd_optionIndex("solver.final_time")),
                "solver.final_time (%g) is before solver.start_time (%g)", m->opt.final_time,
                m->opt.start_time);
  }
  return RD_OK;
}


int rd_compile(const rdSpec* spec, rdModel** model) {
  if (model) {
    *model = NULL;
  }
  if (!spec || spec->magic != RD_MAGIC_SPEC) {
    return RD_ERR_HANDLE;
  }
  if (!model) {
    return RD_ERROR(spec->ctx, RD_ERR_ARG, "rd_compile: NULL output");
  }
  rdContext* ctx = spec->ctx;
  rdModel* m = rd_calloc(ctx, 1, sizeof(rdModel));
  if (!m) {
    return RD_ERR_NOMEM;
  }
  m->magic = RD_MAGIC_MODEL;
  m->ctx = ctx;
  atomic_init(&m->children, 0);
  rd_adopt(&ctx->children);
  int st = compile_options(spec, m);
  st = st < 0 ? st : compile_nodes(spec, m);
  st = st < 0 ? st : compile_timefns(spec, m);
  st = st < 0 ? st : compile_elements(spec, m);
  st = st < 0 ? st : compile_joints(spec, m);
  st = st < 0 ? st : compile_loads(spec, m);
  st = st < 0 ? st : compile_torques(spec, m);
  st = st < 0 ? st : compile_callbacks(spec, m);
  st = st < 0 ? st : compile_users(spec, m);
  st = st < 0 ? st : compile_beams(spec, m);
  st = st < 0 ? st : compile_outputs(spec, m);
  st = st < 0 ? st : compile_subsystems(spec, m);
  // adaptive generalized-alpha with constraints: the stabilized formulation. At index 3 a change
  // of the step excites the spurious modes of the multipliers and accelerations (the heavy top,
  // h halved: the period-2 part of lambda grows, and with it the error estimate,
  // docs/generalized_alpha.md)
  if (st >= 0 && m->opt.adaptive && m->nsub > 0) {
    st = RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                  "solver.adaptive: not with rigid subsystems (mixed stepping, issue 13) yet: "
                  "set solver.adaptive: false, or remove the subsystems");
  }
  if (st >= 0 && m->opt.adaptive && m->opt.method == RD_METHOD_GENERALIZED_ALPHA &&
      m->nconstraint > 0 && m->opt.formulation == RD_GA_INDEX3) {
    m->opt.formulation = RD_GA_STABILIZED;
    rd_warnOnce(ctx, RD_WARN_ADAPTIVE_INDEX3,
                "solver.adaptive: the joints use solver.formulation = stabilized (index 3 does "
                "not take changing steps)");
  }
  // the method's own preparation (the implicit methods: matrix pattern, linear solver)
  const rdStepper* stp = rd_modelStepper(m);
  if (st >= 0 && stp && stp->prepare) {
    st = stp->prepare(m);
  }
  if (st < 0) {
    rd_destroyModel(&m);
    return st;
  }
  *model = m;
  return RD_OK;
}
