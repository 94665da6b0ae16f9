// SPDX-License-Identifier: MIT
// The model specification: an editable, append-only description of a model (nodes, elements,
// joints, loads, time functions, options, outputs), built through this API or by the deck reader,
// then compiled once into an immutable rdModel (see model.h).
//
// Objects are created from definition structs: get one from rd_default*Def(), set fields, pass it
// to rds_add*(). The library copies the definition (strings included) and keeps no pointer to it.
// rds_add*() returns the new object's index (>= 0) or a negative status. The spec only grows, so
// an index stays valid for the spec's lifetime. Checks that need the whole model (undefined
// nodes, inertia positive definite, ...) happen at rd_compile().
//
// Names, here and in every public header: rds_ functions take an rdSpec* first and edit or read
// it (rds_addNode, rds_setOption, rds_find, ...); rd_ functions do not: the library's objects
// and their lifecycle (rd_createSpec, rd_compile, rd_destroySpec, rd_step, ...) and the
// rd_default*Def() functions, which take nothing and return a definition to fill for the
// matching rds_add*() (rd_defaultTimeFnDef for rds_addTimeFn); rdu_ functions are utilities on
// plain values (Lie groups, beam geometry) with at most a context for error messages. Types are
// rdPascalCase, constants RD_UPPER_CASE.
#ifndef RODRIGUES_SPEC_H
#define RODRIGUES_SPEC_H

#include "rodrigues/context.h"
#include "rodrigues/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdSpec_ rdSpec;

// node index meaning the fixed ground frame (in joints and springs)
#define RD_GROUND (-1)
// time function index meaning "constant 1"
#define RD_NO_TIMEFN (-1)

// frame in which a vector is given
typedef enum rdFrame_ {
  RD_FRAME_GLOBAL = 0,  // inertial (spatial) frame
  RD_FRAME_BODY = 1     // the node's body (material, convected) frame
} rdFrame;

// kinds of nodes
typedef enum rdNodeKind_ {
  RD_NODE_RIGID = 0,  // R^3 x SO(3): position and orientation, 6 DOFs
  RD_NODE_POINT = 1   // R^3: position only, 3 DOFs
} rdNodeKind;

// kinds of objects, for rds_setOrigin and error messages
typedef enum rdObjKind_ {
  RD_OBJ_NODE = 0,
  RD_OBJ_ELEMENT,
  RD_OBJ_JOINT,
  RD_OBJ_LOAD,
  RD_OBJ_TIMEFN,
  RD_OBJ_TORQUE,
  RD_OBJ_OPTION,
  RD_OBJ_BEAM,       // beam elements (rds_addBeam): their own index space, element names
  RD_OBJ_SUBSYSTEM,  // rigid subsystems of mixed stepping (rds_addSubsystem)
  RD_OBJ_COUNT
} rdObjKind;

// ---------------------------------------------------------------------------------------------
// lifecycle

// Create an empty spec. Returns RD_OK, RD_ERR_ARG or RD_ERR_NOMEM.
RD_API int rd_createSpec(rdContext* ctx, rdSpec** spec);

// Destroy a spec and set *spec to NULL. Accepts NULL. A stale copy of the handle is then
// refused (RD_ERR_HANDLE), and destroying it again does nothing (docs/api.md "Handles").
RD_API void rd_destroySpec(rdSpec** spec);

// Context the spec was created with (NULL for an invalid handle).
RD_API rdContext* rds_context(const rdSpec* spec);

// Attach a source location such as "deck.yaml:12:5" to object `index` of kind `kind`; errors the
// compiler reports about that object start with it. Returns RD_OK, RD_ERR_ARG or RD_ERR_NOMEM.
RD_API int rds_setOrigin(rdSpec* spec, rdObjKind kind, int index, const char* origin);

// Index of the object of kind `kind` named `name`, or -1 if there is none.
RD_API int rds_find(const rdSpec* spec, rdObjKind kind, const char* name);

// Number of objects of kind `kind` in the spec.
RD_API int rds_count(const rdSpec* spec, rdObjKind kind);

// ---------------------------------------------------------------------------------------------
// nodes

typedef struct rdNodeDef_ {
  const char* name;                // unique name (required)
  rdNodeKind kind;                 // default RD_NODE_RIGID
  double position[3];              // global, default 0
  double orientation[4];           // unit quaternion (w,x,y,z), body -> global; default identity
  double velocity[3];              // global frame, default 0
  double angular_velocity[3];      // frame given below, default 0
  rdFrame angular_velocity_frame;  // default RD_FRAME_GLOBAL
  int cookie_;                     // set by rd_defaultNodeDef; do not touch
} rdNodeDef;

// Default node definition (at the origin, identity orientation, at rest).
RD_API rdNodeDef rd_defaultNodeDef(void);

// Add a node. Returns its index or RD_ERR_ARG (missing name, duplicate name, non-finite value,
// orientation not a unit quaternion to 1e-6 -- it is normalized --, def not from the default).
RD_API int rds_addNode(rdSpec* spec, const rdNodeDef* def);

// ---------------------------------------------------------------------------------------------
// time functions f(t), scaling loads and prescribing motions

typedef enum rdTimeFnType_ {
  RD_TIMEFN_CONSTANT = 0,  // value
  RD_TIMEFN_STEPS,         // piecewise constant: y[i] on [t[i], t[i+1]), y[0] before t[0]
  RD_TIMEFN_LINEAR,        // piecewise linear through (t[i], y[i]), constant outside
  RD_TIMEFN_EXPRESSION,    // formula of t (muparser syntax), e.g. "t < 1 ? 50*t : 0"
  RD_TIMEFN_CALLBACK       // user function
} rdTimeFnType;

// User time function: store f(t) in *value and its derivatives in dvalue[0] = f'(t),
// dvalue[1] = f''(t) if dvalue is not NULL. Returns 0 ok, >0 recoverable, <0 fatal.
typedef int (*rdTimeFnCallback)(double t, double* value, double dvalue[2], void* user);

typedef struct rdTimeFnDef_ {
  const char* name;           // unique name (required)
  rdTimeFnType type;          // default RD_TIMEFN_CONSTANT
  double value;               // RD_TIMEFN_CONSTANT, default 1
  int npoint;                 // STEPS, LINEAR: number of points (>= 1), t strictly increasing
  const double* t;            // STEPS, LINEAR: npoint times (copied)
  const double* y;            // STEPS, LINEAR: npoint values (copied)
  const char* expression;     // EXPRESSION (copied); variable t
  rdTimeFnCallback callback;  // CALLBACK
  void* user;                 // CALLBACK: passed through, owned by the caller
  int cookie_;
} rdTimeFnDef;

// Default time function definition (constant 1).
RD_API rdTimeFnDef rd_defaultTimeFnDef(void);

// Add a time function. Returns its index or RD_ERR_ARG (an expression that does not parse or
// uses a variable other than t is rejected here).
RD_API int rds_addTimeFn(rdSpec* spec, const rdTimeFnDef* def);

// ---------------------------------------------------------------------------------------------
// elements

typedef struct rdRigidBodyDef_ {
  const char* name;   // unique element name (required)
  int node;           // node the body is attached to (required, an RD_NODE_RIGID node)
  double mass;        // > 0
  double inertia[9];  // 3x3 row-major, about the centre of mass, in the node's body frame; SPD
  double com[3];      // centre of mass in the node's body frame (offset from the node), default 0
  int cookie_;
} rdRigidBodyDef;

typedef struct rdPointMassDef_ {
  const char* name;
  int node;
  double mass;  // > 0
  int cookie_;
} rdPointMassDef;

// Spring-damper between two nodes (or a node and a ground point) along the line joining them:
// tension f = k1 e + k2 e^2 + k3 e^3 + c de/dt, e = length - rest_length.
typedef struct rdSpringDef_ {
  const char* name;
  int node[2];          // node[1] may be RD_GROUND: then `anchor` is the ground point
  double anchor[3];     // global ground point if node[1] == RD_GROUND
  double stiffness[3];  // k1, k2, k3
  double damping;       // c >= 0
  double rest_length;   // < 0: the reference distance (default -1)
  int cookie_;
} rdSpringDef;

// Six-DOF bushing between two rigid nodes: generalized force -K d - C d', with d the relative
// displacement and rotation vector of node 1 with respect to node 0, in node 0's body frame.
typedef struct rdBushingDef_ {
  const char* name;
  int node[2];           // node[1] may be RD_GROUND
  double stiffness[36];  // 6x6 row-major, symmetric positive semi-definite
  double damping[36];    // 6x6 row-major, symmetric positive semi-definite
  int cookie_;
} rdBushingDef;

RD_API rdRigidBodyDef rd_defaultRigidBodyDef(void);
RD_API rdPointMassDef rd_defaultPointMassDef(void);
RD_API rdSpringDef rd_defaultSpringDef(void);
RD_API rdBushingDef rd_defaultBushingDef(void);

// Add an element. Each returns the element index (one index space for all element types) or
// RD_ERR_ARG. Node references, positive mass and SPD inertia are checked by rd_compile.
RD_API int rds_addRigidBody(rdSpec* spec, const rdRigidBodyDef* def);
RD_API int rds_addPointMass(rdSpec* spec, const rdPointMassDef* def);
RD_API int rds_addSpring(rdSpec* spec, const rdSpringDef* def);
RD_API int rds_addBushing(rdSpec* spec, const rdBushingDef* def);

// ---------------------------------------------------------------------------------------------
// geometrically exact beams (docs/beam.md)

// largest number of nodes of one beam element
#define RD_BEAM_MAX_NODES 32

// quadrature of a beam element of n nodes
typedef enum rdBeamQuadrature_ {
  RD_BEAM_QUADRATURE_FULL = 0,     // Gauss-Legendre, n points (default)
  RD_BEAM_QUADRATURE_REDUCED = 1,  // Gauss-Legendre, n - 1 points
  RD_BEAM_QUADRATURE_STATIONS = 2  // trapezoidal rule on the element ends and the stations inside
} rdBeamQuadrature;

// interpolation of a beam element's rotation field (docs/beam.md)
typedef enum rdBeamRotationField_ {
  // the nodal rotations, normalized-quaternion interpolation; the section frames at the
  // quadrature points are the same interpolation of the initial orientations (default)
  RD_BEAM_ROTATION_TOTAL = 0,
  // the nodal displacement rotations R_k R0_k^T, normalized-quaternion interpolation, times
  // section frames interpolated once from the initial orientations in Wiener-Milenkovic
  // parameters relative to the first node (OpenFAST BeamDyn's reference frames)
  RD_BEAM_ROTATION_DISPLACEMENT = 1
} rdBeamRotationField;

// the virtual rotations a beam element's moment equations are tested with (docs/beam.md)
typedef enum rdBeamVirtualRotation_ {
  // the variations of the interpolated rotation field: Galerkin (default)
  RD_BEAM_VIRTUAL_ROTATION_FIELD = 0,
  // the nodes' virtual rotations (global components) interpolated with the basis, as in
  // OpenFAST BeamDyn's weak form; differs from the above at second order in the rotations
  RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED = 1
} rdBeamVirtualRotation;

// One geometrically exact (Simo-Reissner) beam element of nnode rigid nodes: a Legendre
// spectral element whose nodes sit at the Gauss-Lobatto-Legendre points of the element, listed
// in order from one end to the other. The reference line is interpolated from the nodes'
// initial positions; the section frames come from the nodes' initial orientations, whose body
// x axis is the beam axis (first strain component: axial), y and z the section axes.
// A beam of several elements is several rds_addBeam calls whose end nodes are shared, each
// with the span coordinates [span[0], span[1]] it covers on the whole beam (the sections are
// interpolated in that coordinate). Strain order of the 6x6 matrices: axial, shear y, shear z,
// torsion, bending about y, bending about z; [N; M] = K [Gamma; kappa], M the mass per length
// ([m I, m skew(c)^T; m skew(c), J] for a rigid section with centre of mass offset c), both in
// the section frame, row-major. Gravity (rds_setGravity) acts on the beam's mass.
// Used by generalized_alpha and static; the rigid steppers refuse beams.
typedef struct rdBeamDef_ {
  const char* name;         // unique name (shares the name space of the elements)
  int nnode;                // nodes of the element, 2 .. RD_BEAM_MAX_NODES (order nnode - 1)
  const int* nodes;         // nnode rigid node indices in order along the element (copied)
  int nstation;             // section stations, >= 1 (1: a constant section)
  const double* station;    // nstation span coordinates in [0, 1], strictly increasing, from 0
                            // to 1 when nstation > 1 (copied)
  const double* stiffness;  // nstation x 36: 6x6 stiffness per station, symmetric positive
                            // definite (copied)
  const double* mass;       // nstation x 36: 6x6 mass per length per station, symmetric
                            // positive definite (copied)
  double damping[6];        // mu >= 0: [N; M]_damping = diag(mu) K d/dt [Gamma; kappa]
  rdBeamQuadrature quadrature;
  rdBeamRotationField rotation_field;      // default RD_BEAM_ROTATION_TOTAL
  rdBeamVirtualRotation virtual_rotation;  // default RD_BEAM_VIRTUAL_ROTATION_FIELD
  // 1: OpenFAST BeamDyn's (after Dymore) extension-twist term, strain energy
  // 1/2 (K[4][4] + K[5][5]) Gamma_1 kappa_1^2 added to the section's (docs/beam.md,
  // "Extension-twist term"); 0: off (default)
  int extension_twist;
  double span[2];      // span coordinates of this element on its beam, default [0, 1]
  double force[3];     // distributed force per length, scaled by timefn (default 0)
  double moment[3];    // distributed moment per length, scaled by timefn (default 0)
  rdFrame load_frame;  // frame of force and moment: RD_FRAME_GLOBAL (dead, default) or
                       // RD_FRAME_BODY (follower, in the section frame)
  int timefn;          // time function of the distributed load (RD_NO_TIMEFN: constant)
  int cookie_;
} rdBeamDef;

// Default beam definition: no nodes or sections yet, span [0, 1], full quadrature, no damping,
// no distributed load.
RD_API rdBeamDef rd_defaultBeamDef(void);

// Add a beam element. Returns its index (in its own index space, RD_OBJ_BEAM) or RD_ERR_ARG
// (missing name, duplicate element name, missing arrays, non-finite value). Node references
// and kinds, coincident nodes, the order, the stations and positive definiteness are checked by
// rd_compile, whose messages name the beam and the station.
RD_API int rds_addBeam(rdSpec* spec, const rdBeamDef* def);

// ---------------------------------------------------------------------------------------------
// joints (holonomic constraints, enforced with Lagrange multipliers by implicit steppers)

typedef enum rdJointType_ {
  RD_JOINT_FIXED = 0,         // node[0] clamped to the ground (position and rotation)
  RD_JOINT_RIGID,             // node[0] and node[1] rigidly connected
  RD_JOINT_SPHERICAL,         // common point `point`
  RD_JOINT_REVOLUTE,          // common point and common axis `axis`
  RD_JOINT_UNIVERSAL,         // common point; `axis` fixed in node 0, `axis2` in node 1 stay normal
  RD_JOINT_PRISMATIC,         // relative translation along `axis` only, no relative rotation
  RD_JOINT_CYLINDRICAL,       // relative translation along and rotation about `axis`
  RD_JOINT_PLANAR,            // node 1 moves in the plane of normal `axis`, rotates about it
  RD_JOINT_PRESCRIBED,        // node[0] follows prescribed position and rotation in time
  RD_JOINT_ROTATION_CONTROL,  // like RIGID but with the relative rotation about `axis` = f(t)
  RD_JOINT_COUNT
} rdJointType;

typedef struct rdJointDef_ {
  const char* name;  // unique joint name (required)
  rdJointType type;
  int node[2];       // node[1] may be RD_GROUND (default)
  double point[3];   // joint point, global, reference configuration
  double axis[3];    // joint axis or plane normal, global, reference configuration
  double axis2[3];   // universal: the axis attached to node 1
  int angle_fn;      // revolute, rotation control: prescribed angle f(t) (RD_NO_TIMEFN: free)
  int torque_fn;     // revolute: time function scaling `torque` (RD_NO_TIMEFN: constant)
  double torque;     // revolute: applied torque about the axis
  int motion_fn[6];  // prescribed: displacement x,y,z and rotation vector, f(t) each
                     // (RD_NO_TIMEFN: held at 0)
  int cookie_;
} rdJointDef;

RD_API rdJointDef rd_defaultJointDef(void);

// Add a joint. Returns its index or RD_ERR_ARG.
RD_API int rds_addJoint(rdSpec* spec, const rdJointDef* def);

// ---------------------------------------------------------------------------------------------
// loads

typedef enum rdLoadKind_ {
  RD_LOAD_FORCE = 0,  // force at the node
  RD_LOAD_MOMENT = 1  // moment (torque) at the node
} rdLoadKind;

typedef struct rdLoadDef_ {
  const char* name;  // unique load name (required)
  int node;
  rdLoadKind kind;
  rdFrame frame;    // RD_FRAME_GLOBAL: dead load; RD_FRAME_BODY: follower load
  double value[3];  // load vector, scaled by the time function
  int timefn;       // RD_NO_TIMEFN: constant
  int cookie_;
} rdLoadDef;

RD_API rdLoadDef rd_defaultLoadDef(void);

// Add a nodal load. Returns its index or RD_ERR_ARG.
RD_API int rds_addLoad(rdSpec* spec, const rdLoadDef* def);

// State-dependent torque laws on a rigid node, torque in the global (spatial) frame.
typedef enum rdTorqueLawType_ {
  RD_TORQUE_COULOMB_WALL = 0,  // Krysl & Endres 2005 §3.6: (-(a+R33)^-2 + c (a+R33)^-11)
                               // (-R23, R13, 0)
  RD_TORQUE_EXPRESSION,        // three formulas (muparser syntax) of t, the rotation matrix
                               // r11..r33 and the angular velocity, global w1..w3 and body
                               // W1..W3 (implicit steppers take the law as given in Newton;
                               // the rigid steppers evaluate it at the step's start velocity,
                               // the subsystems of mixed stepping at the predicted one)
  RD_TORQUE_CALLBACK           // user function
} rdTorqueLawType;

// User torque law: store the spatial torque on the node in torque[3] given time t and the
// node's rotation matrix R (row-major, body -> global). Returns 0 ok, >0 recoverable (cut the
// step), <0 fatal.
typedef int (*rdTorqueCallback)(double t, const double R[9], double torque[3], void* user);

typedef struct rdTorqueLawDef_ {
  const char* name;  // unique name (required)
  int node;          // RD_NODE_RIGID node
  rdTorqueLawType type;
  double param[2];            // COULOMB_WALL: a (default 1.1), c (default 0.01)
  const char* expression[3];  // EXPRESSION: x, y, z components (copied)
  rdTorqueCallback callback;  // CALLBACK
  void* user;                 // CALLBACK: passed through, owned by the caller
  int cookie_;
} rdTorqueLawDef;

RD_API rdTorqueLawDef rd_defaultTorqueLawDef(void);

// Add a torque law. Returns its index or RD_ERR_ARG (expressions are parsed here).
RD_API int rds_addTorqueLaw(rdSpec* spec, const rdTorqueLawDef* def);

// Loads computed by a host code on a set of nodes (co-simulation: aerodynamics, contact, ...).
// Called at every load evaluation with the time and the states of the nodes in the set:
// pose (n x 7: position, quaternion w,x,y,z body -> global), vel (n x 6: velocity and angular
// velocity, both global). Write force and moment (both global, the moment about the node) per
// node into load (n x 6, zeroed on entry). Returns 0 ok, >0 recoverable (the step is cut and
// retried), <0 fatal. Must not call back into the library.
typedef int (*rdNodeLoadCallback)(double t, int n, const int* nodes, const double* pose,
                                  const double* vel, double* load, void* user);

// Optional Jacobian of a host load callback, same arguments as the callback (and evaluated at
// the same states). With N = 6 n, write the N x N row-major matrices
//   dfdx = d load / d (dx, dtheta):  dx the global displacement of each node, dtheta its GLOBAL
//          (spatial) rotation increment, R -> exp(skew(dtheta)) R;
//   dfdv = d load / d (v, w):       velocity and angular velocity, both global;
// row 6 k + i is component i of node k's load (force 0..2, moment 3..5, as in `load`), column
// 6 l + j is component j of node l's increment (translation 0..2, rotation 3..5). Both are
// zeroed on entry; entries of point nodes' rotations are ignored. The library converts them
// to its own increments (body-frame rotations and angular velocities) and adds -df/dq to the
// stiffness and -df/dv to the damping of the implicit steppers, so that Newton sees the
// coupling (generalized_alpha, static). Returns 0 ok, >0 recoverable, <0 fatal.
typedef int (*rdNodeLoadJacobian)(double t, int n, const int* nodes, const double* pose,
                                  const double* vel, double* dfdx, double* dfdv, void* user);

typedef struct rdLoadCallbackDef_ {
  const char* name;             // unique load name (shares the name space of rds_addLoad)
  int nnode;                    // number of nodes in the set (>= 1)
  const int* nodes;             // nnode node indices (copied)
  rdNodeLoadCallback callback;  // required
  void* user;                   // passed through, owned by the caller
  rdNodeLoadJacobian jacobian;  // optional (NULL: the loads enter Newton as constants);
                                // with it, the sparse pattern couples all nodes of the set
  int cookie_;
} rdLoadCallbackDef;

RD_API rdLoadCallbackDef rd_defaultLoadCallbackDef(void);

// Add a host load callback. Returns its index (in its own index space) or RD_ERR_ARG.
// Node indices are checked by rd_compile.
RD_API int rds_addLoadCallback(rdSpec* spec, const rdLoadCallbackDef* def);

// ---------------------------------------------------------------------------------------------
// user-defined elements (host code), in the same global conventions as the load callbacks

// User element on a set of n nodes. In: time, pose (n x 7: position, quaternion w,x,y,z body ->
// global), vel (n x 6: velocity, angular velocity w, both global), acc (n x 6: acceleration,
// angular acceleration dw/dt, both global). Out: residual (n x 6, zeroed on entry): per node a
// force and a moment about the node, both global, with the sign of the equations of motion
//   r = inertial + internal - external = 0,
// i.e. the NEGATIVE of the force the element exerts on the node (a linear spring pulling node 0
// towards node 1 gives -k e n on node 0; a point mass gives m a). K, C, M (each 6n x 6n,
// row-major, zeroed on entry, rows as `residual`, columns 6 l + j for component j of node l)
// receive the derivatives of the residual with respect to (dx global, dtheta GLOBAL with
// R -> exp(skew(dtheta)) R), (v, w global) and (a, dw/dt global). The library passes NULL for
// all three when it needs only the residual; a callback that leaves them zero is treated as
// explicit (Newton then converges slowly, or not at all for an inertial element). Rotation
// rows and columns of point nodes are ignored. Returns 0 ok, >0 recoverable, <0 fatal. Must not
// call back into the library. Used by generalized_alpha and static; rigid steppers refuse it.
typedef int (*rdUserElementCallback)(double t, int n, const int* nodes, const double* pose,
                                     const double* vel, const double* acc, double* residual,
                                     double* K, double* C, double* M, void* user);

typedef struct rdUserElementDef_ {
  const char* name;                // unique name (shares the name space of the elements)
  int nnode;                       // number of nodes (>= 1)
  const int* nodes;                // nnode node indices (copied)
  rdUserElementCallback callback;  // required
  void* user;                      // passed through, owned by the caller
  int cookie_;
} rdUserElementDef;

RD_API rdUserElementDef rd_defaultUserElementDef(void);

// Add a user element. Returns its index (in its own index space) or RD_ERR_ARG. Node indices
// are checked by rd_compile; the sparse pattern couples all nodes of the element.
RD_API int rds_addUserElement(rdSpec* spec, const rdUserElementDef* def);

// ---------------------------------------------------------------------------------------------
// mixed stepping: rigid subsystems advanced by a rigid-body method inside generalized-alpha

// A rigid subsystem (docs/mixed.md): rigid bodies that one of the rigid-body methods of
// solver.method (RD_METHOD_NMB ... RD_METHOD_AKW, model.h) advances with `substeps` sub-steps
// inside every generalized-alpha step of the rest of the model, which solver.method must then
// be (RD_METHOD_GENERALIZED_ALPHA). Each body is free, pinned to the ground by a spherical
// joint, pinned by a spherical joint to a node of the flexible part whose position is the
// joint's point, or on a revolute joint (free angle) to such a node with rotations (methods
// NMB, NMS, SW, LIEMID_EA; its subsystem holds only such bodies); springs, bushings, user
// elements and load callbacks may tie it to the rest.
// rd_compile refuses, naming the objects, what the partition cannot do (a body in two
// subsystems, a node without a rigid body, a beam or point-mass node, joints between bodies,
// other joint types, elements between two subsystems, ...). Node names and outputs are those of
// the model without subsystems.
// What the flexible part's step sees of a subsystem tied to it (docs/mixed.md, "The step").
typedef enum rdSubsystemPredictor_ {
  // a pass of the sub-steps with the flexible motion extrapolated: the bodies' loads are
  // evaluated twice per sub-step (this pass and the final one); right for bodies whose motion
  // the step does not resolve (the multirate case) (default)
  RD_SUBSYSTEM_PREDICT_SUBSTEPS = 0,
  // the bodies' motion at the end of the step extrapolated from its start (x + H v + H^2/2 a,
  // R exp(H W + H^2/2 W')): no evaluation of their loads (one where a body is pinned to the
  // flexible part), but only for motion the step resolves (omega H below 1)
  RD_SUBSYSTEM_PREDICT_TAYLOR
} rdSubsystemPredictor;

typedef struct rdSubsystemDef_ {
  const char* name;  // unique subsystem name (required)
  int nbody;         // number of bodies, >= 1
  const int* nodes;  // nbody rigid nodes, each carrying one rigid_body element (copied)
  int method;        // rdMethod of the bodies, a rigid-body method (default RD_METHOD_LIEMID_EA)
  int substeps;      // sub-steps per generalized-alpha step, >= 1 (default 1)
  rdSubsystemPredictor predictor;  // default RD_SUBSYSTEM_PREDICT_SUBSTEPS
  int cookie_;
} rdSubsystemDef;

// Default subsystem definition: no bodies yet, liemid_ea, one sub-step, the substeps predictor.
RD_API rdSubsystemDef rd_defaultSubsystemDef(void);

// Add a rigid subsystem. Returns its index (RD_OBJ_SUBSYSTEM) or RD_ERR_ARG (missing or
// duplicate name, no nodes, a node listed twice, substeps < 1, a method that is not a
// rigid-body method). Node references and what the bodies are tied to are checked by rd_compile.
RD_API int rds_addSubsystem(rdSpec* spec, const rdSubsystemDef* def);

// ---------------------------------------------------------------------------------------------
// gravity, options, outputs

// Set the gravitational acceleration (global frame). Default (0, 0, 0).
RD_API int rds_setGravity(rdSpec* spec, const double g[3]);

// Set option `key` from its text form, e.g. ("solver.time_step", "0.01") or
// ("solver.method", "nmb"). The same table serves the deck, the CLI's --set and hosts; see
// rd_optionList() for the keys. Returns RD_OK or RD_ERR_ARG (unknown key, value of the wrong
// type or out of range; the context's last error says which).
RD_API int rds_setOption(rdSpec* spec, const char* key, const char* value);

// Set a numeric option. Returns RD_OK or RD_ERR_ARG.
RD_API int rds_setOptionReal(rdSpec* spec, const char* key, double value);

// Write option `key`'s current value as text into buf (size bytes). Returns RD_OK, RD_ERR_HANDLE
// or RD_ERR_ARG (unknown key, NULL buffer, or one too short for the whole value: buf gets "").
RD_API int rds_getOption(const rdSpec* spec, const char* key, char* buf, int size);

// Description of option i (0 <= i < count): key, type ("real", "int", "bool", "enum"),
// default value and a one-line help text. Returns the number of options; fields may be NULL.
RD_API int rd_optionList(int i, const char** key, const char** type, const char** deflt,
                         const char** help);

// Add a node to the outputs (history.csv columns, summary). With no output node every node is
// written. Returns RD_OK or RD_ERR_ARG.
RD_API int rds_addOutputNode(rdSpec* spec, int node);

// Add joint `joint` to the reactions written to history.csv: columns J.Fx J.Fy J.Fz J.Mx J.My
// J.Mz for the joint named J, the force (global) and the moment about its first node (global)
// of rd_getJointReaction. Written in the order added; adding one twice changes nothing.
// Returns RD_OK or RD_ERR_ARG (index out of range).
RD_API int rds_addOutputReaction(rdSpec* spec, int joint);

// Add the section loads of beam element `beam` (its index, RD_OBJ_BEAM) at the fraction s of
// the element (0 <= s <= 1, 0 at its first node) to history.csv: columns B@S.Nx B@S.Ny B@S.Nz
// B@S.Mx B@S.My B@S.Mz for the beam named B and S printed with %g, the force N and moment M of
// rd_getBeamSectionLoad (section frame). Written in the order added; adding one twice changes
// nothing. Returns RD_OK or RD_ERR_ARG (index or s out of range).
RD_API int rds_addOutputSectionLoad(rdSpec* spec, int beam, double s);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_SPEC_H
