// SPDX-License-Identifier: MIT
// What rodrigues modes and rodrigues campbell share: their options, the operating point (a deck
// at its initial state, its static equilibrium or a time of its run), the spin.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

// "X,Y,Z" into v; 0 or -1
static int parse_vec3(const char* s, double v[3]) {
  char* end;
  for (int k = 0; k < 3; k++) {
    v[k] = strtod(s, &end);
    if (end == s || !isfinite(v[k]) || (k < 2 && *end != ',') || (k == 2 && *end)) {
      return -1;
    }
    s = end + 1;
  }
  return 0;
}


// a positive integer; 0 or -1
static int parse_count(const char* s, int* n) {
  char* end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < 1 || v > 100000) {
    return -1;
  }
  *n = (int)v;
  return 0;
}


static int parse_real(const char* s, double* x) {
  char* end;
  *x = strtod(s, &end);
  return end == s || *end || !isfinite(*x) ? -1 : 0;
}


// the value of option argv[*i] ("--name VALUE" or "--name=VALUE"), NULL if argv[*i] is not it
static const char* value_of(int argc, char** argv, int* i, const char* name, int* missing) {
  size_t n = strlen(name);
  const char* a = argv[*i];
  if (strncmp(a, name, n) != 0) {
    return NULL;
  }
  if (a[n] == '=') {
    return a + n + 1;
  }
  if (a[n] != '\0') {
    return NULL;
  }
  if (*i + 1 >= argc) {
    *missing = 1;
    return NULL;
  }
  return argv[++*i];
}


int cli_parseModalArgs(int argc, char** argv, int campbell, cliModalArgs* o, int* rest_argc,
                       char** rest) {
  memset(o, 0, sizeof(*o));
  o->count = 10;
  o->at = "initial";
  o->vtk = 1;
  o->rays[0] = 1;
  o->rays[1] = 3;
  o->rays[2] = 6;
  o->nray = 3;
  const char* cmd = argv[0];
  int n = 0;
  rest[n++] = argv[0];
  for (int i = 1; i < argc; i++) {
    int missing = 0, bad = 0;
    const char* v;
    const char* a = argv[i];
    if (!strcmp(a, "--")) {
      while (i < argc) {
        rest[n++] = argv[i++];
      }
      break;
    }
    if ((v = value_of(argc, argv, &i, "--count", &missing))) {
      bad = parse_count(v, &o->count);
    } else if (!campbell && (v = value_of(argc, argv, &i, "--at", &missing))) {
      o->at = v;
      bad = strcmp(v, "initial") && strcmp(v, "static") &&
            (strncmp(v, "t=", 2) || parse_real(v + 2, &o->at_time));
    } else if ((v = value_of(argc, argv, &i, "--spin-rpm", &missing))) {
      bad = parse_real(v, &o->spin_rpm);
    } else if ((v = value_of(argc, argv, &i, "--spin-axis", &missing))) {
      bad = parse_vec3(v, o->axis) || !(o->axis[0] != 0 || o->axis[1] != 0 || o->axis[2] != 0);
      o->has_axis = 1;
    } else if ((v = value_of(argc, argv, &i, "--spin-center", &missing))) {
      bad = parse_vec3(v, o->center);
    } else if ((v = value_of(argc, argv, &i, "--flap-axis", &missing))) {
      bad = parse_vec3(v, o->flap);
    } else if ((v = value_of(argc, argv, &i, "--solver", &missing))) {
      o->solver = !strcmp(v, "auto")     ? RD_EIGEN_AUTO
                  : !strcmp(v, "dense")  ? RD_EIGEN_DENSE
                  : !strcmp(v, "arpack") ? RD_EIGEN_ARPACK
                                         : -1;
      bad = o->solver < 0;
    } else if (!campbell && !strcmp(a, "--export-matrices")) {
      o->export_matrices = 1;
    } else if (!campbell && !strcmp(a, "--no-vtk")) {
      o->vtk = 0;
    } else if (!campbell && (v = value_of(argc, argv, &i, "--frames", &missing))) {
      bad = parse_count(v, &o->frames);
    } else if (!campbell && (v = value_of(argc, argv, &i, "--amplitude", &missing))) {
      bad = parse_real(v, &o->amplitude) || o->amplitude < 0;
    } else if (!campbell && (v = value_of(argc, argv, &i, "--ss-input", &missing))) {
      bad = o->nin >= CLI_MAX_CHANNELS;
      if (!bad) {
        o->in[o->nin++] = v;
      }
    } else if (!campbell && (v = value_of(argc, argv, &i, "--ss-output", &missing))) {
      bad = o->nout >= CLI_MAX_CHANNELS;
      if (!bad) {
        o->out[o->nout++] = v;
      }
    } else if (campbell && (v = value_of(argc, argv, &i, "--speeds", &missing))) {
      char* end;
      o->speeds[0] = strtod(v, &end);
      bad = *end != ':';
      if (!bad) {
        o->speeds[1] = strtod(end + 1, &end);
        bad = *end != ':';
      }
      if (!bad) {
        o->speeds[2] = strtod(end + 1, &end);
        bad = *end || !(o->speeds[2] > 0) || !(o->speeds[1] >= o->speeds[0]) ||
              !(o->speeds[0] >= 0) || (o->speeds[1] - o->speeds[0]) / o->speeds[2] > 10000;
      }
      o->has_speeds = !bad;
    } else if (campbell && (v = value_of(argc, argv, &i, "--rays", &missing))) {
      o->nray = 0;
      char* s = (char*)v;
      while (!bad && *s && o->nray < CLI_MAX_RAYS) {
        char* end;
        long k = strtol(s, &end, 10);
        bad = end == s || k < 1 || k > 1000 || (*end && *end != ',');
        o->rays[o->nray++] = (int)k;
        s = *end ? end + 1 : end;
      }
      bad = bad || *s;
    } else {
      rest[n++] = argv[i];
      continue;
    }
    if (missing) {
      *rest_argc = n;
      return cli_usageError(cmd, "missing value after", a);
    }
    if (bad) {
      *rest_argc = n;
      return cli_usageError(cmd, "invalid value in", argv[i]);
    }
  }
  rest[n] = NULL;
  *rest_argc = n;
  if (o->spin_rpm != 0 && !o->has_axis) {
    return cli_usageError(cmd, "a spin needs --spin-axis X,Y,Z", NULL);
  }
  return CLI_OK;
}


int cli_startModalCommand(int argc, char** argv, int campbell, const char* usage, cliModalArgs* o,
                          cliDeckArgs* args) {
  memset(args, 0, sizeof(*args));
  char** rest = malloc(sizeof(char*) * (size_t)(argc + 1));
  if (!rest) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  int nrest = 0;
  int code = cli_parseModalArgs(argc, argv, campbell, o, &nrest, rest);
  if (code == CLI_OK) {
    // args keeps the strings (argv's), not the array
    code = cli_parseDeckArgs(nrest, rest, 1, args);
  }
  free(rest);
  if (code == CLI_OK && args->help) {
    fputs(usage, stdout);
  } else if (code == CLI_OK && (args->checkpoint || args->resume)) {
    code = cli_usageError(argv[0], "--checkpoint and --resume are options of 'run'", NULL);
  }
  return code;
}


// read the deck with one more override `extra` (NULL: none)
static int load(const cliDeckArgs* a, const char* extra, cliSession* s) {
  const char** set = malloc(sizeof(char*) * (size_t)(a->nset + 1));
  if (!set) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  for (int k = 0; k < a->nset; k++) {
    set[k] = a->set[k];
  }
  int nset = a->nset;
  if (extra) {
    set[nset++] = extra;
  }
  int code = cli_loadModel(a->deck, set, nset, s);
  free((void*)set);
  return code;
}


int cli_operatingPoint(const cliDeckArgs* a, const cliModalArgs* o, cliSession* s) {
  int stat = !strcmp(o->at, "static"), at_t = !strncmp(o->at, "t=", 2);
  int code = load(a, stat ? "solver.method=static" : NULL, s);
  if (code != CLI_OK) {
    return code;
  }
  rdModelInfo info;
  rd_modelInfo(s->model, &info);
  if (info.method != RD_METHOD_GENERALIZED_ALPHA && info.method != RD_METHOD_STATIC) {
    if (at_t) {
      fprintf(stderr,
              "rodrigues: --at %s linearizes a run of solver.method generalized_alpha or static; "
              "the deck uses '%s'\n",
              o->at, rd_methodName(info.method));
      return CLI_DECK;
    }
    // the linearization needs the implicit methods' matrix pattern
    cli_closeSession(s);
    code = load(a, "solver.method=generalized_alpha", s);
    if (code != CLI_OK) {
      return code;
    }
  }
  int st = rd_createData(s->model, &s->data);
  if (st == RD_OK) {
    st = rd_initialize(s->model, s->data);
  }
  if (st == RD_OK && (stat || at_t)) {
    double tend = stat ? rd_getOptionReal(s->model, "solver.final_time") : o->at_time;
    if (tend < rd_time(s->data)) {
      fprintf(stderr, "rodrigues: --at t=%g is before the start time %g\n", tend, rd_time(s->data));
      return CLI_USAGE;
    }
    st = rd_advance(s->model, s->data, tend, NULL, NULL);
  }
  return st == RD_OK ? CLI_OK : cli_fail(s->ctx, st, 1);
}


rdLinearizeDef cli_linearizeDef(const cliModalArgs* o, double rpm, int steady) {
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.spin_rate = rpm * 3.14159265358979323846 / 30;
  memcpy(def.spin_axis, o->axis, sizeof(def.spin_axis));
  memcpy(def.spin_center, o->center, sizeof(def.spin_center));
  def.steady = steady;
  return def;
}


rdModalDef cli_modalDef(const cliModalArgs* o) {
  rdModalDef def = rd_defaultModalDef();
  def.count = o->count;
  def.solver = o->solver;
  memcpy(def.flap_axis, o->flap, sizeof(def.flap_axis));
  if (!(o->flap[0] != 0 || o->flap[1] != 0 || o->flap[2] != 0) && o->has_axis) {
    memcpy(def.flap_axis, o->axis, sizeof(def.flap_axis));  // a rotor's flap: along its axis
  }
  return def;
}
