// SPDX-License-Identifier: MIT
// Sweep files: the base deck, the overrides of every case (set, with templates of the
// parameters), the grid and the explicit cases expanded into cases with ids and fingerprints,
// and the quantities to collect.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/deck.h"
#include "src/core/core.h"
#include "src/core/expr.h"
#include "src/core/strutil.h"
#include "src/io/deck_impl.h"
#include "src/io/sweep_impl.h"

// the readable part of an id is cut at this length (a hash then tells the cases apart)
#define MAX_ID 80
// more cases than this is a mistake in the grid, not a sweep
#define MAX_CASES 10000000L

static const char* const top_keys[] = {"deck",  "set",     "parameters", "grid",
                                       "cases", "collect", NULL};
static const char* const op_names[] = {"min", "max", "absmax", "final", NULL};

// a piece of a template: literal text, then a formula (or nothing)
typedef struct {
  const char* text;  // literal, not terminated: `len` bytes
  size_t len;
  char* formula;  // the text between ${ and }, NULL after the last literal
  int param;      // the formula is exactly parameter `param` (its text is put in), else -1
  rdExpr expr;    // the compiled formula (param < 0)
  int compiled;
} piece;

// one entry of `set`
typedef struct {
  const char* key;
  char* text;     // the value's YAML text (not a template)
  piece* pieces;  // a template's pieces, NULL if not a template
  int npiece;
  struct fy_node* at;
} setEntry;

// reading state
typedef struct {
  rdDeck dk;  // the sweep file's document; its errors are located in it
  rdSweep* sw;
  setEntry* set;
  int nset;
  const char** param;  // parameter names (point into the document)
  int nparam;
  char* varlist;  // the parameter names, space-separated, for the formulas
  uint64_t deck_hash;
} reader;

// ---------------------------------------------------------------------------------------------
// memory: everything the sweep holds is registered and freed together

static void* own(rdSweep* sw, void* p) {
  if (!p) {
    return NULL;
  }
  if (sw->nowned == sw->cowned) {
    int cap = sw->cowned ? 2 * sw->cowned : 64;
    void** grown = rd_alloc(sw->ctx, sizeof(void*) * (size_t)cap);
    if (!grown) {
      rd_free(sw->ctx, p);
      return NULL;
    }
    if (sw->nowned) {
      memcpy(grown, sw->owned, sizeof(void*) * (size_t)sw->nowned);
    }
    rd_free(sw->ctx, sw->owned);
    sw->owned = grown;
    sw->cowned = cap;
  }
  sw->owned[sw->nowned++] = p;
  return p;
}


static void* zalloc(rdSweep* sw, size_t count, size_t size) {
  return own(sw, rd_calloc(sw->ctx, count ? count : 1, size));
}


static char* sdup(rdSweep* sw, const char* s) {
  return own(sw, rd_strdup(sw->ctx, s));
}


int rd_sweepValid(const rdSweep* s) {
  return s && s->magic == RD_MAGIC_SWEEP;
}


void rd_destroySweep(rdSweep** sweep) {
  if (!sweep || !*sweep || !rd_sweepValid(*sweep)) {
    return;
  }
  rdSweep* sw = *sweep;
  rdContext* ctx = sw->ctx;
  // a collector keeps a pointer to its sweep
  int live = atomic_load(&sw->children);
  if (live > 0) {
    RD_ERROR(ctx, RD_ERR_STATE,
             "rd_destroySweep: %d collector%s of this sweep %s not destroyed; destroy them first "
             "(the sweep is kept)",
             live, live > 1 ? "s" : "", live > 1 ? "are" : "is");
    return;
  }
  for (int i = 0; i < sw->nowned; i++) {
    rd_free(ctx, sw->owned[i]);
  }
  rd_free(ctx, sw->owned);
  sw->magic = RD_MAGIC_DEAD;
  rd_release(&ctx->children);
  rd_bury(ctx, RD_KIND_SWEEP, sw);
  *sweep = NULL;
}

// ---------------------------------------------------------------------------------------------
// hashing (FNV-1a, 64 bits)

static uint64_t fnv(uint64_t h, const void* data, size_t n) {
  const unsigned char* p = data;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ p[i]) * 1099511628211ull;
  }
  return h;
}

#define FNV_START 14695981039346656037ull


// the hash of a file's bytes; RD_ERR_IO if it cannot be read
static int hash_file(rdContext* ctx, const char* path, uint64_t* h) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    return RD_ERROR(ctx, RD_ERR_IO, "cannot read the deck '%s': %s", path, strerror(errno));
  }
  unsigned char buf[8192];
  size_t n;
  *h = FNV_START;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
    *h = fnv(*h, buf, n);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    return RD_ERROR(ctx, RD_ERR_IO, "cannot read the deck '%s'", path);
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// values

// the YAML text of a value node, on one line ("1e-3", "[0, 1, 0]", "\"a: b\"")
static char* value_text(rdSweep* sw, struct fy_node* v) {
  if (fy_node_is_scalar(v) && fy_node_get_style(v) == FYNS_PLAIN) {
    return sdup(sw, fy_node_get_scalar0(v));
  }
  char* s = fy_emit_node_to_string(
      v, (enum fy_emitter_cfg_flags)(FYECF_MODE_FLOW_ONELINE | FYECF_WIDTH_INF |
                                     FYECF_NO_ENDING_NEWLINE));
  if (!s) {
    RD_ERROR(sw->ctx, RD_ERR_NOMEM, "cannot write a YAML value");
    return NULL;
  }
  char* out = sdup(sw, s);
  free(s);
  return out;
}


// a value of the grid or of a case: a scalar or a list, not a mapping nor nothing
static int check_value(reader* r, struct fy_node* v, const char* var) {
  if (rd_deckIsNull(v)) {
    return rd_deckError(&r->dk, v, "'%s' has no value", var);
  }
  if (fy_node_is_mapping(v)) {
    return rd_deckError(&r->dk, v, "a value of '%s' must be a scalar or a list", var);
  }
  return RD_OK;
}


// the shortest of %.15g .. %.17g that reads back as x
static void format_real(char* buf, size_t size, double x) {
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(buf, size, "%.*g", digits, x);
    if (strtod(buf, NULL) == x) {
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// the sections

static int is_identifier(const char* s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) {
    return 0;
  }
  for (s++; *s; s++) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_')) {
      return 0;
    }
  }
  return 1;
}


static int param_index(const reader* r, const char* name) {
  for (int k = 0; k < r->nparam; k++) {
    if (!strcmp(r->param[k], name)) {
      return k;
    }
  }
  return -1;
}


static int read_parameters(reader* r, struct fy_node* root) {
  struct fy_node* seq = NULL;
  int st = rd_deckList(&r->dk, root, "parameters", &seq);
  if (st < 0 || !seq) {
    return st < 0 ? st : RD_OK;
  }
  int n = fy_node_sequence_item_count(seq);
  if (n > RD_EXPR_MAXVAR) {
    return rd_deckError(&r->dk, seq, "at most %d parameters, got %d", RD_EXPR_MAXVAR, n);
  }
  r->param = zalloc(r->sw, (size_t)n, sizeof(char*));
  r->varlist = zalloc(r->sw, 1, (size_t)n * 64 + 1);
  if (!r->param || !r->varlist) {
    return RD_ERR_NOMEM;
  }
  void* it = NULL;
  struct fy_node* item;
  while ((item = fy_node_sequence_iterate(seq, &it))) {
    const char* name =
        fy_node_is_scalar(item) && !rd_deckIsNull(item) ? fy_node_get_scalar0(item) : NULL;
    if (!name || !is_identifier(name) || strlen(name) > 63) {
      return rd_deckError(&r->dk, item,
                          "a parameter must be a name (letters, digits, '_'; not a deck path)");
    }
    if (param_index(r, name) >= 0) {
      return rd_deckError(&r->dk, item, "parameter '%s' is listed twice", name);
    }
    if (r->nparam) {
      strcat(r->varlist, " ");
    }
    strcat(r->varlist, name);
    r->param[r->nparam++] = name;
  }
  return RD_OK;
}


// split a template into pieces and compile its formulas
static int parse_template(reader* r, setEntry* e, const char* text) {
  int n = 1;
  for (const char* p = strstr(text, "${"); p; p = strstr(p + 2, "${")) {
    n++;
  }
  e->pieces = zalloc(r->sw, (size_t)n, sizeof(piece));
  if (!e->pieces) {
    return RD_ERR_NOMEM;
  }
  const char* p = text;
  for (;;) {
    piece* pc = e->pieces + e->npiece++;
    pc->param = -1;
    const char* open = strstr(p, "${");
    pc->text = p;
    pc->len = open ? (size_t)(open - p) : strlen(p);
    if (!open) {
      return RD_OK;
    }
    const char* close = strchr(open + 2, '}');
    if (!close) {
      return rd_deckError(&r->dk, e->at, "set '%s': '${' without its '}'", e->key);
    }
    size_t len = (size_t)(close - open - 2);
    pc->formula = zalloc(r->sw, 1, len + 1);
    if (!pc->formula) {
      return RD_ERR_NOMEM;
    }
    memcpy(pc->formula, open + 2, len);
    // trimmed, the formula may be just a parameter's name
    char name[64];
    const char* a = pc->formula;
    while (*a == ' ') {
      a++;
    }
    size_t m = strlen(a);
    while (m && a[m - 1] == ' ') {
      m--;
    }
    if (m > 0 && m < sizeof(name)) {
      memcpy(name, a, m);
      name[m] = '\0';
      pc->param = param_index(r, name);
    }
    if (pc->param < 0) {
      char owner[256];
      snprintf(owner, sizeof(owner), "set '%s'", e->key);
      int st =
          rd_exprCreate(r->dk.ctx, &pc->expr, pc->formula, r->varlist ? r->varlist : "", owner);
      if (st != RD_OK) {
        return rd_deckRelay(&r->dk, e->at, st);
      }
      pc->compiled = 1;
    }
    p = close + 1;
  }
}


static int read_set(reader* r, struct fy_node* root) {
  struct fy_node* map = rd_deckLookup(root, "set", NULL);
  if (rd_deckIsNull(map)) {
    return RD_OK;
  }
  if (!fy_node_is_mapping(map)) {
    return rd_deckError(&r->dk, map, "'set' must be a mapping of deck paths to values");
  }
  int n = fy_node_mapping_item_count(map);
  r->set = zalloc(r->sw, (size_t)n, sizeof(setEntry));
  if (!r->set) {
    return RD_ERR_NOMEM;
  }
  void* it = NULL;
  struct fy_node_pair* p;
  while ((p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node* k = fy_node_pair_key(p);
    struct fy_node* v = fy_node_pair_value(p);
    if (!fy_node_is_scalar(k) || rd_deckIsNull(k)) {
      return rd_deckError(&r->dk, k ? k : map, "keys of 'set' must be deck paths");
    }
    setEntry* e = r->set + r->nset++;
    e->key = fy_node_get_scalar0(k);
    e->at = v ? v : k;
    int st = check_value(r, v, e->key);
    if (st != RD_OK) {
      return st;
    }
    if (fy_node_is_scalar(v) && strstr(fy_node_get_scalar0(v), "${")) {
      st = parse_template(r, e, fy_node_get_scalar0(v));
    } else {
      e->text = value_text(r->sw, v);
      st = e->text ? RD_OK : RD_ERR_NOMEM;
    }
    if (st != RD_OK) {
      return st;
    }
  }
  return RD_OK;
}


// the variable `name` (its key node k), added if new
static int variable(reader* r, struct fy_node* k, int* index) {
  rdSweep* sw = r->sw;
  if (!fy_node_is_scalar(k) || rd_deckIsNull(k)) {
    return rd_deckError(&r->dk, k, "a variable must be a deck path or a parameter name");
  }
  const char* name = fy_node_get_scalar0(k);
  for (int v = 0; v < sw->nvar; v++) {
    if (!strcmp(sw->var[v], name)) {
      *index = v;
      return RD_OK;
    }
  }
  char where[1024];
  rd_deckWhere(&r->dk, k, where, sizeof(where));
  int v = sw->nvar;
  sw->var[v] = sdup(sw, name);
  sw->var_at[v] = sdup(sw, where);
  if (!sw->var[v] || !sw->var_at[v]) {
    return RD_ERR_NOMEM;
  }
  sw->is_param[v] = param_index(r, name) >= 0;
  for (int s = 0; s < r->nset; s++) {
    if (!strcmp(r->set[s].key, name)) {
      return rd_deckError(&r->dk, k, "'%s' is in 'set' too (a variable takes its values here)",
                          name);
    }
  }
  sw->nvar++;
  *index = v;
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// the cases

// count the grid's cases and the variables (an upper bound) before anything is allocated
static int count_cases(reader* r, struct fy_node* grid, struct fy_node* cases, long* ncase,
                       int* maxvar) {
  long ngrid = 1;
  int nvar = 0;
  if (!rd_deckIsNull(grid)) {
    if (!fy_node_is_mapping(grid)) {
      return rd_deckError(&r->dk, grid, "'grid' must be a mapping of variables to lists of values");
    }
    void* it = NULL;
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(grid, &it))) {
      struct fy_node* v = fy_node_pair_value(p);
      const char* name =
          fy_node_is_scalar(fy_node_pair_key(p)) ? fy_node_get_scalar0(fy_node_pair_key(p)) : "?";
      if (!v || !fy_node_is_sequence(v) || fy_node_sequence_item_count(v) == 0) {
        return rd_deckError(&r->dk, v ? v : fy_node_pair_key(p),
                            "grid '%s' must be a list of one or more values", name);
      }
      ngrid *= fy_node_sequence_item_count(v);
      if (ngrid > MAX_CASES) {
        return rd_deckError(&r->dk, v, "the grid has more than %ld cases", MAX_CASES);
      }
      nvar++;
    }
  } else {
    ngrid = 0;
  }
  long nlist = 0;
  if (!rd_deckIsNull(cases)) {
    if (!fy_node_is_sequence(cases)) {
      return rd_deckError(&r->dk, cases, "'cases' must be a list of mappings");
    }
    void* it = NULL;
    struct fy_node* item;
    while ((item = fy_node_sequence_iterate(cases, &it))) {
      if (!fy_node_is_mapping(item) || fy_node_mapping_item_count(item) == 0) {
        return rd_deckError(&r->dk, item,
                            "a case must be a mapping of variables to values, e.g. "
                            "{solver.time_step: 1e-3}");
      }
      nvar += fy_node_mapping_item_count(item);
      nlist++;
    }
  }
  *ncase = ngrid + nlist;
  if (*ncase == 0) {
    *ncase = 1;  // the base deck
  }
  if (*ncase > MAX_CASES) {
    return rd_deckError(&r->dk, cases, "more than %ld cases", MAX_CASES);
  }
  *maxvar = nvar;
  return RD_OK;
}


static int fill_grid(reader* r, struct fy_node* grid, long ngrid) {
  rdSweep* sw = r->sw;
  if (rd_deckIsNull(grid)) {
    return RD_OK;
  }
  // first key slowest: the stride of each axis is the product of the lengths after it
  long stride = ngrid;
  void* it = NULL;
  struct fy_node_pair* p;
  while ((p = fy_node_mapping_iterate(grid, &it))) {
    int v;
    int st = variable(r, fy_node_pair_key(p), &v);
    if (st != RD_OK) {
      return st;
    }
    struct fy_node* seq = fy_node_pair_value(p);
    int len = fy_node_sequence_item_count(seq);
    stride /= len;
    for (int j = 0; j < len; j++) {
      struct fy_node* item = fy_node_sequence_get_by_index(seq, j);
      st = check_value(r, item, sw->var[v]);
      if (st != RD_OK) {
        return st;
      }
      if (sw->is_param[v] && !fy_node_is_scalar(item)) {
        return rd_deckError(&r->dk, item, "a value of parameter '%s' must be a scalar", sw->var[v]);
      }
      char* text = value_text(sw, item);
      if (!text) {
        return RD_ERR_NOMEM;
      }
      for (long c = 0; c < ngrid; c++) {
        if ((c / stride) % len == j) {
          sw->value[c * sw->nvar + v] = text;  // nvar is final: see read_cases
        }
      }
    }
  }
  return RD_OK;
}


static int fill_list(reader* r, struct fy_node* cases, long first) {
  rdSweep* sw = r->sw;
  if (rd_deckIsNull(cases)) {
    return RD_OK;
  }
  void* it = NULL;
  struct fy_node* item;
  long c = first;
  while ((item = fy_node_sequence_iterate(cases, &it))) {
    void* jt = NULL;
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(item, &jt))) {
      int v;
      int st = variable(r, fy_node_pair_key(p), &v);
      struct fy_node* val = fy_node_pair_value(p);
      if (st == RD_OK) {
        st = check_value(r, val, sw->var[v]);
      }
      if (st == RD_OK && sw->is_param[v] && !fy_node_is_scalar(val)) {
        st = rd_deckError(&r->dk, val, "a value of parameter '%s' must be a scalar", sw->var[v]);
      }
      if (st != RD_OK) {
        return st;
      }
      sw->value[c * sw->nvar + v] = value_text(sw, val);
      if (!sw->value[c * sw->nvar + v]) {
        return RD_ERR_NOMEM;
      }
    }
    c++;
  }
  return RD_OK;
}


// the variables in the order they first appear (grid keys, then the cases' keys): a first pass
// that only names them, so that the value table can be laid out with its final width
static int name_variables(reader* r, struct fy_node* grid, struct fy_node* cases) {
  struct fy_node* sections[2] = {grid, cases};
  for (int s = 0; s < 2; s++) {
    if (rd_deckIsNull(sections[s])) {
      continue;
    }
    void* it = NULL;
    if (s == 0) {
      struct fy_node_pair* p;
      while ((p = fy_node_mapping_iterate(grid, &it))) {
        int v;
        int st = variable(r, fy_node_pair_key(p), &v);
        if (st != RD_OK) {
          return st;
        }
      }
    } else {
      struct fy_node* item;
      while ((item = fy_node_sequence_iterate(cases, &it))) {
        void* jt = NULL;
        struct fy_node_pair* p;
        while ((p = fy_node_mapping_iterate(item, &jt))) {
          int v;
          int st = variable(r, fy_node_pair_key(p), &v);
          if (st != RD_OK) {
            return st;
          }
        }
      }
    }
  }
  return RD_OK;
}


// the text of template e for case i into a new string
static int expand_template(reader* r, const setEntry* e, int i, char** out) {
  rdSweep* sw = r->sw;
  double vals[RD_EXPR_MAXVAR];
  const char* texts[RD_EXPR_MAXVAR];
  for (int k = 0; k < r->nparam; k++) {
    texts[k] = NULL;
    for (int v = 0; v < sw->nvar; v++) {
      if (!strcmp(sw->var[v], r->param[k])) {
        texts[k] = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
      }
    }
    vals[k] = texts[k] && rd_parseReal(texts[k], &vals[k]) == 0 ? vals[k] : NAN;
  }
  size_t cap = 64, len = 0;
  char* s = rd_alloc(sw->ctx, cap);
  for (int j = 0; s && j < e->npiece; j++) {
    const piece* pc = e->pieces + j;
    char num[64];
    const char* add = NULL;
    if (pc->formula && pc->param >= 0) {
      add = texts[pc->param];
      if (!add) {
        rd_free(sw->ctx, s);
        return rd_deckError(&r->dk, e->at, "set '%s': case %d does not set parameter '%s'", e->key,
                            i, r->param[pc->param]);
      }
    } else if (pc->formula) {
      double x = rd_exprEval((rdExpr*)&pc->expr, vals);
      if (!isfinite(x)) {
        rd_free(sw->ctx, s);
        return rd_deckError(&r->dk, e->at,
                            "set '%s': ${%s} is not a finite number in case %d (is every "
                            "parameter it uses set to a number there?)",
                            e->key, pc->formula, i);
      }
      format_real(num, sizeof(num), x);
      add = num;
    }
    size_t need = len + pc->len + (add ? strlen(add) : 0) + 1;
    if (need > cap) {
      while (cap < need) {
        cap *= 2;
      }
      char* grown = rd_alloc(sw->ctx, cap);
      if (grown) {
        memcpy(grown, s, len);
      }
      rd_free(sw->ctx, s);
      s = grown;
      if (!s) {
        break;
      }
    }
    memcpy(s + len, pc->text, pc->len);
    len += pc->len;
    if (add) {
      memcpy(s + len, add, strlen(add));
      len += strlen(add);
    }
    s[len] = '\0';
  }
  *out = own(sw, s);
  return *out ? RD_OK : RD_ERR_NOMEM;
}


static char* join_override(rdSweep* sw, const char* key, const char* value) {
  char* s = zalloc(sw, 1, strlen(key) + strlen(value) + 2);
  if (s) {
    sprintf(s, "%s=%s", key, value);
  }
  return s;
}


// the overrides of case i: set (templates filled in), then its deck-path variables
static int build_overrides(reader* r, int i) {
  rdSweep* sw = r->sw;
  const char** vals = (const char**)sw->value + (size_t)i * (size_t)sw->nvar;
  int n = r->nset;
  for (int v = 0; v < sw->nvar; v++) {
    n += vals[v] && !sw->is_param[v];
  }
  char** o = zalloc(sw, (size_t)n, sizeof(char*));
  if (!o) {
    return RD_ERR_NOMEM;
  }
  int k = 0;
  for (int s = 0; s < r->nset; s++) {
    const setEntry* e = r->set + s;
    char* text = e->text;
    if (e->pieces) {
      int st = expand_template(r, e, i, &text);
      if (st != RD_OK) {
        return st;
      }
    }
    o[k++] = join_override(sw, e->key, text);
  }
  for (int v = 0; v < sw->nvar; v++) {
    if (vals[v] && !sw->is_param[v]) {
      o[k++] = join_override(sw, sw->var[v], vals[v]);
    }
  }
  for (int j = 0; j < n; j++) {
    if (!o[j]) {
      return RD_ERR_NOMEM;
    }
  }
  sw->overrides[i] = o;
  sw->noverride[i] = n;
  return RD_OK;
}


// the last segment of a dotted path
static const char* last_segment(const char* path) {
  const char* dot = strrchr(path, '.');
  return dot && dot[1] ? dot + 1 : path;
}


// id of case i (see rd_sweepCaseId)
static int build_id(reader* r, int i) {
  rdSweep* sw = r->sw;
  char buf[MAX_ID + 64];
  size_t len = 0;
  int exact = 1;
  uint64_t h = FNV_START;
  for (int v = 0; v < sw->nvar; v++) {
    const char* val = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
    if (!val) {
      continue;
    }
    h = fnv(fnv(fnv(h, sw->var[v], strlen(sw->var[v]) + 1), "=", 1), val, strlen(val) + 1);
    const char* name = last_segment(sw->var[v]);
    for (int u = 0; u < sw->nvar; u++) {
      if (u != v && sw->value[(size_t)i * (size_t)sw->nvar + (size_t)u] &&
          !strcmp(last_segment(sw->var[u]), name)) {
        exact = 0;  // two variables of one case end in the same name
      }
    }
    char part[512];
    size_t m = 0;
    for (const char* c = name; *c && m < sizeof(part) - 1; c++) {
      part[m++] = *c;
    }
    if (m < sizeof(part) - 1) {
      part[m++] = '=';
    }
    // a list keeps its numbers and commas; quotes and spaces go; anything else becomes '-'
    for (const char* c = val; *c && m < sizeof(part) - 1; c++) {
      char ch = *c;
      int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '+' || ch == '-' || ch == ',' || ch == '=' || ch == '_';
      if (keep) {
        part[m++] = ch;
      } else if (ch != ' ' && ch != '[' && ch != ']' && ch != '"' && ch != '\'') {
        part[m++] = '-';
        exact = 0;
      }
    }
    part[m] = '\0';
    size_t need = len + (len ? 1 : 0) + m;
    if (need > MAX_ID) {
      exact = 0;
      continue;
    }
    if (len) {
      buf[len++] = '_';
    }
    memcpy(buf + len, part, m + 1);
    len += m;
  }
  if (!len) {
    strcpy(buf, "base");
    len = 4;
  }
  if (!exact) {
    snprintf(buf + len, sizeof(buf) - len, "-%08x", (unsigned)(h >> 32));
  }
  sw->id[i] = sdup(sw, buf);
  return sw->id[i] ? RD_OK : RD_ERR_NOMEM;
}


static int compare_ids(const void* a, const void* b) {
  return strcmp(**(char* const* const*)a, **(char* const* const*)b);
}


// two cases with the same id (the same values): an error at the later one
static int check_unique(reader* r) {
  rdSweep* sw = r->sw;
  char*** by_id = rd_alloc(sw->ctx, sizeof(char**) * (size_t)sw->ncase);
  if (!by_id) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < sw->ncase; i++) {
    by_id[i] = sw->id + i;
  }
  qsort(by_id, (size_t)sw->ncase, sizeof(char**), compare_ids);
  int st = RD_OK;
  for (int k = 1; k < sw->ncase && st == RD_OK; k++) {
    if (!strcmp(*by_id[k], *by_id[k - 1])) {
      long a = by_id[k - 1] - sw->id, b = by_id[k] - sw->id;
      st = RD_ERROR(sw->ctx, RD_ERR_DECK,
                    "%s: cases %ld and %ld have the same id '%s' (the same "
                    "values twice?)",
                    sw->path, a < b ? a : b, a < b ? b : a, *by_id[k]);
    }
  }
  rd_free(sw->ctx, by_id);
  return st;
}


static int fingerprint(reader* r, int i) {
  rdSweep* sw = r->sw;
  uint64_t h = r->deck_hash;
  for (int k = 0; k < sw->noverride[i]; k++) {
    h = fnv(h, sw->overrides[i][k], strlen(sw->overrides[i][k]) + 1);
  }
  for (int q = 0; q < sw->nquantity; q++) {
    h = fnv(h, sw->quantity[q], strlen(sw->quantity[q]) + 1);
  }
  snprintf(sw->fingerprint[i], sizeof(sw->fingerprint[i]), "%016llx", (unsigned long long)h);
  return RD_OK;
}


static int read_cases(reader* r, struct fy_node* root) {
  rdSweep* sw = r->sw;
  struct fy_node* grid = rd_deckLookup(root, "grid", NULL);
  struct fy_node* cases = rd_deckLookup(root, "cases", NULL);
  long ncase = 0;
  int maxvar = 0;
  int st = count_cases(r, grid, cases, &ncase, &maxvar);
  if (st != RD_OK) {
    return st;
  }
  sw->var = zalloc(sw, (size_t)maxvar, sizeof(char*));
  sw->is_param = zalloc(sw, (size_t)maxvar, sizeof(int));
  sw->var_at = zalloc(sw, (size_t)maxvar, sizeof(char*));
  if (!sw->var || !sw->is_param || !sw->var_at) {
    return RD_ERR_NOMEM;
  }
  st = name_variables(r, grid, cases);
  if (st != RD_OK) {
    return st;
  }
  sw->ncase = (int)ncase;
  sw->value = zalloc(sw, (size_t)ncase * (size_t)(sw->nvar ? sw->nvar : 1), sizeof(char*));
  sw->id = zalloc(sw, (size_t)ncase, sizeof(char*));
  sw->overrides = zalloc(sw, (size_t)ncase, sizeof(char**));
  sw->noverride = zalloc(sw, (size_t)ncase, sizeof(int));
  sw->fingerprint = zalloc(sw, (size_t)ncase, sizeof(sw->fingerprint[0]));
  if (!sw->value || !sw->id || !sw->overrides || !sw->noverride || !sw->fingerprint) {
    return RD_ERR_NOMEM;
  }
  long ngrid = rd_deckIsNull(grid)
                   ? 0
                   : ncase - (rd_deckIsNull(cases) ? 0 : fy_node_sequence_item_count(cases));
  st = fill_grid(r, grid, ngrid);
  if (st == RD_OK) {
    st = fill_list(r, cases, ngrid);
  }
  for (int i = 0; st == RD_OK && i < sw->ncase; i++) {
    st = build_overrides(r, i);
    if (st == RD_OK) {
      st = build_id(r, i);
    }
  }
  return st == RD_OK ? check_unique(r) : st;
}

// ---------------------------------------------------------------------------------------------
// what to collect

static int read_collect(reader* r, struct fy_node* root) {
  rdSweep* sw = r->sw;
  struct fy_node* seq = NULL;
  int st = rd_deckList(&r->dk, root, "collect", &seq);
  if (st < 0 || !seq) {
    return st < 0 ? st : RD_OK;
  }
  int n = fy_node_sequence_item_count(seq);
  sw->quantity = zalloc(sw, (size_t)n, sizeof(char*));
  sw->op = zalloc(sw, (size_t)n, sizeof(rdSweepOp));
  sw->source = zalloc(sw, (size_t)n, sizeof(char*));
  sw->quantity_at = zalloc(sw, (size_t)n, sizeof(char*));
  if (!sw->quantity || !sw->op || !sw->source || !sw->quantity_at) {
    return RD_ERR_NOMEM;
  }
  void* it = NULL;
  struct fy_node* item;
  while ((item = fy_node_sequence_iterate(seq, &it))) {
    const char* text =
        fy_node_is_scalar(item) && !rd_deckIsNull(item) ? fy_node_get_scalar0(item) : NULL;
    const char* open = text ? strchr(text, '(') : NULL;
    size_t len = text ? strlen(text) : 0;
    if (!open || text[len - 1] != ')' || open == text || open + 2 >= text + len) {
      return rd_deckError(&r->dk, item,
                          "a quantity is OPERATION(SOURCE), e.g. max(tip.z) or "
                          "final(total_energy); OPERATION is min, max, absmax or final");
    }
    char op[16], src[256];
    size_t nop = (size_t)(open - text), nsrc = len - nop - 2;
    if (nop >= sizeof(op) || nsrc >= sizeof(src)) {
      return rd_deckError(&r->dk, item, "quantity '%s' is too long", text);
    }
    memcpy(op, text, nop);
    op[nop] = '\0';
    memcpy(src, open + 1, nsrc);
    src[nsrc] = '\0';
    int k = 0;
    while (op_names[k] && strcmp(op_names[k], op)) {
      k++;
    }
    if (!op_names[k]) {
      const char* near = rd_closestName(op, op_names, 4);
      return rd_deckError(&r->dk, item, "unknown operation '%s'%s%s%s (min, max, absmax, final)",
                          op, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    int q = sw->nquantity;
    for (int j = 0; j < q; j++) {
      if (!strcmp(sw->quantity[j], text)) {
        return rd_deckError(&r->dk, item, "quantity '%s' is listed twice", text);
      }
    }
    char where[1024];
    rd_deckWhere(&r->dk, item, where, sizeof(where));
    sw->quantity[q] = sdup(sw, text);
    sw->source[q] = sdup(sw, src);
    sw->quantity_at[q] = sdup(sw, where);
    sw->op[q] = (rdSweepOp)k;
    if (!sw->quantity[q] || !sw->source[q] || !sw->quantity_at[q]) {
      return RD_ERR_NOMEM;
    }
    sw->nquantity++;
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// checks against the base deck

// read the base deck with the overrides of case i; an error is reported at `where`
static int try_case(reader* r, int i, const char* where) {
  rdSweep* sw = r->sw;
  rdSpec* spec = NULL;
  int st =
      rd_readDeck(sw->ctx, sw->deck, (const char* const*)sw->overrides[i], sw->noverride[i], &spec);
  rd_destroySpec(&spec);
  if (st == RD_OK || st == RD_ERR_NOMEM) {
    return st;
  }
  char msg[RD_ERRLEN];
  snprintf(msg, sizeof(msg), "%s", rd_lastError(sw->ctx));
  return RD_ERROR(sw->ctx, RD_ERR_DECK, "%s: case '%s': %s", where, sw->id[i], msg);
}


// every deck path once: each variable in the first case that sets it (reported at the variable),
// then the first case (all of `set`, reported there)
static int check_paths(reader* r, struct fy_node* root) {
  rdSweep* sw = r->sw;
  int st = RD_OK;
  int checked0 = 0;
  for (int v = 0; st == RD_OK && v < sw->nvar; v++) {
    int first = -1;
    for (int i = 0; i < sw->ncase && first < 0; i++) {
      first = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v] ? i : -1;
    }
    if (first >= 0 && !sw->is_param[v]) {
      st = try_case(r, first, sw->var_at[v]);
      checked0 |= first == 0;
    }
  }
  if (st == RD_OK && !checked0) {
    char where[1024];
    struct fy_node* set = rd_deckLookup(root, "set", NULL);
    rd_deckWhere(&r->dk, r->nset ? set : rd_deckLookup(root, "deck", NULL), where, sizeof(where));
    st = try_case(r, 0, where);
  }
  return st;
}

// ---------------------------------------------------------------------------------------------
// entry point

static int read_sweep(reader* r) {
  rdSweep* sw = r->sw;
  struct fy_node* root = fy_document_root(r->dk.fyd);
  int st = rd_deckCheckMap(&r->dk, root, "the sweep file", top_keys);
  const char* deck = NULL;
  if (st == RD_OK) {
    st = rd_deckGetString(&r->dk, root, "deck", 1, &deck);
    st = st < 0 ? st : RD_OK;
  }
  if (st == RD_OK) {
    char path[4096];
    if (rd_pathBeside(path, sizeof(path), sw->path, deck) != 0) {
      return rd_deckError(&r->dk, rd_deckLookup(root, "deck", NULL), "path too long");
    }
    sw->deck = sdup(sw, path);
    st = sw->deck ? hash_file(sw->ctx, sw->deck, &r->deck_hash) : RD_ERR_NOMEM;
    if (st == RD_ERR_IO) {
      return rd_deckRelay(&r->dk, rd_deckLookup(root, "deck", NULL), st);
    }
  }
  if (st == RD_OK) {
    st = read_parameters(r, root);
  }
  if (st == RD_OK) {
    st = read_set(r, root);
  }
  if (st == RD_OK) {
    st = read_collect(r, root);
  }
  if (st == RD_OK) {
    st = read_cases(r, root);
  }
  // parameters no case sets, and templates that no parameter feeds, are mistakes
  for (int k = 0; st == RD_OK && k < r->nparam; k++) {
    int used = 0;
    for (int v = 0; v < sw->nvar; v++) {
      used |= !strcmp(sw->var[v], r->param[k]);
    }
    if (!used) {
      st = rd_deckError(&r->dk, rd_deckLookup(root, "parameters", NULL),
                        "parameter '%s' takes no value in the grid or the cases", r->param[k]);
    }
  }
  for (int i = 0; st == RD_OK && i < sw->ncase; i++) {
    st = fingerprint(r, i);
  }
  if (st == RD_OK) {
    st = check_paths(r, root);
  }
  return st;
}


int rd_readSweep(rdContext* ctx, const char* path, rdSweep** sweep) {
  if (sweep) {
    *sweep = NULL;
  }
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!path || !sweep) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_readSweep: invalid argument");
  }
  rdSweep* sw = rd_calloc(ctx, 1, sizeof(rdSweep));
  if (!sw) {
    return RD_ERR_NOMEM;
  }
  sw->magic = RD_MAGIC_SWEEP;
  sw->ctx = ctx;
  rd_adopt(&ctx->children);
  reader r;
  memset(&r, 0, sizeof(r));
  r.sw = sw;
  r.dk.ctx = ctx;
  sw->path = sdup(sw, path);
  r.dk.path = sw->path;
  struct fy_diag* diag = NULL;
  int st = sw->path ? rd_deckLoad(&r.dk, &diag, "sweep file",
                                  "the sweep file must be a mapping (deck, set, grid, cases, "
                                  "collect, ...)")
                    : RD_ERR_NOMEM;
  if (st == RD_OK) {
    st = read_sweep(&r);
  }
  for (int s = 0; s < r.nset; s++) {
    for (int j = 0; j < r.set[s].npiece; j++) {
      if (r.set[s].pieces[j].compiled) {
        rd_exprDestroy(&r.set[s].pieces[j].expr);
      }
    }
  }
  rd_deckUnload(&r.dk, diag);
  if (st != RD_OK) {
    rd_destroySweep(&sw);
    return st;
  }
  *sweep = sw;
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// queries

const char* rd_sweepDeck(const rdSweep* sweep) {
  return rd_sweepValid(sweep) ? sweep->deck : NULL;
}


int rd_sweepCaseCount(const rdSweep* sweep) {
  return rd_sweepValid(sweep) ? sweep->ncase : 0;
}


const char* rd_sweepCaseId(const rdSweep* sweep, int i) {
  return rd_sweepValid(sweep) && i >= 0 && i < sweep->ncase ? sweep->id[i] : NULL;
}


int rd_sweepFindCase(const rdSweep* sweep, const char* id) {
  if (!rd_sweepValid(sweep) || !id) {
    return -1;
  }
  for (int i = 0; i < sweep->ncase; i++) {
    if (!strcmp(sweep->id[i], id)) {
      return i;
    }
  }
  int i;
  return rd_parseInt(id, &i) == 0 && i >= 0 && i < sweep->ncase ? i : -1;
}


int rd_sweepOverrides(const rdSweep* sweep, int i, const char* const** overrides) {
  if (!rd_sweepValid(sweep) || i < 0 || i >= sweep->ncase || !overrides) {
    return RD_ERR_ARG;
  }
  *overrides = (const char* const*)sweep->overrides[i];
  return sweep->noverride[i];
}


int rd_sweepVariableCount(const rdSweep* sweep) {
  return rd_sweepValid(sweep) ? sweep->nvar : 0;
}


const char* rd_sweepVariable(const rdSweep* sweep, int k) {
  return rd_sweepValid(sweep) && k >= 0 && k < sweep->nvar ? sweep->var[k] : NULL;
}


const char* rd_sweepValue(const rdSweep* sweep, int i, int k) {
  if (!rd_sweepValid(sweep) || i < 0 || i >= sweep->ncase || k < 0 || k >= sweep->nvar) {
    return NULL;
  }
  return sweep->value[(size_t)i * (size_t)sweep->nvar + (size_t)k];
}


int rd_sweepQuantityCount(const rdSweep* sweep) {
  return rd_sweepValid(sweep) ? sweep->nquantity : 0;
}


const char* rd_sweepQuantity(const rdSweep* sweep, int q) {
  return rd_sweepValid(sweep) && q >= 0 && q < sweep->nquantity ? sweep->quantity[q] : NULL;
}


const char* rd_sweepFingerprint(const rdSweep* sweep, int i) {
  return rd_sweepValid(sweep) && i >= 0 && i < sweep->ncase ? sweep->fingerprint[i] : NULL;
}
