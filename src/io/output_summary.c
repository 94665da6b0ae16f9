// SPDX-License-Identifier: MIT
// The summary writer: summary.json (final node states, counts, statistics), written atomically.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/output.h"
#include "solver/redundant.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/io/json_write.h"
#include "src/model/data_impl.h"

// per-node fields, in the order of rd_getNodeState's outputs (as in history.csv)
static const char* const node_fields[16] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz", "vx",
                                            "vy", "vz", "wx", "wy", "wz", "Wx", "Wy", "Wz"};


static void write_body(FILE* f, const rdModel* m, const rdData* d, const rdRunStatus* run) {
  rdStats st = d->stats;
  double wall_time = run->wall_time;
  double ke = 0, pe = 0;
  (void)rd_getEnergy(m, d, &ke, &pe);

  fputs("{\n", f);
  rd_jsonKey(f, 2, "version");
  rd_jsonString(f, rd_version());
  fputs(",\n", f);
  rd_jsonKey(f, 2, "status");
  rd_jsonString(f, run->status ? run->status : "ok");
  fputs(",\n", f);
  if (run->error) {
    rd_jsonKey(f, 2, "error");
    rd_jsonString(f, run->error);
    fputs(",\n", f);
  }
  if (run->rows >= 0) {
    fprintf(f, "  \"history_rows\": %ld,\n", run->rows);
  }
  rd_jsonKey(f, 2, "method");
  rd_jsonString(f, rd_methodName(m->opt.method));
  fputs(",\n", f);
  rdModelInfo info;
  if (rd_modelInfo(m, &info) != RD_OK) {
    memset(&info, 0, sizeof(info));
  } else if (info.linear_solver) {
    rd_jsonKey(f, 2, "linear_solver");
    rd_jsonString(f, info.linear_solver);
    fputs(",\n", f);
  }
  rd_jsonKey(f, 2, "time");
  rd_jsonNumber(f, d->s.t);
  fputs(",\n", f);
  // what the caller should know: a fixed-step run whose error estimates passed the tolerance
  fputs("  \"warnings\": [", f);
  if (!m->opt.adaptive && st.error_estimate > m->opt.tolerance) {
    char w[320];
    snprintf(w, sizeof(w),
             "the local error estimates add up to %.3g (m, rad), above solver.tolerance = %g: "
             "the step is too large for that accuracy (set a smaller solver.time_step, or "
             "solver.adaptive: true)",
             st.error_estimate, m->opt.tolerance);
    rd_jsonString(f, w);
  }
  fputs("],\n", f);

  // elements of every kind; beams and user elements also on their own
  fprintf(f,
          "  \"counts\": {\"nodes\": %d, \"elements\": %d, \"beams\": %d, \"user_elements\": %d, "
          "\"joints\": %d, \"dofs\": %d, \"constraints\": %d},\n",
          m->nnode, m->nelem + m->nbeam + m->nuser, m->nbeam, m->nuser, m->njoint, m->ndof,
          m->nconstraint);

  // the partition of mixed stepping (docs/mixed.md); absent for a monolithic model
  if (info.nsubsystem > 0) {
    fputs("  \"subsystems\": [", f);
    for (int k = 0; k < info.nsubsystem; k++) {
      rdSubsystemInfo si;
      if (rd_subsystemInfo(m, k, &si) != RD_OK) {
        continue;
      }
      fputs(k ? ", {\"name\": " : "{\"name\": ", f);
      rd_jsonString(f, si.name);
      fputs(", \"method\": ", f);
      rd_jsonString(f, rd_methodName(si.method));
      fprintf(f, ", \"substeps\": %d, \"bodies\": [", si.substeps);
      for (int i = 0; i < si.nbody; i++) {
        fputs(i ? ", " : "", f);
        rd_jsonString(f, rd_nodeName(m, rd_subsystemBody(m, k, i)));
      }
      fputs("]}", f);
    }
    fputs("],\n", f);
  }

  // redundant constraint equations removed (as chosen for the last step), equations from 1
  fputs("  \"removed_constraints\": [", f);
  for (int j = 0, n = 0; j < m->njoint; j++) {
    for (int k = 0; k < m->joint[j].nrow; k++) {
      if (rd_redundantRemoved(m, d, m->joint[j].row + k)) {
        fputs(n++ ? ", {\"joint\": " : "{\"joint\": ", f);
        rd_jsonString(f, m->joint[j].def.name);
        fprintf(f, ", \"equation\": %d}", k + 1);
      }
    }
  }
  fputs("],\n", f);

  fprintf(f,
          "  \"statistics\": {\n    \"steps\": %ld,\n    \"rejected_steps\": %ld,\n"
          "    \"newton_iterations\": %ld,\n    \"factorizations\": %ld,\n"
          "    \"load_evaluations\": %ld,\n    \"redundant_constraints\": %d,\n"
          "    \"unchecked_constraints\": %d,\n",
          st.steps, st.rejected_steps, st.newton_iterations, st.factorizations, st.load_evaluations,
          st.redundant_constraints, st.unchecked_constraints);
  // mixed stepping: the rigid sub-steps' inner iterations, apart from generalized-alpha's
  if (info.nsubsystem > 0) {
    fprintf(f, "    \"substep_iterations\": %ld,\n", st.substep_iterations);
  }
  rd_jsonKey(f, 4, "min_step");
  rd_jsonNumber(f, st.min_step);
  fputs(",\n", f);
  fprintf(f, "    \"max_newton_iterations\": %d,\n", st.max_newton_iterations);
  rd_jsonKey(f, 4, "max_step");
  rd_jsonNumber(f, st.steps > 0 ? st.max_step : 0);
  fputs(",\n", f);
  // the local error estimates (m, rad): their sum estimates the global error
  rd_jsonKey(f, 4, "error_estimate");
  rd_jsonNumber(f, st.error_estimate);
  fputs(",\n", f);
  rd_jsonKey(f, 4, "max_local_error");
  rd_jsonNumber(f, st.max_local_error);
  fprintf(f, ",\n    \"error_rejections\": %ld,\n", st.error_rejections);
  rd_jsonKey(f, 4, "wall_time");
  rd_jsonNumber(f, wall_time);
  // the first rejected steps: when, how large, why
  fputs(",\n    \"step_cuts\": [", f);
  for (int i = 0; i < d->ncut; i++) {
    const rdStepCut* c = &d->cut[i];
    fputs(i ? ",\n      {\"t\": " : "\n      {\"t\": ", f);
    rd_jsonNumber(f, c->t);
    fputs(", \"h\": ", f);
    rd_jsonNumber(f, c->h);
    fputs(", \"status\": ", f);
    rd_jsonString(f, rd_statusName(c->status));
    fputs(", \"reason\": ", f);
    rd_jsonString(f, c->reason);
    fputc('}', f);
  }
  fputs(d->ncut ? "\n    ]" : "]", f);
  if (st.rejected_steps > d->ncut) {
    fprintf(f, ",\n    \"step_cuts_not_listed\": %ld", st.rejected_steps - d->ncut);
  }
  fputs("\n  },\n", f);

  fputs("  \"energy\": {\"kinetic\": ", f);
  rd_jsonNumber(f, ke);
  fputs(", \"potential\": ", f);
  rd_jsonNumber(f, pe);
  fputs(", \"total\": ", f);
  rd_jsonNumber(f, ke + pe);
  fputs("},\n", f);

  fputs("  \"nodes\": {", f);
  for (int i = 0; i < m->nnode; i++) {
    double s[16];
    (void)rd_getNodeState(m, d, i, s, s + 3, s + 7, s + 10, s + 13);
    fputs(i ? ",\n" : "\n", f);
    rd_jsonKey(f, 4, m->node_name[i]);
    fputc('{', f);
    for (int c = 0; c < 16; c++) {
      fprintf(f, "%s\"%s\": ", c ? ", " : "", node_fields[c]);
      rd_jsonNumber(f, s[c]);
    }
    fputc('}', f);
  }
  fputs(m->nnode ? "\n  }\n}\n" : "}\n}\n", f);
}


int rd_writeSummary(const rdModel* m, const rdData* d, const char* path, double wall_time) {
  rdRunStatus run = {"ok", NULL, -1, wall_time};
  return rd_writeSummaryStatus(m, d, path, &run);
}


int rd_writeSummaryStatus(const rdModel* m, const rdData* d, const char* path,
                          const rdRunStatus* run) {
  if (!rd_modelValid(m) || !rd_dataValid(d)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = m->ctx;
  if (d->model != m) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeSummary: data was made from another model");
  }
  if (!path || !*path || !run) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeSummary: no %s", run ? "file name" : "status");
  }

  char* tmp = NULL;
  FILE* f = rd_atomicOpen(ctx, path, &tmp);
  if (!f) {
    return rd_lastStatus(ctx);
  }
  errno = 0;
  write_body(f, m, d, run);
  int st = rd_atomicCommit(ctx, f, tmp, path, 0);
  rd_free(ctx, tmp);
  return st;
}
