// The herdr dashboard: one WebSocket speaking the server's newline-JSON
// API (one message per line). Structure comes from session.snapshot and
// is refreshed when the event bus pushes a change; an open pane is drawn
// from its screen stream. The fleet (fleet.js: saved machines and every
// machine's agents) is listed again on each event and, while
// machines are saved, every few seconds, since a machine's last contact
// moves without an event; a remote pane, which has no screen stream here,
// is read once a second while it is open.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { snap: null, open: null, screens: {}, replaying: false, ws: null, pending: new Map(), next: 1,
  programs: {}, // pane id -> its foreground program's name (pane.process_info), for panes with no agent
  fleet: null, // { machines, agents } from machine.list and agent.list; null when the server has no machine.list
  reading: 0 }; // the generation of the remote pane's read loop (a new one stops the old)

// --- the token ---------------------------------------------------------------

// The link's token is taken from the address (which is then cleaned) and
// kept in this tab's sessionStorage, which only this origin (port
// included) reads, so a reload of the clean address reconnects. It is
// never a cookie: browsers send cookies to every port of a host.
const token = takeToken();

function takeToken() {
  const q = new URLSearchParams(location.search).get("token");
  let t = q && /^[0-9a-f]{64}$/.test(q) ? q : "";
  try {
    if (t) sessionStorage.setItem("herdr_token", t);
    else t = sessionStorage.getItem("herdr_token") || "";
  } catch (e) { /* storage off (a private tab): the token lives in memory */ }
  if (q !== null) history.replaceState(null, "", location.pathname);
  return t;
}

// --- the socket --------------------------------------------------------------

function connect() {
  if (!token) { setConn("closed"); $("conn").textContent = "no token: open the address `herdr web url` prints"; return; }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws", ["herdr", "herdr.token." + token]);
  state.ws = ws;
  ws.onopen = () => { setConn("open"); refresh(); if (state.open && !isRemote(state.open)) watch(state.open); };
  ws.onclose = () => {
    setConn("closed");
    for (const p of state.pending.values()) p.reject(new Error("disconnected"));
    state.pending.clear();
    setTimeout(connect, 2000);
  };
  ws.onmessage = (e) => onLine(JSON.parse(e.data));
}

function setConn(s) { const c = $("conn"); c.dataset.state = s; c.textContent = s === "open" ? "live" : s; }

// call sends one request and resolves with its result (rejects with its error).
function call(method, params) {
  return new Promise((resolve, reject) => {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) { reject(new Error("not connected")); return; }
    const id = "web" + state.next++;
    state.pending.set(id, { resolve, reject });
    state.ws.send(JSON.stringify({ id, method, params: params || {} }));
  });
}

function onLine(m) {
  if (m.id !== undefined && state.pending.has(m.id)) {
    const p = state.pending.get(m.id);
    state.pending.delete(m.id);
    if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
    else p.resolve(m.result);
    return;
  }
  switch (m.event) {
    case "screen.frame": onFrame(m.data); return;
    case "web.resync": refresh(); return;
    case "web.replay_done": say("replay finished"); return;
    case "pane_agent_status_changed":
    case "pane.agent_status_changed": setStatus(m.data.pane_id, m.data.agent_status, m.data.agent); break;
  }
  if ((m.event === "pane_agent_status_changed" || m.event === "agent_queue_changed") && window.inboxSoon && inbox.shown) inboxSoon(); // inbox.js
  if (typeof m.event === "string" && m.event.startsWith("task_") && window.tasksSoon) { tasksSoon(); return; } // tasks.js
  if (m.event) refreshSoon();
}

// --- structure ---------------------------------------------------------------

let refreshTimer = 0;
function refreshSoon() { clearTimeout(refreshTimer); refreshTimer = setTimeout(refresh, 60); }

async function refresh() {
  try {
    const r = await call("session.snapshot");
    state.snap = r.snapshot;
    drawTree();
    if (state.open && !isRemote(state.open) && !state.snap.panes.some((p) => p.pane_id === state.open)) closeView();
  } catch (e) { say(e.message, true); }
  readPrograms();
  await refreshFleet();
  if (window.refreshTasks) await refreshTasks(); // tasks.js
}

function setStatus(paneId, status, agent) {
  if (!state.snap) return;
  for (const p of state.snap.panes) if (p.pane_id === paneId) { p.agent_status = status; if (agent) p.agent = agent; }
  drawTree();
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawTree() {
  const nav = $("panes"), s = state.snap;
  nav.replaceChildren();
  const counts = { working: 0, blocked: 0, done: 0 };
  for (const w of s.workspaces) {
    nav.append(el("h2", "", w.label || w.workspace_id));
    for (const t of s.tabs.filter((t) => t.workspace_id === w.workspace_id)) {
      nav.append(el("h3", "", t.label || t.tab_id));
      const ul = el("ul");
      for (const p of s.panes.filter((p) => p.tab_id === t.tab_id)) {
        const li = el("li", "pane" + (p.pane_id === state.open ? " open" : ""));
        li.dataset.pane = p.pane_id;
        li.dataset.status = p.agent_status;
        li.dataset.focused = String(p.focused);
        li.append(el("span", "name", (p.agent ? p.agent + " · " : "") + (p.label || p.title || p.pane_id)));
        // An agent shows its status; any other pane its program (bash,
        // vim), which is not a status and is not counted.
        if (p.agent) li.append(el("span", "badge " + known(p.agent_status, statusOrder, "unknown"), p.agent_status));
        else if (state.programs[p.pane_id]) li.append(el("span", "badge program", state.programs[p.pane_id]));
        if (window.decoratePane) decoratePane(li, p); // inbox.js: queued prompts
        li.onclick = () => openPane(p.pane_id);
        ul.append(li);
        if (counts[p.agent_status] !== undefined) counts[p.agent_status]++;
      }
      nav.append(ul);
    }
  }
  $("counts").textContent = `${counts.working} working · ${counts.blocked} blocked · ${counts.done} done`;
  if (window.inboxCount) inboxCount(); // inbox.js
}

// readPrograms asks each pane with no agent for its foreground program
// (a program starts and ends without an event, so this also runs every
// few seconds); the tree is drawn again when a name changed. A server
// that refuses pane.process_info to the page leaves the badges off.
let programsBusy = false;
async function readPrograms() {
  if (programsBusy || !state.snap) return;
  programsBusy = true;
  let changed = false;
  try {
    const seen = {};
    for (const p of state.snap.panes.filter((p) => !p.agent)) {
      let name = "";
      try {
        const info = (await call("pane.process_info", { pane_id: p.pane_id })).process_info || {};
        const procs = info.foreground_processes || [];
        const lead = procs.find((x) => x.pid === info.foreground_process_group_id) || procs[0];
        name = lead ? String(lead.name || "") : "";
      } catch (e) { if (e.code !== "pane_not_found") break; }
      seen[p.pane_id] = name;
      if (state.programs[p.pane_id] !== name) changed = true;
    }
    if (Object.keys(state.programs).some((id) => !(id in seen))) changed = true;
    state.programs = seen;
  } finally { programsBusy = false; }
  if (changed) drawTree();
}

setInterval(() => { if (state.ws && state.ws.readyState === WebSocket.OPEN) readPrograms(); }, 3000);

// --- the open pane -----------------------------------------------------------

// isRemote says a pane id is machine-qualified (build/w1:p2): local ids
// never hold a slash.
function isRemote(id) { return typeof id === "string" && id.includes("/"); }

async function watch(id) {
  try { await call("screen.subscribe", { pane_ids: id ? [id] : [] }); } catch (e) { say(e.message, true); }
}

function openPane(id) {
  state.open = id;
  state.replaying = false;
  state.screens = {};
  $("view").hidden = false;
  if (window.toggleTasks) toggleTasks(false); // tasks.js: the board steps aside for the pane
  if (window.toggleInbox && inbox.shown) toggleInbox(false); // inbox.js
  $("live").hidden = true;
  $("screen").classList.remove("replaying");
  $("term").replaceChildren();
  $("term").dataset.cols = "";
  $("title").textContent = id;
  $("replay").hidden = isRemote(id);
  drawTree();
  drawFleet();
  const gen = ++state.reading;
  if (isRemote(id)) {
    // Screens stream only from this server's panes: a remote one is read.
    watch(null);
    readRemote(id, gen);
  } else watch(id);
  $("keys").focus();
}

function closeView() { state.open = null; state.reading++; $("view").hidden = true; watch(null); drawFleet(); }

// onFrame applies a frame to its screen and draws it when it is the one shown.
function onFrame(f) {
  let sc = state.screens[f.pane_id];
  if (!sc || f.full || sc.rows !== f.rows || sc.cols !== f.cols) {
    sc = state.screens[f.pane_id] = { cols: f.cols, rows: f.rows, lines: new Array(f.rows).fill(null), dirty: new Set() };
    for (let y = 0; y < f.rows; y++) sc.dirty.add(y);
  }
  for (const l of f.lines) { sc.lines[l.y] = l.runs || []; sc.dirty.add(l.y); }
  if (sc.cursor) sc.dirty.add(sc.cursor.y);
  sc.cursor = f.cursor;
  sc.dirty.add(f.cursor.y);
  const shown = state.replaying ? "replay" : state.open;
  if (f.pane_id === shown) draw(sc);
}

function draw(sc) {
  const term = $("term");
  if (term.childElementCount !== sc.rows || term.dataset.cols !== String(sc.cols)) {
    term.replaceChildren();
    for (let y = 0; y < sc.rows; y++) term.append(el("div"));
    term.dataset.cols = String(sc.cols);
    for (let y = 0; y < sc.rows; y++) sc.dirty.add(y);
    fit(sc.cols);
  }
  for (const y of sc.dirty) {
    const row = term.children[y];
    if (row) row.replaceChildren(...rowNodes(sc.lines[y] || [], sc.cursor && sc.cursor.visible && sc.cursor.y === y ? sc.cursor.x : -1));
  }
  sc.dirty.clear();
}

// fit sizes the font so the pane's columns fit the view (phones included).
function fit(cols) {
  const w = $("screen").clientWidth - 8;
  $("term").style.fontSize = Math.max(6, Math.min(13, w / (cols * 0.61))) + "px";
}

// rowNodes turns a row's runs into spans, blank-filled between runs.
function rowNodes(runs, cursorX) {
  const out = [];
  let col = 0;
  const cells = (text) => Array.from(text);
  for (const r of runs) {
    if (r.x > col) out.push(...plain(" ".repeat(r.x - col), col, cursorX));
    const span = styled(r.s);
    if (cursorX >= r.x && cursorX < r.x + r.w) {
      // Split the run at the cursor's cell.
      let c = r.x, before = "", at = "", after = "";
      for (const ch of cells(r.t)) {
        const w = wide(ch) ? 2 : 1;
        if (c + w <= cursorX) before += ch; else if (at === "" && c <= cursorX) at = ch; else after += ch;
        c += w;
      }
      if (before) out.push(withText(styled(r.s), before));
      const cur = withText(styled(r.s), at || " ");
      cur.classList.add("cursor");
      out.push(cur);
      if (after) out.push(withText(styled(r.s), after));
    } else out.push(withText(span, r.t));
    col = r.x + r.w;
  }
  if (cursorX >= col) out.push(...plain(" ".repeat(cursorX - col + 1), col, cursorX));
  return out;
}

function plain(text, col, cursorX) {
  if (cursorX < col || cursorX >= col + text.length) return [document.createTextNode(text)];
  const i = cursorX - col, cur = el("span", "cursor", " ");
  return [document.createTextNode(text.slice(0, i)), cur, document.createTextNode(text.slice(i + 1))];
}

function withText(span, t) { span.textContent = t; return span; }

function wide(ch) {
  const c = ch.codePointAt(0);
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) || (c >= 0x20000 && c <= 0x3fffd);
}

const base16 = ["#45475a", "#f38ba8", "#a6e3a1", "#f9e2af", "#89b4fa", "#f5c2e7", "#94e2d5", "#bac2de",
  "#585b70", "#f38ba8", "#a6e3a1", "#f9e2af", "#89b4fa", "#f5c2e7", "#94e2d5", "#a6adc8"];

function colour(c) {
  if (!c) return "";
  if (c[0] === "#") return c;
  const n = Number(c);
  if (n < 16) return base16[n];
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255], i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g},${g},${g})`;
}

function styled(s) {
  const span = el("span");
  if (!s) return span;
  let fg = colour(s.fg), bg = colour(s.bg);
  const a = s.a || 0;
  if (a & 32) { [fg, bg] = [bg || "#11111b", fg || "#cdd6f4"]; }
  if (fg) span.style.color = fg;
  if (bg) span.style.backgroundColor = bg;
  const cls = [];
  if (a & 1) cls.push("b"); if (a & 2) cls.push("d"); if (a & 4) cls.push("i");
  if ((a & 8) || s.u) cls.push("u"); if (a & 64) cls.push("h"); if (a & 128) cls.push("s");
  if (cls.length) span.className = cls.join(" ");
  return span;
}

// --- input -------------------------------------------------------------------

let typed = "", flushTimer = 0;
function flushTyped() {
  clearTimeout(flushTimer);
  if (!typed || !state.open) return;
  const text = typed;
  typed = "";
  call("pane.send_text", { pane_id: state.open, text }).catch((e) => say(e.message, true));
}

function sendKey(key) {
  flushTyped();
  if (state.open) call("pane.send_keys", { pane_id: state.open, keys: [key] }).catch((e) => say(e.message, true));
}

const named = { Enter: "enter", Escape: "esc", Tab: "tab", Backspace: "backspace", ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };

function onKey(e) {
  if (state.replaying || e.isComposing) return;
  if (e.ctrlKey && !e.altKey && e.key.length === 1) { e.preventDefault(); sendKey("ctrl+" + e.key.toLowerCase()); return; }
  if (named[e.key]) { e.preventDefault(); sendKey(named[e.key]); return; }
  if (e.key.length === 1 && !e.metaKey && !e.ctrlKey) {
    e.preventDefault();
    typed += e.key;
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flushTyped, 8); // a burst of keys is one write
  }
}

function say(text, err) { const m = $("msg"); m.textContent = text; m.classList.toggle("err", !!err); }

// --- replay ------------------------------------------------------------------

function startReplay(params) {
  state.replaying = true;
  delete state.screens.replay;
  $("term").replaceChildren();
  $("screen").classList.add("replaying");
  $("live").hidden = false;
  call("web.replay", params).then((r) => say(`replaying ${r.events} events (${r.duration.toFixed(1)} s)`))
    .catch((e) => { say(e.message, true); backToLive(); });
}

function backToLive() {
  state.replaying = false;
  $("screen").classList.remove("replaying");
  $("live").hidden = true;
  $("term").replaceChildren();
  const sc = state.screens[state.open];
  if (sc) { for (let y = 0; y < sc.rows; y++) sc.dirty.add(y); draw(sc); }
}

// --- wiring ------------------------------------------------------------------

window.addEventListener("DOMContentLoaded", () => {
  $("keys").addEventListener("keydown", onKey);
  $("keys").addEventListener("paste", (e) => {
    e.preventDefault();
    const text = e.clipboardData.getData("text");
    if (text && state.open) call("pane.send_input", { pane_id: state.open, text, keys: [] }).catch((x) => say(x.message, true));
  });
  $("screen").addEventListener("click", () => $("keys").focus());
  for (const b of document.querySelectorAll(".keybar button")) b.onclick = () => { sendKey(b.dataset.key); $("keys").focus(); };
  $("prompt").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("prompttext").value;
    if (!text || !state.open) return;
    call("pane.send_input", { pane_id: state.open, text, keys: ["enter"] })
      .then(() => { $("prompttext").value = ""; say("sent"); }).catch((x) => say(x.message, true));
  });
  $("focus").onclick = () => state.open && call("pane.focus", { pane_id: state.open }).then(() => say("focused")).catch((e) => say(e.message, true));
  $("close").onclick = () => {
    if (state.open && confirm(`Close pane ${state.open}?`)) call("pane.close", { pane_id: state.open }).then(closeView).catch((e) => say(e.message, true));
  };
  $("replay").onclick = () => state.open && startReplay({ pane_id: state.open });
  $("live").onclick = backToLive;
  $("castfile").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) startReplay({ cast: await f.text() });
    e.target.value = "";
  });
  window.addEventListener("resize", () => { const sc = state.screens[state.replaying ? "replay" : state.open]; if (sc) fit(sc.cols); });
  connect();
});
