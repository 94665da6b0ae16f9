// SPDX-License-Identifier: MIT
// Progress bar on stderr with elapsed and estimated remaining time, for interactive runs only.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

#define BAR_WIDTH 30
#define MIN_INTERVAL 0.1  // seconds between drawings


// "1:05" or "1:02:03"
static void format_duration(char* buf, size_t size, double s) {
  if (!isfinite(s) || s < 0) {
    snprintf(buf, size, "--:--");
    return;
  }
  long n = (long)(s + 0.5);
  if (n >= 3600) {
    snprintf(buf, size, "%ld:%02ld:%02ld", n / 3600, n / 60 % 60, n % 60);
  } else {
    snprintf(buf, size, "%ld:%02ld", n / 60, n % 60);
  }
}


void cli_progressBegin(cliProgress* p, double t0, double t1) {
  const char* ci = getenv("CI");
  p->enabled = isatty(STDERR_FILENO) && !(ci && *ci);
  p->t0 = t0;
  p->t1 = t1;
  p->wall0 = cli_now();
  p->last_draw = -INFINITY;
  p->drawn = 0;
}


void cli_progressUpdate(cliProgress* p, double t) {
  if (!p->enabled) {
    return;
  }
  double now = cli_now();
  if (now - p->last_draw < MIN_INTERVAL) {
    return;
  }
  p->last_draw = now;
  double span = p->t1 - p->t0;
  double frac = span > 0 ? (t - p->t0) / span : 1;
  frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
  double elapsed = now - p->wall0;
  double remaining = frac > 0 ? elapsed * (1 - frac) / frac : NAN;

  char bar[BAR_WIDTH + 1];
  int full = (int)(frac * BAR_WIDTH);
  for (int i = 0; i < BAR_WIDTH; i++) {
    bar[i] = i < full ? '#' : '.';
  }
  bar[BAR_WIDTH] = '\0';
  char el[32], rem[32];
  format_duration(el, sizeof(el), elapsed);
  format_duration(rem, sizeof(rem), remaining);
  // \r and erase to the end of the line, so a shorter line leaves no debris
  fprintf(stderr, "\r\033[K[%s] %3.0f%%  t = %-10.4g elapsed %s  remaining %s", bar, 100 * frac, t,
          el, rem);
  fflush(stderr);
  p->drawn = 1;
}


void cli_progressEnd(cliProgress* p) {
  if (p->enabled && p->drawn) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  p->drawn = 0;
}
