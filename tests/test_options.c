// SPDX-License-Identifier: MIT
// Tests of the option table (src/model/options.c): index and value names, and renamed keys
// (solver.rigid_tol -> solver.rigid_tolerance) read through rds_setOption, the deck and --set
// with one warning per context, located in the deck.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "src/model/options.h"
#include "tests/test_macros.h"

// the warnings a context passed on
typedef struct {
  int count;
  char last[1024];
} warnings;


static void on_warning(const char* message, void* user) {
  warnings* w = user;
  w->count++;
  snprintf(w->last, sizeof(w->last), "%s", message);
}


static int starts_with(const char* s, const char* prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}


// the table's own lookups: index in rd_optionList order, names of enumerated values
static void test_table(void) {
  int n = rd_optionList(0, NULL, NULL, NULL, NULL);
  for (int i = 0; i < n; i++) {
    const char* key = NULL;
    rd_optionList(i, &key, NULL, NULL, NULL);
    CHECK(rd_optionIndex(key) == i);
    CHECK(strcmp(key, "solver.rigid_tol") != 0);  // only the new name is listed
  }
  CHECK(rd_optionIndex("solver.no_such_key") == -1);
  CHECK(rd_optionIndex(NULL) == -1);
  CHECK(rd_optionIndex("solver.rigid_tolerance") >= 0);
  CHECK(!strcmp(rd_optionValueName("solver.linear_solver", RD_LINSOL_KLU), "klu"));
  CHECK(!strcmp(rd_optionValueName("solver.linear_solver", RD_LINSOL_DENSE), "dense"));
  CHECK(!strcmp(rd_optionValueName("solver.method", RD_METHOD_NMB), "nmb"));
  CHECK(!strcmp(rd_optionValueName("output.vtk", 1), "true"));
  CHECK(rd_optionValueName("solver.linear_solver", RD_LINSOL_DENSE + 1) == NULL);
  CHECK(rd_optionValueName("solver.linear_solver", -1) == NULL);
  CHECK(rd_optionValueName("solver.time_step", 0) == NULL);  // not an enumeration
  CHECK(rd_optionValueName("solver.no_such_key", 0) == NULL);
  const char *old = NULL, *key = NULL;
  CHECK(rd_optionDeprecated(0, &old, &key) == 1);
  CHECK(old && !strcmp(old, "solver.rigid_tol") && key && !strcmp(key, "solver.rigid_tolerance"));
}


// rds_setOption / rds_getOption with the old key: the value lands in the new one; one warning
static void test_api(void) {
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  warnings w = {0, ""};
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  CHECK(rd_setWarningHandler(ctx, on_warning, &w) == RD_OK);
  CHECK(rd_setWarningHandler(NULL, on_warning, &w) == RD_ERR_HANDLE);
  CHECK(rd_createSpec(ctx, &spec) == RD_OK);
  char buf[64];
  CHECK(rds_setOption(spec, "solver.rigid_tol", "1e-10") == RD_OK);
  CHECK(w.count == 1);
  CHECK_MSG(!strcmp(w.last,
                    "option 'solver.rigid_tol' is deprecated: use "
                    "'solver.rigid_tolerance' (the old name is read for one more release)"),
            "%s", w.last);
  CHECK(rds_getOption(spec, "solver.rigid_tolerance", buf, sizeof(buf)) == RD_OK);
  CHECK(atof(buf) == 1e-10);
  // once per context: neither a second set nor a read by the old name warns again
  CHECK(rds_setOptionReal(spec, "solver.rigid_tol", 2e-10) == RD_OK);
  CHECK(rds_getOption(spec, "solver.rigid_tol", buf, sizeof(buf)) == RD_OK);
  CHECK(atof(buf) == 2e-10);
  CHECK(w.count == 1);
  // the new name never warns; a misspelling is still an error that suggests the new name
  CHECK(rds_setOption(spec, "solver.rigid_tolerance", "3e-10") == RD_OK);
  CHECK(rds_setOption(spec, "solver.rigid_tolerence", "3e-10") == RD_ERR_ARG);
  CHECK_MSG(strstr(rd_lastError(ctx), "did you mean 'solver.rigid_tolerance'"), "%s",
            rd_lastError(ctx));
  // the range check of the new key applies to the old name
  CHECK(rds_setOption(spec, "solver.rigid_tol", "0.5") == RD_ERR_ARG);
  CHECK_MSG(strstr(rd_lastError(ctx), "solver.rigid_tolerance must be"), "%s", rd_lastError(ctx));
  CHECK(w.count == 1);
  rd_destroySpec(&spec);
  rd_destroyContext(&ctx);

  // without a handler the warning is dropped, the value still set
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  CHECK(rd_createSpec(ctx, &spec) == RD_OK);
  CHECK(rds_setOption(spec, "solver.rigid_tol", "1e-9") == RD_OK);
  CHECK(rds_getOption(spec, "solver.rigid_tolerance", buf, sizeof(buf)) == RD_OK);
  CHECK(atof(buf) == 1e-9);
  rd_destroySpec(&spec);
  rd_destroyContext(&ctx);
}


static const char deck_text[] =
    "title: renamed option\n"
    "solver:\n"
    "  method: nmb\n"
    "  time_step: 0.01\n"
    "  final_time: 0.02\n"
    "  rigid_tol: 1e-12\n"
    "nodes:\n"
    "  - name: a\n"
    "elements:\n"
    "  - {name: b, type: rigid_body, node: a, mass: 1, inertia: [[1, 0, 0], [0, 2, 0], [0, 0, "
    "3]]}\n";


// read `text` as a deck with overrides; the compiled model's rigid tolerance, the warnings in w
static double read_deck(const char* text, const char* const* set, int nset, warnings* w,
                        char* path) {
  strcpy(path, "/tmp/rd_test_options_XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE* f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    return NAN;
  }
  fputs(text, f);
  fclose(f);
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  rdModel* model = NULL;
  double tol = NAN;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  rd_setWarningHandler(ctx, on_warning, w);
  int st = rd_readDeck(ctx, path, set, nset, &spec);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st == RD_OK && rd_compile(spec, &model) == RD_OK) {
    tol = rd_getOptionReal(model, "solver.rigid_tolerance");
    // the old name reads too, and warns only if this context has not warned yet
    int seen = w->count;
    CHECK(rd_getOptionReal(model, "solver.rigid_tol") == tol);
    CHECK(w->count == (seen ? seen : 1));
    w->count = seen;
  }
  rd_destroyModel(&model);
  rd_destroySpec(&spec);
  rd_destroyContext(&ctx);
  remove(path);
  return tol;
}


// the deck and --set: the warning names the place of the old key
static void test_deck(void) {
  char path[64], where[128];
  warnings w = {0, ""};
  CHECK(read_deck(deck_text, NULL, 0, &w, path) == 1e-12);
  snprintf(where, sizeof(where), "%s:6:3: option 'solver.rigid_tol' is deprecated", path);
  CHECK_MSG(w.count == 1 && starts_with(w.last, where), "%d: %s", w.count, w.last);

  // an override of the old key in the deck: the key is still the deck's
  const char* set[] = {"solver.rigid_tol=1e-11"};
  w.count = 0;
  CHECK(read_deck(deck_text, set, 1, &w, path) == 1e-11);
  snprintf(where, sizeof(where), "%s:6:3: option", path);
  CHECK_MSG(w.count == 1 && starts_with(w.last, where), "%d: %s", w.count, w.last);

  // the old key given only by --set: the warning names the override
  char text[sizeof(deck_text)];
  strcpy(text, deck_text);
  const char* old_line = "  rigid_tol: 1e-12\n";
  char* line = strstr(text, old_line);
  memmove(line, line + strlen(old_line), strlen(line + strlen(old_line)) + 1);
  w.count = 0;
  CHECK(read_deck(text, set, 1, &w, path) == 1e-11);
  CHECK_MSG(
      w.count == 1 && starts_with(w.last,
                                  "--set solver.rigid_tol=1e-11: option 'solver.rigid_tol' is "
                                  "deprecated: use 'solver.rigid_tolerance'"),
      "%d: %s", w.count, w.last);

  // the new key: no warning
  const char* set_new[] = {"solver.rigid_tolerance=1e-13"};
  w.count = 0;
  CHECK(read_deck(text, set_new, 1, &w, path) == 1e-13);
  CHECK_MSG(w.count == 0, "%d: %s", w.count, w.last);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_table());
  TEST_CASE(test_api());
  TEST_CASE(test_deck());
  return TEST_SUMMARY();
}
