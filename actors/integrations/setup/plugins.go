package setup

import "fmt"

// jsSender is the part every JS/TS plugin shares: a no-op outside a herdr
// pane, else one request line over node's net to the socket (the named
// pipe on Windows), given up after 0.5 s.
func jsSender(t *Target) string {
	return fmt.Sprintf(`import net from "node:net";

const SOURCE = %s;
const AGENT = %s;
let lastSeq = 0;

function inPane() {
  return process.env.HERDR_ENV === "1" && !!process.env.HERDR_SOCKET_PATH && !!process.env.HERDR_PANE_ID;
}

function nextSeq() {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  return lastSeq;
}

// Reports go out one after another, so herdr sees them in order.
let queue = Promise.resolve();

function deliver(path, line) {
  return new Promise((resolve) => {
    let conn;
    const finish = () => {
      clearTimeout(timer);
      if (conn) conn.destroy();
      resolve();
    };
    const timer = setTimeout(finish, 500);
    try {
      conn = net.createConnection({ path });
      conn.on("connect", () => conn.write(line));
      conn.on("data", finish);
      conn.on("error", finish);
      conn.on("close", finish);
    } catch {
      finish(); // herdr is not reachable: nothing to report to.
    }
  });
}

function send(method, extra) {
  if (!inPane()) return;
  const socket = process.env.HERDR_SOCKET_PATH;
  const path = process.platform === "win32" ? "\\\\.\\pipe\\" + socket : socket;
  const params = { pane_id: process.env.HERDR_PANE_ID, source: SOURCE, agent: AGENT, seq: nextSeq(), ...extra };
  const line = JSON.stringify({ id: "hook:" + SOURCE, method, params }) + "\n";
  queue = queue.then(() => deliver(path, line));
}

function sessionRefs(id, path) {
  const refs = {};
  if (id) refs.agent_session_id = String(id);
  if (path) refs.agent_session_path = String(path);
  return refs;
}
`, literal(t.Source), literal(t.Agent))
}

// piExtension is the pi / oh-my-pi extension: session start reports the
// session (id and file), agent start and tool approvals report working or
// blocked, settling reports idle, shutdown releases the pane.
func piExtension(t *Target) string {
	return markers(t, "//") + fmt.Sprintf("// herdr extension for %s; written by `herdr integration install %s`, replaced on reinstall.\n", t.Title, t.Name) +
		jsSender(t) + `
function refs(ctx) {
  const sessions = ctx && ctx.sessionManager;
  if (!sessions) return {};
  const id = typeof sessions.getSessionId === "function" ? sessions.getSessionId() : undefined;
  const file = typeof sessions.getSessionFile === "function" ? sessions.getSessionFile() : undefined;
  return sessionRefs(id, file);
}

function state(state, ctx) {
  send("pane.report_agent", { state, ...refs(ctx) });
}

export default function herdrAgentState(pi) {
  const started = (_event, ctx) => {
    const r = refs(ctx);
    if (r.agent_session_id || r.agent_session_path) send("pane.report_agent_session", r);
    state("idle", ctx);
  };
  pi.on("session_start", started);
  pi.on("session_switch", started);
  pi.on("agent_start", (_event, ctx) => state("working", ctx));
  pi.on("tool_approval_requested", (_event, ctx) => state("blocked", ctx));
  pi.on("tool_approval_resolved", (_event, ctx) => state("working", ctx));
  pi.on("agent_end", (_event, ctx) => state("idle", ctx));
  pi.on("agent_settled", (_event, ctx) => state("idle", ctx));
  pi.on("session_shutdown", () => send("pane.release_agent", {}));
}
`
}

// opencodePlugin is the OpenCode / Kilo plugin: it follows the main
// session's status (busy → working, idle → idle, permission and question
// prompts → blocked) and ignores child sessions of subagents.
func opencodePlugin(t *Target) string {
	return markers(t, "//") + fmt.Sprintf("// herdr plugin for %s; written by `herdr integration install %s`, replaced on reinstall.\n", t.Title, t.Name) +
		jsSender(t) + `
const children = new Set();
let current = "";

function sessionOf(event) {
  const p = event.properties || {};
  return p.sessionID || (p.info && p.info.id) || "";
}

function state(state, id) {
  send("pane.report_agent", { state, ...sessionRefs(id || current) });
}

export const HerdrAgentState = async () => ({
  event: async ({ event }) => {
    if (!event || !inPane()) return;
    const id = sessionOf(event);
    if (id && children.has(id)) return;
    switch (event.type) {
      case "session.created": {
        const info = (event.properties && event.properties.info) || {};
        if (info.parentID) {
          children.add(info.id);
          return;
        }
        current = info.id || current;
        send("pane.report_agent_session", sessionRefs(current));
        state("idle", current);
        return;
      }
      case "session.status": {
        const status = event.properties && event.properties.status;
        const kind = status && status.type;
        if (kind === "busy" || kind === "retry") state("working", id);
        else if (kind === "idle") state("idle", id);
        return;
      }
      case "session.idle":
      case "session.error":
        state("idle", id);
        return;
      case "permission.asked":
      case "permission.updated":
      case "question.asked":
        state("blocked", id);
        return;
      case "permission.replied":
      case "question.replied":
      case "question.rejected":
        state("working", id);
        return;
      case "session.deleted":
        if (id && id === current) send("pane.release_agent", {});
        return;
      default:
        return;
    }
  },
});
`
}

// hermesInit is the Hermes plugin module: on session start and reset it
// reports the session id.
func hermesInit(t *Target) string {
	return markers(t, "#") + fmt.Sprintf("# herdr plugin for %s; written by `herdr integration install %s`, replaced on reinstall.\n", t.Title, t.Name) +
		fmt.Sprintf(`import json
import os
import socket
import time

SOURCE = %s
AGENT = %s


def _in_pane():
    return os.environ.get("HERDR_ENV") == "1" and os.environ.get("HERDR_SOCKET_PATH") and os.environ.get("HERDR_PANE_ID")


def _send(method, params):
    if not _in_pane():
        return
    params = dict(params, pane_id=os.environ["HERDR_PANE_ID"], source=SOURCE, agent=AGENT, seq=time.time_ns())
    line = (json.dumps({"id": "hook:" + SOURCE, "method": method, "params": params}) + "\n").encode()
    path = os.environ["HERDR_SOCKET_PATH"]
    try:
        if os.name == "nt":
            with open("\\\\.\\pipe\\" + os.path.normpath(path), "r+b", buffering=0) as pipe:
                pipe.write(line)
            return
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.settimeout(0.5)
        try:
            conn.connect(path)
            conn.sendall(line)
            conn.recv(65536)
        finally:
            conn.close()
    except OSError:
        pass


def _session(**kwargs):
    session_id = kwargs.get("session_id")
    if isinstance(session_id, str) and session_id:
        _send("pane.report_agent_session", {"agent_session_id": session_id})


def register(ctx):
    ctx.register_hook("on_session_start", _session)
    ctx.register_hook("on_session_reset", _session)
`, literal(t.Source), literal(t.Agent))
}

// hermesManifest is the Hermes plugin's plugin.yaml.
func hermesManifest(t *Target) string {
	return markers(t, "#") + fmt.Sprintf(`name: herdr-agent-state
version: "%d"
description: Report the Hermes session to the herdr pane it runs in
`, t.Version)
}
