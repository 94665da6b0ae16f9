// SPDX-License-Identifier: MIT
// The quantities of one case: min, max, absmax and final of history columns and joint
// reactions over the samples (the history rows).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/query.h"
#include "src/core/core.h"
#include "src/core/strutil.h"
#include "src/io/history_row.h"
#include "src/io/sweep_impl.h"
#include "src/model/model_impl.h"

// reaction components: force x, y, z, moment x, y, z, then the magnitudes
static const char* const reaction_parts[] = {
    "force_x", "force_y", "force_z", "moment_x", "moment_y", "moment_z", "force", "moment", NULL};

struct rdCollector_ {
  uint32_t magic;
  const rdSweep* sweep;
  const rdModel* model;
  int nq;
  int* column;    // nq: history column, or -1 for a reaction
  int* joint;     // nq: the reaction's joint
  int* part;      // nq: index into reaction_parts
  double* value;  // nq: the quantity so far
  int* bad;       // nq: a sample was not finite
  double* row;    // one history row
  int need_row;
  long nsample;
};


void rd_destroyCollector(rdCollector** c) {
  if (!c || !*c || (*c)->magic != RD_MAGIC_COLLECTOR) {
    return;
  }
  rdCollector* k = *c;
  rdContext* ctx = k->model->ctx;
  rd_free(ctx, k->column);
  rd_free(ctx, k->joint);
  rd_free(ctx, k->part);
  rd_free(ctx, k->value);
  rd_free(ctx, k->bad);
  rd_free(ctx, k->row);
  rd_release(&((rdModel*)k->model)->children);
  rd_release(&((rdSweep*)k->sweep)->children);
  k->magic = RD_MAGIC_DEAD;
  rd_bury(ctx, RD_KIND_SWEEP, k);
  *c = NULL;
}


// "reaction.JOINT.PART" of quantity q
static int find_reaction(rdCollector* c, int q, const char* src) {
  const rdModel* m = c->model;
  const rdSweep* sw = c->sweep;
  const char* name = src + strlen("reaction.");
  const char* dot = strrchr(name, '.');
  int k = 0;
  while (dot && reaction_parts[k] && strcmp(reaction_parts[k], dot + 1)) {
    k++;
  }
  if (!dot || !reaction_parts[k]) {
    return RD_ERROR(m->ctx, RD_ERR_DECK,
                    "%s: quantity '%s': a reaction is reaction.JOINT.PART, PART one of force_x, "
                    "force_y, force_z, moment_x, moment_y, moment_z, force, moment",
                    sw->quantity_at[q], sw->quantity[q]);
  }
  char joint[256];
  snprintf(joint, sizeof(joint), "%.*s", (int)(dot - name), name);
  for (int j = 0; j < m->njoint; j++) {
    if (!strcmp(rd_jointName(m, j), joint)) {
      c->joint[q] = j;
      c->part[q] = k;
      c->column[q] = -1;
      return RD_OK;
    }
  }
  const char* names[256];
  int n = 0;
  for (int j = 0; j < m->njoint && n < 256; j++) {
    names[n++] = rd_jointName(m, j);
  }
  const char* near = rd_closestName(joint, names, n);
  return RD_ERROR(m->ctx, RD_ERR_DECK, "%s: quantity '%s': no joint '%s' in the model%s%s%s",
                  sw->quantity_at[q], sw->quantity[q], joint, near ? " (did you mean '" : "",
                  near ? near : "", near ? "'?)" : "");
}


// a column of history.csv, with a did-you-mean hint from the column names
static int find_column(rdCollector* c, int q, const char* src) {
  const rdModel* m = c->model;
  int ncol = rd_historyColumnCount(m);
  char name[512];
  for (int k = 0; k < ncol; k++) {
    if (rd_historyColumnName(m, k, name, sizeof(name)) == 0 && !strcmp(name, src)) {
      c->column[q] = k;
      c->need_row = 1;
      return RD_OK;
    }
  }
  // closest name: the columns in one buffer
  int best = -1, dist = 1 << 30;
  for (int k = 0; k < ncol; k++) {
    if (rd_historyColumnName(m, k, name, sizeof(name)) == 0) {
      int d = rd_editDistance(src, name);
      if (d < dist) {
        dist = d;
        best = k;
      }
    }
  }
  int close = best >= 0 && (dist <= 2 || 3 * dist <= (int)strlen(src));
  if (close) {
    rd_historyColumnName(m, best, name, sizeof(name));
  }
  return RD_ERROR(m->ctx, RD_ERR_DECK,
                  "%s: quantity '%s': no column '%s' in history.csv (the output nodes' columns, "
                  "energies, momenta; or reaction.JOINT.PART)%s%s%s",
                  c->sweep->quantity_at[q], c->sweep->quantity[q], src,
                  close ? " (did you mean '" : "", close ? name : "", close ? "'?)" : "");
}


int rd_createCollector(const rdSweep* sweep, const rdModel* model, rdCollector** c) {
  if (c) {
    *c = NULL;
  }
  if (!rd_sweepValid(sweep) || !rd_modelValid(model)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = model->ctx;
  if (!c) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_createCollector: NULL collector");
  }
  rdCollector* k = rd_calloc(ctx, 1, sizeof(rdCollector));
  if (!k) {
    return RD_ERR_NOMEM;
  }
  k->magic = RD_MAGIC_COLLECTOR;
  k->sweep = sweep;
  k->model = model;
  // the model and the sweep refuse to be destroyed while the collector is alive
  rd_adopt(&((rdModel*)model)->children);
  rd_adopt(&((rdSweep*)sweep)->children);
  int nq = k->nq = sweep->nquantity;
  size_t n = (size_t)(nq ? nq : 1);
  k->column = rd_calloc(ctx, n, sizeof(int));
  k->joint = rd_calloc(ctx, n, sizeof(int));
  k->part = rd_calloc(ctx, n, sizeof(int));
  k->value = rd_calloc(ctx, n, sizeof(double));
  k->bad = rd_calloc(ctx, n, sizeof(int));
  k->row = rd_calloc(ctx, (size_t)rd_historyColumnCount(model), sizeof(double));
  int st = k->column && k->joint && k->part && k->value && k->bad && k->row ? RD_OK : RD_ERR_NOMEM;
  for (int q = 0; st == RD_OK && q < nq; q++) {
    const char* src = sweep->source[q];
    st = !strncmp(src, "reaction.", 9) ? find_reaction(k, q, src) : find_column(k, q, src);
  }
  if (st != RD_OK) {
    rd_destroyCollector(&k);
    return st;
  }
  *c = k;
  return RD_OK;
}


int rd_collect(rdCollector* c, const rdData* data) {
  if (!c || c->magic != RD_MAGIC_COLLECTOR || !data) {
    return RD_ERR_HANDLE;
  }
  const rdModel* m = c->model;
  if (c->need_row) {
    int st = rd_historyRow(m, data, c->row);
    if (st != RD_OK) {
      return st;
    }
  }
  for (int q = 0; q < c->nq; q++) {
    double x;
    if (c->column[q] >= 0) {
      x = c->row[c->column[q]];
    } else {
      double fm[6];
      int st = rd_getJointReaction(m, data, c->joint[q], fm, fm + 3);
      if (st != RD_OK) {
        return st;
      }
      int p = c->part[q];
      x = p < 6
              ? fm[p]
              : sqrt(fm[3 * (p - 6)] * fm[3 * (p - 6)] + fm[3 * (p - 6) + 1] * fm[3 * (p - 6) + 1] +
                     fm[3 * (p - 6) + 2] * fm[3 * (p - 6) + 2]);
    }
    if (!isfinite(x)) {
      c->bad[q] = 1;
      continue;
    }
    double* v = c->value + q;
    if (c->nsample == 0) {
      *v = x;
      continue;
    }
    switch (c->sweep->op[q]) {
      case RD_SWEEP_MIN:
        *v = x < *v ? x : *v;
        break;
      case RD_SWEEP_MAX:
        *v = x > *v ? x : *v;
        break;
      case RD_SWEEP_ABSMAX:
        *v = fabs(x) > fabs(*v) ? x : *v;
        break;
      case RD_SWEEP_FINAL:
        *v = x;
        break;
    }
  }
  c->nsample++;
  return RD_OK;
}


int rd_collectedValues(const rdCollector* c, double* values) {
  if (!c || c->magic != RD_MAGIC_COLLECTOR || !values) {
    return RD_ERR_HANDLE;
  }
  for (int q = 0; q < c->nq; q++) {
    values[q] = c->nsample && !c->bad[q] ? c->value[q] : NAN;
  }
  return RD_OK;
}


int rd_getCollectorState(const rdCollector* c, double* state) {
  if (!c || c->magic != RD_MAGIC_COLLECTOR || !state) {
    return RD_ERR_HANDLE;
  }
  for (int q = 0; q < c->nq; q++) {
    state[q] = c->nsample ? c->value[q] : 0;
    state[c->nq + q] = c->bad[q] ? 1 : 0;
  }
  state[2 * c->nq] = (double)c->nsample;
  return RD_OK;
}


int rd_setCollectorState(rdCollector* c, const double* state) {
  if (!c || c->magic != RD_MAGIC_COLLECTOR || !state) {
    return RD_ERR_HANDLE;
  }
  double n = state[2 * c->nq];
  if (!(n >= 0 && n < 9e15 && n == floor(n))) {
    return RD_ERROR(c->model->ctx, RD_ERR_ARG, "collector state: %g samples", n);
  }
  for (int q = 0; q < c->nq; q++) {
    double b = state[c->nq + q];
    if ((b != 0 && b != 1) || !isfinite(state[q])) {
      return RD_ERROR(c->model->ctx, RD_ERR_ARG, "collector state: quantity %d is not valid",
                      q + 1);
    }
  }
  for (int q = 0; q < c->nq; q++) {
    c->value[q] = state[q];
    c->bad[q] = state[c->nq + q] != 0;
  }
  c->nsample = (long)n;
  return RD_OK;
}
