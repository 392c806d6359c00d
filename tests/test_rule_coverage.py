# Every rule ID of the rule book has at least one test named after it (RULES.md, "Tests prove behaviour").
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def rule_ids():
    text = (TESTS / "rule_ids.txt").read_text(encoding="utf-8")
    return [w for line in text.splitlines() if not line.startswith("#") for w in line.split()]


def all_test_names():
    names = []
    for p in TESTS.glob("test_*.py"):
        names += re.findall(r"^def (test_\w+)\(", p.read_text(encoding="utf-8"), re.M)
    return names


def covering(rule, names):
    """Tests whose name carries the rule ID (G5.4 -> G5_4, C-S4 -> C_S4), not a longer ID."""
    tag = rule.replace(".", "_").replace("-", "_")
    pat = re.compile(r"(?:^|(?<![A-Z])_)" + tag + r"(?![0-9])")   # E2 is not C_E2
    return [n for n in names if pat.search(n[5:])]


def test_every_rule_id_has_a_test():
    names = all_test_names()
    missing = [r for r in rule_ids() if not covering(r, names)]
    assert not missing, "rule IDs without a test named after them: %s" % missing


def test_rule_ids_match_the_rule_book_when_present():
    book = TESTS.parent.parent / "shared" / "RULES.md"   # beside the checkout, when there
    if book.exists():
        text = book.read_text(encoding="utf-8")
        ranged = ("G5.14", "G20")                         # written "G5.13–G5.14", "G19–G20"
        assert [r for r in rule_ids() if r not in text and r not in ranged] == []
