// SPDX-License-Identifier: MIT
// The editable model spec: definitions are validated locally and copied in.
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/model.h"
#include "src/core/core.h"
#include "src/core/expr.h"
#include "src/model/spec_impl.h"

#define ITEM(vec, type, i) (((type*)(vec).items)[i])

static int spec_valid(const rdSpec* s) {
  return s && s->magic == RD_MAGIC_SPEC;
}


// append a copy of `item` (size bytes); returns its index or RD_ERR_NOMEM
static int vec_push(rdContext* ctx, rdVec* v, const void* item, size_t size) {
  if (v->count == v->capacity) {
    int cap = v->capacity ? 2 * v->capacity : 8;
    void* p = rd_alloc(ctx, (size_t)cap * size);
    if (!p) {
      return RD_ERR_NOMEM;
    }
    if (v->count) {
      memcpy(p, v->items, (size_t)v->count * size);
    }
    rd_free(ctx, v->items);
    v->items = p;
    v->capacity = cap;
  }
  memcpy((char*)v->items + (size_t)v->count * size, item, size);
  return v->count++;
}


static int all_finite(const double* x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}


int rd_createSpec(rdContext* ctx, rdSpec** spec) {
  if (!spec) {
    return rd_contextValid(ctx) ? RD_ERROR(ctx, RD_ERR_ARG, "rd_createSpec: NULL output")
                                : RD_ERR_ARG;
  }
  *spec = NULL;
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  rdSpec* s = rd_calloc(ctx, 1, sizeof(rdSpec));
  if (!s) {
    return RD_ERR_NOMEM;
  }
  s->magic = RD_MAGIC_SPEC;
  s->ctx = ctx;
  rd_adopt(&ctx->children);
  rd_defaultOptions(&s->opt);
  *spec = s;
  return RD_OK;
}


void rd_destroySpec(rdSpec** spec) {
  if (!spec || !spec_valid(*spec)) {
    return;
  }
  rdSpec* s = *spec;
  rdContext* ctx = s->ctx;
  for (int i = 0; i < s->nodes.count; i++) {
    rd_free(ctx, (void*)ITEM(s->nodes, rdNodeDef, i).name);
  }
  for (int i = 0; i < s->elems.count; i++) {
    rd_free(ctx, (void*)rd_elemDefName(&ITEM(s->elems, rdElemDef, i)));
  }
  for (int i = 0; i < s->joints.count; i++) {
    rd_free(ctx, (void*)ITEM(s->joints, rdJointDef, i).name);
  }
  for (int i = 0; i < s->loads.count; i++) {
    rd_free(ctx, (void*)ITEM(s->loads, rdLoadDef, i).name);
  }
  for (int i = 0; i < s->timefns.count; i++) {
    rdTimeFnDef* f = &ITEM(s->timefns, rdTimeFnDef, i);
    rd_free(ctx, (void*)f->name);
    rd_free(ctx, (void*)f->expression);
    rd_free(ctx, (void*)f->t);
    rd_free(ctx, (void*)f->y);
  }
  for (int i = 0; i < s->torques.count; i++) {
    rdTorqueLawDef* d = &ITEM(s->torques, rdTorqueLawDef, i);
    rd_free(ctx, (void*)d->name);
    for (int k = 0; k < 3; k++) {
      rd_free(ctx, (void*)d->expression[k]);
    }
  }
  for (int k = 0; k < RD_OBJ_COUNT; k++) {
    for (int i = 0; i < s->origins[k].count; i++) {
      rd_free(ctx, ITEM(s->origins[k], char*, i));
    }
    rd_free(ctx, s->origins[k].items);
  }
  rd_free(ctx, s->nodes.items);
  rd_free(ctx, s->elems.items);
  rd_free(ctx, s->joints.items);
  rd_free(ctx, s->loads.items);
  rd_free(ctx, s->timefns.items);
  rd_free(ctx, s->torques.items);
  for (int i = 0; i < s->callbacks.count; i++) {
    rdLoadCallbackDef* c = &ITEM(s->callbacks, rdLoadCallbackDef, i);
    rd_free(ctx, (void*)c->name);
    rd_free(ctx, (void*)c->nodes);
  }
  rd_free(ctx, s->callbacks.items);
  for (int i = 0; i < s->users.count; i++) {
    rdUserElementDef* u = &ITEM(s->users, rdUserElementDef, i);
    rd_free(ctx, (void*)u->name);
    rd_free(ctx, (void*)u->nodes);
  }
  rd_free(ctx, s->users.items);
  for (int i = 0; i < s->beams.count; i++) {
    rdBeamDef* b = &ITEM(s->beams, rdBeamDef, i);
    rd_free(ctx, (void*)b->name);
    rd_free(ctx, (void*)b->nodes);
    rd_free(ctx, (void*)b->station);
    rd_free(ctx, (void*)b->stiffness);
    rd_free(ctx, (void*)b->mass);
  }
  rd_free(ctx, s->beams.items);
  for (int i = 0; i < s->subsystems.count; i++) {
    rdSubsystemDef* b = &ITEM(s->subsystems, rdSubsystemDef, i);
    rd_free(ctx, (void*)b->name);
    rd_free(ctx, (void*)b->nodes);
  }
  rd_free(ctx, s->subsystems.items);
  rd_free(ctx, s->outputs.items);
  rd_free(ctx, s->out_reactions.items);
  rd_free(ctx, s->out_sections.items);
  rd_free(ctx, s->output_mark);
  for (int k = 0; k < RD_OBJ_COUNT; k++) {
    rd_nameIndexFree(ctx, &s->names[k]);
  }
  rd_nameIndexFree(ctx, &s->user_names);
  rd_nameIndexFree(ctx, &s->callback_names);
  rd_nameIndexFree(ctx, &s->reaction_names);
  s->magic = RD_MAGIC_DEAD;
  rd_release(&ctx->children);
  rd_bury(ctx, RD_KIND_SPEC, s);
  *spec = NULL;
}


rdContext* rds_context(const rdSpec* spec) {
  return spec_valid(spec) ? spec->ctx : NULL;
}


const char* rd_elemDefName(const rdElemDef* e) {
  switch (e->type) {
    case RD_ELEM_RIGID_BODY:
      return e->u.body.name;
    case RD_ELEM_POINT_MASS:
      return e->u.mass.name;
    case RD_ELEM_SPRING:
      return e->u.spring.name;
    case RD_ELEM_BUSHING:
      return e->u.bushing.name;
    default:
      return NULL;
  }
}


int rds_count(const rdSpec* s, rdObjKind kind) {
  if (!spec_valid(s)) {
    return 0;
  }
  switch (kind) {
    case RD_OBJ_NODE:
      return s->nodes.count;
    case RD_OBJ_ELEMENT:
      return s->elems.count;
    case RD_OBJ_JOINT:
      return s->joints.count;
    case RD_OBJ_LOAD:
      return s->loads.count;
    case RD_OBJ_TIMEFN:
      return s->timefns.count;
    case RD_OBJ_TORQUE:
      return s->torques.count;
    case RD_OBJ_BEAM:
      return s->beams.count;
    case RD_OBJ_SUBSYSTEM:
      return s->subsystems.count;
    default:
      return 0;
  }
}


int rds_find(const rdSpec* s, rdObjKind kind, const char* name) {
  if (!spec_valid(s) || !name || kind < 0 || kind >= RD_OBJ_COUNT) {
    return -1;
  }
  return rd_nameIndexGet(&s->names[kind], name);
}


int rds_setOrigin(rdSpec* s, rdObjKind kind, int index, const char* origin) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (kind < 0 || kind >= RD_OBJ_COUNT || index < 0 || !origin ||
      (kind != RD_OBJ_OPTION && index >= rds_count(s, kind))) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "rds_setOrigin: invalid object");
  }
  rdVec* v = &s->origins[kind];
  char* none = NULL;
  while (v->count <= index) {
    if (vec_push(s->ctx, v, &none, sizeof(char*)) < 0) {
      return RD_ERR_NOMEM;
    }
  }
  char* copy = rd_strdup(s->ctx, origin);
  if (!copy) {
    return RD_ERR_NOMEM;
  }
  rd_free(s->ctx, ITEM(*v, char*, index));
  ITEM(*v, char*, index) = copy;
  return RD_OK;
}


const char* rd_specOrigin(const rdSpec* s, rdObjKind kind, int index) {
  const rdVec* v = &s->origins[kind];
  if (index < 0 || index >= v->count || !ITEM(*v, char*, index)) {
    return "";
  }
  return ITEM(*v, char*, index);
}


// the name index of a kind, or of the user elements or load callbacks
enum { INTO_USERS = -1, INTO_CALLBACKS = -2 };

static rdNameIndex* name_index(rdSpec* s, int into) {
  return into == INTO_USERS       ? &s->user_names
         : into == INTO_CALLBACKS ? &s->callback_names
                                  : &s->names[into];
}


// common checks of a def: valid spec, cookie, name present and unique; makes room for the name
// in the index it will go into, `into` (a kind, INTO_USERS or INTO_CALLBACKS), so that
// index_name cannot fail after it
static int check_def(rdSpec* s, rdObjKind kind, const char* what, const char* name, int cookie,
                     int into) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (cookie != RD_DEF_COOKIE) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "%s definition not initialized with rd_default*Def()",
                    what);
  }
  if (!name || !*name) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "%s needs a name", what);
  }
  if (!strcmp(name, "ground") && kind == RD_OBJ_NODE) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "'ground' is reserved for the fixed frame");
  }
  // elements, beams and user elements share one name space, as do loads and load callbacks
  int element = kind == RD_OBJ_ELEMENT || kind == RD_OBJ_BEAM;
  if (rds_find(s, kind, name) >= 0 ||
      (element && rds_find(s, kind == RD_OBJ_BEAM ? RD_OBJ_ELEMENT : RD_OBJ_BEAM, name) >= 0) ||
      (element && rd_nameIndexGet(&s->user_names, name) >= 0) ||
      (kind == RD_OBJ_LOAD && rd_nameIndexGet(&s->callback_names, name) >= 0)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "duplicate %s name '%s'", what, name);
  }
  rdNameIndex* index = name_index(s, into);
  return rd_nameIndexReserve(s->ctx, index, index->count + 1);
}


// after a push: `name` (the spec's copy) indexes item `idx` (if >= 0, a successful push) in the
// index `into`, where check_def made room. Returns idx.
static int index_name(rdSpec* s, int into, const char* name, int idx) {
  if (idx >= 0) {
    rd_nameIndexPut(s->ctx, name_index(s, into), name, idx);
  }
  return idx;
}


// ---------------------------------------------------------------------------------------------
// defaults

rdNodeDef rd_defaultNodeDef(void) {
  rdNodeDef d;
  memset(&d, 0, sizeof(d));
  d.kind = RD_NODE_RIGID;
  d.orientation[0] = 1;
  d.angular_velocity_frame = RD_FRAME_GLOBAL;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdTimeFnDef rd_defaultTimeFnDef(void) {
  rdTimeFnDef d;
  memset(&d, 0, sizeof(d));
  d.type = RD_TIMEFN_CONSTANT;
  d.value = 1;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdRigidBodyDef rd_defaultRigidBodyDef(void) {
  rdRigidBodyDef d;
  memset(&d, 0, sizeof(d));
  d.node = -1;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdPointMassDef rd_defaultPointMassDef(void) {
  rdPointMassDef d;
  memset(&d, 0, sizeof(d));
  d.node = -1;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdSpringDef rd_defaultSpringDef(void) {
  rdSpringDef d;
  memset(&d, 0, sizeof(d));
  d.node[0] = -1;
  d.node[1] = RD_GROUND;
  d.rest_length = -1;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdBushingDef rd_defaultBushingDef(void) {
  rdBushingDef d;
  memset(&d, 0, sizeof(d));
  d.node[0] = -1;
  d.node[1] = RD_GROUND;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdJointDef rd_defaultJointDef(void) {
  rdJointDef d;
  memset(&d, 0, sizeof(d));
  d.node[0] = -1;
  d.node[1] = RD_GROUND;
  d.angle_fn = RD_NO_TIMEFN;
  d.torque_fn = RD_NO_TIMEFN;
  for (int k = 0; k < 6; k++) {
    d.motion_fn[k] = RD_NO_TIMEFN;
  }
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdLoadDef rd_defaultLoadDef(void) {
  rdLoadDef d;
  memset(&d, 0, sizeof(d));
  d.node = -1;
  d.timefn = RD_NO_TIMEFN;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdTorqueLawDef rd_defaultTorqueLawDef(void) {
  rdTorqueLawDef d;
  memset(&d, 0, sizeof(d));
  d.node = -1;
  d.type = RD_TORQUE_COULOMB_WALL;
  d.param[0] = 1.1;
  d.param[1] = 0.01;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


// ---------------------------------------------------------------------------------------------
// adders

int rds_addNode(rdSpec* s, const rdNodeDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL node definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_NODE, "node", def->name, def->cookie_, RD_OBJ_NODE);
  if (st < 0) {
    return st;
  }
  rdNodeDef d = *def;
  if (d.kind != RD_NODE_RIGID && d.kind != RD_NODE_POINT) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "node '%s': unknown kind %d", d.name, (int)d.kind);
  }
  if (d.angular_velocity_frame != RD_FRAME_GLOBAL && d.angular_velocity_frame != RD_FRAME_BODY) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "node '%s': unknown angular velocity frame", d.name);
  }
  if (!all_finite(d.position, 3) || !all_finite(d.orientation, 4) || !all_finite(d.velocity, 3) ||
      !all_finite(d.angular_velocity, 3)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "node '%s': non-finite value", d.name);
  }
  double n = sqrt(d.orientation[0] * d.orientation[0] + d.orientation[1] * d.orientation[1] +
                  d.orientation[2] * d.orientation[2] + d.orientation[3] * d.orientation[3]);
  if (fabs(n - 1) > 1e-6) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "node '%s': orientation quaternion has norm %.9g, not 1",
                    d.name, n);
  }
  for (int k = 0; k < 4; k++) {
    d.orientation[k] /= n;
  }
  d.name = rd_strdup(s->ctx, def->name);
  if (!d.name) {
    return RD_ERR_NOMEM;
  }
  int idx = vec_push(s->ctx, &s->nodes, &d, sizeof(d));
  if (idx < 0) {
    rd_free(s->ctx, (void*)d.name);
  }
  return index_name(s, RD_OBJ_NODE, d.name, idx);
}


int rds_addTimeFn(rdSpec* s, const rdTimeFnDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_TIMEFN, "time function", def->name, def->cookie_, RD_OBJ_TIMEFN);
  if (st < 0) {
    return st;
  }
  rdContext* ctx = s->ctx;
  rdTimeFnDef d = *def;
  switch (d.type) {
    case RD_TIMEFN_CONSTANT:
      if (!isfinite(d.value)) {
        return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': non-finite value", d.name);
      }
      break;
    case RD_TIMEFN_STEPS:
    case RD_TIMEFN_LINEAR:
      if (d.npoint < 1 || !d.t || !d.y) {
        return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': needs at least one point", d.name);
      }
      for (int i = 0; i < d.npoint; i++) {
        if (!isfinite(d.t[i]) || !isfinite(d.y[i])) {
          return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': non-finite point %d", d.name, i);
        }
        if (i && d.t[i] <= d.t[i - 1]) {
          return RD_ERROR(ctx, RD_ERR_ARG,
                          "time function '%s': times must increase strictly (point %d)", d.name, i);
        }
      }
      break;
    case RD_TIMEFN_EXPRESSION:
      if (!d.expression) {
        return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': needs an expression", d.name);
      }
      if (rd_exprCheck(ctx, d.expression, "t", d.name) < 0) {
        return RD_ERR_ARG;
      }
      break;
    case RD_TIMEFN_CALLBACK:
      if (!d.callback) {
        return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': needs a callback", d.name);
      }
      break;
    default:
      return RD_ERROR(ctx, RD_ERR_ARG, "time function '%s': unknown type", d.name);
  }
  d.name = rd_strdup(ctx, def->name);
  d.expression = rd_strdup(ctx, def->expression);
  double* t = NULL;
  double* y = NULL;
  if (d.type == RD_TIMEFN_STEPS || d.type == RD_TIMEFN_LINEAR) {
    t = rd_alloc(ctx, sizeof(double) * (size_t)d.npoint);
    y = rd_alloc(ctx, sizeof(double) * (size_t)d.npoint);
    if (t && y) {
      memcpy(t, def->t, sizeof(double) * (size_t)d.npoint);
      memcpy(y, def->y, sizeof(double) * (size_t)d.npoint);
    }
  }
  d.t = t;
  d.y = y;
  int idx = RD_ERR_NOMEM;
  int ok = d.name && (!def->expression || d.expression) &&
           (d.type != RD_TIMEFN_STEPS && d.type != RD_TIMEFN_LINEAR ? 1 : (t && y));
  if (ok) {
    idx = vec_push(ctx, &s->timefns, &d, sizeof(d));
  }
  if (idx < 0) {
    rd_free(ctx, (void*)d.name);
    rd_free(ctx, (void*)d.expression);
    rd_free(ctx, t);
    rd_free(ctx, y);
  }
  return index_name(s, RD_OBJ_TIMEFN, d.name, idx);
}


// push an element def whose name field has been set to a copy by the caller
static int push_elem(rdSpec* s, rdElemDef* e, const char* name) {
  char* copy = rd_strdup(s->ctx, name);
  if (!copy) {
    return RD_ERR_NOMEM;
  }
  switch (e->type) {
    case RD_ELEM_RIGID_BODY:
      e->u.body.name = copy;
      break;
    case RD_ELEM_POINT_MASS:
      e->u.mass.name = copy;
      break;
    case RD_ELEM_SPRING:
      e->u.spring.name = copy;
      break;
    default:
      e->u.bushing.name = copy;
      break;
  }
  int idx = vec_push(s->ctx, &s->elems, e, sizeof(*e));
  if (idx < 0) {
    rd_free(s->ctx, copy);
  }
  return index_name(s, RD_OBJ_ELEMENT, copy, idx);
}


int rds_addRigidBody(rdSpec* s, const rdRigidBodyDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_ELEMENT, "element", def->name, def->cookie_, RD_OBJ_ELEMENT);
  if (st < 0) {
    return st;
  }
  if (!isfinite(def->mass) || !all_finite(def->inertia, 9) || !all_finite(def->com, 3)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "rigid body '%s': non-finite value", def->name);
  }
  rdElemDef e = {.type = RD_ELEM_RIGID_BODY};
  e.u.body = *def;
  return push_elem(s, &e, def->name);
}


int rds_addPointMass(rdSpec* s, const rdPointMassDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_ELEMENT, "element", def->name, def->cookie_, RD_OBJ_ELEMENT);
  if (st < 0) {
    return st;
  }
  if (!isfinite(def->mass)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "point mass '%s': non-finite mass", def->name);
  }
  rdElemDef e = {.type = RD_ELEM_POINT_MASS};
  e.u.mass = *def;
  return push_elem(s, &e, def->name);
}


int rds_addSpring(rdSpec* s, const rdSpringDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_ELEMENT, "element", def->name, def->cookie_, RD_OBJ_ELEMENT);
  if (st < 0) {
    return st;
  }
  if (!all_finite(def->anchor, 3) || !all_finite(def->stiffness, 3) || !isfinite(def->damping) ||
      !isfinite(def->rest_length)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "spring '%s': non-finite value", def->name);
  }
  rdElemDef e = {.type = RD_ELEM_SPRING};
  e.u.spring = *def;
  return push_elem(s, &e, def->name);
}


int rds_addBushing(rdSpec* s, const rdBushingDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_ELEMENT, "element", def->name, def->cookie_, RD_OBJ_ELEMENT);
  if (st < 0) {
    return st;
  }
  if (!all_finite(def->stiffness, 36) || !all_finite(def->damping, 36)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "bushing '%s': non-finite value", def->name);
  }
  rdElemDef e = {.type = RD_ELEM_BUSHING};
  e.u.bushing = *def;
  return push_elem(s, &e, def->name);
}


int rds_addJoint(rdSpec* s, const rdJointDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_JOINT, "joint", def->name, def->cookie_, RD_OBJ_JOINT);
  if (st < 0) {
    return st;
  }
  if ((int)def->type < 0 || def->type >= RD_JOINT_COUNT) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "joint '%s': unknown type %d", def->name, (int)def->type);
  }
  if (!all_finite(def->point, 3) || !all_finite(def->axis, 3) || !all_finite(def->axis2, 3) ||
      !isfinite(def->torque)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "joint '%s': non-finite value", def->name);
  }
  rdJointDef d = *def;
  d.name = rd_strdup(s->ctx, def->name);
  if (!d.name) {
    return RD_ERR_NOMEM;
  }
  int idx = vec_push(s->ctx, &s->joints, &d, sizeof(d));
  if (idx < 0) {
    rd_free(s->ctx, (void*)d.name);
  }
  return index_name(s, RD_OBJ_JOINT, d.name, idx);
}


int rds_addLoad(rdSpec* s, const rdLoadDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_LOAD, "load", def->name, def->cookie_, RD_OBJ_LOAD);
  if (st < 0) {
    return st;
  }
  if (def->kind != RD_LOAD_FORCE && def->kind != RD_LOAD_MOMENT) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "load '%s': unknown kind", def->name);
  }
  if (def->frame != RD_FRAME_GLOBAL && def->frame != RD_FRAME_BODY) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "load '%s': unknown frame", def->name);
  }
  if (!all_finite(def->value, 3)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "load '%s': non-finite value", def->name);
  }
  rdLoadDef d = *def;
  d.name = rd_strdup(s->ctx, def->name);
  if (!d.name) {
    return RD_ERR_NOMEM;
  }
  int idx = vec_push(s->ctx, &s->loads, &d, sizeof(d));
  if (idx < 0) {
    rd_free(s->ctx, (void*)d.name);
  }
  return index_name(s, RD_OBJ_LOAD, d.name, idx);
}


int rds_addTorqueLaw(rdSpec* s, const rdTorqueLawDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_TORQUE, "torque law", def->name, def->cookie_, RD_OBJ_TORQUE);
  if (st < 0) {
    return st;
  }
  rdContext* ctx = s->ctx;
  switch (def->type) {
    case RD_TORQUE_COULOMB_WALL:
      if (!all_finite(def->param, 2)) {
        return RD_ERROR(ctx, RD_ERR_ARG, "torque law '%s': non-finite parameter", def->name);
      }
      if (def->param[0] <= 1) {
        return RD_ERROR(ctx, RD_ERR_ARG,
                        "torque law '%s': coulomb_wall needs a > 1 (a + R33 must stay > 0)",
                        def->name);
      }
      break;
    case RD_TORQUE_EXPRESSION:
      for (int k = 0; k < 3; k++) {
        if (!def->expression[k]) {
          return RD_ERROR(ctx, RD_ERR_ARG, "torque law '%s': needs three expressions", def->name);
        }
        if (rd_exprCheck(ctx, def->expression[k],
                         "t r11 r12 r13 r21 r22 r23 r31 r32 r33 w1 w2 w3 W1 W2 W3",
                         def->name) < 0) {
          return RD_ERR_ARG;
        }
      }
      break;
    case RD_TORQUE_CALLBACK:
      if (!def->callback) {
        return RD_ERROR(ctx, RD_ERR_ARG, "torque law '%s': needs a callback", def->name);
      }
      break;
    default:
      return RD_ERROR(ctx, RD_ERR_ARG, "torque law '%s': unknown type", def->name);
  }
  rdTorqueLawDef d = *def;
  d.name = rd_strdup(ctx, def->name);
  int ok = d.name != NULL;
  for (int k = 0; k < 3; k++) {
    d.expression[k] = rd_strdup(ctx, def->expression[k]);
    ok = ok && (!def->expression[k] || d.expression[k]);
  }
  int idx = ok ? vec_push(ctx, &s->torques, &d, sizeof(d)) : RD_ERR_NOMEM;
  if (idx < 0) {
    rd_free(ctx, (void*)d.name);
    for (int k = 0; k < 3; k++) {
      rd_free(ctx, (void*)d.expression[k]);
    }
  }
  return index_name(s, RD_OBJ_TORQUE, d.name, idx);
}


// push a definition `item` (of `size` bytes) whose *name and *nodes (nnode entries) still point
// at the caller's memory: both are replaced by copies owned by the spec first. Returns the
// index or RD_ERR_NOMEM (nothing kept).
static int push_with_nodes(rdSpec* s, rdVec* v, void* item, size_t size, const char** name,
                           const int** nodes, int nnode) {
  char* nm = rd_strdup(s->ctx, *name);
  int* nd = rd_alloc(s->ctx, sizeof(int) * (size_t)nnode);
  int idx = RD_ERR_NOMEM;
  if (nm && nd) {
    memcpy(nd, *nodes, sizeof(int) * (size_t)nnode);
    *name = nm;
    *nodes = nd;
    idx = vec_push(s->ctx, v, item, size);
  }
  if (idx < 0) {
    rd_free(s->ctx, nm);
    rd_free(s->ctx, nd);
  }
  return idx;
}


rdLoadCallbackDef rd_defaultLoadCallbackDef(void) {
  rdLoadCallbackDef d;
  memset(&d, 0, sizeof(d));
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


int rds_addLoadCallback(rdSpec* s, const rdLoadCallbackDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_LOAD, "load", def->name, def->cookie_, INTO_CALLBACKS);
  if (st < 0) {
    return st;
  }
  if (!def->callback || def->nnode < 1 || !def->nodes) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "load callback '%s': needs a callback and >= 1 node",
                    def->name);
  }
  rdLoadCallbackDef d = *def;
  int idx = push_with_nodes(s, &s->callbacks, &d, sizeof(d), &d.name, &d.nodes, d.nnode);
  return index_name(s, INTO_CALLBACKS, d.name, idx);
}


rdUserElementDef rd_defaultUserElementDef(void) {
  rdUserElementDef d;
  memset(&d, 0, sizeof(d));
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


int rds_addUserElement(rdSpec* s, const rdUserElementDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_ELEMENT, "element", def->name, def->cookie_, INTO_USERS);
  if (st < 0) {
    return st;
  }
  if (!def->callback || def->nnode < 1 || !def->nodes) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "user element '%s': needs a callback and >= 1 node",
                    def->name);
  }
  rdUserElementDef d = *def;
  int idx = push_with_nodes(s, &s->users, &d, sizeof(d), &d.name, &d.nodes, d.nnode);
  return index_name(s, INTO_USERS, d.name, idx);
}


rdBeamDef rd_defaultBeamDef(void) {
  rdBeamDef d;
  memset(&d, 0, sizeof(d));
  d.quadrature = RD_BEAM_QUADRATURE_FULL;
  d.rotation_field = RD_BEAM_ROTATION_TOTAL;
  d.virtual_rotation = RD_BEAM_VIRTUAL_ROTATION_FIELD;
  d.span[1] = 1;
  d.load_frame = RD_FRAME_GLOBAL;
  d.timefn = RD_NO_TIMEFN;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


// a copy of n doubles (NULL when out of memory)
static double* dup_doubles(rdContext* ctx, const double* x, size_t n) {
  double* p = rd_alloc(ctx, n * sizeof(double));
  if (p) {
    memcpy(p, x, n * sizeof(double));
  }
  return p;
}


int rds_addBeam(rdSpec* s, const rdBeamDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_BEAM, "element", def->name, def->cookie_, RD_OBJ_BEAM);
  if (st < 0) {
    return st;
  }
  rdContext* ctx = s->ctx;
  if (def->nnode < 1 || !def->nodes) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': needs its nodes", def->name);
  }
  if (def->nstation < 1 || !def->station || !def->stiffness || !def->mass) {
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "beam '%s': needs >= 1 section station with stiffness and mass", def->name);
  }
  size_t ns = (size_t)def->nstation;
  if (!all_finite(def->station, def->nstation) || !all_finite(def->stiffness, 36 * def->nstation) ||
      !all_finite(def->mass, 36 * def->nstation) || !all_finite(def->damping, 6) ||
      !all_finite(def->span, 2) || !all_finite(def->force, 3) || !all_finite(def->moment, 3)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': non-finite value", def->name);
  }
  if ((int)def->quadrature < 0 || def->quadrature > RD_BEAM_QUADRATURE_STATIONS) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': unknown quadrature %d", def->name,
                    (int)def->quadrature);
  }
  if (def->rotation_field != RD_BEAM_ROTATION_TOTAL &&
      def->rotation_field != RD_BEAM_ROTATION_DISPLACEMENT) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': unknown rotation field %d", def->name,
                    (int)def->rotation_field);
  }
  if (def->virtual_rotation != RD_BEAM_VIRTUAL_ROTATION_FIELD &&
      def->virtual_rotation != RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': unknown virtual rotations %d", def->name,
                    (int)def->virtual_rotation);
  }
  if (def->extension_twist != 0 && def->extension_twist != 1) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': extension_twist %d (0 or 1)", def->name,
                    def->extension_twist);
  }
  if (def->load_frame != RD_FRAME_GLOBAL && def->load_frame != RD_FRAME_BODY) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam '%s': unknown load frame", def->name);
  }
  rdBeamDef d = *def;
  d.name = rd_strdup(ctx, def->name);
  int* nodes = rd_alloc(ctx, sizeof(int) * (size_t)def->nnode);
  if (nodes) {
    memcpy(nodes, def->nodes, sizeof(int) * (size_t)def->nnode);
  }
  d.nodes = nodes;
  d.station = dup_doubles(ctx, def->station, ns);
  d.stiffness = dup_doubles(ctx, def->stiffness, 36 * ns);
  d.mass = dup_doubles(ctx, def->mass, 36 * ns);
  int idx = RD_ERR_NOMEM;
  if (d.name && nodes && d.station && d.stiffness && d.mass) {
    idx = vec_push(ctx, &s->beams, &d, sizeof(d));
  }
  if (idx < 0) {
    rd_free(ctx, (void*)d.name);
    rd_free(ctx, nodes);
    rd_free(ctx, (void*)d.station);
    rd_free(ctx, (void*)d.stiffness);
    rd_free(ctx, (void*)d.mass);
  }
  return index_name(s, RD_OBJ_BEAM, d.name, idx);
}


rdSubsystemDef rd_defaultSubsystemDef(void) {
  rdSubsystemDef d;
  memset(&d, 0, sizeof(d));
  d.method = RD_METHOD_LIEMID_EA;
  d.substeps = 1;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


int rds_addSubsystem(rdSpec* s, const rdSubsystemDef* def) {
  if (!def) {
    return spec_valid(s) ? RD_ERROR(s->ctx, RD_ERR_ARG, "NULL definition") : RD_ERR_HANDLE;
  }
  int st = check_def(s, RD_OBJ_SUBSYSTEM, "subsystem", def->name, def->cookie_, RD_OBJ_SUBSYSTEM);
  if (st < 0) {
    return st;
  }
  rdContext* ctx = s->ctx;
  if (def->nbody < 1 || !def->nodes) {
    return RD_ERROR(ctx, RD_ERR_ARG, "subsystem '%s': needs at least one body", def->name);
  }
  for (int i = 0; i < def->nbody; i++) {
    for (int k = 0; k < i; k++) {
      if (def->nodes[k] == def->nodes[i]) {
        return RD_ERROR(ctx, RD_ERR_ARG, "subsystem '%s': node %d is listed twice", def->name,
                        def->nodes[i]);
      }
    }
  }
  if (def->substeps < 1) {
    return RD_ERROR(ctx, RD_ERR_ARG, "subsystem '%s': substeps must be >= 1, got %d", def->name,
                    def->substeps);
  }
  if (def->method < RD_METHOD_NMB || def->method >= RD_METHOD_COUNT) {
    const char* nm = rd_methodName(def->method);
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "subsystem '%s': method '%s' is not a rigid-body method (nmb, nms, liemid_e1, "
                    "liemid_e2, liemid_ea, liemid_i, sw, hstagm, akw)",
                    def->name, nm ? nm : "?");
  }
  if (def->predictor != RD_SUBSYSTEM_PREDICT_TAYLOR &&
      def->predictor != RD_SUBSYSTEM_PREDICT_SUBSTEPS) {
    return RD_ERROR(ctx, RD_ERR_ARG, "subsystem '%s': unknown predictor %d", def->name,
                    (int)def->predictor);
  }
  rdSubsystemDef d = *def;
  int idx = push_with_nodes(s, &s->subsystems, &d, sizeof(d), &d.name, &d.nodes, d.nbody);
  return index_name(s, RD_OBJ_SUBSYSTEM, d.name, idx);
}


int rds_setGravity(rdSpec* s, const double g[3]) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (!g || !all_finite(g, 3)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "gravity must be three finite numbers");
  }
  memcpy(s->gravity, g, sizeof(s->gravity));
  return RD_OK;
}


int rds_setOption(rdSpec* s, const char* key, const char* value) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  return rd_optionSet(s->ctx, &s->opt, key, value);
}


int rds_setOptionReal(rdSpec* s, const char* key, double value) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  char buf[64];
  snprintf(buf, sizeof(buf), "%.17g", value);
  return rd_optionSet(s->ctx, &s->opt, key, buf);
}


int rds_getOption(const rdSpec* s, const char* key, char* buf, int size) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  return rd_optionGetText(s->ctx, &s->opt, "rds_getOption", key, buf, size);
}


int rds_addOutputNode(rdSpec* s, int node) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (node < 0 || node >= s->nodes.count) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "output node index %d out of range", node);
  }
  // a mark per node against duplicates, grown with the nodes
  if (node >= s->output_mark_size) {
    int size = s->nodes.capacity;
    unsigned char* mark = rd_calloc(s->ctx, (size_t)size, 1);
    if (!mark) {
      return RD_ERR_NOMEM;
    }
    if (s->output_mark_size) {
      memcpy(mark, s->output_mark, (size_t)s->output_mark_size);
    }
    rd_free(s->ctx, s->output_mark);
    s->output_mark = mark;
    s->output_mark_size = size;
  }
  if (s->output_mark[node]) {
    return RD_OK;
  }
  int idx = vec_push(s->ctx, &s->outputs, &node, sizeof(int));
  if (idx < 0) {
    return idx;
  }
  s->output_mark[node] = 1;
  return RD_OK;
}


int rds_addOutputReaction(rdSpec* s, int joint) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (joint < 0 || joint >= s->joints.count) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "output reaction: joint index %d out of range", joint);
  }
  // each joint once: its (unique) name in an index, made room for before the push
  const char* name = ITEM(s->joints, rdJointDef, joint).name;
  if (rd_nameIndexGet(&s->reaction_names, name) >= 0) {
    return RD_OK;
  }
  int st = rd_nameIndexReserve(s->ctx, &s->reaction_names, s->reaction_names.count + 1);
  int idx = st == RD_OK ? vec_push(s->ctx, &s->out_reactions, &joint, sizeof(int)) : st;
  if (idx < 0) {
    return idx;
  }
  rd_nameIndexPut(s->ctx, &s->reaction_names, name, idx);
  return RD_OK;
}


int rds_addOutputSectionLoad(rdSpec* s, int beam, double span) {
  if (!spec_valid(s)) {
    return RD_ERR_HANDLE;
  }
  if (beam < 0 || beam >= s->beams.count) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "output section load: beam index %d out of range", beam);
  }
  if (!(span >= 0 && span <= 1)) {
    return RD_ERROR(s->ctx, RD_ERR_ARG, "output section load: s must be in [0, 1], got %g", span);
  }
  for (int i = 0; i < s->out_sections.count; i++) {
    const rdOutputSection* o = &ITEM(s->out_sections, rdOutputSection, i);
    if (o->beam == beam && o->s == span) {
      return RD_OK;
    }
  }
  rdOutputSection o = {beam, span};
  int idx = vec_push(s->ctx, &s->out_sections, &o, sizeof(o));
  return idx < 0 ? idx : RD_OK;
}
