#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Check that the Fortran module binds the whole public C API:
#   1. every RD_API function declared in include/rodrigues/*.h has a bind(c, name='...')
#      interface in fortran/rodrigues.f90 (and the module binds nothing the headers lack);
#   2. with a C and a Fortran compiler (CC, FC; default cc, gfortran), every definition struct
#      of the headers has the same size in C (sizeof) and in the module (c_sizeof of its
#      bind(c) type), and every enum constant and RD_ macro the module defines has C's value.
# usage: tools/check_fortran.py SOURCE_DIR [LIBRARY [FLAGS]]   (LIBRARY: the built librodrigues.so,
# which the Fortran side links for the module's wrappers, without it part 2 is left out; FLAGS:
# more compiler flags for both sides, e.g. the sanitizers of an instrumented library)
# Prints "N passed, M failed" and exits 1 on a failure.
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
lib = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
flags = sys.argv[3].split() if len(sys.argv) > 3 else []
headers = sorted(glob.glob(os.path.join(src, "include", "rodrigues", "*.h")))
module = open(os.path.join(src, "fortran", "rodrigues.f90")).read()
passed = failed = 0


def check(ok, message):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + message)


# 1. names: RD_API declarations (comments removed) against bind(c, name='...')
api = {}
for h in headers:
    text = re.sub(r"//[^\n]*", "", open(h).read())
    text = re.sub(r"(?m)^#.*$", "", text)
    for m in re.finditer(r"\bRD_API\b[^;{(]*?\b(\w+)\s*\(", text):
        api[m.group(1)] = os.path.basename(h)
bound = set(re.findall(r"bind\(c,\s*name\s*=\s*'(\w+)'\)", module, re.IGNORECASE))
bound.discard("strlen")
for name, header in sorted(api.items()):
    check(name in bound, f"{name} ({header}) has no bind(c) interface in fortran/rodrigues.f90")
for name in sorted(bound - set(api)):
    check(False, f"fortran/rodrigues.f90 binds {name}, which no public header declares")
print(f"{len(api)} RD_API functions in {len(headers)} headers, {len(bound & set(api))} bound")

# 2. layouts and constants, compiled on both sides
cc = os.environ.get("CC", "cc")
fc = os.environ.get("FC", "gfortran")
if lib and shutil.which(cc) and shutil.which(fc):
    structs = re.findall(r"(?im)^\s*type, bind\(c\) :: (\w+)", module)
    consts = re.findall(r"(?im)^\s*integer\(c_int\), parameter :: (RD_\w+) = ", module)
    with tempfile.TemporaryDirectory() as work:
        csrc = os.path.join(work, "sizes.c")
        with open(csrc, "w") as f:
            f.write("#include <stdio.h>\n#include \"rodrigues/rodrigues.h\"\nint main(void) {\n")
            for s in structs:
                f.write(f'  printf("{s.lower()} %zu\\n", sizeof({s}));\n')
            for c in consts:
                f.write(f'  printf("{c.lower()} %ld\\n", (long)({c}));\n')
            f.write("  return 0;\n}\n")
        fsrc = os.path.join(work, "sizes.f90")
        with open(fsrc, "w") as f:
            f.write("program sizes\n  use rodrigues\n  implicit none\n")
            for s in structs:
                f.write(f"  type({s}) :: v_{s}\n")
            for s in structs:
                f.write(f"  print '(a, 1x, i0)', '{s.lower()}', c_sizeof(v_{s})\n")
            for c in consts:
                f.write(f"  print '(a, 1x, i0)', '{c.lower()}', {c}\n")
            f.write("end program sizes\n")
        inc = os.path.join(src, "include")
        subprocess.run([cc, "-std=c11"] + flags + ["-I", inc, csrc, "-o", os.path.join(work, "c")],
                       check=True)
        modsrc = os.path.join(src, "fortran", "rodrigues.f90")
        subprocess.run([fc, "-std=f2018"] + flags + ["-J", work, modsrc, fsrc, lib,
                        "-Wl,-rpath," + os.path.dirname(lib), "-o", os.path.join(work, "f")],
                       check=True, cwd=work)
        cout = subprocess.run([os.path.join(work, "c")], capture_output=True, text=True,
                              check=True).stdout.split("\n")
        fout = subprocess.run([os.path.join(work, "f")], capture_output=True, text=True,
                              check=True).stdout.split("\n")
        cmap = dict(line.split() for line in cout if line.strip())
        fmap = dict(line.split() for line in fout if line.strip())
        for key in sorted(cmap):
            check(fmap.get(key) == cmap[key],
                  f"{key}: C says {cmap[key]}, the Fortran module {fmap.get(key)}")
        print(f"{len(structs)} structs and {len(consts)} constants compared with C")
    # structs of the headers that the module lacks
    ctypes = set(re.findall(r"typedef struct \w+ \{[^}]*\}\s*(\w+);", "\n".join(
        re.sub(r"//[^\n]*", "", open(h).read()) for h in headers), re.S))
    for t in sorted(ctypes - set(structs)):
        check(False, f"struct {t} has no bind(c) type in fortran/rodrigues.f90")
else:
    print(f"note: no library given, or {cc} or {fc} not found: layouts not compared")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
