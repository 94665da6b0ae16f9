// SPDX-License-Identifier: MIT
// Mixed stepping (docs/mixed.md): the flexible part of a model advances with Lie-group
// generalized-alpha, its rigid subsystems with Krysl's explicit rigid-body methods and sub-steps.
//
// A step from t_n to t_n + H:
//  1. predictor pass: every subsystem tied to the flexible part takes its sub-steps with the
//     motion of the flexible nodes it sees predicted from t_n (x + tau v + tau^2/2 a, on the
//     group for rotations), its own loads evaluated as they come;
//  2. generalized-alpha step of the flexible part with the subsystem nodes held at their
//     predicted motion at t_n + H: the elements and callbacks that tie them to the flexible part
//     are assembled as usual, the subsystems' own loads are left out, and a body pinned to a
//     flexible node enters it condensed (its mass seen at the pivot, M_eff, and the force of
//     its rotation at zero pivot acceleration, f0, from the predicted state);
//  3. corrector pass: the subsystems start again from t_n and take their sub-steps with the
//     flexible motion interpolated between t_n and t_n + H (positions and rotations along the
//     straight line and the geodesic with the secant velocities; a moving pivot's acceleration
//     linear, its velocity and position integrated from it). Their final state is this pass's.
// Subsystems not tied to the flexible part skip the predictor pass: their corrector pass is
// their stand-alone method, bit for bit.
#include "solver/mixed.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "elements/element.h"
#include "elements/loads.h"
#include "elements/user_element.h"
#include "rodrigues/liegroup.h"
#include "solver/genalpha.h"
#include "solver/pattern.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/quat.h"
#include "src/math/vec3.h"

#define GA (&rd_stepperGeneralizedAlpha)

// what the flexible nodes do while a subsystem steps
enum { MX_PREDICT, MX_CORRECT, MX_START };

// a body pinned to a node of the flexible part, and its condensed effect on that node
typedef struct mxPivot_ {
  int sub, body;  // subsystem, body index in it
  int anchor;     // the flexible node the pivot moves with
  double pa[3];   // the pivot acceleration of the last load evaluation (m (g - pa) acted)
  double M[9];    // M_eff: the body's mass seen at the pivot (global, row-major)
  double f[3];    // f0: the force it exerts on the pivot at zero pivot acceleration (global)
  // a revolute joint (docs/mixed.md, "A body on a revolute joint"): the body turns about the
  // axis a fixed in both frames, R_B = R_F Q, Q = Q_0 exp(theta a); its memory keeps Q (qh),
  // theta' and theta'' (w[0], w[1])
  int rev;
  int joint;      // the joint (its axis torque acts on the body, sgn times)
  double sgn;     // +1 if the body is the joint's node 1, -1 if node 0
  double a[3];    // the axis in the body frame (unit)
  double M6[36];  // M_eff of the anchor's translation (global) and rotation (node frame), 6x6
  double f6[6];   // f0: force (global) and moment (node frame) on the anchor at zero acceleration
} mxPivot;

// the coupling loads on a free body at one load evaluation (global): force, torque about the
// body's rotation point (its centre of mass), the rotation point
typedef struct mxLoad_ {
  double f[3], tau[3], xr[3];
} mxLoad;

// a free body's coupling loads as the corrector pass evaluates them (docs/mixed.md, "Momentum")
typedef struct mxBodyLoads_ {
  double f[3], m[3];  // the evaluation under way: force and moment at the node (global)
  mxLoad end;         // the last evaluation at the end of a sub-step
  mxLoad mid;         // the last evaluation at the middle of a sub-step
  double q0[4];       // the attitude at the start of the sub-step
} mxBodyLoads;

struct mxWork_;

// one rigid subsystem
typedef struct mxSub_ {
  struct mxWork_* w;
  rgView* v;
  rgStep step;
  int substeps;
  int predictor;        // rdSubsystemPredictor
  int coupled;          // tied to the flexible part (elements, callbacks, user elements, pivots)
  int refresh;          // ... by loads that read its velocities: the corrector pass evaluates
                        // them afresh at t_n (the interpolated velocities jump between steps)
  int nif;              // flexible nodes its loads read
  int* ifnode;          // nif
  int nel;              // springs and bushings with a node in the subsystem
  int* el;              // nel
  int nus;              // user elements with a node in the subsystem
  int* us;              // nus
  unsigned char* skip;  // nnode: 1 for the nodes outside the subsystem (its loads' mask)
  rgMem* save;          // nb: the memory at t_n
  int* piv;             // nb: index into mxWork.piv of each body, -1 if not on a moving pivot
  int rev;              // its bodies are on revolute joints (all of them: rd_compile)
  // the momentum of the coupling (docs/mixed.md, "Momentum"): a subsystem of free bodies tied to
  // the flexible part by springs, bushings or user elements carries the step's impulse mismatch
  // of those loads into the next flexible step, as a constant load on the node `anode`
  int carry;
  int anode;
  double* D;        // 6, in the state memory: the mismatch of the last step (force, moment
                    // about the origin), the rigid side's impulse plus the flexible side's
  double* F;        // 6, in the state memory: the coupling loads on the flexible part at the end
                    // of the last flexible step (their resultant: force, moment about the origin)
  mxLoad* start;    // nb, in the state memory: the coupling loads the bodies' method holds at t_n
  mxBodyLoads* bl;  // nb
  double I[6];      // the mismatch of the step under way
  double Fn[6];     // the coupling loads on the flexible part at the end of the step under way
} mxSub;

typedef struct mxWork_ {
  int built;
  int pass;       // MX_PREDICT, MX_CORRECT or MX_START
  double tn, H;   // the step
  double t0, t1;  // the sub-step under way
  int reload;     // the loads at t_n are evaluated afresh (rg_reloadView)
  int nsub;
  mxSub* sub;  // nsub
  int npiv;
  mxPivot* piv;           // npiv
  double *q0, *v0, *vd0;  // nnode x 7 / 6 / 6: the state at t_n
  double *qx, *vx, *vdx;  // nnode x 7 / 6 / 6: what a subsystem's loads see
  double *hq, *hv, *hvd;  // nnode x 7 / 6 / 6: the motion generalized-alpha holds
  unsigned char* held;    // nnode: 1 for subsystem nodes
  int nclear;
  int* clear;  // nclear: matrix values in held rows and columns, off their diagonals
  int nunit;
  int* unit;  // nunit: the diagonals of held rows
  int ndrop;
  int* drop;  // ndrop: multiplier rows of the joints on subsystem nodes
  rdGaHold hold;
} mxWork;


// ---------------------------------------------------------------------------------------------
// the model's partition as the flexible step sees it

// the node of DOF k (node_dof increases with the node)
static int dof_node(const rdModel* m, int k) {
  int lo = 0, hi = m->nnode - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (m->node_dof[mid] <= k) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}


// the joint of multiplier row r (rows increase with the joint)
static int row_joint(const rdModel* m, int r) {
  int lo = 0, hi = m->njoint - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (m->joint[mid].row <= r) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}


// 1 if joint j holds a subsystem node (its equations are left out of the flexible step)
static int joint_dropped(const rdModel* m, int j) {
  const rdJointDef* d = &m->joint[j].def;
  return m->node_sub[d->node[0]] >= 0 || (d->node[1] >= 0 && m->node_sub[d->node[1]] >= 0);
}


// 1 if unknown k (a DOF or a multiplier) is held by the flexible step
static int held_unknown(const rdModel* m, int k) {
  if (k < m->ndof) {
    return m->node_sub[dof_node(m, k)] >= 0;
  }
  return joint_dropped(m, row_joint(m, k - m->ndof));
}


// the matrix values of held rows and columns, off the diagonal (clear) and on it (unit): their
// counts, and their positions if the arrays are not NULL
static void matrix_positions(const rdModel* m, int* clear, int* unit, int* nclear, int* nunit) {
  const rdPattern* P = m->pattern;
  *nclear = *nunit = 0;
  for (int col = 0; P && col < P->n; col++) {
    int hc = held_unknown(m, col);
    for (int p = P->Ap[col]; p < P->Ap[col + 1]; p++) {
      int row = P->Ai[p];
      if (row == col && hc) {
        if (unit) {
          unit[*nunit] = p;
        }
        (*nunit)++;
      } else if (row != col && (hc || held_unknown(m, row))) {
        if (clear) {
          clear[*nclear] = p;
        }
        (*nclear)++;
      }
    }
  }
}


static int drop_count(const rdModel* m) {
  int n = 0;
  for (int j = 0; j < m->njoint; j++) {
    n += joint_dropped(m, j) ? m->joint[j].nrow : 0;
  }
  return n;
}


static int pivot_count(const rdModel* m) {
  int n = 0;
  for (int k = 0; k < m->nsub; k++) {
    for (int i = 0; i < m->sub[k].nbody; i++) {
      n += m->sub[k].pivot[i] >= 0 && m->sub[k].anchor[i] != RD_GROUND;
    }
  }
  return n;
}


// ---------------------------------------------------------------------------------------------
// layout: the memory is generalized-alpha's, then each subsystem's rgMem; the work is
// generalized-alpha's, then mxWork and its arrays

static size_t round64(size_t n) {
  return (n + 63) & ~(size_t)63;
}


// doubles that hold `bytes`
static size_t dbl(size_t bytes) {
  return (bytes + sizeof(double) - 1) / sizeof(double);
}


static size_t ga_memory(const rdModel* m) {
  return round64(GA->memory_size ? GA->memory_size(m) : 0);
}


// doubles of the coupling's momentum memory: per subsystem D and F, per body its mxLoad
static size_t carry_memory(const rdModel* m) {
  size_t n = 0;
  for (int k = 0; k < m->nsub; k++) {
    n += 12 + (size_t)m->sub[k].nbody * (sizeof(mxLoad) / sizeof(double));
  }
  return n;
}


static size_t mx_memory_size(const rdModel* m) {
  size_t n = ga_memory(m);
  for (int k = 0; k < m->nsub; k++) {
    n += round64((size_t)m->sub[k].nbody * sizeof(rgMem));
  }
  return n + round64(carry_memory(m) * sizeof(double));
}


static size_t ga_work(const rdModel* m) {
  return round64(GA->work_size ? GA->work_size(m) : 0);
}


// carve the work after generalized-alpha's from base (NULL: count only); returns doubles
static size_t layout(const rdModel* m, double* base, mxWork** out) {
  size_t nn = (size_t)m->nnode;
  int nclear, nunit;
  matrix_positions(m, NULL, NULL, &nclear, &nunit);
  rdCarve c = {base, 0};
  mxWork* w = (mxWork*)rd_carve(&c, dbl(sizeof(mxWork)));
  double* q0 = rd_carve(&c, 7 * nn);
  double* v0 = rd_carve(&c, 6 * nn);
  double* vd0 = rd_carve(&c, 6 * nn);
  double* qx = rd_carve(&c, 7 * nn);
  double* vx = rd_carve(&c, 6 * nn);
  double* vdx = rd_carve(&c, 6 * nn);
  double* hq = rd_carve(&c, 7 * nn);
  double* hv = rd_carve(&c, 6 * nn);
  double* hvd = rd_carve(&c, 6 * nn);
  double* held = rd_carve(&c, dbl(nn));
  double* clear = rd_carve(&c, dbl((size_t)nclear * sizeof(int)));
  double* unit = rd_carve(&c, dbl((size_t)nunit * sizeof(int)));
  double* drop = rd_carve(&c, dbl((size_t)drop_count(m) * sizeof(int)));
  double* piv = rd_carve(&c, dbl((size_t)pivot_count(m) * sizeof(mxPivot)));
  double* sub = rd_carve(&c, dbl((size_t)m->nsub * sizeof(mxSub)));
  if (base) {
    memset(w, 0, sizeof(*w));
    w->q0 = q0, w->v0 = v0, w->vd0 = vd0;
    w->qx = qx, w->vx = vx, w->vdx = vdx;
    w->hq = hq, w->hv = hv, w->hvd = hvd;
    w->held = (unsigned char*)held;
    w->clear = (int*)clear, w->nclear = nclear;
    w->unit = (int*)unit, w->nunit = nunit;
    w->drop = (int*)drop;
    w->piv = (mxPivot*)piv;
    w->sub = (mxSub*)sub;
    w->nsub = m->nsub;
  }
  for (int k = 0; k < m->nsub; k++) {
    size_t nb = (size_t)m->sub[k].nbody;
    double* view = rd_carve(&c, dbl(rg_viewBytes(m->sub[k].nbody, m->nnode)) + 8);
    double* ifnode = rd_carve(&c, dbl(nn * sizeof(int)));
    double* el = rd_carve(&c, dbl((size_t)m->nelem * sizeof(int)));
    double* us = rd_carve(&c, dbl((size_t)m->nuser * sizeof(int)));
    double* skip = rd_carve(&c, dbl(nn));
    double* save = rd_carve(&c, dbl(nb * sizeof(rgMem)));
    double* pv = rd_carve(&c, dbl(nb * sizeof(int)));
    double* bl = rd_carve(&c, dbl(nb * sizeof(mxBodyLoads)));
    if (base) {
      mxSub* s = &w->sub[k];
      memset(s, 0, sizeof(*s));
      // rgView's arrays are 64-byte aligned from its start
      s->v =
          rg_viewCarve((void*)(((uintptr_t)view + 63) & ~(uintptr_t)63), m->sub[k].nbody, m->nnode);
      s->ifnode = (int*)ifnode;
      s->el = (int*)el;
      s->us = (int*)us;
      s->skip = (unsigned char*)skip;
      s->save = (rgMem*)save;
      s->piv = (int*)pv;
      s->bl = (mxBodyLoads*)bl;
    }
  }
  if (out) {
    *out = w;
  }
  return c.used;
}


static size_t mx_work_size(const rdModel* m) {
  return ga_work(m) + sizeof(double) * layout(m, NULL, NULL);
}


// ---------------------------------------------------------------------------------------------
// building the work (once per data, at attach)

// mark node n in list (nif entries) if it is a flexible node not yet listed
static void add_interface(const rdModel* m, mxSub* s, int n) {
  if (n < 0 || m->node_sub[n] >= 0) {
    return;
  }
  for (int i = 0; i < s->nif; i++) {
    if (s->ifnode[i] == n) {
      return;
    }
  }
  s->ifnode[s->nif++] = n;
  s->coupled = 1;
}


// a node set touching subsystem k: its flexible nodes are interface nodes; 1 if it touches it
static int touches(const rdModel* m, mxSub* s, int k, const int* nodes, int n) {
  int in = 0;
  for (int i = 0; i < n; i++) {
    in |= nodes[i] >= 0 && m->node_sub[nodes[i]] == k;
  }
  for (int i = 0; in && i < n; i++) {
    add_interface(m, s, nodes[i]);
  }
  return in;
}


// 1 if a node set also holds a node of the flexible part
static int interface_element(const rdModel* m, const int* nodes, int n) {
  for (int i = 0; i < n; i++) {
    if (nodes[i] >= 0 && m->node_sub[nodes[i]] < 0) {
      return 1;
    }
  }
  return 0;
}


// 1 if spring or bushing e ties a subsystem to the flexible part
static int element_ties(const rdModel* m, int e) {
  const rdElemDef* def = &m->elem[e].def;
  return interface_element(
      m, def->type == RD_ELEM_SPRING ? def->u.spring.node : def->u.bushing.node, 2);
}


static int mx_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q);


static void build_sub(const rdModel* m, rdData* d, mxWork* w, int k, rgMem* mem) {
  mxSub* s = &w->sub[k];
  const rdSubsystem* b = &m->sub[k];
  s->w = w;
  s->step = rg_stepFor(b->method);
  s->substeps = b->substeps;
  s->predictor = b->predictor;
  rg_viewSubsystem(m, k, s->v, mem);
  s->v->loads = mx_loads;
  s->v->ext = s;
  for (int i = 0; i < m->nnode; i++) {
    s->skip[i] = m->node_sub[i] != k;
  }
  for (int e = 0; e < m->nelem; e++) {
    const rdElemDef* def = &m->elem[e].def;
    if (def->type == RD_ELEM_SPRING || def->type == RD_ELEM_BUSHING) {
      const int* nd = def->type == RD_ELEM_SPRING ? def->u.spring.node : def->u.bushing.node;
      int nif = s->nif;
      if (touches(m, s, k, nd, 2)) {
        s->el[s->nel++] = e;
        int damped = def->type == RD_ELEM_SPRING ? def->u.spring.damping != 0 : 0;
        for (int i = 0; def->type == RD_ELEM_BUSHING && i < 36; i++) {
          damped |= def->u.bushing.damping[i] != 0;
        }
        s->refresh |= damped && (s->nif > nif || interface_element(m, nd, 2));
      }
    }
  }
  for (int e = 0; e < m->nuser; e++) {
    if (touches(m, s, k, m->user[e].nodes, m->user[e].nnode)) {
      s->us[s->nus++] = e;
      s->refresh |= interface_element(m, m->user[e].nodes, m->user[e].nnode);
    }
  }
  for (int c = 0; c < m->ncallback; c++) {
    if (touches(m, s, k, m->callback[c].nodes, m->callback[c].nnode)) {
      s->refresh |= interface_element(m, m->callback[c].nodes, m->callback[c].nnode);
    }
  }
  for (int i = 0; i < b->nbody; i++) {
    s->piv[i] = -1;
    if (b->pivot[i] >= 0 && b->anchor[i] != RD_GROUND) {
      mxPivot* p = &w->piv[w->npiv];
      memset(p, 0, sizeof(*p));
      p->sub = k;
      p->body = i;
      p->anchor = b->anchor[i];
      const rdJointDef* jd = &m->joint[b->pivot[i]].def;
      if (jd->type == RD_JOINT_REVOLUTE) {
        // the axis (global, reference configuration) in the body frame
        p->rev = 1;
        p->joint = b->pivot[i];
        p->sgn = jd->node[1] == b->node[i] ? 1 : -1;
        rdu_quatRotateInv(p->a, m->node_q0 + 7 * b->node[i] + 3, jd->axis);
        v3_scale(p->a, p->a, 1 / v3_norm(p->a));
        s->rev = 1;
      }
      s->piv[i] = w->npiv++;
      add_interface(m, s, b->anchor[i]);
    }
  }
  // the generic load path: the hook gives the loads that tie the bodies to the rest, and moves
  // the pivots (loads of their own only: as the stand-alone steppers decide)
  int own = 0;
  for (int i = 0; i < m->nload; i++) {
    own |= m->node_sub[m->load[i].def.node] == k;
  }
  for (int i = 0; i < m->ntorque; i++) {
    own |= m->node_sub[m->torque[i].def.node] == k;
  }
  for (int c = 0; c < m->ncallback; c++) {
    int in = 0;
    for (int i = 0; i < m->callback[c].nnode; i++) {
      in |= m->node_sub[m->callback[c].nodes[i]] == k;
    }
    own |= in;
  }
  s->v->others = own || s->nel > 0 || s->nus > 0 || s->coupled;
  // the carried mismatch: free bodies only (a pinned body's reaction is not in its method's
  // balance), on an interface node with rotations if there is one
  int ntie = 0;
  for (int e = 0; e < s->nel; e++) {
    ntie += element_ties(m, s->el[e]);
  }
  for (int e = 0; e < s->nus; e++) {
    ntie += interface_element(m, m->user[s->us[e]].nodes, m->user[s->us[e]].nnode);
  }
  s->carry = ntie > 0;
  for (int i = 0; i < b->nbody; i++) {
    s->carry &= !s->v->body[i].pinned && !s->v->body[i].moving;
  }
  s->anode = s->nif > 0 ? s->ifnode[0] : -1;
  for (int i = s->nif - 1; i >= 0; i--) {
    s->anode = m->node_kind[s->ifnode[i]] == RD_NODE_RIGID ? s->ifnode[i] : s->anode;
  }
  (void)d;
}


static mxWork* build(const rdModel* m, rdData* d) {
  mxWork* w;
  layout(m, (double*)((char*)d->work + ga_work(m)), &w);
  char* mem = (char*)d->s.memory + ga_memory(m);
  for (int i = 0; i < m->nnode; i++) {
    w->held[i] = m->node_sub[i] >= 0;
  }
  for (int k = 0; k < m->nsub; k++) {
    build_sub(m, d, w, k, (rgMem*)mem);
    mem += round64((size_t)m->sub[k].nbody * sizeof(rgMem));
  }
  double* carry = (double*)mem;
  for (int k = 0; k < m->nsub; k++) {
    w->sub[k].D = carry;
    w->sub[k].F = carry + 6;
    w->sub[k].start = (mxLoad*)(carry + 12);
    carry += 12 + (size_t)m->sub[k].nbody * (sizeof(mxLoad) / sizeof(double));
  }
  int nclear, nunit;
  matrix_positions(m, w->clear, w->unit, &nclear, &nunit);
  w->ndrop = 0;
  for (int j = 0; j < m->njoint; j++) {
    for (int r = 0; joint_dropped(m, j) && r < m->joint[j].nrow; r++) {
      w->drop[w->ndrop++] = m->joint[j].row + r;
    }
  }
  int nheld = 0;
  for (int i = 0; i < m->nnode; i++) {
    nheld += w->held[i] ? (m->node_kind[i] == RD_NODE_RIGID ? 6 : 3) : 0;
  }
  w->hold.held = w->held;
  w->hold.q = w->hq;
  w->hold.v = w->hv;
  w->hold.vd = w->hvd;
  w->hold.nfree = m->ndof + m->nconstraint - nheld - w->ndrop;
  w->built = 1;
  return w;
}


static mxWork* work_of(const rdModel* m, const rdData* d) {
  return (mxWork*)((char*)d->work + ga_work(m));
}


// ---------------------------------------------------------------------------------------------
// the flexible nodes as a subsystem sees them

// the pivot of anchor node a at tau = t - t_n: position p, velocity pv, acceleration pa
static void pivot_motion(const rdData* d, const mxWork* w, int a, double tau, double p[3],
                         double pv[3], double pa[3]) {
  const double* x0 = w->q0 + 7 * a;
  const double* v0 = w->v0 + 6 * a;
  const double* a0 = w->vd0 + 6 * a;
  if (w->pass == MX_START) {
    v3_copy(p, d->s.q + 7 * a);
    v3_copy(pv, d->s.v + 6 * a);
    v3_copy(pa, d->s.vd + 6 * a);
    return;
  }
  for (int i = 0; i < 3; i++) {
    // predictor: the acceleration at t_n; corrector: linear to that of t_n + H
    double jerk = w->pass == MX_CORRECT ? (d->s.vd[6 * a + i] - a0[i]) / w->H : 0;
    pa[i] = a0[i] + tau * jerk;
    pv[i] = v0[i] + tau * (a0[i] + 0.5 * tau * jerk);
    p[i] = x0[i] + tau * (v0[i] + tau * (0.5 * a0[i] + tau * jerk / 6));
  }
}


// flexible node n at tau = t - t_n into qx, vx, vdx
static void flexible_node(const rdModel* m, const rdData* d, mxWork* w, int n, double tau) {
  double* q = w->qx + 7 * n;
  double* v = w->vx + 6 * n;
  double* a = w->vdx + 6 * n;
  const double* q0 = w->q0 + 7 * n;
  const double* v0 = w->v0 + 6 * n;
  const double* a0 = w->vd0 + 6 * n;
  int rigid = m->node_kind[n] == RD_NODE_RIGID;
  if (w->pass == MX_START) {
    memcpy(q, d->s.q + 7 * n, 7 * sizeof(double));
    memcpy(v, d->s.v + 6 * n, 6 * sizeof(double));
    memcpy(a, d->s.vd + 6 * n, 6 * sizeof(double));
    return;
  }
  double psi[3], dq[4], qr[4];
  if (w->pass == MX_PREDICT) {
    // Taylor from t_n: x + tau v + tau^2/2 a, R exp(tau W + tau^2/2 A)
    for (int i = 0; i < 6; i++) {
      v[i] = v0[i] + tau * a0[i];
      a[i] = a0[i];
    }
    for (int i = 0; i < 3; i++) {
      q[i] = q0[i] + tau * (v0[i] + 0.5 * tau * a0[i]);
      psi[i] = tau * (v0[3 + i] + 0.5 * tau * a0[3 + i]);
    }
  } else {
    // the straight line and the geodesic from t_n to t_n + H, at the secant velocities
    double s = tau / w->H;
    const double* q1 = d->s.q + 7 * n;
    const double* a1 = d->s.vd + 6 * n;
    double c[4], rel[4], step[3];
    for (int i = 0; i < 3; i++) {
      q[i] = q0[i] + s * (q1[i] - q0[i]);
      v[i] = (q1[i] - q0[i]) / w->H;
    }
    rdu_quatConj(c, q0 + 3);
    q4_mul(rel, c, q1 + 3);
    rdu_quatToRotvec(step, rel);
    for (int i = 0; i < 3; i++) {
      psi[i] = s * step[i];
      v[3 + i] = rigid ? step[i] / w->H : 0;
    }
    for (int i = 0; i < 6; i++) {
      a[i] = a0[i] + s * (a1[i] - a0[i]);
    }
  }
  if (rigid) {
    rdu_rotvecToQuat(dq, psi);
    q4_mul(qr, q0 + 3, dq);
    rdu_quatNormalize(q + 3, qr);
  } else {
    memcpy(q + 3, q0 + 3, 4 * sizeof(double));
  }
}


// the applied forces on the nodes of subsystem s from element residuals r (rotation rows in the
// body frame at qx): f -= r, the moment turned to the global frame
static void add_residual(const rdModel* m, const mxSub* s, double* f, int node, const double* r,
                         int nd, int tie) {
  if (s->skip[node]) {
    return;
  }
  double* fn = f + 6 * node;
  double mg[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) {
    fn[i] -= r[i];
  }
  if (nd == 6) {
    q4_rotate(mg, s->w->qx + 7 * node + 3, r + 3);
    v3_sub(fn + 3, fn + 3, mg);
  }
  // the loads of an element tying the body to the flexible part, for its impulse
  for (int i = 0; tie && s->carry && i < s->v->nb; i++) {
    if (s->v->body[i].node == node) {
      v3_sub(s->bl[i].f, s->bl[i].f, r);
      v3_sub(s->bl[i].m, s->bl[i].m, mg);
    }
  }
}


// where an evaluation of the coupling loads of body i at time t is kept: the loads its method
// holds at t_n (the start, a reload), at the end or the middle of a sub-step of the corrector
// pass; NULL for the others (the predictor pass, a quarter step, a perturbed midpoint is
// followed by the converged one)
static mxLoad* load_slot(mxSub* s, int i, double t) {
  const mxWork* w = s->w;
  if (w->pass == MX_START || w->reload) {
    return &s->start[i];
  }
  if (w->pass != MX_CORRECT) {
    return NULL;
  }
  double h = w->t1 - w->t0;
  if (fabs(t - w->t1) <= 1e-9 * h) {
    return &s->bl[i].end;
  }
  if (fabs(t - (w->t0 + 0.5 * h)) <= 1e-9 * h) {
    return &s->bl[i].mid;
  }
  return NULL;
}


// keep the coupling loads of the evaluation just made at time t (the bodies' nodes in qx)
static void keep_loads(mxSub* s, double t) {
  for (int i = 0; i < s->v->nb; i++) {
    mxLoad* l = load_slot(s, i, t);
    if (!l) {
      continue;
    }
    const rgBody* b = &s->v->body[i];
    const double* x = s->w->qx + 7 * b->node;
    double rr[3];
    q4_rotate(rr, x + 3, b->r);
    v3_sub(l->xr, x, rr);
    v3_copy(l->f, s->bl[i].f);
    v3_cross(l->tau, rr, s->bl[i].f);
    v3_add(l->tau, l->tau, s->bl[i].m);
  }
}


// the loads of a subsystem at time t for its bodies' configuration q: its own loads and those
// of the callbacks, springs, bushings and user elements that tie it to the rest, with the
// flexible nodes where the pass puts them; a moving pivot's acceleration enters the body's
// weight, m (g - p'')
static int mx_loads(const rdModel* m, rdData* d, rgView* v, double t, const double* q) {
  mxSub* s = v->ext;
  mxWork* w = s->w;
  double tau = t - w->tn, dt = t - d->s.t;
  // the bodies: the trial configuration, the velocities predicted to t from the sub-step's start
  for (int i = 0; i < v->nb; i++) {
    rgBody* b = &v->body[i];
    int n = b->node;
    memcpy(w->qx + 7 * n, q + 7 * n, 7 * sizeof(double));
    for (int k = 0; k < 6; k++) {
      w->vx[6 * n + k] = d->s.v[6 * n + k] + dt * d->s.vd[6 * n + k];
      w->vdx[6 * n + k] = d->s.vd[6 * n + k];
    }
    if (s->piv[i] >= 0) {
      mxPivot* p = &w->piv[s->piv[i]];
      double x[3], xv[3], rr[3];
      pivot_motion(d, w, p->anchor, tau, x, xv, p->pa);
      for (int k = 0; k < 3; k++) {
        b->mg[k] = b->mass * (m->gravity[k] - p->pa[k]);
      }
      v3_copy(b->p, x);
      q4_rotate(rr, q + 7 * n + 3, b->r);
      v3_add(w->qx + 7 * n, x, rr);
    }
  }
  for (int i = 0; i < s->nif; i++) {
    flexible_node(m, d, w, s->ifnode[i], tau);
  }
  for (int i = 0; s->carry && i < v->nb; i++) {
    memset(s->bl[i].f, 0, sizeof(s->bl[i].f));
    memset(s->bl[i].m, 0, sizeof(s->bl[i].m));
  }
  const unsigned char* skip = d->load_skip;
  d->load_skip = s->skip;
  int st = rd_evalLoadsNoGravity(m, d, t, w->qx, w->vx, d->force);
  d->load_skip = skip;
  for (int k = 0; k < s->nel && st == RD_OK; k++) {
    rdElemEval ev;
    st = rd_elemEval(m, s->el[k], w->qx, w->vx, w->vdx, 0, &ev);
    int tie = interface_element(m, ev.node, ev.nnode);
    for (int a = 0; a < ev.nnode && st == RD_OK; a++) {
      int nd = m->node_kind[ev.node[a]] == RD_NODE_RIGID ? 6 : 3;
      add_residual(m, s, d->force, ev.node[a], ev.r + ev.off[a], nd, tie);
    }
  }
  for (int k = 0; k < s->nus && st == RD_OK; k++) {
    const rdUserElementDef* u = &m->user[s->us[k]];
    double *r, *K, *C, *M;
    st = rd_userElemEval(m, d, s->us[k], t, w->qx, w->vx, w->vdx, 0, &r, &K, &C, &M);
    int tie = interface_element(m, u->nodes, u->nnode);
    for (int a = 0; a < u->nnode && st == RD_OK; a++) {
      int nd = m->node_kind[u->nodes[a]] == RD_NODE_RIGID ? 6 : 3;
      add_residual(m, s, d->force, u->nodes[a], r + 6 * a, nd, tie);
    }
  }
  if (s->carry && st == RD_OK) {
    keep_loads(s, t);
  }
  return st;
}


// ---------------------------------------------------------------------------------------------
// bodies on moving pivots: condensed into the flexible step

// M_eff and f0 of pivot p from its body's state in d (the end of the step as predicted, or the
// start), with T the body-frame torque about the pivot and F the force of the body's loads and
// of the weight m (g - pa) (a rigid step's torque and force): with c the pivot -> centre of mass
// (body frame), J_p the inertia about the pivot and T, F without the pivot's motion,
//   A0 = J_p^-1 (T - W x J_p W),  f0 = F - m R (W x (W x c)) + m R (c x A0),
//   M_eff = m I - m^2 R [c]^T J_p^-1 [c] R^T
// so that the force of the body on the pivot is f0 - M_eff p'' (docs/mixed.md, "Joint coupling")
static void condense(const rdData* d, const mxWork* w, mxPivot* p, const double Tw[3],
                     const double Fw[3]) {
  const rgBody* b = &w->sub[p->sub].v->body[p->body];
  const double* q = d->s.q + 7 * b->node + 3;
  const double* W = d->s.v + 6 * b->node + 3;
  double T[3], F[3], pab[3], cp[3];
  // undo the pivot's acceleration: T += m c x (R^T pa), F += m pa
  q4_rotateInv(pab, q, p->pa);
  v3_cross(cp, b->c, pab);
  v3_copy(T, Tw);
  v3_axpy(T, b->mass, cp);
  v3_copy(F, Fw);
  v3_axpy(F, b->mass, p->pa);
  double JW[3], g[3], A0[3], wc[3], wwc[3], ca[3], loc[3], glob[3];
  m3_mulv(JW, b->J, W);
  v3_cross(g, W, JW);
  v3_sub(g, T, g);
  m3_mulv(A0, b->Jinv, g);
  v3_cross(wc, W, b->c);
  v3_cross(wwc, W, wc);
  v3_cross(ca, b->c, A0);
  v3_sub(loc, ca, wwc);
  q4_rotate(glob, q, loc);
  v3_copy(p->f, F);
  v3_axpy(p->f, b->mass, glob);
  // M_eff = m I - m^2 R X R^T, X = [c]^T J_p^-1 [c]
  double S[9], JS[9], X[9], R[9], RX[9], RXR[9];
  m3_skew(S, b->c);
  m3_mul(JS, b->Jinv, S);
  m3_tmul(X, S, JS);
  rdu_quatToMat(R, q);
  m3_mul(RX, R, X);
  m3_mult(RXR, RX, R);
  for (int i = 0; i < 9; i++) {
    p->M[i] = (i % 4 == 0 ? b->mass : 0) - b->mass * b->mass * RXR[i];
  }
}


static int condense_revolute(const rdModel* m, const rdData* d, const mxWork* w, mxPivot* p,
                             double t);


// condense pivot p from the memory of its subsystem's method (the end of a step, at time t, or
// the start)
static int condense_memory(const rdModel* m, const rdData* d, const mxWork* w, mxPivot* p,
                           double t) {
  if (p->rev) {
    return condense_revolute(m, d, w, p, t);
  }
  const rgMem* mem = &w->sub[p->sub].v->mem[p->body];
  int meth = m->sub[p->sub].method;
  // the methods keep the torque current in the body frame or in the spatial one (rigid.h)
  int body_frame = meth == RD_METHOD_NMB || meth == RD_METHOD_LIEMID_E1 ||
                   meth == RD_METHOD_LIEMID_E2 || meth == RD_METHOD_LIEMID_EA;
  double T[3];
  if (body_frame) {
    v3_copy(T, mem->T);
  } else {
    q4_rotateInv(T, d->s.q + 7 * w->sub[p->sub].v->body[p->body].node + 3, mem->tau);
  }
  condense(d, w, p, T, mem->f);
  return RD_OK;
}


// ---------------------------------------------------------------------------------------------
// bodies on revolute joints (docs/mixed.md, "A body on a revolute joint"): R_B = R_F Q with
// Q = Q_0 exp(theta a), W_B = Q^T W_F + theta' a, W_B' = Q^T W_F' - theta' a x Q^T W_F +
// theta'' a. The axial balance of the body about the pivot gives
//   j theta'' = a . T - a . (w x J w) - (J a) . Q^T W_F',  w = Q^T W_F,  j = a . J a
// (T the body-frame torque of its loads about the pivot, the weight m (g - p'') among them, and
// of the joint's axis torque; the terms in theta' cancel), and the methods that may take it
// (rd_compile) all advance theta by velocity Verlet

// the axis torque of the revolute joint of pivot p on its body at time t
static int motor_torque(const rdModel* m, const mxPivot* p, double t, double* tau) {
  const rdJointDef* jd = &m->joint[p->joint].def;
  double s = 0;
  int st = jd->torque != 0 ? rd_timeFnEval(m, jd->torque_fn, t, &s) : RD_OK;
  *tau = p->sgn * s * jd->torque;
  return st;
}


// the anchor's attitude, angular velocity and acceleration (node frame) at tau = t - t_n as the
// pass moves it; its own state at the start and with end = 1
static void anchor_rotation(const rdModel* m, const rdData* d, mxWork* w, int a, double tau,
                            int end, double R[4], double W[3], double A[3]) {
  const double *q = d->s.q + 7 * a, *v = d->s.v + 6 * a, *vd = d->s.vd + 6 * a;
  if (w->pass != MX_START && !end) {
    flexible_node(m, d, w, a, tau);
    q = w->qx + 7 * a, v = w->vx + 6 * a, vd = w->vdx + 6 * a;
  }
  memcpy(R, q + 3, 4 * sizeof(double));
  v3_copy(W, v + 3);
  v3_copy(A, vd + 3);
}


// theta'' of the body of pivot p at time t (Q, the anchor's W_F and W_F', T as above)
static int revolute_accel(const rdModel* m, const mxPivot* p, const rgBody* b, double t,
                          const double Q[4], const double WF[3], const double AF[3],
                          const double T[3], double* acc) {
  double tm, om[3], Jom[3], g[3], u[3], qa[3];
  int st = motor_torque(m, p, t, &tm);
  q4_rotateInv(om, Q, WF);
  m3_mulv(Jom, b->J, om);
  v3_cross(g, om, Jom);
  m3_mulv(u, b->J, p->a);
  q4_rotateInv(qa, Q, AF);
  *acc = (v3_dot(p->a, T) + tm - v3_dot(p->a, g) - v3_dot(u, qa)) / v3_dot(p->a, u);
  return st;
}


// the body's node state (attitude R_F Q, W_B, W_B') from its memory and the anchor's rotation
static void revolute_write(rdData* d, const mxPivot* p, const rgBody* b, const rgMem* mem,
                           const double RF[4], const double WF[3], const double AF[3], int place) {
  double om[3], qa[3], aw[3], r[4];
  double* W = d->s.v + 6 * b->node + 3;
  double* A = d->s.vd + 6 * b->node + 3;
  q4_rotateInv(om, mem->qh, WF);
  q4_rotateInv(qa, mem->qh, AF);
  v3_cross(aw, p->a, om);
  for (int k = 0; k < 3; k++) {
    W[k] = om[k] + mem->w[0] * p->a[k];
    A[k] = qa[k] - mem->w[0] * aw[k] + mem->w[1] * p->a[k];
  }
  if (place) {
    q4_mul(r, RF, mem->qh);
    rdu_quatNormalize(d->s.q + 7 * b->node + 3, r);
  }
}


// the bodies of revolute subsystem s at the state's time: Q and theta' from the state (init =
// 1, at the start: the velocity's component across the axis is dropped) or kept, their loads and
// theta'' (the memory), their node states
static int revolute_start(const rdModel* m, rdData* d, mxSub* s, int init) {
  mxWork* w = s->w;
  rgView* v = s->v;
  double RF[4], WF[3], AF[3], c[4], om[3];
  for (int i = 0; init && i < v->nb; i++) {
    const mxPivot* p = &w->piv[s->piv[i]];
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    anchor_rotation(m, d, w, p->anchor, 0, 0, RF, WF, AF);
    memset(mem, 0, sizeof(*mem));
    rdu_quatConj(c, RF);
    q4_mul(mem->qh, c, d->s.q + 7 * b->node + 3);
    rdu_quatNormalize(mem->qh, mem->qh);
    q4_rotateInv(om, mem->qh, WF);
    double Wr[3];
    v3_sub(Wr, d->s.v + 6 * b->node + 3, om);
    mem->w[0] = v3_dot(p->a, Wr);
  }
  rg_trialBegin(m, d, v);
  int st = rg_loadsBody(m, d, v, d->s.t, v->q, 1);
  for (int i = 0; st == RD_OK && i < v->nb; i++) {
    const mxPivot* p = &w->piv[s->piv[i]];
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    anchor_rotation(m, d, w, p->anchor, 0, 0, RF, WF, AF);
    st = revolute_accel(m, p, b, d->s.t, mem->qh, WF, AF, mem->T, &mem->w[1]);
    revolute_write(d, p, b, mem, RF, WF, AF, 0);
  }
  return st;
}


// one sub-step h of revolute subsystem s from d->s.t to tau1 = t - t_n (end: the end of the
// corrector pass), velocity Verlet on theta:
//   theta'_1/2 = theta' + h/2 theta'',  Q_1 = Q exp(h theta'_1/2 a),  R_B = R_F(tau1) Q_1,
//   theta''_1 from the loads there,  theta'_1 = theta'_1/2 + h/2 theta''_1
static int revolute_step(const rdModel* m, rdData* d, mxSub* s, double h, double tau1, int end) {
  mxWork* w = s->w;
  rgView* v = s->v;
  double t1 = w->tn + tau1;
  rg_trialBegin(m, d, v);
  for (int i = 0; i < v->nb; i++) {
    const mxPivot* p = &w->piv[s->piv[i]];
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    const rgMem* mem = &v->mem[i];
    double psi[3], dq[4], r[4];
    sc->b[0] = mem->w[0] + 0.5 * h * mem->w[1];
    v3_scale(psi, p->a, h * sc->b[0]);
    rdu_rotvecToQuat(dq, psi);
    q4_mul(r, mem->qh, dq);
    rdu_quatNormalize(sc->q0, r);
    anchor_rotation(m, d, w, p->anchor, tau1, end, sc->q, sc->W, sc->A);
    q4_mul(r, sc->q, sc->q0);
    rdu_quatNormalize(v->q + 7 * b->node + 3, r);
  }
  int st = rg_loadsBody(m, d, v, t1, v->q, 0);
  for (int i = 0; st == RD_OK && i < v->nb; i++) {
    const mxPivot* p = &w->piv[s->piv[i]];
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    rgMem* mem = &v->mem[i];
    double acc;
    st = revolute_accel(m, p, b, t1, sc->q0, sc->W, sc->A, sc->T, &acc);
    memcpy(mem->qh, sc->q0, sizeof(mem->qh));
    mem->w[0] = sc->b[0] + 0.5 * h * acc;
    mem->w[1] = acc;
    v3_copy(mem->T, sc->T);
    v3_copy(mem->f, sc->f);
    revolute_write(d, p, b, mem, sc->q, sc->W, sc->A, 1);
  }
  return st;
}


// M_eff and f0 of revolute pivot p at time t from its body's state in d and memory: with the
// body's velocity V = (p', W_B) = G z' + (0, a) theta', z' = (p', W_F), G = diag(I, Q^T), its
// mass matrix about the pivot M_B = [m I, -m R [c]; m [c] R^T, J_p], b = G^T M_B (0, a) =
// (m R (a x c), Q J_p a), j = a . J_p a and rho the loads less the velocity terms,
//   rho = (F - m R (W x (W x c)) + m R (c x k),  T - W x J_p W - J_p k),  k = -theta' a x W,
// the condensed body is   f0 = G^T rho - b (a . rho_r) / j,   M_eff = G^T M_B G - b b^T / j
// (the force and moment of the body on the anchor are f0 - M_eff z''; the joint's axis torque
// on the body is in T, its reaction on the anchor is the joint's own, assembled as usual)
static int condense_revolute(const rdModel* m, const rdData* d, const mxWork* w, mxPivot* p,
                             double t) {
  const rgBody* b = &w->sub[p->sub].v->body[p->body];
  const rgMem* mem = &w->sub[p->sub].v->mem[p->body];
  const double* q = d->s.q + 7 * b->node + 3;
  const double* W = d->s.v + 6 * b->node + 3;
  const double* Q = mem->qh;
  double mass = b->mass, tm, pab[3], cp[3], T[3], F[3];
  int st = motor_torque(m, p, t, &tm);
  // the loads without the pivot's motion: T += m c x (R^T pa), F += m pa; the axis torque
  q4_rotateInv(pab, q, p->pa);
  v3_cross(cp, b->c, pab);
  v3_copy(T, mem->T);
  v3_axpy(T, mass, cp);
  v3_axpy(T, tm, p->a);
  v3_copy(F, mem->f);
  v3_axpy(F, mass, p->pa);
  double k[3], wc[3], wwc[3], ck[3], loc[3], glob[3], JW[3], gy[3], Jk[3], rt[6];
  v3_cross(k, p->a, W);
  v3_scale(k, k, -mem->w[0]);
  v3_cross(wc, W, b->c);
  v3_cross(wwc, W, wc);
  v3_cross(ck, b->c, k);
  v3_sub(loc, ck, wwc);
  q4_rotate(glob, q, loc);
  v3_copy(rt, F);
  v3_axpy(rt, mass, glob);
  m3_mulv(JW, b->J, W);
  v3_cross(gy, W, JW);
  m3_mulv(Jk, b->J, k);
  v3_sub(rt + 3, T, gy);
  v3_sub(rt + 3, rt + 3, Jk);
  double e[3], u[3], be[6], ub[3];
  v3_cross(e, p->a, b->c);
  v3_scale(e, e, mass);
  q4_rotate(be, q, e);
  m3_mulv(u, b->J, p->a);
  q4_rotate(be + 3, Q, u);
  double j = v3_dot(p->a, u), lam = v3_dot(p->a, rt + 3) / j;
  for (int i = 0; i < 3; i++) {
    ub[i] = rt[3 + i] - lam * u[i];
    p->f6[i] = rt[i] - lam * be[i];
  }
  q4_rotate(p->f6 + 3, Q, ub);
  // G^T M_B G: [m I, -m R [c] Q^T; m Q [c] R^T, Q J_p Q^T]
  double R[9], RQ[9], S[9], RS[9], RSQ[9], QJ[9], QJQ[9];
  rdu_quatToMat(R, q);
  rdu_quatToMat(RQ, Q);
  m3_skew(S, b->c);
  m3_mul(RS, R, S);
  m3_mult(RSQ, RS, RQ);
  m3_mul(QJ, RQ, b->J);
  m3_mult(QJQ, QJ, RQ);
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      double* M = p->M6;
      M[6 * r + c] = (r == c ? mass : 0) - be[r] * be[c] / j;
      M[6 * r + 3 + c] = -mass * RSQ[3 * r + c] - be[r] * be[3 + c] / j;
      M[6 * (3 + c) + r] = M[6 * r + 3 + c];
      M[6 * (3 + r) + 3 + c] = QJQ[3 * r + c] - be[3 + r] * be[3 + c] / j;
    }
  }
  return st;
}


// the held motion of the flexible step: the subsystem nodes' state now
static void hold_now(const rdModel* m, rdData* d, mxWork* w) {
  for (int i = 0; i < m->nnode; i++) {
    if (w->held[i]) {
      memcpy(w->hq + 7 * i, d->s.q + 7 * i, 7 * sizeof(double));
      memcpy(w->hv + 6 * i, d->s.v + 6 * i, 6 * sizeof(double));
      memcpy(w->hvd + 6 * i, d->s.vd + 6 * i, 6 * sizeof(double));
    }
  }
}


// rdGaHold.apply: the condensed bodies on their pivots, then the held rows and columns out
static int mx_apply(const rdModel* m, rdData* d, void* user, double cM, const double* vd, double* r,
                    double* gamma, double* Ax) {
  mxWork* w = user;
  // the last step's impulse mismatch of each subsystem's coupling, taken back over this step as
  // a constant load on its interface node: force -D/H, moment about the origin -D_m/H
  for (int k = 0; w->H > 0 && k < w->nsub; k++) {
    const mxSub* s = &w->sub[k];
    const double* D = s->D;
    if (!s->carry || (D[0] == 0 && D[1] == 0 && D[2] == 0 && D[3] == 0 && D[4] == 0 && D[5] == 0)) {
      continue;
    }
    const double* x = d->s.q + 7 * s->anode;
    double* ra = r + m->node_dof[s->anode];
    double f[3], mo[3], xf[3], mb[3];
    v3_scale(f, D, -1 / w->H);
    v3_sub(ra, ra, f);
    if (m->node_kind[s->anode] == RD_NODE_RIGID) {
      v3_cross(xf, x, f);
      v3_scale(mo, D + 3, -1 / w->H);
      v3_sub(mo, mo, xf);
      q4_rotateInv(mb, x + 3, mo);
      v3_sub(ra + 3, ra + 3, mb);
    }
  }
  for (int k = 0; k < w->npiv; k++) {
    const mxPivot* p = &w->piv[k];
    int a = p->anchor;
    double* ra = r + m->node_dof[a];
    if (p->rev) {
      // the anchor's translation and rotation: M_eff (p'', W_F') - f0
      for (int i = 0; i < 6; i++) {
        double Ma = 0;
        for (int c = 0; c < 6; c++) {
          Ma += p->M6[6 * i + c] * vd[6 * a + c];
        }
        ra[i] += Ma - p->f6[i];
      }
      const int* pos = Ax ? rd_patternBlock(m->pattern, a, a) : NULL;
      for (int col = 0; pos && col < 6; col++) {
        for (int i = 0; i < 6; i++) {
          Ax[pos[col] + i] += cM * p->M6[6 * i + col];
        }
      }
      continue;
    }
    double Ma[3];
    m3_mulv(Ma, p->M, vd + 6 * a);
    for (int i = 0; i < 3; i++) {
      ra[i] += Ma[i] - p->f[i];
    }
    if (Ax) {
      const int* pos = rd_patternBlock(m->pattern, a, a);
      for (int col = 0; col < 3; col++) {
        for (int i = 0; i < 3; i++) {
          Ax[pos[col] + i] += cM * p->M[3 * i + col];
        }
      }
    }
  }
  for (int i = 0; i < m->nnode; i++) {
    if (w->held[i]) {
      memset(r + m->node_dof[i], 0, (m->node_kind[i] == RD_NODE_RIGID ? 6 : 3) * sizeof(double));
    }
  }
  for (int k = 0; k < w->ndrop; k++) {
    r[m->ndof + w->drop[k]] = 0;
    if (gamma) {
      gamma[w->drop[k]] = 0;
    }
  }
  if (Ax) {
    for (int k = 0; k < w->nclear; k++) {
      Ax[w->clear[k]] = 0;
    }
    for (int k = 0; k < w->nunit; k++) {
      Ax[w->unit[k]] = 1;
    }
  }
  return RD_OK;
}


// ---------------------------------------------------------------------------------------------
// the passes

// after a sub-step of a body on a moving pivot: the pivot's motion at t into the memory and the
// node's translation
static void place_pivoted(const rdModel* m, rdData* d, mxSub* s, double tau) {
  mxWork* w = s->w;
  rgView* v = s->v;
  for (int i = 0; i < v->nb; i++) {
    if (s->piv[i] < 0) {
      continue;
    }
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    int a = w->piv[s->piv[i]].anchor;
    if (w->pass == MX_CORRECT && tau == w->H) {
      // the end of the step: exactly the flexible node's motion
      v3_copy(mem->xr, d->s.q + 7 * a);
      v3_copy(mem->vr, d->s.v + 6 * a);
      v3_copy(mem->ar, d->s.vd + 6 * a);
    } else {
      pivot_motion(d, w, a, tau, mem->xr, mem->vr, mem->ar);
    }
    double att[4], W[3], A[3];
    memcpy(att, d->s.q + 7 * b->node + 3, sizeof(att));
    v3_copy(W, d->s.v + 6 * b->node + 3);
    v3_copy(A, d->s.vd + 6 * b->node + 3);
    rg_writeNode(b, mem, &d->s, att, W, A);
  }
  (void)m;
}


// ---------------------------------------------------------------------------------------------
// the momentum of the coupling (docs/mixed.md, "Momentum")

// I += wt (f, xr x f): the impulse of a load's force, and of its moment about the origin
static void add_force(double I[6], double wt, const mxLoad* l) {
  double xf[3];
  v3_cross(xf, l->xr, l->f);
  v3_axpy(I, wt, l->f);
  v3_axpy(I + 3, wt, xf);
}


// the impulse over a sub-step of size h of the coupling loads on body i of subsystem s, as the
// body's method applies them (its discrete momentum balance: force and moment about the
// origin), added to s->I; the sub-step's end is then the next one's start
static void substep_impulse(const rdData* d, mxSub* s, int method, int i, double h) {
  mxBodyLoads* bl = &s->bl[i];
  mxLoad* l0 = &s->start[i];
  double* I = s->I;
  switch (method) {
    case RD_METHOD_HSTAGM:
      // velocity Verlet; the integer spatial momentum takes h times the torque at the half state
      add_force(I, 0.5 * h, l0);
      add_force(I, 0.5 * h, &bl->end);
      v3_axpy(I + 3, h, bl->mid.tau);
      break;
    case RD_METHOD_LIEMID_I:
      // implicit midpoint: m v' = m v + h f_mid, x' - x = h (v + v')/2, pi' = pi + h tau_mid
      add_force(I, h, &bl->mid);
      v3_axpy(I + 3, h, bl->mid.tau);
      break;
    case RD_METHOD_AKW: {
      // the same translation; R' Pi' = R Pi + h R (I - [w]/2)^-1 T_mid with R' = R cay(w): along
      // the rotation axis a the torque whole, across it times c = cos(phi/2), phi the angle
      double c4[4], rel[4], phi[3], a[3] = {0, 0, 0};
      add_force(I, h, &bl->mid);
      rdu_quatConj(c4, bl->q0);
      q4_mul(rel, c4, d->s.q + 7 * s->v->body[i].node + 3);
      rdu_quatToRotvec(phi, rel);
      double ang = v3_norm(phi), c = cos(0.5 * ang), ta = 0;
      if (ang > 0) {
        q4_rotate(a, bl->q0, phi);
        v3_scale(a, a, 1 / ang);
        ta = v3_dot(bl->mid.tau, a);
      }
      v3_axpy(I + 3, h * c, bl->mid.tau);
      if (ang > 0) {
        v3_axpy(I + 3, h * (1 - c) * ta, a);
      }
      break;
    }
    default:
      // nmb, nms, sw, liemid_e1/e2/ea: the trapezoid (exact for sw and liemid_ea; liemid_e2
      // takes h times the start's loads, e1 the end's, which is the trapezoid for the momentum
      // plus or minus h/2 times the loads; nmb and nms do not keep the spatial angular momentum
      // of a free body, their torque term is the trapezoid of the body-frame or spatial Euler
      // equations)
      add_force(I, 0.5 * h, l0);
      add_force(I, 0.5 * h, &bl->end);
      v3_axpy(I + 3, 0.5 * h, l0->tau);
      v3_axpy(I + 3, 0.5 * h, bl->end.tau);
      break;
  }
  *l0 = bl->end;
}


// L += (f, x x f + R m) of the loads -r of an element on node n if it is a flexible node
static void add_flexible(const rdModel* m, const double* q, double L[6], int n, const double* r) {
  if (m->node_sub[n] >= 0) {
    return;
  }
  double f[3], xf[3], mo[3];
  v3_scale(f, r, -1);
  v3_cross(xf, q + 7 * n, f);
  v3_add(L, L, f);
  v3_add(L + 3, L + 3, xf);
  if (m->node_kind[n] == RD_NODE_RIGID) {
    q4_rotate(mo, q + 7 * n + 3, r + 3);
    v3_sub(L + 3, L + 3, mo);
  }
}


// L = the resultant of the coupling loads of subsystem s on the flexible part in the state of d
// at time t (force, moment about the origin)
static int flexible_loads(const rdModel* m, rdData* d, const mxSub* s, double t, double L[6]) {
  memset(L, 0, 6 * sizeof(double));
  int st = RD_OK;
  for (int k = 0; k < s->nel && st == RD_OK; k++) {
    rdElemEval ev;
    if (!element_ties(m, s->el[k])) {
      continue;
    }
    st = rd_elemEval(m, s->el[k], d->s.q, d->s.v, d->s.vd, 0, &ev);
    for (int a = 0; a < ev.nnode && st == RD_OK; a++) {
      add_flexible(m, d->s.q, L, ev.node[a], ev.r + ev.off[a]);
    }
  }
  for (int k = 0; k < s->nus && st == RD_OK; k++) {
    const rdUserElementDef* u = &m->user[s->us[k]];
    double *r, *K, *C, *M;
    st = rd_userElemEval(m, d, s->us[k], t, d->s.q, d->s.v, d->s.vd, 0, &r, &K, &C, &M);
    for (int a = 0; a < u->nnode && st == RD_OK; a++) {
      add_flexible(m, d->s.q, L, u->nodes[a], r + 6 * a);
    }
  }
  return st;
}


// s->I = the impulse over the step of the coupling loads of subsystem s on the flexible part, as
// generalized-alpha takes them: the trapezoid of their loads at the ends of its steps (the
// bodies held), H (F_n + F_n+1) / 2; F_n+1 into s->Fn
static int flexible_impulse(const rdModel* m, rdData* d, mxSub* s) {
  double H = s->w->H;
  int st = flexible_loads(m, d, s, s->w->tn + H, s->Fn);
  for (int i = 0; i < 6; i++) {
    s->I[i] = 0.5 * H * (s->F[i] + s->Fn[i]);
  }
  return st;
}


// the rigid methods' inner iterations since `before` go to their own counter: the Newton
// iterations are generalized-alpha's
static void count_substep_iterations(rdData* d, long before) {
  d->stats.substep_iterations += d->stats.newton_iterations - before;
  d->stats.newton_iterations = before;
}


// the sub-steps of subsystem s over [t_n, t_n + H]
static int run_pass(const rdModel* m, rdData* d, mxSub* s) {
  mxWork* w = s->w;
  int n = s->substeps;
  double h = w->H / n, tend = w->tn + w->H;
  int last = d->stats.last_newton_iterations;
  long before = d->stats.newton_iterations;
  int st = RD_OK;
  int impulse = w->pass == MX_CORRECT && s->carry;
  int method = m->sub[s - w->sub].method;
  for (int j = 0; j < n && st == RD_OK; j++) {
    double t0 = w->tn + j * h, t1 = j + 1 == n ? tend : w->tn + (j + 1) * h;
    d->s.t = t0;
    w->t0 = t0;
    w->t1 = t1;
    for (int i = 0; impulse && i < s->v->nb; i++) {
      memcpy(s->bl[i].q0, d->s.q + 7 * s->v->body[i].node + 3, sizeof(s->bl[i].q0));
    }
    double tau = j + 1 == n ? w->H : t1 - w->tn;
    st = s->rev ? revolute_step(m, d, s, t1 - t0, tau, w->pass == MX_CORRECT && j + 1 == n)
                : s->step(m, d, s->v, t1 - t0);
    if (st == RD_OK && w->npiv > 0) {
      place_pivoted(m, d, s, tau);
    }
    for (int i = 0; st == RD_OK && impulse && i < s->v->nb; i++) {
      substep_impulse(d, s, method, i, t1 - t0);
    }
  }
  d->s.t = w->tn;
  d->stats.last_newton_iterations = last;
  count_substep_iterations(d, before);
  return st;
}


// the state of subsystem s at t_n, back from the copy of the step's start
static void restore_sub(const rdModel* m, rdData* d, mxSub* s) {
  const mxWork* w = s->w;
  for (int i = 0; i < s->v->nb; i++) {
    int n = s->v->body[i].node;
    memcpy(d->s.q + 7 * n, w->q0 + 7 * n, 7 * sizeof(double));
    memcpy(d->s.v + 6 * n, w->v0 + 6 * n, 6 * sizeof(double));
    memcpy(d->s.vd + 6 * n, w->vd0 + 6 * n, 6 * sizeof(double));
  }
  memcpy(s->v->mem, s->save, (size_t)s->v->nb * sizeof(rgMem));
  (void)m;
}


// the Taylor predictor of subsystem s: its bodies at t_n + H extrapolated from t_n (into the
// state; the corrector pass starts again from the copy of t_n), x + H v + H^2/2 a,
// R exp(H W + H^2/2 W'), v + H a, W + H W', the accelerations kept; a body on a moving pivot
// condensed from its loads evaluated there (one evaluation)
static int taylor(const rdModel* m, rdData* d, mxSub* s) {
  mxWork* w = s->w;
  rgView* v = s->v;
  double H = w->H;
  for (int i = 0; i < v->nb; i++) {
    int n = v->body[i].node;
    double* q = d->s.q + 7 * n;
    double* u = d->s.v + 6 * n;
    const double* a = d->s.vd + 6 * n;
    double psi[3], dq[4], r[4];
    for (int k = 0; k < 3; k++) {
      q[k] += H * (u[k] + 0.5 * H * a[k]);
      psi[k] = H * (u[3 + k] + 0.5 * H * a[3 + k]);
    }
    for (int k = 0; k < 6; k++) {
      u[k] += H * a[k];
    }
    rdu_rotvecToQuat(dq, psi);
    q4_mul(r, q + 3, dq);
    rdu_quatNormalize(q + 3, r);
  }
  int pivoted = 0;
  for (int i = 0; i < v->nb; i++) {
    pivoted |= s->piv[i] >= 0;
  }
  if (!pivoted) {
    return RD_OK;
  }
  // the loads at the end (the velocities as extrapolated: the sub-step starts there)
  d->s.t = w->tn + H;
  int st = rg_loadsBody(m, d, v, d->s.t, d->s.q, 0);
  d->s.t = w->tn;
  for (int i = 0; st == RD_OK && i < v->nb; i++) {
    if (s->piv[i] >= 0) {
      condense(d, w, &w->piv[s->piv[i]], v->sc[i].T, v->sc[i].f);
    }
  }
  return st;
}


// predictor: the coupled subsystems' predictor passes (all of them with all = 1: the split step
// shows every body at t_n + H), the held motion, generalized-alpha's predictor
static int predict(const rdModel* m, rdData* d, double H, int all) {
  mxWork* w = work_of(m, d);
  size_t nn = (size_t)m->nnode;
  w->tn = d->s.t;
  w->H = H;
  memcpy(w->q0, d->s.q, 7 * nn * sizeof(double));
  memcpy(w->v0, d->s.v, 6 * nn * sizeof(double));
  memcpy(w->vd0, d->s.vd, 6 * nn * sizeof(double));
  w->pass = MX_PREDICT;
  int st = RD_OK;
  for (int k = 0; k < w->nsub && st == RD_OK; k++) {
    mxSub* s = &w->sub[k];
    memcpy(s->save, s->v->mem, (size_t)s->v->nb * sizeof(rgMem));
    if ((s->predictor == RD_SUBSYSTEM_PREDICT_SUBSTEPS || s->rev) && (s->coupled || all)) {
      // (the Taylor predictor of a revolute subsystem: one sub-step of size H)
      int sub = s->substeps;
      s->substeps = s->predictor == RD_SUBSYSTEM_PREDICT_SUBSTEPS ? sub : 1;
      st = run_pass(m, d, s);
      s->substeps = sub;
      for (int i = 0; st == RD_OK && i < s->v->nb; i++) {
        if (s->piv[i] >= 0) {
          st = condense_memory(m, d, w, &w->piv[s->piv[i]], w->tn + H);
        }
      }
    } else if (s->coupled || all) {
      st = taylor(m, d, s);
    }
  }
  if (st != RD_OK) {
    return st;
  }
  hold_now(m, d, w);
  d->load_skip = w->held;
  st = GA->predict(m, d, H);
  d->load_skip = NULL;
  return st;
}


// corrector: generalized-alpha's corrector, then every subsystem's corrector pass
static int correct(const rdModel* m, rdData* d, double H) {
  mxWork* w = work_of(m, d);
  d->load_skip = w->held;
  int st = GA->correct(m, d, H);
  d->load_skip = NULL;
  // the flexible side's impulse of the coupling loads (the mismatch under way starts there)
  for (int k = 0; k < w->nsub && st == RD_OK; k++) {
    if (w->sub[k].carry) {
      st = flexible_impulse(m, d, &w->sub[k]);
    }
  }
  w->pass = MX_CORRECT;
  for (int k = 0; k < w->nsub && st == RD_OK; k++) {
    mxSub* s = &w->sub[k];
    restore_sub(m, d, s);
    if (s->refresh) {
      // the loads at t_n with this step's flexible velocities (the method's start memory)
      int last = d->stats.last_newton_iterations;
      w->reload = 1;
      st = s->rev ? revolute_start(m, d, s, 0) : rg_reloadView(m, d, s->v, m->sub[k].method);
      w->reload = 0;
      d->stats.last_newton_iterations = last;
    }
    st = st ? st : run_pass(m, d, s);
    // plus the rigid side's: the mismatch, carried into the next flexible step
    if (st == RD_OK && s->carry) {
      memcpy(s->D, s->I, sizeof(s->I));
      memcpy(s->F, s->Fn, sizeof(s->Fn));
    }
  }
  // the subsystem nodes have no generalized-alpha history: a = the acceleration
  for (int i = 0; st == RD_OK && i < m->nnode; i++) {
    if (w->held[i]) {
      memcpy(d->s.a + 6 * i, d->s.vd + 6 * i, 6 * sizeof(double));
    }
  }
  return st;
}


static int mx_step(const rdModel* m, rdData* d, double H) {
  int st = predict(m, d, H, 0);
  return st != RD_OK ? st : correct(m, d, H);
}


static int mx_predict(const rdModel* m, rdData* d, double H) {
  return predict(m, d, H, 1);
}


static int mx_correct(const rdModel* m, rdData* d, double H) {
  return correct(m, d, H);
}


// the start: the subsystems' consistent accelerations with the pivots at rest, the flexible
// part's with the bodies condensed on them, then the pivoted bodies' again with the pivots'
static int mx_initialize(const rdModel* m, rdData* d) {
  mxWork* w = work_of(m, d);
  w->pass = MX_START;
  w->tn = d->s.t;
  w->H = 0;
  int st = RD_OK;
  for (int k = 0; k < w->npiv; k++) {
    memset(w->piv[k].pa, 0, sizeof(w->piv[k].pa));
  }
  // the pivots' accelerations are not known yet: zero in the state for the first start (and the
  // anchor's angular acceleration for a revolute joint)
  for (int k = 0; k < w->npiv; k++) {
    memset(d->s.vd + 6 * w->piv[k].anchor, 0, (w->piv[k].rev ? 6 : 3) * sizeof(double));
  }
  // no mismatch yet; the coupling loads at the start come with the subsystems' own
  for (int k = 0; k < w->nsub; k++) {
    mxSub* s = &w->sub[k];
    memset(s->D, 0, 12 * sizeof(double));
    memset(s->start, 0, (size_t)s->v->nb * sizeof(mxLoad));
  }
  for (int k = 0; k < w->nsub && st == RD_OK; k++) {
    mxSub* s = &w->sub[k];
    st = s->rev ? revolute_start(m, d, s, 1) : rg_initializeView(m, d, s->v);
    if (st == RD_OK) {
      place_pivoted(m, d, s, 0);
    }
  }
  if (st != RD_OK) {
    return st;
  }
  hold_now(m, d, w);
  for (int k = 0; k < w->npiv && st == RD_OK; k++) {
    st = condense_memory(m, d, w, &w->piv[k], d->s.t);
  }
  if (st != RD_OK) {
    return st;
  }
  d->load_skip = w->held;
  st = GA->initialize(m, d);
  d->load_skip = NULL;
  for (int k = 0; k < w->nsub && st == RD_OK; k++) {
    mxSub* s = &w->sub[k];
    int pivoted = 0;
    for (int i = 0; i < s->v->nb; i++) {
      pivoted |= s->piv[i] >= 0;
    }
    if (pivoted) {
      st = s->rev ? revolute_start(m, d, s, 0) : rg_initializeView(m, d, s->v);
      if (st == RD_OK) {
        place_pivoted(m, d, s, 0);
      }
    }
  }
  for (int i = 0; st == RD_OK && i < m->nnode; i++) {
    if (w->held[i]) {
      memcpy(d->s.a + 6 * i, d->s.vd + 6 * i, 6 * sizeof(double));
    }
  }
  // the coupling loads on the flexible part at the start, for the first step's impulse
  for (int k = 0; st == RD_OK && k < w->nsub; k++) {
    if (w->sub[k].carry) {
      st = flexible_loads(m, d, &w->sub[k], d->s.t, w->sub[k].F);
    }
  }
  return st;
}


// ---------------------------------------------------------------------------------------------
// the ops table

static int mx_prepare(rdModel* m) {
  return GA->prepare ? GA->prepare(m) : RD_OK;
}


static void mx_unprepare(rdModel* m) {
  if (GA->unprepare) {
    GA->unprepare(m);
  }
}


static int mx_check(const rdModel* m) {
  return GA->check(m);
}


static int mx_attach(const rdModel* m, rdData* d) {
  int st = GA->attach ? GA->attach(m, d) : RD_OK;
  if (st != RD_OK) {
    return st;
  }
  mxWork* w = build(m, d);
  w->hold.apply = mx_apply;
  w->hold.user = w;
  rd_gaSetHold(d, &w->hold);

  return RD_OK;
}


static void mx_release(const rdModel* m, rdData* d) {
  if (GA->release) {
    GA->release(m, d);
  }
}


static size_t mx_history_size(const rdModel* m, const rdData* d) {
  return GA->history_size ? GA->history_size(m, d) : 0;
}


static void mx_history_save(const rdModel* m, const rdData* d, void* buf) {
  if (GA->history_save) {
    GA->history_save(m, d, buf);
  }
}


static int mx_history_load(const rdModel* m, rdData* d, const void* buf) {
  return GA->history_load ? GA->history_load(m, d, buf) : RD_OK;
}


const rdStepper rd_stepperMixed = {
    .method = RD_METHOD_GENERALIZED_ALPHA,
    .prepare = mx_prepare,
    .unprepare = mx_unprepare,
    .check = mx_check,
    .memory_size = mx_memory_size,
    .work_size = mx_work_size,
    .initialize = mx_initialize,
    .step = mx_step,
    .predict = mx_predict,
    .correct = mx_correct,
    .attach = mx_attach,
    .release = mx_release,
    .history_size = mx_history_size,
    .history_save = mx_history_save,
    .history_load = mx_history_load,
};
