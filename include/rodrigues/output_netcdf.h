// SPDX-License-Identifier: MIT
// Binary time series in NetCDF-4: node states and energies over time.
#ifndef RODRIGUES_OUTPUT_NETCDF_H
#define RODRIGUES_OUTPUT_NETCDF_H

#include "rodrigues/export.h"
#include "rodrigues/simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdNetcdf_ rdNetcdf;

// Create the NetCDF file `path` (written as PATH.partial until closed) for the model's output
// nodes. Dimensions: time (unlimited), node, vec3 = 3, quat = 4. Variables: time(time);
// node_name(node) as a string attribute list; position, velocity, angular_velocity (global),
// angular_velocity_body (time, node, vec3); orientation (time, node, quat: w,x,y,z);
// kinetic_energy, potential_energy, total_energy (time); newton_iterations (time); with joints,
// dimension joint and reaction_force, reaction_moment (time, joint, vec3; rd_getJointReaction),
// joint names in the global attribute joint_names; with beams, dimensions qpoint and six and
// beam_section_position (time, qpoint, vec3), beam_section_force (time, qpoint, six: N then M,
// section frame), beam b owning qpoints beam_qpoint_offset[b] .. [b+1]-1 (global attribute).
// Returns RD_OK, RD_ERR_IO or RD_ERR_NOMEM.
RD_API int rd_createNetcdf(const rdModel* model, const char* path, rdNetcdf** nc);

// Append one record for the current state. Returns RD_OK or RD_ERR_IO.
RD_API int rd_writeNetcdf(rdNetcdf* nc, const rdModel* model, const rdData* data);

// Close; commit != 0 renames PATH.partial to PATH, commit == 0 deletes it. Sets *nc to NULL;
// accepts NULL. Returns RD_OK or RD_ERR_IO.
RD_API int rd_closeNetcdf(rdNetcdf** nc, int commit);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_OUTPUT_NETCDF_H
