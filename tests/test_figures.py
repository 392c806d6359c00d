# docs/figures.md and its writer (host_tools/figures.py): a bench's figures go into their rows,
# the rows it did not measure keep their values, and the file holds the table ROWS defines.
from pathlib import Path

import pytest

from host_tools import figures


def _value(path: Path, key: str) -> str:
    what = next(r[1] for r in figures.ROWS if r[0] == key)
    return figures.read(path)[what]


def test_the_file_holds_the_generated_table_with_a_value_in_every_bench_row():
    text = figures.FIGURES.read_text(encoding="utf-8")
    table = text.split(figures.BEGIN, 1)[1].split(figures.END, 1)[0].strip()
    held = figures.read()
    assert table == figures.table({k: held[w] for k, w, _, _ in figures.ROWS if w in held})
    assert [w for _, w, _, _ in figures.ROWS if held.get(w, figures.NONE) == figures.NONE] == []


def test_a_bench_writes_its_rows_and_keeps_the_others(tmp_path: Path):
    path = tmp_path / "figures.md"
    path.write_text("# Figures\n\nhow they are measured\n", encoding="utf-8")
    figures.update({"cpy.event": "17.4 µs", "mpy.total": "84,717 bytes"}, path)
    figures.update({"cpy.event": "18.0 µs", "pico.boot": "802 ms | emulated"}, path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Figures\n\nhow they are measured\n\n" + figures.BEGIN)
    assert _value(path, "cpy.event") == "18.0 µs"  # measured again: the new value
    assert _value(path, "mpy.total") == "84,717 bytes"  # not measured this time: kept
    assert _value(path, "pico.boot") == "802 ms / emulated"  # a | would split the cell
    assert _value(path, "nor.wear") == figures.NONE
    assert len(figures.read(path)) == len(figures.ROWS)


def test_a_figure_with_no_row_is_refused(tmp_path: Path):
    path = tmp_path / "figures.md"
    with pytest.raises(KeyError):
        figures.update({"cpy.evnet": "1 µs"}, path)
    assert not path.exists()
