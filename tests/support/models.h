// SPDX-License-Identifier: MIT
// Models that several test and benchmark programs build through the C API, each written once
// (the static library test_support of tests/meson.build; bench/ links it too). A builder of a
// whole model returns its spec (NULL on failure) and sets no solver option unless it says so; a
// builder of a part returns the index of what it added (negative: the failing status).
#ifndef RD_TEST_MODELS_H
#define RD_TEST_MODELS_H

#include "rodrigues/rodrigues.h"

// ---------------------------------------------------------------------------------------------
// parts (parts.c)

// node n and a rigid body `body` on it: mass, inertia diag(inertia) about the centre of mass,
// the centre of mass at com in the body frame (NULL: at the node); returns the node's index
int model_addRigidBody(rdSpec* s, const rdNodeDef* n, const char* body, double mass,
                       const double inertia[3], const double com[3]);

// a spherical joint "pivot" from node to the ground at the origin; returns the joint's index
int model_addPivot(rdSpec* s, int node);

// a fixed joint "root" from node to the ground (a clamp); returns the joint's index
int model_addClamp(rdSpec* s, int node);

// the time function "ramp": f(t) = t, linear through (0, 0) and (1, 1); returns its index
int model_addRamp(rdSpec* s);

// the time function `name` given by a muparser expression of t; returns its index
int model_addExpression(rdSpec* s, const char* name, const char* expression);

// point node "p" at (x0, 0, 0) moving at (v0, 0, 0), point mass "pm" of 1 on it, and the spring
// "k" of rest length 0 to the ground at the origin, tension k1 e + k3 e^3; returns the node
int model_addSpringMass(rdSpec* s, double x0, double v0, double k1, double k3);

// ---------------------------------------------------------------------------------------------
// rigid bodies (tops.c)

// heavy top of docs/benchmarks.md A6 (Bruls, Cardona, Arnold 2012): m = 15, J = diag(0.234375,
// 0.46875, 0.234375) about the centre of mass X = (0, 1, 0), body angular velocity
// (0, 150, -4.61538), a spherical joint "pivot" to the ground at 0, gravity -9.81 z. The node
// "top" at the centre of mass, or at the pivot (then com = X: the library moves the inertia).
rdSpec* model_heavyTop(rdContext* ctx, int node_at_pivot);

// the heavy top (node at the centre of mass) with the generalized-alpha options of the tests:
// rho_inf rho, time step h, atol 1e-10, rtol 1e-8, 30 iterations, linear solver linsol (NULL:
// the default)
rdSpec* model_heavyTopAlpha(rdContext* ctx, double rho, double h, const char* linsol);

// Lagrangian top of Krysl & Endres 2005 §3.4-3.5: the node "top" at the pivot, the centre of
// mass at body (0, 0, 1), m = 1, g = 20 (m g l = 20), inertia diag(4, 4, 1) about the centre of
// mass (diag(5, 5, 1) about the pivot), initial rotation vector psi0 and body angular velocity
// W0; compiled for method with step h (NULL on failure, the error printed)
rdModel* model_lagrangeTop(rdContext* ctx, const char* method, double h, const double psi0[3],
                           const double W0[3]);

// the same as a spec, not compiled (for more options)
rdSpec* model_lagrangeTopSpec(rdContext* ctx, const char* method, double h, const double psi0[3],
                              const double W0[3]);

// torque-free body "body", its node at the centre of mass, mass 1, inertia diag(J), body angular
// velocity W0, no gravity; compiled for method with step h (NULL on failure, the error printed)
rdModel* model_freeBody(rdContext* ctx, const char* method, double h, const double J[3],
                        const double W0[3]);

// the same as a spec, not compiled (for more options)
rdSpec* model_freeBodySpec(rdContext* ctx, const char* method, double h, const double J[3],
                           const double W0[3]);

// ---------------------------------------------------------------------------------------------
// chains and lattices (chain.c, lattice.c)

// N unit rods (m = 1, I = diag(1/12, 1/12, 1e-3) about the centre) joined by revolutes about y
// at their ends, the first to the ground; gravity -9.81 z. Hanging along -z (node i at
// (0, 0, -(i + 1/2)), joint i at (0, 0, -i)) and turning as a rigid body at 0.5 rad/s about y,
// or (horizontal) lying along +x at rest.
rdSpec* model_chain(rdContext* ctx, int N, int horizontal);

// nx x ny x nz point masses of 1 kg, 1 m apart, springs along the edges and face diagonals of
// every cell, the bottom layer held by three ground springs per node, gravity -9.81 z. No joints
// and no rotations: the iteration matrix is symmetric positive definite (the case of
// solver.linear_solver = cholmod). Velocities v = v0 (sin, cos, sin) of the node index, so that
// springs stretch from the start; k1 = 1e3 N/m and a cubic k3 = 1e4 N/m^3 (a nonlinear
// tangent), damping c (N s/m) on the edge springs.
rdSpec* model_lattice(rdContext* ctx, int nx, int ny, int nz, double v0, double c);

// ---------------------------------------------------------------------------------------------
// beams (beams.c)

// the section of docs/benchmarks.md B1 (roll-up): the diagonal of the stiffness
extern const double model_b1Stiffness[6];
// the composite section of docs/benchmarks.md B3, axial first: stiffness, diagonal of the mass
extern const double model_b3Stiffness[36];
extern const double model_b3Mass[6];
// B3 static, L = 10, tip force 150 along z: the converged tip displacement
extern const double model_b3StaticTip[3];

// A = diag(d), 6 x 6
void model_diag6(double A[36], const double d[6]);

// E elements of P nodes along x over [0, L], the nodes "n0", "n1", ... at the
// Gauss-Lobatto-Legendre points of each element, one station with stiffness K and mass M; the
// element `name` (E = 1) or name0, name1, ... Node indices in nodes (E (P - 1) + 1 of them).
// 0, or the status of the first addition that failed.
int model_addGllBeams(rdSpec* s, int E, int P, double L, const double K[36], const double M[36],
                      const char* name, int* nodes);

// the same with the other fields of every element's definition (damping, quadrature, options)
// taken from proto (nodes, sections and span set here)
int model_addGllBeamsLike(rdSpec* s, int E, int P, double L, const double K[36], const double M[36],
                          const char* name, int* nodes, const rdBeamDef* proto);

// a cantilever: model_addGllBeams (E elements of P nodes along x over [0, L], one section K,
// M) with its first node clamped ("root"); NULL on failure, the error printed
rdSpec* model_cantilever(rdContext* ctx, int E, int P, double L, const double K[36],
                         const double M[36]);

// ---------------------------------------------------------------------------------------------
// from a spec or a deck to an initialized model (make.c)

// compiles s (destroyed here); NULL on failure, the error printed
rdModel* model_compile(rdSpec* s);

// compiles s (destroyed here), creates and initializes data; 0 or the failing status, the error
// printed
int model_make(rdSpec* s, rdModel** m, rdData** d);

// reads the deck with the overrides set[0 .. nset - 1] and makes its model and data as
// model_make; the error printed after the path
int model_openDeck(rdContext* ctx, const char* path, const char* const* set, int nset, rdModel** m,
                   rdData** d);

#endif  // RD_TEST_MODELS_H
