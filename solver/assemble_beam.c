// SPDX-License-Identifier: MIT
// Beam elements in the assembly. Each element's residual and iteration matrix come from the
// kernel in one pass (rd_beamEvalSum) and are scattered through the pattern's block maps. The
// elements are evaluated colour group by colour group: elements of one group share no node, so
// a group runs in parallel (OpenMP) without races, and every entry of r and Ax receives its
// contributions in the same order (group by group) whatever the number of threads: the results
// are bitwise the same with 1 and N threads, and with or without OpenMP.
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "solver/assemble.h"
#include "src/math/vec3.h"

#ifdef _OPENMP
#include <omp.h>
#define RD_OMP(x) _Pragma(x)
#else
#define RD_OMP(x)
#endif

int rd_assembleBeamColors(rdModel* m) {
  rdContext* ctx = m->ctx;
  int nb = m->nbeam, nn = m->nnode;
  m->nbeamcolor = 0;
  m->beam_order = rd_calloc(ctx, (size_t)nb + 1, sizeof(int));
  m->beam_color = rd_calloc(ctx, (size_t)nb + 2, sizeof(int));
  int* color = rd_calloc(ctx, (size_t)nb + 1, sizeof(int));
  int* start = rd_calloc(ctx, (size_t)nn + 1, sizeof(int));  // beams of each node (CSR)
  int* fill = rd_calloc(ctx, (size_t)nn + 1, sizeof(int));
  int* list = NULL;
  int* mark = rd_calloc(ctx, (size_t)nb + 1, sizeof(int));  // colour -> last beam that saw it
  size_t nlist = 0;
  for (int e = 0; e < nb; e++) {
    nlist += (size_t)m->beam[e].def.nnode;
  }
  list = rd_calloc(ctx, nlist + 1, sizeof(int));
  int st = RD_OK;
  if (!m->beam_order || !m->beam_color || !color || !start || !fill || !list || !mark) {
    st = RD_ERR_NOMEM;
    goto done;
  }
  for (int e = 0; e < nb; e++) {
    for (int a = 0; a < m->beam[e].def.nnode; a++) {
      start[m->beam[e].def.nodes[a] + 1]++;
    }
  }
  for (int i = 0; i < nn; i++) {
    start[i + 1] += start[i];
    fill[i] = start[i];
  }
  for (int e = 0; e < nb; e++) {
    for (int a = 0; a < m->beam[e].def.nnode; a++) {
      int node = m->beam[e].def.nodes[a];
      list[fill[node]++] = e;
    }
  }
  // greedy: the smallest colour not taken by an earlier beam sharing a node
  for (int i = 0; i <= nb; i++) {
    mark[i] = -1;
  }
  for (int e = 0; e < nb; e++) {
    for (int a = 0; a < m->beam[e].def.nnode; a++) {
      int node = m->beam[e].def.nodes[a];
      for (int k = start[node]; k < start[node + 1]; k++) {
        int f = list[k];
        if (f < e) {
          mark[color[f]] = e;
        }
      }
    }
    int c = 0;
    while (mark[c] == e) {
      c++;
    }
    color[e] = c;
    if (c + 1 > m->nbeamcolor) {
      m->nbeamcolor = c + 1;
    }
  }
  // order: by colour, then by index
  for (int e = 0; e < nb; e++) {
    m->beam_color[color[e] + 1]++;
  }
  for (int c = 0; c < m->nbeamcolor; c++) {
    m->beam_color[c + 1] += m->beam_color[c];
  }
  for (int e = 0; e < nb; e++) {
    m->beam_order[m->beam_color[color[e]]++] = e;
  }
  for (int c = m->nbeamcolor; c > 0; c--) {
    m->beam_color[c] = m->beam_color[c - 1];
  }
  m->beam_color[0] = 0;
done:
  rd_free(ctx, color);
  rd_free(ctx, start);
  rd_free(ctx, fill);
  rd_free(ctx, list);
  rd_free(ctx, mark);
  return st;
}


int rd_assembleBeamSlots(const rdModel* m) {
#ifdef _OPENMP
  if (m->nbeam < 2) {
    return 1;
  }
  int t = m->opt.threads > 0 ? m->opt.threads : omp_get_max_threads();
  return t > 1 ? t : 1;
#else
  (void)m;
  return 1;
#endif
}


void rd_assembleBeamScratch(const rdModel* m, rdData* d, int slot, int n, double** r, double** S,
                            double** T, double** work) {
  size_t N = 6 * (size_t)n;
  double* p = d->beamwork + (size_t)slot * m->beam_work;
  *r = p;
  *S = p + N;
  *T = *S + N * N;
  *work = *T + 9 * (size_t)n;
}


// the element's distributed loads at the factor f of its time function, gravity times the
// body-load factor fg
static void beam_loads(const rdModel* m, const rdBeamDef* bd, double f, double fg,
                       rdBeamLoads* ld) {
  memset(ld, 0, sizeof(*ld));
  v3_scale(ld->gravity, m->gravity, fg);
  double fv[3], mv[3];
  v3_scale(fv, bd->force, f);
  v3_scale(mv, bd->moment, f);
  if (bd->load_frame == RD_FRAME_BODY) {
    v3_copy(ld->f_follow, fv);
    v3_copy(ld->m_follow, mv);
  } else {
    v3_copy(ld->f_dead, fv);
    v3_copy(ld->m_dead, mv);
  }
}


// element e with the workspace of `slot`: add its residual to r and its matrix to Ax (if not
// NULL). Raises nothing: RD_OK or the kernel's status.
static int beam_one(const rdModel* m, rdData* d, int slot, int e, double fg, const double* q,
                    const double* v, const double* vd, const rdAsmCoef* c, double* r, double* Ax) {
  const rdBeamDef* bd = &m->beam[e].def;
  int n = bd->nnode;
  double *br, *S, *T, *work;
  rd_assembleBeamScratch(m, d, slot, n, &br, &S, &T, &work);
  rdBeamLoads ld;
  beam_loads(m, bd, d->beamscale[e], fg, &ld);
  rdBeamSum sum = {c->cM, c->cC, c->cK, NULL, NULL};
  double Y[27 * RD_BEAM_MAX_NODES];
  if (Ax && c->spatial) {
    // spatial form (solver/assemble.c): YK = cK T^T, YC = cC I + skew(W) YK,
    // YM = cM I + skew(dW) YK
    for (int a = 0; a < n; a++) {
      const double* p = c->spatial + RD_ASM_SPATIAL * bd->nodes[a];
      double* y = Y + 27 * a;
      double X[9];
      for (int k = 0; k < 9; k++) {
        y[k] = c->cK * p[k];
      }
      for (int t = 1; t < 3; t++) {
        m3_skew(X, p + 6 + 3 * t);
        m3_mul(y + 9 * t, X, y);
        for (int i = 0; i < 3; i++) {
          y[9 * t + 4 * i] += t == 1 ? c->cC : c->cM;
        }
      }
    }
    sum.Y = Y;
  } else if (Ax && c->psi && c->cK != 0) {
    for (int a = 0; a < n; a++) {
      rdu_tangentSO3(T + 9 * a, c->psi + 3 * bd->nodes[a]);
    }
    sum.T = T;
  }
  int st =
      rd_beamEvalSum(m->beam[e].kernel, work, q, v, vd, &ld, Ax ? &sum : NULL, br, Ax ? S : NULL);
  if (st != RD_OK) {
    return st;
  }
  for (int a = 0; a < n; a++) {
    double* ri = r + m->node_dof[bd->nodes[a]];
    for (int k = 0; k < 6; k++) {
      ri[k] += br[6 * a + k];
    }
  }
  if (Ax) {
    rd_assembleScatter6(m, Ax, S, n, bd->nodes);
  }
  return RD_OK;
}


int rd_assembleBeams(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                     const double* vd, const rdAsmCoef* c, double* r, double* Ax) {
  // the load factors first, serially: time functions may raise. Distributed loads without a
  // time function of their own are body loads, like gravity (rd_bodyLoadFactor)
  double fg = rd_bodyLoadFactor(m, t);
  for (int e = 0; e < m->nbeam; e++) {
    double f = fg;
    int st = m->beam[e].def.timefn == RD_NO_TIMEFN ? RD_OK
                                                   : rd_timeFnEval(m, m->beam[e].def.timefn, t, &f);
    if (st != RD_OK) {
      return st;
    }
    d->beamscale[e] = f;
  }
  int nt = d->nbeamslot;
#ifdef _OPENMP
  if (m->opt.threads > 0 && m->opt.threads < nt) {
    nt = m->opt.threads;
  }
#endif
  for (int col = 0; col < m->nbeamcolor; col++) {
    int lo = m->beam_color[col], hi = m->beam_color[col + 1];
    int bad = INT_MAX;
    RD_OMP("omp parallel for num_threads(nt) schedule(static) if (nt > 1 && hi - lo > 1)")
    for (int k = lo; k < hi; k++) {
      int slot = 0;
#ifdef _OPENMP
      slot = omp_get_thread_num();
#endif
      if (beam_one(m, d, slot, m->beam_order[k], fg, q, v, vd, c, r, Ax) != RD_OK) {
        RD_OMP("omp critical(rd_beam_bad)")
        if (k < bad) {
          bad = k;
        }
      }
    }
    if (bad != INT_MAX) {
      // the first failing element of the group, again serially to raise the kernel's message
      int e = m->beam_order[bad];
      const rdModelBeam* b = &m->beam[e];
      double *br, *S, *T, *work;
      rd_assembleBeamScratch(m, d, 0, b->def.nnode, &br, &S, &T, &work);
      rdBeamLoads ld;
      beam_loads(m, &b->def, d->beamscale[e], fg, &ld);
      rd_beamEvalWork(b->kernel, work, q, v, vd, &ld, br, NULL, NULL, NULL);
      char msg[RD_ERRLEN / 2];
      snprintf(msg, sizeof(msg), "%s", rd_lastError(m->ctx));
      return RD_ERROR(m->ctx, RD_RECOVER_NEWTON, "%s%sbeam '%s': %s", b->origin,
                      *b->origin ? ": " : "", b->def.name, msg);
    }
  }
  return RD_OK;
}
