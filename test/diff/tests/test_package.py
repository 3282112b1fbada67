"""The package's own rules: every module says its job, every public function and
class has a docstring, no library module changes sys.path, and no module reaches a
private (_name) thing of another."""
import ast
import os
import unittest

from glcdiff import PACKAGE_DIR


def modules():
    """(path relative to the package, parsed tree) of every module of glcdiff."""
    out = []
    for folder, _, files in os.walk(PACKAGE_DIR):
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                with open(path) as src:
                    out.append((os.path.relpath(path, PACKAGE_DIR), ast.parse(src.read())))
    return sorted(out, key=lambda m: m[0])


def public_defs(tree):
    """(name, node) of the module's public functions and classes and their public methods."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node.name, node
            if isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, ast.FunctionDef) and not m.name.startswith("_"):
                        yield f"{node.name}.{m.name}", m


class PackageRules(unittest.TestCase):
    def test_module_docstrings(self):
        for path, tree in modules():
            with self.subTest(module=path):
                self.assertTrue(ast.get_docstring(tree), f"{path} does not say its job")

    def test_public_docstrings(self):
        missing = [f"{path}: {name}" for path, tree in modules()
                   for name, node in public_defs(tree) if not ast.get_docstring(node)]
        self.assertEqual(missing, [])

    def test_no_sys_path_changes(self):
        bad = [path for path, tree in modules() for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr == "path"
               and isinstance(node.value, ast.Name) and node.value.id == "sys"]
        self.assertEqual(bad, [])

    def test_no_private_imports(self):
        bad = []
        for path, tree in modules():
            mods = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("glcdiff"):
                    bad += [f"{path}: {a.name}" for a in node.names if a.name.startswith("_")]
                    mods.update(a.asname or a.name for a in node.names)
                elif isinstance(node, ast.Import):
                    mods.update((a.asname or a.name).split(".")[0] for a in node.names
                                if a.name.startswith("glcdiff"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__")
                        and isinstance(node.value, ast.Name) and node.value.id in mods):
                    bad.append(f"{path}: {node.value.id}.{node.attr}")
        self.assertEqual(bad, [])


if __name__ == "__main__":
    unittest.main()
