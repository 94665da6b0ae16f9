// SPDX-License-Identifier: MIT
// Point mass: r = m a on the node's translation (rotation DOFs of a rigid node untouched).
#include "elements/element.h"
#include "src/math/blk.h"

void rd_pointMassEval(const rdModel* m, const rdPointMassDef* p, const double* vd, int jac,
                      rdElemEval* ev) {
  rd_elemLayout(m, ev, p->node, -1);
  const double* acc = vd + 6 * p->node;
  for (int i = 0; i < 3; i++) {
    ev->r[i] = p->mass * acc[i];
  }
  if (jac) {
    for (int i = 0; i < 3; i++) {
      ev->M[i * ev->n + i] = p->mass;
    }
  }
}
