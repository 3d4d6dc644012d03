// The diff view (issue 49): a worktree's branch against its base
// (worktree.diff) with its files listed, its hunks drawn line by line and
// the review comments (review.list) under the lines they are on. A click
// on a line of a hunk opens a comment box (review.comment); Send types
// the pending comments into the agent (review.send); Accept ends the
// review, merging the branch into its base when "merge" is ticked
// (review.accept). It opens from the pane view (Diff, for a pane in a
// worktree workspace) and from a task's activity (Review, for a task with
// a worker); openReview({workspace_id} | {task_id}) opens it too. Every
// string from the server is drawn as text (el, textContent). Uses app.js's
// state, call, el, say and $. Its DOM is its own, added here; its style is review.css.
"use strict";

const review = { subject: null, diff: null, threads: [], hunk: -1 };

// The section and the buttons that open it (its style: review.css).
(function setupReview() {
  const sec = el("section");
  sec.id = "review";
  sec.hidden = true;
  sec.setAttribute("aria-label", "diff review");
  const bar = el("div", "bar");
  const title = el("span", "title");
  title.id = "rvtitle";
  const acts = el("span", "actions");
  const prev = el("button", "", "◀ hunk"), next = el("button", "", "hunk ▶");
  prev.id = "rvprev"; next.id = "rvnext";
  const send = el("button", "", "Send comments");
  send.id = "rvsend";
  const mergeBox = document.createElement("input");
  mergeBox.type = "checkbox"; mergeBox.id = "rvmerge"; mergeBox.checked = true;
  const mergeLabel = el("label", "", " merge");
  mergeLabel.prepend(mergeBox);
  const accept = el("button", "", "Accept");
  accept.id = "rvaccept";
  const closeB = el("button", "", "Close");
  closeB.id = "rvclose";
  for (const b of [prev, next, send, accept, closeB]) b.type = "button";
  acts.append(prev, next, send, mergeLabel, accept, closeB);
  bar.append(title, acts);
  const note = el("p", "note");
  note.id = "rvnote";
  const body = el("div", "rvbody");
  const files = el("ul", "rvfiles");
  files.id = "rvfiles";
  const diff = el("div", "rvdiff");
  diff.id = "rvdiff";
  body.append(files, diff);
  sec.append(bar, note, body);
  document.querySelector("main").append(sec);
  prev.onclick = () => moveHunk(-1);
  next.onclick = () => moveHunk(1);
  send.onclick = sendReview;
  accept.onclick = acceptReview;
  closeB.onclick = closeReview;
  // Diff, in the pane view, for a pane of a worktree workspace.
  const diffB = el("button", "", "Diff");
  diffB.type = "button"; diffB.id = "diffbtn"; diffB.hidden = true;
  diffB.onclick = () => { const ws = worktreeOfPane(state.open); if (ws) openReview({ workspace_id: ws }); };
  const viewActs = document.querySelector("#view .actions");
  if (viewActs) viewActs.prepend(diffB);
  setInterval(() => { diffB.hidden = !worktreeOfPane(state.open); }, 500);
  // Review, in a task's activity, for a task with a worker.
  const box = $("activity");
  if (box) new MutationObserver(() => {
    const facts = box.querySelector(".facts");
    if (!box.dataset.task || box.querySelector("button.rvopen") || !facts || !facts.textContent.includes("worker ")) return; // a task with a worker
    const b = el("button", "rvopen", "Review diff");
    b.type = "button";
    b.onclick = () => openReview({ task_id: box.dataset.task });
    box.prepend(b);
  }).observe(box, { childList: true });
  // A pane opened from the list takes the place of the diff.
  new MutationObserver(() => { if (!$("view").hidden && !sec.hidden) { review.subject = null; sec.hidden = true; } })
    .observe($("view"), { attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("keydown", (e) => {
    if ($("review").hidden || e.target.closest("textarea, input")) return;
    if (e.key === "n") moveHunk(1);
    else if (e.key === "p") moveHunk(-1);
  });
})();

// worktreeOfPane is the workspace of pane id when it is a linked worktree.
function worktreeOfPane(id) {
  if (!id || !state.snap) return null;
  const p = (state.snap.panes || []).find((x) => x.pane_id === id);
  if (!p) return null;
  const w = (state.snap.workspaces || []).find((x) => x.workspace_id === p.workspace_id);
  return w && w.worktree && w.worktree.is_linked_worktree ? String(w.workspace_id) : null;
}

// openReview shows the diff of a workspace or task with its comments.
async function openReview(subject) {
  review.subject = subject;
  review.hunk = -1;
  $("view").hidden = true;
  $("review").hidden = false;
  if ($("tasks")) $("tasks").hidden = true;
  await reloadReview();
}

function closeReview() {
  review.subject = null;
  $("review").hidden = true;
  $("view").hidden = !state.open;
  if (window.drawTasks) drawTasks();
}

async function reloadReview() {
  const subject = review.subject;
  if (!subject) return;
  try {
    const [d, l] = await Promise.all([call("worktree.diff", subject), call("review.list", subject)]);
    if (review.subject !== subject) return;
    review.diff = d;
    review.threads = l.threads || [];
    drawReview();
  } catch (e) {
    $("rvnote").textContent = e.message;
    $("rvnote").classList.add("err");
  }
}

// comments lists the comments of the open subject's thread.
function comments() {
  const t = review.threads[0];
  return t ? t.comments || [] : [];
}

function drawReview() {
  const d = review.diff;
  const who = d.task_id ? String(d.task_id) + " · " : "";
  $("rvtitle").textContent = who + String(d.branch) + " against " + String(d.base) + " · " + d.files.length + " files";
  const notes = [];
  if (d.uncommitted) notes.push("the checkout has uncommitted changes, not in this diff");
  if (d.truncated) notes.push("the diff is cut at its bound");
  const pending = comments().filter((c) => c.status === "pending").length;
  notes.push(pending + " pending comment" + (pending === 1 ? "" : "s") + "; click a line of a hunk to comment");
  $("rvnote").textContent = notes.join(" · ");
  $("rvnote").classList.remove("err");
  $("rvsend").disabled = pending === 0;
  const list = $("rvfiles");
  list.replaceChildren();
  for (const f of d.files) {
    const li = el("li");
    li.dataset.path = String(f.path);
    li.append(el("span", "st", String(f.status)), el("span", "", String(f.path)),
      el("span", "n", f.binary ? "binary" : "+" + Number(f.additions) + " −" + Number(f.deletions)));
    li.onclick = () => { const b = fileBlock(f.path); if (b) b.scrollIntoView(); };
    list.append(li);
  }
  drawDiff(d);
}

function fileBlock(path) {
  return [...document.querySelectorAll("#rvdiff .file")].find((b) => b.dataset.path === path);
}

// drawDiff draws the unified diff file by file, each line with its
// number on the side comments use (new; old for a deleted file), and the
// comments under the lines they are on.
function drawDiff(d) {
  const box = $("rvdiff");
  box.replaceChildren();
  const deleted = new Set(d.files.filter((f) => f.status === "D").map((f) => f.path));
  let file = null, path = "", oldNo = 0, newNo = 0, inHunk = false;
  for (const line of String(d.diff).split("\n")) {
    if (line.startsWith("diff --git ")) {
      file = el("div", "file");
      const m = / b\/(.*)$/.exec(line);
      path = m ? m[1] : line;
      file.dataset.path = path;
      file.append(el("h4", "", path));
      box.append(file);
      inHunk = false;
      continue;
    }
    if (!file) continue;
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (h) {
      oldNo = Number(h[1]); newNo = Number(h[2]); inHunk = true;
      file.append(lineRow("hunk", "", line));
      continue;
    }
    if (!inHunk) {
      if (line.startsWith("+++ ")) { const m = /^\+\+\+ b\/(.*)$/.exec(line); if (m) { path = m[1]; file.dataset.path = path; } }
      continue;
    }
    const kind = line[0] === "+" ? "add" : line[0] === "-" ? "del" : line[0] === "\\" ? "meta" : "ctx";
    let no = "";
    if (kind === "add") no = newNo++;
    else if (kind === "del") { no = deleted.has(path) ? oldNo : ""; oldNo++; }
    else if (kind === "ctx") { no = newNo++; oldNo++; }
    const row = lineRow(kind, no, line);
    if (no !== "") {
      row.dataset.line = String(no);
      row.dataset.path = path;
      row.onclick = () => commentBox(row);
    }
    file.append(row);
    for (const c of comments().filter((c) => c.file === path && c.line === no)) row.after(commentRow(c));
  }
}

function lineRow(kind, no, text) {
  const row = el("div", "ln " + kind);
  row.append(el("span", "no", String(no)), el("span", "tx", text));
  return row;
}

function commentRow(c) {
  const d = el("div", "cm", String(c.text));
  d.dataset.status = String(c.status);
  d.dataset.id = String(c.id);
  d.append(el("span", "st", String(c.status)));
  return d;
}

// commentBox opens the comment form under a line.
function commentBox(row) {
  for (const f of document.querySelectorAll("#rvdiff form.cmform")) f.remove();
  const form = el("form", "cmform");
  const text = document.createElement("textarea");
  text.placeholder = "Comment on " + row.dataset.path + ":" + row.dataset.line;
  const add = el("button", "", "Comment");
  add.type = "submit";
  form.append(text, add);
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      await call("review.comment", Object.assign({ file: row.dataset.path, line: Number(row.dataset.line), text: text.value }, review.subject));
      await reloadReview();
    } catch (err) { say(err.message, true); $("rvnote").textContent = err.message; $("rvnote").classList.add("err"); }
  };
  row.after(form);
  text.focus();
}

// moveHunk goes to the next (1) or previous (-1) hunk.
function moveHunk(step) {
  const hunks = [...document.querySelectorAll("#rvdiff .ln.hunk")];
  if (!hunks.length) return;
  for (const h of hunks) h.classList.remove("cur");
  review.hunk = Math.max(0, Math.min(hunks.length - 1, review.hunk + step));
  hunks[review.hunk].classList.add("cur");
  hunks[review.hunk].scrollIntoView({ block: "center" });
}

async function sendReview() {
  try {
    const r = await call("review.send", review.subject);
    $("rvnote").textContent = r.delivered ? "sent to " + String(r.agent) : "queued for " + String(r.agent) + ": typed when its turn ends";
    review.threads = [r.thread];
    drawDiff(review.diff);
  } catch (e) { $("rvnote").textContent = e.message; $("rvnote").classList.add("err"); }
}

async function acceptReview() {
  const merge = $("rvmerge").checked;
  try {
    const r = await call("review.accept", Object.assign({ merge }, review.subject));
    $("rvnote").classList.remove("err");
    $("rvnote").textContent = r.merged ? "merged into " + String(r.base) + " (" + String(r.merge_commit).slice(0, 12) + ")" : "push for a pull request: " + String(r.push_command);
  } catch (e) { $("rvnote").textContent = e.message; $("rvnote").classList.add("err"); }
}
