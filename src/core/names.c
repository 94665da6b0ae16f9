// SPDX-License-Identifier: MIT
// A hash index from names to integers: open addressing, linear probing, FNV-1a hashes.
//
// Our own rather than a library's: it needs the context's allocator, borrowed keys and three
// operations (glib's GHashTable would bring a heavy dependency, POSIX hsearch_r a fixed size
// and no allocator, uthash a node struct per entry).
#include "src/core/names.h"

#include <string.h>

#include "src/core/core.h"

static unsigned hash_of(const char* s) {
  unsigned h = 2166136261u;
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 16777619u;
  }
  return h;
}


// the slot of `key` (hash h), or the free slot where it would go
static rdNameSlot* probe(rdNameSlot* slot, int capacity, const char* key, unsigned h) {
  unsigned mask = (unsigned)capacity - 1;
  for (unsigned i = h & mask;; i = (i + 1) & mask) {
    rdNameSlot* s = slot + i;
    if (!s->key || (s->hash == h && !strcmp(s->key, key))) {
      return s;
    }
  }
}


int rd_nameIndexReserve(rdContext* ctx, rdNameIndex* x, int n) {
  if (2 * (long)n <= x->capacity) {
    return RD_OK;
  }
  int cap = x->capacity ? x->capacity : 16;
  while (cap < 2 * (long)n) {
    cap *= 2;
  }
  rdNameSlot* slot = rd_calloc(ctx, (size_t)cap, sizeof(rdNameSlot));
  if (!slot) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < x->capacity; i++) {
    const rdNameSlot* s = x->slot + i;
    if (s->key) {
      *probe(slot, cap, s->key, s->hash) = *s;
    }
  }
  rd_free(ctx, x->slot);
  x->slot = slot;
  x->capacity = cap;
  return RD_OK;
}


int rd_nameIndexPut(rdContext* ctx, rdNameIndex* x, const char* key, int value) {
  int st = rd_nameIndexReserve(ctx, x, x->count + 1);
  if (st < 0) {
    return st;
  }
  unsigned h = hash_of(key);
  rdNameSlot* s = probe(x->slot, x->capacity, key, h);
  if (!s->key) {
    s->key = key;
    s->hash = h;
    x->count++;
  }
  s->value = value;
  return RD_OK;
}


int rd_nameIndexGet(const rdNameIndex* x, const char* key) {
  if (!x->capacity || !key) {
    return -1;
  }
  const rdNameSlot* s = probe(x->slot, x->capacity, key, hash_of(key));
  return s->key ? s->value : -1;
}


void rd_nameIndexFree(rdContext* ctx, rdNameIndex* x) {
  rd_free(ctx, x->slot);
  memset(x, 0, sizeof(*x));
}
