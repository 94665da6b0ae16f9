// SPDX-License-Identifier: MIT
// Deck reader: --set KEY=VALUE overrides, applied to the YAML document before it is read.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/deck.h"
#include "src/core/core.h"
#include "src/core/input.h"
#include "src/core/strutil.h"
#include "src/io/deck_impl.h"

#define MAX_KEY 512
#define MAX_SEGMENTS 32

// one override being applied
typedef struct {
  rdDeck* dk;
  const char* text;  // KEY=VALUE
  const char* value;
  int recorded;  // a node of this override is already in dk->set_node
} setOp;


#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
set_error(const setOp* op, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return RD_ERROR(op->dk->ctx, RD_ERR_DECK, "--set %s: %s", op->text, msg);
}


// remember that the new key `k` (may be NULL) and value `v`, and everything under them, came
// from this override; nodes created later by the same override are inside `v`
static void record(setOp* op, struct fy_node* k, struct fy_node* v) {
  rdDeck* dk = op->dk;
  if (op->recorded) {
    return;
  }
  struct fy_node* nodes[2] = {k, v};
  for (int i = 0; i < 2; i++) {
    if (nodes[i]) {
      dk->set_node[dk->nset] = nodes[i];
      dk->set_text[dk->nset] = op->text;
      dk->nset++;
    }
  }
  op->recorded = 1;
}


// last message libfyaml collected for the document, "" if none
static const char* last_yaml_error(struct fy_document* fyd) {
  struct fy_diag* diag = fy_document_get_diag(fyd);
  const char* msg = "";
  void* it = NULL;
  struct fy_diag_error* e;
  while (diag && (e = fy_diag_errors_iterate(diag, &it))) {
    msg = e->msg;
  }
  if (diag) {
    fy_diag_unref(diag);  // the document keeps its own reference, so msg stays valid
  }
  return msg;
}


// the override's value as a new (unattached) node
static int build_value(setOp* op, struct fy_node** v) {
  *v = fy_node_build_from_string(op->dk->fyd, op->value, FY_NT);
  if (!*v) {
    return set_error(op, "cannot parse the value as YAML: %s", last_yaml_error(op->dk->fyd));
  }
  return RD_OK;
}


// step into (or set, if last) `seg` of a mapping; *cur is updated
static int step_mapping(setOp* op, struct fy_node** cur, const char* seg, int last) {
  struct fy_document* fyd = op->dk->fyd;
  struct fy_node_pair* p = fy_node_mapping_lookup_pair_by_simple_key(*cur, seg, FY_NT);
  struct fy_node* v = NULL;
  if (p && !last && !rd_deckIsNull(fy_node_pair_value(p))) {
    *cur = fy_node_pair_value(p);
    return RD_OK;
  }
  int st = last ? build_value(op, &v) : RD_OK;
  if (st < 0) {
    return st;
  }
  if (!last) {
    v = fy_node_create_mapping(fyd);  // a new (or null) intermediate section
  }
  struct fy_node* k = p ? NULL : fy_node_create_scalar_copy(fyd, seg, FY_NT);
  int fail = !v || (!p && !k);
  if (!fail && p) {
    // the old value is freed with what earlier overrides put in it
    rd_deckForget(op->dk, fy_node_pair_value(p));
  }
  if (!fail) {
    fail = p ? fy_node_pair_set_value(p, v) : fy_node_mapping_append(*cur, k, v);
  }
  if (fail) {
    if (v) {
      fy_node_free(v);
    }
    if (k) {
      fy_node_free(k);
    }
    return set_error(op, "cannot change the document");
  }
  record(op, k, v);
  *cur = v;
  return RD_OK;
}


// the item of a list named by `seg`: an index or the `name` of a mapping item; NULL if none
static struct fy_node* find_item(struct fy_node* seq, const char* seg) {
  int index;
  if (rd_parseInt(seg, &index) == 0) {
    return index >= 0 ? fy_node_sequence_get_by_index(seq, index) : NULL;
  }
  void* it = NULL;
  struct fy_node* item;
  while ((item = fy_node_sequence_iterate(seq, &it))) {
    struct fy_node* name = rd_deckLookup(item, "name", NULL);
    if (name && fy_node_is_scalar(name) && !strcmp(fy_node_get_scalar0(name), seg)) {
      return item;
    }
  }
  return NULL;
}


// no item `seg` in the list `seq` (named `prev`): error with a hint from the item names
static int no_item(setOp* op, struct fy_node* seq, const char* seg, const char* prev) {
  const char* names[64];
  int n = 0;
  void* it = NULL;
  struct fy_node* item;
  while (n < 64 && (item = fy_node_sequence_iterate(seq, &it))) {
    struct fy_node* name = rd_deckLookup(item, "name", NULL);
    if (name && fy_node_is_scalar(name)) {
      names[n++] = fy_node_get_scalar0(name);
    }
  }
  const char* near = rd_closestName(seg, names, n);
  char what[256];
  snprintf(what, sizeof(what), "no item '%s' in '%s'", seg, prev);
  if (near) {
    return set_error(op, "%s (did you mean '%s'?)", what, near);
  }
  return set_error(op, "%s (give the name of an item or its index)", what);
}


// step into (or replace, if last) the item `seg` of a list
static int step_sequence(setOp* op, struct fy_node** cur, const char* seg, const char* prev,
                         int last) {
  struct fy_node* item = find_item(*cur, seg);
  int index;
  if (!item && rd_parseInt(seg, &index) == 0) {
    return set_error(op, "index %d is out of range ('%s' has %d items)", index, prev,
                     fy_node_sequence_item_count(*cur));
  }
  if (!item) {
    return no_item(op, *cur, seg, prev);
  }
  if (!last) {
    *cur = item;
    return RD_OK;
  }
  struct fy_node* v;
  int st = build_value(op, &v);
  if (st < 0) {
    return st;
  }
  if (fy_node_sequence_insert_after(*cur, item, v)) {
    fy_node_free(v);
    return set_error(op, "cannot change the document");
  }
  rd_deckForget(op->dk, item);
  fy_node_free(fy_node_sequence_remove(*cur, item));
  record(op, NULL, v);
  *cur = v;
  return RD_OK;
}


// split "a.b.c" in place into segments
static int split_key(char* key, char** seg) {
  int n = 0;
  for (char* s = key; n < MAX_SEGMENTS;) {
    seg[n++] = s;
    char* dot = strchr(s, '.');
    if (!dot) {
      return n;
    }
    *dot = '\0';
    s = dot + 1;
  }
  return -1;
}


static int apply_one(rdDeck* dk, const char* text) {
  setOp op = {dk, text ? text : "(null)", NULL, 0};
  const char* eq = text ? strchr(text, '=') : NULL;
  if (!eq || eq == text) {
    return set_error(&op, "expected KEY=VALUE, e.g. solver.time_step=1e-3");
  }
  op.value = eq + 1;
  if (!*op.value) {
    return set_error(&op, "the value is missing");
  }
  // the same checks as the deck's text before YAML sees the value
  size_t len = strlen(text);
  if (len > RD_DECK_MAX_OVERRIDE) {
    return set_error(&op, "longer than %d bytes", RD_DECK_MAX_OVERRIDE);
  }
  const char* what;
  int line, col;
  size_t bad = rd_textCheck(text, len, &line, &col, &what);
  if (bad < len) {
    return set_error(&op, "%s (byte 0x%02x at character %d)", what, (unsigned char)text[bad], col);
  }
  char key[MAX_KEY];
  if ((size_t)(eq - text) >= sizeof(key)) {
    return set_error(&op, "the key is too long");
  }
  memcpy(key, text, (size_t)(eq - text));
  key[eq - text] = '\0';
  char* seg[MAX_SEGMENTS];
  int nseg = split_key(key, seg);
  if (nseg < 0) {
    return set_error(&op, "the key has too many parts");
  }
  struct fy_node* cur = fy_document_root(dk->fyd);
  for (int i = 0; i < nseg; i++) {
    int last = i == nseg - 1;
    const char* prev = i ? seg[i - 1] : "the deck";
    int st;
    if (!*seg[i]) {
      st = set_error(&op, "empty part in the key");
    } else if (fy_node_is_mapping(cur)) {
      st = step_mapping(&op, &cur, seg[i], last);
    } else if (fy_node_is_sequence(cur)) {
      st = step_sequence(&op, &cur, seg[i], prev, last);
    } else {
      st = set_error(&op, "'%s' is a single value; it has no '%s'", prev, seg[i]);
    }
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


int rd_deckApplyOverrides(rdDeck* dk, const char* const* overrides, int noverride) {
  if (noverride <= 0) {
    return RD_OK;
  }
  // at most a key and a value per override
  dk->set_node = rd_calloc(dk->ctx, 2 * (size_t)noverride, sizeof(struct fy_node*));
  dk->set_text = rd_calloc(dk->ctx, 2 * (size_t)noverride, sizeof(char*));
  if (!dk->set_node || !dk->set_text) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < noverride; i++) {
    int st = apply_one(dk, overrides[i]);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}
