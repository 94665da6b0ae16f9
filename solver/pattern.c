// SPDX-License-Identifier: MIT
// Build the iteration-matrix pattern once from the model: coupled blocks, CSC, scatter maps.
#include "solver/pattern.h"

#include <stdlib.h>
#include <string.h>

#include "constraints/constraint.h"
#include "elements/element.h"
#include "solver/linsol.h"
#include "src/core/core.h"

typedef struct {
  int I, J;
} edge;


static int edge_cmp(const void* a, const void* b) {
  const edge* x = a;
  const edge* y = b;
  if (x->J != y->J) {
    return x->J < y->J ? -1 : 1;
  }
  return (x->I > y->I) - (x->I < y->I);
}


// add all pairs among blocks b[0..nb-1] (both orders, diagonal included)
static void add_clique(edge* e, int* ne, const int* b, int nb) {
  for (int i = 0; i < nb; i++) {
    for (int j = 0; j < nb; j++) {
      e[*ne].I = b[i];
      e[*ne].J = b[j];
      (*ne)++;
    }
  }
}


const int* rd_patternBlock(const rdPattern* p, int I, int J) {
  for (int e = p->adj_ptr[J]; e < p->adj_ptr[J + 1]; e++) {
    if (p->adj_row[e] == I) {
      return p->adj_pos + 6 * e;
    }
  }
  return NULL;
}


static int build(rdModel* m, rdPattern* p) {
  rdContext* ctx = m->ctx;
  int nb = m->nnode + m->njoint;
  p->nblock = nb;
  p->n = m->ndof + m->nconstraint;
  p->boff = rd_calloc(ctx, (size_t)nb + 1, sizeof(int));
  p->bsize = rd_calloc(ctx, (size_t)nb + 1, sizeof(int));
  p->adj_ptr = rd_calloc(ctx, (size_t)nb + 2, sizeof(int));
  p->Ap = rd_calloc(ctx, (size_t)p->n + 2, sizeof(int));
  // at most 4 per node (diagonal), 4 per element, 10 per joint (clique of 2 nodes + joint,
  // its diagonal)
  size_t cap = (size_t)m->nnode + 4 * (size_t)m->nelem + 10 * (size_t)m->njoint + 1;
  // host coupling: all node pairs of a user element or of a load callback with a Jacobian
  for (int k = 0; k < m->nuser; k++) {
    cap += (size_t)m->user[k].nnode * (size_t)m->user[k].nnode;
  }
  for (int k = 0; k < m->ncallback; k++) {
    if (m->callback[k].jacobian) {
      cap += (size_t)m->callback[k].nnode * (size_t)m->callback[k].nnode;
    }
  }
  // beams: all nodes of an element are coupled
  for (int k = 0; k < m->nbeam; k++) {
    cap += (size_t)m->beam[k].def.nnode * (size_t)m->beam[k].def.nnode;
  }
  edge* e = rd_calloc(ctx, cap, sizeof(edge));
  if (!p->boff || !p->bsize || !p->adj_ptr || !p->Ap || !e) {
    rd_free(ctx, e);
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < m->nnode; i++) {
    p->boff[i] = m->node_dof[i];
    p->bsize[i] = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
  }
  for (int j = 0; j < m->njoint; j++) {
    p->boff[m->nnode + j] = m->ndof + m->joint[j].row;
    p->bsize[m->nnode + j] = m->joint[j].nrow;
  }
  int ne = 0;
  for (int i = 0; i < m->nnode; i++) {
    add_clique(e, &ne, &i, 1);
  }
  for (int k = 0; k < m->nelem; k++) {
    int node[2];
    int n = rd_elemNodes(m, k, node);
    add_clique(e, &ne, node, n);
  }
  for (int j = 0; j < m->njoint; j++) {
    int b[3];
    int n = rd_jointNodes(m, j, b);
    add_clique(e, &ne, b, n);
    for (int k = 0; k < n; k++) {
      e[ne].I = b[k];
      e[ne++].J = m->nnode + j;
      e[ne].I = m->nnode + j;
      e[ne++].J = b[k];
    }
    // a joint on a closed loop may have equations removed as redundant: their multipliers
    // are held at zero through a unit diagonal (solver/redundant.c)
    // so are those of a joint on a body of a rigid subsystem, which mixed stepping leaves out
    // of the flexible part's step (solver/mixed.c)
    const rdJointDef* jd = &m->joint[j].def;
    int sub = m->nsub > 0 && (m->node_sub[jd->node[0]] >= 0 ||
                              (jd->node[1] >= 0 && m->node_sub[jd->node[1]] >= 0));
    if ((m->joint[j].loop && m->opt.redundant == RD_REDUNDANT_REMOVE) || sub) {
      int J = m->nnode + j;
      add_clique(e, &ne, &J, 1);
    }
  }
  for (int k = 0; k < m->nuser; k++) {
    add_clique(e, &ne, m->user[k].nodes, m->user[k].nnode);
  }
  for (int k = 0; k < m->nbeam; k++) {
    add_clique(e, &ne, m->beam[k].def.nodes, m->beam[k].def.nnode);
  }
  for (int k = 0; k < m->ncallback; k++) {
    if (m->callback[k].jacobian) {
      add_clique(e, &ne, m->callback[k].nodes, m->callback[k].nnode);
    }
  }
  qsort(e, (size_t)ne, sizeof(edge), edge_cmp);
  int nu = 0;
  for (int k = 0; k < ne; k++) {
    if (nu == 0 || e[k].I != e[nu - 1].I || e[k].J != e[nu - 1].J) {
      e[nu++] = e[k];
    }
  }
  p->adj_row = rd_calloc(ctx, (size_t)nu + 1, sizeof(int));
  p->adj_pos = rd_calloc(ctx, 6 * (size_t)nu + 1, sizeof(int));
  if (!p->adj_row || !p->adj_pos) {
    rd_free(ctx, e);
    return RD_ERR_NOMEM;
  }
  // block adjacency by column; count nonzeros per column
  for (int k = 0; k < nu; k++) {
    p->adj_row[k] = e[k].I;
    p->adj_ptr[e[k].J + 1]++;
  }
  for (int J = 0; J < nb; J++) {
    p->adj_ptr[J + 1] += p->adj_ptr[J];
  }
  rd_free(ctx, e);
  size_t nnz = 0;
  for (int J = 0; J < nb; J++) {
    size_t rows = 0;
    for (int k = p->adj_ptr[J]; k < p->adj_ptr[J + 1]; k++) {
      rows += (size_t)p->bsize[p->adj_row[k]];
    }
    nnz += rows * (size_t)p->bsize[J];
  }
  p->nnz = (int)nnz;
  p->Ai = rd_calloc(ctx, nnz + 1, sizeof(int));
  if (!p->Ai) {
    return RD_ERR_NOMEM;
  }
  // columns in order: blocks are numbered in increasing offset, so rows come out sorted
  int pos = 0;
  for (int J = 0; J < nb; J++) {
    for (int c = 0; c < p->bsize[J]; c++) {
      int col = p->boff[J] + c;
      p->Ap[col] = pos;
      for (int k = p->adj_ptr[J]; k < p->adj_ptr[J + 1]; k++) {
        int I = p->adj_row[k];
        p->adj_pos[6 * k + c] = pos;
        for (int r = 0; r < p->bsize[I]; r++) {
          p->Ai[pos++] = p->boff[I] + r;
        }
      }
    }
  }
  p->Ap[p->n] = pos;
  return RD_OK;
}


int rd_patternBuild(rdModel* m) {
  rdPattern* p = rd_calloc(m->ctx, 1, sizeof(rdPattern));
  if (!p) {
    return RD_ERR_NOMEM;
  }
  m->pattern = p;
  int st = build(m, p);
  if (st < 0) {
    return st;
  }
  return RD_OK;
}


void rd_patternDestroy(rdModel* m) {
  rdPattern* p = m->pattern;
  if (!p) {
    return;
  }
  rdContext* ctx = m->ctx;
  rd_free(ctx, p->boff);
  rd_free(ctx, p->bsize);
  rd_free(ctx, p->Ap);
  rd_free(ctx, p->Ai);
  rd_free(ctx, p->adj_ptr);
  rd_free(ctx, p->adj_row);
  rd_free(ctx, p->adj_pos);
  rd_free(ctx, p);
  m->pattern = NULL;
}
