# Screen texts in English and Turkish: t(lang, key) looks a key up in one flat tuple of triples.
# Layout of _T: key, English, Turkish, key, English, Turkish, ... (one constant tuple: no dict is
# built at import, which keeps the heap small on a board). "{}" marks an argument (str.format).
# Keys: action keys of docs/ui-contract.md as they are; "m_" + message key; "r_" + key of
# firmware.rules.MESSAGES; "end_" + rack-ending rule; "rack_" + rack instruction rule; "f_" setup
# fields; "g_" game names; "v_" setting values; "mode_" screen titles. Keep them short: a 16x2
# LCD line holds 16 characters; longer texts are wrapped by the views.

_T = (
    # ---- actions (key hints, help and menu lists): short labels
    "made", "Made", "Girdi",
    "miss", "Miss", "Iska",
    "safe", "Safety", "Temkin",
    "foul", "Foul", "Faul",
    "scratch", "Scratch", "Beyaz cep",
    "undo", "Undo", "Geri al",
    "menu", "Menu", "Menü",
    "help", "Help", "Yardım",
    "shift", "+10", "+10",
    "clear", "Clear", "Sil",
    "push", "Push out", "Top sürme",
    "accept", "Accept", "Kabul",
    "rerack", "Re-rack", "Yeniden diz",
    "rerack_other", "Re-rack,opp.", "Diz, rakip",
    "kitchen", "Kitchen", "Mutfak",
    "spot8", "Spot 8", "8 piramide",
    "shoot", "Shoot", "Oyna",
    "pass", "Pass back", "Geri ver",
    "lag0", "{} breaks", "{} açar",
    "lag1", "{} breaks", "{} açar",
    "up", "Up", "Yukarı",
    "down", "Down", "Aşağı",
    "ok", "OK", "Tamam",
    "back", "Back", "Geri",
    "newmatch", "New match", "Yeni maç",
    "lang", "Language", "Dil",
    "won_rack", "Won rack", "Eli aldı",
    "touch", "Touch G5.4", "Dokunma G5.4",
    "double", "Double G5.11", "Çift vuruş",
    "off", "Ball off", "Masa dışı",
    "bad_break", "Bad break", "Kötü açış",
    "dry_break", "Dry break", "Boş açış",
    "next", "Next", "Sonraki",
    "set", "Set", "Ayarla",
    "start", "Start", "Başla",
    "toggle", "Change", "Değiştir",
    "called_foul", "Called foul", "Faul ver",
    "hold", "hold {}", "{} basılı",
    # ---- controller messages (model["msg"])
    "m_bad_key", "Key {}: not now", "Tuş {}: şimdi yok",
    "m_not_yours", "{}: not your turn", "{}: sıra sizde değil",
    "m_entry_full", "Entry full", "Giriş dolu",
    "m_saved", "Saved", "Kaydedildi",
    "m_started", "Match started", "Maç başladı",
    "m_undone", "Undone", "Geri alındı",
    "m_nothing", "Nothing to undo", "Geri alınacak yok",
    "refused", "Refused {}", "Olmaz! {}",
    # ---- refusals (firmware.rules.MESSAGES keys)
    "r_match_on", "Match in progress", "Maç sürüyor",
    "r_no_match", "No match yet", "Maç yok",
    "r_over", "Match over: undo only", "Maç bitti: sadece geri al",
    "r_no_lag", "Lag first", "Önce açış kurası",
    "r_lagged", "Lag already done", "Kura zaten yapıldı",
    "r_pending", "{} must choose: {}", "{} seçmeli: {}",
    "r_no_choice", "No choice pending", "Bekleyen seçim yok",
    "r_bad_option", "Not {}; choose {}", "{} olmaz; seç: {}",
    "r_not_yours", "Choice is {}'s", "Seçim {} oyuncusunun",
    "r_no_breaker", "Breaker: 8-ball re-rack only", "Açıcı yalnız 8 top dizişte",
    "r_not_on_table", "Ball {} not on table", "{} masada yok",
    "r_twice", "Ball {} twice", "{} iki kez",
    "r_cue_first", "Cue ball can't be first", "Istaka topu ilk olamaz",
    "r_too_many", "{} balls, {} on table", "{} top, masada {}",
    "r_no_push", "Push out only after break", "Top sürme yalnız açış sonrası",
    "r_made_none", "Made: no ball in", "Girdi: cepte top yok",
    "r_made_call", "Called {} not in", "Deklare {} girmedi",
    "r_unknown_foul", "{}: no such foul here", "{}: burada faul değil",
    "r_nothing", "Nothing to undo", "Geri alınacak yok",
    # ---- notes (what the last event did)
    "foul_n", "Foul {}", "Faul {}",
    "pen", "-{} pt", "-{} puan",
    "spot_n", "Spot {} ball(s)", "{} top piramide",
    "spot_b", "Spot {}", "{} piramide",
    "rack_S10", "Re-rack 14", "14 topu diz",
    "rack_C-S4a", "Re-rack all 15", "15 topu diz",
    "rack_C-S4b", "Rack 15, cue in kitchen", "15 diz, beyaz mutfakta",
    "rack_C-S4c", "Rack 14, 15th to head spot", "14 diz, 15. top baş noktaya",
    "rack_C-S4d", "Rack 14, cue in hand", "14 diz, ıstaka topu elde",
    "rack_S11", "3 fouls: -15, rack 15, break", "3 faul: -15, 15 diz, açış",
    "rack_S4", "Re-rack, break again", "Yeniden diz, açış",
    "rack_E3", "Re-rack, break", "Yeniden diz, açış",
    "rack_E4", "Re-rack, break", "Yeniden diz, açış",
    "won", "{} won the rack", "{} eli aldı",
    "end_E11", "8 made", "8 girdi",
    "end_E12.1", "foul on the 8", "8'de faul",
    "end_E12.2", "8 with last ball", "8 son topla",
    "end_E12.3", "8 off the table", "8 masa dışı",
    "end_E12.4", "8 wrong pocket", "8 yanlış cep",
    "end_E12.5", "8 too early", "8 erken girdi",
    "end_E12.6", "3 fouls", "3 faul",
    "end_N2", "9 made", "9 girdi",
    "end_C-N1", "9 on the break", "Açışta 9",
    "end_N11", "3 fouls", "3 faul",
    "chose", "Chosen: {}", "Seçim: {}",
    "warn", "WARNING {}", "UYARI {}",
    "warn_141", "2 fouls: 3rd -15", "2 faul: 3. -15",
    "warn_rack", "3rd foul loses", "3. faul el kaybı",
    # ---- play screen
    "inning", "Inning", "Istaka",
    "run", "Run", "Seri",
    "high", "High", "En iyi",
    "avg", "Avg", "Ort.",
    "fouls", "Fouls", "Faul",
    "score", "Score", "Sayı",
    "racks", "Racks", "El",
    "rack", "Rack {}", "El {}",
    "balls", "Balls {}", "Top {}",
    "on_table", "Table", "Masada",
    "lowest", "Lowest {}", "En küçük {}",
    "break", "Break", "Açış",
    "breaks", "{} breaks", "{} açar",
    "bih_table", "In hand: table", "Elde top: masa",
    "bih_kitchen", "In hand: kitchen", "Elde top: mutfak",
    "solids", "Solids", "Düz",
    "stripes", "Stripes", "Çizgili",
    "sol", "Sol", "Düz",
    "str", "Str", "Çiz",
    "open", "Open table", "Masa açık",
    "push_ok", "Push out allowed", "Top sürme hakkı",
    "chooses", "{} chooses:", "{} seçer:",
    "entry", "Balls:", "Toplar:",
    "over", "Match over", "Maç bitti",
    "winner", "Winner", "Kazanan",
    "wins", "{} wins", "{} kazandı",
    "lag_q", "Lag: who breaks?", "Kura: kim açar?",
    "stuck", "Key {} stuck", "Tuş {} takıldı",
    "chatter", "Key {} chatters", "Tuş {} arızalı",
    "ignored", "(ignored)", "(yok sayılıyor)",
    # ---- games, setup fields and values, screen titles
    "g_14.1", "14.1 continuous", "14.1 devamlı",
    "g_8ball", "8-ball", "8 top",
    "g_9ball", "9-ball", "9 top",
    "f_game", "Game", "Oyun",
    "f_player1", "Player 1", "Oyuncu 1",
    "f_player2", "Player 2", "Oyuncu 2",
    "f_race1", "Race 1", "Yarış 1",
    "f_race2", "Race 2", "Yarış 2",
    "f_target1", "Target 1", "Hedef 1",
    "f_target2", "Target 2", "Hedef 2",
    "f_cue_in_rack", "Cue in rack", "Beyaz üçgende",
    "f_ball_in_rack", "15th in rack", "15. üçgende",
    "f_break", "Break", "Açış",
    "f_three_foul", "3 fouls", "3 faul",
    "f_nine_on_break", "9 break", "Açış 9",
    "f_lang", "Language", "Dil",
    "v_alternate", "Altern.", "Sırayla",
    "v_winner", "Winner", "Kazanan",
    "v_loser", "Loser", "Kaybeden",
    "v_win", "Wins", "Kazanır",
    "v_spot", "Spot", "Piramit",
    "v_on", "On", "Açık",
    "v_off", "Off", "Kapalı",
    "v_en", "English", "English",
    "v_tr", "Türkçe", "Türkçe",
    "mode_setup", "New match", "Yeni maç",
    "mode_menu", "Menu", "Menü",
    "mode_help", "Keys", "Tuşlar",
    "mode_lag", "Lag", "Kura",
    "mode_rackq", "Rack area?", "Üçgen alanı?",
)


def t(lang, key):
    """The text of key in lang ("en" or "tr"); the key itself if there is none."""
    k = 0
    n = len(_T)
    while k < n:
        if _T[k] == key:
            return _T[k + (2 if lang == "tr" else 1)]
        k += 3
    return key


def has(key):
    k = 0
    n = len(_T)
    while k < n:
        if _T[k] == key:
            return True
        k += 3
    return False


def keys():
    """All keys (for tests)."""
    return [_T[k] for k in range(0, len(_T), 3)]
