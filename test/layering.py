#!/usr/bin/env python3
"""`make layering`: every #include of a module's sources must name the module
itself or one it may depend on, as listed in the table of docs/internals.md
(section "Modules and their dependencies"). Prints one line per violation
as FILE:LINE: message and exits 1 when there is any."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "internals.md")
SOURCE = re.compile(r".*\.(c|h|re|y)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def read_graph():
    """module -> set of modules it may include, from the table after the
    layering marker in docs/internals.md."""
    graph = {}
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("<!-- layering:"))
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            if graph:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("module", "---"):
            continue
        graph[cells[0]] = {d.strip() for d in cells[1].split(",") if d.strip()}
    return graph


def check(graph):
    problems = []
    for module, allowed in sorted(graph.items()):
        folder = os.path.join(ROOT, module)
        for name in sorted(os.listdir(folder)):
            if not SOURCE.match(name):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    quote, target = m.groups()
                    head = target.split("/")[0] if "/" in target else None
                    if quote == "<":
                        if head == "llvm-c" and "llvm-c" not in allowed:
                            problems.append(f"{module}/{name}:{no}: includes <{target}>, but "
                                            f"only modules listing llvm-c may")
                        continue
                    if head is None or head == module:
                        continue
                    if head not in allowed:
                        may = ", ".join(sorted(allowed)) or "no other module"
                        problems.append(f"{module}/{name}:{no}: includes \"{target}\", but "
                                        f"{module} may include only {may}")
    return problems


def main():
    graph = read_graph()
    missing = [m for m in graph if not os.path.isdir(os.path.join(ROOT, m))]
    if not graph or missing:
        print(f"layering: bad module table in {DOC}: {missing or 'empty'}")
        return 1
    problems = check(graph)
    for p in problems:
        print(p)
    print(f"layering: {len(graph)} modules, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
