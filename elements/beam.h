// SPDX-License-Identifier: MIT
// Geometrically exact (Simo-Reissner) beam element of any order: basis, sections, kernel.
//
// Internal header. One element = n nodes (rigid nodes of the model) at Gauss-Lobatto-Legendre
// points of [-1, 1]; several elements of one beam share their end nodes. Local DOFs are 6 per
// node in element order: translation (global), rotation (body, R -> R exp(dtheta)).
// Residual convention as elements/element.h: r = inertial + internal - applied, force rows
// global, moment rows in the node's body frame. See docs/beam.md.
#ifndef RD_BEAM_H
#define RD_BEAM_H

#include "rodrigues/spec.h"  // RD_BEAM_MAX_NODES: the largest element (n <= 32 nodes)
#include "src/core/core.h"
#include "src/math/quadrature.h"  // basis and quadrature: GLL nodes, Gauss rules, Lagrange

// ---------------------------------------------------------------------------------------------
// sections (elements/beam_section.c)

// cross-section properties at stations eta (ascending, eta[0] = 0, eta[nsta-1] = 1) along the
// span coordinate of the whole beam, interpolated linearly in between. Matrices are 6x6
// row-major in the section frame, strain order (Gamma_1 axial along the section x axis,
// Gamma_2, Gamma_3 shear, kappa_1 torsion, kappa_2, kappa_3 bending):
//   K: [N; M] = K [Gamma; kappa]
//   M: mass per length, [m I, m skew(eta)^T; m skew(eta), J] for a rigid section (inertia uses
//      the full 6x6; gravity uses m = M[0][0] and m eta = axial(M[3:6][0:3]))
// mu: stiffness-proportional damping, [N; M]_damp = diag(mu) K d/dt [Gamma; kappa]
typedef struct rdBeamSection_ {
  int nsta;
  const double* eta;  // nsta
  const double* K;    // nsta x 36
  const double* M;    // nsta x 36
  double mu[6];
} rdBeamSection;

// check: nsta >= 1, eta ascending from 0 to 1 (nsta = 1: constant section), K and M symmetric
// (relative 1e-6) and positive definite. RD_OK or RD_ERR_MODEL with the station named.
int rd_beamSectionCheck(rdContext* ctx, const rdBeamSection* s);

// what is wrong with a 6x6 section stiffness or mass ("is not symmetric" to 1e-6 relative, "is
// not positive definite"), NULL if nothing
const char* rd_beamMatrixDefect(const double A[36]);

// K and M at span coordinate eta in [0, 1] (clamped), linear between stations, symmetrized
void rd_beamSectionAt(const rdBeamSection* s, double eta, double K[36], double M[36]);

// ---------------------------------------------------------------------------------------------
// element

typedef enum {
  RD_BEAM_QUAD_FULL = 0,     // Gauss-Legendre, n points (default)
  RD_BEAM_QUAD_REDUCED = 1,  // Gauss-Legendre, n - 1 points
  RD_BEAM_QUAD_STATIONS = 2  // trapezoidal rule over the section stations inside the element
} rdBeamQuad;

// how the rotation field is interpolated (docs/beam.md)
typedef enum {
  // normalized-quaternion interpolation of the nodal rotations; the section frames at the
  // quadrature points are the same interpolation of the initial rotations (default)
  RD_BEAM_FIELD_TOTAL = 0,
  // normalized-quaternion interpolation of the nodal displacement rotations R_k R0_k^T, times
  // reference frames interpolated once at the quadrature points in Wiener-Milenkovic
  // parameters relative to the first node (BeamDyn's scheme): R(s) = R_d(s) R0(s)
  RD_BEAM_FIELD_DISPLACEMENT = 1
} rdBeamField;

// the virtual rotations the moment equations are tested with (docs/beam.md)
typedef enum {
  // the variations of the interpolated rotation field: Galerkin (default)
  RD_BEAM_VIRTUAL_FIELD = 0,
  // the nodes' spatial virtual rotations interpolated with the basis, as BeamDyn's weak form:
  // the two differ at second order in the rotations (the torsion of a bent, twisted blade)
  RD_BEAM_VIRTUAL_INTERPOLATED = 1
} rdBeamVirtual;

typedef struct rdBeamElemDef_ {
  int n;             // nodes (2 .. RD_BEAM_MAX_NODES)
  const int* node;   // n model node indices (rigid nodes)
  const double* x0;  // n x 3 initial positions (global)
  const double* q0;  // n x 4 initial quaternions: the section frames (carry pretwist)
  const rdBeamSection* section;
  double s0, s1;  // span coordinates of the element ends on the beam (0, 1 for one)
  rdBeamQuad quad;
  rdBeamField field;   // rotation interpolation (default RD_BEAM_FIELD_TOTAL)
  rdBeamVirtual virt;  // virtual rotations (default RD_BEAM_VIRTUAL_FIELD)
  int ext_twist;       // 1: BeamDyn's extension-twist term, strain energy 1/2 cet e1 k1^2 with
                       // cet = K44 + K55 (0-based: the two bending stiffnesses); 0: off
} rdBeamElemDef;

// distributed loads per unit length, constant along the element (the caller scales them)
typedef struct rdBeamLoads_ {
  double gravity[3];   // acceleration (global)
  double f_dead[3];    // force, global
  double m_dead[3];    // moment, global
  double f_follow[3];  // force, section frame
  double m_follow[3];  // moment, section frame
} rdBeamLoads;

typedef struct rdBeam_ rdBeam;

// build the element (one allocation: quadrature data, section data). Returns
// RD_OK, RD_ERR_ARG (n, quadrature), RD_ERR_MODEL (section, degenerate reference line),
// RD_ERR_NOMEM.
int rd_createBeam(rdContext* ctx, const rdBeamElemDef* def, rdBeam** out);
void rd_destroyBeam(rdBeam** b);

// h extended by everything the element's motion depends on: its nodes, basis, quadrature,
// reference geometry, sections and damping (the fingerprint of a checkpoint)
uint64_t rd_beamHash(const rdBeam* b, uint64_t h);

int rd_beamNodes(const rdBeam* b);
int rd_beamQuadPoints(const rdBeam* b);

// Evaluate at the model state: q (7 per model node: x, quaternion), v, vd (6 per model node:
// velocity global, angular velocity body; accelerations likewise), read at the element's
// nodes. ld may be NULL (no distributed loads). Writes r (6n) and, if the pointers are not
// NULL, M = dr/dvd, C = dr/dv, K = dr/d(dx, dtheta) (6n x 6n row-major, overwritten). The
// first call allocates the element's own workspace (rd_beamWorkSize doubles; models evaluate
// with rd_beamEvalWork into their data's). Returns RD_OK, RD_ERR_NOMEM, or RD_ERR_NUMERIC if
// the interpolated quaternion degenerates (neighbouring nodes rotated by about pi or more
// relative to each other).
int rd_beamEval(rdBeam* b, const double* q, const double* v, const double* vd,
                const rdBeamLoads* ld, double* r, double* M, double* C, double* K);

// doubles of workspace one evaluation needs (rd_beamEvalWork)
size_t rd_beamWorkSize(const rdBeam* b);

// rd_beamEval with caller-owned workspace (rd_beamWorkSize(b) doubles): b is only read, so one
// element may be evaluated by several threads at once, each with its own workspace. The
// quadrature-point outputs of this evaluation (positions, sectional forces) stay in `work`.
int rd_beamEvalWork(const rdBeam* b, double* work, const double* q, const double* v,
                    const double* vd, const rdBeamLoads* ld, double* r, double* M, double* C,
                    double* K);

// coefficients of the iteration matrix of one element, S = cM M + cC C + cK K diag(I, T_k)
typedef struct rdBeamSum_ {
  double cM, cC, cK;  // a zero coefficient leaves its matrix out
  const double* T;    // n x 9: each node's tangent operator (row-major), right-multiplying the
                      // rotation columns of K; NULL: identity
  const double* Y;    // n x 27 (NULL: not used): general maps of the rotation columns, which
                      // replace cM, cC, cK and T there: S_rot = K_rot YK + C_rot YC + M_rot YM
                      // with YK, YC, YM (3x3 row-major) in that order per node (the translation
                      // columns keep cM, cC, cK; the spatial form, solver/assemble.c)
} rdBeamSum;

// rd_beamEvalWork for the assembly: r and, if c and S are not NULL, S (6n x 6n row-major,
// overwritten) in one pass, without forming M, C and K. Does not raise: returns RD_OK or
// RD_ERR_NUMERIC (degenerate rotation field) without touching the context, so that several
// threads may evaluate elements at once; the caller reports (rd_beamEvalWork raises the message).
int rd_beamEvalSum(const rdBeam* b, double* work, const double* q, const double* v,
                   const double* vd, const rdBeamLoads* ld, const rdBeamSum* c, double* r,
                   double* S);

// internal forces at quadrature point g of the last evaluation: position (global) and the
// sectional forces [N; M] (section frame, elastic + damping); for outputs and tests
// (of rd_beamEval: the element's own workspace, not that of rd_beamEvalWork; zeros before the
// first rd_beamEval)
void rd_beamQuadForces(const rdBeam* b, int g, double x[3], double F[6]);

// the same from the workspace of an rd_beamEvalWork evaluation
void rd_beamQuadForcesWork(const rdBeam* b, const double* work, int g, double x[3], double F[6]);

// quadrature point g: its weight times the arc-length Jacobian (*jw, so that an integral over
// the element is the sum of jw f) and the section stiffness there, in the section frame (the
// frame of the section forces)
void rd_beamQuadSection(const rdBeam* b, int g, double* jw, double K[36]);

// parametric coordinate xi in [-1, 1] of quadrature point g (for interpolating its outputs)
double rd_beamQuadXi(const rdBeam* b, int g);

// energies and momenta of the element at the state q, v (model-wide arrays, as rd_beamEval),
// integrated with the element's quadrature: strain = 1/2 [Gamma; kappa]^T K [Gamma; kappa],
// kinetic = 1/2 [u; omega]^T M [u; omega] (section frame), gravity = -g . (m x + R m eta)
// (g may be NULL: 0), p = R P_t and L = x x R P_t + R P_r about the global origin with
// P = M [u; omega]. Any output may be NULL. Reads b only, no workspace, no allocation.
// Returns RD_OK or RD_ERR_NUMERIC (degenerate rotation field, as rd_beamEval).
int rd_beamEnergy(const rdBeam* b, const double* q, const double* v, const double* g,
                  double* strain, double* kinetic, double* gravity, double p[3], double L[3]);

#endif  // RD_BEAM_H
