// SPDX-License-Identifier: MIT
// A hash index from names to integers (the spec's, the deck reader's and the model's names).
#ifndef RD_NAMES_H
#define RD_NAMES_H

#include "rodrigues/context.h"

// open addressing with linear probing, at most half full; the keys are borrowed (the strings
// must outlive the index and not change). Zero-initialized is empty.
typedef struct rdNameSlot_ {
  const char* key;  // NULL: free
  unsigned hash;
  int value;
} rdNameSlot;

typedef struct rdNameIndex_ {
  rdNameSlot* slot;  // capacity (a power of two, or 0)
  int count;
  int capacity;
} rdNameIndex;

// make room for `n` names in all, so that that many rd_nameIndexPut calls cannot fail;
// RD_OK or RD_ERR_NOMEM (the index unchanged)
int rd_nameIndexReserve(rdContext* ctx, rdNameIndex* x, int n);

// map `key` to `value` (a key already present gets the new value), growing as needed;
// RD_OK or RD_ERR_NOMEM (the index unchanged)
int rd_nameIndexPut(rdContext* ctx, rdNameIndex* x, const char* key, int value);

// the value of `key`, or -1 if absent
int rd_nameIndexGet(const rdNameIndex* x, const char* key);

// release the slots; the index is empty again
void rd_nameIndexFree(rdContext* ctx, rdNameIndex* x);

#endif  // RD_NAMES_H
