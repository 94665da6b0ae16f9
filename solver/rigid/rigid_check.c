// SPDX-License-Identifier: MIT
// Which models the rigid steppers accept; anything else is RD_ERR_UNSUPPORTED.
//
// Which models the rigid steppers accept: rigid bodies, each free or pinned to the ground by a
// spherical joint; loads on bodies; nodes without a body at rest. Anything else is refused
// with RD_ERR_UNSUPPORTED and a message naming the object.
#include <string.h>

#include "solver/rigid/rigid.h"
#include "src/core/core.h"

static const char* elem_kind(int type) {
  switch (type) {
    case RD_ELEM_POINT_MASS:
      return "point mass";
    case RD_ELEM_SPRING:
      return "spring";
    case RD_ELEM_BUSHING:
      return "bushing";
    default:
      return "rigid body";
  }
}


static const char* joint_kind(int type) {
  static const char* const names[] = {"fixed",      "rigid",           "spherical",   "revolute",
                                      "universal",  "prismatic",       "cylindrical", "planar",
                                      "prescribed", "rotation_control"};
  return type >= 0 && type < RD_JOINT_COUNT ? names[type] : "unknown";
}


// ": " after a non-empty origin
static const char* sep(const char* origin) {
  return *origin ? ": " : "";
}


static const char* orig(const char* origin) {
  return origin ? origin : "";
}


void rg_mapNodes(const rdModel* m, rgNodeMap* map) {
  for (int i = 0; i < m->nnode; i++) {
    map[i].elem = map[i].pin = -1;
  }
  for (int e = 0; e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type == RD_ELEM_RIGID_BODY && map[def->u.body.node].elem < 0) {
      map[def->u.body.node].elem = e;
    }
  }
  for (int j = 0; j < m->njoint; j++) {
    const rdJointDef* jd = &m->joint[j].def;
    if (jd->type == RD_JOINT_SPHERICAL && jd->node[1] == RD_GROUND && map[jd->node[0]].pin < 0) {
      map[jd->node[0]].pin = j;
    }
  }
}


static int check_elements(const rdModel* m, const char* meth, rgNodeMap* map) {
  for (int e = 0; e < m->nelem; e++) {
    const rdElement* el = &m->elem[e];
    const char* o = orig(el->origin);
    if (el->def.type != RD_ELEM_RIGID_BODY) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s' integrates free or pinned rigid bodies only: element '%s' "
                      "is a %s (use generalized_alpha)",
                      o, sep(o), meth, rd_elemDefName(&el->def), elem_kind(el->def.type));
    }
    int node = el->def.u.body.node;
    if (map[node].elem >= 0) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': rigid bodies '%s' and '%s' share node '%s' (one body per "
                      "node)",
                      o, sep(o), meth, m->elem[map[node].elem].def.u.body.name, el->def.u.body.name,
                      m->node_name[node]);
    }
    map[node].elem = e;
  }
  return RD_OK;
}


static int check_joints(const rdModel* m, const char* meth, rgNodeMap* map) {
  for (int j = 0; j < m->njoint; j++) {
    const rdJointDef* jd = &m->joint[j].def;
    const char* o = orig(m->joint[j].origin);
    if (jd->type != RD_JOINT_SPHERICAL) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s' cannot handle joint '%s': it is a %s joint, and rigid "
                      "steppers support only a spherical joint from a body node to the ground "
                      "(use generalized_alpha)",
                      o, sep(o), meth, jd->name, joint_kind(jd->type));
    }
    if (jd->node[1] != RD_GROUND) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s' cannot handle joint '%s': a spherical joint between two "
                      "nodes couples bodies (only node-to-ground pivots are supported; use "
                      "generalized_alpha)",
                      o, sep(o), meth, jd->name);
    }
    int node = jd->node[0];
    if (map[node].elem < 0) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': joint '%s' pins node '%s', which carries no rigid body", o,
                      sep(o), meth, jd->name, m->node_name[node]);
    }
    if (map[node].pin >= 0) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': node '%s' has two spherical joints to the ground ('%s' "
                      "and '%s')",
                      o, sep(o), meth, m->node_name[node], m->joint[map[node].pin].def.name,
                      jd->name);
    }
    map[node].pin = j;
  }
  return RD_OK;
}


static int check_loads(const rdModel* m, const char* meth, const rgNodeMap* map) {
  for (int i = 0; i < m->nload; i++) {
    const rdLoad* l = &m->load[i];
    const char* o = orig(l->origin);
    if (map[l->def.node].elem < 0) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': load '%s' acts on node '%s', which carries no rigid body",
                      o, sep(o), meth, l->def.name, m->node_name[l->def.node]);
    }
  }
  for (int i = 0; i < m->ntorque; i++) {
    const rdTorqueLaw* tl = &m->torque[i];
    const char* o = orig(tl->origin);
    if (map[tl->def.node].elem < 0) {
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': torque law '%s' acts on node '%s', which carries no "
                      "rigid body",
                      o, sep(o), meth, tl->def.name, m->node_name[tl->def.node]);
    }
  }
  // a node without a body has no inertia: it may only stay where it is
  for (int i = 0; i < m->nnode; i++) {
    const double* v0 = m->node_v0 + 6 * i;
    int moving = 0;
    for (int k = 0; k < 6; k++) {
      moving |= v0[k] != 0;
    }
    if (moving && map[i].elem < 0) {
      const char* o = orig(m->node_origin[i]);
      return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                      "%s%smethod '%s': node '%s' carries no rigid body but has an initial "
                      "velocity (massless nodes must be at rest)",
                      o, sep(o), meth, m->node_name[i]);
    }
  }
  return RD_OK;
}


int rg_check(const rdModel* m) {
  const char* meth = rd_methodName(m->opt.method);
  if (m->nuser > 0) {
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                    "method '%s' cannot integrate user element '%s': rigid steppers have no "
                    "element assembly (use generalized_alpha or static)",
                    meth, m->user[0].name);
  }
  if (m->nbeam > 0) {
    const char* o = orig(m->beam[0].origin);
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                    "%s%smethod '%s' cannot integrate beam '%s': rigid steppers have no "
                    "element assembly (use generalized_alpha or static)",
                    o, sep(o), meth, m->beam[0].def.name);
  }
  rgNodeMap* map = rd_alloc(m->ctx, ((size_t)m->nnode + 1) * sizeof(rgNodeMap));
  if (!map) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nnode; i++) {
    map[i].elem = map[i].pin = -1;
  }
  int st = check_elements(m, meth, map);
  st = st ? st : check_joints(m, meth, map);
  st = st ? st : check_loads(m, meth, map);
  rd_free(m->ctx, map);
  return st;
}
