// SPDX-License-Identifier: MIT
// Deck reader: structure checks and typed getters for YAML values, with did-you-mean hints.
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core/core.h"
#include "src/core/strutil.h"
#include "src/io/deck_impl.h"

// ---------------------------------------------------------------------------------------------
// structure

// kind of a node, for messages
static const char* node_kind(struct fy_node* v) {
  if (rd_deckIsNull(v)) {
    return "nothing";
  }
  if (fy_node_is_mapping(v)) {
    return "a mapping";
  }
  if (fy_node_is_sequence(v)) {
    return "a list";
  }
  return "a scalar";
}


// "a, b, c" from a NULL-terminated list
static void join_names(char* buf, size_t size, const char* const* names) {
  buf[0] = '\0';
  for (int i = 0; names[i]; i++) {
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
  }
}


static int count_names(const char* const* names) {
  int n = 0;
  while (names[n]) {
    n++;
  }
  return n;
}


// 1 if the text s[0..len) is in the NULL-terminated list
static int in_list(const char* const* list, const char* s, size_t len) {
  for (int i = 0; list[i]; i++) {
    if (!strncmp(list[i], s, len) && list[i][len] == '\0') {
      return 1;
    }
  }
  return 0;
}


// 1 if the text s[0..len) is `word`
static int text_is(const char* s, size_t len, const char* word) {
  return strlen(word) == len && !memcmp(s, word, len);
}


// (fy_node_get_scalar gives a scalar's text without the copy that fy_node_get_scalar0 makes to
// terminate it: the reader looks at most scalars once)
int rd_deckIsNull(struct fy_node* v) {
  if (!v) {
    return 1;
  }
  if (!fy_node_is_scalar(v) || fy_node_get_style(v) != FYNS_PLAIN) {
    return 0;
  }
  size_t len = 0;
  const char* s = fy_node_get_scalar(v, &len);
  return !s || !len || text_is(s, len, "~") || text_is(s, len, "null") || text_is(s, len, "Null") ||
         text_is(s, len, "NULL");
}


// a scalar's text, NULL for anything else
static const char* scalar_text(struct fy_node* v) {
  if (!v || !fy_node_is_scalar(v) || rd_deckIsNull(v)) {
    return NULL;
  }
  return fy_node_get_scalar0(v);
}


// reject a key that is not in `keys`, with a hint
static int unknown_key(rdDeck* dk, struct fy_node* k, const char* text, const char* what,
                       const char* const* keys) {
  const char* near = rd_closestName(text, keys, count_names(keys));
  if (near) {
    return rd_deckError(dk, k, "unknown key '%s' (did you mean '%s'?)", text, near);
  }
  char list[1024];
  join_names(list, sizeof(list), keys);
  return rd_deckError(dk, k, "unknown key '%s' in %s; expected one of: %s", text, what, list);
}


int rd_deckCheckMap(rdDeck* dk, struct fy_node* map, const char* what, const char* const* keys) {
  return rd_deckCheckMapRenamed(dk, map, what, keys, NULL);
}


int rd_deckCheckMapRenamed(rdDeck* dk, struct fy_node* map, const char* what,
                           const char* const* keys, const char* const* old) {
  if (!map || !fy_node_is_mapping(map)) {
    return rd_deckError(dk, map, "%s must be a mapping, not %s", what, node_kind(map));
  }
  void* it = NULL;
  struct fy_node_pair* p;
  while ((p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node* k = fy_node_pair_key(p);
    if (!k || !fy_node_is_scalar(k) || rd_deckIsNull(k)) {
      // an empty key has no token: the deck reader finds its ':' (deck_where.c)
      return rd_deckError(dk, k ? k : fy_node_pair_value(p), "keys of %s must be names", what);
    }
    size_t len = 0;
    const char* text = fy_node_get_scalar(k, &len);
    if (!in_list(keys, text, len) && !(old && in_list(old, text, len))) {
      return unknown_key(dk, k, scalar_text(k), what, keys);
    }
  }
  return RD_OK;
}


int rd_deckCheckTyped(rdDeck* dk, struct fy_node* map, const char* what, const char* const* all,
                      const char* const* used) {
  int st = rd_deckCheckMap(dk, map, what, all);
  void* it = NULL;
  struct fy_node_pair* p;
  while (st == RD_OK && (p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node* k = fy_node_pair_key(p);
    size_t len = 0;
    const char* text = fy_node_get_scalar(k, &len);
    if (!in_list(used, text, len)) {
      st = rd_deckError(dk, k, "'%s' does not apply to %s", fy_node_get_scalar0(k), what);
    }
  }
  return st;
}


struct fy_node* rd_deckLookup(struct fy_node* map, const char* key, struct fy_node** keyp) {
  struct fy_node_pair* p = map && fy_node_is_mapping(map)
                               ? fy_node_mapping_lookup_pair_by_simple_key(map, key, FY_NT)
                               : NULL;
  if (keyp) {
    *keyp = p ? fy_node_pair_key(p) : NULL;
  }
  return p ? fy_node_pair_value(p) : NULL;
}


// look `key` up: 1 with *v and *at (the value, or the key if the value has no text), 0 if
// absent or null (an error if required), <0 on error
static int find(rdDeck* dk, struct fy_node* map, const char* key, int required, struct fy_node** v,
                struct fy_node** at) {
  struct fy_node* k = NULL;
  *v = rd_deckLookup(map, key, &k);
  *at = *v;
  if (!k) {
    return required ? rd_deckError(dk, map, "missing required key '%s'", key) : 0;
  }
  if (rd_deckIsNull(*v)) {
    *at = k;
    return required ? rd_deckError(dk, k, "'%s' has no value", key) : 0;
  }
  return 1;
}


int rd_deckList(rdDeck* dk, struct fy_node* map, const char* key, struct fy_node** seq) {
  struct fy_node* at;
  *seq = NULL;
  int st = find(dk, map, key, 0, seq, &at);
  if (st <= 0) {
    *seq = NULL;
    return st;
  }
  if (!fy_node_is_sequence(*seq)) {
    return rd_deckError(dk, at, "'%s' must be a list, not %s", key, node_kind(*seq));
  }
  return 1;
}

// ---------------------------------------------------------------------------------------------
// value-level parsing

// 1 if text is one of YAML's spellings of infinity or NaN, or a C one
static int nonfinite_text(const char* s) {
  if (*s == '+' || *s == '-') {
    s++;
  }
  if (*s == '.') {
    s++;
  }
  char low[16];
  size_t n = 0;
  for (; s[n] && n < sizeof(low) - 1; n++) {
    low[n] = (char)tolower((unsigned char)s[n]);
  }
  low[n] = '\0';
  return !strcmp(low, "inf") || !strcmp(low, "nan") || !strcmp(low, "infinity");
}


// `what`, or with index >= 0 its item "what[index]", into buf
static const char* item_label(char* buf, size_t size, const char* what, int index) {
  if (index < 0) {
    return what;
  }
  snprintf(buf, size, "%s[%d]", what, index);
  return buf;
}


// `what` (item `index` of it if >= 0): a finite number
static int real_item(rdDeck* dk, struct fy_node* v, const char* what, int index, double* out) {
  // the text, terminated in a buffer of our own when it fits (numbers do)
  char buf[64], item[128];
  size_t len = 0;
  const char* s =
      v && fy_node_is_scalar(v) && !rd_deckIsNull(v) ? fy_node_get_scalar(v, &len) : NULL;
  if (s && len < sizeof(buf)) {
    memcpy(buf, s, len);
    buf[len] = '\0';
    s = buf;
  } else if (s) {
    s = fy_node_get_scalar0(v);
  }
  if (!s) {
    return rd_deckError(dk, v, "'%s' must be a number, not %s",
                        item_label(item, sizeof(item), what, index), node_kind(v));
  }
  if (fy_node_get_style(v) != FYNS_PLAIN) {
    return rd_deckError(dk, v, "'%s' must be a number, not the string \"%s\"",
                        item_label(item, sizeof(item), what, index), s);
  }
  if (nonfinite_text(s)) {
    return rd_deckError(dk, v, "'%s' must be a finite number, not %s",
                        item_label(item, sizeof(item), what, index), s);
  }
  char* end = NULL;
  double x = rd_isDecimal(s) ? strtod(s, &end) : 0;
  if (!end || end == s || *end != '\0') {
    return rd_deckError(dk, v, "'%s' must be a number, not '%s'",
                        item_label(item, sizeof(item), what, index), s);
  }
  if (!isfinite(x)) {
    return rd_deckError(dk, v, "'%s' must be a finite number, not %s",
                        item_label(item, sizeof(item), what, index), s);
  }
  *out = x;
  return RD_OK;
}


int rd_deckReal(rdDeck* dk, struct fy_node* v, const char* what, double* out) {
  return real_item(dk, v, what, -1, out);
}


int rd_deckVec(rdDeck* dk, struct fy_node* v, const char* what, int n, double* out) {
  if (!v || !fy_node_is_sequence(v)) {
    return rd_deckError(dk, v, "'%s' must be a list of %d numbers, not %s", what, n, node_kind(v));
  }
  int count = fy_node_sequence_item_count(v);
  if (count != n) {
    return rd_deckError(dk, v, "'%s' must have %d numbers, not %d", what, n, count);
  }
  void* it = NULL;
  for (int i = 0; i < n; i++) {
    int st = real_item(dk, fy_node_sequence_iterate(v, &it), what, i, out + i);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


// n x n matrix or its diagonal
static int matrix(rdDeck* dk, struct fy_node* v, const char* what, int n, double* out) {
  int count = v && fy_node_is_sequence(v) ? fy_node_sequence_item_count(v) : -1;
  struct fy_node* first = count > 0 ? fy_node_sequence_get_by_index(v, 0) : NULL;
  if (count != n) {
    return rd_deckError(dk, v,
                        "'%s' must be a %dx%d matrix (%d lists of %d numbers) or its diagonal "
                        "(%d numbers)",
                        what, n, n, n, n, n);
  }
  memset(out, 0, sizeof(double) * (size_t)(n * n));
  if (!fy_node_is_sequence(first)) {
    double d[6];
    int st = rd_deckVec(dk, v, what, n, d);
    for (int i = 0; st == RD_OK && i < n; i++) {
      out[i * n + i] = d[i];
    }
    return st;
  }
  for (int i = 0; i < n; i++) {
    char row[128];
    snprintf(row, sizeof(row), "%s[%d]", what, i);
    int st = rd_deckVec(dk, fy_node_sequence_get_by_index(v, i), row, n, out + i * n);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}


// undefined reference, with a hint from `names`
static int undefined(rdDeck* dk, struct fy_node* v, const char* kind, const char* s,
                     const rdDeckNames* names) {
  const char* near = rd_closestName(s, names->name, names->count);
  if (near) {
    return rd_deckError(dk, v, "undefined %s '%s' (did you mean '%s'?)", kind, s, near);
  }
  return rd_deckError(dk, v, "undefined %s '%s'", kind, s);
}


int rd_deckNodeRef(rdDeck* dk, struct fy_node* v, const char* what, int allow_ground, int* out) {
  const char* s = scalar_text(v);
  if (!s) {
    return rd_deckError(dk, v, "'%s' must be a node name, not %s", what, node_kind(v));
  }
  if (!strcmp(s, "ground")) {
    if (!allow_ground) {
      return rd_deckError(dk, v, "'%s' cannot be the ground", what);
    }
    *out = RD_GROUND;
    return RD_OK;
  }
  int i = rds_find(dk->spec, RD_OBJ_NODE, s);  // entry i of dk->nodes is node i of the spec
  if (i < 0) {
    return undefined(dk, v, "node", s, &dk->nodes);
  }
  *out = i;
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// keyed getters

int rd_deckGetReal(rdDeck* dk, struct fy_node* map, const char* key, int required, double* out) {
  struct fy_node *v, *at;
  int st = find(dk, map, key, required, &v, &at);
  if (st <= 0) {
    return st;
  }
  st = rd_deckReal(dk, v, key, out);
  return st < 0 ? st : 1;
}


int rd_deckGetVec(rdDeck* dk, struct fy_node* map, const char* key, int n, int required,
                  double* out) {
  struct fy_node *v, *at;
  int st = find(dk, map, key, required, &v, &at);
  if (st <= 0) {
    return st;
  }
  st = rd_deckVec(dk, v, key, n, out);
  return st < 0 ? st : 1;
}


int rd_deckGetMatrix(rdDeck* dk, struct fy_node* map, const char* key, int n, int required,
                     double* out) {
  struct fy_node *v, *at;
  int st = find(dk, map, key, required, &v, &at);
  if (st <= 0) {
    return st;
  }
  st = matrix(dk, v, key, n, out);
  return st < 0 ? st : 1;
}


int rd_deckGetString(rdDeck* dk, struct fy_node* map, const char* key, int required,
                     const char** out) {
  struct fy_node *v, *at;
  int st = find(dk, map, key, required, &v, &at);
  if (st <= 0) {
    return st;
  }
  const char* s = scalar_text(v);
  if (!s) {
    return rd_deckError(dk, at, "'%s' must be a scalar, not %s", key, node_kind(v));
  }
  *out = s;
  return 1;
}


int rd_deckGetEnum(rdDeck* dk, struct fy_node* map, const char* key, const char* const* names,
                   int required, int* out) {
  const char* s = NULL;
  int st = rd_deckGetString(dk, map, key, required, &s);
  if (st <= 0) {
    return st;
  }
  for (int i = 0; names[i]; i++) {
    if (!strcmp(names[i], s)) {
      *out = i;
      return 1;
    }
  }
  struct fy_node* v = rd_deckLookup(map, key, NULL);
  const char* near = rd_closestName(s, names, count_names(names));
  if (near) {
    return rd_deckError(dk, v, "unknown %s '%s' (did you mean '%s'?)", key, s, near);
  }
  char list[1024];
  join_names(list, sizeof(list), names);
  return rd_deckError(dk, v, "unknown %s '%s'; expected one of: %s", key, s, list);
}


int rd_deckGetNode(rdDeck* dk, struct fy_node* map, const char* key, int allow_ground, int required,
                   int* out) {
  struct fy_node *v, *at;
  int st = find(dk, map, key, required, &v, &at);
  if (st <= 0) {
    return st;
  }
  st = rd_deckNodeRef(dk, v, key, allow_ground, out);
  return st < 0 ? st : 1;
}


int rd_deckGetTimeFn(rdDeck* dk, struct fy_node* map, const char* key, int* out) {
  const char* s = NULL;
  int st = rd_deckGetString(dk, map, key, 0, &s);
  if (st <= 0) {
    return st;
  }
  int i = rds_find(dk->spec, RD_OBJ_TIMEFN, s);
  if (i < 0) {
    return undefined(dk, rd_deckLookup(map, key, NULL), "time function", s, &dk->timefns);
  }
  *out = i;
  return 1;
}


int rd_deckGetName(rdDeck* dk, struct fy_node* map, rdObjKind kind, const char* what,
                   const char** out) {
  int st = rd_deckGetString(dk, map, "name", 1, out);
  if (st < 0) {
    return st;
  }
  struct fy_node* v = rd_deckLookup(map, "name", NULL);
  if (!**out) {
    return rd_deckError(dk, v, "the %s name must not be empty", what);
  }
  if (kind == RD_OBJ_NODE && !strcmp(*out, "ground")) {
    return rd_deckError(dk, v, "'ground' is reserved for the fixed frame; choose another name");
  }
  if (rds_find(dk->spec, kind, *out) >= 0) {
    return rd_deckError(dk, v, "duplicate %s name '%s'", what, *out);
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// name lists

int rd_deckAddName(rdDeck* dk, rdDeckNames* names, const char* name, const double pos[3]) {
  if (names->count == names->capacity) {
    int cap = names->capacity ? 2 * names->capacity : 16;
    const char** nn = rd_alloc(dk->ctx, sizeof(char*) * (size_t)cap);
    double* np = rd_alloc(dk->ctx, sizeof(double) * 3 * (size_t)cap);
    if (!nn || !np) {
      rd_free(dk->ctx, (void*)nn);
      rd_free(dk->ctx, np);
      return RD_ERR_NOMEM;
    }
    if (names->count) {
      memcpy(nn, names->name, sizeof(char*) * (size_t)names->count);
      memcpy(np, names->pos, sizeof(double) * 3 * (size_t)names->count);
    }
    rd_free(dk->ctx, (void*)names->name);
    rd_free(dk->ctx, names->pos);
    names->name = nn;
    names->pos = np;
    names->capacity = cap;
  }
  int i = names->count++;
  names->name[i] = name;
  for (int k = 0; k < 3; k++) {
    names->pos[3 * i + k] = pos ? pos[k] : 0;
  }
  return RD_OK;
}


void rd_deckFreeNames(rdDeck* dk, rdDeckNames* names) {
  rd_free(dk->ctx, (void*)names->name);
  rd_free(dk->ctx, names->pos);
  memset(names, 0, sizeof(*names));
}


int rd_deckEach(rdDeck* dk, struct fy_node* map, const char* key,
                int (*fn)(rdDeck* dk, struct fy_node* item)) {
  struct fy_node* seq;
  int st = rd_deckList(dk, map, key, &seq);
  if (st <= 0) {
    return st;
  }
  void* it = NULL;
  struct fy_node* item;
  for (int i = 0; (item = fy_node_sequence_iterate(seq, &it)); i++) {
    if (rd_deckIsNull(item)) {
      return rd_deckError(dk, item, "item %d of '%s' is empty", i, key);
    }
    st = fn(dk, item);
    if (st < 0) {
      return st;
    }
  }
  return RD_OK;
}
