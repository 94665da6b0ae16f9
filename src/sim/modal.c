// SPDX-License-Identifier: MIT
// Linearization and modes (include/rodrigues/modal.h, docs/modal.md): the operating point, the
// reduced matrices, the eigen-solution, and the normalization and classification of the shapes.
#include <math.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "solver/eigen.h"
#include "solver/nullspace.h"
#include "src/math/vec3.h"
#include "src/model/data_impl.h"
#include "src/sim/modal_impl.h"

// last: lapacke.h brings complex.h, whose macro I clashes with names (LAPACKE is loaded when first
// used, src/core/lapack.h)
#include "src/core/lapack.h"

static const char* const matrix_names[RD_LIN_COUNT] = {"M", "D", "K", "B", "N", "Mr", "Dr", "Kr"};

static const char* const kind_names[RD_MODE_KIND_COUNT] = {
    "rigid", "axial", "torsion", "flap", "edge", "bending_y", "bending_z", "shear", "other"};

#define TWO_PI 6.283185307179586476925

// a mode whose beams carry less strain energy than this part of its kinetic energy is not a beam
// mode (rigid bodies on springs, mechanisms)
#define BEAM_ENERGY_MIN 1e-3


int rd_linValid(const rdLinearization* lin) {
  return lin && lin->magic == RD_MAGIC_LIN;
}


int rd_modesValid(const rdModes* modes) {
  return modes && modes->magic == RD_MAGIC_MODES;
}


rdLinearizeDef rd_defaultLinearizeDef(void) {
  rdLinearizeDef d;
  memset(&d, 0, sizeof(d));
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


rdModalDef rd_defaultModalDef(void) {
  rdModalDef d;
  memset(&d, 0, sizeof(d));
  d.count = 10;
  d.cookie_ = RD_DEF_COOKIE;
  return d;
}


const char* rd_linearMatrixName(int which) {
  return which >= 0 && which < RD_LIN_COUNT ? matrix_names[which] : NULL;
}


const char* rd_modeKindName(int kind) {
  return kind >= 0 && kind < RD_MODE_KIND_COUNT ? kind_names[kind] : NULL;
}


void rd_destroyLinearization(rdLinearization** plin) {
  if (!plin || !rd_linValid(*plin)) {
    return;
  }
  rdLinearization* lin = *plin;
  rdContext* ctx = lin->ctx;
  for (int k = 0; k < RD_LIN_COUNT; k++) {
    rd_cscFree(ctx, &lin->mat[k]);
  }
  rd_free(ctx, lin->q);
  rd_free(ctx, lin->v);
  rd_free(ctx, lin->vd);
  rd_free(ctx, lin->lam);
  lin->magic = 0;
  rd_free(ctx, lin);
  *plin = NULL;
}


// largest |entry|
static double max_abs(const rdCsc* A) {
  double big = 0;
  for (int p = 0; p < A->Ap[A->ncol]; p++) {
    big = fmax(big, fabs(A->Ax[p]));
  }
  return big;
}


// D = 0 and M, K symmetric, each to 1e-9 of its largest entry (D: of sqrt(|K| |M|))
static int is_symmetric(const rdCsc* M, const rdCsc* D, const rdCsc* K) {
  double mm, ms, km, ks;
  rd_cscSymmetry(M, &mm, &ms);
  rd_cscSymmetry(K, &km, &ks);
  return ms <= 1e-9 * mm && ks <= 1e-9 * km && max_abs(D) <= 1e-9 * sqrt(km * mm);
}


static int check_def(rdContext* ctx, const rdLinearizeDef* def, rdLinFrame* f, double axis[3]) {
  memset(f, 0, sizeof(*f));
  memset(axis, 0, 3 * sizeof(double));
  if (def->cookie_ != RD_DEF_COOKIE) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_linearize: def not from rd_defaultLinearizeDef()");
  }
  double a = v3_norm(def->spin_axis);
  if (!isfinite(def->spin_rate) || !isfinite(a) || !isfinite(v3_norm(def->spin_center))) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_linearize: non-finite spin");
  }
  v3_copy(f->center, def->spin_center);
  if (def->spin_rate == 0) {
    return RD_OK;
  }
  if (!(a > 0)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_linearize: a spin of %g rad/s needs a spin axis",
                    def->spin_rate);
  }
  v3_scale(axis, def->spin_axis, 1 / a);
  v3_scale(f->omega, axis, def->spin_rate);
  return RD_OK;
}


int rd_linearize(const rdModel* m, rdData* d, const rdLinearizeDef* def, rdLinearization** out) {
  if (!out) {
    return RD_ERR_ARG;
  }
  *out = NULL;
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = m->ctx;
  if (d->model != m) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_linearize: data was made from another model");
  }
  if (!m->pattern) {
    return RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                    "rd_linearize: needs solver.method generalized_alpha or static (the matrix "
                    "pattern); the model uses '%s'",
                    rd_methodName(m->opt.method));
  }
  if (!d->initialized || d->in_step) {
    return RD_ERROR(ctx, RD_ERR_STATE, "rd_linearize: %s",
                    d->in_step ? "inside a step (rd_stepBegin)" : "call rd_initialize first");
  }
  rdLinearizeDef dflt = rd_defaultLinearizeDef();
  def = def ? def : &dflt;
  rdLinFrame f;
  double axis[3];
  int st = check_def(ctx, def, &f, axis);
  if (st != RD_OK) {
    return st;
  }
  rdLinearization* lin = rd_calloc(ctx, 1, sizeof(rdLinearization));
  if (!lin) {
    return RD_ERR_NOMEM;
  }
  lin->magic = RD_MAGIC_LIN;
  lin->model = m;
  lin->ctx = ctx;
  lin->t = d->s.t;
  lin->frame = f;
  lin->spin_rate = def->spin_rate;
  v3_copy(lin->axis, axis);
  size_t nn = (size_t)m->nnode, nc = (size_t)m->nconstraint;
  size_t N = (size_t)(m->ndof + m->nconstraint);
  lin->q = rd_alloc(ctx, sizeof(double) * 7 * nn + 1);
  lin->v = rd_alloc(ctx, sizeof(double) * 6 * nn + 1);
  lin->vd = rd_alloc(ctx, sizeof(double) * 6 * nn + 1);
  lin->lam = rd_alloc(ctx, sizeof(double) * (nc + 1));
  double* r = rd_alloc(ctx, sizeof(double) * (N + 1));
  st = lin->q && lin->v && lin->vd && lin->lam && r ? RD_OK : RD_ERR_NOMEM;
  int spin = def->spin_rate != 0;
  if (st == RD_OK && def->steady) {
    st = rd_linSteady(m, d, d->s.t, &f, d->s.q, d->s.lambda, &lin->steady_iterations);
    if (st == RD_OK) {
      // the data now rests (or spins steadily) there
      rd_linFrameRates(m, &f, d->s.q, d->s.v, d->s.vd);
      memcpy(d->s.a, d->s.vd, sizeof(double) * 6 * nn);
    }
  }
  if (st == RD_OK) {
    memcpy(lin->q, d->s.q, sizeof(double) * 7 * nn);
    memcpy(lin->lam, d->s.lambda, sizeof(double) * nc);
    if (spin) {
      rd_linFrameRates(m, &f, lin->q, lin->v, lin->vd);
    } else {
      memcpy(lin->v, d->s.v, sizeof(double) * 6 * nn);
      memcpy(lin->vd, d->s.vd, sizeof(double) * 6 * nn);
    }
    rdCsc* A = lin->mat;
    st = rd_linMatrices(m, d, lin->t, lin->q, lin->v, lin->vd, lin->lam, &f, r, &A[RD_LIN_M],
                        &A[RD_LIN_D], &A[RD_LIN_K], &A[RD_LIN_B]);
  }
  if (st == RD_OK) {
    for (int k = 0; k < m->ndof; k++) {
      lin->residual = fmax(lin->residual, fabs(r[k]));
    }
    rdCsc* A = lin->mat;
    lin->symmetric = is_symmetric(&A[RD_LIN_M], &A[RD_LIN_D], &A[RD_LIN_K]);
    st = rd_nullSpace(ctx, &A[RD_LIN_B], m->opt.redundant_tol, &A[RD_LIN_N], &lin->rank);
    for (int k = 0; st == RD_OK && k < 3; k++) {
      st = rd_nullSpaceReduce(ctx, &A[RD_LIN_N], &A[RD_LIN_M + k], &A[RD_LIN_MR + k]);
    }
  }
  rd_free(ctx, r);
  if (st != RD_OK) {
    rd_destroyLinearization(&lin);
    return st;
  }
  *out = lin;
  return RD_OK;
}


int rd_getLinearizationInfo(const rdLinearization* lin, rdLinearizationInfo* info) {
  if (!rd_linValid(lin)) {
    return RD_ERR_HANDLE;
  }
  if (!info) {
    return RD_ERR_ARG;
  }
  const rdModel* m = lin->model;
  info->ndof = m->ndof;
  info->nconstraint = m->nconstraint;
  info->rank = lin->rank;
  info->nreduced = lin->mat[RD_LIN_N].ncol;
  info->time = lin->t;
  info->spin_rate = lin->spin_rate;
  info->symmetric = lin->symmetric;
  info->residual = lin->residual;
  info->steady_iterations = lin->steady_iterations;
  return RD_OK;
}


int rd_getLinearMatrix(const rdLinearization* lin, int which, int* nrow, int* ncol, int* nnz,
                       int* Ap, int* Ai, double* Ax) {
  if (!rd_linValid(lin)) {
    return RD_ERR_HANDLE;
  }
  if (which < 0 || which >= RD_LIN_COUNT) {
    return RD_ERROR(lin->ctx, RD_ERR_ARG, "rd_getLinearMatrix: no matrix %d", which);
  }
  const rdCsc* A = &lin->mat[which];
  int z = A->Ap ? A->Ap[A->ncol] : 0;
  if (nrow) {
    *nrow = A->nrow;
  }
  if (ncol) {
    *ncol = A->ncol;
  }
  if (nnz) {
    *nnz = z;
  }
  if (Ap && A->Ap) {
    memcpy(Ap, A->Ap, sizeof(int) * ((size_t)A->ncol + 1));
  }
  if (Ai && z) {
    memcpy(Ai, A->Ai, sizeof(int) * (size_t)z);
  }
  if (Ax && z) {
    memcpy(Ax, A->Ax, sizeof(double) * (size_t)z);
  }
  return RD_OK;
}


// ---------------------------------------------------------------------------------------------
// modes

void rd_destroyModes(rdModes** pm) {
  if (!pm || !rd_modesValid(*pm)) {
    return;
  }
  rdModes* md = *pm;
  rdContext* ctx = md->ctx;
  rd_free(ctx, md->q);
  rd_free(ctx, md->info);
  rd_free(ctx, md->re);
  rd_free(ctx, md->im);
  md->magic = 0;
  rd_free(ctx, md);
  *pm = NULL;
}


int rd_modeCount(const rdModes* md) {
  return rd_modesValid(md) ? md->count : 0;
}


// the diagonal of the box around the nodes (1 for a single node)
static double model_size(const rdModel* m, const double* q) {
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) {
    lo[k] = hi[k] = m->nnode ? q[k] : 0;
  }
  for (int i = 0; i < m->nnode; i++) {
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], q[7 * i + k]);
      hi[k] = fmax(hi[k], q[7 * i + k]);
    }
  }
  double d[3];
  v3_sub(d, hi, lo);
  double L = v3_norm(d);
  return L > 0 ? L : 1;
}


// DOF vector y (ndof) to node shapes s (nnode x 6, rotations 0 for point nodes)
static void to_nodes(const rdModel* m, const double* y, double* s) {
  memset(s, 0, sizeof(double) * 6 * (size_t)m->nnode);
  for (int i = 0; i < m->nnode; i++) {
    int nd = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    memcpy(s + 6 * i, y + m->node_dof[i], sizeof(double) * (size_t)nd);
  }
}


// and back
static void to_dofs(const rdModel* m, const double* s, double* y) {
  for (int i = 0; i < m->nnode; i++) {
    int nd = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    memcpy(y + m->node_dof[i], s + 6 * i, sizeof(double) * (size_t)nd);
  }
}


// normalize the shape (re, im: nnode x 6) in place: the largest nodal translation (or, without
// translation, the largest rotation times L) gets modulus 1, its largest component phase 0
static void normalize_shape(int nnode, double L, double* re, double* im) {
  double tmax = 0, rmax = 0;
  int ti = 0, ri = 0;
  for (int i = 0; i < nnode; i++) {
    double t = 0, r = 0;
    for (int k = 0; k < 3; k++) {
      t += re[6 * i + k] * re[6 * i + k] + im[6 * i + k] * im[6 * i + k];
      r += re[6 * i + 3 + k] * re[6 * i + 3 + k] + im[6 * i + 3 + k] * im[6 * i + 3 + k];
    }
    if (t > tmax) {
      tmax = t;
      ti = i;
    }
    if (r > rmax) {
      rmax = r;
      ri = i;
    }
  }
  tmax = sqrt(tmax);
  rmax = sqrt(rmax);
  int use_t = tmax > 1e-6 * L * rmax;
  int node = use_t ? ti : ri, c0 = use_t ? 0 : 3;
  double mag = use_t ? tmax : L * rmax;
  if (!(mag > 0)) {
    return;
  }
  // the phase of the node's largest component
  int c = c0;
  double big = -1;
  for (int k = c0; k < c0 + 3; k++) {
    double a = hypot(re[6 * node + k], im[6 * node + k]);
    if (a > big) {
      big = a;
      c = k;
    }
  }
  double ph = atan2(im[6 * node + c], re[6 * node + c]);
  double cr = cos(-ph) / mag, ci = sin(-ph) / mag;
  for (int j = 0; j < 6 * nnode; j++) {
    double a = re[j], b = im[j];
    re[j] = a * cr - b * ci;
    im[j] = a * ci + b * cr;
  }
}


// x^T A y
static double quad_form(const rdCsc* A, const double* x, const double* y, double* t) {
  rd_cscMatVec(A, y, t, 0);
  double s = 0;
  for (int i = 0; i < A->nrow; i++) {
    s += x[i] * t[i];
  }
  return s;
}


// the rigid motions r_d (ndof): translations along global x, y, z, rotations about them through
// the center c, of the configuration q
static void rigid_motion(const rdModel* m, const double* q, const double* c, int dir, double* r) {
  memset(r, 0, sizeof(double) * (size_t)m->ndof);
  for (int i = 0; i < m->nnode; i++) {
    double* ri = r + m->node_dof[i];
    const double* x = q + 7 * i;
    if (dir < 3) {
      ri[dir] = 1;
      continue;
    }
    double e[3] = {0, 0, 0}, d[3];
    e[dir - 3] = 1;
    v3_sub(d, x, c);
    v3_cross(ri, e, d);
    if (m->node_kind[i] == RD_NODE_RIGID) {
      rdu_quatRotateInv(ri + 3, x + 3, e);
    }
  }
}


// the strain-energy parts (axial, shear, torsion, bending y, bending z) of the beams in the
// mode's part y (nnode x 6): central differences of the section forces at q o exp(+-h y)
typedef struct {
  double* qp;    // nnode x 7
  double* qm;    // nnode x 7
  double* zero;  // nnode x 6
  double* res;   // 6 x largest beam
  double* work;  // kernel workspace of the largest beam
  double* Fp;    // 6 x most quadrature points
  double* Fm;
} beamScratch;


static void perturb(const rdModel* m, const double* q0, const double* y, double h, double* q) {
  for (int i = 0; i < m->nnode; i++) {
    const double* a = q0 + 7 * i;
    double* b = q + 7 * i;
    for (int k = 0; k < 3; k++) {
      b[k] = a[k] + h * y[6 * i + k];
    }
    if (m->node_kind[i] != RD_NODE_RIGID) {
      memcpy(b + 3, a + 3, 4 * sizeof(double));
      continue;
    }
    double p[3], e[4], r4[4];
    v3_scale(p, y + 6 * i + 3, h);
    rdu_rotvecToQuat(e, p);
    rdu_quatMul(r4, a + 3, e);
    rdu_quatNormalize(b + 3, r4);
  }
}


static int beam_energy(const rdModel* m, const double* q0, const double* y, double h,
                       beamScratch* w, double parts[5]) {
  const rdLapack* la = rd_lapack(m->ctx, "the modes' energy parts");
  if (!la) {
    return RD_ERR_IO;
  }
  perturb(m, q0, y, h, w->qp);
  perturb(m, q0, y, -h, w->qm);
  for (int e = 0; e < m->nbeam; e++) {
    const rdBeam* b = m->beam[e].kernel;
    int nq = rd_beamQuadPoints(b);
    double x[3];
    int st = rd_beamEvalWork(b, w->work, w->qp, w->zero, w->zero, NULL, w->res, NULL, NULL, NULL);
    for (int g = 0; st == RD_OK && g < nq; g++) {
      rd_beamQuadForcesWork(b, w->work, g, x, w->Fp + 6 * g);
    }
    if (st == RD_OK) {
      st = rd_beamEvalWork(b, w->work, w->qm, w->zero, w->zero, NULL, w->res, NULL, NULL, NULL);
    }
    for (int g = 0; st == RD_OK && g < nq; g++) {
      rd_beamQuadForcesWork(b, w->work, g, x, w->Fm + 6 * g);
    }
    if (st != RD_OK) {
      return st;
    }
    for (int g = 0; g < nq; g++) {
      double jw, K[36], dF[6], de[6];
      rd_beamQuadSection(b, g, &jw, K);
      for (int k = 0; k < 6; k++) {
        dF[k] = (w->Fp[6 * g + k] - w->Fm[6 * g + k]) / (2 * h);
        de[k] = dF[k];
      }
      // the strains: K de = dF (K symmetric positive definite, checked at compile)
      if (la->dposv(LAPACK_ROW_MAJOR, 'U', 6, 1, K, 6, de, 1) != 0) {
        continue;
      }
      static const int part[6] = {0, 1, 1, 2, 3, 4};
      for (int k = 0; k < 6; k++) {
        parts[part[k]] += 0.5 * jw * de[k] * dF[k];
      }
    }
  }
  return RD_OK;
}


static void free_scratch(rdContext* ctx, beamScratch* w) {
  rd_free(ctx, w->qp);
  rd_free(ctx, w->qm);
  rd_free(ctx, w->zero);
  rd_free(ctx, w->res);
  rd_free(ctx, w->work);
  rd_free(ctx, w->Fp);
  rd_free(ctx, w->Fm);
  memset(w, 0, sizeof(*w));
}


static int alloc_scratch(const rdModel* m, beamScratch* w) {
  rdContext* ctx = m->ctx;
  memset(w, 0, sizeof(*w));
  size_t work = 1, res = 1, nq = 1, nn = (size_t)m->nnode;
  for (int e = 0; e < m->nbeam; e++) {
    const rdBeam* b = m->beam[e].kernel;
    size_t s = rd_beamWorkSize(b), r = 6 * (size_t)rd_beamNodes(b),
           g = (size_t)rd_beamQuadPoints(b);
    work = s > work ? s : work;
    res = r > res ? r : res;
    nq = g > nq ? g : nq;
  }
  w->qp = rd_alloc(ctx, sizeof(double) * 7 * nn + 1);
  w->qm = rd_alloc(ctx, sizeof(double) * 7 * nn + 1);
  w->zero = rd_calloc(ctx, 6 * nn + 1, sizeof(double));
  w->res = rd_alloc(ctx, sizeof(double) * res);
  w->work = rd_alloc(ctx, sizeof(double) * work);
  w->Fp = rd_alloc(ctx, sizeof(double) * 6 * nq);
  w->Fm = rd_alloc(ctx, sizeof(double) * 6 * nq);
  if (!w->qp || !w->qm || !w->zero || !w->res || !w->work || !w->Fp || !w->Fm) {
    free_scratch(ctx, w);
    return RD_ERR_NOMEM;
  }
  return RD_OK;
}


// modal mass, mass fractions and classification of mode k (shapes already normalized)
static int describe(const rdLinearization* lin, rdModes* md, int k, const double* flap,
                    double omega_rigid, beamScratch* w, double* yr, double* yi, double* t,
                    const double* Mr, const double* total) {
  const rdModel* m = lin->model;
  const rdCsc* M = &lin->mat[RD_LIN_M];
  rdModeInfo* info = &md->info[k];
  size_t ns = 6 * (size_t)m->nnode;
  const double* sr = md->re + (size_t)k * ns;
  const double* si = md->im + (size_t)k * ns;
  memset(yr, 0, sizeof(double) * (size_t)m->ndof);
  memset(yi, 0, sizeof(double) * (size_t)m->ndof);
  to_dofs(m, sr, yr);
  to_dofs(m, si, yi);
  double mm = quad_form(M, yr, yr, t) + quad_form(M, yi, yi, t);
  info->modal_mass = mm;
  int has_im = 0;
  for (size_t j = 0; j < ns && !has_im; j++) {
    has_im = si[j] != 0;
  }
  for (int dir = 0; dir < 6; dir++) {
    const double* mr = Mr + (size_t)dir * (size_t)m->ndof;
    double lr = 0, li = 0;
    for (int j = 0; j < m->ndof; j++) {
      lr += yr[j] * mr[j];
      li += yi[j] * mr[j];
    }
    info->mass_fraction[dir] =
        total[dir] > 0 && mm > 0 ? (lr * lr + li * li) / (mm * total[dir]) : 0;
  }
  double wn = hypot(info->eigenvalue[0], info->eigenvalue[1]);
  if (wn <= omega_rigid) {
    info->kind = RD_MODE_RIGID;
    return RD_OK;
  }
  // beam strain energy: both parts of the shape, perturbations of 1e-7 of the model's size
  double parts[5] = {0, 0, 0, 0, 0}, h = 1e-7 * md->stats.length;
  int st = m->nbeam ? beam_energy(m, md->q, sr, h, w, parts) : RD_OK;
  if (st == RD_OK && m->nbeam && has_im) {
    st = beam_energy(m, md->q, si, h, w, parts);
  }
  if (st != RD_OK) {
    return st;
  }
  double eb = parts[0] + parts[1] + parts[2] + parts[3] + parts[4];
  if (!(eb > BEAM_ENERGY_MIN * 0.5 * wn * wn * mm)) {
    info->kind = RD_MODE_OTHER;
    return RD_OK;
  }
  for (int j = 0; j < 5; j++) {
    info->energy[j] = parts[j] / eb;
  }
  double fam[4] = {parts[0], parts[1], parts[2], parts[3] + parts[4]};
  int best = 0;
  for (int j = 1; j < 4; j++) {
    best = fam[j] > fam[best] ? j : best;
  }
  static const int kinds[4] = {RD_MODE_AXIAL, RD_MODE_SHEAR, RD_MODE_TORSION, RD_MODE_BENDING_Y};
  info->kind = kinds[best];
  if (best != 3) {
    return RD_OK;
  }
  if (!flap) {
    info->kind = parts[3] >= parts[4] ? RD_MODE_BENDING_Y : RD_MODE_BENDING_Z;
    return RD_OK;
  }
  // bending: flap if the translations are mostly along the flap axis (mass-weighted)
  double along = 0, across = 0;
  for (int part = 0; part < 2; part++) {
    const double* s = part ? si : sr;
    memset(yr, 0, sizeof(double) * (size_t)m->ndof);
    memset(yi, 0, sizeof(double) * (size_t)m->ndof);
    for (int i = 0; i < m->nnode; i++) {
      double a = v3_dot(s + 6 * i, flap);
      for (int c = 0; c < 3; c++) {
        yr[m->node_dof[i] + c] = a * flap[c];
        yi[m->node_dof[i] + c] = s[6 * i + c] - a * flap[c];
      }
    }
    along += quad_form(M, yr, yr, t);
    across += quad_form(M, yi, yi, t);
  }
  info->kind = along >= across ? RD_MODE_FLAP : RD_MODE_EDGE;
  return RD_OK;
}


// the largest |lambda| of a rigid-body (zero-frequency) mode: the given one (> 0), or: below
// RIGID_FLOOR sqrt(rho) (round-off of a zero eigenvalue, rho = max K_ii / M_ii), or a cluster
// of the lowest modes separated from the next by a factor RIGID_GAP and below RIGID_TOP sqrt(rho)
// (the shifted solvers compute zero to about 1e-10 sqrt(rho), docs/modal.md); every mode of a
// model without stiffness
#define RIGID_FLOOR 1e-9
#define RIGID_GAP 1e3
#define RIGID_TOP 1e-6

static double rigid_threshold(const rdEigen* e, double rho, double given) {
  if (given > 0) {
    return given;
  }
  if (!(rho > 0)) {
    return INFINITY;
  }
  double w = RIGID_FLOOR * sqrt(rho), top = RIGID_TOP * sqrt(rho);
  for (int k = 0; k + 1 < e->count; k++) {
    double a = hypot(e->lre[k], e->lim[k]), b = hypot(e->lre[k + 1], e->lim[k + 1]);
    if (a <= top && b > RIGID_GAP * a) {
      w = fmax(w, a);
      break;
    }
  }
  return w;
}


static int alloc_modes(const rdLinearization* lin, int count, rdModes** out) {
  const rdModel* m = lin->model;
  rdContext* ctx = lin->ctx;
  rdModes* md = rd_calloc(ctx, 1, sizeof(rdModes));
  if (!md) {
    return RD_ERR_NOMEM;
  }
  md->magic = RD_MAGIC_MODES;
  md->model = m;
  md->ctx = ctx;
  md->count = count;
  md->nnode = m->nnode;
  size_t ns = 6 * (size_t)m->nnode * (size_t)count + 1;
  md->q = rd_alloc(ctx, sizeof(double) * 7 * (size_t)m->nnode + 1);
  md->info = rd_calloc(ctx, (size_t)count + 1, sizeof(rdModeInfo));
  md->re = rd_calloc(ctx, ns, sizeof(double));
  md->im = rd_calloc(ctx, ns, sizeof(double));
  if (!md->q || !md->info || !md->re || !md->im) {
    rd_destroyModes(&md);
    return RD_ERR_NOMEM;
  }
  memcpy(md->q, lin->q, sizeof(double) * 7 * (size_t)m->nnode);
  md->t = lin->t;
  md->spin_rate = lin->spin_rate;
  v3_copy(md->axis, lin->axis);
  v3_copy(md->center, lin->frame.center);
  *out = md;
  return RD_OK;
}


// eigen-solution of the reduced problem with the solver def asks for (or the automatic choice)
static int solve(const rdLinearization* lin, const rdModalDef* def, int sym, int* solver,
                 rdEigen* e) {
  const rdCsc* A = lin->mat;
  int nr = A[RD_LIN_MR].nrow;
  int count = def->count < nr ? def->count : nr;
  *solver = def->solver;
  if (*solver == RD_EIGEN_AUTO) {
    *solver = nr <= RD_MODAL_DENSE_MAX || 2 * count >= nr ? RD_EIGEN_DENSE : RD_EIGEN_ARPACK;
  }
  if (*solver == RD_EIGEN_ARPACK && (nr < 4 || count >= nr - 2)) {
    return RD_ERROR(lin->ctx, RD_ERR_ARG,
                    "modes: ARPACK needs fewer modes (%d) than reduced unknowns (%d) minus 2; use "
                    "the dense solver",
                    count, nr);
  }
  rdEigenOpts o = {count, sym, 0, def->tolerance, def->max_restarts, 0};
  double w = TWO_PI * def->shift_hz;
  o.shift = w * w;
  if (*solver == RD_EIGEN_DENSE) {
    return rd_eigenDense(lin->ctx, &A[RD_LIN_MR], &A[RD_LIN_DR], &A[RD_LIN_KR], &o, e);
  }
  return rd_eigenArpack(lin->ctx, &A[RD_LIN_MR], &A[RD_LIN_DR], &A[RD_LIN_KR], &o, e);
}


static int check_modal_def(rdContext* ctx, const rdModalDef* def) {
  if (def->cookie_ != RD_DEF_COOKIE) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_computeModes: def not from rd_defaultModalDef()");
  }
  if (def->count < 1 || def->solver < RD_EIGEN_AUTO || def->solver > RD_EIGEN_ARPACK ||
      !(def->shift_hz >= 0) || !(def->tolerance >= 0) || def->max_restarts < 0 ||
      !isfinite(v3_norm(def->flap_axis)) || !(def->rigid_tol_hz >= 0)) {
    return RD_ERROR(ctx, RD_ERR_ARG,
                    "rd_computeModes: count %d (>= 1), solver %d, shift %g Hz, tolerance %g, "
                    "restarts %d, rigid tolerance %g Hz (each >= 0)",
                    def->count, def->solver, def->shift_hz, def->tolerance, def->max_restarts,
                    def->rigid_tol_hz);
  }
  return RD_OK;
}


int rd_computeModes(const rdLinearization* lin, const rdModalDef* def, rdModes** out) {
  if (!out) {
    return RD_ERR_ARG;
  }
  *out = NULL;
  if (!rd_linValid(lin)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = lin->ctx;
  const rdModel* m = lin->model;
  rdModalDef dflt = rd_defaultModalDef();
  def = def ? def : &dflt;
  int st = check_modal_def(ctx, def);
  if (st != RD_OK) {
    return st;
  }
  const rdCsc* A = lin->mat;
  int nr = A[RD_LIN_MR].nrow;
  if (nr == 0) {
    return RD_ERROR(ctx, RD_ERR_ARG, "modes: the constraints leave no degree of freedom");
  }
  int sym = lin->symmetric && !def->general, solver = 0;
  rdEigen e;
  st = solve(lin, def, sym, &solver, &e);
  if (st != RD_OK) {
    return st;
  }
  rdModes* md = NULL;
  st = alloc_modes(lin, e.count, &md);
  size_t nd = (size_t)m->ndof, ns = 6 * (size_t)m->nnode;
  double* yr = rd_alloc(ctx, sizeof(double) * (nd + 1));
  double* yi = rd_alloc(ctx, sizeof(double) * (nd + 1));
  double* t = rd_alloc(ctx, sizeof(double) * (nd + 1));
  double* r = rd_alloc(ctx, sizeof(double) * (nd + 1));
  double* Mr = rd_alloc(ctx, sizeof(double) * (6 * nd + 1));
  beamScratch w;
  memset(&w, 0, sizeof(w));
  if (st == RD_OK) {
    st = yr && yi && t && r && Mr ? alloc_scratch(m, &w) : RD_ERR_NOMEM;
  }
  if (st == RD_OK) {
    md->stats.solver = solver;
    md->stats.symmetric = sym;
    md->stats.converged = e.converged;
    md->stats.restarts = e.restarts;
    md->stats.products = e.products;
    md->stats.sigma = e.sigma;
    md->stats.length = model_size(m, lin->q);
    md->stats.spin_rate = lin->spin_rate;
    md->stats.time = lin->t;
    // the flap axis: given, or the spin axis
    double flap[3];
    double fa = v3_norm(def->flap_axis);
    if (fa > 0) {
      v3_scale(flap, def->flap_axis, 1 / fa);
    } else {
      v3_copy(flap, lin->axis);
    }
    int has_flap = v3_norm(flap) > 0;
    double rho = rd_eigenScale(&A[RD_LIN_MR], &A[RD_LIN_KR]);
    md->stats.scale_hz = sqrt(rho) / TWO_PI;
    double wr = rigid_threshold(&e, rho, TWO_PI * def->rigid_tol_hz);
    // the rigid motions' M r and r^T M r (the mass fractions), once
    double total[6];
    for (int dir = 0; dir < 6; dir++) {
      double* mr = Mr + (size_t)dir * nd;
      rigid_motion(m, lin->q, lin->frame.center, dir, r);
      rd_cscMatVec(&lin->mat[RD_LIN_M], r, mr, 0);
      total[dir] = 0;
      for (size_t j = 0; j < nd; j++) {
        total[dir] += r[j] * mr[j];
      }
    }
    int nkind[RD_MODE_KIND_COUNT] = {0};
    for (int k = 0; st == RD_OK && k < md->count; k++) {
      rdModeInfo* info = &md->info[k];
      double lr = e.lre[k], li = e.lim[k], a = hypot(lr, li);
      info->eigenvalue[0] = lr;
      info->eigenvalue[1] = li;
      info->frequency_hz = fabs(li) / (TWO_PI);
      info->natural_hz = a / (TWO_PI);
      info->damping_ratio = a > 0 ? -lr / a : 0;
      // y = N z, node layout, normalized
      double* sr = md->re + (size_t)k * ns;
      double* si = md->im + (size_t)k * ns;
      rd_cscMatVec(&A[RD_LIN_N], e.zre + (size_t)k * (size_t)nr, yr, 0);
      rd_cscMatVec(&A[RD_LIN_N], e.zim + (size_t)k * (size_t)nr, yi, 0);
      to_nodes(m, yr, sr);
      to_nodes(m, yi, si);
      normalize_shape(m->nnode, md->stats.length, sr, si);
      st = describe(lin, md, k, has_flap ? flap : NULL, wr, &w, yr, yi, t, Mr, total);
      info->kind_index = ++nkind[info->kind];
    }
  }
  rd_eigenFree(ctx, &e);
  free_scratch(ctx, &w);
  rd_free(ctx, yr);
  rd_free(ctx, yi);
  rd_free(ctx, t);
  rd_free(ctx, r);
  rd_free(ctx, Mr);
  if (st != RD_OK) {
    rd_destroyModes(&md);
    return st;
  }
  *out = md;
  return RD_OK;
}


int rd_getMode(const rdModes* md, int k, rdModeInfo* info) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  if (!info || k < 0 || k >= md->count) {
    return RD_ERROR(md->ctx, RD_ERR_ARG, "rd_getMode: mode %d of %d", k, md->count);
  }
  *info = md->info[k];
  return RD_OK;
}


int rd_getModeShape(const rdModes* md, int k, double* re, double* im) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  if (k < 0 || k >= md->count) {
    return RD_ERROR(md->ctx, RD_ERR_ARG, "rd_getModeShape: mode %d of %d", k, md->count);
  }
  size_t ns = 6 * (size_t)md->nnode;
  if (re) {
    memcpy(re, md->re + (size_t)k * ns, sizeof(double) * ns);
  }
  if (im) {
    memcpy(im, md->im + (size_t)k * ns, sizeof(double) * ns);
  }
  return RD_OK;
}


int rd_getModesInfo(const rdModes* md, rdModesInfo* info) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  if (!info) {
    return RD_ERR_ARG;
  }
  *info = md->stats;
  return RD_OK;
}


double rd_modeMac(const rdModes* a, int i, const rdModes* b, int j) {
  if (!rd_modesValid(a) || !rd_modesValid(b) || a->model != b->model || i < 0 || i >= a->count ||
      j < 0 || j >= b->count) {
    return NAN;
  }
  size_t ns = 6 * (size_t)a->nnode;
  const double *ar = a->re + (size_t)i * ns, *ai = a->im + (size_t)i * ns;
  const double *br = b->re + (size_t)j * ns, *bi = b->im + (size_t)j * ns;
  double L = a->stats.length;
  // a^H b = (ar - i ai)^T (br + i bi)
  double cr = 0, ci = 0, na = 0, nb = 0;
  for (size_t k = 0; k < ns; k++) {
    double s = k % 6 < 3 ? 1 : L * L;
    cr += s * (ar[k] * br[k] + ai[k] * bi[k]);
    ci += s * (ar[k] * bi[k] - ai[k] * br[k]);
    na += s * (ar[k] * ar[k] + ai[k] * ai[k]);
    nb += s * (br[k] * br[k] + bi[k] * bi[k]);
  }
  return na > 0 && nb > 0 ? (cr * cr + ci * ci) / (na * nb) : 0;
}
