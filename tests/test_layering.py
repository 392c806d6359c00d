# CPython only: each module uses the others through their public names, read from the modules'
# own imports and attribute uses (ast): no import cycle among firmware/, boards/ and host_tools/;
# no module reads another's private names; only the match and the rules read a match's state.
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("firmware", "boards", "host_tools")

# A module split in two so that a board loads the second part only when it needs it (the shot
# rules of the game played: rules_141, rules_8ball, rules_9ball, rules_10ball; the journal's repairs:
# journal_fix) is one module: the part may use the private names of the module it was split from.
SPLIT = {"firmware.rules_141": "firmware.rules", "firmware.rules_8ball": "firmware.rules",
         "firmware.rules_9ball": "firmware.rules", "firmware.rules_10ball": "firmware.rules",
         "firmware.journal_fix": "firmware.journal"}

# The modules that read a match's rules state (firmware.match.Match.s) itself: the match and
# the rules; every other module asks the match (Match.get, player, state...: docs/contracts.md).
STATE_READERS = {"firmware.match", "firmware.rules", "firmware.rules_141",
                 "firmware.rules_8ball", "firmware.rules_9ball", "firmware.rules_10ball"}

# Reads of a match's state (module, function) outside STATE_READERS: none.
KNOWN_STATE_READS = set()


def _modules():
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


MODULES = _modules()


def _resolve(name):
    # The project module an import names (itself, or the package it is in), else None.
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _package(mod):
    # The package a relative import in mod starts from.
    tree_is_pkg = (ROOT / mod.replace(".", "/") / "__init__.py").exists()
    return mod if tree_is_pkg else mod.rpartition(".")[0]


def _imports(mod, tree):
    """[(node, imported module, name imported from it or None, local name)] of every import in
    mod (at its top and inside functions), project modules only."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                target = _resolve(a.name)
                if target:
                    # "import a.b.c" binds a; "import a.b.c as x" binds x to a.b.c
                    local = a.asname or a.name.split(".")[0]
                    out.append((node, target if a.asname else _resolve(local), None, local,
                                a.name if not a.asname else None))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package(mod)
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = pkg + ("." + base if base else "")
            for a in node.names:
                sub = _resolve(base + "." + a.name)
                if sub == base + "." + a.name:  # "from pkg import module"
                    out.append((node, sub, None, a.asname or a.name, None))
                elif _resolve(base):
                    out.append((node, _resolve(base), a.name, a.asname or a.name, None))
    return out


def _graph():
    # Module -> the modules it imports; a split module's part counts as the module (SPLIT).
    g = {m: set() for m in MODULES if m not in SPLIT}
    for mod, tree in MODULES.items():
        for _node, target, _name, _local, _dotted in _imports(mod, tree):
            a, b = SPLIT.get(mod, mod), SPLIT.get(target, target)
            if a != b:
                g[a].add(b)
    return g


def _cycles(g):
    # Strongly connected components of more than one module (Tarjan), each sorted.
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _may_read_private(mod, target):
    return target == mod or SPLIT.get(mod) == target


def _dotted(node):
    # "a.b.c" of an attribute chain of names, else None.
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _private_reads(mod, tree):
    out = []
    bound = {}  # local name -> the module it names
    dotted = set()  # "import a.b": the chain a.b names module a.b
    for node, target, name, local, full in _imports(mod, tree):
        if name is not None:
            if _private(name) and not _may_read_private(mod, target):
                out.append((mod, node.lineno, "from %s import %s" % (target, name)))
        else:
            bound[local] = target
            if full:
                dotted.add(full)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        chain = _dotted(node.value)
        if chain is None:
            continue
        target = None
        if chain in dotted:
            target = chain
        elif "." not in chain and chain in bound:
            target = bound[chain]
        elif chain.split(".")[0] in bound:  # pkg.mod._x through "from firmware import pkg"
            target = _resolve(bound[chain.split(".")[0]] + chain[len(chain.split(".")[0]):])
            if target != bound[chain.split(".")[0]] + chain[len(chain.split(".")[0]):]:
                target = None
        if target and not _may_read_private(mod, target):
            out.append((mod, node.lineno, "%s.%s" % (chain, node.attr)))
    return out


def _state_reads(mod, tree):
    # Every attribute "s" read or set, as (module, the function it is in): in these packages
    # the name is a match's rules state (Match.s) and nothing else.
    out = set()

    def walk(node, where):
        for child in ast.iter_child_nodes(node):
            w = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                w = where + "." + child.name if where else child.name
            if isinstance(child, ast.Attribute) and child.attr == "s":
                out.add((mod, w))
            walk(child, w)
    walk(tree, "")
    return out


def test_the_modules_are_found():
    # (A test that reads nothing proves nothing.)
    assert {"firmware.match", "firmware.ui", "firmware.views", "boards", "host_tools.sim"} \
        <= set(MODULES)
    g = _graph()
    assert "firmware.rules" in g["firmware.match"] and "firmware.views" in g["firmware.app"]


def test_the_import_graph_has_no_cycle():
    """Imports inside functions (a module a board loads when it needs it) count too."""
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_reads_another_modules_private_names():
    bad = []
    for mod, tree in MODULES.items():
        bad += _private_reads(mod, tree)
    assert bad == []


def test_a_private_read_is_found():
    src = ("import firmware.journal\nfrom firmware import rules\nfrom firmware.journal import "
           "_ints\nimport firmware.journal as fj\nrules._on(1)\nfj._R\nfirmware.journal._crc\n")
    got = [r[2] for r in _private_reads("host_tools.x", ast.parse(src))]
    assert got == ["from firmware.journal import _ints", "rules._on", "fj._R",
                   "firmware.journal._crc"] or sorted(got) == sorted(
        ["from firmware.journal import _ints", "rules._on", "fj._R", "firmware.journal._crc"])
    assert _private_reads("firmware.rules_141", ast.parse(
        "from firmware.rules import _foul\n")) == []


def test_only_the_match_and_the_rules_read_a_matchs_state():
    seen = set()
    for mod, tree in MODULES.items():
        if mod not in STATE_READERS:
            seen |= _state_reads(mod, tree)
    assert seen - KNOWN_STATE_READS == set()
    assert KNOWN_STATE_READS - seen == set()  # a read converted leaves the list with it
    assert {m for m, _ in KNOWN_STATE_READS} <= {"firmware.ui"}
