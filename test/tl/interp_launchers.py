"""Writes C launchers for interp_glrt.c from glc's launcher headers.

    python3 interp_launchers.py FILE.py STEM HEADER... > launchers.c

Each prototype `NAME(glrt_stream, unsigned, unsigned, unsigned, ARGS)` of a
header (glc --emit=header of a kernel line of FILE.py, launcher STEM_LINE)
becomes a function that calls interp_launch(FILE, LINE, grid, kinds, ...).
"""
import re
import sys

KIND = {"glrt_devptr": "p", "int32_t": "i", "uint32_t": "u", "int64_t": "l", "uint64_t": "L",
        "float": "f", "double": "f", "int8_t": "i", "int16_t": "i", "uint8_t": "u",
        "uint16_t": "u", "_Bool": "i", "bool": "i", "const glrt_tensor_map *": "t"}


def main():
    path, stem = sys.argv[1], sys.argv[2]
    print('#include "interp_glrt.h"\n#include <stdbool.h>')
    for h in sys.argv[3:]:
        text = open(h).read()
        for m in re.finditer(r"glrt_status\n(\w+)\(([^)]*)\);", text):
            name, params = m.group(1), [p.strip() for p in m.group(2).split(",")]
            args = params[4:]
            kinds, names = "", []
            for a in args:
                t, n = re.match(r"(.*?)\s*(\w+)$", a).groups()
                kinds += KIND[t.strip()]
                names.append(n)
            line = name[len(stem) + 1:]
            print("glrt_status\n%s(%s)\n{\n\t(void)stream;\n\treturn interp_launch(\"%s\", \"%s\", "
                  "grid_x, grid_y, grid_z, \"%s\"%s);\n}" % (
                      name, ", ".join(params), path, line, kinds,
                      "".join(", " + n for n in names)))


main()
