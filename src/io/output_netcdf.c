// SPDX-License-Identifier: MIT
// NetCDF-4 time series of node states and energies (Unidata netCDF-C, loaded at the first file:
// netcdf_lib.h).
#include <stdio.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/output_netcdf.h"
#include "rodrigues/query.h"
#include "rodrigues/simulate.h"
#include "src/core/core.h"
#include "src/io/netcdf_lib.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"
#include "src/sim/query_beam.h"

// beams whose section forces go to the file (more are left out, see docs/cli.md)
#define RD_NETCDF_MAXBEAM 1024
// doubles per chunk of a time-dependent variable (64 KiB): records per chunk follow from it
#define RD_NETCDF_CHUNK 8192

// time-dependent numeric variables
enum {
  V_TIME,
  V_POS,
  V_QUAT,
  V_VEL,
  V_W,
  V_WB,
  V_KE,
  V_PE,
  V_TE,
  V_MOM,
  V_AMOM,
  V_NEWTON,
  V_RFORCE,   // joints
  V_RMOMENT,  // joints
  V_SPOS,     // beam quadrature points
  V_SFORCE,   // beam quadrature points
  V_SMOMENT,  // beam quadrature points
  V_LFORCE,   // output.section_loads
  V_LMOMENT,  // output.section_loads
  V_COUNT
};

// the dimensions
enum { D_TIME, D_NODE, D_VEC3, D_QUAT, D_JOINT, D_QPOINT, D_SECTION, D_COUNT };

struct rdNetcdf_ {
  uint32_t magic;
  const rdModel* model;  // counts this writer among its children (rd_destroyModel)
  rdContext* ctx;
  const rdNetcdfLib* lib;  // netCDF-C (netcdf_lib.h)
  int ncid;
  int var[V_COUNT];  // -1: not in this file
  int njoint;
  size_t record;
  int nout;
  char* path;     // final name
  char* partial;  // name while writing
  double* buf;    // max(nout x 4, njoint x 3, nsection x 6) staging
  // beam section forces at every beam's quadrature points (when the model has beams)
  int nqp;        // quadrature points of all beams
  double* sx;     // nqp x 3
  double* sf;     // nqp x 6
  double* sm;     // nqp x 3: the moments, split off sf
  double* swork;  // residual (6 n) + kernel workspace of the largest beam
  int nsection;   // output.section_loads
};

#define RD_MAGIC_NETCDF 0x52444e43u

static int nc_fail(const rdNetcdf* nc, const char* path, int err) {
  return RD_ERROR(nc->ctx, RD_ERR_IO, "NetCDF '%s': %s", path, nc->lib->strerror(err));
}


static void free_nc(rdNetcdf* nc) {
  rdContext* ctx = nc->ctx;
  rd_free(ctx, nc->path);
  rd_free(ctx, nc->partial);
  rd_free(ctx, nc->buf);
  rd_free(ctx, nc->sx);
  rd_free(ctx, nc->sf);
  rd_free(ctx, nc->sm);
  rd_free(ctx, nc->swork);
  if (nc->magic == RD_MAGIC_NETCDF) {
    rd_release(&((rdModel*)nc->model)->children);
  }
  nc->magic = RD_MAGIC_DEAD;
  rd_bury(ctx, RD_KIND_WRITER, nc);
}


// a text attribute
static int put_text(const rdNetcdfLib* lib, int id, int var, const char* name, const char* text) {
  return lib->put_att_text(id, var, name, strlen(text), text);
}


// a string coordinate variable NAME(NAME) for the labels of dimension NAME (node and joint
// names, components), written by put_all_labels
static int def_labels(const rdNetcdfLib* lib, int id, int dim, const char* name,
                      const char* long_name, int* varid) {
  int e = lib->def_var(id, name, NC_STRING, 1, &dim, varid);
  return e ? e : put_text(lib, id, *varid, "long_name", long_name);
}


// define a time-dependent numeric variable: chunks of about RD_NETCDF_CHUNK values, deflated
// at `level` with the shuffle filter (level 0: stored plain)
static int def_series(const rdNetcdfLib* lib, int id, const char* name, nc_type type, int ndim,
                      const int* dims, const size_t* len, const char* units, const char* long_name,
                      int level, int* varid) {
  int e = lib->def_var(id, name, type, ndim, dims, varid);
  size_t chunk[3] = {1, 1, 1}, per = 1;
  for (int k = 1; k < ndim; k++) {
    chunk[k] = len[k];
    per *= len[k];
  }
  chunk[0] = per < RD_NETCDF_CHUNK ? RD_NETCDF_CHUNK / per : 1;
  if (!e) {
    e = lib->def_var_chunking(id, *varid, NC_CHUNKED, chunk);
  }
  if (!e && level > 0) {
    e = lib->def_var_deflate(id, *varid, 1, 1, level);
  }
  if (!e) {
    e = put_text(lib, id, *varid, "units", units);
  }
  if (!e) {
    e = put_text(lib, id, *varid, "long_name", long_name);
  }
  return e;
}


// define dimensions, coordinate variables, variables and attributes (CF-1.8, docs/cli.md)
static int define(rdNetcdf* nc, const rdModel* m, int* label_var) {
  const rdNetcdfLib* lib = nc->lib;
  int id = nc->ncid, e = 0;
  int dim[D_COUNT];
  size_t len[D_COUNT] = {
      0, (size_t)m->nout, 3, 4, (size_t)m->njoint, (size_t)nc->nqp, (size_t)nc->nsection};
  static const char* const dname[D_COUNT] = {"time",  "node",   "vec3",   "quat",
                                             "joint", "qpoint", "section"};
  for (int k = 0; k < D_COUNT && !e; k++) {
    dim[k] = -1;
    if (k == D_TIME) {
      e = lib->def_dim(id, dname[k], NC_UNLIMITED, &dim[k]);
    } else if (len[k] > 0) {
      e = lib->def_dim(id, dname[k], len[k], &dim[k]);
    }
  }
  // labels of the dimensions: node and joint names, components, sections "BEAM@S"
  static const char* const llong[D_COUNT] = {
      NULL,
      "node name",
      "vector component",
      "quaternion component (w, x, y, z)",
      "joint name",
      NULL,
      "beam section of output.section_loads (BEAM@S: beam name, element fraction)"};
  for (int k = 1; k < D_COUNT && !e; k++) {
    label_var[k] = -1;
    if (dim[k] >= 0 && llong[k]) {
      e = def_labels(lib, id, dim[k], dname[k], llong[k], &label_var[k]);
    }
  }
  // time: a duration in seconds; the run has no calendar date, so no reference time (CF 4.4
  // asks one of time axes identified by units "since", axis T or standard_name time: none here)
  int level = m->opt.output_netcdf_deflate;
  if (!e) {
    e = lib->def_var(id, "time", NC_DOUBLE, 1, &dim[D_TIME], &nc->var[V_TIME]);
  }
  if (!e) {
    size_t chunk = RD_NETCDF_CHUNK;
    e = lib->def_var_chunking(id, nc->var[V_TIME], NC_CHUNKED, &chunk);
  }
  if (!e) {
    e = put_text(lib, id, nc->var[V_TIME], "units", "s");
  }
  if (!e) {
    e = put_text(lib, id, nc->var[V_TIME], "long_name", "simulated time");
  }
  struct {
    int v, d1, d2;  // variable, its dimensions after time (-1: none)
    const char* name;
    const char* units;
    const char* desc;
  } vars[] = {
      {V_POS, D_NODE, D_VEC3, "position", "m", "node position, global frame"},
      {V_QUAT, D_NODE, D_QUAT, "orientation", "1", "unit quaternion (w,x,y,z), body to global"},
      {V_VEL, D_NODE, D_VEC3, "velocity", "m s-1", "node velocity, global frame"},
      {V_W, D_NODE, D_VEC3, "angular_velocity", "rad s-1", "angular velocity, global frame"},
      {V_WB, D_NODE, D_VEC3, "angular_velocity_body", "rad s-1", "angular velocity, body frame"},
      {V_KE, -1, -1, "kinetic_energy", "J", "kinetic energy"},
      {V_PE, -1, -1, "potential_energy", "J", "potential energy"},
      {V_TE, -1, -1, "total_energy", "J", "kinetic + potential energy"},
      {V_MOM, D_VEC3, -1, "momentum", "kg m s-1", "total linear momentum, global frame"},
      {V_AMOM, D_VEC3, -1, "angular_momentum", "kg m2 s-1",
       "total angular momentum about the global origin, global frame"},
      {V_NEWTON, -1, -1, "newton_iterations", "1", "Newton iterations of the last step"},
      {V_RFORCE, D_JOINT, D_VEC3, "reaction_force", "N",
       "joint reaction force on its first node, global frame"},
      {V_RMOMENT, D_JOINT, D_VEC3, "reaction_moment", "N m",
       "joint reaction moment about its first node, global frame"},
      {V_SPOS, D_QPOINT, D_VEC3, "beam_section_position", "m",
       "beam quadrature point position, global frame"},
      {V_SFORCE, D_QPOINT, D_VEC3, "beam_section_force", "N",
       "beam section force at the quadrature points, section frame"},
      {V_SMOMENT, D_QPOINT, D_VEC3, "beam_section_moment", "N m",
       "beam section moment at the quadrature points, section frame"},
      {V_LFORCE, D_SECTION, D_VEC3, "section_force", "N",
       "beam section force at the sections of output.section_loads, section frame"},
      {V_LMOMENT, D_SECTION, D_VEC3, "section_moment", "N m",
       "beam section moment at the sections of output.section_loads, section frame"},
  };
  for (size_t k = 0; k < sizeof(vars) / sizeof(vars[0]) && !e; k++) {
    nc->var[vars[k].v] = -1;
    int d[3] = {dim[D_TIME], vars[k].d1 >= 0 ? dim[vars[k].d1] : -1,
                vars[k].d2 >= 0 ? dim[vars[k].d2] : -1};
    if ((vars[k].d1 >= 0 && d[1] < 0) || (vars[k].d2 >= 0 && d[2] < 0)) {
      continue;  // no joints, beams or sections: no variable
    }
    size_t l[3] = {0, vars[k].d1 >= 0 ? len[vars[k].d1] : 0, vars[k].d2 >= 0 ? len[vars[k].d2] : 0};
    int ndim = 1 + (vars[k].d1 >= 0) + (vars[k].d2 >= 0);
    e = def_series(lib, id, vars[k].name, vars[k].v == V_NEWTON ? NC_INT : NC_DOUBLE, ndim, d, l,
                   vars[k].units, vars[k].desc, level, &nc->var[vars[k].v]);
  }
  if (!e && nc->nqp > 0) {
    // beam b owns quadrature points beam_qpoint_offset[b] .. beam_qpoint_offset[b+1]-1
    int off[RD_NETCDF_MAXBEAM + 1];
    int nb = m->nbeam < RD_NETCDF_MAXBEAM ? m->nbeam : RD_NETCDF_MAXBEAM;
    off[0] = 0;
    for (int b = 0; b < nb; b++) {
      off[b + 1] = off[b] + rd_beamQuadPoints(m->beam[b].kernel);
    }
    e = lib->put_att_int(id, NC_GLOBAL, "beam_qpoint_offset", NC_INT, (size_t)nb + 1, off);
  }
  char source[64];
  snprintf(source, sizeof(source), "rodrigues %s", rd_version());
  if (!e) {
    e = put_text(lib, id, NC_GLOBAL, "Conventions", "CF-1.8");
  }
  if (!e) {
    e = put_text(lib, id, NC_GLOBAL, "title", "rodrigues time series");
  }
  if (!e) {
    e = put_text(lib, id, NC_GLOBAL, "source", source);
  }
  if (!e) {
    e = put_text(lib, id, NC_GLOBAL, "comment",
                 "the rows of history.csv and more; variables and units: docs/cli.md of rodrigues");
  }
  return e ? e : lib->enddef(id);
}


// write the labels of the dimensions (string coordinate variables), after nc_enddef
static int put_all_labels(rdNetcdf* nc, const rdModel* m, const int* label_var) {
  const rdNetcdfLib* lib = nc->lib;
  int id = nc->ncid, e = 0;
  static const char* const xyz[3] = {"x", "y", "z"};
  static const char* const wxyz[4] = {"w", "x", "y", "z"};
  if (label_var[D_VEC3] >= 0) {
    e = lib->put_var_string(id, label_var[D_VEC3], (const char**)xyz);
  }
  if (!e && label_var[D_QUAT] >= 0) {
    e = lib->put_var_string(id, label_var[D_QUAT], (const char**)wxyz);
  }
  for (int k = 0; k < m->nout && !e; k++) {
    size_t at = (size_t)k;
    const char* name = m->node_name[m->out_node[k]];
    e = lib->put_var1_string(id, label_var[D_NODE], &at, &name);
  }
  for (int j = 0; j < m->njoint && !e; j++) {
    size_t at = (size_t)j;
    const char* name = m->joint[j].def.name;
    e = lib->put_var1_string(id, label_var[D_JOINT], &at, &name);
  }
  for (int k = 0; k < nc->nsection && !e; k++) {
    char label[512];
    snprintf(label, sizeof(label), "%s@%g", m->beam[m->out_section_beam[k]].def.name,
             m->out_section_s[k]);
    size_t at = (size_t)k;
    const char* p = label;
    e = lib->put_var1_string(id, label_var[D_SECTION], &at, &p);
  }
  return e;
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
  const rdNetcdfLib* lib = rd_netcdfLib(m->ctx);
  if (!lib) {
    return RD_ERR_IO;
  }
  rdNetcdf* nc = rd_calloc(m->ctx, 1, sizeof(rdNetcdf));
  if (!nc) {
    return RD_ERR_NOMEM;
  }
  nc->magic = RD_MAGIC_NETCDF;
  nc->model = m;
  rd_adopt(&((rdModel*)m)->children);
  nc->ctx = m->ctx;
  nc->lib = lib;
  nc->nout = m->nout;
  nc->njoint = m->njoint;
  nc->ncid = -1;
  size_t len = strlen(path);
  nc->path = rd_strdup(m->ctx, path);
  nc->partial = rd_alloc(m->ctx, len + 9);
  nc->nsection = m->nout_section;
  size_t nbuf = 4 * (size_t)m->nout;
  nbuf = 3 * (size_t)m->njoint > nbuf ? 3 * (size_t)m->njoint : nbuf;
  nbuf = 6 * (size_t)m->nout_section > nbuf ? 6 * (size_t)m->nout_section : nbuf;
  nc->buf = rd_calloc(m->ctx, nbuf + 1, sizeof(double));
  size_t swork = rd_beamSectionWork(m, RD_NETCDF_MAXBEAM, NULL, &nc->nqp);
  if (m->nout_section > 0) {
    size_t all = rd_beamSectionWork(m, m->nbeam, NULL, NULL);
    swork = all > swork ? all : swork;
  }
  if (nc->nqp > 0) {
    nc->sx = rd_calloc(m->ctx, 3 * (size_t)nc->nqp, sizeof(double));
    nc->sf = rd_calloc(m->ctx, 6 * (size_t)nc->nqp, sizeof(double));
    nc->sm = rd_calloc(m->ctx, 3 * (size_t)nc->nqp, sizeof(double));
  }
  if (nc->nqp > 0 || nc->nsection > 0) {
    nc->swork = rd_calloc(m->ctx, swork, sizeof(double));
  }
  if (!nc->path || !nc->partial || !nc->buf || (nc->nqp > 0 && (!nc->sx || !nc->sf || !nc->sm)) ||
      ((nc->nqp > 0 || nc->nsection > 0) && !nc->swork)) {
    free_nc(nc);
    return RD_ERR_NOMEM;
  }
  snprintf(nc->partial, len + 9, "%s.partial", path);
  int e = lib->create(nc->partial, NC_CLOBBER | NC_NETCDF4, &nc->ncid);
  if (e) {
    int st = nc_fail(nc, path, e);
    free_nc(nc);
    return st;
  }
  int label_var[D_COUNT];
  e = define(nc, m, label_var);
  if (!e) {
    e = put_all_labels(nc, m, label_var);
  }
  if (e) {
    int st = nc_fail(nc, path, e);
    lib->close(nc->ncid);
    remove(nc->partial);
    free_nc(nc);
    return st;
  }
  *out = nc;
  return RD_OK;
}


// write a (time, n, width) slab of variable v for the current record from `from`
static int put_slab(rdNetcdf* nc, int v, size_t n, size_t width, const double* from) {
  size_t start[3] = {nc->record, 0, 0}, count[3] = {1, n, width};
  return nc->lib->put_vara_double(nc->ncid, nc->var[v], start, count, from);
}


// beam section forces at the quadrature points and at the sections of output.section_loads:
// residual-only evaluations in the writer's own scratch
static int put_sections(rdNetcdf* nc, const rdModel* m, const rdData* d) {
  int e = 0, g0 = 0;
  for (int b = 0; b < m->nbeam && b < RD_NETCDF_MAXBEAM && nc->nqp > 0; b++) {
    const rdModelBeam* mb = &m->beam[b];
    double* res = nc->swork;
    double* work = res + 6 * (size_t)mb->def.nnode;
    if (rd_beamSectionForcesIn(m, d, b, res, work, nc->sx + 3 * g0, nc->sf + 6 * g0) != RD_OK) {
      return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "NetCDF '%s': beam '%s': section forces failed",
                      nc->path, mb->def.name);
    }
    g0 += rd_beamQuadPoints(mb->kernel);
  }
  if (nc->nqp > 0) {
    // N then M per point: the moments apart, the forces packed in place
    for (int g = 0; g < nc->nqp; g++) {
      memcpy(nc->sm + 3 * g, nc->sf + 6 * g + 3, 3 * sizeof(double));
      memmove(nc->sf + 3 * g, nc->sf + 6 * g, 3 * sizeof(double));
    }
    size_t n = (size_t)nc->nqp;
    e = put_slab(nc, V_SPOS, n, 3, nc->sx);
    e = e ? e : put_slab(nc, V_SFORCE, n, 3, nc->sf);
    e = e ? e : put_slab(nc, V_SMOMENT, n, 3, nc->sm);
  }
  for (int k = 0; k < nc->nsection && !e; k++) {
    int b = m->out_section_beam[k];
    double* res = nc->swork;
    double F[6];
    if (rd_beamSectionLoadIn(m, d, b, m->out_section_s[k], res,
                             res + 6 * (size_t)m->beam[b].def.nnode, F) != RD_OK) {
      return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "NetCDF '%s': beam '%s': section loads failed",
                      nc->path, m->beam[b].def.name);
    }
    memcpy(nc->buf + 3 * k, F, 3 * sizeof(double));
    memcpy(nc->buf + 3 * (nc->nsection + k), F + 3, 3 * sizeof(double));
  }
  if (!e && nc->nsection > 0) {
    size_t n = (size_t)nc->nsection;
    e = put_slab(nc, V_LFORCE, n, 3, nc->buf);
    e = e ? e : put_slab(nc, V_LMOMENT, n, 3, nc->buf + 3 * n);
  }
  return e ? nc_fail(nc, nc->path, e) : RD_OK;
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
  const rdNetcdfLib* lib = nc->lib;
  int e = lib->put_var1_double(nc->ncid, nc->var[V_TIME], r, &t);
  // one pass per node variable, staged in buf (nout x width)
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
    e = put_slab(nc, vars[k], (size_t)m->nout, width[k], nc->buf);
  }
  // joint reactions, force then moment
  for (int k = 0; k < 2 && !e && nc->njoint > 0; k++) {
    for (int j = 0; j < nc->njoint; j++) {
      double* b = nc->buf + 3 * (size_t)j;
      int st = rd_getJointReaction(m, d, j, k == 0 ? b : NULL, k == 1 ? b : NULL);
      if (st) {
        return st;
      }
    }
    e = put_slab(nc, k == 0 ? V_RFORCE : V_RMOMENT, (size_t)nc->njoint, 3, nc->buf);
  }
  if (e) {
    return nc_fail(nc, nc->path, e);
  }
  int st = put_sections(nc, m, d);
  if (st != RD_OK) {
    return st;
  }
  // energies, momenta (as in history.csv), Newton iterations
  double ke = 0, pe = 0, p[3] = {0, 0, 0}, L[3] = {0, 0, 0};
  rd_getEnergy(m, d, &ke, &pe);
  rd_getMomentum(m, d, p, L);
  double te = ke + pe;
  rdStats stats;
  rd_getStats(d, &stats);
  int newton = stats.last_newton_iterations;
  e = lib->put_var1_double(nc->ncid, nc->var[V_KE], r, &ke);
  e = e ? e : lib->put_var1_double(nc->ncid, nc->var[V_PE], r, &pe);
  e = e ? e : lib->put_var1_double(nc->ncid, nc->var[V_TE], r, &te);
  size_t start[2] = {nc->record, 0}, count[2] = {1, 3};
  e = e ? e : lib->put_vara_double(nc->ncid, nc->var[V_MOM], start, count, p);
  e = e ? e : lib->put_vara_double(nc->ncid, nc->var[V_AMOM], start, count, L);
  e = e ? e : lib->put_var1_int(nc->ncid, nc->var[V_NEWTON], r, &newton);
  if (e) {
    return nc_fail(nc, nc->path, e);
  }
  nc->record++;
  return RD_OK;
}


int rd_closeNetcdf(rdNetcdf** ncp, int commit) {
  if (!ncp || !*ncp) {
    return RD_OK;
  }
  if ((*ncp)->magic != RD_MAGIC_NETCDF) {
    return RD_ERR_HANDLE;
  }
  rdNetcdf* nc = *ncp;
  int st = RD_OK;
  int e = nc->lib->close(nc->ncid);
  if (e) {
    st = nc_fail(nc, nc->path, e);
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
