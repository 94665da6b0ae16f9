#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the keys the deck reader accepts with those docs/deck.md documents.

The reader's keys are its NULL-terminated string arrays in src/io/deck*.c (the keys of each
mapping, the names of each type, kind and enumeration), the option table of src/model/options.c
(the `solver` and `output` sections, their renamed keys and the names of their enumerations) and
the option sections' prefixes. Each array belongs to a section of docs/deck.md (a `##` heading,
or a `###` one for the element types); a key is documented when it is written in backticks in
that section. The other way, every key in the first column of a table of docs/deck.md must be
one that the reader accepts in that section. Prints each difference, exits 1 if there is one.

usage: tools/check_deck_keys.py [SOURCE_ROOT]
"""
import os
import re
import sys

# (file, array) of src/io/deck*.c -> the section of docs/deck.md that documents its strings
ARRAYS = {
    ("deck.c", "fixed_sections"): "Top level",
    ("deck.c", "output_lists"): "`output`",
    ("deck.c", "keys"): "`output`",  # a section load {beam, s}
    ("deck_nodes.c", "node_keys"): "`nodes`",
    ("deck_nodes.c", "point_keys"): "`nodes`",
    ("deck_nodes.c", "node_kinds"): "`nodes`",
    ("deck_nodes.c", "frames"): "`nodes`",
    ("deck_nodes.c", "orientation_keys"): "`nodes`",
    ("deck_nodes.c", "fn_types"): "`time_functions`",
    ("deck_nodes.c", "fn_keys"): "`time_functions`",
    ("deck_nodes.c", "fn_constant_keys"): "`time_functions`",
    ("deck_nodes.c", "fn_points_keys"): "`time_functions`",
    ("deck_nodes.c", "fn_expression_keys"): "`time_functions`",
    ("deck_elements.c", "elem_types"): "`elements`",
    ("deck_elements.c", "elem_keys"): "`elements`",
    ("deck_elements.c", "body_keys"): "`rigid_body`",
    ("deck_elements.c", "inertia_refs"): "`rigid_body`",
    ("deck_elements.c", "mass_keys"): "`point_mass`",
    ("deck_elements.c", "spring_keys"): "`spring`",
    ("deck_elements.c", "bushing_keys"): "`bushing`",
    ("deck_elements.c", "beam_keys"): "`beam`",
    ("deck_elements.c", "beamdyn_beam_keys"): "`beam`",
    ("deck_elements.c", "quad_names"): "`beam`",
    ("deck_elements.c", "field_names"): "`beam`",
    ("deck_elements.c", "virtual_names"): "`beam`",
    ("deck_elements.c", "bool_names"): "`beam`",
    ("deck_elements.c", "frame_names"): "`beam`",
    ("deck_elements.c", "section_keys"): "`beam`",
    ("deck_elements.c", "load_keys"): "`beam`",
    ("deck_elements.c", "arc_keys"): "`beam`",
    ("deck_beamdyn.c", "sections_keys"): "`beam`",
    ("deck_beamdyn.c", "beamdyn_keys"): "`beam`",
    ("deck_joints.c", "joint_types"): "`joints`",
    ("deck_joints.c", "joint_keys"): "`joints`",
    ("deck_joints.c", "fixed_keys"): "`joints`",
    ("deck_joints.c", "rigid_keys"): "`joints`",
    ("deck_joints.c", "spherical_keys"): "`joints`",
    ("deck_joints.c", "revolute_keys"): "`joints`",
    ("deck_joints.c", "universal_keys"): "`joints`",
    ("deck_joints.c", "slider_keys"): "`joints`",
    ("deck_joints.c", "prescribed_keys"): "`joints`",
    ("deck_joints.c", "rotctl_keys"): "`joints`",
    ("deck_joints.c", "motion_keys"): "`joints`",
    ("deck_joints.c", "load_keys"): "`loads`",
    ("deck_joints.c", "load_types"): "`loads`",
    ("deck_joints.c", "frames"): "`loads`",
    ("deck_joints.c", "torque_types"): "`torque_laws`",
    ("deck_joints.c", "torque_keys"): "`torque_laws`",
    ("deck_joints.c", "wall_keys"): "`torque_laws`",
    ("deck_joints.c", "expr_keys"): "`torque_laws`",
    ("deck_subsystems.c", "subsystem_keys"): "`subsystems`",
    ("deck_subsystems.c", "predictors"): "`subsystems`",
    ("deck_subsystems.c", "rigid_methods"): "`subsystems`",
}

# keys every list item of these sections has, said once in the section's introduction
ITEM_KEYS = {"name", "type"}


def c_arrays(text):
    """NULL-terminated string arrays of a C file: {name: [strings]}."""
    arrays = {}
    pattern = r"static const char\* const (\w+)\[\]\s*=\s*\{(.*?)\};"
    for m in re.finditer(pattern, text, re.S):
        body = re.sub(r"//[^\n]*", "", m.group(2))
        if "NULL" in body:
            arrays[m.group(1)] = re.findall(r'"([^"]*)"', body)
    return arrays


def sections(doc):
    """The sections of the page: {## title: its text with its ### sections}, {### title: its
    text and its ## section's introduction}."""
    whole, subs, parent_of, intro = {}, {}, {}, {}
    top = sub = None
    for line in doc.splitlines():
        m = re.match(r"(#{2,3}) (.*)", line)
        if m and len(m.group(1)) == 2:
            top, sub = m.group(2).strip(), None
            whole[top], intro[top] = [], []
            continue
        if m:
            sub = m.group(2).strip()
            subs[sub], parent_of[sub] = [], top
        if top is not None:
            whole[top].append(line)
            (subs[sub] if sub else intro[top]).append(line)
    text = {k: "\n".join(v) for k, v in whole.items()}
    subtext = {k: "\n".join(v + intro[parent_of[k]]) for k, v in subs.items()}
    return text, subtext, parent_of


def table_keys(text):
    """The backticked words of the first column of every table row of `text`."""
    keys = set()
    for line in text.splitlines():
        m = re.match(r"\|\s*([^|]*)\|", line)
        if m and "`" in m.group(1):
            keys.update(re.findall(r"`([a-z_0-9]+)`", m.group(1)))
    return keys


def backticked(text):
    """Words written in backticks (`key`, and the key of `key: value`) and the keys of flow
    mappings ({key: ...}) in `text`."""
    words = set()
    for w in re.findall(r"`([^`]+)`", text):
        words.add(w)
        m = re.match(r"([a-z_0-9]+):", w)
        if m:
            words.add(m.group(1))
    return words | set(re.findall(r"[{,]\s*([a-z_0-9]+):", text))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    doc = open(os.path.join(root, "docs", "deck.md"), encoding="utf-8").read()
    whole, subs, parent_of = sections(doc)
    sec = {**whole, **subs}
    problems = []

    # the reader's arrays
    accepted = {}  # section -> keys and names the reader accepts there
    iodir = os.path.join(root, "src", "io")
    seen = set()
    for name in sorted(os.listdir(iodir)):
        if not (name.startswith("deck") and name.endswith(".c")):
            continue
        arrays = c_arrays(open(os.path.join(iodir, name), encoding="utf-8").read())
        for array, words in arrays.items():
            where = ARRAYS.get((name, array))
            if where is None:
                problems.append(f"src/io/{name}: array {array} is not mapped to a section of "
                                f"docs/deck.md (tools/check_deck_keys.py, ARRAYS)")
                continue
            seen.add((name, array))
            if where not in sec:
                problems.append(f"docs/deck.md has no section {where} (for {name}:{array})")
                continue
            text = sec[where]
            words_here = backticked(text)
            for w in words:
                accepted.setdefault(where, set()).add(w)
                if w not in words_here and w not in ITEM_KEYS:
                    problems.append(f"docs/deck.md, section {where}: `{w}` ({name}: {array}) "
                                    f"is not documented")
    for key in ARRAYS:
        if key not in seen:
            problems.append(f"tools/check_deck_keys.py: no array {key[1]} in src/io/{key[0]}")

    # the option table: solver.K and output.K, renamed keys, the names of enumerations
    opts = open(os.path.join(root, "src", "model", "options.c"), encoding="utf-8").read()
    enums = c_arrays(opts)
    prefixes = set()
    for m in re.finditer(r'\{"(\w+)\.(\w+)", OPT_(\w+), [^,]+, [^,]+, [^,]+, [^,]+, (\w+),', opts):
        prefix, key, kind, names = m.groups()
        prefixes.add(prefix)
        where = f"`{prefix}`"
        accepted.setdefault(where, set()).add(key)
        rows = [l for l in sec.get(where, "").splitlines() if l.startswith(f"| `{key}` |")]
        if not rows:
            problems.append(f"docs/deck.md, section {where}: option {prefix}.{key} has no row")
        elif kind == "ENUM":
            for value in enums.get(names, []):
                if f"`{value}`" not in rows[0]:
                    problems.append(f"docs/deck.md, option {prefix}.{key}: the value `{value}` "
                                    f"is not documented in its row")
    for old in re.findall(r'\{"(\w+\.\w+)", "\w+\.\w+"\}', opts):
        prefix, key = old.split(".")
        accepted.setdefault(f"`{prefix}`", set()).add(key)
        if f"| `{key}` |" not in sec.get(f"`{prefix}`", ""):
            problems.append(f"docs/deck.md: the renamed option {old} has no row")
    for prefix in prefixes:
        accepted.setdefault("Top level", set()).add(prefix)
        if f"| `{prefix}` |" not in sec.get("Top level", ""):
            problems.append(f"docs/deck.md, Top level: the section `{prefix}` has no row")

    # the other way: every key of a table is accepted in its section or one of its ### sections
    for title, text in whole.items():
        inner = [sub for sub, top in parent_of.items() if top == title]
        if title not in accepted and not any(sub in accepted for sub in inner):
            continue
        allowed = set(accepted.get(title, set())) | ITEM_KEYS
        for sub in inner:
            allowed |= accepted.get(sub, set())
        for key in sorted(table_keys(text)):
            if key not in allowed:
                problems.append(f"docs/deck.md, section {title}: `{key}` is in a table but the "
                                f"reader does not accept it there")

    for p in problems:
        print(p)
    nkeys = sum(len(v) for v in accepted.values())
    if problems:
        print(f"check_deck_keys: {len(problems)} difference(s)")
        return 1
    print(f"check_deck_keys: {nkeys} keys and names in {len(accepted)} sections, all documented, "
          f"every documented key read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
