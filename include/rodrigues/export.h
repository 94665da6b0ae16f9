// SPDX-License-Identifier: MIT
// Symbol visibility and version macros of the public API.
#ifndef RODRIGUES_EXPORT_H
#define RODRIGUES_EXPORT_H

#if defined(RD_BUILDING) && defined(__GNUC__)
#define RD_API __attribute__((visibility("default")))
#else
#define RD_API
#endif

#define RD_VERSION_MAJOR 0
#define RD_VERSION_MINOR 1
#define RD_VERSION_PATCH 0

#endif  // RODRIGUES_EXPORT_H
