// SPDX-License-Identifier: MIT
// rodrigues modes: linearize a deck at an operating point, write its modes (table, NetCDF,
// ParaView animations), optionally its matrices and a state-space model.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues modes DECK [-o DIR] [--count N] [--at initial|static|t=T]\n"
    "                      [--spin-rpm R --spin-axis X,Y,Z [--spin-center X,Y,Z]]\n"
    "                      [--flap-axis X,Y,Z] [--solver auto|dense|arpack]\n"
    "                      [--export-matrices] [--no-vtk] [--frames N] [--amplitude A]\n"
    "                      [--ss-input KIND:NAME:C]... [--ss-output KIND:NAME:C]...\n"
    "                      [--set KEY=VALUE]...\n"
    "\n"
    "Linearize DECK at an operating point and write its modes: DIR/modes.csv (mode,\n"
    "frequency_hz, damping_ratio, natural_hz, eigenvalue, classification, energy and\n"
    "mass fractions), DIR/modes.nc (the table and the shapes), and for ParaView an\n"
    "animation of each mode, DIR/mode_NN/results.pvd (docs/modal.md).\n"
    "\n"
    "  -o, --output DIR       results directory (default: out/modes_<DECK's base name>)\n"
    "  --count N              modes, lowest frequencies first (default 10)\n"
    "  --at initial           the deck's initial state (default; a rigid-body method is\n"
    "                         replaced by generalized_alpha)\n"
    "  --at static            the static equilibrium at solver.final_time (solver.method\n"
    "                         static along the deck's load path)\n"
    "  --at t=T               the state of the deck's run at time T (generalized_alpha or\n"
    "                         static)\n"
    "  --spin-rpm R           linearize in the frame spinning at R rev/min about the axis,\n"
    "                         at the steady state there (centrifugal stiffening, spin\n"
    "                         softening, Coriolis and gyroscopic terms)\n"
    "  --spin-axis X,Y,Z      the spin axis (global); also the default flap axis\n"
    "  --spin-center X,Y,Z    a point of the axis (default the origin)\n"
    "  --flap-axis X,Y,Z      beam bending along it is 'flap', across it 'edge'\n"
    "  --solver S             auto (dense up to 800 reduced unknowns), dense, arpack\n"
    "  --export-matrices      also DIR/matrices/: M, D, K, B, N and the reduced Mr, Dr, Kr\n"
    "                         (Matrix Market) with matrices.json\n"
    "  --no-vtk               no animations\n"
    "  --frames N             frames per animation (default 24)\n"
    "  --amplitude A          largest displacement of an animation, m (default a tenth\n"
    "                         of the model's size)\n"
    "  --ss-input K:NAME:C    a state-space input: force:NODE:x|y|z, moment:NODE:x|y|z,\n"
    "                         motion:JOINT:EQUATION (1-based; s, s', s'' become inputs)\n"
    "  --ss-output K:NAME:C   a state-space output: displacement, rotation, velocity,\n"
    "                         angular_velocity (NODE:x|y|z), reaction_force,\n"
    "                         reaction_moment (JOINT:x|y|z)\n"
    "                         With any of these: DIR/statespace/ (A, B, C, D as Matrix\n"
    "                         Market, statespace.json)\n"
    "  -s, --set KEY=VALUE    override a deck value (repeatable)\n"
    "  -h, --help             show this help\n";


// a joint's index by name, -1 if none
static int find_joint(const rdModel* m, const char* name) {
  rdModelInfo info;
  rd_modelInfo(m, &info);
  for (int j = 0; j < info.njoint; j++) {
    if (!strcmp(rd_jointName(m, j), name)) {
      return j;
    }
  }
  return -1;
}


// "KIND:NAME:C" into a channel; CLI_OK or CLI_USAGE (printed)
static int parse_channel(const rdModel* m, const char* text, int input, rdSsChannel* c) {
  static const char* const in[3] = {"force", "moment", "motion"};
  static const char* const out[6] = {"displacement",     "rotation",       "velocity",
                                     "angular_velocity", "reaction_force", "reaction_moment"};
  const char* c1 = strchr(text, ':');
  const char* c2 = c1 ? strrchr(text, ':') : NULL;
  if (!c1 || c2 == c1) {
    return cli_usageError("modes", "expected KIND:NAME:COMPONENT in", text);
  }
  char kind[64], name[256];
  snprintf(kind, sizeof(kind), "%.*s", (int)(c1 - text), text);
  snprintf(name, sizeof(name), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
  const char* comp = c2 + 1;
  int nk = input ? 3 : 6;
  c->kind = -1;
  for (int k = 0; k < nk; k++) {
    if (!strcmp(kind, input ? in[k] : out[k])) {
      c->kind = k;
    }
  }
  if (c->kind < 0) {
    return cli_usageError("modes", input ? "unknown input kind in" : "unknown output kind in",
                          text);
  }
  int joint = input ? c->kind == RD_SS_MOTION : c->kind >= RD_SS_REACTION_FORCE;
  c->index = joint ? find_joint(m, name) : rd_findNode(m, name);
  if (c->index < 0) {
    return cli_usageError("modes", joint ? "no such joint in" : "no such node in", text);
  }
  if (input && c->kind == RD_SS_MOTION) {
    char* end;
    long k = strtol(comp, &end, 10);
    c->component = (int)k - 1;
    if (end == comp || *end || k < 1) {
      return cli_usageError("modes", "expected an equation number (1, 2, ...) in", text);
    }
  } else {
    c->component = !strcmp(comp, "x") ? 0 : !strcmp(comp, "y") ? 1 : !strcmp(comp, "z") ? 2 : -1;
    if (c->component < 0) {
      return cli_usageError("modes", "expected x, y or z in", text);
    }
  }
  return CLI_OK;
}


// DIR/statespace/ for the channels of o; an exit code
static int write_statespace(const cliSession* s, const rdLinearization* lin, const cliModalArgs* o,
                            const char* dir) {
  rdSsChannel in[CLI_MAX_CHANNELS], out[CLI_MAX_CHANNELS];
  for (int k = 0; k < o->nin; k++) {
    int code = parse_channel(s->model, o->in[k], 1, &in[k]);
    if (code != CLI_OK) {
      return code;
    }
  }
  for (int k = 0; k < o->nout; k++) {
    int code = parse_channel(s->model, o->out[k], 0, &out[k]);
    if (code != CLI_OK) {
      return code;
    }
  }
  rdStateSpace* ss = NULL;
  int st = rd_stateSpace(lin, o->nin, in, o->nout, out, &ss);
  char* sub = cli_join(dir, "statespace");
  if (st == RD_OK && (!sub || cli_makeDirs(sub, NULL) != 0)) {
    rd_destroyStateSpace(&ss);
    free(sub);
    return CLI_IO;
  }
  if (st == RD_OK) {
    st = rd_writeStateSpace(ss, sub);
  }
  if (st == RD_OK) {
    int nx, nu, ny;
    rd_getStateSpace(ss, &nx, &nu, &ny, NULL, NULL, NULL, NULL);
    printf("wrote %s/ (A, B, C, D: %d states, %d inputs, %d outputs)\n", sub, nx, nu, ny);
  }
  rd_destroyStateSpace(&ss);
  free(sub);
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 1);
}


// the table on stdout
static void print_modes(const rdModes* md) {
  printf("mode  frequency (Hz)  damping ratio  classification\n");
  for (int k = 0; k < rd_modeCount(md); k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    printf("%4d  %14.6g  %13.6g  %s %d\n", k + 1, i.frequency_hz, i.damping_ratio,
           rd_modeKindName(i.kind), i.kind_index);
  }
}


// every file of the modes into dir; an exit code
static int write_files(const cliSession* s, const rdLinearization* lin, const rdModes* md,
                       const cliModalArgs* o, char* dir) {
  if (cli_makeDirs(dir, NULL) != 0) {
    return CLI_IO;
  }
  char* csv = cli_join(dir, "modes.csv");
  char* nc = cli_join(dir, "modes.nc");
  int st = csv && nc ? rd_writeModesCsv(md, csv) : RD_ERR_NOMEM;
  if (st == RD_OK) {
    st = rd_writeModesNetcdf(md, nc);
  }
  free(csv);
  free(nc);
  for (int k = 0; st == RD_OK && o->vtk && k < rd_modeCount(md); k++) {
    char name[32];
    snprintf(name, sizeof(name), "mode_%02d", k + 1);
    char* sub = cli_join(dir, name);
    if (!sub || cli_makeDirs(sub, NULL) != 0) {
      free(sub);
      return CLI_IO;
    }
    st = rd_writeModeVtk(md, k, sub, o->frames, o->amplitude);
    free(sub);
  }
  if (st == RD_OK && o->export_matrices) {
    char* sub = cli_join(dir, "matrices");
    if (!sub || cli_makeDirs(sub, NULL) != 0) {
      free(sub);
      return CLI_IO;
    }
    st = rd_writeLinearMatrices(lin, sub);
    free(sub);
  }
  if (st != RD_OK) {
    return cli_fail(s->ctx, st, 1);
  }
  printf("wrote %s/modes.csv, modes.nc%s%s\n", dir, o->vtk ? ", mode_NN/results.pvd" : "",
         o->export_matrices ? ", matrices/" : "");
  return o->nin + o->nout > 0 ? write_statespace(s, lin, o, dir) : CLI_OK;
}


int cmd_modes(int argc, char** argv) {
  cliModalArgs o;
  cliDeckArgs args;
  int code = cli_startModalCommand(argc, argv, 0, usage, &o, &args);
  if (args.help) {
    cli_freeDeckArgs(&args);
    return code;
  }
  cliSession s;
  memset(&s, 0, sizeof(s));
  rdLinearization* lin = NULL;
  rdModes* md = NULL;
  if (code == CLI_OK) {
    code = cli_operatingPoint(&args, &o, &s);
  }
  if (code == CLI_OK) {
    rdLinearizeDef def = cli_linearizeDef(&o, o.spin_rpm, o.spin_rpm != 0);
    int st = rd_linearize(s.model, s.data, &def, &lin);
    if (st == RD_OK) {
      rdModalDef mdef = cli_modalDef(&o);
      st = rd_computeModes(lin, &mdef, &md);
    }
    code = st == RD_OK ? CLI_OK : cli_fail(s.ctx, st, 1);
  }
  if (code == CLI_OK) {
    char* dir = cli_outputDir(args.deck, args.outdir, "modes_");
    code = dir ? write_files(&s, lin, md, &o, dir) : CLI_OTHER;
    free(dir);
  }
  if (code == CLI_OK) {
    print_modes(md);
  }
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  cli_closeSession(&s);
  cli_freeDeckArgs(&args);
  return code;
}
