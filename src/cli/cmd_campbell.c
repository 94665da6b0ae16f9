// SPDX-License-Identifier: MIT
// rodrigues campbell: the modes of a spinning deck over a range of speeds, each at its steady
// state, tracked from speed to speed by the modal assurance criterion; the table and the
// Campbell diagram (gnuplot, PNG and SVG) with the k-per-revolution rays.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: rodrigues campbell DECK --speeds FROM:TO:STEP --spin-axis X,Y,Z [-o DIR]\n"
    "                         [--spin-center X,Y,Z] [--count N] [--flap-axis X,Y,Z]\n"
    "                         [--rays 1,3,6] [--solver auto|dense|arpack] [--set KEY=VALUE]...\n"
    "\n"
    "Sweep the rotor speed (rev/min) from FROM to TO in steps of STEP: at each speed\n"
    "linearize DECK in the frame spinning about the axis, at its steady state (each\n"
    "speed starting from the last), and compute its modes; follow each mode from speed\n"
    "to speed by the modal assurance criterion. Writes DIR/campbell.csv (speed_rpm,\n"
    "line, mode, frequency_hz, damping_ratio, classification, mac), DIR/campbell.dat and\n"
    "DIR/campbell.gp, and with gnuplot DIR/campbell.png and DIR/campbell.svg: the\n"
    "frequencies in the rotating frame against the speed, with the rays k P (docs/modal.md).\n"
    "\n"
    "  -o, --output DIR       results directory (default: out/campbell_<DECK's base name>)\n"
    "  --speeds FROM:TO:STEP  rotor speeds, rev/min (required)\n"
    "  --spin-axis X,Y,Z      the rotor axis (required); also the flap axis\n"
    "  --spin-center X,Y,Z    a point of the axis (default the origin)\n"
    "  --count N              modes at each speed (default 10)\n"
    "  --flap-axis X,Y,Z      beam bending along it is 'flap' (default the spin axis)\n"
    "  --rays LIST            the k of the k P rays (default 1,3,6)\n"
    "  --solver S             auto, dense, arpack\n"
    "  -s, --set KEY=VALUE    override a deck value (repeatable)\n"
    "  -h, --help             show this help\n";

// one mode at one speed
typedef struct {
  double rpm, f, zeta, mac;
  int line, mode, kind, kind_index;
} campbellRow;

// lines the tracking may open
#define MAX_LINES 1024


// follow the modes of cur from those of prev (line ids prev_line) by the largest modal
// assurance criteria first (at least 0.5); cur_line receives the lines (new ones from *nline)
static void track(const rdModes* prev, const int* prev_line, const rdModes* cur, int* cur_line,
                  double* mac, int* nline) {
  int np = prev ? rd_modeCount(prev) : 0, nc = rd_modeCount(cur);
  double* m = malloc(sizeof(double) * (size_t)(np * nc + 1));
  int* used = calloc((size_t)np + 1, sizeof(int));
  for (int j = 0; j < nc; j++) {
    cur_line[j] = -1;
    mac[j] = 0;
  }
  for (int k = 0; m && k < np; k++) {
    for (int j = 0; j < nc; j++) {
      m[k * nc + j] = rd_modeMac(prev, k, cur, j);
    }
  }
  for (int pass = 0; m && used && pass < nc; pass++) {
    double best = 0.5;
    int bk = -1, bj = -1;
    for (int k = 0; k < np; k++) {
      for (int j = 0; j < nc; j++) {
        if (!used[k] && cur_line[j] < 0 && m[k * nc + j] > best) {
          best = m[k * nc + j];
          bk = k;
          bj = j;
        }
      }
    }
    if (bk < 0) {
      break;
    }
    used[bk] = 1;
    cur_line[bj] = prev_line[bk];
    mac[bj] = best;
  }
  for (int j = 0; j < nc; j++) {
    if (cur_line[j] < 0) {
      cur_line[j] = *nline < MAX_LINES ? (*nline)++ : MAX_LINES - 1;
    }
  }
  free(m);
  free(used);
}


static int write_csv(const char* path, const campbellRow* r, int n) {
  FILE* f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "rodrigues: cannot write '%s': %s\n", path, strerror(errno));
    return -1;
  }
  fputs("speed_rpm,line,mode,frequency_hz,damping_ratio,classification,mac\n", f);
  for (int k = 0; k < n; k++) {
    fprintf(f, "%.10g,%d,%d,%.10g,%.10g,%s %d,%.6f\n", r[k].rpm, r[k].line + 1, r[k].mode + 1,
            r[k].f, r[k].zeta, rd_modeKindName(r[k].kind), r[k].kind_index, r[k].mac);
  }
  return fclose(f) == 0 ? 0 : -1;
}


// campbell.dat (a block per line: rpm frequency) and campbell.gp; then gnuplot: 0 drawn, 1
// gnuplot not installed, -1 not drawn (said on stderr)
static int plot(const char* dir, const char* deck, const campbellRow* r, int n, int nline,
                const cliModalArgs* o) {
  char* dat = cli_join(dir, "campbell.dat");
  char* gp = cli_join(dir, "campbell.gp");
  char* png = cli_join(dir, "campbell.png");
  char* svg = cli_join(dir, "campbell.svg");
  int ret = -1;
  FILE* f = dat ? fopen(dat, "w") : NULL;
  if (!f) {
    fprintf(stderr, "rodrigues: cannot write '%s'\n", dat ? dat : "campbell.dat");
    goto done;
  }
  // a line's label: its classification where it first appears
  char(*label)[48] = calloc((size_t)nline + 1, sizeof(*label));
  for (int l = 0; label && l < nline; l++) {
    int first = -1;
    fprintf(f, "# line %d\n", l + 1);
    for (int k = 0; k < n; k++) {
      if (r[k].line == l) {
        first = first < 0 ? k : first;
        fprintf(f, "%.10g %.10g\n", r[k].rpm, r[k].f);
      }
    }
    fputs("\n\n", f);
    snprintf(label[l], sizeof(label[l]), "%s %d", first >= 0 ? rd_modeKindName(r[first].kind) : "",
             first >= 0 ? r[first].kind_index : 0);
  }
  if (fclose(f) != 0 || !label) {
    free(label);
    goto done;
  }
  f = gp ? fopen(gp, "w") : NULL;
  if (!f) {
    free(label);
    fprintf(stderr, "rodrigues: cannot write '%s'\n", gp ? gp : "campbell.gp");
    goto done;
  }
  const char* base = strrchr(deck, '/');
  base = base ? base + 1 : deck;
  fputs("# Campbell diagram written by rodrigues campbell; run: gnuplot campbell.gp\n", f);
  fprintf(f,
          "set xlabel 'rotor speed (rpm)'\nset ylabel 'frequency in the rotating frame (Hz)'\n"
          "set grid\nset key outside right top font ',9'\nset xrange [%g:%g]\n"
          "set yrange [0:*]\n",
          o->speeds[0], o->speeds[1] > o->speeds[0] ? o->speeds[1] : o->speeds[0] + 1);
  for (int pass = 0; pass < 2; pass++) {
    fputs(pass ? "set terminal svg size 1000,640 dynamic font 'Sans,10'\nset output "
               : "set terminal pngcairo size 1000,640 font 'Sans,10'\nset output ",
          f);
    cli_gnuplotQuoted(f, pass ? svg : png);
    fputs("\nset title ", f);
    char title[512];
    snprintf(title, sizeof(title), "%s: Campbell diagram", base);
    cli_gnuplotQuoted(f, title);
    fputs(" noenhanced\nplot ", f);
    for (int l = 0; l < nline; l++) {
      fputs(l ? ", \\\n     " : "", f);
      cli_gnuplotQuoted(f, dat);
      fprintf(f, " index %d using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb '%s' title ", l,
              cli_plotColor(l));
      cli_gnuplotQuoted(f, label[l]);
    }
    for (int k = 0; k < o->nray; k++) {
      fprintf(f, ", \\\n     %d * x / 60 with lines dt 2 lw 1 lc rgb '#777777' title '%dP'",
              o->rays[k], o->rays[k]);
    }
    fputs("\nset output\n", f);
  }
  free(label);
  if (fclose(f) != 0) {
    goto done;
  }
  ret = cli_runGnuplot(gp, "campbell");
done:
  free(dat);
  free(gp);
  free(png);
  free(svg);
  return ret;
}


// the sweep: rows (speeds x count) and the number of lines; an exit code
static int sweep(cliSession* s, const cliModalArgs* o, campbellRow* rows, int* nrow, int* nline) {
  int nspeed = (int)((o->speeds[1] - o->speeds[0]) / o->speeds[2] + 1e-9) + 1;
  rdModes* prev = NULL;
  int* prev_line = malloc(sizeof(int) * (size_t)o->count);
  int* cur_line = malloc(sizeof(int) * (size_t)o->count);
  double* mac = malloc(sizeof(double) * (size_t)o->count);
  int code = prev_line && cur_line && mac ? CLI_OK : CLI_OTHER;
  *nrow = 0;
  *nline = 0;
  for (int k = 0; code == CLI_OK && k < nspeed; k++) {
    double rpm = o->speeds[0] + k * o->speeds[2];
    rdLinearizeDef def = cli_linearizeDef(o, rpm, 1);
    rdLinearization* lin = NULL;
    rdModes* cur = NULL;
    int st = rd_linearize(s->model, s->data, &def, &lin);
    if (st == RD_OK) {
      rdModalDef mdef = cli_modalDef(o);
      st = rd_computeModes(lin, &mdef, &cur);
    }
    rd_destroyLinearization(&lin);
    if (st != RD_OK) {
      code = cli_fail(s->ctx, st, 1);
      break;
    }
    track(prev, prev_line, cur, cur_line, mac, nline);
    for (int j = 0; j < rd_modeCount(cur); j++) {
      rdModeInfo i;
      rd_getMode(cur, j, &i);
      campbellRow* r = &rows[(*nrow)++];
      r->rpm = rpm;
      r->f = i.frequency_hz;
      r->zeta = i.damping_ratio;
      r->mac = mac[j];
      r->line = cur_line[j];
      r->mode = j;
      r->kind = i.kind;
      r->kind_index = i.kind_index;
    }
    printf("%8.3f rpm:", rpm);
    for (int j = 0; j < rd_modeCount(cur) && j < 6; j++) {
      rdModeInfo i;
      rd_getMode(cur, j, &i);
      printf(" %.4g", i.frequency_hz);
    }
    printf(" Hz%s\n", rd_modeCount(cur) > 6 ? " ..." : "");
    rd_destroyModes(&prev);
    prev = cur;
    memcpy(prev_line, cur_line, sizeof(int) * (size_t)rd_modeCount(cur));
  }
  rd_destroyModes(&prev);
  free(prev_line);
  free(cur_line);
  free(mac);
  return code;
}


int cmd_campbell(int argc, char** argv) {
  cliModalArgs o;
  cliDeckArgs args;
  int code = cli_startModalCommand(argc, argv, 1, usage, &o, &args);
  if (args.help) {
    cli_freeDeckArgs(&args);
    return code;
  }
  if (code == CLI_OK && !o.has_speeds) {
    code = cli_usageError("campbell", "missing --speeds FROM:TO:STEP", NULL);
  }
  if (code == CLI_OK && !o.has_axis) {
    code = cli_usageError("campbell", "missing --spin-axis X,Y,Z", NULL);
  }
  cliSession s;
  memset(&s, 0, sizeof(s));
  campbellRow* rows = NULL;
  int nrow = 0, nline = 0;
  if (code == CLI_OK) {
    code = cli_operatingPoint(&args, &o, &s);
  }
  if (code == CLI_OK) {
    int nspeed = (int)((o.speeds[1] - o.speeds[0]) / o.speeds[2] + 1e-9) + 1;
    rows = malloc(sizeof(campbellRow) * (size_t)nspeed * (size_t)o.count);
    code = rows ? sweep(&s, &o, rows, &nrow, &nline) : CLI_OTHER;
  }
  char* dir = NULL;
  if (code == CLI_OK) {
    dir = cli_outputDir(args.deck, args.outdir, "campbell_");
    code = dir && cli_makeDirs(dir, NULL) == 0 ? CLI_OK : CLI_IO;
  }
  if (code == CLI_OK) {
    char* csv = cli_join(dir, "campbell.csv");
    code = csv && write_csv(csv, rows, nrow) == 0 ? CLI_OK : CLI_IO;
    free(csv);
  }
  if (code == CLI_OK) {
    // the table is the result; a missing gnuplot leaves it without the figure, a failing one
    // is an output not written (as rodrigues converge)
    int drawn = plot(dir, args.deck, rows, nrow, nline, &o);
    printf("wrote %s/campbell.csv%s (%d lines)\n", dir,
           drawn == 0 ? ", campbell.png, campbell.svg" : "", nline);
    code = drawn < 0 ? CLI_IO : CLI_OK;
  }
  free(dir);
  free(rows);
  cli_closeSession(&s);
  cli_freeDeckArgs(&args);
  return code;
}
