// The inbox: every blocked agent (inbox.list) with its question and the
// answers its screen offers, one card each, answered with a tap
// (inbox.answer, carrying the question's id, so an answer is never typed
// into a question that changed) or free text. It is read again when an
// agent's status or queue changes, and every few seconds while open. The
// header's button counts the blocked agents; the tree shows each agent's
// queued prompts. Laid out for a phone under 720px (app.css). Every
// string from the server is drawn as text. Uses app.js's state, call, el,
// say and $.
"use strict";

const inboxPoll = 3000;
const inbox = { items: null, shown: false, busy: false, again: false, notes: {} };

let inboxTimer = 0;
function inboxSoon() { clearTimeout(inboxTimer); inboxTimer = setTimeout(refreshInbox, 80); }

async function refreshInbox() {
  if (inbox.busy) { inbox.again = true; return; }
  inbox.busy = true;
  try {
    do {
      inbox.again = false;
      try {
        inbox.items = (await call("inbox.list")).items || [];
      } catch (e) {
        if (["unknown_method", "not_implemented", "invalid_request"].includes(e.code)) { inbox.items = null; inbox.shown = false; }
        else if (e.code) say(e.message, true);
      }
    } while (inbox.again);
  } finally { inbox.busy = false; }
  drawInbox();
}

setInterval(() => {
  if (inbox.shown && state.ws && state.ws.readyState === WebSocket.OPEN) refreshInbox();
}, inboxPoll);

// toggleInbox opens or closes the inbox; the pane view and the board step aside.
function toggleInbox(show) {
  inbox.shown = show === undefined ? !inbox.shown : show;
  if (inbox.shown) {
    if (window.toggleTasks) toggleTasks(false);
    refreshInbox();
  }
  drawInbox();
}

// inboxCount sets the header button from the snapshot's agents.
function inboxCount() {
  const agents = (state.snap && state.snap.agents) || [];
  const n = agents.filter((a) => a.agent_status === "blocked").length;
  const b = $("inboxtoggle");
  b.textContent = n ? "Inbox " + n : "Inbox";
  b.classList.toggle("hot", n > 0);
}

// decoratePane adds an agent's queued prompts to its row in the tree.
function decoratePane(li, p) {
  const a = ((state.snap && state.snap.agents) || []).find((x) => x.pane_id === p.pane_id);
  const n = a ? Number(a.queue_length || 0) : 0;
  li.dataset.queue = String(n);
  if (n > 0) li.append(el("span", "badge queue", n + " queued"));
}

function drawInbox() {
  const supported = inbox.items !== null;
  $("inboxtoggle").setAttribute("aria-pressed", String(inbox.shown));
  $("inbox").hidden = !inbox.shown;
  if (inbox.shown) $("view").hidden = true;
  else $("view").hidden = !state.open || (typeof tasks !== "undefined" && tasks.shown);
  document.body.classList.toggle("inbox-open", inbox.shown);
  if (!inbox.shown) return;
  const list = $("inboxlist");
  list.replaceChildren();
  if (!supported) { list.append(el("p", "note", "this server has no inbox")); return; }
  if (!inbox.items.length) { list.append(el("p", "note empty", "No agent is waiting for an answer.")); return; }
  for (const it of inbox.items) list.append(inboxCard(it));
}

function inboxCard(it) {
  const card = el("article", "ask");
  card.dataset.pane = String(it.pane_id);
  card.dataset.question = String(it.question_id);
  const who = String(it.name || it.agent || "agent") + " · " + String(it.pane_id);
  const head = el("h3", "", who);
  if (Number(it.queue_length) > 0) head.append(el("span", "badge queue", Number(it.queue_length) + " queued"));
  card.append(head, el("pre", "question", String(it.question || "")));
  const choices = el("div", "choices");
  for (const c of it.choices || []) {
    const b = el("button", "choice", String(c.key) + ". " + String(c.label));
    b.type = "button";
    b.dataset.key = String(c.key);
    b.onclick = () => answer(it, { choice: String(c.key) }, card);
    choices.append(b);
  }
  card.append(choices);
  const form = el("form", "reply");
  const input = el("input");
  input.type = "text";
  input.placeholder = "Or type an answer…";
  input.autocomplete = "off";
  const send = el("button", "", "Send");
  send.type = "submit";
  form.append(input, send);
  form.onsubmit = (e) => { e.preventDefault(); if (input.value.trim()) answer(it, { text: input.value }, card); };
  card.append(form);
  const note = el("p", "note result", inbox.notes[it.pane_id] || "");
  note.setAttribute("role", "status");
  card.append(note);
  return card;
}

// answer sends one answer; a refusal (the question changed, the agent is
// no longer blocked) is shown on the card and the inbox read again.
async function answer(it, what, card) {
  for (const b of card.querySelectorAll("button")) b.disabled = true;
  const note = card.querySelector(".result");
  try {
    const r = await call("inbox.answer", Object.assign({ pane_id: it.pane_id, question_id: it.question_id }, what));
    inbox.notes[it.pane_id] = "";
    say("answered " + String(r.pane_id) + ": " + String(r.typed));
    card.classList.add("answered");
  } catch (e) {
    inbox.notes[it.pane_id] = e.message;
    note.textContent = e.message;
    note.classList.add("err");
    for (const b of card.querySelectorAll("button")) b.disabled = false;
  }
  inboxSoon();
}

$("inboxtoggle").onclick = () => toggleInbox();
