//go:build !windows

package setup

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listen serves one fake herdr socket; every request line is sent on the
// channel and answered with ok.
func listen(t *testing.T) (string, <-chan map[string]any) {
	t.Helper()
	dir, err := os.MkdirTemp("", "hi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	got := make(chan map[string]any, 8)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				line, err := bufio.NewReader(c).ReadBytes('\n')
				if err != nil {
					return
				}
				var req map[string]any
				if json.Unmarshal(line, &req) == nil {
					got <- req
				}
				c.Write([]byte(`{"id":"x","result":{"type":"ok"}}` + "\n"))
			}()
		}
	}()
	return sock, got
}

// installed installs target into a temp home and returns its script.
func installed(t *testing.T, target string) string {
	t.Helper()
	home, env := fakeEnv(t, nil)
	tg, _ := Lookup(target)
	dir, _ := tg.Dir(env)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(target, env); err != nil {
		t.Fatal(err)
	}
	_ = home
	p, _ := tg.MarkerFile(env)
	return p
}

func runHook(t *testing.T, script, sock, action, input string, inPane bool) {
	t.Helper()
	if out := runHookOutput(t, script, sock, action, input, inPane); out != "" {
		t.Fatalf("hook printed %q", out)
	}
}

// runHookOutput runs the hook and returns what it printed.
func runHookOutput(t *testing.T, script, sock, action, input string, inPane bool) string {
	t.Helper()
	cmd := exec.Command("bash", script, action)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HERDR_SOCKET_PATH=" + sock, "HERDR_PANE_ID=w1:p1", "CODEX_THREAD_ID=thread-from-env"}
	if inPane {
		cmd.Env = append(cmd.Env, "HERDR_ENV=1")
	}
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hook: %v %q", err, out)
	}
	return string(out)
}

func expect(t *testing.T, got <-chan map[string]any, method string, params map[string]any) {
	t.Helper()
	select {
	case req := <-got:
		if req["method"] != method {
			t.Fatalf("method %v, want %s (%v)", req["method"], method, req)
		}
		p := req["params"].(map[string]any)
		for k, v := range params {
			if p[k] != v {
				t.Errorf("params.%s = %v, want %v (%v)", k, p[k], v, p)
			}
		}
		if _, ok := p["seq"].(float64); !ok {
			t.Errorf("no seq in %v", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s request", method)
	}
}

func nothing(t *testing.T, got <-chan map[string]any) {
	t.Helper()
	select {
	case req := <-got:
		t.Fatalf("unexpected request %v", req)
	case <-time.After(200 * time.Millisecond):
	}
}

func requireTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
}

func TestHookScript_Reports(t *testing.T) {
	requireTools(t, "bash", "python3")
	sock, got := listen(t)

	claude := installed(t, "claude")
	start := `{"session_id":"s-1","transcript_path":"/t/s-1.jsonl","hook_event_name":"SessionStart","source":"resume"}`
	runHook(t, claude, sock, "session", start, false)
	nothing(t, got) // outside a pane: no-op
	runHook(t, claude, sock, "session", start, true)
	expect(t, got, "pane.report_agent_session", map[string]any{"pane_id": "w1:p1", "source": "herdr:claude", "agent": "claude",
		"agent_session_id": "s-1", "agent_session_path": "/t/s-1.jsonl", "session_start_source": "resume"})
	runHook(t, claude, sock, "session", `{"session_id":"s-2","agent_id":"sub-1","hook_event_name":"SessionStart"}`, true)
	nothing(t, got) // a subagent's session is not the pane's

	codex := installed(t, "codex")
	runHook(t, codex, sock, "session", "", true)
	expect(t, got, "pane.report_agent_session", map[string]any{"source": "herdr:codex", "agent": "codex", "agent_session_id": "thread-from-env"})

	kimi := installed(t, "kimi")
	runHook(t, kimi, sock, "blocked", `{"session_id":"k-1"}`, true)
	expect(t, got, "pane.report_agent", map[string]any{"source": "herdr:kimi", "agent": "kimi", "state": "blocked", "agent_session_id": "k-1"})
	runHook(t, kimi, sock, "release", `{}`, true)
	expect(t, got, "pane.release_agent", map[string]any{"source": "herdr:kimi", "agent": "kimi"})

	// Devin's input may name no session: the hook asks `devin list`.
	devin := installed(t, "devin")
	project, bin := t.TempDir(), t.TempDir()
	write(t, filepath.Join(bin, "devin"), "#!/bin/sh\necho '[{\"id\":\"other\",\"working_directory\":\"/elsewhere\"},{\"id\":\"dv-4\",\"working_directory\":\""+project+"\"}]'\n")
	os.Chmod(filepath.Join(bin, "devin"), 0o755)
	cmd := exec.Command("bash", devin, "session")
	cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HERDR_ENV=1", "HERDR_SOCKET_PATH=" + sock, "HERDR_PANE_ID=w1:p1", "DEVIN_PROJECT_DIR=" + project}
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse"}`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("devin hook: %v %s", err, out)
	}
	expect(t, got, "pane.report_agent_session", map[string]any{"source": "herdr:devin", "agent": "devin", "agent_session_id": "dv-4"})
	cmd = exec.Command("bash", devin, "session")
	cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HERDR_ENV=1", "HERDR_SOCKET_PATH=" + sock, "HERDR_PANE_ID=w1:p1", "DEVIN_PROJECT_DIR=" + project}
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"SessionStart","source":"startup"}`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("devin hook: %v %s", err, out)
	}
	nothing(t, got) // a fresh start: an old session of the directory must not match

	agy := installed(t, "antigravity-cli")
	// Antigravity reads a JSON object from every hook, in a pane or not.
	if out := runHookOutput(t, agy, sock, "session", `{"conversationId":"c-9","transcriptPath":"/c/9.json"}`, true); out != "{}\n" {
		t.Errorf("antigravity hook printed %q", out)
	}
	expect(t, got, "pane.report_agent_session", map[string]any{"source": "herdr:antigravity_cli", "agent": "agy", "agent_session_id": "c-9", "agent_session_path": "/c/9.json"})
	if out := runHookOutput(t, agy, sock, "session", `{}`, false); out != "{}\n" {
		t.Errorf("antigravity hook outside a pane printed %q", out)
	}
	nothing(t, got)
}

func TestHookScript_NoServerIsQuick(t *testing.T) {
	requireTools(t, "bash", "python3")
	script := installed(t, "claude")
	begin := time.Now()
	runHook(t, script, filepath.Join(t.TempDir(), "absent.sock"), "session", `{"session_id":"s"}`, true)
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("hook took %v with no server", d)
	}
}

// TestPlugins_Node loads the OpenCode plugin and the pi extension in node
// and drives them with the agents' events.
func TestPlugins_Node(t *testing.T) {
	requireTools(t, "node")
	sock, got := listen(t)
	opencode := installed(t, "opencode")
	pi := installed(t, "pi")
	dir := t.TempDir()
	for name, src := range map[string]string{"opencode.mjs": opencode, "pi.mjs": pi} {
		write(t, filepath.Join(dir, name), read(t, src))
	}
	driver := `
import { HerdrAgentState } from "./opencode.mjs";
import pi from "./pi.mjs";
const hooks = await HerdrAgentState({});
const wait = () => new Promise((r) => setTimeout(r, 150));
await hooks.event({ event: { type: "session.created", properties: { info: { id: "child", parentID: "main" } } } });
await hooks.event({ event: { type: "session.status", properties: { sessionID: "child", status: { type: "busy" } } } });
await wait();
await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_main" } } } });
await wait();
await hooks.event({ event: { type: "permission.asked", properties: { sessionID: "ses_main" } } });
await wait();
const handlers = {};
pi({ on: (name, fn) => { handlers[name] = fn; } });
const ctx = { sessionManager: { getSessionId: () => "pi-1", getSessionFile: () => "/s/pi-1.jsonl" } };
handlers.agent_start({}, ctx);
await wait();
`
	write(t, filepath.Join(dir, "driver.mjs"), driver)
	cmd := exec.Command("node", "driver.mjs")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HERDR_ENV=1", "HERDR_SOCKET_PATH=" + sock, "HERDR_PANE_ID=w1:p3"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	expect(t, got, "pane.report_agent_session", map[string]any{"source": "herdr:opencode", "agent": "opencode", "agent_session_id": "ses_main", "pane_id": "w1:p3"})
	expect(t, got, "pane.report_agent", map[string]any{"source": "herdr:opencode", "state": "idle", "agent_session_id": "ses_main"})
	expect(t, got, "pane.report_agent", map[string]any{"source": "herdr:opencode", "state": "blocked", "agent_session_id": "ses_main"})
	expect(t, got, "pane.report_agent", map[string]any{"source": "herdr:pi", "agent": "pi", "state": "working", "agent_session_id": "pi-1", "agent_session_path": "/s/pi-1.jsonl"})
	nothing(t, got)
}

// TestPlugins_Hermes loads the Hermes plugin module in python3 and fires
// its session-start hook.
func TestPlugins_Hermes(t *testing.T) {
	requireTools(t, "python3")
	sock, got := listen(t)
	module := installed(t, "hermes")
	driver := `
import importlib.util, sys
spec = importlib.util.spec_from_file_location("herdr_plugin", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
hooks = {}
class Ctx:
    def register_hook(self, name, fn):
        hooks[name] = fn
mod.register(Ctx())
hooks["on_session_start"](session_id="h-7", platform="cli")
`
	cmd := exec.Command("python3", "-c", driver, module)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HERDR_ENV=1", "HERDR_SOCKET_PATH=" + sock, "HERDR_PANE_ID=w2:p1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	expect(t, got, "pane.report_agent_session", map[string]any{"source": "herdr:hermes", "agent": "hermes", "agent_session_id": "h-7", "pane_id": "w2:p1"})
}

// TestInstall_SymlinkedSettingsKept writes through a settings symlink (a
// dotfiles checkout) instead of replacing the link.
func TestInstall_SymlinkedSettingsKept(t *testing.T) {
	home, env := fakeEnv(t, nil)
	real := filepath.Join(home, "dotfiles", "claude-settings.json")
	write(t, real, `{"model":"opus"}`)
	link := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings.json is no longer a symlink: %v", err)
	}
	if got := read(t, real); !strings.Contains(got, scriptBase) || !strings.Contains(got, "opus") {
		t.Errorf("linked file:\n%s", got)
	}
}
