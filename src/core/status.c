// SPDX-License-Identifier: MIT
// Status code texts, generated from RD_STATUS_LIST.
#include "rodrigues/status.h"

const char* rd_statusString(int status) {
  switch (status) {
#define RD_STATUS_TEXT(name, value, text) \
  case value:                             \
    return text;
    RD_STATUS_LIST(RD_STATUS_TEXT)
#undef RD_STATUS_TEXT
    default:
      return "unknown status";
  }
}


const char* rd_statusName(int status) {
  switch (status) {
#define RD_STATUS_NAME(name, value, text) \
  case value:                             \
    return #name;
    RD_STATUS_LIST(RD_STATUS_NAME)
#undef RD_STATUS_NAME
    default:
      return "RD_UNKNOWN";
  }
}
