// SPDX-License-Identifier: MIT
// Joint reactions from the multipliers: -B^T lambda on the joint's first node.
#include "constraints/constraint.h"
#include "rodrigues/liegroup.h"
#include "rodrigues/query.h"
#include "src/model/data_impl.h"

int rd_getJointReaction(const rdModel* m, const rdData* d, int j, double force[3],
                        double moment[3]) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m || j < 0 || j >= m->njoint) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getJointReaction: bad joint index %d or data", j);
  }
  const rdJoint* jt = &m->joint[j];
  rdJointEval ev;
  int st = rd_jointEval(m, j, d->s.t, d->s.q, d->s.v, d->s.lambda + jt->row, &ev);
  if (st != RD_OK) {
    return st;
  }
  double g[6] = {0, 0, 0, 0, 0, 0};
  int nd = m->node_kind[ev.node[0]] == RD_NODE_RIGID ? 6 : 3;
  for (int k = 0; k < nd; k++) {
    for (int r = 0; r < ev.nrow; r++) {
      g[k] -= ev.B[r * ev.n + k] * d->s.lambda[jt->row + r];
    }
  }
  if (force) {
    v3_copy(force, g);
  }
  if (moment) {
    // body -> global
    rdu_quatRotate(moment, d->s.q + 7 * ev.node[0] + 3, g + 3);
  }
  return RD_OK;
}
