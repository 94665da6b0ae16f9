// SPDX-License-Identifier: MIT
// The result of one case of a sweep: DIR/cases/<id>/result.json, written by the case's worker
// and read back by the coordinator (which never writes it).
#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/core/input.h"
#include "src/io/json_write.h"
#include "src/io/sweep_impl.h"

// bytes of a case result file at most (a few numbers and an error text; a larger file is not one)
#define RESULT_MAX_BYTES (1u << 20)

static const char* const state_names[] = {"missing", "ok", "failed", "error", "crashed", "stale"};


const char* rd_caseStateName(rdCaseState state) {
  return state >= RD_CASE_MISSING && state <= RD_CASE_STALE ? state_names[state] : "unknown";
}


int rd_writeCaseResult(const rdSweep* sw, int i, const rdCaseResult* r, const char* path) {
  if (!rd_sweepValid(sw)) {
    return RD_ERR_HANDLE;
  }
  if (i < 0 || i >= sw->ncase || !r || !path || (sw->nquantity && !r->values)) {
    return RD_ERROR(sw->ctx, RD_ERR_ARG, "rd_writeCaseResult: invalid argument");
  }
  char* tmp = NULL;
  FILE* f = rd_atomicOpen(sw->ctx, path, &tmp);
  if (!f) {
    return rd_lastStatus(sw->ctx);
  }
  fputs("{\n  \"id\": ", f);
  rd_jsonString(f, sw->id[i]);
  fputs(",\n  \"fingerprint\": ", f);
  rd_jsonString(f, sw->fingerprint[i]);
  fputs(",\n  \"state\": ", f);
  rd_jsonString(f, rd_caseStateName(r->state));
  fprintf(f, ",\n  \"exit_code\": %d,\n  \"wall_time\": ", r->exit_code);
  rd_jsonNumber(f, r->wall_time);
  fprintf(f, ",\n  \"steps\": %ld,\n  \"rejected_steps\": %ld,\n  \"quantities\": {", r->steps,
          r->rejected_steps);
  for (int q = 0; q < sw->nquantity; q++) {
    fputs(q ? ",\n    " : "\n    ", f);
    rd_jsonString(f, sw->quantity[q]);
    fputs(": ", f);
    rd_jsonNumber(f, r->values[q]);
  }
  fputs(sw->nquantity ? "\n  },\n  \"error\": " : "},\n  \"error\": ", f);
  rd_jsonString(f, r->error);
  fputs("\n}\n", f);
  int st = rd_atomicCommit(sw->ctx, f, tmp, path, 0);
  rd_free(sw->ctx, tmp);
  return st;
}

// ---------------------------------------------------------------------------------------------
// reading

static const char* text_of(struct fy_node* map, const char* key) {
  struct fy_node* v = fy_node_mapping_lookup_by_string(map, key, FY_NT);
  return v && fy_node_is_scalar(v) ? fy_node_get_scalar0(v) : NULL;
}


// a number; null is NaN; 0 on success
static int number_of(struct fy_node* map, const char* key, double* x) {
  const char* s = text_of(map, key);
  if (!s) {
    return -1;
  }
  if (!strcmp(s, "null")) {
    *x = NAN;
    return 0;
  }
  char* end;
  errno = 0;
  *x = strtod(s, &end);
  return *s && !*end && !errno ? 0 : -1;
}


static void reset(const rdSweep* sw, rdCaseResult* r, rdCaseState state) {
  r->state = state;
  r->exit_code = RD_OK;
  r->wall_time = NAN;
  r->steps = r->rejected_steps = 0;
  for (int q = 0; q < sw->nquantity; q++) {
    r->values[q] = NAN;
  }
  r->error[0] = '\0';
}


// fill r from the parsed document; 0, or -1 if it is not a result of this sweep's form
static int from_document(const rdSweep* sw, int i, struct fy_node* root, rdCaseResult* r) {
  if (!root || !fy_node_is_mapping(root)) {
    return -1;
  }
  const char* id = text_of(root, "id");
  const char* fp = text_of(root, "fingerprint");
  const char* state = text_of(root, "state");
  const char* error = text_of(root, "error");
  double exit_code, wall, steps, rejected;
  if (!id || !fp || !state || !error || number_of(root, "exit_code", &exit_code) ||
      number_of(root, "wall_time", &wall) || number_of(root, "steps", &steps) ||
      number_of(root, "rejected_steps", &rejected)) {
    return -1;
  }
  if (strcmp(id, sw->id[i]) || strcmp(fp, sw->fingerprint[i])) {
    reset(sw, r, RD_CASE_STALE);
    snprintf(r->error, sizeof(r->error), "a result of other inputs (fingerprint %s, now %s)", fp,
             sw->fingerprint[i]);
    return 0;
  }
  int k = RD_CASE_OK;
  while (k <= RD_CASE_CRASHED && strcmp(state_names[k], state)) {
    k++;
  }
  if (k > RD_CASE_CRASHED) {
    return -1;
  }
  struct fy_node* qs = fy_node_mapping_lookup_by_string(root, "quantities", FY_NT);
  for (int q = 0; q < sw->nquantity; q++) {
    if (!qs || number_of(qs, sw->quantity[q], r->values + q)) {
      return -1;
    }
  }
  r->state = (rdCaseState)k;
  r->exit_code = (int)exit_code;
  r->wall_time = wall;
  r->steps = (long)steps;
  r->rejected_steps = (long)rejected;
  snprintf(r->error, sizeof(r->error), "%s", error);
  return 0;
}


int rd_readCaseResult(const rdSweep* sw, int i, const char* path, rdCaseResult* r) {
  if (!rd_sweepValid(sw)) {
    return RD_ERR_HANDLE;
  }
  if (i < 0 || i >= sw->ncase || !r || !path || (sw->nquantity && !r->values)) {
    return RD_ERROR(sw->ctx, RD_ERR_ARG, "rd_readCaseResult: invalid argument");
  }
  reset(sw, r, RD_CASE_MISSING);
  FILE* f = fopen(path, "rb");
  if (!f) {
    if (errno != ENOENT) {
      snprintf(r->error, sizeof(r->error), "cannot read '%s': %s", path, strerror(errno));
    }
    return RD_OK;
  }
  fclose(f);
  // read whole and checked before the parser sees it, as decks are
  char* text = NULL;
  size_t len = 0;
  int too_large = 0;
  int st = rd_readInput(sw->ctx, path, RESULT_MAX_BYTES, 1, &text, &len, &too_large);
  if (st == RD_ERR_NOMEM) {
    return st;
  }
  if (st != RD_OK || too_large || rd_textCheck(text, len, NULL, NULL, NULL) != len) {
    rd_free(sw->ctx, text);
    snprintf(r->error, sizeof(r->error), "'%s' is not a case result", path);
    return RD_OK;
  }
  struct fy_diag_cfg dcfg;
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = NULL;
  dcfg.level = FYET_ERROR;
  struct fy_diag* diag = fy_diag_create(&dcfg);
  if (!diag) {
    rd_free(sw->ctx, text);
    return RD_ERROR(sw->ctx, RD_ERR_NOMEM, "cannot create a YAML diagnostic object");
  }
  struct fy_parse_cfg cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.flags = FYPCF_QUIET | FYPCF_JSON_FORCE;
  cfg.diag = diag;
  struct fy_document* doc = fy_document_build_from_string(&cfg, text, len);
  int ok = doc && from_document(sw, i, fy_document_root(doc), r) == 0;
  if (!ok) {
    reset(sw, r, RD_CASE_MISSING);
    snprintf(r->error, sizeof(r->error), "'%s' is not a case result", path);
  }
  if (doc) {
    fy_document_destroy(doc);
  }
  fy_diag_destroy(diag);
  rd_free(sw->ctx, text);
  return RD_OK;
}
