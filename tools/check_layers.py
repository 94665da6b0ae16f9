#!/usr/bin/env python3
"""Fail on an internal #include that reaches upward in the layer order of docs/architecture.md.

Each library file belongs to the layer of its folder. A file may include public headers
(rodrigues/*.h), headers of its own layer and headers of the layers below it; nothing else.
The command-line program (src/cli/) may include only public headers and its own. Tests,
benchmarks and examples may include anything.

With a build directory, the calls are checked too: every symbol an object file of the library
uses must be defined in its own layer or below (a header can declare a function that a higher
layer defines; the include check alone would not see the call).

  tools/check_layers.py [BUILD_DIR]
"""
import os
import re
import subprocess
import sys

# bottom to top; a folder's layer is that of its longest matching prefix
LAYERS = [
    ("include/rodrigues", "public API"),
    ("src/math", "math"),
    ("src/core", "core"),
    ("src/model", "model"),
    ("elements", "elements"),
    ("constraints", "constraints"),
    ("solver", "solver"),
    ("src/sim", "sim"),
    ("src/io", "io"),
]
CLI = "src/cli"
CHECKED = [p for p, _ in LAYERS] + [CLI]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    best = None
    for i, (prefix, _) in enumerate(LAYERS):
        if path == prefix or path.startswith(prefix + "/"):
            if best is None or len(prefix) > len(LAYERS[best][0]):
                best = i
    return best


def check_calls(build, sources):
    """Upward calls between the library's object files (nm of BUILD/librodrigues.so.*.p)."""
    objdirs = [d for d in os.listdir(build) if d.startswith("librodrigues.so") and d.endswith(".p")]
    if not objdirs:
        return [f"{build}: no librodrigues.so.*.p object folder (build the library first)"]
    objdir = os.path.join(build, objdirs[0])
    by_object = {s.replace("/", "_") + ".o": s for s in sources if s.endswith(".c")}
    defined, used = {}, {}
    for obj in sorted(os.listdir(objdir)):
        src = by_object.get(obj)
        if src is None or layer_of(src) is None:
            continue
        out = subprocess.check_output(["nm", os.path.join(objdir, obj)], text=True)
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRC":
                defined[parts[2]] = src
            elif len(parts) == 2 and parts[0] == "U":
                used.setdefault(src, set()).add(parts[1])
    bad = []
    for src, syms in sorted(used.items()):
        for sym in sorted(syms):
            owner = defined.get(sym)
            if owner is None:
                continue  # a system or third-party library
            lf, lo = layer_of(src), layer_of(owner)
            if lo > lf:
                bad.append(f"{src}: {LAYERS[lf][1]} calls {sym} of the higher layer "
                           f"{LAYERS[lo][1]} ({owner})")
    return bad


def main():
    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    build = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else None
    os.chdir(root)
    files = subprocess.check_output(["git", "ls-files", "*.c", "*.h"], text=True).split()
    bad = []
    for f in files:
        if not any(f.startswith(p + "/") for p in CHECKED):
            continue
        d = os.path.dirname(f)
        text = open(f, encoding="utf-8").read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            where = f"{f}:{line}"
            if name == "rd_config.h":
                continue  # generated into the build root: version strings only
            if name.startswith("rodrigues/"):
                target = "include/" + name
            elif "/" not in name and os.path.exists(os.path.join(d, name)) and d == CLI:
                continue  # the CLI's own header
            else:
                target = name
            if not os.path.exists(target):
                bad.append(f"{where}: \"{name}\" is not a path from the source root")
                continue
            if f.startswith(CLI + "/"):
                if not target.startswith("include/rodrigues/"):
                    bad.append(f"{where}: the CLI includes the internal header \"{name}\"")
                continue
            lf, lt = layer_of(f), layer_of(target)
            if lt is None:
                bad.append(f"{where}: \"{name}\" belongs to no library layer")
            elif lt > lf:
                bad.append(f"{where}: {LAYERS[lf][1]} includes \"{name}\" of the higher "
                           f"layer {LAYERS[lt][1]}")
    if build:
        bad += check_calls(build, files)
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} upward or unrooted includes or calls", file=sys.stderr)
        return 1
    print(f"check_layers: {len(LAYERS)} layers, no upward include" +
          (", no upward call" if build else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
