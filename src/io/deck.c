// SPDX-License-Identifier: MIT
// Deck reader entry point: read the file into memory, check its text, parse the YAML, apply
// --set overrides, read every section.
#include <stdio.h>
#include <string.h>

#include "rodrigues/deck.h"
#include "src/core/core.h"
#include "src/core/input.h"
#include "src/io/deck_impl.h"
#include "src/model/options.h"

// sections that are not option sections; option sections ("solver", "output", ...) come from
// the prefixes of the option table
static const char* const fixed_sections[] = {"title",      "gravity", "nodes", "time_functions",
                                             "elements",   "joints",  "loads", "torque_laws",
                                             "subsystems", NULL};

#define MAX_SECTIONS 32

// ---------------------------------------------------------------------------------------------
// loading

// first error collected by the diagnostic object, NULL if none
static struct fy_diag_error* first_error(struct fy_diag* diag) {
  void* it = NULL;
  return fy_diag_errors_iterate(diag, &it);
}


// limits of a deck's aliases: the nodes they copy in all (libfyaml copies each, slowly: a million
// took over half a minute under the sanitizers), aliases inside aliases
enum { MAX_ALIAS_COPIES = 100000, MAX_ALIAS_NESTING = 64 };

typedef struct {
  long nodes;                               // counted so far inside aliases (copies)
  struct fy_node* open[MAX_ALIAS_NESTING];  // targets of the aliases being expanded
  int nopen;
  struct fy_node* culprit;  // the outermost alias that passed a limit
  int resolve;              // 1 if the document has an alias or a merge key ("<<")
} expansion;


static void count_expanded(expansion* x, struct fy_node* fyn);


// an alias: its target counted again, unless it refers to itself (libfyaml reports the cycle)
static void count_alias(expansion* x, struct fy_node* alias) {
  x->resolve = 1;
  struct fy_node* target = fy_node_resolve_alias(alias);
  for (int i = 0; i < x->nopen; i++) {
    if (x->open[i] == target) {
      return;
    }
  }
  if (x->nopen == MAX_ALIAS_NESTING) {
    x->nodes = MAX_ALIAS_COPIES + 1L;
  } else if (target) {
    x->open[x->nopen++] = target;
    count_expanded(x, target);
    x->nopen--;
  }
  if (x->nodes > MAX_ALIAS_COPIES) {
    x->culprit = alias;  // the outermost one once the recursion has unwound
  }
}


// nodes of fyn that aliases copy, added to x->nodes until they pass the limit
static void count_expanded(expansion* x, struct fy_node* fyn) {
  if (!fyn || x->nodes > MAX_ALIAS_COPIES) {
    return;
  }
  x->nodes += x->nopen > 0;
  void* it = NULL;
  if (fy_node_is_alias(fyn)) {
    count_alias(x, fyn);
  } else if (fy_node_is_mapping(fyn)) {
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(fyn, &it)) && x->nodes <= MAX_ALIAS_COPIES) {
      struct fy_node* k = fy_node_pair_key(p);
      size_t len = 0;
      const char* text = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &len) : NULL;
      x->resolve |= text && len == 2 && !memcmp(text, "<<", 2);
      count_expanded(x, k);
      count_expanded(x, fy_node_pair_value(p));
    }
  } else if (fy_node_is_sequence(fyn)) {
    struct fy_node* item;
    while ((item = fy_node_sequence_iterate(fyn, &it)) && x->nodes <= MAX_ALIAS_COPIES) {
      count_expanded(x, item);
    }
  }
}


// aliases of aliases can make a small file expand to billions of nodes ("billion laughs"):
// count the expansion of the unresolved document before libfyaml resolves (copies) it; *resolve
// gets 1 if there is anything to resolve (aliases, merge keys)
static int check_expansion(rdDeck* dk, int* resolve) {
  expansion x = {0};
  count_expanded(&x, fy_document_root(dk->fyd));
  *resolve = x.resolve;
  if (x.nodes <= MAX_ALIAS_COPIES) {
    return RD_OK;
  }
  int line = 1, col = 1;
  struct fy_token* t = x.culprit ? fy_node_get_scalar_token(x.culprit) : NULL;
  const struct fy_mark* m = t ? fy_token_start_mark(t) : NULL;
  if (m) {
    line = m->line + 1;
    col = m->column + 1;
  }
  return RD_ERROR(dk->ctx, RD_ERR_DECK,
                  "%s:%d:%d: aliases copy more than %d YAML nodes into the deck (or nest more "
                  "than %d deep)",
                  dk->path, line, col, (int)MAX_ALIAS_COPIES, (int)MAX_ALIAS_NESTING);
}


// the first node with an explicit YAML tag in fyn ("!!str 1"), NULL if none
static struct fy_node* first_tagged(struct fy_node* fyn) {
  if (!fyn) {
    return NULL;
  }
  if (fy_node_get_tag(fyn, NULL)) {
    return fyn;
  }
  void* it = NULL;
  struct fy_node* hit = NULL;
  if (fy_node_is_mapping(fyn)) {
    struct fy_node_pair* p;
    while (!hit && (p = fy_node_mapping_iterate(fyn, &it))) {
      hit = first_tagged(fy_node_pair_key(p));
      hit = hit ? hit : first_tagged(fy_node_pair_value(p));
    }
  } else if (fy_node_is_sequence(fyn)) {
    struct fy_node* item;
    while (!hit && (item = fy_node_sequence_iterate(fyn, &it))) {
      hit = first_tagged(item);
    }
  }
  return hit;
}


// a deck's values are typed by their keys, not by tags: "mass: !!str 1" would otherwise be read
// as the number 1 (the tag silently ignored)
static int check_tags(rdDeck* dk) {
  struct fy_node* tagged = first_tagged(fy_document_root(dk->fyd));
  if (!tagged) {
    return RD_OK;
  }
  size_t len = 0;
  const char* tag = fy_node_get_tag(tagged, &len);
  return rd_deckError(dk, tagged,
                      "YAML tags are not used in decks (found '%.*s'); write the value "
                      "alone",
                      (int)(len < 64 ? len : 64), tag);
}


// 1 if the text has a '*' that may start an alias: an alias is a node of its own, so a '*' right
// after a letter, a digit, '_', '.' or ')' is inside a scalar ("20*t" in an expression)
static int may_alias(const char* text, size_t len) {
  for (const char* p = memchr(text, '*', len); p;
       p = memchr(p + 1, '*', len - (size_t)(p + 1 - text))) {
    unsigned char before = p > text ? (unsigned char)p[-1] : ' ', low = before | 0x20;
    int word = (before >= '0' && before <= '9') || (low >= 'a' && low <= 'z') || before == '_';
    if (!(word || before == '.' || before == ')')) {
      return 1;
    }
  }
  return 0;
}


// 1 if the text may hold an alias, a tag ('!') or a merge key ("<<", also written with escapes in
// double quotes: '\\'); without them both walks of the whole document (check_expansion,
// check_tags) would find nothing, and a large deck is spared them
static int may_alias_or_tag(const char* text, size_t len) {
  return may_alias(text, len) || memchr(text, '!', len) || memchr(text, '<', len) ||
         memchr(text, '\\', len);
}


// the first error the YAML parser collected, as FILE:LINE:COLUMN (or an empty `kind`)
static int yaml_error(rdDeck* dk, struct fy_diag* diag, const char* kind) {
  struct fy_diag_error* e = first_error(diag);
  if (e) {
    return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s:%d:%d: invalid YAML: %s", dk->path, e->line,
                    e->column, e->msg);
  }
  return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s:1:1: empty %s (no YAML document)", dk->path, kind);
}


// the text must be printable UTF-8 before libfyaml sees it: its scanner loops forever on some
// invalid bytes in a directive ("%\377")
static int check_text(rdDeck* dk, const char* kind) {
  int line, col;
  const char* what;
  size_t bad = rd_textCheck(dk->text, dk->len, &line, &col, &what);
  if (bad == dk->len) {
    return RD_OK;
  }
  return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s:%d:%d: invalid %s: %s (byte 0x%02x)", dk->path, line,
                  col, kind, what, (unsigned char)dk->text[bad]);
}


int rd_deckLoad(rdDeck* dk, struct fy_diag** diag, const char* kind, const char* not_mapping) {
  *diag = NULL;
  if (!dk->text) {
    // the file, read whole: no parser reads a stream
    int too_large = 0;
    int st =
        rd_readInput(dk->ctx, dk->path, RD_DECK_MAX_BYTES, 1, &dk->owned, &dk->len, &too_large);
    if (st != RD_OK) {
      return st;
    }
    dk->text = dk->owned ? dk->owned : "";
    if (too_large) {
      dk->len = (size_t)RD_DECK_MAX_BYTES + 1;
    }
  }
  if (dk->len > RD_DECK_MAX_BYTES) {
    return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s: larger than %u MiB, the limit of a %s", dk->path,
                    RD_DECK_MAX_BYTES >> 20, kind);
  }
  int st = check_text(dk, kind);
  if (st) {
    return st;
  }
  struct fy_diag_cfg dcfg;
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = NULL;
  dcfg.level = FYET_ERROR;
  *diag = fy_diag_create(&dcfg);
  if (!*diag) {
    return RD_ERROR(dk->ctx, RD_ERR_NOMEM, "%s: cannot create a YAML diagnostic object", dk->path);
  }
  fy_diag_set_collect_errors(*diag, true);
  struct fy_parse_cfg cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.flags = FYPCF_QUIET;  // anchors, aliases and merge keys resolved below, once counted
  cfg.diag = *diag;
  dk->fyd = fy_document_build_from_string(&cfg, dk->text, dk->len);
  if (!dk->fyd) {
    return yaml_error(dk, *diag, kind);
  }
  if (may_alias_or_tag(dk->text, dk->len)) {
    int resolve = 0;
    st = check_expansion(dk, &resolve);
    if (st) {
      return st;
    }
    // (resolving checks for alias loops, copies alias targets and merges; a document without
    // aliases and merge keys comes out of it as it went in, after a walk as costly as the parse)
    dk->resolved = resolve;
    if (resolve && fy_document_resolve(dk->fyd)) {
      return yaml_error(dk, *diag, kind);
    }
    st = check_tags(dk);
    if (st) {
      return st;
    }
  }
  struct fy_node* root = fy_document_root(dk->fyd);
  if (!root || rd_deckIsNull(root)) {
    return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s:1:1: empty %s (no YAML document)", dk->path, kind);
  }
  if (!fy_node_is_mapping(root)) {
    return rd_deckError(dk, root, "%s", not_mapping);
  }
  return RD_OK;
}


void rd_deckUnload(rdDeck* dk, struct fy_diag* diag) {
  if (dk->fyd) {
    fy_document_destroy(dk->fyd);
    dk->fyd = NULL;
  }
  if (diag) {
    fy_diag_destroy(diag);
  }
  rd_free(dk->ctx, dk->owned);
  dk->owned = NULL;
  dk->text = NULL;
}


// ---------------------------------------------------------------------------------------------
// option sections

// the distinct prefixes of the option keys ("solver", "output"), into sec[0..n)
static int option_sections(char sec[][32], int max) {
  int n = 0;
  int nopt = rd_optionList(0, NULL, NULL, NULL, NULL);
  for (int i = 0; i < nopt; i++) {
    const char* key = NULL;
    rd_optionList(i, &key, NULL, NULL, NULL);
    const char* dot = key ? strchr(key, '.') : NULL;
    size_t len = dot ? (size_t)(dot - key) : 0;
    if (!len || len >= sizeof(sec[0])) {
      continue;
    }
    int seen = 0;
    for (int j = 0; j < n && !seen; j++) {
      seen = strlen(sec[j]) == len && !strncmp(sec[j], key, len);
    }
    if (!seen && n < max) {
      memcpy(sec[n], key, len);
      sec[n][len] = '\0';
      n++;
    }
  }
  return n;
}


// the current name of option `full` (key node k); a renamed one is warned about where it is
static const char* current_key(rdDeck* dk, struct fy_node* k, const char* full) {
  char where[1024];
  rd_deckWhere(dk, k, where, sizeof(where));
  return rd_optionKey(dk->ctx, full, where);
}


// set one option from a scalar value
static int set_option(rdDeck* dk, const char* section, struct fy_node* k, struct fy_node* v) {
  const char* name = fy_node_get_scalar0(k);
  if (rd_deckIsNull(v)) {
    return rd_deckError(dk, k, "'%s' has no value", name);
  }
  if (!fy_node_is_scalar(v)) {
    return rd_deckError(dk, v, "'%s' must be a single value", name);
  }
  char full[256];
  if (snprintf(full, sizeof(full), "%s.%s", section, name) >= (int)sizeof(full)) {
    return rd_deckError(dk, k, "unknown key '%s'", name);  // longer than any option key
  }
  const char* key = current_key(dk, k, full);
  int st = rds_setOption(dk->spec, key, fy_node_get_scalar0(v));
  if (st < 0) {
    return rd_deckRelay(dk, v, st);
  }
  int idx = rd_optionIndex(key);
  return idx < 0 ? RD_OK : rd_deckOrigin(dk, v, RD_OBJ_OPTION, idx);
}


// keys of the output section that are lists, not options (read after the objects)
static const char* const output_lists[] = {"nodes", "reactions", "section_loads", NULL};


// 1 if `key` is one of output_lists
static int is_output_list(const char* key) {
  for (int i = 0; output_lists[i]; i++) {
    if (!strcmp(key, output_lists[i])) {
      return 1;
    }
  }
  return 0;
}


// the option keys of `section` without the prefix, plus the NULL-terminated `extra` (may be
// NULL), or with `renamed` their old names (rd_optionDeprecated); NULL-terminated
static const char** section_keys(rdDeck* dk, const char* section, const char* const* extra,
                                 int renamed) {
  int nopt =
      renamed ? rd_optionDeprecated(0, NULL, NULL) : rd_optionList(0, NULL, NULL, NULL, NULL);
  int nextra = 0;
  while (extra && extra[nextra]) {
    nextra++;
  }
  const char** keys = rd_alloc(dk->ctx, sizeof(char*) * (size_t)(nopt + nextra + 1));
  if (!keys) {
    return NULL;
  }
  size_t len = strlen(section);
  int n = 0;
  for (int i = 0; i < nopt; i++) {
    const char* key = NULL;
    if (renamed) {
      rd_optionDeprecated(i, &key, NULL);
    } else {
      rd_optionList(i, &key, NULL, NULL, NULL);
    }
    if (key && !strncmp(key, section, len) && key[len] == '.') {
      keys[n++] = key + len + 1;
    }
  }
  for (int i = 0; i < nextra && !renamed; i++) {
    keys[n++] = extra[i];
  }
  keys[n] = NULL;
  return keys;
}


// an option section: every key is an option "<section>.<key>"; the lists of the output section
// (nodes, reactions, section_loads) are read later
static int read_option_section(rdDeck* dk, struct fy_node* root, const char* section) {
  struct fy_node* k = NULL;
  struct fy_node* map = rd_deckLookup(root, section, &k);
  if (!k || rd_deckIsNull(map)) {
    return RD_OK;
  }
  int is_output = !strcmp(section, "output");
  const char** keys = section_keys(dk, section, is_output ? output_lists : NULL, 0);
  const char** old = keys ? section_keys(dk, section, NULL, 1) : NULL;
  int st = old ? rd_deckCheckMapRenamed(dk, map, section, keys, old) : RD_ERR_NOMEM;
  rd_free(dk->ctx, (void*)keys);
  rd_free(dk->ctx, (void*)old);
  void* it = NULL;
  struct fy_node_pair* p;
  while (st == RD_OK && (p = fy_node_mapping_iterate(map, &it))) {
    struct fy_node* key = fy_node_pair_key(p);
    if (!(is_output && is_output_list(fy_node_get_scalar0(key)))) {
      st = set_option(dk, section, key, fy_node_pair_value(p));
    }
  }
  return st;
}


static int output_node(rdDeck* dk, struct fy_node* item) {
  int node;
  int st = rd_deckNodeRef(dk, item, "nodes", 0, &node);
  if (st == RD_OK) {
    st = rds_addOutputNode(dk->spec, node);
    if (st < 0) {
      return rd_deckRelay(dk, item, st);
    }
  }
  return st;
}


// the index of the object of `kind` named by the scalar v (a joint or a beam), or an error
static int object_ref(rdDeck* dk, struct fy_node* v, rdObjKind kind, const char* what, int* out) {
  const char* name = fy_node_is_scalar(v) ? fy_node_get_scalar0(v) : NULL;
  if (!name || rd_deckIsNull(v)) {
    return rd_deckError(dk, v, "'%s' must be a %s name", what, what);
  }
  *out = rds_find(dk->spec, kind, name);
  return *out >= 0 ? RD_OK : rd_deckError(dk, v, "undefined %s '%s'", what, name);
}


// output.reactions: joint names
static int output_reaction(rdDeck* dk, struct fy_node* item) {
  int joint = -1;
  int st = object_ref(dk, item, RD_OBJ_JOINT, "joint", &joint);
  if (st == RD_OK) {
    st = rds_addOutputReaction(dk->spec, joint);
    if (st < 0) {
      return rd_deckRelay(dk, item, st);
    }
  }
  return st;
}


// output.section_loads: {beam: NAME, s: FRACTION}
static int output_section(rdDeck* dk, struct fy_node* item) {
  static const char* const keys[] = {"beam", "s", NULL};
  int st = rd_deckCheckMap(dk, item, "a section load", keys);
  int beam = -1;
  double s = 0;
  if (st == RD_OK) {
    struct fy_node* v = rd_deckLookup(item, "beam", NULL);
    st = v ? object_ref(dk, v, RD_OBJ_BEAM, "beam", &beam)
           : rd_deckError(dk, item, "a section load needs 'beam'");
  }
  if (st == RD_OK) {
    st = rd_deckGetReal(dk, item, "s", 1, &s);
    st = st < 0 ? st : RD_OK;
  }
  if (st == RD_OK && !(s >= 0 && s <= 1)) {
    st = rd_deckError(dk, rd_deckLookup(item, "s", NULL), "'s' must be in [0, 1], got %g", s);
  }
  if (st == RD_OK) {
    st = rds_addOutputSectionLoad(dk->spec, beam, s);
    if (st < 0) {
      return rd_deckRelay(dk, item, st);
    }
  }
  return st;
}

// ---------------------------------------------------------------------------------------------
// top level

// check the top-level keys; sec gets the option sections
static int check_top(rdDeck* dk, struct fy_node* root, char sec[][32], int* nsec) {
  *nsec = option_sections(sec, MAX_SECTIONS);
  const char* keys[MAX_SECTIONS + 16];
  int n = 0;
  for (; fixed_sections[n]; n++) {
    keys[n] = fixed_sections[n];
  }
  for (int i = 0; i < *nsec; i++) {
    keys[n++] = sec[i];
  }
  keys[n] = NULL;
  return rd_deckCheckMap(dk, root, "the deck", keys);
}


static int read_globals(rdDeck* dk, struct fy_node* root) {
  const char* title = NULL;
  int st = rd_deckGetString(dk, root, "title", 0, &title);
  if (st < 0) {
    return st;
  }
  double g[3];
  st = rd_deckGetVec(dk, root, "gravity", 3, 0, g);
  if (st == 1) {
    st = rds_setGravity(dk->spec, g);
    if (st < 0) {
      return rd_deckRelay(dk, rd_deckLookup(root, "gravity", NULL), st);
    }
  }
  return st < 0 ? st : RD_OK;
}


static int read_root(rdDeck* dk) {
  struct fy_node* root = fy_document_root(dk->fyd);
  char sec[MAX_SECTIONS][32];
  int nsec = 0;
  int st = check_top(dk, root, sec, &nsec);
  if (st == RD_OK) {
    st = read_globals(dk, root);
  }
  for (int i = 0; st == RD_OK && i < nsec; i++) {
    st = read_option_section(dk, root, sec[i]);
  }
  // time functions and nodes first: the other sections refer to them by name
  if (st == RD_OK) {
    st = rd_deckReadTimeFns(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadNodes(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadElements(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadJoints(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadLoads(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadTorqueLaws(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckReadSubsystems(dk, root);
  }
  if (st == RD_OK) {
    st = rd_deckEach(dk, rd_deckLookup(root, "output", NULL), "nodes", output_node);
  }
  if (st == RD_OK) {
    st = rd_deckEach(dk, rd_deckLookup(root, "output", NULL), "reactions", output_reaction);
  }
  if (st == RD_OK) {
    st = rd_deckEach(dk, rd_deckLookup(root, "output", NULL), "section_loads", output_section);
  }
  return st;
}


// read the deck dk->text (set by the caller) with the overrides
static int read_deck(rdDeck* dk, const char* const* overrides, int noverride) {
  struct fy_diag* diag = NULL;
  int st = rd_deckLoad(dk, &diag, "deck",
                       "the deck must be a mapping of sections (title, solver, nodes, ...)");
  if (st == RD_OK) {
    st = rd_createSpec(dk->ctx, &dk->spec);
  }
  if (st == RD_OK) {
    st = rd_deckApplyOverrides(dk, overrides, noverride);
  }
  if (st == RD_OK) {
    st = read_root(dk);
  }
  if (st < 0) {
    rd_destroySpec(&dk->spec);
  }
  rd_deckFreeNames(dk, &dk->nodes);
  rd_deckFreeNames(dk, &dk->timefns);
  rd_free(dk->ctx, (void*)dk->set_node);
  rd_free(dk->ctx, (void*)dk->set_text);
  rd_deckUnload(dk, diag);
  return st < 0 ? st : RD_OK;
}


// the arguments both entry points share
static int check_args(rdContext* ctx, const char* fn, const char* const* overrides, int noverride,
                      rdSpec** spec) {
  if (spec) {
    *spec = NULL;
  }
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!spec || noverride < 0 || (noverride > 0 && !overrides)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "%s: invalid argument", fn);
  }
  return RD_OK;
}


int rd_readDeck(rdContext* ctx, const char* path, const char* const* overrides, int noverride,
                rdSpec** spec) {
  int st = check_args(ctx, "rd_readDeck", overrides, noverride, spec);
  if (st < 0) {
    return st;
  }
  if (!path) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_readDeck: NULL path");
  }
  rdDeck dk;
  memset(&dk, 0, sizeof(dk));
  dk.ctx = ctx;
  dk.path = path;
  st = read_deck(&dk, overrides, noverride);
  *spec = dk.spec;
  return st;
}


int rd_readDeckText(rdContext* ctx, const char* name, const char* text, size_t len,
                    const char* const* overrides, int noverride, rdSpec** spec) {
  int st = check_args(ctx, "rd_readDeckText", overrides, noverride, spec);
  if (st < 0) {
    return st;
  }
  if (!name || (!text && len)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_readDeckText: NULL %s", name ? "text" : "name");
  }
  rdDeck dk;
  memset(&dk, 0, sizeof(dk));
  dk.ctx = ctx;
  dk.path = name;
  dk.text = text ? text : "";
  dk.len = len;
  st = read_deck(&dk, overrides, noverride);
  *spec = dk.spec;
  return st;
}
