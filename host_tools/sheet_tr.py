# The Turkish texts of the scoresheets (host_tools/scoresheet.py): English text -> Turkish.
TR = {
    # games, how a rack ended, fouls, re-racks, choices
    "14.1 continuous": "14.1 devamlı", "8-ball": "8 top", "9-ball": "9 top",
    "8 made": "8 girdi", "foul on the 8": "8'de faul",
    "8 made with the last group ball": "8 grubun son topuyla girdi",
    "8 off the table": "8 masadan çıktı", "8 in the wrong pocket": "8 yanlış cebe girdi",
    "8 made early": "8 erken girdi", "three fouls": "üç faul", "9 made": "9 girdi",
    "9 on the break": "kırışta 9", "10-ball": "10 top", "10 made": "10 girdi",
    "10 on the break": "kırışta 10",
    "no rail / no contact": "bant yok / temas yok", "bad contact": "hatalı temas",
    "scratch": "beyaz cebe girdi", "ball off the table": "masadan top çıktı",
    "touched a ball": "topa dokunuldu", "frozen ball": "yapışık top",
    "no foot on the floor": "ayak yerde değil", "ball moving": "top hareket halinde",
    "miscue jump": "hatalı zıplatma", "frozen cue ball": "yapışık beyaz",
    "double hit": "çift vuruş", "outside the kitchen": "açış alanı dışında",
    "marking the table": "masaya işaret", "measuring": "ölçme", "bad break": "hatalı kırış",
    "wrong ball first": "önce yanlış top", "cue ball moved": "beyaz oynadı",
    "8 first on an open table": "açık masada önce 8",
    "not the 1 first on the break": "kırışta önce 1 değil",
    "not the lowest ball first": "önce en küçük top değil",
    "breaking violation": "kırış ihlali",
    "re-rack 14": "14 top dizildi", "re-rack 15": "15 top dizildi",
    "re-rack 15, cue in the kitchen": "15 top dizildi, beyaz açış alanında",
    "re-rack 14, 15th on the head spot": "14 top dizildi, 15. top baş noktada",
    "re-rack 14, cue in hand": "14 top dizildi, beyaz elde",
    "three fouls: -15, re-rack 15": "üç faul: -15, 15 top dizildi",
    "re-racked, break again": "yeniden dizildi, yeniden kırış", "re-racked": "yeniden dizildi",
    "accepted the table": "masayı kabul etti", "chose a re-rack": "yeniden dizmeyi seçti",
    "took ball in hand in the kitchen": "beyazı açış alanında aldı",
    "had the 8 spotted": "8'i noktaya koydurdu", "shot after the push out": "push out'tan sonra vurdu",
    "passed the shot back": "vuruşu geri verdi",
    # what an inning or a rack did
    "breaking violation: -2": "kırış ihlali: -2",
    "third foul in a row (%s): -16, re-rack 15": "üst üste üçüncü faul (%s): -16, 15 top dizildi",
    "foul %s": "faul %s", "won the match": "maçı kazandı", "break, nothing in": "kırış, top girmedi",
    "%d made": "%d girdi", "safety": "emniyet", "%d in, not as called: spotted":
    "%d girdi, söylendiği gibi değil: noktaya", "miss": "ıska", "%s pushed out": "%s push out yaptı",
    "the %d spotted": "%d noktaya kondu", " (%s breaks)": " (%s kırar)",
    "still at the table": "hâlâ masada", "%s lost the rack: %s": "%s rakı kaybetti: %s",
    # the sheet
    "%s: score sheet": "%s: skor kağıdı", "Date": "Tarih", "Game": "Oyun",
    "Player 1": "Oyuncu 1", "Player 2": "Oyuncu 2", "Target": "Hedef", "Race to": "Yarış",
    "Handicap": "Handikap", "yes (%s differ)": "var (%s farklı)", "targets": "hedefler",
    "races": "yarışlar", "none (level)": "yok (eşit)", "Opening break": "İlk kırış",
    "Result": "Sonuç", "%s won": "%s kazandı", "not finished": "bitmedi", "racks": "rak",
    "Break order": "Kırış sırası", "Options": "Seçenekler",
    "three-foul rule %s": "üç faul kuralı %s", "on": "açık", "off": "kapalı",
    "; 9 on the break: %s": "; kırışta 9: %s", "win": "kazanır", "spot": "noktaya",
    "alternate": "sırayla", "winner": "kazanan", "loser": "kaybeden",
    "Racks played": "Oynanan rak", "Innings": "Istakalar", "Inning": "Istaka",
    "Points": "Sayı", "Penalty": "Ceza", "Run": "Seri", "Score": "Skor",
    "How it ended": "Nasıl bitti",
    "Points: balls legally pocketed in the inning. Penalty: points lost (foul 1, breaking "
    "violation 2, third consecutive foul 1 + 15). Run: the longest run of the inning. (S): an "
    "inning that was only a safety.":
    "Sayı: ıstakada kurala uygun giren toplar. Ceza: kaybedilen sayılar (faul 1, kırış ihlali "
    "2, üst üste üçüncü faul 1 + 15). Seri: ıstakanın en uzun serisi. (S): yalnızca emniyet "
    "oynanan ıstaka.",
    "Racks": "Raklar", "Rack": "Rak", "Broke": "Kıran", "On the break": "Kırışta",
    "Won by": "Kazanan", "How": "Nasıl", "Fouls %s": "Fauller %s", "Push outs": "Push out",
    "Break and run": "Kır ve bitir", "Racks %s : %s": "Raklar %s : %s", "Notes": "Notlar",
    "; re-break ": "; yeniden kırış ", " (dry)": " (boş)", " foul %s": " faul %s",
    "in play": "oyunda", "yes": "evet", "no": "hayır", "Totals": "Toplamlar",
    "Balls made on each break": "Her kırışta giren toplar",
    "Racks won by": "Rak kazanma yolu", "Racks won on the other's loss":
    "Rakibin kaybıyla kazanılan raklar", "Racks lost by": "Rak kaybetme yolu",
    "Referee / scorer": "Hakem / yazıcı",
    "Incomplete record: the journal %s. This sheet shows what was read before that point.":
    "Eksik kayıt: günlük %s. Bu kağıt o noktaya kadar okunanı gösteriyor.",
    "Made by host_tools.scoresheet from %s %s: %s records, %s undone":
    "host_tools.scoresheet ile %s %s kaynağından: %s kayıt, %s geri alındı",
    ", %s refused events left out": ", reddedilen %s olay dışarıda",
    "running score per inning": "ıstaka ıstaka skor", "racks won over the match":
    "maç boyunca kazanılan raklar",
    # totals
    "High run": "En iyi seri", "Balls made": "Giren toplar",
    "Average (points per inning)": "Ortalama (ıstaka başına sayı)",
    "Balls per inning (the board's Bl/inn)": "Istaka başına top (tabelada Top/ıs)",
    "Average without safety innings": "Emniyet ıstakaları hariç ortalama",
    "Safety innings": "Emniyet ıstakaları", "Fouls": "Fauller", "Penalty points": "Ceza sayıları",
    "Breaking violations (S4)": "Kırış ihlalleri (S4)",
    "Three-foul penalties (S11)": "Üç faul cezaları (S11)", "Racks completed": "Biten raklar",
    "Racks won": "Kazanılan raklar", "High run (balls)": "En iyi seri (top)", "Breaks": "Kırışlar",
    "Balls made on the break": "Kırışta giren toplar", "Dry breaks": "Boş kırışlar",
    "Break fouls": "Kırış faulleri", "Break and runs": "Kır ve bitirler",
    # the chart
    "target %d": "hedef %d", "race to %d": "%d rak yarışı", "inning": "ıstaka", "score": "skor",
    "%s: running score, %s v %s": "%s: skor gidişi, %s - %s", "rack": "rak",
    "racks won": "kazanılan raklar", "%s: racks won, %s v %s": "%s: kazanılan raklar, %s - %s",
    "record stops early": "kayıt erken bitiyor",
}
