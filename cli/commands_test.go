package cli

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestCommandsSendMethodAndParams checks each command's request against the
// echoing fake server, and its output: JSON commands print the response line,
// silent ones nothing.
func TestCommandsSendMethodAndParams(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		env    map[string]string
		id     string
		method string
		params string
		silent bool
	}{
		{args: []string{"server", "reload-config"}, id: "cli:server:reload-config", method: "server.reload_config", params: `{}`},
		{args: []string{"api", "snapshot"}, id: "cli:api:snapshot", method: "session.snapshot", params: `{}`},
		{args: []string{"server", "agent-manifests", "--json"}, id: "cli:server:agent-manifests", method: "server.agent_manifests", params: `{}`},
		{args: []string{"server", "reload-agent-manifests"}, id: "cli:server:reload-agent-manifests", method: "server.reload_agent_manifests", params: `{}`},
		{args: []string{"worktree", "list", "--workspace", "w1"}, id: "cli:worktree:list", method: "worktree.list", params: `{"workspace_id":"w1"}`},
		{args: []string{"worktree", "create", "--cwd", "/repo", "--branch", "b", "--base", "main", "--focus"}, id: "cli:worktree:create", method: "worktree.create",
			params: `{"cwd":"/repo","branch":"b","base":"main","focus":true}`},
		{args: []string{"worktree", "open", "--branch", "b", "--label", "x"}, id: "cli:worktree:open", method: "worktree.open", params: `{"branch":"b","label":"x"}`},
		{args: []string{"worktree", "remove", "--workspace", "w2", "--force"}, id: "cli:worktree:remove", method: "worktree.remove", params: `{"workspace_id":"w2","force":true}`},

		{args: []string{"plugin", "pane", "open", "--plugin", "notes", "--entrypoint", "main", "--placement", "popup", "--width", "80%", "--height", "20"},
			id: "cli:plugin:pane:open", method: "plugin.pane.open", params: `{"plugin_id":"notes","entrypoint":"main","placement":"popup","focus":true,"width":"80%","height":20}`},
		{args: []string{"plugin", "pane", "open", "--plugin", "notes", "--entrypoint", "main", "--placement", "split", "--target-pane", "w1:p1", "--direction", "down", "--no-focus"},
			id: "cli:plugin:pane:open", method: "plugin.pane.open", params: `{"plugin_id":"notes","entrypoint":"main","placement":"split","target_pane_id":"w1:p1","direction":"down"}`},
		{args: []string{"plugin", "pane", "close", "w1:p2"}, id: "cli:plugin:pane:close", method: "plugin.pane.close", params: `{"pane_id":"w1:p2"}`},

		{args: []string{"terminal", "title", "set", "build"}, id: "cli:terminal:title:set", method: "client.window_title.set", params: `{"title":"build"}`},
		{args: []string{"terminal", "title", "clear"}, id: "cli:terminal:title:clear", method: "client.window_title.clear", params: `{}`},

		{args: []string{"workspace", "list"}, id: "cli:workspace:list", method: "workspace.list", params: `{}`},
		{args: []string{"workspace", "get", "w1"}, id: "cli:workspace:get", method: "workspace.get", params: `{"workspace_id":"w1"}`},
		{args: []string{"workspace", "focus", "w2"}, id: "cli:workspace:focus", method: "workspace.focus", params: `{"workspace_id":"w2"}`},
		{args: []string{"workspace", "close", "w3"}, id: "cli:workspace:close", method: "workspace.close", params: `{"workspace_id":"w3"}`},
		{args: []string{"workspace", "rename", "w1", "api", "server"}, id: "cli:workspace:rename", method: "workspace.rename", params: `{"workspace_id":"w1","label":"api server"}`},
		{args: []string{"workspace", "create"}, id: "cli:workspace:create", method: "workspace.create", params: `{}`},
		{args: []string{"workspace", "create", "--cwd", "sub/dir", "--label", "app", "--env", "A=1", "--env", "B=x=y", "--env", "C=", "--focus"},
			id: "cli:workspace:create", method: "workspace.create",
			params: `{"cwd":` + quote(filepath.Join(wd, "sub/dir")) + `,"label":"app","env":{"A":"1","B":"x=y","C":""},"focus":true}`},
		{args: []string{"workspace", "create", "--cwd", "~/src", "--no-focus"}, id: "cli:workspace:create", method: "workspace.create",
			params: `{"cwd":"HOME/src"}`},
		{args: []string{"workspace", "create", "--cwd=/abs/path", "--label="}, id: "cli:workspace:create", method: "workspace.create",
			params: `{"cwd":"/abs/path","label":""}`},

		{args: []string{"tab", "list"}, id: "cli:tab:list", method: "tab.list", params: `{}`},
		{args: []string{"tab", "list", "--workspace", "w2"}, id: "cli:tab:list", method: "tab.list", params: `{"workspace_id":"w2"}`},
		{args: []string{"tab", "get", "w1:t1"}, id: "cli:tab:get", method: "tab.get", params: `{"tab_id":"w1:t1"}`},
		{args: []string{"tab", "focus", "w1:t2"}, id: "cli:tab:focus", method: "tab.focus", params: `{"tab_id":"w1:t2"}`},
		{args: []string{"tab", "close", "w1:t3"}, id: "cli:tab:close", method: "tab.close", params: `{"tab_id":"w1:t3"}`},
		{args: []string{"tab", "rename", "w1:t1", "build", "logs"}, id: "cli:tab:rename", method: "tab.rename", params: `{"tab_id":"w1:t1","label":"build logs"}`},
		{args: []string{"tab", "create", "--workspace", "w1", "--label", "tests", "--env", "K=V", "--cwd", "/tmp"}, id: "cli:tab:create", method: "tab.create",
			params: `{"workspace_id":"w1","label":"tests","env":{"K":"V"},"cwd":"/tmp"}`},

		{args: []string{"pane", "list"}, id: "cli:pane:list", method: "pane.list", params: `{}`},
		{args: []string{"pane", "list", "--workspace", "w1"}, id: "cli:pane:list", method: "pane.list", params: `{"workspace_id":"w1"}`},
		{args: []string{"pane", "get", "w1:p2"}, id: "cli:pane:get", method: "pane.get", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "focus", "w1:p2"}, id: "cli:pane:focus", method: "pane.focus", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "close", "w1:p2"}, id: "cli:pane:close", method: "pane.close", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "current"}, id: "cli:pane:current", method: "pane.current", params: `{}`},
		{args: []string{"pane", "current"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:current", method: "pane.current", params: `{"caller_pane_id":"w1:p3"}`},
		{args: []string{"pane", "current", "--current"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:current", method: "pane.current", params: `{"caller_pane_id":"w1:p3"}`},
		{args: []string{"pane", "current", "--pane", "w2:p1"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:current", method: "pane.current", params: `{"caller_pane_id":"w2:p1"}`},
		{args: []string{"pane", "rename", "w1:p2", "dev", "server"}, id: "cli:pane:rename", method: "pane.rename", params: `{"pane_id":"w1:p2","label":"dev server"}`},
		{args: []string{"pane", "rename", "w1:p2", "--clear"}, id: "cli:pane:rename", method: "pane.rename", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "split", "w1:p1", "--direction", "right", "--ratio", "0.25", "--env", "K=V", "--focus"}, id: "cli:pane:split", method: "pane.split",
			params: `{"direction":"right","target_pane_id":"w1:p1","ratio":0.25,"env":{"K":"V"},"focus":true}`},
		{args: []string{"pane", "split", "--direction", "down"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:split", method: "pane.split",
			params: `{"direction":"down","target_pane_id":"w1:p3"}`},
		{args: []string{"pane", "split", "--direction", "down"}, id: "cli:pane:split", method: "pane.split",
			params: `{"direction":"down"}`},
		{args: []string{"pane", "clear", "w1:p2"}, id: "cli:pane:clear", method: "pane.clear", params: `{"pane_id":"w1:p2"}`},
		{args: []string{"pane", "clear"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:clear", method: "pane.clear", params: `{"pane_id":"w1:p3"}`},
		{args: []string{"pane", "split", "--current", "--direction", "down", "--cwd", "/srv"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:split", method: "pane.split",
			params: `{"direction":"down","target_pane_id":"w1:p3","cwd":"/srv"}`},
		{args: []string{"pane", "split", "--pane", "w1:p4", "--direction", "right"}, id: "cli:pane:split", method: "pane.split",
			params: `{"direction":"right","target_pane_id":"w1:p4"}`},
		{args: []string{"pane", "send-text", "w1:p2", "echo", "-n", "hi"}, id: "cli:pane:send-text", method: "pane.send_text",
			params: `{"pane_id":"w1:p2","text":"echo -n hi"}`, silent: true},
		{args: []string{"pane", "send-keys", "w1:p2", "ctrl+c", "Enter"}, id: "cli:pane:send-keys", method: "pane.send_keys",
			params: `{"pane_id":"w1:p2","keys":["ctrl+c","Enter"]}`, silent: true},
		{args: []string{"pane", "run", "w1:p2", "echo", "hi"}, id: "cli:pane:run", method: "pane.send_input",
			params: `{"pane_id":"w1:p2","text":"echo hi","keys":["Enter"]}`, silent: true},
		{args: []string{"--session", "work", "pane", "run", "w1:p2", "ls", "-la", "--color"}, id: "cli:pane:run", method: "pane.send_input",
			params: `{"pane_id":"w1:p2","text":"ls -la --color","keys":["Enter"]}`, silent: true},
		{args: []string{"pane", "wait-output", "w1:p2", "--match", "ok", "--timeout", "500"}, id: "cli:pane:wait-output", method: "pane.wait_for_output",
			params: `{"pane_id":"w1:p2","source":"recent","match":{"type":"substring","value":"ok"},"timeout_ms":500}`},
		{args: []string{"pane", "wait-output", "w1:p2", "--regex", "^\\$ $", "--source", "recent-unwrapped", "--lines", "40", "--raw"}, id: "cli:pane:wait-output", method: "pane.wait_for_output",
			params: `{"pane_id":"w1:p2","source":"recent_unwrapped","match":{"type":"regex","value":"^\\$ $"},"lines":40,"strip_ansi":false}`},
		{args: []string{"pane", "process-info"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:process-info", method: "pane.process_info", params: `{}`},
		{args: []string{"pane", "process-info", "--current"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:process-info", method: "pane.process_info", params: `{"pane_id":"w1:p3"}`},
		{args: []string{"pane", "process-info", "--pane", "w2:p2"}, id: "cli:pane:process-info", method: "pane.process_info", params: `{"pane_id":"w2:p2"}`},
		{args: []string{"pane", "edges"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:edges", method: "pane.edges", params: `{}`},
		{args: []string{"pane", "layout", "--pane", "w2:p1"}, id: "cli:pane:layout", method: "pane.layout", params: `{"pane_id":"w2:p1"}`},
		{args: []string{"pane", "layout", "w2:p4"}, id: "cli:pane:layout", method: "pane.layout", params: `{"pane_id":"w2:p4"}`},
		{args: []string{"pane", "resize", "--direction", "left"}, id: "cli:pane:resize", method: "pane.resize", params: `{"direction":"left"}`},
		{args: []string{"pane", "resize", "--direction", "up", "--amount", "0.1", "--current"}, env: map[string]string{"HERDR_PANE_ID": "w1:p3"}, id: "cli:pane:resize", method: "pane.resize",
			params: `{"direction":"up","amount":0.1,"pane_id":"w1:p3"}`},
		{args: []string{"pane", "neighbor", "--direction", "right", "--pane", "w1:p1"}, id: "cli:pane:neighbor", method: "pane.neighbor", params: `{"direction":"right","pane_id":"w1:p1"}`},
		{args: []string{"pane", "report-agent", "w1:p1", "--source", "my-hook", "--agent", "pi", "--state", "idle", "--seq", "3", "--message", ""}, id: "cli:pane:report-agent", method: "pane.report_agent",
			params: `{"pane_id":"w1:p1","source":"my-hook","agent":"pi","state":"idle","seq":3,"message":""}`, silent: true},
		{args: []string{"pane", "release-agent", "w1:p1", "--source", "my-hook", "--agent", "pi"}, id: "cli:pane:release-agent", method: "pane.release_agent",
			params: `{"pane_id":"w1:p1","source":"my-hook","agent":"pi"}`, silent: true},
		{args: []string{"buffer", "delete", "tests"}, id: "cli:buffer:delete", method: "buffer.delete", params: `{"buffer":"tests"}`, silent: true},
		{args: []string{"plugin", "action", "list"}, id: "cli:plugin:action:list", method: "plugin.action.list", params: `{}`},
		{args: []string{"plugin", "log", "list", "--plugin", "notes", "--limit", "5"}, id: "cli:plugin:log:list", method: "plugin.log.list", params: `{"plugin_id":"notes","limit":5}`},
		{args: []string{"task", "run"}, id: "cli:task:run", method: "task.run", params: `{}`},
		{args: []string{"task", "run", "--max-running", "3"}, id: "cli:task:run", method: "task.run", params: `{"max_running":3}`},
		{args: []string{"task", "dispatch", "task-3", "w1:p2", "--prompt", "go"}, id: "cli:task:dispatch", method: "task.dispatch", params: `{"task_id":"task-3","target":"w1:p2","prompt":"go"}`},
		{args: []string{"agent", "send-keys", "bob", "C-c", "Enter"}, id: "cli:agent:send-keys", method: "agent.send_keys", params: `{"target":"bob","keys":["C-c","Enter"]}`},
		{args: []string{"notification", "show", "done", "--body", ""}, id: "cli:notification:show", method: "notification.show", params: `{"title":"done","body":""}`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			env := newEnv(t)
			sock := ""
			if c.args[0] == "--session" {
				sock = filepath.Join(env["XDG_CONFIG_HOME"], "herdr", "sessions", c.args[1], "herdr.sock")
			}
			f := startFake(t, sock)
			if sock == "" {
				env["HERDR_SOCKET_PATH"] = f.sock
			}
			for k, v := range c.env {
				env[k] = v
			}
			r := run(t, env, c.args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d stderr %q", r.code, r.stderr)
			}
			reqs := f.requests()
			if len(reqs) != 2 || reqs[0].Method != "ping" {
				t.Fatalf("requests %+v, want ping and one request", reqs)
			}
			req := reqs[1]
			if req.ID != c.id || req.Method != c.method {
				t.Errorf("sent id %q method %q, want %q %q", req.ID, req.Method, c.id, c.method)
			}
			want := strings.ReplaceAll(c.params, "HOME", env["HOME"])
			if !sameJSON(t, req.Params, []byte(want)) {
				t.Errorf("params %s, want %s", req.Params, want)
			}
			if c.silent {
				if r.stdout != "" {
					t.Errorf("silent command printed %q", r.stdout)
				}
				return
			}
			var resp struct {
				ID     string `json:"id"`
				Result struct {
					Method string          `json:"method"`
					Params json.RawMessage `json:"params"`
				} `json:"result"`
			}
			if !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 || json.Unmarshal([]byte(r.stdout), &resp) != nil {
				t.Fatalf("stdout %q is not one JSON line", r.stdout)
			}
			if resp.ID != c.id || resp.Result.Method != c.method {
				t.Errorf("stdout %q is not the response", r.stdout)
			}
		})
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestPaneReadParams(t *testing.T) {
	cases := []struct {
		args   []string
		params string
	}{
		{[]string{"w1:p2"}, `{"pane_id":"w1:p2","source":"recent","format":"text"}`},
		{[]string{"w1:p2", "--source", "recent-unwrapped"}, `{"pane_id":"w1:p2","source":"recent_unwrapped","format":"text"}`},
		{[]string{"w1:p2", "--source=visible", "--lines=5"}, `{"pane_id":"w1:p2","source":"visible","format":"text","lines":5}`},
		{[]string{"w1:p2", "--source", "detection", "--format", "ansi"}, `{"pane_id":"w1:p2","source":"detection","format":"ansi"}`},
		{[]string{"w1:p2", "--ansi"}, `{"pane_id":"w1:p2","source":"recent","format":"ansi"}`},
		{[]string{"w1:p2", "--raw"}, `{"pane_id":"w1:p2","source":"recent","format":"ansi","strip_ansi":false}`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			f := startFake(t, "")
			f.replies["pane.read"] = `{"id":%[1]s,"result":{"type":"pane_read","read":{"pane_id":"w1:p2","workspace_id":"w1","tab_id":"w1:t1","source":"recent","format":"text","text":"x","revision":1,"truncated":false}}}`
			r := run(t, f.envFor(t), append([]string{"pane", "read"}, c.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d stderr %q", r.code, r.stderr)
			}
			reqs := f.requests()
			if len(reqs) != 2 || reqs[1].Method != "pane.read" || reqs[1].ID != "cli:pane:read" {
				t.Fatalf("requests %+v", reqs)
			}
			if !sameJSON(t, reqs[1].Params, []byte(c.params)) {
				t.Errorf("params %s, want %s", reqs[1].Params, c.params)
			}
		})
	}
}

func TestPaneReadPrintsTextRaw(t *testing.T) {
	cases := []struct{ text, want string }{
		{`a\u001b[31mb\nc`, "a\x1b[31mb\nc\n"},
		{`line 1\nline 2\n`, "line 1\nline 2\n"},
		{`<&>`, "<&>\n"},
		{``, "\n"},
	}
	for _, c := range cases {
		f := startFake(t, "")
		f.replies["pane.read"] = `{"id":%[1]s,"result":{"type":"pane_read","read":{"pane_id":"w1:p2","workspace_id":"w1","tab_id":"w1:t1","source":"recent","format":"text","text":"` + c.text + `","revision":1,"truncated":false}}}`
		r := run(t, f.envFor(t), "pane", "read", "w1:p2")
		if r.code != 0 || r.stdout != c.want || r.stderr != "" {
			t.Errorf("text %s: exit %d stdout %q stderr %q, want %q", c.text, r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// Every table entry that names a command path has its verb in the whole
// tree (a bad cli tag panics building it, which fails here).
func TestTableCommands_EveryCLIPathIsBuilt(t *testing.T) {
	a := &app{stdout: io.Discard, stderr: io.Discard}
	root := a.rootCmd([]string{"--help"})
	n := 0
	for _, m := range protocol.Entries() {
		if m.CLI == "" {
			continue
		}
		n++
		path, _ := cliPath(m.CLI)
		c, rest, err := root.Find(path)
		if err != nil || len(rest) != 0 || c.CommandPath() != "herdr "+strings.Join(path, " ") {
			t.Errorf("%s: no verb %q (%v)", m.Name, m.CLI, err)
		}
	}
	if n < 18 {
		t.Errorf("%d table verbs, want at least 18", n)
	}
}
