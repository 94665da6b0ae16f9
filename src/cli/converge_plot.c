// SPDX-License-Identifier: MIT
// rodrigues converge: the log-log figures of a convergence study, drawn by gnuplot.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

// " VALUE" for a plottable (positive) error, " NaN" otherwise
static void put_plot_value(FILE* f, double x) {
  if (x > 0 && isfinite(x)) {
    fprintf(f, " %.6e", x);
  } else {
    fputs(" NaN", f);
  }
}


int cli_plotConvergence(const char* dir, const char* deck, const convRun* r, const char** methods,
                        int nmethod, int nlevel, int has_pi) {
  char* dat = cli_join(dir, "convergence.dat");
  char* gp = cli_join(dir, "convergence.gp");
  char* png = cli_join(dir, "convergence.png");
  char* svg = cli_join(dir, "convergence.svg");
  int ret = -1;
  FILE* f = NULL;
  if (!dat || !gp || !png || !svg) {
    goto done;
  }
  // which methods have something to draw, per panel
  int nplot = 0;
  f = fopen(dat, "w");
  if (!f) {
    fprintf(stderr, "rodrigues: cannot write '%s': %s\n", dat, strerror(errno));
    goto done;
  }
  const char* drawn[64];
  for (int m = 0; m < nmethod && nplot < 64; m++) {
    int any = 0;
    for (int k = 0; k < nlevel; k++) {
      const convRun* x = r + m * nlevel + k;
      any |= x->ok && (x->err_R > 0 || (has_pi && x->err_Pi > 0));
    }
    if (!any) {
      continue;
    }
    fprintf(f, "# %s: dt err_R err_Pi\n", methods[m]);
    for (int k = 0; k < nlevel; k++) {
      const convRun* x = r + m * nlevel + k;
      if (x->ok) {
        // a zero error cannot be drawn on a log scale: leave it out ("NaN" is skipped)
        fprintf(f, "%.17g", x->dt);
        put_plot_value(f, x->err_R);
        put_plot_value(f, x->err_Pi);
        fputc('\n', f);
      }
    }
    fputs("\n\n", f);
    drawn[nplot++] = methods[m];
  }
  if (fclose(f) != 0) {
    f = NULL;
    goto done;
  }
  f = NULL;
  if (nplot == 0) {
    fprintf(stderr, "rodrigues converge: no successful run to plot\n");
    goto done;
  }

  f = fopen(gp, "w");
  if (!f) {
    fprintf(stderr, "rodrigues: cannot write '%s': %s\n", gp, strerror(errno));
    goto done;
  }
  const char* base = strrchr(deck, '/');
  base = base ? base + 1 : deck;
  fputs("# convergence plot written by rodrigues converge; run: gnuplot convergence.gp\n", f);
  fputs(
      "set datafile missing 'NaN'\n"
      "set logscale xy\nset format x '10^{%L}'\nset format y '10^{%L}'\n"
      "set xlabel 'time step'\nset grid\nset key bottom right opaque font ',9'\n",
      f);
  int width = has_pi ? 1200 : 640;  // one panel without the body angular momentum
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 0) {
      fprintf(f, "set terminal pngcairo size %d,520 font 'Sans,10'\nset output ", width);
      cli_gnuplotQuoted(f, png);
    } else {
      fprintf(f, "set terminal svg size %d,520 dynamic font 'Sans,10'\nset output ", width);
      cli_gnuplotQuoted(f, svg);
    }
    fprintf(f, "\nset multiplot layout 1,%d title ", has_pi ? 2 : 1);
    char title[512];
    snprintf(title, sizeof(title), "%s: convergence at the final time", base);
    cli_gnuplotQuoted(f, title);
    fputs(" noenhanced\n", f);
    for (int panel = has_pi ? 0 : 1; panel < 2; panel++) {
      // as in Krysl & Endres 2005's figures: body angular momentum on the left, attitude on the
      // right
      fprintf(f, "set ylabel '%s'\nplot ",
              panel == 0 ? "|{/Symbol P} - {/Symbol P}_{ref}|" : "|R - R_{ref}|_2");
      for (int k = 0; k < nplot; k++) {
        fputs(k ? ", \\\n     " : "", f);
        cli_gnuplotQuoted(f, dat);
        fprintf(f, " index %d using 1:%d with linespoints pt %d lw 1.5 lc rgb '%s' title ", k,
                panel ? 2 : 3, (k % 13) + 1, cli_plotColor(k));
        cli_gnuplotQuoted(f, drawn[k]);
        fputs(" noenhanced", f);
      }
      fputs("\n", f);
    }
    fputs("unset multiplot\nset output\n", f);
  }
  if (fclose(f) != 0) {
    f = NULL;
    goto done;
  }
  f = NULL;

  ret = cli_runGnuplot(gp, "converge");
done:
  if (f) {
    fclose(f);
  }
  free(dat);
  free(gp);
  free(png);
  free(svg);
  return ret;
}
