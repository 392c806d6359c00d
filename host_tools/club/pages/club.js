// The room view's shared code: the table views from /api/room, then live updates by SSE.
"use strict";
const GAMES = {"14.1": "14.1", "8ball": "8-ball", "9ball": "9-ball", "10ball": "10-ball"};

function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

function scoreOf(m, i) {
  return m.game === "14.1" ? m.players[i].score : m.players[i].racks;
}

function goalOf(m) {
  const g = m.game === "14.1" ? m.target : m.race;
  const n = g[0] === g[1] ? String(g[0]) : g.join("/");  // a handicap shows both
  return (m.game === "14.1" ? "to " : "race to ") + n;
}

function clockText(t) {
  const c = t.shot_clock;
  if (c === null || c === undefined) return t.match && t.match.clock ? "clock " + t.match.clock.shot + " s" : "";
  if (typeof c === "number") return Math.ceil(c) + " s";
  if (typeof c === "object" && c.left !== undefined) return Math.ceil(c.left) + " s";
  return esc(JSON.stringify(c));
}

function live(onRoom, onTable) {
  const es = new EventSource("/api/stream");
  es.addEventListener("room", e => onRoom(JSON.parse(e.data)));
  es.addEventListener("table", e => onTable(JSON.parse(e.data)));
  return es;
}
