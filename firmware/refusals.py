# English text of each refusal of firmware.rules (Refused.key), for the replay tool and logs;
# screens show firmware.lang's "r_" + key texts instead.
MESSAGES = {
    "match_on": "a match is in progress; start a new one on a new journal",
    "no_match": "no match: the first event must be new",
    "over": "the match is over; only undo is accepted",
    "no_lag": "no shot before the lag",
    "lagged": "the lag is already decided",
    "pending": "{} must answer first: {}",
    "no_choice": "no choice is pending",
    "bad_option": "{} is not an answer here; choose {}",
    "not_yours": "this choice belongs to {}",
    "no_breaker": "only an 8-ball re-rack after a bad break lets the chooser name the breaker",
    "not_on_table": "ball {} is not on the table",
    "twice": "ball {} is listed twice",
    "cue_first": "the cue ball can't be the first ball hit",
    "too_many": "{} balls pocketed or off but only {} on the table",
    "no_push": "a push out is allowed only on the shot right after a legal 9-ball break",
    "made_none": "made needs a pocketed object ball",
    "made_call": "the called ball {} was not pocketed",
    "unknown_foul": "{} is not a foul the referee can call here",
    "nothing": "nothing to undo",
    "journal": "the journal on flash is damaged before this point: no undo further back",
}
