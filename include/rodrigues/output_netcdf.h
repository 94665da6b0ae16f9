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

// Create the NetCDF-4 file `path` (written as PATH.partial until closed), following the CF
// conventions 1.8 (global attribute Conventions = "CF-1.8"; docs/cli.md has the details), for
// the model's output nodes. Dimensions: time (unlimited), node, vec3 = 3, quat = 4; with joints
// joint; with beams qpoint; with output.section_loads section. String coordinate variables
// label them: node(node) and joint(joint) the names, vec3(vec3) "x" "y" "z", quat(quat) "w" "x"
// "y" "z", section(section) "BEAM@S". Variables: time(time), s (simulated time: a duration,
// with no calendar date); position (m), velocity (m s-1), angular_velocity and
// angular_velocity_body (rad s-1) (time, node, vec3), orientation (time, node, quat: w,x,y,z,
// body to global); kinetic_energy, potential_energy, total_energy (time, J); momentum (time,
// vec3, kg m s-1) and angular_momentum (time, vec3, kg m2 s-1) as rd_getMomentum;
// newton_iterations (time); with joints reaction_force (N) and reaction_moment (N m) (time,
// joint, vec3; rd_getJointReaction); with beams beam_section_position (m), beam_section_force
// (N) and beam_section_moment (N m) (time, qpoint, vec3; section frame), beam b owning qpoints
// beam_qpoint_offset[b] .. [b+1]-1 (global attribute); with output.section_loads
// section_force (N) and section_moment (N m) (time, section, vec3; rd_getBeamSectionLoad).
// Every time series is chunked (about 8192 values a chunk) and, with output.netcdf_deflate > 0
// (default 4), deflated at that level with the shuffle filter.
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
