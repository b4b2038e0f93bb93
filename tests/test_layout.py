"""The shape of the code: no import circle inside ``engine/``, ``protocol/`` or ``referee/``, and
the referee's parts import only parts below them in the flow of a run (plan -> play -> run ->
record -> read), so that a reader can take them in from the bottom up.

Every import counts, those inside functions and ``if TYPE_CHECKING:`` blocks included: a
type-only circle is still a circle a reader has to untangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "protocol", "referee")

# The referee's parts, lowest first: each may import only parts on a lower floor (and itself).
REFEREE_FLOORS = (
    ("text", "wakeful", "inbound"),
    ("records",),
    ("plan", "stats"),
    ("play",),
    ("run",),
    ("report",),
    ("host",),
    ("commands",),
    ("__main__",),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports (the module itself, not the package, where a name
    is a module: ``from . import x``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in modules and target != name)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` as the modules along it, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (circle := visit(target)):
                return circle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (circle := visit(module)):
            return circle
    return None


def test_the_circle_finder_finds_a_circle():
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_module_imports_itself_through_others():
    circle = find_circle(import_graph())
    assert circle is None, "import circle: " + " -> ".join(circle)


def referee_part(module: str) -> str:
    return module.split(".")[1] if module.count(".") else "__init__"


@pytest.mark.parametrize("floor", range(len(REFEREE_FLOORS)))
def test_referee_parts_import_only_parts_below_them(floor):
    level = {part: number for number, parts in enumerate(REFEREE_FLOORS) for part in parts}
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module.startswith("referee.") and level.get(referee_part(module)) == floor
        for target in targets
        if target.startswith("referee.") and referee_part(target) != referee_part(module)
        and level[referee_part(target)] >= floor)
    assert not wrong, "imports up or sideways: " + "; ".join(wrong)


def test_every_referee_part_has_a_floor():
    parts = {referee_part(module) for module in import_graph() if module.startswith("referee.")}
    placed = {part for parts in REFEREE_FLOORS for part in parts}
    assert parts <= placed, f"parts without a floor: {sorted(parts - placed)}"


def subpackage_edges() -> set[tuple[str, str]]:
    """The arrows between the referee's sub-packages (its modules, ``text``, ``wakeful``,
    ``inbound`` and ``__main__``, are not sub-packages)."""
    subpackages = {path.parent.name for path in (ROOT / "referee").glob("*/__init__.py")}
    return {(referee_part(module), referee_part(target))
            for module, targets in import_graph().items() if module.startswith("referee.")
            for target in targets if target.startswith("referee.")
            and referee_part(module) in subpackages and referee_part(target) in subpackages
            and referee_part(module) != referee_part(target)}


def test_the_referee_stands_on_at_most_seven_levels_and_28_arrows():
    """The shape issue 41 asked for: sub-packages as nodes, at most 7 levels (the longest
    chain of imports) and about 28 arrows between them."""
    edges = subpackage_edges()
    below: dict[str, set[str]] = {}
    for source, target in edges:
        below.setdefault(source, set()).add(target)

    def levels(part: str) -> int:
        return 1 + max((levels(target) for target in below.get(part, ())), default=0)

    assert max(levels(part) for part in below) <= 7
    assert len(edges) <= 28, sorted(edges)
