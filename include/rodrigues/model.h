// SPDX-License-Identifier: MIT
// The compiled model: immutable after rd_compile, shared by any number of rdData.
#ifndef RODRIGUES_MODEL_H
#define RODRIGUES_MODEL_H

#include <stdio.h>

#include "rodrigues/export.h"
#include "rodrigues/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdModel_ rdModel;

// time-stepping methods (option solver.method)
typedef enum rdMethod_ {
  RD_METHOD_GENERALIZED_ALPHA = 0,  // Lie-group generalized-alpha (Bruls-Cardona-Arnold 2012)
  RD_METHOD_STATIC,                 // static / quasi-static Newton with load stepping
  RD_METHOD_NMB,                    // explicit Newmark, body frame (Krysl-Endres 2005)
  RD_METHOD_NMS,                    // explicit Newmark, spatial frame
  RD_METHOD_LIEMID_E1,              // explicit midpoint Lie, variant 1 (adjoint), 1st order
  RD_METHOD_LIEMID_E2,              // explicit midpoint Lie, variant 2 (symplectic Euler)
  RD_METHOD_LIEMID_EA,              // alternating explicit midpoint Lie, 2nd order
  RD_METHOD_LIEMID_I,               // implicit midpoint Lie
  RD_METHOD_SW,                     // Simo-Wong explicit
  RD_METHOD_HSTAGM,                 // Hulbert staggered, midpoint torque
  RD_METHOD_AKW,                    // implicit midpoint of Austin-Krishnaprasad-Wang
  RD_METHOD_COUNT
} rdMethod;

// Deck name of a method ("generalized_alpha", "nmb", ...); NULL if out of range.
RD_API const char* rd_methodName(int method);

// Sizes of a compiled model.
typedef struct rdModelInfo_ {
  int nnode;        // nodes
  int nelement;     // elements of all types
  int nrigid_body;  // of which rigid bodies
  int njoint;       // joints
  int nload;        // nodal loads
  int ntorque_law;  // torque laws
  int ntimefn;      // time functions
  int ndof;         // velocity-level degrees of freedom (6 per rigid node, 3 per point node)
  int nconstraint;  // constraint equations (Lagrange multipliers)
  int noutput;      // output nodes
  int method;       // rdMethod
  int nbeam;        // beam elements (counted apart from nelement)
  const char* linear_solver;  // backend of the implicit methods ("klu", "umfpack", "cholmod",
                              // "dense"; solver.linear_solver = auto resolved), NULL otherwise
  int nuser_element;          // user elements (rds_addUserElement; counted apart from nelement)
  int noutput_reaction;       // joints whose reactions history.csv holds (rds_addOutputReaction)
  int noutput_section;        // beam sections whose loads history.csv holds
                              // (rds_addOutputSectionLoad)
  int nsubsystem;             // rigid subsystems of mixed stepping (0: none, one method for all)
} rdModelInfo;

// Compile a spec into an immutable model: resolve references, number DOFs and multipliers,
// build sparsity patterns, validate every object. On error returns RD_ERR_MODEL (or
// RD_ERR_NOMEM) with a message that starts with the object's origin (see rds_setOrigin) and
// names it; *model is then NULL. The spec is not modified and may be destroyed afterwards.
RD_API int rd_compile(const rdSpec* spec, rdModel** model);

// Destroy a model and set *model to NULL. Accepts NULL. While data or writers (histories,
// NetCDF, VTK) made from it exist it destroys nothing: *model stays, usable, and the context's
// last error is RD_ERR_STATE. A destroyed model's stale handle is refused with RD_ERR_HANDLE
// (docs/api.md "Handles").
RD_API void rd_destroyModel(rdModel** model);

// Fill `info` with the model's sizes. Returns RD_OK or RD_ERR_HANDLE / RD_ERR_ARG.
RD_API int rd_modelInfo(const rdModel* model, rdModelInfo* info);

// A rigid subsystem of mixed stepping (rds_addSubsystem, docs/mixed.md).
typedef struct rdSubsystemInfo_ {
  const char* name;
  int method;    // rdMethod: the rigid-body method that advances its bodies
  int substeps;  // its sub-steps per generalized-alpha step
  int nbody;     // its bodies (rd_subsystemBody gives their nodes)
} rdSubsystemInfo;

// Fill `info` for subsystem k (0 <= k < rdModelInfo.nsubsystem). Returns RD_OK, RD_ERR_HANDLE or
// RD_ERR_ARG.
RD_API int rd_subsystemInfo(const rdModel* model, int k, rdSubsystemInfo* info);

// Node of body i (0 <= i < nbody) of subsystem k, or -1 if out of range.
RD_API int rd_subsystemBody(const rdModel* model, int k, int i);

// Subsystem of node i, or -1 if the node belongs to the flexible part (every node, when the
// model has no subsystems) or i is out of range.
RD_API int rd_nodeSubsystem(const rdModel* model, int i);

// Name of node `i` (NULL if out of range).
RD_API const char* rd_nodeName(const rdModel* model, int i);

// Name of joint `j` (NULL if out of range).
RD_API const char* rd_jointName(const rdModel* model, int j);

// Index of the node named `name`, or -1 (also for an invalid handle; for a NULL name with the
// error RD_ERR_ARG raised).
RD_API int rd_findNode(const rdModel* model, const char* name);

// Index of output node `k` (0 <= k < noutput), or -1.
RD_API int rd_outputNode(const rdModel* model, int k);

// Joint index of output reaction `k` (0 <= k < noutput_reaction), or -1.
RD_API int rd_outputReaction(const rdModel* model, int k);

// Beam index and element fraction s of output section load `k` (0 <= k < noutput_section);
// either output may be NULL. Returns RD_OK, RD_ERR_HANDLE or RD_ERR_ARG.
RD_API int rd_outputSectionLoad(const rdModel* model, int k, int* beam, double* s);

// Name of beam element `b` (0 <= b < nbeam, in the order added; NULL if out of range).
RD_API const char* rd_beamName(const rdModel* model, int b);

// Value of option `key` in text form, as compiled into the model, into buf[0..size). Returns
// RD_OK, RD_ERR_HANDLE or RD_ERR_ARG (unknown key, NULL buffer, or a buffer too short for the
// whole value: then buf holds "" and the message the size needed).
RD_API int rd_getOption(const rdModel* model, const char* key, char* buf, int size);

// Numeric value of option `key` (NaN for unknown or non-numeric keys).
RD_API double rd_getOptionReal(const rdModel* model, const char* key);

// Check the internal consistency of a compiled model (sizes, index ranges, finite values,
// pattern). Returns RD_OK or RD_ERR_MODEL.
RD_API int rd_checkModel(const rdModel* model);

// Print a one-screen summary of the model (counts, DOFs, method, options) to `out`.
RD_API int rd_printModel(const rdModel* model, FILE* out);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_MODEL_H
