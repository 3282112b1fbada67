#!/usr/bin/env python3
"""`make layering`: every #include of a module's sources must name the module
itself or one it may depend on, as listed in the module table of
docs/internals.md (section "Modules and their dependencies"); inside a module
that has sub-rooms (folders such as sema/eval/), an include of another room's
header must be listed in the rooms table that follows it, and that table
must be free of circles. With --sizes it also checks file sizes: no source
file over 600 lines (but the bison grammar, one file by bison's design), no
internal header (any .h but a module's public one)
over 250. Prints one line per violation as FILE:LINE: message and exits 1
when there is any."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "internals.md")
SOURCE = re.compile(r".*\.(c|h|re|y)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
MAX_FILE_LINES = 600
MAX_INTERNAL_HEADER_LINES = 250


def read_table(lines, marker):
    """name -> set of names it may include, from the two-column table after
    the line starting with marker (empty when there is no such line)."""
    graph = {}
    start = next((i for i, l in enumerate(lines) if l.startswith(marker)), None)
    if start is None:
        return graph
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            if graph:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("module", "room", "---"):
            continue
        graph[cells[0]] = {d.strip() for d in cells[1].split(",") if d.strip()}
    return graph


def read_graphs():
    """(modules, rooms): the module table and the rooms table of DOC."""
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    return read_table(lines, "<!-- layering:"), read_table(lines, "<!-- layering-rooms:")


def sources(module):
    """Every source file of module, its own folder and the rooms below it,
    as paths relative to ROOT."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, module)):
        dirs.sort()
        for name in sorted(files):
            if SOURCE.match(name):
                out.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return out


def room_of(path):
    """The room of a file or include target: the folder it is in."""
    return os.path.dirname(path)


def check_include(rel, no, quote, target, module, allowed, rooms):
    """The problem with one #include of rel (module's file), or None."""
    head = target.split("/")[0] if "/" in target else None
    if quote == "<":
        if head == "llvm-c" and "llvm-c" not in allowed:
            return f"{rel}:{no}: includes <{target}>, but only modules listing llvm-c may"
        return None
    if head is None:
        return None
    if head != module:
        if head not in allowed:
            may = ", ".join(sorted(allowed)) or "no other module"
            return f"{rel}:{no}: includes \"{target}\", but {module} may include only {may}"
        return None
    src, dst = room_of(rel), room_of(target)
    if src == dst or not any(r == module or r.startswith(module + "/") for r in rooms):
        return None
    if src not in rooms:
        return f"{rel}:{no}: {src} is not a room of the rooms table in docs/internals.md"
    if dst not in rooms[src]:
        may = ", ".join(sorted(rooms[src])) or "no other room"
        return f"{rel}:{no}: includes \"{target}\", but {src} may include only {may}"
    return None


def check(modules, rooms):
    problems = []
    for module, allowed in sorted(modules.items()):
        for rel in sources(module):
            with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m:
                        p = check_include(rel, no, m.group(1), m.group(2), module, allowed, rooms)
                        if p:
                            problems.append(p)
    return problems


def circles(rooms):
    """One message per room that reaches itself through the rooms table."""
    out = []
    for start in sorted(rooms):
        seen, todo = set(), list(rooms[start])
        while todo:
            r = todo.pop()
            if r == start:
                out.append(f"docs/internals.md: room {start} reaches itself through the rooms table")
                break
            if r not in seen:
                seen.add(r)
                todo.extend(rooms.get(r, ()))
    return out


def public_header(module):
    """The module's one public header (e.g. sema/sema.h), by convention."""
    names = {"runtime": "glrt.h"}
    return os.path.join(module, names.get(module, module + ".h"))


def sizes(modules):
    out = []
    for module in sorted(modules):
        for rel in sources(module):
            with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
                n = sum(1 for _ in f)
            if n > MAX_FILE_LINES and not rel.endswith(".y"):
                out.append(f"{rel}:{n}: {n} lines, more than {MAX_FILE_LINES}")
            elif rel.endswith(".h") and rel != public_header(module) and \
                    n > MAX_INTERNAL_HEADER_LINES:
                out.append(f"{rel}:{n}: an internal header of {n} lines, more than "
                           f"{MAX_INTERNAL_HEADER_LINES}")
    return out


def main():
    modules, rooms = read_graphs()
    missing = [m for m in list(modules) + list(rooms) if not os.path.isdir(os.path.join(ROOT, m))]
    if not modules or missing:
        print(f"layering: bad module or rooms table in {DOC}: {missing or 'empty'}")
        return 1
    problems = check(modules, rooms) + circles(rooms)
    if "--sizes" in sys.argv[1:]:
        problems += sizes(modules)
    for p in problems:
        print(p)
    print(f"layering: {len(modules)} modules, {len(rooms)} rooms, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
