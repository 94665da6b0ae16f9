// SPDX-License-Identifier: MIT
// Deck reader: where a YAML node is ("FILE:LINE:COL" or "--set KEY=VALUE") and error raising.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"
#include "src/io/deck_impl.h"

// ---------------------------------------------------------------------------------------------
// locations

// 1 if x is root or inside it
static int subtree_has(struct fy_node* root, struct fy_node* x) {
  if (!root) {
    return 0;
  }
  if (root == x) {
    return 1;
  }
  void* it = NULL;
  if (fy_node_is_mapping(root)) {
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(root, &it))) {
      if (subtree_has(fy_node_pair_key(p), x) || subtree_has(fy_node_pair_value(p), x)) {
        return 1;
      }
    }
  } else if (fy_node_is_sequence(root)) {
    struct fy_node* item;
    while ((item = fy_node_sequence_iterate(root, &it))) {
      if (subtree_has(item, x)) {
        return 1;
      }
    }
  }
  return 0;
}


void rd_deckForget(rdDeck* dk, struct fy_node* old) {
  int n = 0;
  for (int i = 0; i < dk->nset; i++) {
    if (!subtree_has(old, dk->set_node[i])) {
      dk->set_node[n] = dk->set_node[i];
      dk->set_text[n] = dk->set_text[i];
      n++;
    }
  }
  dk->nset = n;
}


// index of the override a node comes from, -1 if it comes from the file
static int override_of(const rdDeck* dk, struct fy_node* fyn) {
  for (int i = dk->nset - 1; i >= 0; i--) {
    if (subtree_has(dk->set_node[i], fyn)) {
      return i;
    }
  }
  return -1;
}


// 1 if an override put a node inside fyn
static int holds_override(const rdDeck* dk, struct fy_node* fyn) {
  for (int i = 0; i < dk->nset; i++) {
    if (subtree_has(fyn, dk->set_node[i])) {
      return 1;
    }
  }
  return 0;
}


// position of a collection from libfyaml's node reporter (0.7 has no public accessor for the
// marks of a collection); it must not hold nodes built from --set strings, which the reporter
// cannot span
static int report_mark(struct fy_node* fyn, int* line, int* col) {
  struct fy_diag_cfg cfg;
  fy_diag_cfg_default(&cfg);
  cfg.fp = NULL;
  cfg.level = FYET_ERROR;
  struct fy_diag* diag = fy_diag_create(&cfg);
  if (!diag) {
    return 0;
  }
  fy_diag_set_collect_errors(diag, true);
  fy_diag_node_report(diag, fyn, FYET_ERROR, "position");
  void* it = NULL;
  struct fy_diag_error* e = fy_diag_errors_iterate(diag, &it);
  int ok = e && e->line > 0 && e->column > 0;
  if (ok) {
    *line = e->line;
    *col = e->column;
  }
  fy_diag_destroy(diag);
  return ok;
}


// 1 if every scalar in fyn has a token: libfyaml's reporter cannot place a collection holding
// an empty value
static int scalars_have_tokens(struct fy_node* fyn) {
  void* it = NULL;
  if (fy_node_is_scalar(fyn)) {
    return fy_node_get_scalar_token(fyn) != NULL;
  }
  if (fy_node_is_mapping(fyn)) {
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(fyn, &it))) {
      struct fy_node* k = fy_node_pair_key(p);
      struct fy_node* v = fy_node_pair_value(p);
      if ((k && !scalars_have_tokens(k)) || (v && !scalars_have_tokens(v))) {
        return 0;
      }
    }
    return 1;
  }
  struct fy_node* item;
  while ((item = fy_node_sequence_iterate(fyn, &it))) {
    if (!scalars_have_tokens(item)) {
      return 0;
    }
  }
  return 1;
}


// the position report_mark gives, for a document libfyaml has not resolved (whose nodes all
// come from the file): the start of the collection's first event ('{', '[', or the first key
// or item of a block collection), at a small part of the reporter's cost, which formats a
// message around a copy of the node's text
static int start_mark(struct fy_node* fyn, int* line, int* col) {
  if (!scalars_have_tokens(fyn)) {
    return 0;
  }
  struct fy_document_iterator* it = fy_document_iterator_create();
  if (!it) {
    return 0;
  }
  fy_document_iterator_node_start(it, fyn);
  struct fy_event* e = fy_document_iterator_body_next(it);
  const struct fy_mark* m = e ? fy_event_start_mark(e) : NULL;
  if (m) {
    *line = m->line + 1;
    *col = m->column + 1;
  }
  if (e) {
    fy_document_iterator_event_free(it, e);
  }
  fy_document_iterator_destroy(it);
  return m != NULL;
}


// position of the first scalar token in fyn (its own for a scalar)
static int token_mark(struct fy_node* fyn, int* line, int* col) {
  if (!fyn) {
    return 0;
  }
  if (fy_node_is_scalar(fyn)) {
    struct fy_token* t = fy_node_get_scalar_token(fyn);
    const struct fy_mark* m = t ? fy_token_start_mark(t) : NULL;
    if (m) {
      // the token of a quoted scalar starts after its opening quote
      enum fy_node_style style = fy_node_get_style(fyn);
      int quoted = style == FYNS_SINGLE_QUOTED || style == FYNS_DOUBLE_QUOTED;
      *line = m->line + 1;
      *col = m->column + 1 - (quoted && m->column > 0);
    }
    return m != NULL;
  }
  void* it = NULL;
  if (fy_node_is_mapping(fyn)) {
    struct fy_node_pair* p = fy_node_mapping_iterate(fyn, &it);
    return p && (token_mark(fy_node_pair_key(p), line, col) ||
                 token_mark(fy_node_pair_value(p), line, col));
  }
  return token_mark(fy_node_sequence_iterate(fyn, &it), line, col);
}


// the key whose value is fyn in the mapping map, NULL if there is none
static struct fy_node* key_of_value(struct fy_node* map, struct fy_node* fyn) {
  void* it = NULL;
  struct fy_node_pair* p;
  while ((p = fy_node_mapping_iterate(map, &it))) {
    if (fy_node_pair_value(p) == fyn) {
      return fy_node_pair_key(p);
    }
  }
  return NULL;
}


// position of the nearest mapping key above fyn: the place of a node without a token of its
// own, such as an empty list item ("-" and nothing after it)
static int enclosing_key_mark(struct fy_node* fyn, int* line, int* col) {
  for (struct fy_node* up = fy_node_get_parent(fyn); up; fyn = up, up = fy_node_get_parent(up)) {
    struct fy_node* key = fy_node_is_mapping(up) ? key_of_value(up, fyn) : NULL;
    if (key && token_mark(key, line, col)) {
      return 1;
    }
  }
  return 0;
}


// the last scalar token before a node: where it ends, and whether it is a mapping key (then its
// ':' follows it)
typedef struct {
  size_t end;
  int key;
} lastToken;


// walk the document in order up to `target`, keeping the last token before it in *last; 1 once
// the target is reached
static int tokens_before(struct fy_node* fyn, struct fy_node* target, int is_key, lastToken* last) {
  if (!fyn) {
    return 0;
  }
  if (fyn == target) {
    return 1;
  }
  void* it = NULL;
  if (fy_node_is_mapping(fyn)) {
    struct fy_node_pair* p;
    while ((p = fy_node_mapping_iterate(fyn, &it))) {
      if (tokens_before(fy_node_pair_key(p), target, 1, last) ||
          tokens_before(fy_node_pair_value(p), target, 0, last)) {
        return 1;
      }
    }
  } else if (fy_node_is_sequence(fyn)) {
    struct fy_node* item;
    while ((item = fy_node_sequence_iterate(fyn, &it))) {
      if (tokens_before(item, target, 0, last)) {
        return 1;
      }
    }
  } else {
    struct fy_token* t = fy_node_get_scalar_token(fyn);
    const struct fy_mark* m = t ? fy_token_end_mark(t) : NULL;
    if (m && m->input_pos >= last->end) {
      last->end = m->input_pos;
      last->key = is_key;
    }
  }
  return 0;
}


// place of an empty node (a null key ": x", an empty item "-"), which has no token: the first
// character after the last token before it that is not blank or a comment (its ':', '?' or '-')
static int text_mark(const rdDeck* dk, struct fy_node* fyn, int* line, int* col) {
  lastToken last = {0, 0};
  if (!dk->text || !tokens_before(fy_document_root(dk->fyd), fyn, 0, &last) || last.end > dk->len) {
    return 0;
  }
  const char* s = dk->text;
  size_t i = last.end;
  // blanks and comments; the ':' after a key; a document marker "---" before the first node
  int colon = last.key;
  int marker = last.end == 0;
  while (i < dk->len) {
    if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n')) {
      while (i < dk->len && s[i] != '\n') {
        i++;
      }
    } else if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
      i++;
    } else if (colon && s[i] == ':') {
      colon = 0;
      i++;
    } else if (marker && dk->len - i >= 3 && !strncmp(s + i, "---", 3)) {
      marker = 0;
      i += 3;
    } else {
      break;
    }
  }
  if (i >= dk->len) {
    return 0;
  }
  int ln = 1, cl = 1;
  for (size_t k = 0; k < i; k++) {
    if (s[k] == '\n') {
      ln++;
      cl = 1;
    } else if (((unsigned char)s[k] & 0xc0) != 0x80) {
      cl++;  // columns in characters
    }
  }
  *line = ln;
  *col = cl;
  return 1;
}


// 1-based line and column of a node from the file; 0 if it has none
static int node_mark(const rdDeck* dk, struct fy_node* fyn, int* line, int* col) {
  if (!fy_node_is_scalar(fyn) && !holds_override(dk, fyn) &&
      (dk->resolved ? report_mark(fyn, line, col) : start_mark(fyn, line, col))) {
    return 1;
  }
  if (token_mark(fyn, line, col)) {
    return 1;
  }
  if (text_mark(dk, fyn, line, col)) {
    return 1;
  }
  return enclosing_key_mark(fyn, line, col);
}


void rd_deckWhere(const rdDeck* dk, struct fy_node* at, char* buf, size_t size) {
  int i = at ? override_of(dk, at) : -1;
  int line, col;
  if (i >= 0) {
    snprintf(buf, size, "--set %s", dk->set_text[i]);
  } else if (at && node_mark(dk, at, &line, &col)) {
    snprintf(buf, size, "%s:%d:%d", dk->path, line, col);
  } else {
    snprintf(buf, size, "%s", dk->path);
  }
}


int rd_deckError(rdDeck* dk, struct fy_node* at, const char* fmt, ...) {
  char where[1024];
  rd_deckWhere(dk, at, where, sizeof(where));
  char msg[RD_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return RD_ERROR(dk->ctx, RD_ERR_DECK, "%s: %s", where, msg);
}


int rd_deckRelay(rdDeck* dk, struct fy_node* at, int status) {
  if (status == RD_ERR_NOMEM) {
    return status;
  }
  char msg[RD_ERRLEN];
  snprintf(msg, sizeof(msg), "%s", rd_lastError(dk->ctx));
  return rd_deckError(dk, at, "%s", msg);
}


int rd_deckOrigin(rdDeck* dk, struct fy_node* at, rdObjKind kind, int index) {
  char where[1024];
  rd_deckWhere(dk, at, where, sizeof(where));
  return rds_setOrigin(dk->spec, kind, index, where);
}
