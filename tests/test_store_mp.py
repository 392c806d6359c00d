# mp: yes
# The store (firmware/store.py) on the board's filesystem: a blank one starts cleanly, finished
# matches are archived with the oldest going first, settings are validated (issue 10).
import json

from firmware.match import Match
from firmware.store import Store, validate
from tests.helpers import long_141, scratch_dir


def test_store_blank_filesystem_starts_cleanly_and_archives_old_matches():
    st = Store(scratch_dir("store"))
    assert st.resume() is None and st.archived() == []
    for k in range(23):
        m = Match(st.fresh())
        while st.due:  # the pruning, a step at a time (the app's passes)
            st.work()
        for ev in long_141(3 + k % 4, k):
            m.apply(ev, False)
        m.log.close()
        resumed = st.resume()
        assert resumed is not None and len(resumed) == len(m.log)
        resumed.close()
    nums = st.archived()
    assert len(nums) == 20 and nums[0] == 3 and nums[-1] == 22  # the oldest went first


def test_settings_are_validated_and_a_bad_file_names_what_was_wrong():
    st = Store(scratch_dir("settings"))
    assert st.load_settings() == (None, None)  # none yet
    cfg, problem = validate({})
    assert problem is None and cfg["game"] == "14.1"
    cfg["p1"], cfg["lang"], cfg["t1"] = "Ayşe", "tr", 150
    st.save_settings(cfg)
    assert st.load_settings() == (cfg, None)
    with open(st.settings_path, "w") as f:
        f.write(json.dumps({"game": "snooker", "p1": "Ali"}))
    cfg, problem = st.load_settings()
    assert problem == "game" and cfg["game"] == "14.1" and cfg["p1"] == "Ali"
    with open(st.settings_path, "w") as f:
        f.write("{not json")
    assert st.load_settings()[1] == "settings"
    assert validate({"p1": "A", "p2": "A"})[1] == "p2"
    assert validate({"t1": True})[1] == "t1" and validate({"r1": 0})[1] == "r1"
