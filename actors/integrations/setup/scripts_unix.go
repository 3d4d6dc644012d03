//go:build unix

package setup

import (
	"fmt"
	"strings"
)

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

// shellScript is the hook script of a hook target on Unix: a no-op outside
// a herdr pane, else one python3 run that turns the agent's JSON input
// (stdin) and the action argument into one request on the herdr socket.
func shellScript(t *Target) string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	b.WriteString(markers(t, "#"))
	fmt.Fprintf(&b, "# herdr hook for %s; written by `herdr integration install %s`, replaced on reinstall.\n", t.Title, t.Name)
	fmt.Fprintf(&b, "# Usage: herdr-agent-state%s [session|working|blocked|idle|release] < hook-input.json\n", scriptExt)
	// Some agents read a JSON answer from every hook; herdr's adds nothing.
	fmt.Fprintf(&b, "herdr_answer=%s\n", shellQuote(t.answer))
	b.WriteString(`herdr_finish() {
  if [ -n "$herdr_answer" ]; then printf '%s\n' "$herdr_answer"; fi
  exit 0
}
if [ "${HERDR_ENV:-}" != "1" ] || [ -z "${HERDR_SOCKET_PATH:-}" ] || [ -z "${HERDR_PANE_ID:-}" ]; then
  [ -t 0 ] || cat >/dev/null 2>&1
  herdr_finish
fi
command -v python3 >/dev/null 2>&1 || herdr_finish
# The program is read into a variable (not a command substitution, which
# old bash parses badly around here-documents) so stdin stays the input.
IFS= read -r -d '' herdr_reporter <<'HERDR_PY' || true
`)
	b.WriteString(pythonReporter(t))
	b.WriteString(`HERDR_PY
python3 -c "$herdr_reporter" "${1:-session}" 2>/dev/null
herdr_finish
`)
	return b.String()
}

// pythonReporter is the Python program the shell hook runs.
func pythonReporter(t *Target) string {
	return fmt.Sprintf(`import json, os, socket, subprocess, sys, time

AGENT = %s
SOURCE = %s
ID_KEYS = %s
PATH_KEYS = %s
ID_ENV = %s
SKIP_KEYS = %s
LIST_CMD = %s
LIST_DIR_ENV = %s


def pick(payload, keys):
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def listed_session(payload):
    # The session list of the agent, matched by working directory: for
    # events whose input names no session. Not on a first start or a
    # prompt, where a stale session of the same directory could match.
    event = payload.get("hook_event_name")
    if event == "UserPromptSubmit" or (event == "SessionStart" and payload.get("source") == "startup"):
        return None
    project = next((os.environ[n] for n in LIST_DIR_ENV if os.environ.get(n)), None) or os.getcwd()
    try:
        out = subprocess.run(LIST_CMD, cwd=project, capture_output=True, text=True, timeout=2)
        entries = json.loads(out.stdout) if out.returncode == 0 else []
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    want = os.path.realpath(project)
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        sid, where = entry.get("id"), entry.get("working_directory")
        if isinstance(sid, str) and sid and isinstance(where, str) and os.path.realpath(where) == want:
            return sid
    return None


def main():
    action = sys.argv[1] if len(sys.argv) > 1 else "session"
    payload = {}
    if not sys.stdin.isatty():
        try:
            data = json.loads(sys.stdin.read(1 << 20) or "{}")
            if isinstance(data, dict):
                payload = data
        except ValueError:
            pass
    if any(payload.get(key) for key in SKIP_KEYS):
        return
    session_id = pick(payload, ID_KEYS)
    if session_id is None:
        session_id = next((os.environ[n] for n in ID_ENV if os.environ.get(n)), None)
    if session_id is None and LIST_CMD:
        session_id = listed_session(payload)
    session_path = pick(payload, PATH_KEYS)
    params = {"pane_id": os.environ["HERDR_PANE_ID"], "source": SOURCE, "agent": AGENT, "seq": time.time_ns()}
    if action == "release":
        method = "pane.release_agent"
    else:
        if session_id:
            params["agent_session_id"] = session_id
        if session_path:
            params["agent_session_path"] = session_path
        if action == "session":
            if not session_id and not session_path:
                return
            method = "pane.report_agent_session"
            start = payload.get("source")
            if payload.get("hook_event_name") == "SessionStart" and isinstance(start, str) and start:
                params["session_start_source"] = start
        elif action in ("working", "blocked", "idle"):
            method = "pane.report_agent"
            params["state"] = action
        else:
            return
    line = json.dumps({"id": "hook:" + SOURCE, "method": method, "params": params}) + "\n"
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(0.5)
    try:
        conn.connect(os.environ["HERDR_SOCKET_PATH"])
        conn.sendall(line.encode())
        conn.recv(65536)
    except OSError:
        pass
    finally:
        conn.close()


main()
`, literal(t.Agent), literal(t.Source), literal(t.keys.id), literal(t.keys.path), literal(t.keys.idEnv), literal(t.keys.skip), literal(t.keys.list), literal(t.keys.listDirEnv))
}
