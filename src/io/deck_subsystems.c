// SPDX-License-Identifier: MIT
// The deck's `subsystems`: rigid bodies advanced by a rigid-body method inside generalized-alpha
// (mixed stepping, docs/mixed.md).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/model.h"
#include "src/core/core.h"
#include "src/io/deck_impl.h"

static const char* const subsystem_keys[] = {"name",     "bodies",    "method",
                                             "substeps", "predictor", NULL};
static const char* const predictors[] = {"substeps", "taylor", NULL};  // rdSubsystemPredictor

// the rigid-body methods, in rdMethod order from RD_METHOD_NMB
static const char* const rigid_methods[] = {
    "nmb", "nms", "liemid_e1", "liemid_e2", "liemid_ea", "liemid_i", "sw", "hstagm", "akw", NULL};

#define MAX_BODIES 4096


// the item of the deck's `elements` named `name`, NULL if none
static struct fy_node* find_element(struct fy_node* root, const char* name) {
  struct fy_node* seq = rd_deckLookup(root, "elements", NULL);
  if (!seq || !fy_node_is_sequence(seq)) {
    return NULL;
  }
  void* it = NULL;
  struct fy_node* item;
  while ((item = fy_node_sequence_iterate(seq, &it))) {
    struct fy_node* nm = fy_node_is_mapping(item) ? rd_deckLookup(item, "name", NULL) : NULL;
    const char* s = nm && fy_node_is_scalar(nm) ? fy_node_get_scalar0(nm) : NULL;
    if (s && !strcmp(s, name)) {
      return item;
    }
  }
  return NULL;
}


// a body: a node name, or the name of a rigid_body element (its node)
static int body_node(rdDeck* dk, struct fy_node* root, struct fy_node* v, int k, int* node) {
  char what[32];
  snprintf(what, sizeof(what), "bodies[%d]", k);
  const char* s = fy_node_is_scalar(v) ? fy_node_get_scalar0(v) : NULL;
  if (s && rds_find(dk->spec, RD_OBJ_NODE, s) < 0) {
    struct fy_node* el = find_element(root, s);
    if (el) {
      struct fy_node* type = rd_deckLookup(el, "type", NULL);
      const char* ts = type && fy_node_is_scalar(type) ? fy_node_get_scalar0(type) : "";
      if (strcmp(ts, "rigid_body")) {
        return rd_deckError(dk, v, "'%s': element '%s' is a %s, not a rigid_body", what, s,
                            *ts ? ts : "element without a type");
      }
      return rd_deckGetNode(dk, el, "node", 0, 1, node) < 0 ? RD_ERR_DECK : RD_OK;
    }
  }
  // a node name, or an undefined one (with a did-you-mean among the nodes)
  return rd_deckNodeRef(dk, v, what, 0, node);
}


static int read_subsystem(rdDeck* dk, struct fy_node* map, struct fy_node* root, int* nodes) {
  rdSubsystemDef def = rd_defaultSubsystemDef();
  int st = rd_deckCheckMap(dk, map, "subsystem", subsystem_keys);
  if (st >= 0) {
    st = rd_deckGetName(dk, map, RD_OBJ_SUBSYSTEM, "subsystem", &def.name);
  }
  struct fy_node* key = NULL;
  struct fy_node* list = st >= 0 ? rd_deckLookup(map, "bodies", &key) : NULL;
  if (st >= 0 && !key) {
    st = rd_deckError(dk, map, "missing required key 'bodies'");
  }
  if (st >= 0 && (!fy_node_is_sequence(list) || fy_node_sequence_item_count(list) < 1)) {
    st = rd_deckError(dk, rd_deckIsNull(list) ? key : list,
                      "'bodies' must be a list of rigid bodies (node or rigid_body element names)");
  }
  int n = st >= 0 ? fy_node_sequence_item_count(list) : 0;
  if (n > MAX_BODIES) {
    st = rd_deckError(dk, list, "a subsystem has at most %d bodies, got %d", MAX_BODIES, n);
  }
  for (int k = 0; st >= 0 && k < n; k++) {
    struct fy_node* v = fy_node_sequence_get_by_index(list, k);
    st = body_node(dk, root, v, k, &nodes[k]);
    for (int j = 0; st >= 0 && j < k; j++) {
      if (nodes[j] == nodes[k]) {
        st = rd_deckError(dk, v, "'bodies[%d]': the body on node '%s' is listed twice", k,
                          dk->nodes.name[nodes[k]]);
      }
    }
  }
  int method = RD_METHOD_LIEMID_EA - RD_METHOD_NMB;
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "method", rigid_methods, 0, &method);
  }
  double sub = 1;
  if (st >= 0) {
    st = rd_deckGetReal(dk, map, "substeps", 0, &sub);
  }
  int predictor = RD_SUBSYSTEM_PREDICT_SUBSTEPS;
  if (st >= 0) {
    st = rd_deckGetEnum(dk, map, "predictor", predictors, 0, &predictor);
  }
  if (st >= 0 && (sub != floor(sub) || sub < 1 || sub > 1e6)) {
    st = rd_deckError(dk, rd_deckLookup(map, "substeps", NULL),
                      "'substeps' must be a whole number from 1 to 1000000, got %g", sub);
  }
  if (st < 0) {
    return st;
  }
  def.nbody = n;
  def.nodes = nodes;
  def.method = RD_METHOD_NMB + method;
  def.substeps = (int)sub;
  def.predictor = (rdSubsystemPredictor)predictor;
  int idx = rds_addSubsystem(dk->spec, &def);
  if (idx < 0) {
    return rd_deckRelay(dk, map, idx);
  }
  return rd_deckOrigin(dk, map, RD_OBJ_SUBSYSTEM, idx);
}


int rd_deckReadSubsystems(rdDeck* dk, struct fy_node* root) {
  struct fy_node* seq;
  int st = rd_deckList(dk, root, "subsystems", &seq);
  if (st <= 0) {
    return st;
  }
  int* nodes = rd_alloc(dk->ctx, MAX_BODIES * sizeof(int));
  if (!nodes) {
    return RD_ERR_NOMEM;
  }
  void* it = NULL;
  struct fy_node* item;
  for (int i = 0; st >= 0 && (item = fy_node_sequence_iterate(seq, &it)); i++) {
    if (rd_deckIsNull(item)) {
      st = rd_deckError(dk, item, "item %d of 'subsystems' is empty", i);
    } else {
      st = read_subsystem(dk, item, root, nodes);
    }
  }
  rd_free(dk->ctx, nodes);
  return st < 0 ? st : RD_OK;
}
