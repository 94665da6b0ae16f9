// SPDX-License-Identifier: MIT
// rodrigues: multibody dynamics of flexible systems. Umbrella header of the public API.
//
// Lifecycle (see docs/api.md):
//   1. rd_createContext           allocator, error handler, last error
//   2. rd_readDeck or rd_createSpec + rds_add*   describe the model
//   3. rd_compile                 spec -> immutable model; rd_destroySpec may follow
//   4. rd_createData              state and workspace for the model's method
//   5. rd_initialize              consistent initial accelerations and multipliers
//   6. rd_step / rd_advance       time stepping; rd_getNodeState, rd_getEnergy, rd_getStats
//   7. rd_destroyData, rd_destroyModel, rd_destroyContext   in reverse order
#ifndef RODRIGUES_H
#define RODRIGUES_H

#include "rodrigues/context.h"
#include "rodrigues/deck.h"
#include "rodrigues/export.h"
#include "rodrigues/geometry.h"
#include "rodrigues/import.h"
#include "rodrigues/liegroup.h"
#include "rodrigues/modal.h"
#include "rodrigues/model.h"
#include "rodrigues/output.h"
#include "rodrigues/output_netcdf.h"
#include "rodrigues/output_vtk.h"
#include "rodrigues/query.h"
#include "rodrigues/restart.h"
#include "rodrigues/simulate.h"
#include "rodrigues/spec.h"
#include "rodrigues/status.h"
#include "rodrigues/sweep.h"

#endif  // RODRIGUES_H
