// SPDX-License-Identifier: MIT
// Element dispatch: one switch per operation over the element types.
#include "elements/element.h"

#include <string.h>

static int ndof_of(const rdModel* m, int node) {
  return m->node_kind[node] == RD_NODE_RIGID ? 6 : 3;
}


void rd_elemLayout(const rdModel* m, rdElemEval* ev, int n0, int n1) {
  ev->nnode = 0;
  ev->n = 0;
  int nodes[2] = {n0, n1};
  for (int k = 0; k < 2; k++) {
    if (nodes[k] >= 0) {
      ev->node[ev->nnode] = nodes[k];
      ev->off[ev->nnode] = ev->n;
      ev->n += ndof_of(m, nodes[k]);
      ev->nnode++;
    }
  }
  memset(ev->r, 0, sizeof(ev->r));
  size_t nn = (size_t)ev->n * (size_t)ev->n * sizeof(double);
  memset(ev->M, 0, nn);
  memset(ev->C, 0, nn);
  memset(ev->K, 0, nn);
}


int rd_elemNodes(const rdModel* m, int e, int node[2]) {
  const rdElemDef* d = &m->elem[e].def;
  int n = 0;
  switch (d->type) {
    case RD_ELEM_RIGID_BODY:
      node[n++] = d->u.body.node;
      break;
    case RD_ELEM_POINT_MASS:
      node[n++] = d->u.mass.node;
      break;
    case RD_ELEM_SPRING:
      for (int k = 0; k < 2; k++) {
        if (d->u.spring.node[k] >= 0) {
          node[n++] = d->u.spring.node[k];
        }
      }
      break;
    case RD_ELEM_BUSHING:
      for (int k = 0; k < 2; k++) {
        if (d->u.bushing.node[k] >= 0) {
          node[n++] = d->u.bushing.node[k];
        }
      }
      break;
    default:
      break;
  }
  return n;
}


int rd_elemEval(const rdModel* m, int e, const double* q, const double* v, const double* vd,
                int jac, rdElemEval* ev) {
  const rdElemDef* d = &m->elem[e].def;
  switch (d->type) {
    case RD_ELEM_RIGID_BODY:
      rd_rigidBodyEval(m, &d->u.body, q, v, vd, jac, ev);
      return RD_OK;
    case RD_ELEM_POINT_MASS:
      rd_pointMassEval(m, &d->u.mass, vd, jac, ev);
      return RD_OK;
    case RD_ELEM_SPRING:
      rd_springEval(m, &d->u.spring, q, v, jac, ev);
      return RD_OK;
    case RD_ELEM_BUSHING:
      rd_bushingEval(m, &d->u.bushing, q, v, jac, ev);
      return RD_OK;
    default:
      return RD_ERROR(m->ctx, RD_ERR_MODEL, "element %d: unknown type %d", e, d->type);
  }
}
