// SPDX-License-Identifier: MIT
// Redundant constraint equations (docs/generalized_alpha.md, "Redundant constraints").
//
// Only joints on closed loops of the joint graph can hold dependent equations: a joint that is
// a bridge separates a part Y of the model whose rigid motions only that joint sees, and its
// equations are independent on the node it has in Y, so no combination of equations can
// involve it. The loops split into 2-edge-connected components with disjoint nodes, and each
// component's equations are checked with a column-pivoted QR (LAPACK dgeqp3) of its dense
// Jacobian transpose at the initial configuration.
#include "solver/redundant.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "constraints/constraint.h"
#include "rodrigues/query.h"
#include "solver/pattern.h"
#include "src/math/vec3.h"

// after the headers above: lapacke.h brings complex.h, whose macro I clashes with parameter names
#include "src/core/lapack.h"

// the two ends of joint j in the joint graph (the ground is vertex nnode)
static void ends(const rdModel* m, int j, int* a, int* b) {
  int node[2];
  int n = rd_jointNodes(m, j, node);
  *a = node[0];
  *b = n > 1 ? node[1] : m->nnode;
}


static int find_root(int* parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}


int rd_redundantLoops(rdModel* m) {
  rdContext* ctx = m->ctx;
  int nv = m->nnode + 1, ne = m->njoint;
  m->nloop = 0;
  m->loop_rows = 0;
  if (ne == 0) {
    return RD_OK;
  }
  int* ptr = rd_calloc(ctx, (size_t)nv + 1, sizeof(int));
  int* adj = rd_calloc(ctx, 2 * (size_t)ne, sizeof(int));
  int* disc = rd_calloc(ctx, (size_t)nv, sizeof(int));
  int* low = rd_calloc(ctx, (size_t)nv, sizeof(int));
  int* it = rd_calloc(ctx, (size_t)nv, sizeof(int));
  int* stv = rd_calloc(ctx, (size_t)nv, sizeof(int));  // DFS stack: vertex
  int* ste = rd_calloc(ctx, (size_t)nv, sizeof(int));  // and the tree edge it was reached by
  int* bridge = rd_calloc(ctx, (size_t)ne, sizeof(int));
  int* comp = rd_calloc(ctx, (size_t)nv, sizeof(int));
  int st = RD_OK;
  if (!ptr || !adj || !disc || !low || !it || !stv || !ste || !bridge || !comp) {
    st = RD_ERR_NOMEM;
    goto done;
  }
  // adjacency (edge ids) in CSR form
  for (int j = 0; j < ne; j++) {
    int a, b;
    ends(m, j, &a, &b);
    ptr[a + 1]++;
    ptr[b + 1]++;
  }
  for (int v = 0; v < nv; v++) {
    ptr[v + 1] += ptr[v];
    it[v] = ptr[v];
  }
  for (int j = 0; j < ne; j++) {
    int a, b;
    ends(m, j, &a, &b);
    adj[it[a]++] = j;
    adj[it[b]++] = j;
  }
  // Tarjan's bridges, iterative: a tree edge (p, u) is a bridge if no edge from u's subtree
  // other than it reaches p or above (parallel joints are separate edges: not bridges)
  int time = 0;
  for (int s = 0; s < nv; s++) {
    if (disc[s]) {
      continue;
    }
    int sp = 0;
    stv[sp] = s;
    ste[sp++] = -1;
    disc[s] = low[s] = ++time;
    it[s] = ptr[s];
    while (sp > 0) {
      int u = stv[sp - 1];
      if (it[u] < ptr[u + 1]) {
        int e = adj[it[u]++];
        if (e == ste[sp - 1]) {
          continue;
        }
        int a, b;
        ends(m, e, &a, &b);
        int w = a == u ? b : a;
        if (!disc[w]) {
          disc[w] = low[w] = ++time;
          it[w] = ptr[w];
          stv[sp] = w;
          ste[sp++] = e;
        } else if (disc[w] < low[u]) {
          low[u] = disc[w];
        }
      } else {
        int e = ste[--sp];
        if (sp > 0) {
          int p = stv[sp - 1];
          if (low[u] < low[p]) {
            low[p] = low[u];
          }
          if (low[u] > disc[p]) {
            bridge[e] = 1;
          }
        }
      }
    }
  }
  // components of the non-bridge joints (union-find on the vertices), numbered in joint order
  for (int v = 0; v < nv; v++) {
    comp[v] = v;
    low[v] = 0;  // reused: 1 + component id of a root
  }
  for (int j = 0; j < ne; j++) {
    if (!bridge[j]) {
      int a, b;
      ends(m, j, &a, &b);
      int ra = find_root(comp, a), rb = find_root(comp, b);
      if (ra != rb) {
        comp[ra] = rb;
      }
    }
  }
  for (int j = 0; j < ne; j++) {
    rdJoint* jt = &m->joint[j];
    jt->loop = 0;
    if (bridge[j]) {
      continue;
    }
    int a, b;
    ends(m, j, &a, &b);
    int r = find_root(comp, a);
    if (!low[r]) {
      low[r] = ++m->nloop;
    }
    jt->loop = low[r];
    m->loop_rows += jt->nrow;
  }
done:
  rd_free(ctx, ptr);
  rd_free(ctx, adj);
  rd_free(ctx, disc);
  rd_free(ctx, low);
  rd_free(ctx, it);
  rd_free(ctx, stv);
  rd_free(ctx, ste);
  rd_free(ctx, bridge);
  rd_free(ctx, comp);
  return st;
}


size_t rd_redundantMemorySize(const rdModel* m) {
  return m->nloop ? (size_t)m->nconstraint : 0;
}


static unsigned char* mask_of(const rdModel* m, const rdData* d) {
  return m->nloop && d->memory_size >= (size_t)m->nconstraint ? d->s.memory : NULL;
}


int rd_redundantRemoved(const rdModel* m, const rdData* d, int k) {
  const unsigned char* mk = mask_of(m, d);
  return mk && k >= 0 && k < m->nconstraint && mk[k];
}


// per-data workspace (d->redundant), made by rd_redundantAttach: the components, their sizes and
// a dense matrix for the largest one, so that tracking in the time loop does not allocate
typedef struct rdRedundant_ {
  const rdLapack* la;  // dgeqp3
  int* order;          // joints sorted by component (njoint)
  int* cptr;           // nloop + 1: component c holds order[cptr[c] .. cptr[c+1])
  int* nrow;           // nloop: rows (DOFs) of the component's dense Jacobian transpose
  int* ncol;           // nloop: its columns (equations); 0 if above RD_REDUNDANT_DENSE_MAX
  double* ell;         // nloop: its arm length (rotations are scaled by it)
  int* local;          // nnode: first local row of the node in the current component, else -1
  int* ceq;            // equations of the current component: joint
  int* ceqk;           // and equation within the joint
  double* A;           // DOFs x equations, column-major
  lapack_int* jpvt;
  double* tau;
  double* work;
  lapack_int lwork;
  double* x;            // the dependency coefficients of one redundant column
  unsigned char* mark;  // njoint: joints named as partners in a message
} rdRedundant;


static int node_dofs(const rdModel* m, int i) {
  return m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
}


void rd_redundantRelease(const rdModel* m, rdData* d) {
  rdRedundant* w = d->redundant;
  if (!w) {
    return;
  }
  rdContext* ctx = m->ctx;
  rd_free(ctx, w->order);
  rd_free(ctx, w->cptr);
  rd_free(ctx, w->nrow);
  rd_free(ctx, w->ncol);
  rd_free(ctx, w->ell);
  rd_free(ctx, w->local);
  rd_free(ctx, w->ceq);
  rd_free(ctx, w->ceqk);
  rd_free(ctx, w->A);
  rd_free(ctx, w->jpvt);
  rd_free(ctx, w->tau);
  rd_free(ctx, w->work);
  rd_free(ctx, w->x);
  rd_free(ctx, w->mark);
  rd_free(ctx, w);
  d->redundant = NULL;
}


// the local rows of component c's nodes in w->local (set = 1) or back to -1 (set = 0)
static int component_nodes(const rdModel* m, rdRedundant* w, int c, int set) {
  int nr = 0;
  for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
    int node[2];
    int n = rd_jointNodes(m, w->order[p], node);
    for (int a = 0; a < n; a++) {
      if (!set) {
        w->local[node[a]] = -1;
      } else if (w->local[node[a]] < 0) {
        w->local[node[a]] = nr;
        nr += node_dofs(m, node[a]);
      }
    }
  }
  return nr;
}


// the largest lever arm |point - node| of component c's joints in the reference
// configuration: rotations are measured as the displacements they cause at that distance
static double arm_length(const rdModel* m, const rdRedundant* w, int c) {
  double ell = 0;
  for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
    int j = w->order[p], node[2];
    int n = rd_jointNodes(m, j, node);
    for (int a = 0; a < n; a++) {
      double d[3];
      v3_sub(d, m->joint[j].def.point, m->node_q0 + 7 * node[a]);
      ell = fmax(ell, v3_norm(d));
    }
  }
  return ell > 0 ? ell : 1;
}


int rd_redundantAttach(const rdModel* m, rdData* d) {
  d->redundant = NULL;
  int nl = m->nloop;
  if (!nl) {
    return RD_OK;
  }
  rdContext* ctx = m->ctx;
  rdRedundant* w = rd_calloc(ctx, 1, sizeof(rdRedundant));
  if (!w) {
    return RD_ERR_NOMEM;
  }
  d->redundant = w;
  w->order = rd_calloc(ctx, (size_t)m->njoint + 1, sizeof(int));
  w->cptr = rd_calloc(ctx, (size_t)nl + 2, sizeof(int));
  w->nrow = rd_calloc(ctx, (size_t)nl + 1, sizeof(int));
  w->ncol = rd_calloc(ctx, (size_t)nl + 1, sizeof(int));
  w->ell = rd_calloc(ctx, (size_t)nl + 1, sizeof(double));
  w->local = rd_calloc(ctx, (size_t)m->nnode + 1, sizeof(int));
  w->mark = rd_calloc(ctx, (size_t)m->njoint + 1, 1);
  if (!w->order || !w->cptr || !w->nrow || !w->ncol || !w->ell || !w->local || !w->mark) {
    return RD_ERR_NOMEM;
  }
  // joints by component (counting sort on rdJoint.loop)
  for (int j = 0; j < m->njoint; j++) {
    if (m->joint[j].loop) {
      w->cptr[m->joint[j].loop]++;
    }
  }
  for (int c = 0; c < nl; c++) {
    w->cptr[c + 1] += w->cptr[c];
  }
  for (int j = 0; j < m->njoint; j++) {
    if (m->joint[j].loop) {
      w->order[w->cptr[m->joint[j].loop - 1]++] = j;
    }
  }
  for (int c = nl; c > 0; c--) {
    w->cptr[c] = w->cptr[c - 1];
  }
  w->cptr[0] = 0;
  for (int i = 0; i < m->nnode; i++) {
    w->local[i] = -1;
  }
  // sizes; the dense arrays fit the largest component below the limit
  size_t maxA = 0;
  int maxc = 0, maxr = 0;
  for (int c = 0; c < nl; c++) {
    int nr = component_nodes(m, w, c, 1), nc = 0;
    component_nodes(m, w, c, 0);
    for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
      nc += m->joint[w->order[p]].nrow;
    }
    w->nrow[c] = nr;
    w->ell[c] = arm_length(m, w, c);
    if ((size_t)nr * (size_t)nc <= RD_REDUNDANT_DENSE_MAX) {
      w->ncol[c] = nc;
      maxA = (size_t)nr * (size_t)nc > maxA ? (size_t)nr * (size_t)nc : maxA;
      maxc = nc > maxc ? nc : maxc;
      maxr = nr > maxr ? nr : maxr;
    }
  }
  if (!maxA) {
    return RD_OK;
  }
  w->ceq = rd_calloc(ctx, (size_t)maxc + 1, sizeof(int));
  w->ceqk = rd_calloc(ctx, (size_t)maxc + 1, sizeof(int));
  w->A = rd_calloc(ctx, maxA, sizeof(double));
  w->jpvt = rd_calloc(ctx, (size_t)maxc + 1, sizeof(lapack_int));
  w->tau = rd_calloc(ctx, (size_t)maxc + 1, sizeof(double));
  w->x = rd_calloc(ctx, (size_t)maxc + 1, sizeof(double));
  if (!w->ceq || !w->ceqk || !w->A || !w->jpvt || !w->tau || !w->x) {
    return RD_ERR_NOMEM;
  }
  // workspace query for the largest shape (dgeqp3 needs 3 n + 1 at least)
  w->la = rd_lapack(ctx, "redundant constraints");
  if (!w->la) {
    return RD_ERR_IO;
  }
  double q = 0;
  lapack_int info =
      w->la->dgeqp3_work(LAPACK_COL_MAJOR, maxr, maxc, w->A, maxr, w->jpvt, w->tau, &q, -1);
  if (info != 0) {
    return RD_ERROR(ctx, RD_ERR_LIBRARY, "redundant constraints: dgeqp3 workspace query (%d)",
                    (int)info);
  }
  w->lwork = (lapack_int)q + 3 * maxc + 1;
  w->work = rd_calloc(ctx, (size_t)w->lwork, sizeof(double));
  return w->work ? RD_OK : RD_ERR_NOMEM;
}


// append printf-style text to buf (size bytes, NUL-terminated), truncating
static void app(char* buf, size_t size, const char* fmt, ...) {
  size_t len = strlen(buf);
  if (len + 1 >= size) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}


#define AT(w, nr, i, k) ((w)->A[(size_t)(i) + (size_t)(nr) * (size_t)(k)])

// mark in w->mark the joints whose equations the redundant column at pivot position s is a
// combination of (R11 x = R12(:, s), coefficients above 1e-8 of the largest)
static void partners(rdRedundant* w, int nr, int r, int s) {
  double xmax = 0;
  for (int i = r - 1; i >= 0; i--) {
    double sum = AT(w, nr, i, s);
    for (int k = i + 1; k < r; k++) {
      sum -= AT(w, nr, i, k) * w->x[k];
    }
    w->x[i] = sum / AT(w, nr, i, i);
    xmax = fmax(xmax, fabs(w->x[i]));
  }
  for (int i = 0; i < r; i++) {
    if (fabs(w->x[i]) > 1e-8 * xmax) {
      w->mark[w->ceq[w->jpvt[i] - 1]] = 1;
    }
  }
}


// the error text for component c: rank r of nc equations, pivoted QR in w
static void describe(const rdModel* m, rdRedundant* w, int c, int r, char* buf, size_t size) {
  int nr = w->nrow[c], nc = w->ncol[c];
  app(buf, size, "%sthe loop of joints", *buf ? "; " : "");
  for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
    app(buf, size, "%s '%s'", p > w->cptr[c] ? "," : "", m->joint[w->order[p]].def.name);
  }
  app(buf, size, " has %d equations of rank %d:", nc, r);
  // per joint: its redundant equations, then the joints they depend on
  for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
    int j = w->order[p], count = 0;
    for (int s = r; s < nc; s++) {
      count += w->ceq[w->jpvt[s] - 1] == j;
    }
    if (!count) {
      continue;
    }
    app(buf, size, "%s joint '%s' equation%s", buf[strlen(buf) - 1] == ':' ? "" : ";",
        m->joint[j].def.name, count > 1 ? "s" : "");
    // in equation order (columns are numbered in joint, then equation order)
    for (int col = 0, k = 0; col < nc; col++) {
      for (int s = r; s < nc; s++) {
        if (w->jpvt[s] - 1 == col && w->ceq[col] == j) {
          app(buf, size, "%s %d", k++ ? "," : "", w->ceqk[col] + 1);
          partners(w, nr, r, s);
        }
      }
    }
    int nd = 0;
    for (int q = w->cptr[c]; q < w->cptr[c + 1]; q++) {
      nd += w->mark[w->order[q]];
    }
    app(buf, size, " (dependent on joint%s", nd > 1 ? "s" : "");
    for (int q = w->cptr[c], k = 0; q < w->cptr[c + 1]; q++) {
      if (w->mark[w->order[q]]) {
        app(buf, size, "%s '%s'", k++ ? "," : "", m->joint[w->order[q]].def.name);
        w->mark[w->order[q]] = 0;
      }
    }
    app(buf, size, ")");
  }
}


// column weight of the pivoting: 1 - 0.25 k / nc prefers the equations of the joints defined
// first on ties; an equation removed now gets RD_REDUNDANT_KEEP of that, so that it stays
// removed until keeping the others would be about that much worse conditioned (hysteresis)
#define RD_REDUNDANT_KEEP 0.1

// B^T of component c at the state of d into w->A (rotation rows divided by the arm length,
// columns weighted as above), then its pivoted QR. *rank: the number of pivots above
// redundant_tol times the first. RD_OK or an error status.
static int factor(const rdModel* m, const rdData* d, rdRedundant* w, int c, const unsigned char* mk,
                  int* rank) {
  int nr = w->nrow[c], nc = w->ncol[c];
  double ell = w->ell[c];
  component_nodes(m, w, c, 1);
  memset(w->A, 0, (size_t)nr * (size_t)nc * sizeof(double));
  int col = 0, st = RD_OK;
  for (int p = w->cptr[c]; p < w->cptr[c + 1] && st == RD_OK; p++) {
    int j = w->order[p];
    rdJointEval ev;
    st = rd_jointEval(m, j, d->s.t, d->s.q, d->s.v, NULL, &ev);
    for (int k = 0; st == RD_OK && k < ev.nrow; k++, col++) {
      w->ceq[col] = j;
      w->ceqk[col] = k;
      for (int a = 0; a < ev.nnode; a++) {
        int base = w->local[ev.node[a]], nd = node_dofs(m, ev.node[a]);
        for (int l = 0; l < nd; l++) {
          AT(w, nr, base + l, col) = ev.B[k * ev.n + ev.off[a] + l] / (l < 3 ? 1 : ell);
        }
      }
      double norm = 0;
      for (int i = 0; i < nr; i++) {
        norm += AT(w, nr, i, col) * AT(w, nr, i, col);
      }
      double weight = (1 - 0.25 * col / nc) * (mk[m->joint[j].row + k] ? RD_REDUNDANT_KEEP : 1);
      double scale = norm > 0 ? weight / sqrt(norm) : 0;
      for (int i = 0; i < nr; i++) {
        AT(w, nr, i, col) *= scale;
      }
    }
  }
  component_nodes(m, w, c, 0);
  if (st != RD_OK) {
    return st;
  }
  memset(w->jpvt, 0, (size_t)nc * sizeof(lapack_int));
  lapack_int info =
      w->la->dgeqp3_work(LAPACK_COL_MAJOR, nr, nc, w->A, nr, w->jpvt, w->tau, w->work, w->lwork);
  if (info != 0) {
    return RD_ERROR(m->ctx, RD_ERR_LIBRARY, "redundant constraints: dgeqp3 failed (%d)", (int)info);
  }
  // the diagonal of R decreases; |R_kk| <= tol |R_11| is a dependent equation
  int kmin = nr < nc ? nr : nc, r = 0;
  double r11 = kmin > 0 ? fabs(AT(w, nr, 0, 0)) : 0;
  while (r < kmin && fabs(AT(w, nr, r, r)) > m->opt.redundant_tol * r11) {
    r++;
  }
  *rank = r;
  return RD_OK;
}


// component c's rows in the mask: clear them, then mark the pivots beyond the rank
static int remark(const rdModel* m, rdRedundant* w, int c, int r, unsigned char* mk) {
  int changed = 0;
  for (int s = 0; s < w->ncol[c]; s++) {
    int col = w->jpvt[s] - 1;
    unsigned char* b = mk + m->joint[w->ceq[col]].row + w->ceqk[col];
    unsigned char v = s >= r;
    changed |= *b != v;
    *b = v;
  }
  return changed;
}


int rd_redundantDetect(const rdModel* m, rdData* d) {
  unsigned char* mk = mask_of(m, d);
  rdRedundant* w = d->redundant;
  d->stats.redundant_constraints = 0;
  d->stats.unchecked_constraints = 0;
  if (!mk || !w) {
    return RD_OK;
  }
  memset(mk, 0, (size_t)m->nconstraint);
  char msg[RD_ERRLEN - 256] = "";
  int found = 0;
  for (int c = 0; c < m->nloop; c++) {
    if (!w->ncol[c]) {
      for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
        d->stats.unchecked_constraints += m->joint[w->order[p]].nrow;
      }
      continue;
    }
    int r;
    int st = factor(m, d, w, c, mk, &r);
    if (st != RD_OK) {
      memset(mk, 0, (size_t)m->nconstraint);
      return st;
    }
    if (r < w->ncol[c]) {
      found += w->ncol[c] - r;
      remark(m, w, c, r, mk);
      if (m->opt.redundant == RD_REDUNDANT_ERROR) {
        describe(m, w, c, r, msg, sizeof(msg));
      }
    }
  }
  d->stats.redundant_constraints = found;
  if (found && m->opt.redundant == RD_REDUNDANT_ERROR) {
    // the message points into the deck at the first joint with a redundant equation
    const char* at = "";
    for (int j = 0; j < m->njoint && !*at; j++) {
      for (int k = 0; k < m->joint[j].nrow && !*at; k++) {
        at = mk[m->joint[j].row + k] && m->joint[j].origin ? m->joint[j].origin : "";
      }
    }
    memset(mk, 0, (size_t)m->nconstraint);
    return RD_ERROR(m->ctx, RD_ERR_MODEL,
                    "%s%sredundant constraints at t = %g (relative tolerance %g): %s; set "
                    "solver.redundant_constraints = remove to drop them, or remove them from "
                    "the model",
                    at, *at ? ": " : "", d->s.t, m->opt.redundant_tol, msg);
  }
  return RD_OK;
}


// The removed equations of component c must still hold at a consistent configuration: they
// depend on the kept ones. One that does not conflicts with them (two joints prescribing
// incompatible motions, a loop whose geometry does not close) and removing it would hide that.
// Allowed: RD_REDUNDANT_CONFLICT times the arm length, or 10 times the kept equations' largest
// violation (an initial configuration that violates them all). RD_OK or RD_ERR_MODEL.
static int check_conflict(const rdModel* m, rdData* d, const rdRedundant* w, int c,
                          const unsigned char* mk) {
  double kept = 0, worst = 0;
  int wj = -1, wk = 0;
  for (int p = w->cptr[c]; p < w->cptr[c + 1]; p++) {
    int j = w->order[p];
    const rdJoint* jt = &m->joint[j];
    rdJointEval je;
    int st = rd_jointEval(m, j, d->s.t, d->s.q, d->s.v, NULL, &je);
    if (st != RD_OK) {
      return st;
    }
    for (int k = 0; k < jt->nrow; k++) {
      double e = fabs(je.phi[k]);
      if (!mk[jt->row + k]) {
        kept = fmax(kept, e);
      } else if (e > worst) {
        worst = e;
        wj = j;
        wk = k;
      }
    }
  }
  double allowed = fmax(RD_REDUNDANT_CONFLICT * fmax(1, w->ell[c]), 10 * kept);
  if (wj >= 0 && !(worst <= allowed)) {
    const char* at = m->joint[wj].origin ? m->joint[wj].origin : "";
    return RD_ERROR(m->ctx, RD_ERR_MODEL,
                    "%s%sconflicting constraints at t = %.9g: equation %d of joint '%s' depends on "
                    "the other equations of its closed loop and was removed as redundant, but it "
                    "is violated by %.3g while they hold to %.3g: the joints of the loop "
                    "prescribe incompatible motions or its geometry does not close "
                    "(solver.redundant_constraints = error lists the loop)",
                    at, *at ? ": " : "", d->s.t, wk + 1, rd_jointName(m, wj), worst, kept);
  }
  return RD_OK;
}


int rd_redundantTrack(const rdModel* m, rdData* d, int* changed) {
  unsigned char* mk = mask_of(m, d);
  rdRedundant* w = d->redundant;
  *changed = 0;
  if (!mk || !w) {
    return RD_OK;
  }
  for (int c = 0; c < m->nloop; c++) {
    int any = 0;
    for (int p = w->cptr[c]; p < w->cptr[c + 1] && !any && w->ncol[c]; p++) {
      const rdJoint* jt = &m->joint[w->order[p]];
      for (int k = 0; k < jt->nrow; k++) {
        any |= mk[jt->row + k];
      }
    }
    if (!any) {
      continue;
    }
    int st = check_conflict(m, d, w, c, mk);
    if (st != RD_OK) {
      return st;
    }
    if ((size_t)w->nrow[c] * (size_t)w->ncol[c] > RD_REDUNDANT_TRACK_MAX) {
      continue;  // too large to factor at every step: kept as chosen
    }
    int r;
    st = factor(m, d, w, c, mk, &r);
    if (st != RD_OK) {
      return st;
    }
    *changed |= remark(m, w, c, r, mk);
  }
  return RD_OK;
}


void rd_redundantMask(const rdModel* m, const rdData* d, double* r, double* gamma, double* Ax) {
  const unsigned char* mk = mask_of(m, d);
  if (!mk) {
    return;
  }
  const rdPattern* P = m->pattern;
  for (int j = 0; j < m->njoint; j++) {
    const rdJoint* jt = &m->joint[j];
    if (!jt->loop) {
      continue;
    }
    for (int k = 0; k < jt->nrow; k++) {
      int row = jt->row + k;
      if (!mk[row]) {
        continue;
      }
      int c = m->ndof + row;
      if (r) {
        r[c] = 0;
      }
      if (gamma) {
        gamma[row] = 0;
      }
      if (!Ax) {
        continue;
      }
      // column c: B^T and the diagonal (the pattern holds the joint's diagonal block)
      for (int p = P->Ap[c]; p < P->Ap[c + 1]; p++) {
        Ax[p] = P->Ai[p] == c ? 1 : 0;
      }
      // row c: B T in the columns of the joint's nodes
      int node[2];
      int n = rd_jointNodes(m, j, node);
      for (int a = 0; a < n; a++) {
        const int* pos = rd_patternBlock(P, m->nnode + j, node[a]);
        for (int l = 0; l < node_dofs(m, node[a]); l++) {
          Ax[pos[l] + k] = 0;
        }
      }
    }
  }
}


void rd_redundantMaskCon(const rdModel* m, const rdData* d, const int* Ap, const int* Ai,
                         double* Ax, double* rhs) {
  const unsigned char* mk = mask_of(m, d);
  if (!mk) {
    return;
  }
  int any = 0;
  for (int k = 0; k < m->nconstraint; k++) {
    if (mk[k] && rhs) {
      rhs[k] = 0;
    }
    any |= mk[k];
  }
  if (!any || !Ax) {
    return;
  }
  for (int c = 0; c < m->nconstraint; c++) {
    for (int p = Ap[c]; p < Ap[c + 1]; p++) {
      if (mk[c] || mk[Ai[p]]) {
        Ax[p] = Ai[p] == c ? 1 : 0;
      }
    }
  }
}


int rd_getRedundantConstraints(const rdModel* m, const rdData* d, int* joint, int* equation,
                               int max) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m || max < 0) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_getRedundantConstraints: bad data or max");
  }
  const unsigned char* mk = mask_of(m, d);
  int n = 0;
  for (int j = 0; mk && j < m->njoint; j++) {
    for (int k = 0; k < m->joint[j].nrow; k++) {
      if (!mk[m->joint[j].row + k]) {
        continue;
      }
      if (n < max && joint) {
        joint[n] = j;
      }
      if (n < max && equation) {
        equation[n] = k;
      }
      n++;
    }
  }
  return n;
}
