// SPDX-License-Identifier: MIT
// rodrigues converge: convergence study of time steppers on one deck (errors, observed orders,
// plot).
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cmd_converge(int argc, char** argv);

static const char usage[] =
    "usage: rodrigues converge DECK --methods M1,M2,... --dt DT1,DT2,...\n"
    "                          [--reference METHOD:DT | --reference FILE] [--node NAME]\n"
    "                          [-o DIR] [--set KEY=VALUE]...\n"
    "\n"
    "Run DECK to solver.final_time once for every method and step size, and compare the\n"
    "final rotation R and body angular momentum Pi (rd_getBodyMomentum) of one node with a\n"
    "reference: err_R = |R - R_ref|_2 (spectral norm; 2 sin(theta/2) of the relative\n"
    "rotation), err_Pi = |Pi - Pi_ref|_2, and the observed order between consecutive step\n"
    "sizes, log(e_i/e_i+1)/log(dt_i/dt_i+1). Prints a table and writes\n"
    "DIR/convergence.csv (method,dt,err_R,err_Pi,order_R,order_Pi,steps,load_evaluations,\n"
    "wall_time; nan for a failed run) and, with gnuplot, DIR/convergence.png and .svg\n"
    "(log-log, one line per method; the script is kept as DIR/convergence.gp). A node\n"
    "without a rigid body (a beam node) has no Pi: then R alone is compared.\n"
    "\n"
    "  --methods LIST       solver.method values, comma separated (e.g. nmb,liemid_ea)\n"
    "  --dt LIST            time steps, comma separated, usually decreasing\n"
    "  --reference REF      METHOD:DT: a run of the deck with that method and step;\n"
    "                       FILE: one line 'qw qx qy qz Pix Piy Piz' (whitespace or commas,\n"
    "                       '#' starts a comment) -- the final quaternion (body -> global)\n"
    "                       and body angular momentum. Default: the first method at a\n"
    "                       step 16 times smaller than the smallest --dt\n"
    "  --node NAME          node to compare (default: the first output node)\n"
    "  -o, --output DIR     results directory, created with its parents\n"
    "                       (default: out/converge-<DECK's base name without .yaml>)\n"
    "  -s, --set KEY=VALUE  override a deck value in every run (repeatable); solver.method\n"
    "                       and solver.time_step are set by the study itself\n"
    "  -h, --help           show this help\n"
    "\n"
    "A run that fails (e.g. unstable at a large step) is reported as failed and the study\n"
    "goes on. Wall times are those of rd_initialize + rd_advance.\n";

typedef struct convArgs_ {
  const char* deck;
  const char* outdir;
  const char* node;
  const char* reference;
  char* methods;  // copy of the list, split in place
  char* dts;
  const char** set;
  int nset;
  int help;
} convArgs;


// the value of option `name` (short form `alt`, may be NULL) at argv[*i], as "--name V" or
// "--name=V"; NULL if argv[*i] is not that option. *missing is set if the value is absent.
static const char* option_value(int argc, char** argv, int* i, const char* name, const char* alt,
                                int* missing) {
  const char* s = argv[*i];
  size_t n = strlen(name);
  if (!strcmp(s, name) || (alt && !strcmp(s, alt))) {
    if (*i + 1 >= argc) {
      *missing = 1;
      return NULL;
    }
    return argv[++*i];
  }
  if (!strncmp(s, name, n) && s[n] == '=') {
    return s + n + 1;
  }
  return NULL;
}


static int parse_args(int argc, char** argv, convArgs* a) {
  memset(a, 0, sizeof(*a));
  a->set = malloc((size_t)(argc > 0 ? argc : 1) * sizeof(*a->set));
  if (!a->set) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  for (int i = 1; i < argc; i++) {
    const char* s = argv[i];
    const char* v;
    int missing = 0;
    if (s[0] != '-' || !s[1]) {
      if (a->deck) {
        return cli_usageError("converge", "more than one deck given:", s);
      }
      a->deck = s;
    } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      a->help = 1;
    } else if ((v = option_value(argc, argv, &i, "--set", "-s", &missing))) {
      a->set[a->nset++] = v;
    } else if ((v = option_value(argc, argv, &i, "--output", "-o", &missing))) {
      a->outdir = v;
    } else if ((v = option_value(argc, argv, &i, "--node", NULL, &missing))) {
      a->node = v;
    } else if ((v = option_value(argc, argv, &i, "--reference", NULL, &missing))) {
      a->reference = v;
    } else if ((v = option_value(argc, argv, &i, "--methods", NULL, &missing))) {
      free(a->methods);
      a->methods = strdup(v);
    } else if ((v = option_value(argc, argv, &i, "--dt", NULL, &missing))) {
      free(a->dts);
      a->dts = strdup(v);
    } else {
      return cli_usageError("converge", missing ? "missing the value after" : "unknown option", s);
    }
  }
  if (a->help) {
    return CLI_OK;
  }
  if (!a->deck) {
    return cli_usageError("converge", "missing the deck file", NULL);
  }
  if (!a->methods || !*a->methods) {
    return cli_usageError("converge", "missing --methods", NULL);
  }
  if (!a->dts || !*a->dts) {
    return cli_usageError("converge", "missing --dt", NULL);
  }
  if (a->outdir && !*a->outdir) {
    return cli_usageError("converge", "empty output directory", NULL);
  }
  return CLI_OK;
}


static void free_args(convArgs* a) {
  free((void*)a->set);
  free(a->methods);
  free(a->dts);
  memset(a, 0, sizeof(*a));
}


// split `s` in place at commas (and blanks); returns the number of non-empty items, at most max
static int split_list(char* s, const char** item, int max) {
  int n = 0;
  char* save = NULL;
  for (char* tok = strtok_r(s, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
    if (n < max) {
      item[n] = tok;
    }
    n++;
  }
  return n;
}


// a finite number > 0 filling the whole of s
static int parse_step(const char* s, double* x) {
  char* end;
  errno = 0;
  *x = strtod(s, &end);
  return end != s && !*end && errno == 0 && isfinite(*x) && *x > 0;
}


// ---------------------------------------------------------------------------------------------
// error norms: the attitude by rdu_quatDistance (|R - R_ref|_2 = 2 sin(theta/2) in closed form)

static double diff_norm3(const double a[3], const double b[3]) {
  double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
  return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}


// ---------------------------------------------------------------------------------------------
// runs

// Run the deck with `method` and step `dt` to its final time; fills r. Returns CLI_OK (the run
// may still have failed: r->ok == 0, r->why says why), or an exit code, the error printed, for
// errors that no run can get past (deck unreadable, unknown method or node).
static int run_one(const convArgs* a, const char* method, double dt, convRun* r) {
  memset(r, 0, sizeof(*r));
  r->method = method;
  r->dt = dt;
  r->err_R = r->err_Pi = r->order_R = r->order_Pi = NAN;

  char set_method[128], set_dt[64];
  snprintf(set_method, sizeof(set_method), "solver.method=%s", method);
  snprintf(set_dt, sizeof(set_dt), "solver.time_step=%.17g", dt);
  const char** set = malloc((size_t)(a->nset + 2) * sizeof(*set));
  if (!set) {
    fprintf(stderr, "rodrigues: out of memory\n");
    return CLI_OTHER;
  }
  memcpy(set, a->set, (size_t)a->nset * sizeof(*set));
  set[a->nset] = set_method;
  set[a->nset + 1] = set_dt;

  // an unknown method name is the user's typo; anything else is the deck's fault: both fatal
  cliSession s;
  int code = cli_loadModel(a->deck, set, a->nset + 2, &s);
  const rdModel* model = s.model;
  int st = RD_OK;
  if (code != CLI_OK) {
    goto done;
  }
  int node = 0;
  if (a->node) {
    node = rd_findNode(model, a->node);
    if (node < 0) {
      fprintf(stderr, "rodrigues converge: no node '%s' in %s\n", a->node, a->deck);
      code = CLI_USAGE;
      goto done;
    }
  } else if (rd_outputNode(model, 0) >= 0) {
    node = rd_outputNode(model, 0);
  }

  double wall0 = cli_now();
  st = rd_createData(model, &s.data);
  rdData* data = s.data;
  if (st == RD_OK) {
    st = rd_initialize(model, data);
  }
  if (st == RD_OK) {
    st = rd_advance(model, data, rd_getOptionReal(model, "solver.final_time"), NULL, NULL);
  }
  r->wall = cli_now() - wall0;
  if (data) {
    rdStats stats;
    if (rd_getStats(data, &stats) == RD_OK) {
      r->steps = stats.steps;
      r->loads = stats.load_evaluations;
    }
  }
  if (st == RD_OK) {
    st = rd_getNodeState(model, data, node, NULL, r->q, NULL, NULL, NULL);
  }
  if (st == RD_OK) {
    st = rd_getBodyMomentum(model, data, node, r->Pi);
  }
  if (st != RD_OK) {
    const char* msg = rd_lastError(s.ctx);
    snprintf(r->why, sizeof(r->why), "%s", msg && *msg ? msg : rd_statusString(st));
    goto done;
  }
  int finite = 1;
  for (int k = 0; k < 4; k++) {
    finite = finite && isfinite(r->q[k]);
  }
  for (int k = 0; k < 3; k++) {
    finite = finite && isfinite(r->Pi[k]);
  }
  if (!finite) {
    snprintf(r->why, sizeof(r->why), "non-finite final state");
    goto done;
  }
  r->ok = 1;
done:
  cli_closeSession(&s);
  free(set);
  return code;
}


// Read the reference FILE: the first non-comment line, 7 numbers. Returns 0 or -1 (printed).
static int read_reference_file(const char* path, double q[4], double Pi[3]) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "rodrigues converge: cannot read reference '%s': %s\n", path, strerror(errno));
    return -1;
  }
  char line[4096];
  int lineno = 0, ret = -1, found = 0;
  while (fgets(line, sizeof(line), f)) {
    lineno++;
    char* hash = strchr(line, '#');
    if (hash) {
      *hash = '\0';
    }
    double x[8];
    int n = 0;
    char* save = NULL;
    int bad = 0;
    for (char* tok = strtok_r(line, ", \t\r\n", &save); tok;
         tok = strtok_r(NULL, ", \t\r\n", &save)) {
      char* end;
      double v = strtod(tok, &end);
      if (*end || !isfinite(v) || n == 8) {
        bad = 1;
        break;
      }
      x[n++] = v;
    }
    if (n == 0 && !bad) {
      continue;
    }
    found = 1;
    if (bad || n != 7) {
      fprintf(stderr, "rodrigues converge: %s:%d: expected 7 numbers 'qw qx qy qz Pix Piy Piz'\n",
              path, lineno);
      break;
    }
    double nq = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
    if (fabs(nq - 1) > 1e-6) {
      fprintf(stderr, "rodrigues converge: %s:%d: quaternion is not unit (norm %.17g)\n", path,
              lineno, nq);
      break;
    }
    for (int k = 0; k < 4; k++) {
      q[k] = x[k] / nq;
    }
    for (int k = 0; k < 3; k++) {
      Pi[k] = x[4 + k];
    }
    ret = 0;
    break;
  }
  if (!found) {
    fprintf(stderr, "rodrigues converge: %s: no reference line found\n", path);
  }
  fclose(f);
  return ret;
}


// ---------------------------------------------------------------------------------------------
// output

static void put_number(FILE* f, double x) {
  if (isnan(x)) {
    fputs(",nan", f);
  } else {
    fprintf(f, ",%.6e", x);
  }
}


// the columns of Pi only when the node has a body angular momentum (has_pi)
static int write_csv(const char* path, const convRun* r, int nrun, int has_pi) {
  FILE* f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "rodrigues: cannot write '%s': %s\n", path, strerror(errno));
    return -1;
  }
  fputs(has_pi ? "method,dt,err_R,err_Pi,order_R,order_Pi,steps,load_evaluations,wall_time\n"
               : "method,dt,err_R,order_R,steps,load_evaluations,wall_time\n",
        f);
  for (int i = 0; i < nrun; i++) {
    fprintf(f, "%s,%.15g", r[i].method, r[i].dt);
    put_number(f, r[i].err_R);
    if (has_pi) {
      put_number(f, r[i].err_Pi);
    }
    put_number(f, r[i].order_R);
    if (has_pi) {
      put_number(f, r[i].order_Pi);
    }
    fprintf(f, ",%ld,%ld,%.6e\n", r[i].steps, r[i].loads, r[i].wall);
  }
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    fprintf(stderr, "rodrigues: cannot write '%s'\n", path);
    return -1;
  }
  return 0;
}


// ---------------------------------------------------------------------------------------------

#define MAX_ITEMS 64

int cmd_converge(int argc, char** argv) {
  convArgs a;
  int code = parse_args(argc, argv, &a);
  if (code != CLI_OK || a.help) {
    if (code == CLI_OK) {
      fputs(usage, stdout);
    }
    free_args(&a);
    return code;
  }

  const char* methods[MAX_ITEMS];
  const char* dtext[MAX_ITEMS];
  double dts[MAX_ITEMS];
  int nmethod = split_list(a.methods, methods, MAX_ITEMS);
  int nlevel = split_list(a.dts, dtext, MAX_ITEMS);
  if (nmethod == 0 || nmethod > MAX_ITEMS || nlevel == 0 || nlevel > MAX_ITEMS) {
    free_args(&a);
    return cli_usageError("converge", "--methods and --dt need 1 to 64 items each", NULL);
  }
  for (int k = 0; k < nlevel; k++) {
    if (!parse_step(dtext[k], dts + k)) {
      code = cli_usageError("converge", "--dt: not a step size > 0:", dtext[k]);
      free_args(&a);
      return code;
    }
  }

  convRun* runs = calloc((size_t)(nmethod * nlevel), sizeof(*runs));
  char* dir = cli_outputDir(a.deck, a.outdir, "converge-");
  char* csv = dir ? cli_join(dir, "convergence.csv") : NULL;
  if (!runs || !csv) {
    fprintf(stderr, "rodrigues: out of memory\n");
    code = CLI_OTHER;
    goto done;
  }

  // the reference
  double qref[4], Piref[3];
  const char* colon = a.reference ? strrchr(a.reference, ':') : NULL;
  struct stat sb;
  if (a.reference && (!colon || stat(a.reference, &sb) == 0)) {
    if (read_reference_file(a.reference, qref, Piref) != 0) {
      code = CLI_IO;
      goto done;
    }
    printf("reference: %s\n", a.reference);
  } else {
    char refmethod[128];
    double refdt;
    if (a.reference) {
      size_t n = (size_t)(colon - a.reference);
      if (n == 0 || n >= sizeof(refmethod) || !parse_step(colon + 1, &refdt)) {
        code = cli_usageError("converge", "--reference: expected METHOD:DT or a file, got",
                              a.reference);
        goto done;
      }
      memcpy(refmethod, a.reference, n);
      refmethod[n] = '\0';
    } else {
      snprintf(refmethod, sizeof(refmethod), "%s", methods[0]);
      refdt = dts[0];
      for (int k = 1; k < nlevel; k++) {
        refdt = fmin(refdt, dts[k]);
      }
      refdt /= 16;
    }
    convRun ref;
    code = run_one(&a, refmethod, refdt, &ref);
    if (code != CLI_OK) {
      goto done;
    }
    if (!ref.ok) {
      fprintf(stderr, "rodrigues converge: the reference run %s:%g failed: %s\n", refmethod, refdt,
              ref.why);
      code = CLI_NUMERIC;
      goto done;
    }
    memcpy(qref, ref.q, sizeof(qref));
    memcpy(Piref, ref.Pi, sizeof(Piref));
    printf("reference: %s at dt = %g (%ld steps, %.3g s)\n", refmethod, refdt, ref.steps, ref.wall);
  }
  printf("  q_ref = (%.17g, %.17g, %.17g, %.17g)\n  Pi_ref = (%.17g, %.17g, %.17g)\n\n", qref[0],
         qref[1], qref[2], qref[3], Piref[0], Piref[1], Piref[2]);
  // a node without a rigid body (a beam node, a prescribed root) has no body angular momentum
  // (exactly zero): the study compares R alone, without the columns of Pi
  int has_pi = Piref[0] != 0 || Piref[1] != 0 || Piref[2] != 0;
  if (!has_pi) {
    printf(
        "the compared node carries no rigid body (its body angular momentum is exactly zero in "
        "the reference): the study compares R only\n\n");
  }

  // the study
  printf("%-12s %10s %11s", "method", "dt", "err_R");
  if (has_pi) {
    printf(" %11s %8s %8s", "err_Pi", "order_R", "order_Pi");
  } else {
    printf(" %8s", "order_R");
  }
  printf(" %9s %10s %9s\n", "steps", "loads", "wall [s]");
  int nfailed = 0;
  for (int m = 0; m < nmethod; m++) {
    for (int k = 0; k < nlevel; k++) {
      convRun* r = runs + m * nlevel + k;
      code = run_one(&a, methods[m], dts[k], r);
      if (code != CLI_OK) {
        goto done;
      }
      if (r->ok) {
        r->err_R = rdu_quatDistance(qref, r->q);
        r->err_Pi = diff_norm3(r->Pi, Piref);
        const convRun* p = k > 0 ? r - 1 : NULL;
        if (p && p->ok && p->dt != r->dt) {
          double l = log(p->dt / r->dt);
          if (p->err_R > 0 && r->err_R > 0) {
            r->order_R = log(p->err_R / r->err_R) / l;
          }
          if (p->err_Pi > 0 && r->err_Pi > 0) {
            r->order_Pi = log(p->err_Pi / r->err_Pi) / l;
          }
        }
        printf("%-12s %10.4g %11.3e", r->method, r->dt, r->err_R);
        if (has_pi) {
          printf(" %11.3e %8.3f %8.3f", r->err_Pi, r->order_R, r->order_Pi);
        } else {
          printf(" %8.3f", r->order_R);
        }
        printf(" %9ld %10ld %9.3g\n", r->steps, r->loads, r->wall);
      } else {
        nfailed++;
        printf("%-12s %10.4g %11s %s", r->method, r->dt, "failed",
               has_pi ? "     failed        -        -" : "       -");
        printf(" %9ld %10ld %9.3g  %s\n", r->steps, r->loads, r->wall, r->why);
      }
      fflush(stdout);
    }
  }

  if (cli_makeDirs(dir, NULL) != 0 || write_csv(csv, runs, nmethod * nlevel, has_pi) != 0) {
    code = CLI_IO;
    goto done;
  }
  printf("\n%d runs (%d failed); results in %s/: convergence.csv", nmethod * nlevel, nfailed, dir);
  fflush(stdout);
  int plot = cli_plotConvergence(dir, a.deck, runs, methods, nmethod, nlevel, has_pi);
  printf(plot == 0 ? ", convergence.png, convergence.svg\n" : "\n");
  // gnuplot missing: the CSV is the result; gnuplot failing: an output that was not written
  code = plot < 0 ? CLI_IO : CLI_OK;
done:
  free(csv);
  free(dir);
  free(runs);
  free_args(&a);
  return code;
}
