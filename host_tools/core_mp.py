# The rules core with the journal, as a board runs it, for make bench: a match read from
# long.jsonl a line at a time into a journal on the VM's filesystem; prints the state's score.
import json

from firmware.journal import Journal
from firmware.match import Match

m = Match(Journal("core_j"))
with open("long.jsonl") as f:
    for line in f:
        m.apply(json.loads(line), False)
m.log.close()
print(len(m.log), m.state()["players"][0]["score"])  # pyright: ignore
