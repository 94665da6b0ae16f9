// SPDX-License-Identifier: MIT
// NetCDF-4 time series of node states and energies (Unidata netCDF-C).
#include <netcdf.h>
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/output_netcdf.h"
#include "rodrigues/query.h"
#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"
#include "src/sim/query_beam.h"

// beams whose section forces go to the file (more are left out, see docs/cli.md)
#define RD_NETCDF_MAXBEAM 1024

enum { V_TIME, V_POS, V_QUAT, V_VEL, V_W, V_WB, V_KE, V_PE, V_TE, V_NEWTON, V_COUNT };
enum { R_FORCE, R_MOMENT, R_COUNT };

struct rdNetcdf_ {
  uint32_t magic;
  rdContext* ctx;
  int ncid;
  int var[V_COUNT];
  int rvar[R_COUNT];  // joint reactions (when the model has joints)
  int njoint;
  size_t record;
  int nout;
  char* path;     // final name
  char* partial;  // name while writing
  double* buf;    // max(nout x 4, njoint x 3) staging
  // beam section forces at every beam's quadrature points (when the model has beams)
  int nqp;        // quadrature points of all beams
  int svar[2];    // beam_section_position, beam_section_force
  double* sx;     // nqp x 3
  double* sf;     // nqp x 6
  double* swork;  // residual (6 n) + kernel workspace of the largest beam
};

#define RD_MAGIC_NETCDF 0x52444e43u

static int nc_fail(rdContext* ctx, const char* path, int err) {
  return RD_ERROR(ctx, RD_ERR_IO, "NetCDF '%s': %s", path, nc_strerror(err));
}


static void free_nc(rdNetcdf* nc) {
  rdContext* ctx = nc->ctx;
  rd_free(ctx, nc->path);
  rd_free(ctx, nc->partial);
  rd_free(ctx, nc->buf);
  rd_free(ctx, nc->sx);
  rd_free(ctx, nc->sf);
  rd_free(ctx, nc->swork);
  nc->magic = 0;
  rd_free(ctx, nc);
}


// define dimensions, variables and attributes
static int define(rdNetcdf* nc, const rdModel* m) {
  int id = nc->ncid, dt, dn, d3, d4, e;
  if ((e = nc_def_dim(id, "time", NC_UNLIMITED, &dt)) ||
      (e = nc_def_dim(id, "node", (size_t)m->nout, &dn)) || (e = nc_def_dim(id, "vec3", 3, &d3)) ||
      (e = nc_def_dim(id, "quat", 4, &d4))) {
    return e;
  }
  int t1[1] = {dt}, t3[3] = {dt, dn, d3}, t4[3] = {dt, dn, d4};
  struct {
    const char* name;
    int ndim;
    const int* dims;
    const char* units;
    const char* desc;
  } vars[V_COUNT] = {
      {"time", 1, t1, "s", "time"},
      {"position", 3, t3, "m", "node position, global frame"},
      {"orientation", 3, t4, "1", "unit quaternion (w,x,y,z), body to global"},
      {"velocity", 3, t3, "m/s", "node velocity, global frame"},
      {"angular_velocity", 3, t3, "rad/s", "angular velocity, global frame"},
      {"angular_velocity_body", 3, t3, "rad/s", "angular velocity, body frame"},
      {"kinetic_energy", 1, t1, "J", "kinetic energy"},
      {"potential_energy", 1, t1, "J", "potential energy"},
      {"total_energy", 1, t1, "J", "kinetic + potential energy"},
      {"newton_iterations", 1, t1, "1", "Newton iterations of the last step"},
  };
  for (int k = 0; k < V_COUNT; k++) {
    nc_type type = k == V_NEWTON ? NC_INT : NC_DOUBLE;
    if ((e = nc_def_var(id, vars[k].name, type, vars[k].ndim, vars[k].dims, &nc->var[k])) ||
        (e = nc_put_att_text(id, nc->var[k], "units", strlen(vars[k].units), vars[k].units)) ||
        (e = nc_put_att_text(id, nc->var[k], "long_name", strlen(vars[k].desc), vars[k].desc))) {
      return e;
    }
  }
  if (m->njoint > 0) {
    int dj;
    if ((e = nc_def_dim(id, "joint", (size_t)m->njoint, &dj))) {
      return e;
    }
    int tj[3] = {dt, dj, d3};
    const char* rn[R_COUNT] = {"reaction_force", "reaction_moment"};
    const char* ru[R_COUNT] = {"N", "N m"};
    const char* rd[R_COUNT] = {"joint reaction force on its first node, global frame",
                               "joint reaction moment about its first node, global frame"};
    for (int k = 0; k < R_COUNT; k++) {
      if ((e = nc_def_var(id, rn[k], NC_DOUBLE, 3, tj, &nc->rvar[k])) ||
          (e = nc_put_att_text(id, nc->rvar[k], "units", strlen(ru[k]), ru[k])) ||
          (e = nc_put_att_text(id, nc->rvar[k], "long_name", strlen(rd[k]), rd[k]))) {
        return e;
      }
    }
    size_t jl = 1;
    for (int j = 0; j < m->njoint; j++) {
      jl += strlen(m->joint[j].def.name) + 1;
    }
    char* jn = rd_alloc(nc->ctx, jl);
    if (!jn) {
      return NC_ENOMEM;
    }
    jn[0] = '\0';
    for (int j = 0; j < m->njoint; j++) {
      strcat(jn, j ? "," : "");
      strcat(jn, m->joint[j].def.name);
    }
    e = nc_put_att_text(id, NC_GLOBAL, "joint_names", strlen(jn), jn);
    rd_free(nc->ctx, jn);
    if (e) {
      return e;
    }
  }
  if (nc->nqp > 0) {
    int dq, d6;
    if ((e = nc_def_dim(id, "qpoint", (size_t)nc->nqp, &dq)) ||
        (e = nc_def_dim(id, "six", 6, &d6))) {
      return e;
    }
    int tq3[3] = {dt, dq, d3}, tq6[3] = {dt, dq, d6};
    const char* desc[2] = {"beam quadrature point position, global frame",
                           "beam section force (N) and moment (M), section frame"};
    const char* unit[2] = {"m", "N, N m"};
    if ((e = nc_def_var(id, "beam_section_position", NC_DOUBLE, 3, tq3, &nc->svar[0])) ||
        (e = nc_def_var(id, "beam_section_force", NC_DOUBLE, 3, tq6, &nc->svar[1]))) {
      return e;
    }
    for (int k = 0; k < 2; k++) {
      if ((e = nc_put_att_text(id, nc->svar[k], "units", strlen(unit[k]), unit[k])) ||
          (e = nc_put_att_text(id, nc->svar[k], "long_name", strlen(desc[k]), desc[k]))) {
        return e;
      }
    }
    // beam b owns quadrature points beam_qpoint_offset[b] .. beam_qpoint_offset[b+1]-1
    int off[RD_NETCDF_MAXBEAM + 1];
    int nb = m->nbeam < RD_NETCDF_MAXBEAM ? m->nbeam : RD_NETCDF_MAXBEAM;
    off[0] = 0;
    for (int b = 0; b < nb; b++) {
      off[b + 1] = off[b] + rd_beamQuadPoints(m->beam[b].kernel);
    }
    if ((e = nc_put_att_int(id, NC_GLOBAL, "beam_qpoint_offset", NC_INT, (size_t)nb + 1, off))) {
      return e;
    }
  }
  // node names as a comma-separated global attribute, in node-dimension order
  size_t len = 1;
  for (int k = 0; k < m->nout; k++) {
    len += strlen(m->node_name[m->out_node[k]]) + 1;
  }
  char* names = rd_alloc(nc->ctx, len);
  if (!names) {
    return NC_ENOMEM;
  }
  names[0] = '\0';
  for (int k = 0; k < m->nout; k++) {
    strcat(names, k ? "," : "");
    strcat(names, m->node_name[m->out_node[k]]);
  }
  e = nc_put_att_text(id, NC_GLOBAL, "node_names", strlen(names), names);
  rd_free(nc->ctx, names);
  const char* conv = "rodrigues time series; see docs/deck.md";
  if (!e) {
    e = nc_put_att_text(id, NC_GLOBAL, "title", strlen(conv), conv);
  }
  return e ? e : nc_enddef(id);
}


int rd_createNetcdf(const rdModel* m, const char* path, rdNetcdf** out) {
  if (!out) {
    return RD_ERR_ARG;
  }
  *out = NULL;
  if (!rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (!path || !*path) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_createNetcdf: no file name");
  }
  rdNetcdf* nc = rd_calloc(m->ctx, 1, sizeof(rdNetcdf));
  if (!nc) {
    return RD_ERR_NOMEM;
  }
  nc->magic = RD_MAGIC_NETCDF;
  nc->ctx = m->ctx;
  nc->nout = m->nout;
  nc->njoint = m->njoint;
  nc->ncid = -1;
  size_t len = strlen(path);
  nc->path = rd_strdup(m->ctx, path);
  nc->partial = rd_alloc(m->ctx, len + 9);
  size_t nbuf =
      4 * (size_t)m->nout > 3 * (size_t)m->njoint ? 4 * (size_t)m->nout : 3 * (size_t)m->njoint;
  nc->buf = rd_calloc(m->ctx, nbuf + 1, sizeof(double));
  size_t swork = rd_beamSectionWork(m, RD_NETCDF_MAXBEAM, NULL, &nc->nqp);
  if (nc->nqp > 0) {
    nc->sx = rd_calloc(m->ctx, 3 * (size_t)nc->nqp, sizeof(double));
    nc->sf = rd_calloc(m->ctx, 6 * (size_t)nc->nqp, sizeof(double));
    nc->swork = rd_calloc(m->ctx, swork, sizeof(double));
  }
  if (!nc->path || !nc->partial || !nc->buf ||
      (nc->nqp > 0 && (!nc->sx || !nc->sf || !nc->swork))) {
    free_nc(nc);
    return RD_ERR_NOMEM;
  }
  snprintf(nc->partial, len + 9, "%s.partial", path);
  int e = nc_create(nc->partial, NC_CLOBBER | NC_NETCDF4, &nc->ncid);
  if (e) {
    int st = nc_fail(m->ctx, path, e);
    free_nc(nc);
    return st;
  }
  e = define(nc, m);
  if (e) {
    int st = nc_fail(m->ctx, path, e);
    nc_close(nc->ncid);
    remove(nc->partial);
    free_nc(nc);
    return st;
  }
  *out = nc;
  return RD_OK;
}


// write a (time, node, width) slab for record r from nc->buf
static int put_slab(rdNetcdf* nc, int var, size_t width) {
  size_t start[3] = {nc->record, 0, 0}, count[3] = {1, (size_t)nc->nout, width};
  return nc_put_vara_double(nc->ncid, var, start, count, nc->buf);
}


int rd_writeNetcdf(rdNetcdf* nc, const rdModel* m, const rdData* d) {
  if (!nc || nc->magic != RD_MAGIC_NETCDF || !rd_modelValid(m)) {
    return RD_ERR_HANDLE;
  }
  if (m->nout != nc->nout) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_writeNetcdf: model does not match the file");
  }
  size_t r[1] = {nc->record};
  double t = rd_time(d);
  int e = nc_put_var1_double(nc->ncid, nc->var[V_TIME], r, &t);
  // one pass per variable, staged in buf (nout x width)
  static const int vars[5] = {V_POS, V_QUAT, V_VEL, V_W, V_WB};
  static const size_t width[5] = {3, 4, 3, 3, 3};
  for (int k = 0; k < 5 && !e; k++) {
    for (int i = 0; i < m->nout; i++) {
      double* b = nc->buf + width[k] * (size_t)i;
      int node = m->out_node[i];
      int st = rd_getNodeState(m, d, node, k == 0 ? b : NULL, k == 1 ? b : NULL, k == 2 ? b : NULL,
                               k == 3 ? b : NULL, k == 4 ? b : NULL);
      if (st) {
        return st;
      }
    }
    e = put_slab(nc, nc->var[vars[k]], width[k]);
  }
  // joint reactions, force then moment
  for (int k = 0; k < R_COUNT && !e && nc->njoint > 0; k++) {
    for (int j = 0; j < nc->njoint; j++) {
      double* b = nc->buf + 3 * (size_t)j;
      int st = rd_getJointReaction(m, d, j, k == R_FORCE ? b : NULL, k == R_MOMENT ? b : NULL);
      if (st) {
        return st;
      }
    }
    size_t start[3] = {nc->record, 0, 0}, count[3] = {1, (size_t)nc->njoint, 3};
    e = nc_put_vara_double(nc->ncid, nc->rvar[k], start, count, nc->buf);
  }
  // beam section forces: a residual-only evaluation in the writer's own scratch
  if (!e && nc->nqp > 0) {
    int g0 = 0;
    for (int b = 0; b < m->nbeam && b < RD_NETCDF_MAXBEAM; b++) {
      const rdModelBeam* mb = &m->beam[b];
      double* res = nc->swork;
      double* work = res + 6 * (size_t)mb->def.nnode;
      if (rd_beamSectionForcesIn(m, d, b, res, work, nc->sx + 3 * g0, nc->sf + 6 * g0) != RD_OK) {
        return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "NetCDF '%s': beam '%s': section forces failed",
                        nc->path, mb->def.name);
      }
      g0 += rd_beamQuadPoints(mb->kernel);
    }
    size_t start[3] = {nc->record, 0, 0}, c3[3] = {1, (size_t)nc->nqp, 3};
    size_t c6[3] = {1, (size_t)nc->nqp, 6};
    e = nc_put_vara_double(nc->ncid, nc->svar[0], start, c3, nc->sx);
    if (!e) {
      e = nc_put_vara_double(nc->ncid, nc->svar[1], start, c6, nc->sf);
    }
  }
  double ke = 0, pe = 0;
  rd_getEnergy(m, d, &ke, &pe);
  double te = ke + pe;
  rdStats stats;
  rd_getStats(d, &stats);
  int newton = stats.last_newton_iterations;
  if (!e) {
    e = nc_put_var1_double(nc->ncid, nc->var[V_KE], r, &ke);
  }
  if (!e) {
    e = nc_put_var1_double(nc->ncid, nc->var[V_PE], r, &pe);
  }
  if (!e) {
    e = nc_put_var1_double(nc->ncid, nc->var[V_TE], r, &te);
  }
  if (!e) {
    e = nc_put_var1_int(nc->ncid, nc->var[V_NEWTON], r, &newton);
  }
  if (e) {
    return nc_fail(nc->ctx, nc->path, e);
  }
  nc->record++;
  return RD_OK;
}


int rd_closeNetcdf(rdNetcdf** ncp, int commit) {
  if (!ncp || !*ncp || (*ncp)->magic != RD_MAGIC_NETCDF) {
    return RD_OK;
  }
  rdNetcdf* nc = *ncp;
  int st = RD_OK;
  int e = nc_close(nc->ncid);
  if (e) {
    st = nc_fail(nc->ctx, nc->path, e);
    commit = 0;
  }
  if (commit && rename(nc->partial, nc->path)) {
    st = RD_ERROR(nc->ctx, RD_ERR_IO, "cannot rename '%s' to '%s'", nc->partial, nc->path);
    commit = 0;
  }
  if (!commit) {
    remove(nc->partial);
  }
  free_nc(nc);
  *ncp = NULL;
  return st;
}
