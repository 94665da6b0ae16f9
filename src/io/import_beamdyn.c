// SPDX-License-Identifier: MIT
// BeamDyn importer: reads an OpenFAST BeamDyn v5 driver, primary and blade file (through
// src/beamdyn.h) into a spec, or writes the equivalent YAML deck (docs/import.md).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/import.h"
#include "rodrigues/spec.h"
#include "src/core/core.h"
#include "src/io/beamdyn.h"
#include "src/math/vec3.h"

// everything read from the three files
typedef struct bdInput_ {
  const char* driver;
  rdBdDriver drv;
  rdBdPrimary prim;
  rdBdBlade blade;
} bdInput;

// the model derived from it, in our conventions
typedef struct bdModel_ {
  rdBdNodes nd;
  double v[RD_BEAM_MAX_NODES][3];
  double w[3];  // root angular velocity, global (0: clamped)
  int rotating;
} bdModel;


static void input_free(rdContext* ctx, bdInput* in) {
  rd_bdFreePrimary(ctx, &in->prim);
  rd_bdFreeBlade(ctx, &in->blade);
}


static int read_input(rdContext* ctx, const char* driver, bdInput* in) {
  memset(in, 0, sizeof(*in));
  in->driver = driver;
  int st = rd_bdReadDriver(ctx, driver, &in->drv);
  if (!st)
    st = rd_bdReadPrimary(ctx, in->drv.primary, NULL, &in->prim);
  if (!st && in->prim.qsi_line && in->drv.dynamic) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: QuasiStaticInit = True is not supported",
                    in->drv.primary, in->prim.qsi_line);
  }
  if (!st)
    st = rd_bdReadBlade(ctx, in->prim.blade, NULL, &in->blade);
  return st;
}


static int build_model(rdContext* ctx, const bdInput* in, bdModel* m) {
  memset(m, 0, sizeof(*m));
  // blade axes in the global frame: R_b = GlbDCM^T
  double Rb[9];
  for (int i = 0; i < 9; i++)
    Rb[i] = in->drv.dcm[3 * (i % 3) + i / 3];
  int st = rd_bdNodes(ctx, &in->prim, in->drv.pos, Rb, &m->nd);
  // rotating root: the whole blade spins rigidly about the origin at t = 0
  const double* rv = in->drv.rootvel;
  m->rotating = rv[0] != 0 || rv[1] != 0 || rv[2] != 0;
  for (int i = 0; i < 3; i++)
    m->w[i] = rv[i];
  for (int k = 0; k < m->nd.n; k++) {
    const double* w = m->w;
    const double* x = m->nd.x[k];
    v3_cross(m->v[k], w, x);
  }
  return st;
}


// prescribed root motion of a rigid rotation at constant w about the origin: rotation vector
// w t, displacement (exp(w t) - I) x0 = sin(|w|t) n x x0 + (1 - cos(|w|t)) n x (n x x0)
static void root_motion(const bdModel* m, char expr[6][160]) {
  double W = v3_norm(m->w);
  double nv[3] = {m->w[0] / W, m->w[1] / W, m->w[2] / W};
  double a[3], b[3];
  v3_cross(a, nv, m->nd.x[0]);
  v3_cross(b, nv, a);
  for (int i = 0; i < 3; i++) {
    snprintf(expr[i], 160, "%.17g*sin(%.17g*t) + %.17g*(1 - cos(%.17g*t))", a[i], W, b[i], W);
    snprintf(expr[3 + i], 160, "%.17g*t", m->w[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// spec

static int add_spec(rdSpec* spec, const bdInput* in, const bdModel* m) {
  int nodes[RD_BEAM_MAX_NODES], st = RD_OK;
  char name[64];
  for (int k = 0; k < m->nd.n; k++) {
    rdNodeDef nd = rd_defaultNodeDef();
    snprintf(name, sizeof(name), "blade_%d", k);
    nd.name = name;
    memcpy(nd.position, m->nd.x[k], sizeof(nd.position));
    memcpy(nd.orientation, m->nd.q[k], sizeof(nd.orientation));
    memcpy(nd.velocity, m->v[k], sizeof(nd.velocity));
    memcpy(nd.angular_velocity, m->w, sizeof(nd.angular_velocity));
    nodes[k] = rds_addNode(spec, &nd);
    if (nodes[k] < 0) {
      return nodes[k];
    }
  }
  rdBeamDef b = rd_defaultBeamDef();
  b.name = "blade";
  b.nnode = m->nd.n;
  b.nodes = nodes;
  b.nstation = in->blade.nst;
  b.station = in->blade.eta;
  b.stiffness = in->blade.K;
  b.mass = in->blade.M;
  memcpy(b.damping, in->blade.mu, sizeof(b.damping));
  b.quadrature = in->prim.quadrature == 2 ? RD_BEAM_QUADRATURE_STATIONS : RD_BEAM_QUADRATURE_FULL;
  b.rotation_field = RD_BEAM_ROTATION_DISPLACEMENT;            // BeamDyn's reference frames
  b.virtual_rotation = RD_BEAM_VIRTUAL_ROTATION_INTERPOLATED;  // and its weak form
  b.extension_twist = 1;                                       // and its elastic forces
  for (int i = 0; i < 3; i++) {
    b.force[i] = in->drv.distr[i];
    b.moment[i] = in->drv.distr[3 + i];
  }
  int bi = rds_addBeam(spec, &b);
  if (bi < 0) {
    return bi;
  }
  st = rds_setOrigin(spec, RD_OBJ_BEAM, bi, in->prim.blade);
  rdJointDef j = rd_defaultJointDef();
  j.name = "root";
  j.node[0] = nodes[0];
  if (!m->rotating) {
    j.type = RD_JOINT_FIXED;
  } else {
    static const char* const fn[6] = {"root_x",  "root_y",  "root_z",
                                      "root_rx", "root_ry", "root_rz"};
    char expr[6][160];
    root_motion(m, expr);
    j.type = RD_JOINT_PRESCRIBED;
    for (int i = 0; i < 6 && !st; i++) {
      rdTimeFnDef t = rd_defaultTimeFnDef();
      t.name = fn[i];
      t.type = RD_TIMEFN_EXPRESSION;
      t.expression = expr[i];
      j.motion_fn[i] = rds_addTimeFn(spec, &t);
      st = j.motion_fn[i] < 0 ? j.motion_fn[i] : RD_OK;
    }
  }
  if (!st)
    st = rds_addJoint(spec, &j) < 0 ? RD_ERR_ARG : RD_OK;
  if (!st && (in->drv.tip[0] || in->drv.tip[1] || in->drv.tip[2] || in->drv.tip[3] ||
              in->drv.tip[4] || in->drv.tip[5])) {
    for (int kind = 0; kind < 2 && !st; kind++) {
      rdLoadDef l = rd_defaultLoadDef();
      l.name = kind ? "tip_moment" : "tip_force";
      l.node = nodes[m->nd.n - 1];
      l.kind = kind ? RD_LOAD_MOMENT : RD_LOAD_FORCE;
      memcpy(l.value, in->drv.tip + 3 * kind, sizeof(l.value));
      st = rds_addLoad(spec, &l) < 0 ? RD_ERR_ARG : RD_OK;
    }
  }
  if (!st)
    st = rds_setGravity(spec, in->drv.g);
  if (!st)
    st = rds_setOption(spec, "solver.method", in->drv.dynamic ? "generalized_alpha" : "static");
  if (!st)
    st = rds_setOptionReal(spec, "solver.rho_inf", in->prim.rhoinf);
  if (!st)
    st = rds_setOptionReal(spec, "solver.start_time", in->drv.t0);
  if (!st)
    st = rds_setOptionReal(spec, "solver.time_step",
                           in->prim.dtbeam > 0 ? in->prim.dtbeam : in->drv.dt);
  if (!st)
    st =
        rds_setOptionReal(spec, "solver.final_time", in->drv.dynamic ? in->drv.tf : in->drv.t0 + 1);
  if (!st)
    st = rds_addOutputNode(spec, nodes[0]);
  if (!st)
    st = rds_addOutputNode(spec, nodes[m->nd.n - 1]);
  return st;
}


int rd_importBeamDyn(rdContext* ctx, const char* driver, rdSpec** spec) {
  if (spec) {
    *spec = NULL;
  }
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!driver || !spec) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_importBeamDyn: NULL argument");
  }
  bdInput in;
  bdModel m;
  int st = read_input(ctx, driver, &in);
  if (!st)
    st = build_model(ctx, &in, &m);
  if (!st)
    st = rd_createSpec(ctx, spec);
  if (!st)
    st = add_spec(*spec, &in, &m);
  if (st && spec && *spec) {
    rd_destroySpec(spec);
  }
  input_free(ctx, &in);
  return st;
}

// ---------------------------------------------------------------------------------------------
// deck

// shortest text that reads back as the same double
static const char* num(char* buf, double v) {
  if (v == 0) {
    return "0";
  }
  for (int p = 6; p <= 17; p++) {
    snprintf(buf, 40, "%.*g", p, v);
    if (strtod(buf, NULL) == v) {
      break;
    }
  }
  return buf;
}


static void vec(FILE* out, const double* v, int n) {
  char b[40];
  fputc('[', out);
  for (int i = 0; i < n; i++) {
    fprintf(out, "%s%s", i ? ", " : "", num(b, v[i]));
  }
  fputc(']', out);
}


static void mat6(FILE* out, const char* key, const double* A) {
  int diag = 1;
  for (int i = 0; i < 36; i++) {
    diag &= (i % 7 == 0) || A[i] == 0;
  }
  fprintf(out, "        %s: ", key);
  if (diag) {
    double d[6];
    for (int i = 0; i < 6; i++)
      d[i] = A[7 * i];
    vec(out, d, 6);
    fputc('\n', out);
    return;
  }
  fputc('\n', out);
  for (int i = 0; i < 6; i++) {
    fprintf(out, "          - ");
    vec(out, A + 6 * i, 6);
    fputc('\n', out);
  }
}


static int write_deck(FILE* out, const bdInput* in, const bdModel* m) {
  char b[40];
  fprintf(
      out,
      "# Generated by `rodrigues import beamdyn %s` (rd_importBeamDyn) from the BeamDyn files\n"
      "#   %s\n#   %s\n#   %s\n"
      "# BeamDyn's blade frame has the beam axis along z; here the section frame has it along x:\n"
      "# 6x6 matrices C' = Q C Q^T, Q = diag(P, P), P = [[0,0,1],[1,0,0],[0,1,0]]; key points\n"
      "# fitted as BeamDyn does (least squares, degree order_elem, in z), nodes at the GLL "
      "points;\n"
      "# rotation_field: displacement gives BeamDyn's section frames between the nodes,\n"
      "# virtual_rotation: interpolated its weak form of the moment equations,\n"
      "# extension_twist: true the extension-twist term of its elastic forces.\n",
      in->driver, in->driver, in->drv.primary, in->prim.blade);
  fprintf(out, "title: \"BeamDyn import: %s\"\n", in->driver);
  fprintf(out, "gravity: ");
  vec(out, in->drv.g, 3);
  fprintf(out, "\n\nsolver:\n  method: %s\n", in->drv.dynamic ? "generalized_alpha" : "static");
  fprintf(out, "  rho_inf: %s\n", num(b, in->prim.rhoinf));
  fprintf(out, "  start_time: %s\n", num(b, in->drv.t0));
  fprintf(out, "  time_step: %s\n", num(b, in->prim.dtbeam > 0 ? in->prim.dtbeam : in->drv.dt));
  fprintf(out, "  final_time: %s\n", num(b, in->drv.dynamic ? in->drv.tf : in->drv.t0 + 1));
  fprintf(out, "\noutput:\n  nodes: [blade_0, blade_%d]\n\nnodes:\n", m->nd.n - 1);
  for (int k = 0; k < m->nd.n; k++) {
    fprintf(out, "  - name: blade_%d\n    position: ", k);
    vec(out, m->nd.x[k], 3);
    fprintf(out, "\n    orientation: {quaternion: ");
    vec(out, m->nd.q[k], 4);
    fprintf(out, "}\n");
    if (m->rotating) {
      fprintf(out, "    velocity: ");
      vec(out, m->v[k], 3);
      fprintf(out, "\n    angular_velocity: ");
      vec(out, m->w, 3);
      fprintf(out, "\n");
    }
  }
  if (m->rotating) {
    static const char* const fn[6] = {"root_x",  "root_y",  "root_z",
                                      "root_rx", "root_ry", "root_rz"};
    char expr[6][160];
    root_motion(m, expr);
    fprintf(out, "\ntime_functions:  # rigid rotation of the root at RootVel about the origin\n");
    for (int i = 0; i < 6; i++) {
      fprintf(out, "  - {name: %s, type: expression, expression: \"%s\"}\n", fn[i], expr[i]);
    }
  }
  fprintf(out, "\nelements:\n  - name: blade\n    type: beam\n    nodes: [");
  for (int k = 0; k < m->nd.n; k++) {
    fprintf(out, "%sblade_%d", k ? ", " : "", k);
  }
  fprintf(out,
          "]\n    quadrature: %s\n    rotation_field: displacement\n"
          "    virtual_rotation: interpolated\n    extension_twist: true\n    damping: ",
          in->prim.quadrature == 2 ? "stations" : "full");
  vec(out, in->blade.mu, 6);
  fprintf(out, "  # BeamDyn mu (%s)\n", in->blade.damp_type ? "damp_type 1" : "no damping");
  if (in->drv.distr[0] || in->drv.distr[1] || in->drv.distr[2] || in->drv.distr[3] ||
      in->drv.distr[4] || in->drv.distr[5]) {
    fprintf(out, "    load: {force: ");
    vec(out, in->drv.distr, 3);
    fprintf(out, ", moment: ");
    vec(out, in->drv.distr + 3, 3);
    fprintf(out, ", frame: global}\n");
  }
  fprintf(out, "    sections:\n");
  for (int s = 0; s < in->blade.nst; s++) {
    fprintf(out, "      - s: %s\n", num(b, in->blade.eta[s]));
    mat6(out, "stiffness", in->blade.K + 36 * s);
    mat6(out, "mass", in->blade.M + 36 * s);
  }
  fprintf(out, "\njoints:\n");
  if (!m->rotating) {
    fprintf(out, "  - {name: root, type: fixed, node: blade_0}\n");
  } else {
    fprintf(out,
            "  - name: root\n    type: prescribed\n    node: blade_0\n    motion: {x: root_x, "
            "y: root_y, z: root_z, rx: root_rx, ry: root_ry, rz: root_rz}\n");
  }
  if (in->drv.tip[0] || in->drv.tip[1] || in->drv.tip[2] || in->drv.tip[3] || in->drv.tip[4] ||
      in->drv.tip[5]) {
    fprintf(out,
            "\nloads:\n  - {name: tip_force, type: force, node: blade_%d, value: ", m->nd.n - 1);
    vec(out, in->drv.tip, 3);
    fprintf(out, "}\n  - {name: tip_moment, type: moment, node: blade_%d, value: ", m->nd.n - 1);
    vec(out, in->drv.tip + 3, 3);
    fprintf(out, "}\n");
  }
  return ferror(out) ? RD_ERR_IO : RD_OK;
}


int rd_importBeamDynDeck(rdContext* ctx, const char* driver, FILE* out) {
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!driver || !out) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_importBeamDynDeck: NULL argument");
  }
  bdInput in;
  bdModel m;
  int st = read_input(ctx, driver, &in);
  if (!st)
    st = build_model(ctx, &in, &m);
  if (!st && write_deck(out, &in, &m)) {
    st = RD_ERROR(ctx, RD_ERR_IO, "cannot write the deck");
  }
  input_free(ctx, &in);
  return st;
}
