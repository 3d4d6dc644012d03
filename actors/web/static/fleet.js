// The fleet view: the saved machines (machine.list) with their state, and
// every machine's agents by state (agent.list {"machines":"all"}); a
// remote agent opens in the pane view by its machine-qualified id. Every
// string from a server is drawn as text (el, textContent), and only known
// words become class names. Uses app.js's state, call, el and say.
"use strict";

const machineStates = ["connecting", "online", "attention", "offline", "disabled"];
const statusOrder = ["blocked", "working", "done", "idle", "unknown"];
const fleetPoll = 5000; // last contact and state move without an event

// known returns word when it is one of words, else fallback: a server's
// string never becomes a class name it did not earn.
function known(word, words, fallback) { return words.includes(word) ? word : fallback; }

let fleetBusy = false, fleetAgain = false;

// refreshFleet lists the machines and the fleet's agents; a server
// without machine.list (older, or one that refuses it to the page) hides
// the view. Calls made while one runs fold into one more.
async function refreshFleet() {
  if (fleetBusy) { fleetAgain = true; return; }
  fleetBusy = true;
  try {
    do {
      fleetAgain = false;
      await listFleet();
    } while (fleetAgain);
  } finally { fleetBusy = false; }
  drawFleet();
}

async function listFleet() {
  let machines;
  try {
    machines = (await call("machine.list")).machines || [];
  } catch (e) {
    // An older server does not know the method (servers before this page
    // refused unknown methods to it as invalid_request): no fleet, quietly.
    if (["unknown_method", "not_implemented", "invalid_request"].includes(e.code)) state.fleet = null;
    else if (e.code) say(e.message, true);
    return;
  }
  let agents = state.fleet ? state.fleet.agents : [];
  try {
    agents = (await call("agent.list", { machines: "all" })).agents || [];
  } catch (e) { say(e.message, true); }
  state.fleet = { machines, agents };
}

setInterval(() => {
  if (state.fleet && state.fleet.machines.length && state.ws && state.ws.readyState === WebSocket.OPEN) refreshFleet();
}, fleetPoll);

function ago(ms) {
  if (!ms) return "never";
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return s + " s ago";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  return Math.round(s / 3600) + " h ago";
}

function machineRow(id, label, st, detail, error) {
  const li = el("li", "machine");
  li.dataset.machine = id;
  li.dataset.state = st;
  li.append(el("span", "name", label), el("span", "badge " + st, st));
  li.append(el("span", "detail", detail));
  if (error) li.append(el("span", "detail err", error));
  return li;
}

function drawFleet() {
  const f = state.fleet;
  $("fleet").hidden = !f;
  if (!f) return;
  const ul = $("machines");
  ul.replaceChildren();
  const localAgents = f.agents.filter((a) => !a.machine).length;
  const v = state.snap ? "v" + state.snap.version : "";
  ul.append(machineRow("local", "Local", "online", [v, plural(localAgents, "agent")].filter(Boolean).join(" · ")));
  for (const m of f.machines) {
    const st = known(m.state, machineStates, m.enabled === false ? "disabled" : "connecting");
    const parts = ["last contact " + ago(m.last_contact_ms)];
    if (m.remote_version) parts.push("v" + m.remote_version + (m.remote_protocol ? " · p" + m.remote_protocol : ""));
    if (typeof m.agents === "number") parts.push(plural(m.agents, "agent"));
    ul.append(machineRow(String(m.id), String(m.label || m.id), st, parts.join(" · "), m.error ? String(m.error) : ""));
  }
  $("nomachines").hidden = f.machines.length > 0;
  drawByState(f);
}

// drawByState groups the fleet's agents by status, blocked first; an
// offline machine's agents (its last known state) are dimmed.
function drawByState(f) {
  const box = $("bystate");
  box.replaceChildren();
  if (!f.machines.length) return; // no fleet: the tree below shows them all
  for (const status of statusOrder) {
    const rows = f.agents.filter((a) => known(a.agent_status, statusOrder, "unknown") === status);
    if (!rows.length) continue;
    const h = el("h3", "group", status + " · " + rows.length);
    h.dataset.status = status;
    const ul = el("ul", "agents");
    ul.dataset.status = status;
    for (const a of rows) ul.append(agentRow(a, status));
    box.append(h, ul);
  }
}

function agentRow(a, status) {
  const where = a.machine ? String(a.machine.label || a.machine.id) : "Local";
  const li = el("li", "agent" + (a.stale ? " stale" : "") + (a.pane_id === state.open ? " open" : ""));
  li.dataset.pane = String(a.pane_id);
  li.dataset.status = status;
  li.dataset.machine = where;
  li.append(el("span", "name", String(a.name || a.display_agent || a.agent || a.pane_id)));
  li.append(el("span", "where", where));
  li.append(el("span", "badge " + status, status));
  li.title = String(a.pane_id) + (a.stale ? " (last known: the machine is not online)" : "");
  // A machine that is not online shows its last known agents, which
  // cannot be opened (as the client shows a lost machine: not interactive).
  if (!a.stale) li.onclick = () => openPane(String(a.pane_id));
  return li;
}

// readRemote reads a remote pane's visible screen once a second while it
// is the open one (gen is its openPane's: a newer open stops this loop).
async function readRemote(id, gen) {
  if (state.reading !== gen) return;
  try {
    const r = await call("pane.read", { pane_id: id, source: "visible", format: "text" });
    if (state.reading === gen && !state.replaying) drawText((r.read && r.read.text) || "");
  } catch (e) {
    if (state.reading === gen) say(e.message, true);
  }
  if (state.reading === gen) setTimeout(() => readRemote(id, gen), 1000);
}

// drawText draws a pane read's text, one row per line, as text.
function drawText(text) {
  const lines = text.replace(/\n$/, "").split("\n");
  const cols = Math.max(20, ...lines.map((l) => Array.from(l).length));
  const term = $("term");
  term.replaceChildren(...lines.map((l) => el("div", "", l)));
  if (term.dataset.cols !== String(cols)) { term.dataset.cols = String(cols); fit(cols); }
}

function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
