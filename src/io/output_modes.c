// SPDX-License-Identifier: MIT
// Files of the modes: the table (CSV), the shapes in NetCDF, an animation per mode for ParaView
// (the VTK series of rd_createVtk over one period).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "rodrigues/output_vtk.h"
#include "src/core/atomic_file.h"
#include "src/io/netcdf_lib.h"
#include "src/math/vec3.h"
#include "src/model/data_impl.h"
#include "src/sim/modal_impl.h"

#define TWO_PI 6.283185307179586476925

static const char* const energy_names[5] = {"axial", "shear", "torsion", "bending_y", "bending_z"};
static const char* const mass_names[6] = {"x", "y", "z", "rx", "ry", "rz"};


int rd_writeModesCsv(const rdModes* md, const char* path) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = md->ctx;
  if (!path || !*path) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeModesCsv: no file name");
  }
  char* tmp = NULL;
  FILE* f = rd_atomicOpen(ctx, path, &tmp);
  if (!f) {
    return RD_ERR_IO;
  }
  fputs(
      "mode,frequency_hz,damping_ratio,natural_hz,eigenvalue_real,eigenvalue_imag,"
      "classification,kind_index",
      f);
  for (int k = 0; k < 5; k++) {
    fprintf(f, ",energy_%s", energy_names[k]);
  }
  for (int k = 0; k < 6; k++) {
    fprintf(f, ",mass_fraction_%s", mass_names[k]);
  }
  fputs(",modal_mass\n", f);
  for (int m = 0; m < md->count; m++) {
    const rdModeInfo* i = &md->info[m];
    fprintf(f, "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%s,%d", m + 1, i->frequency_hz, i->damping_ratio,
            i->natural_hz, i->eigenvalue[0], i->eigenvalue[1], rd_modeKindName(i->kind),
            i->kind_index);
    for (int k = 0; k < 5; k++) {
      fprintf(f, ",%.6g", i->energy[k]);
    }
    for (int k = 0; k < 6; k++) {
      fprintf(f, ",%.6g", i->mass_fraction[k]);
    }
    fprintf(f, ",%.10g\n", i->modal_mass);
  }
  int st = rd_atomicCommit(ctx, f, tmp, path, ferror(f));
  rd_free(ctx, tmp);
  return st;
}


// ---------------------------------------------------------------------------------------------
// NetCDF

static int nc_fail(const rdNetcdfLib* nc, rdContext* ctx, const char* path, int err) {
  return RD_ERROR(ctx, RD_ERR_IO, "NetCDF '%s': %s", path, nc->strerror(err));
}


static int put_att(const rdNetcdfLib* nc, int id, int var, const char* name, const char* text) {
  return nc->put_att_text(id, var, name, strlen(text), text);
}


// a variable with its units and long name
static int def_var(const rdNetcdfLib* nc, int id, const char* name, nc_type type, int ndim,
                   const int* dims, const char* units, const char* desc, int* var) {
  int e = nc->def_var(id, name, type, ndim, dims, var);
  if (!e) {
    e = put_att(nc, id, *var, "units", units);
  }
  if (!e) {
    e = put_att(nc, id, *var, "long_name", desc);
  }
  return e;
}


enum { MV_FREQ, MV_DAMP, MV_NAT, MV_EIG, MV_KIND, MV_ENERGY, MV_MASS, MV_POS, MV_QUAT, MV_COUNT };
enum { SV_TR, SV_TI, SV_RR, SV_RI, SV_COUNT };


static int define_modes(const rdNetcdfLib* nc, int id, const rdModes* md, int* var, int* svar) {
  const rdModel* m = md->model;
  int dm, dn, d3, d4, dc, d6, dr, e;
  if ((e = nc->def_dim(id, "mode", (size_t)md->count, &dm)) ||
      (e = nc->def_dim(id, "node", (size_t)m->nnode, &dn)) ||
      (e = nc->def_dim(id, "vec3", 3, &d3)) || (e = nc->def_dim(id, "quat", 4, &d4)) ||
      (e = nc->def_dim(id, "component", 5, &dc)) || (e = nc->def_dim(id, "direction", 6, &d6)) ||
      (e = nc->def_dim(id, "complex", 2, &dr))) {
    return e;
  }
  int t1[1] = {dm}, t2[2] = {dm, dr}, tc[2] = {dm, dc}, t6[2] = {dm, d6};
  int tp[2] = {dn, d3}, tq[2] = {dn, d4}, ts[3] = {dm, dn, d3};
  if ((e = def_var(nc, id, "frequency_hz", NC_DOUBLE, 1, t1, "Hz",
                   "damped frequency |Im lambda|/2pi", &var[MV_FREQ])) ||
      (e = def_var(nc, id, "damping_ratio", NC_DOUBLE, 1, t1, "1", "-Re lambda / |lambda|",
                   &var[MV_DAMP])) ||
      (e = def_var(nc, id, "natural_hz", NC_DOUBLE, 1, t1, "Hz", "undamped frequency |lambda|/2pi",
                   &var[MV_NAT])) ||
      (e = def_var(nc, id, "eigenvalue", NC_DOUBLE, 2, t2, "s-1", "lambda: real, imaginary part",
                   &var[MV_EIG])) ||
      (e = def_var(nc, id, "kind", NC_INT, 1, t1, "1", "classification (global attribute kinds)",
                   &var[MV_KIND])) ||
      (e = def_var(nc, id, "energy_fraction", NC_DOUBLE, 2, tc, "1",
                   "beam strain energy: axial, shear, torsion, bending_y, bending_z",
                   &var[MV_ENERGY])) ||
      (e = def_var(nc, id, "mass_fraction", NC_DOUBLE, 2, t6, "1",
                   "effective mass: x, y, z, rx, ry, rz", &var[MV_MASS])) ||
      (e = def_var(nc, id, "position", NC_DOUBLE, 2, tp, "m",
                   "node position at the operating point", &var[MV_POS])) ||
      (e = def_var(nc, id, "orientation", NC_DOUBLE, 2, tq, "1",
                   "unit quaternion (w,x,y,z), body to global, at the operating point",
                   &var[MV_QUAT]))) {
    return e;
  }
  static const char* const sn[SV_COUNT] = {"shape_translation_real", "shape_translation_imag",
                                           "shape_rotation_real", "shape_rotation_imag"};
  static const char* const sd[SV_COUNT] = {
      "mode shape: translation (frame axes), real part", "imaginary part",
      "mode shape: rotation (body frame), real part", "imaginary part"};
  for (int k = 0; k < SV_COUNT; k++) {
    if ((e = def_var(nc, id, sn[k], NC_DOUBLE, 3, ts, k < 2 ? "1" : "m-1", sd[k], &svar[k]))) {
      return e;
    }
  }
  // names and attributes
  size_t len = 1;
  for (int i = 0; i < m->nnode; i++) {
    len += strlen(m->node_name[i]) + 1;
  }
  char* names = rd_alloc(md->ctx, len);
  if (!names) {
    return NC_ENOMEM;
  }
  names[0] = '\0';
  for (int i = 0; i < m->nnode; i++) {
    strcat(names, i ? "," : "");
    strcat(names, m->node_name[i]);
  }
  e = put_att(nc, id, NC_GLOBAL, "node_names", names);
  rd_free(md->ctx, names);
  char kinds[256] = "";
  for (int k = 0; k < RD_MODE_KIND_COUNT; k++) {
    snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds), "%s%d=%s", k ? "," : "", k,
             rd_modeKindName(k));
  }
  if (!e) {
    e = put_att(nc, id, NC_GLOBAL, "kinds", kinds);
  }
  if (!e) {
    e = put_att(nc, id, NC_GLOBAL, "title", "rodrigues modes; see docs/modal.md");
  }
  double op[4] = {md->t, md->spin_rate, md->stats.length, 0};
  if (!e) {
    e = nc->put_att_double(id, NC_GLOBAL, "time", NC_DOUBLE, 1, op);
  }
  if (!e) {
    e = nc->put_att_double(id, NC_GLOBAL, "spin_rate", NC_DOUBLE, 1, op + 1);
  }
  if (!e) {
    e = nc->put_att_double(id, NC_GLOBAL, "spin_axis", NC_DOUBLE, 3, md->axis);
  }
  return e ? e : nc->enddef(id);
}


static int write_modes(const rdNetcdfLib* nc, int id, const rdModes* md, const int* var,
                       const int* svar) {
  rdContext* ctx = md->ctx;
  int nm = md->count, nn = md->nnode, e = 0;
  size_t big = (size_t)nm * (size_t)nn * 3 + 6 * (size_t)nm + 4 * (size_t)nn + 1;
  double* buf = rd_alloc(ctx, sizeof(double) * big);
  int* kind = rd_alloc(ctx, sizeof(int) * ((size_t)nm + 1));
  if (!buf || !kind) {
    rd_free(ctx, buf);
    rd_free(ctx, kind);
    return NC_ENOMEM;
  }
  for (int v = 0; v < 3 && !e; v++) {
    for (int k = 0; k < nm; k++) {
      const rdModeInfo* i = &md->info[k];
      buf[k] = v == 0 ? i->frequency_hz : v == 1 ? i->damping_ratio : i->natural_hz;
    }
    e = nc->put_var_double(id, var[MV_FREQ + v], buf);
  }
  for (int k = 0; k < nm; k++) {
    buf[2 * k] = md->info[k].eigenvalue[0];
    buf[2 * k + 1] = md->info[k].eigenvalue[1];
    kind[k] = md->info[k].kind;
  }
  if (!e) {
    e = nc->put_var_double(id, var[MV_EIG], buf);
  }
  if (!e) {
    e = nc->put_var_int(id, var[MV_KIND], kind);
  }
  for (int k = 0; k < nm; k++) {
    memcpy(buf + 5 * k, md->info[k].energy, 5 * sizeof(double));
  }
  if (!e) {
    e = nc->put_var_double(id, var[MV_ENERGY], buf);
  }
  for (int k = 0; k < nm; k++) {
    memcpy(buf + 6 * k, md->info[k].mass_fraction, 6 * sizeof(double));
  }
  if (!e) {
    e = nc->put_var_double(id, var[MV_MASS], buf);
  }
  for (int i = 0; i < nn; i++) {
    v3_copy(buf + 3 * i, md->q + 7 * i);
  }
  if (!e) {
    e = nc->put_var_double(id, var[MV_POS], buf);
  }
  for (int i = 0; i < nn; i++) {
    memcpy(buf + 4 * i, md->q + 7 * i + 3, 4 * sizeof(double));
  }
  if (!e) {
    e = nc->put_var_double(id, var[MV_QUAT], buf);
  }
  for (int v = 0; v < SV_COUNT && !e; v++) {
    const double* src = v % 2 ? md->im : md->re;
    int c0 = v < 2 ? 0 : 3;
    for (size_t k = 0; k < (size_t)nm * (size_t)nn; k++) {
      v3_copy(buf + 3 * k, src + 6 * k + c0);
    }
    e = nc->put_var_double(id, svar[v], buf);
  }
  rd_free(ctx, buf);
  rd_free(ctx, kind);
  return e;
}


int rd_writeModesNetcdf(const rdModes* md, const char* path) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = md->ctx;
  if (!path || !*path) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeModesNetcdf: no file name");
  }
  const rdNetcdfLib* nc = rd_netcdfLib(ctx);
  if (!nc) {
    return RD_ERR_IO;
  }
  size_t len = strlen(path) + 9;
  char* partial = rd_alloc(ctx, len);
  if (!partial) {
    return RD_ERR_NOMEM;
  }
  snprintf(partial, len, "%s.partial", path);
  int id, var[MV_COUNT], svar[SV_COUNT];
  int e = nc->create(partial, NC_CLOBBER | NC_NETCDF4, &id);
  if (!e) {
    e = define_modes(nc, id, md, var, svar);
    if (!e) {
      e = write_modes(nc, id, md, var, svar);
    }
    int c = nc->close(id);
    e = e ? e : c;
  }
  int st = RD_OK;
  if (e) {
    st = nc_fail(nc, ctx, path, e);
  } else if (rename(partial, path) != 0) {
    st = RD_ERROR(ctx, RD_ERR_IO, "cannot rename '%s' to '%s'", partial, path);
  }
  if (st != RD_OK) {
    remove(partial);
  }
  rd_free(ctx, partial);
  return st;
}


// ---------------------------------------------------------------------------------------------
// VTK animation

// the state of frame `phase` (radians) into the data: q0 o exp(a Re(y e^{i phase})) and the
// velocities a Re(lambda y e^{i phase})
static void mode_state(const rdModes* md, int k, double a, double phase, rdData* d) {
  const rdModel* m = md->model;
  size_t ns = 6 * (size_t)md->nnode;
  const double* re = md->re + (size_t)k * ns;
  const double* im = md->im + (size_t)k * ns;
  double c = cos(phase), s = sin(phase);
  double lr = md->info[k].eigenvalue[0], li = md->info[k].eigenvalue[1];
  for (int i = 0; i < md->nnode; i++) {
    double u[6], w[6];
    for (int j = 0; j < 6; j++) {
      // y e^{i phase} = (re + i im)(c + i s)
      double yr = re[6 * i + j] * c - im[6 * i + j] * s, yi = re[6 * i + j] * s + im[6 * i + j] * c;
      u[j] = a * yr;
      w[j] = a * (lr * yr - li * yi);
    }
    const double* q0 = md->q + 7 * i;
    double* q = d->s.q + 7 * i;
    v3_add(q, q0, u);
    if (m->node_kind[i] == RD_NODE_RIGID) {
      double e[4], r4[4];
      rdu_rotvecToQuat(e, u + 3);
      rdu_quatMul(r4, q0 + 3, e);
      rdu_quatNormalize(q + 3, r4);
    } else {
      memcpy(q + 3, q0 + 3, 4 * sizeof(double));
    }
    memcpy(d->s.v + 6 * i, w, 6 * sizeof(double));
    memset(d->s.vd + 6 * i, 0, 6 * sizeof(double));
  }
}


int rd_writeModeVtk(const rdModes* md, int k, const char* dir, int frames, double amplitude) {
  if (!rd_modesValid(md)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = md->ctx;
  if (k < 0 || k >= md->count || frames < 0 || !(amplitude >= 0) || !dir) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeModeVtk: mode %d of %d, %d frames, amplitude %g", k,
                    md->count, frames, amplitude);
  }
  frames = frames ? frames : 24;
  double a = amplitude > 0 ? amplitude : 0.1 * md->stats.length;
  rdData* d = NULL;
  int st = rd_createData(md->model, &d);
  rdVtk* vtk = NULL;
  if (st == RD_OK) {
    st = rd_createVtk(md->model, dir, &vtk);
  }
  for (int j = 0; st == RD_OK && j < frames; j++) {
    d->s.t = (double)j / frames;
    mode_state(md, k, a, TWO_PI * j / frames, d);
    st = rd_writeVtk(vtk, md->model, d);
  }
  int cl = rd_closeVtk(&vtk, st == RD_OK);
  rd_destroyData(&d);
  return st != RD_OK ? st : cl;
}
