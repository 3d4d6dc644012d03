// The task board: the server's tasks (task.list) in one column per status,
// and a task's activity (task.get), newest first, when it is clicked. It is
// read again when a task event (task_created, task_updated, task_activity)
// comes on the page's subscription, and every few seconds while it is open
// until one has. A server without task.list hides the board and its
// button, quietly. A server in a fleet (issue 48) also lists the fleet's
// board (task.list with fleet), drawn in the same columns, each fleet
// task marked with the member running it; it is polled while the board is
// open, since the other members' changes come as no event here. Every string from the server is drawn as text (el,
// textContent), and only known words become class names. Uses app.js's
// state, call, el, say and $, and fleet.js's known.
"use strict";

const taskStatuses = ["backlog", "ready", "running", "blocked", "review", "done", "failed", "cancelled"];
const taskPoll = 2000;
// tasks: the last list, null while the server has shown none (older
// servers); shown: the board is open; selected: the task whose activity
// is shown ("fleet:" before a fleet task's id: the two boards number
// alike); evented: a task event arrived, so polling is not needed; fleet:
// the fleet board's last list, null when the server is in no fleet.
const tasks = { list: null, fleet: null, shown: false, selected: null, evented: false, busy: false, again: false };

let tasksTimer = 0;
function tasksSoon() { tasks.evented = true; clearTimeout(tasksTimer); tasksTimer = setTimeout(refreshTasks, 60); }

// refreshTasks lists the tasks (and the selected one's activity); calls
// made while one runs fold into one more.
async function refreshTasks() {
  if (tasks.busy) { tasks.again = true; return; }
  tasks.busy = true;
  try {
    do {
      tasks.again = false;
      await listTasks();
    } while (tasks.again);
  } finally { tasks.busy = false; }
  drawTasks();
  if (tasks.shown && tasks.selected) showActivity(tasks.selected);
}

async function listTasks() {
  try {
    tasks.list = (await call("task.list")).tasks || [];
  } catch (e) {
    if (["unknown_method", "not_implemented", "invalid_request"].includes(e.code)) { tasks.list = null; tasks.shown = false; }
    else if (e.code) say(e.message, true);
  }
  if (tasks.list === null) return;
  try {
    tasks.fleet = (await call("task.list", { fleet: true })).tasks || [];
  } catch (e) {
    // No fleet (or one this server has not joined yet): no fleet tasks.
    if (["fleet_unavailable", "invalid_params", "unknown_method", "not_implemented", "invalid_request"].includes(e.code)) tasks.fleet = null;
    else if (e.code) say(e.message, true);
  }
}

setInterval(() => {
  if (tasks.shown && (!tasks.evented || tasks.fleet !== null) && state.ws && state.ws.readyState === WebSocket.OPEN) refreshTasks();
}, taskPoll);

// toggleTasks opens or closes the board; the pane view steps aside for it.
function toggleTasks(show) {
  tasks.shown = show === undefined ? !tasks.shown : show;
  if (tasks.shown) refreshTasks();
  drawTasks();
}

function drawTasks() {
  const supported = tasks.list !== null;
  $("taskstoggle").hidden = !supported;
  $("taskstoggle").setAttribute("aria-pressed", String(tasks.shown && supported));
  $("tasks").hidden = !(tasks.shown && supported);
  $("view").hidden = (tasks.shown && supported) || !state.open;
  if (!supported || !tasks.shown) return;
  const board = $("board");
  board.replaceChildren();
  for (const status of taskStatuses) {
    const rows = tasks.list.filter((t) => t.status === status);
    const fleetRows = (tasks.fleet || []).filter((t) => t.status === status);
    const col = el("div", "col" + (rows.length + fleetRows.length ? "" : " empty"));
    col.dataset.status = status;
    col.append(el("h3", "", status + " · " + (rows.length + fleetRows.length)));
    const ul = el("ul");
    for (const t of rows) ul.append(taskRow(t, status, false));
    for (const t of fleetRows) ul.append(taskRow(t, status, true));
    col.append(ul);
    board.append(col);
  }
}

// taskKey names a task on the page: a fleet task's id is "fleet:" after.
function taskKey(t, fleet) { return (fleet ? "fleet:" : "") + String(t.id); }

// machineOf is the member running a fleet task, "" when none holds it.
function machineOf(t) { return t.worker && t.worker.machine ? String(t.worker.machine) : ""; }

function taskRow(t, status, fleet) {
  const key = taskKey(t, fleet);
  const li = el("li", "task" + (fleet ? " fleet" : "") + (key === tasks.selected ? " open" : ""));
  li.dataset.task = String(t.id);
  li.dataset.status = status;
  li.append(el("span", "id", String(t.id)), el("span", "name", String(t.title || "")));
  if (fleet) {
    li.dataset.fleet = "true";
    li.dataset.machine = machineOf(t);
    li.append(el("span", "where", machineOf(t) ? "machine " + machineOf(t) : "fleet"));
  } else if (t.assignee && t.assignee.target) li.append(el("span", "where", "@" + String(t.assignee.target)));
  if (t.last_message) li.append(el("span", "detail", String(t.last_message)));
  li.onclick = () => { tasks.selected = key; drawTasks(); showActivity(key); };
  return li;
}

// showActivity reads one task and draws its identity and activity, newest
// first, in the browser's time zone.
async function showActivity(key) {
  const fleet = key.startsWith("fleet:"), id = fleet ? key.slice(6) : key;
  let t;
  try {
    t = (await call("task.get", fleet ? { task_id: id, fleet: true } : { task_id: id })).task;
  } catch (e) {
    if (e.code === "task_not_found") { tasks.selected = null; $("activity").hidden = true; }
    else if (e.code) say(e.message, true);
    return;
  }
  if (tasks.selected !== key) return; // another was clicked meanwhile
  const box = $("activity");
  box.hidden = false;
  box.dataset.task = String(t.id);
  box.dataset.fleet = String(fleet);
  const st = known(t.status, taskStatuses, "unknown");
  const head = el("h3", "", String(t.id) + "  " + String(t.title || ""));
  const facts = ["status " + String(t.status), "priority " + Number(t.priority || 0), "attempts " + Number(t.attempts || 0)];
  if (fleet) facts.push(machineOf(t) ? "fleet, machine " + machineOf(t) : "fleet, unclaimed");
  if (t.assignee && t.assignee.target) facts.push("assignee " + String(t.assignee.target) + (t.assignee.pane_id ? " (" + String(t.assignee.pane_id) + ")" : ""));
  if (t.agent_session_id) facts.push("agent session " + String(t.agent_session_id));
  if (t.requires && t.requires.length) facts.push("requires " + t.requires.map(String).join(", "));
  if (t.worker && t.worker.branch) facts.push("worker " + String(t.worker.branch));
  const badge = el("span", "badge " + st, st);
  const ol = el("ol", "acts");
  const acts = (t.activities || []).slice().sort((a, b) => (b.at_ms - a.at_ms) || (b.seq - a.seq));
  for (const a of acts) {
    const li = el("li");
    li.dataset.kind = String(a.kind);
    let what = String(a.kind);
    if (a.from && a.status) what += " " + String(a.from) + " → " + String(a.status);
    else if (a.status) what += " " + String(a.status);
    li.append(el("time", "", new Date(a.at_ms).toLocaleString()), el("span", "what", what));
    if (a.message) li.append(el("span", "msg", String(a.message)));
    if (a.source) li.append(el("span", "where", String(a.source)));
    ol.append(li);
  }
  const desc = t.description ? el("p", "desc", String(t.description)) : "";
  box.replaceChildren(head, badge, el("p", "facts", facts.join(" · ")), desc, ol);
}

$("taskstoggle").onclick = () => toggleTasks();
