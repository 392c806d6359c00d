# Screen texts in English and Turkish: t(lang, key) looks a key up in one constant string.
# Layout of _T: "\nkey\tEnglish\tTurkish" per entry, then a final "\n": one str object, so no
# dict, tuple or per-text objects are built at import (imported as .mpy it takes 6 KB of heap; a
# tuple of the 459 strings took 16 KB). "{}" marks an argument (str.format).
# Keys: action keys of docs/ui-contract.md as they are; "m_" + message key; "r_" + key of
# firmware.rules.MESSAGES; "end_" + rack-ending rule; "rack_" + rack instruction rule; "f_" setup
# fields; "g_" game names; "v_" setting values; "mode_" screen titles. Keep them short: a 16x2
# LCD line holds 16 characters; longer texts are wrapped by the views.

_T = (
    # ---- actions (key hints, help and menu lists): short labels
    "\nmade\tMade\tGirdi"
    "\nmiss\tMiss\tIska"
    "\nsafe\tSafety\tTemkin"
    "\nfoul\tFoul\tFaul"
    "\nscratch\tScratch\tBeyaz cep"
    "\nundo\tUndo\tGeri al"
    "\nmenu\tMenu\tMenü"
    "\nhelp\tHelp\tYardım"
    "\nshift\t+10\t+10"
    "\nclear\tClear\tSil"
    "\npush\tPush out\tTop sürme"
    "\naccept\tAccept\tKabul"
    "\nrerack\tRe-rack\tYeniden diz"
    "\nrerack_other\tRe-rack,opp.\tDiz, rakip"
    "\nkitchen\tKitchen\tMutfak"
    "\nspot8\tSpot 8\t8 piramide"
    "\nshoot\tShoot\tOyna"
    "\npass\tPass back\tGeri ver"
    "\nlag0\t{} breaks\t{} açar"
    "\nlag1\t{} breaks\t{} açar"
    "\nup\tUp\tYukarı"
    "\ndown\tDown\tAşağı"
    "\nok\tOK\tTamam"
    "\nback\tBack\tGeri"
    "\nnewmatch\tNew match\tYeni maç"
    "\nlang\tLanguage\tDil"
    "\nwon_rack\tWon rack\tEli aldı"
    "\ntouch\tTouch G5.4\tDokunma G5.4"
    "\ndouble\tDouble G5.11\tÇift vuruş"
    "\noff\tBall off\tMasa dışı"
    "\nbad_break\tBad break\tKötü açış"
    "\ndry_break\tDry break\tBoş açış"
    "\nnext\tNext\tSonraki"
    "\nset\tSet\tAyarla"
    "\nstart\tStart\tBaşla"
    "\ntoggle\tChange\tDeğiştir"
    "\ncalled_foul\tCalled foul\tFaul ver"
    "\nhold\thold {}\t{} basılı"
    # ---- controller messages (model["msg"])
    "\nm_bad_key\tKey {}: not now\tTuş {}: şimdi yok"
    "\nm_not_yours\t{}: not your turn\t{}: sıra sizde değil"
    "\nm_entry_full\tEntry full\tGiriş dolu"
    "\nm_saved\tSaved\tKaydedildi"
    "\nm_started\tMatch started\tMaç başladı"
    "\nm_undone\tUndone\tGeri alındı"
    "\nm_nothing\tNothing to undo\tGeri alınacak yok"
    "\nrefused\tRefused {}\tOlmaz! {}"
    # ---- refusals (firmware.rules.MESSAGES keys)
    "\nr_match_on\tMatch in progress\tMaç sürüyor"
    "\nr_no_match\tNo match yet\tMaç yok"
    "\nr_over\tMatch over: undo only\tMaç bitti: sadece geri al"
    "\nr_no_lag\tLag first\tÖnce açış kurası"
    "\nr_lagged\tLag already done\tKura zaten yapıldı"
    "\nr_pending\t{} must choose: {}\t{} seçmeli: {}"
    "\nr_no_choice\tNo choice pending\tBekleyen seçim yok"
    "\nr_bad_option\tNot {}; choose {}\t{} olmaz; seç: {}"
    "\nr_not_yours\tChoice is {}'s\tSeçim {} oyuncusunun"
    "\nr_no_breaker\tBreaker: 8-ball re-rack only\tAçıcı yalnız 8 top dizişte"
    "\nr_not_on_table\tBall {} not on table\t{} masada yok"
    "\nr_twice\tBall {} twice\t{} iki kez"
    "\nr_cue_first\tCue ball can't be first\tIstaka topu ilk olamaz"
    "\nr_too_many\t{} balls, {} on table\t{} top, masada {}"
    "\nr_no_push\tPush out only after break\tTop sürme yalnız açış sonrası"
    "\nr_made_none\tMade: no ball in\tGirdi: cepte top yok"
    "\nr_made_call\tCalled {} not in\tDeklare {} girmedi"
    "\nr_unknown_foul\t{}: no such foul here\t{}: burada faul değil"
    "\nr_nothing\tNothing to undo\tGeri alınacak yok"
    # ---- notes (what the last event did)
    "\nfoul_n\tFoul {}\tFaul {}"
    "\npen\t-{} pt\t-{} puan"
    "\nspot_n\tSpot {} ball(s)\t{} top piramide"
    "\nspot_b\tSpot {}\t{} piramide"
    "\nrack_S10\tRe-rack 14\t14 topu diz"
    "\nrack_C-S4a\tRe-rack all 15\t15 topu diz"
    "\nrack_C-S4b\tRack 15, cue in kitchen\t15 diz, beyaz mutfakta"
    "\nrack_C-S4c\tRack 14, 15th to head spot\t14 diz, 15. top baş noktaya"
    "\nrack_C-S4d\tRack 14, cue in hand\t14 diz, ıstaka topu elde"
    "\nrack_S11\t3 fouls: -15, rack 15, break\t3 faul: -15, 15 diz, açış"
    "\nrack_S4\tRe-rack, break again\tYeniden diz, açış"
    "\nrack_E3\tRe-rack, break\tYeniden diz, açış"
    "\nrack_E4\tRe-rack, break\tYeniden diz, açış"
    "\nwon\t{} won the rack\t{} eli aldı"
    "\nend_E11\t8 made\t8 girdi"
    "\nend_E12.1\tfoul on the 8\t8'de faul"
    "\nend_E12.2\t8 with last ball\t8 son topla"
    "\nend_E12.3\t8 off the table\t8 masa dışı"
    "\nend_E12.4\t8 wrong pocket\t8 yanlış cep"
    "\nend_E12.5\t8 too early\t8 erken girdi"
    "\nend_E12.6\t3 fouls\t3 faul"
    "\nend_N2\t9 made\t9 girdi"
    "\nend_C-N1\t9 on the break\tAçışta 9"
    "\nend_N11\t3 fouls\t3 faul"
    "\nchose\tChosen: {}\tSeçim: {}"
    "\nwarn\tWARNING {}\tUYARI {}"
    "\nwarn_141\t2 fouls: 3rd -15\t2 faul: 3. -15"
    "\nwarn_rack\t3rd foul loses\t3. faul el kaybı"
    # ---- play screen
    "\ninning\tInning\tIstaka"
    "\nrun\tRun\tSeri"
    "\nhigh\tHigh\tEn iyi"
    "\navg\tAvg\tOrt."
    "\nfouls\tFouls\tFaul"
    "\nscore\tScore\tSayı"
    "\nracks\tRacks\tEl"
    "\nrack\tRack {}\tEl {}"
    "\nballs\tBalls {}\tTop {}"
    "\non_table\tTable\tMasada"
    "\nlowest\tLowest {}\tEn küçük {}"
    "\nbreak\tBreak\tAçış"
    "\nbreaks\t{} breaks\t{} açar"
    "\nbih_table\tIn hand: table\tElde top: masa"
    "\nbih_kitchen\tIn hand: kitchen\tElde top: mutfak"
    "\nsolids\tSolids\tDüz"
    "\nstripes\tStripes\tÇizgili"
    "\nsol\tSol\tDüz"
    "\nstr\tStr\tÇiz"
    "\nopen\tOpen table\tMasa açık"
    "\npush_ok\tPush out allowed\tTop sürme hakkı"
    "\nchooses\t{} chooses:\t{} seçer:"
    "\nentry\tBalls:\tToplar:"
    "\nover\tMatch over\tMaç bitti"
    "\nwinner\tWinner\tKazanan"
    "\nwins\t{} wins\t{} kazandı"
    "\nlag_q\tLag: who breaks?\tKura: kim açar?"
    "\nstuck\tKey {} stuck\tTuş {} takıldı"
    "\nchatter\tKey {} chatters\tTuş {} arızalı"
    "\nignored\t(ignored)\t(yok sayılıyor)"
    # ---- games, setup fields and values, screen titles
    "\ng_14.1\t14.1 continuous\t14.1 devamlı"
    "\ng_8ball\t8-ball\t8 top"
    "\ng_9ball\t9-ball\t9 top"
    "\nf_game\tGame\tOyun"
    "\nf_player1\tPlayer 1\tOyuncu 1"
    "\nf_player2\tPlayer 2\tOyuncu 2"
    "\nf_race1\tRace 1\tYarış 1"
    "\nf_race2\tRace 2\tYarış 2"
    "\nf_target1\tTarget 1\tHedef 1"
    "\nf_target2\tTarget 2\tHedef 2"
    "\nf_cue_in_rack\tCue in rack\tBeyaz üçgende"
    "\nf_ball_in_rack\t15th in rack\t15. üçgende"
    "\nf_break\tBreak\tAçış"
    "\nf_three_foul\t3 fouls\t3 faul"
    "\nf_nine_on_break\t9 break\tAçış 9"
    "\nf_lang\tLanguage\tDil"
    "\nv_alternate\tAltern.\tSırayla"
    "\nv_winner\tWinner\tKazanan"
    "\nv_loser\tLoser\tKaybeden"
    "\nv_win\tWins\tKazanır"
    "\nv_spot\tSpot\tPiramit"
    "\nv_on\tOn\tAçık"
    "\nv_off\tOff\tKapalı"
    "\nv_en\tEnglish\tEnglish"
    "\nv_tr\tTürkçe\tTürkçe"
    "\nmode_setup\tNew match\tYeni maç"
    "\nmode_menu\tMenu\tMenü"
    "\nmode_help\tKeys\tTuşlar"
    "\nmode_lag\tLag\tKura"
    "\nmode_rackq\tRack area?\tÜçgen alanı?"
    "\n"
)


def _at(key):
    # Index in _T just past "\n" + key + "\t", or -1.
    i = _T.find("\n" + key + "\t")
    return i + len(key) + 2 if i >= 0 else -1


def t(lang, key):
    """The text of key in lang ("en" or "tr"); the key itself if there is none."""
    i = _at(key)
    if i < 0:
        return key
    j = _T.find("\t", i)
    if lang == "tr":
        return _T[j + 1:_T.find("\n", j)]
    return _T[i:j]


def has(key):
    return _at(key) >= 0


def keys():
    """All keys (for tests)."""
    out = []
    i = _T.find("\n")
    while 0 <= i < len(_T) - 1:
        j = _T.find("\t", i)
        out.append(_T[i + 1:j])
        i = _T.find("\n", j)
    return out
