// SPDX-License-Identifier: MIT
// Linearization and modal analysis at an operating point (docs/modal.md): the linearized
// equations M y'' + D y' + K y + B^T mu = f, B y = 0 on the tangent space of the configuration,
// in the inertial frame or in a frame spinning about a fixed axis; the constraints eliminated
// with a null-space basis N (y = N z); modes (frequencies, damping ratios, normalized and
// classified shapes); state-space models for chosen inputs and outputs; their files.
//
// Perturbations y per degree of freedom: the translation of a node in the axes of the frame
// (the global axes at the operating time) and the rotation of a rigid node in its body frame,
// R = R0 exp(skew(theta)); the layout of the model's degrees of freedom (6 per rigid node, 3 per
// point node, in node order).
#ifndef RODRIGUES_MODAL_H
#define RODRIGUES_MODAL_H

#include "rodrigues/export.h"
#include "rodrigues/model.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdLinearization_ rdLinearization;
typedef struct rdModes_ rdModes;
typedef struct rdStateSpace_ rdStateSpace;

// ---------------------------------------------------------------------------------------------
// linearization

// The operating point: the data's current state (time, configuration, velocities,
// accelerations, multipliers), or, with a spin, the data's configuration turning as a rigid
// body at spin_rate about the axis (velocities and accelerations of that rotation).
typedef struct rdLinearizeDef_ {
  double spin_rate;       // rad/s about spin_axis (right-handed); 0: the inertial frame (default)
  double spin_axis[3];    // direction of the axis, normalized here; needed when spin_rate != 0
  double spin_center[3];  // a point of the axis (global), default the origin
  int steady;             // 1: first move the data to the steady state in that frame: Newton for
                          // the configuration and multipliers where the residual vanishes (with
                          // spin_rate = 0 the static equilibrium under the loads at the data's
                          // time); 0 (default): linearize at the state as it is
  int cookie_;
} rdLinearizeDef;

// Default: inertial frame, no steady-state solve.
RD_API rdLinearizeDef rd_defaultLinearizeDef(void);

// Linearize the model at the data's state (docs/modal.md): assemble M = dr/dvd, D = dr/dv and
// K = dr/dq with the time stepper's exact tangents (joints' K^Phi at the current multipliers,
// load stiffness) and, in a spinning frame, its Coriolis, centrifugal and Euler terms; the
// constraint Jacobian B; the null-space basis N of B and the reduced M_r = N^T M N, D_r, K_r.
// The model's method must be generalized_alpha or static (they build the matrix pattern), and
// rd_initialize must have been called (it gives consistent accelerations and multipliers).
// With def->steady the data's configuration and multipliers are replaced by the steady state
// (its velocities and accelerations by those of the spin). def may be NULL (the defaults).
// Returns RD_OK, RD_ERR_ARG, RD_ERR_HANDLE, RD_ERR_STATE (not initialized),
// RD_ERR_UNSUPPORTED (an explicit method), RD_ERR_NUMERIC (no steady state: the message says
// why), RD_ERR_NOMEM, or a status of the model's callbacks.
RD_API int rd_linearize(const rdModel* model, rdData* data, const rdLinearizeDef* def,
                        rdLinearization** lin);

// Destroy and set *lin to NULL. Accepts NULL.
RD_API void rd_destroyLinearization(rdLinearization** lin);

typedef struct rdLinearizationInfo_ {
  int ndof;               // rows and columns of M, D, K
  int nconstraint;        // rows of B
  int rank;               // rank of B (less than nconstraint with redundant constraints)
  int nreduced;           // columns of N: ndof - rank
  double time;            // the operating time
  double spin_rate;       // rad/s
  int symmetric;          // 1: D = 0 and M, K symmetric (to 1e-9 of their largest entries)
  double residual;        // largest |entry| of the residual at the operating point (N, N m; 0 at
                          // an equilibrium or a state the time stepper converged)
  int steady_iterations;  // Newton iterations of the steady state (0 without)
} rdLinearizationInfo;

// Sizes and properties of a linearization. Returns RD_OK or RD_ERR_HANDLE / RD_ERR_ARG.
RD_API int rd_getLinearizationInfo(const rdLinearization* lin, rdLinearizationInfo* info);

// the matrices of a linearization
typedef enum rdLinMatrix_ {
  RD_LIN_M = 0,  // mass, ndof x ndof
  RD_LIN_D,      // damping with the gyroscopic and Coriolis terms, ndof x ndof
  RD_LIN_K,      // stiffness with the geometric, load and centrifugal terms, ndof x ndof
  RD_LIN_B,      // constraint Jacobian, nconstraint x ndof
  RD_LIN_N,      // null-space basis of B, ndof x nreduced (orthonormal columns)
  RD_LIN_MR,     // N^T M N
  RD_LIN_DR,     // N^T D N
  RD_LIN_KR,     // N^T K N
  RD_LIN_COUNT
} rdLinMatrix;

// Name of matrix `which` as in the file names ("M", "D", "K", "B", "N", "Mr", "Dr", "Kr"); NULL
// if out of range.
RD_API const char* rd_linearMatrixName(int which);

// Matrix `which` in compressed sparse column form: *nrow, *ncol, *nnz (any may be NULL) and,
// where the arrays are not NULL, Ap (ncol + 1 column starts), Ai (nnz row indices, sorted in
// each column), Ax (nnz values). Call with NULL arrays to learn the sizes. Returns RD_OK,
// RD_ERR_HANDLE or RD_ERR_ARG.
RD_API int rd_getLinearMatrix(const rdLinearization* lin, int which, int* nrow, int* ncol, int* nnz,
                              int* Ap, int* Ai, double* Ax);

// Write every matrix to DIR/<name>.mtx (Matrix Market coordinate real general, 1-based) and an
// index DIR/matrices.json (sizes, the operating point, the layout of the degrees of freedom:
// node names, kinds and first index). Files appear complete or not at all. Returns RD_OK,
// RD_ERR_HANDLE or RD_ERR_IO.
RD_API int rd_writeLinearMatrices(const rdLinearization* lin, const char* dir);

// ---------------------------------------------------------------------------------------------
// modes

// eigen-solvers
typedef enum rdEigenSolver_ {
  RD_EIGEN_AUTO = 0,  // dense up to RD_MODAL_DENSE_MAX reduced unknowns (or when at least half
                      // of them are wanted), ARPACK above
  RD_EIGEN_DENSE,     // LAPACK: dsygvd (symmetric), dgeev/dggev (first-order form)
  RD_EIGEN_ARPACK     // ARPACK with shift-invert on a sparse factorization
} rdEigenSolver;

// reduced unknowns up to which RD_EIGEN_AUTO uses the dense solvers
#define RD_MODAL_DENSE_MAX 800

typedef struct rdModalDef_ {
  int count;            // modes wanted, those of lowest |lambda| (default 10)
  int solver;           // rdEigenSolver (default RD_EIGEN_AUTO)
  int general;          // 1: solve the quadratic (damped) form even when the problem is
                        // symmetric; default 0: symmetric problems use K z = w^2 M z
  double shift_hz;      // ARPACK on a symmetric problem: the modes nearest this frequency
                        // (default 0: the lowest)
  double tolerance;     // ARPACK: relative accuracy (default 0: machine precision)
  int max_restarts;     // ARPACK: restarts (default 0: 1000)
  double flap_axis[3];  // the direction out of the rotor plane: beam bending modes whose
                        // motion is mostly along it are "flap", the others "edge"; zero
                        // (default): the spin axis; with neither, bending is labelled by the
                        // section axis it bends about ("bending_y", "bending_z")
  double rigid_tol_hz;  // natural frequencies up to this are rigid-body modes (default 0:
                        // those below 1e-9 of the spectrum's scale rdModesInfo.scale_hz, and the
                        // lowest modes when a gap of a factor 1000 separates them from the next
                        // and they are below 1e-6 of the scale; every mode of a model without
                        // stiffness)
  int cookie_;
} rdModalDef;

// Default: 10 modes, automatic solver.
RD_API rdModalDef rd_defaultModalDef(void);

// Solve the eigenproblem of the reduced linearized equations: (lambda^2 M_r + lambda D_r + K_r)
// z = 0, or K_r z = w^2 M_r z (lambda = i w) for a symmetric problem; keep the `count` of
// smallest |lambda| (of a complex-conjugate pair the one with Im lambda > 0), map the shapes
// back, y = N z, normalize and classify them (rdModeInfo). The modes keep what they need (the
// operating configuration, the model pointer): lin may be destroyed first, the model may not.
// def may be NULL (the defaults). Returns RD_OK, RD_ERR_HANDLE, RD_ERR_ARG, RD_ERR_NUMERIC
// (LAPACK or ARPACK failed), RD_ERR_UNSUPPORTED (ARPACK asked for in a build without it),
// RD_ERR_NOMEM.
RD_API int rd_computeModes(const rdLinearization* lin, const rdModalDef* def, rdModes** modes);

// Destroy and set *modes to NULL. Accepts NULL.
RD_API void rd_destroyModes(rdModes** modes);

// Number of modes computed (0 for an invalid handle).
RD_API int rd_modeCount(const rdModes* modes);

// what a mode is
typedef enum rdModeKind_ {
  RD_MODE_RIGID = 0,  // frequency below the rigid tolerance
  RD_MODE_AXIAL,      // beam strain energy mostly axial
  RD_MODE_TORSION,    // mostly torsion
  RD_MODE_FLAP,       // bending, motion mostly along the flap axis
  RD_MODE_EDGE,       // bending, motion mostly across it
  RD_MODE_BENDING_Y,  // bending about the section's y axis (no flap axis)
  RD_MODE_BENDING_Z,  // bending about the section's z axis (no flap axis)
  RD_MODE_SHEAR,      // mostly shear
  RD_MODE_OTHER,      // no beam strain energy (rigid bodies on springs, mechanisms)
  RD_MODE_KIND_COUNT
} rdModeKind;

// Name of a mode kind ("rigid", "axial", "torsion", "flap", "edge", "bending_y", "bending_z",
// "shear", "other"); NULL if out of range.
RD_API const char* rd_modeKindName(int kind);

typedef struct rdModeInfo_ {
  double eigenvalue[2];     // lambda (1/s), real and imaginary part: the motion is exp(lambda t)
  double frequency_hz;      // |Im lambda| / 2 pi (damped)
  double natural_hz;        // |lambda| / 2 pi (undamped)
  double damping_ratio;     // -Re lambda / |lambda| (0 when lambda = 0; -1 for an unstable
                            // real lambda > 0)
  int kind;                 // rdModeKind
  int kind_index;           // 1 for the lowest mode of its kind, 2 for the next, ...
  double energy[5];         // fractions of the beams' strain energy in the mode: axial, shear,
                            // torsion, bending about the section y axis, about z (sum 1; all 0
                            // without beam strain energy)
  double mass_fraction[6];  // effective mass of the mode over the total, for rigid translations
                            // along global x, y, z and rotations about x, y, z through the spin
                            // center: |y^H M r|^2 / (y^H M y r^T M r)
  double modal_mass;        // y^H M y of the normalized shape
} rdModeInfo;

// Mode k (0 <= k < rd_modeCount, lowest |lambda| first). Returns RD_OK, RD_ERR_HANDLE or
// RD_ERR_ARG.
RD_API int rd_getMode(const rdModes* modes, int k, rdModeInfo* info);

// Shape of mode k, real and imaginary parts (either may be NULL), nnode x 6 each: per node the
// translation (frame axes) and the rotation (body frame; zero for point nodes). Normalized: the
// largest nodal translation has modulus 1 and the largest component is real and positive (a
// mode without translation: the largest rotation times the model's size, rd_getModesInfo).
// Returns RD_OK, RD_ERR_HANDLE or RD_ERR_ARG.
RD_API int rd_getModeShape(const rdModes* modes, int k, double* re, double* im);

typedef struct rdModesInfo_ {
  int solver;        // rdEigenSolver used (DENSE or ARPACK)
  int symmetric;     // the symmetric form was solved
  int converged;     // ARPACK: converged Ritz values (dense: the count)
  int restarts;      // ARPACK: restarts used
  int products;      // ARPACK: applications of the shift-invert operator
  double sigma;      // the shift of the eigen-solver (of w^2 when symmetric, of lambda
                     // otherwise)
  double length;     // the model's size (diagonal of the box around the nodes), m
  double scale_hz;   // the scale of the spectrum: the largest K_ii / M_ii of the reduced
                     // problem as a frequency, sqrt(.) / 2 pi (the round-off of a zero
                     // frequency is a tiny fraction of it; 0 for a model without stiffness)
  double spin_rate;  // rad/s, of the linearization
  double time;       // the operating time
} rdModesInfo;

// How the modes were computed. Returns RD_OK or RD_ERR_HANDLE / RD_ERR_ARG.
RD_API int rd_getModesInfo(const rdModes* modes, rdModesInfo* info);

// Modal assurance criterion of mode i of a and mode j of b (same model):
// |y_a^H y_b|^2 / (|y_a|^2 |y_b|^2) on the shapes, rotations times the model's size; 1 for the
// same shape, 0 for orthogonal ones. NaN for invalid arguments.
RD_API double rd_modeMac(const rdModes* a, int i, const rdModes* b, int j);

// Write PATH, a CSV table with one row per mode: mode, frequency_hz, damping_ratio,
// natural_hz, eigenvalue_real, eigenvalue_imag, classification, kind_index, the energy
// fractions (energy_axial, energy_shear, energy_torsion, energy_bending_y, energy_bending_z),
// the mass fractions (mass_fraction_x .. _rz) and modal_mass. Written to a partial file and
// renamed. Returns RD_OK, RD_ERR_HANDLE or RD_ERR_IO.
RD_API int rd_writeModesCsv(const rdModes* modes, const char* path);

// Write PATH, a NetCDF-4 file with dimensions mode, node, vec3, quat and component (5): the
// columns of rd_writeModesCsv per mode, the operating configuration (position, orientation per
// node) and the shapes (shape_translation_real/imag, shape_rotation_real/imag: mode x node x
// vec3); node names in the global attribute node_names. Returns RD_OK, RD_ERR_HANDLE or
// RD_ERR_IO.
RD_API int rd_writeModesNetcdf(const rdModes* modes, const char* path);

// Write an animation of mode k for ParaView into the existing directory DIR: DIR/results.pvd
// and DIR/vtk/results_NNNNNN.vtu (rd_createVtk's layout), `frames` frames over one period
// (default 0: 24), the configuration q0 o exp(a Re(y e^{i 2 pi f})) for the phases f = j /
// frames, a the largest nodal translation (m; 0: a tenth of the model's size), the velocities
// those of the mode at its frequency. TIME of frame j is j / frames. Returns RD_OK,
// RD_ERR_HANDLE, RD_ERR_ARG, RD_ERR_IO or RD_ERR_NOMEM.
RD_API int rd_writeModeVtk(const rdModes* modes, int k, const char* dir, int frames,
                           double amplitude);

// ---------------------------------------------------------------------------------------------
// state-space models

// inputs u of a state-space model
typedef enum rdSsInputKind_ {
  RD_SS_FORCE = 0,  // a force on node `index` along global axis `component` (0..2), N
  RD_SS_MOMENT,     // a moment on rigid node `index` about global axis `component`, N m
  RD_SS_MOTION      // the value s of equation `component` of joint `index`, phi_k = s (its
                    // units: m, rad): three inputs s, s', s'' (the prescribed motion and its rates)
} rdSsInputKind;

// outputs y of a state-space model
typedef enum rdSsOutputKind_ {
  RD_SS_DISPLACEMENT = 0,  // translation of node `index` along frame axis `component`, m
  RD_SS_ROTATION,          // rotation of rigid node `index` about its body axis `component`, rad
  RD_SS_VELOCITY,          // rate of the translation, m/s
  RD_SS_ANGULAR_VELOCITY,  // rate of the rotation, rad/s
  RD_SS_REACTION_FORCE,    // change of the reaction force of joint `index` on its first node,
                           // global axis `component`, N (rd_getJointReaction)
  RD_SS_REACTION_MOMENT    // likewise the moment about the node, N m
} rdSsOutputKind;

// one input or output channel
typedef struct rdSsChannel_ {
  int kind;       // rdSsInputKind or rdSsOutputKind
  int index;      // node (forces, moments, node outputs) or joint (motions, reactions)
  int component;  // axis 0..2, or the joint's equation (motions)
} rdSsChannel;

// Build the state-space model x' = A x + B u, y = C x + D u of the linearization with the
// state x = (z, z') of the reduced coordinates (2 nreduced; y = N z), A = [0 I; -M_r^-1 K_r,
// -M_r^-1 D_r] (docs/modal.md). A motion input takes three columns of u: s, s', s''.
// Dense matrices: nreduced at most RD_SS_MAX_STATES / 2. Returns RD_OK, RD_ERR_HANDLE,
// RD_ERR_ARG (a channel out of range, with the message), RD_ERR_NUMERIC (M_r singular),
// RD_ERR_UNSUPPORTED (too large), RD_ERR_NOMEM.
RD_API int rd_stateSpace(const rdLinearization* lin, int ninput, const rdSsChannel* inputs,
                         int noutput, const rdSsChannel* outputs, rdStateSpace** ss);

// largest state dimension of rd_stateSpace
#define RD_SS_MAX_STATES 4000

// Destroy and set *ss to NULL. Accepts NULL.
RD_API void rd_destroyStateSpace(rdStateSpace** ss);

// Sizes (*nx states, *nu inputs, *ny outputs; any may be NULL) and, where the arrays are not
// NULL, the matrices in column-major order: A (nx x nx), B (nx x nu), C (ny x nx), D (ny x nu).
// Returns RD_OK or RD_ERR_HANDLE.
RD_API int rd_getStateSpace(const rdStateSpace* ss, int* nx, int* nu, int* ny, double* A, double* B,
                            double* C, double* D);

// Write DIR/A.mtx, B.mtx, C.mtx, D.mtx (Matrix Market array real general) and DIR/statespace.json
// (sizes, the state, input and output names in order, the operating point). Returns RD_OK,
// RD_ERR_HANDLE or RD_ERR_IO.
RD_API int rd_writeStateSpace(const rdStateSpace* ss, const char* dir);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_MODAL_H
