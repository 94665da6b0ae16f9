// SPDX-License-Identifier: MIT
// Small text helpers shared by the option table and the deck reader.
#ifndef RD_STRUTIL_H
#define RD_STRUTIL_H

// edit (Levenshtein) distance between a and b, capped at 64
int rd_editDistance(const char* a, const char* b);

// the entry of list[0..n) closest to s, if close enough to be a likely typo (distance <= 2, or
// <= a third of the length); NULL otherwise
const char* rd_closestName(const char* s, const char* const* list, int n);

// 1 if s is a decimal number: [+-] digits [. digits] [e [+-] digits], at least one digit, blanks
// around it allowed (not hexadecimal, not inf or nan, which strtod would take)
int rd_isDecimal(const char* s);

// parse a whole string as a finite decimal double (rd_isDecimal); 0 on success, -1 otherwise
int rd_parseReal(const char* s, double* out);

// parse a whole string as an int; 0 on success, -1 otherwise
int rd_parseInt(const char* s, int* out);

// `rel` resolved against the directory of the file `base` (unchanged if absolute or if `base`
// has no directory) into out; 0, or -1 if it does not fit in `size`
int rd_pathBeside(char* out, int size, const char* base, const char* rel);

#endif  // RD_STRUTIL_H
