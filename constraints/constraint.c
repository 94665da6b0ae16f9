// SPDX-License-Identifier: MIT
// Joint dispatch: one switch over the joint types.
#include "constraints/constraint.h"

#include "constraints/joint_blocks.h"

int rd_jointNodes(const rdModel* m, int j, int node[2]) {
  const rdJointDef* d = &m->joint[j].def;
  int n = 0;
  node[n++] = d->node[0];
  int ground_only = d->type == RD_JOINT_FIXED || d->type == RD_JOINT_PRESCRIBED;
  if (d->node[1] >= 0 && !ground_only) {
    node[n++] = d->node[1];
  }
  return n;
}


int rd_jointEval(const rdModel* m, int j, double t, const double* q, const double* v,
                 const double* lam, rdJointEval* ev) {
  return rd_jointEvalKept(m, j, t, q, v, lam, NULL, ev);
}


int rd_jointEvalKept(const rdModel* m, int j, double t, const double* q, const double* v,
                     const double* lam, struct rdMotionFrame_* frame, rdJointEval* ev) {
  const rdJoint* jt = &m->joint[j];
  switch (jt->def.type) {
    case RD_JOINT_FIXED:
      return rd_jointFixed(m, jt, t, q, v, lam, ev);
    case RD_JOINT_RIGID:
      return rd_jointRigid(m, jt, t, q, v, lam, ev);
    case RD_JOINT_SPHERICAL:
      return rd_jointSpherical(m, jt, t, q, v, lam, ev);
    case RD_JOINT_REVOLUTE:
      return rd_jointRevolute(m, jt, t, q, v, lam, ev);
    case RD_JOINT_UNIVERSAL:
      return rd_jointUniversal(m, jt, t, q, v, lam, ev);
    case RD_JOINT_PRISMATIC:
      return rd_jointPrismatic(m, jt, t, q, v, lam, ev);
    case RD_JOINT_CYLINDRICAL:
      return rd_jointCylindrical(m, jt, t, q, v, lam, ev);
    case RD_JOINT_PLANAR:
      return rd_jointPlanar(m, jt, t, q, v, lam, ev);
    case RD_JOINT_PRESCRIBED:
      return rd_jointPrescribed(m, jt, t, q, v, lam, frame, ev);
    case RD_JOINT_ROTATION_CONTROL:
      return rd_jointRotationControl(m, jt, t, q, v, lam, ev);
    default:
      return RD_ERROR(m->ctx, RD_ERR_MODEL, "joint '%s': unknown type %d", jt->def.name,
                      jt->def.type);
  }
}
