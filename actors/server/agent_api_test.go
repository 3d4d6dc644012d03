package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// fakeAgent draws what an agent shows on cue from its stdin: w working,
// b blocked, i idle, t a short task (working, then idle a second later),
// q quit; any other line is ignored, as a stuck agent would.
func fakeAgent(working, blocked, idle string) string {
	return `#!/bin/sh
stty -echo
printf 'fake agent started\n' # real agents draw at once; detection runs on output
draw() { printf "\033[2J\033[H$1"; } # one write: a half-drawn screen is not a state
while read cue; do
  case "$cue" in
    w) draw '` + working + `' ;;
    b) draw '` + blocked + `' ;;
    i) draw '` + idle + `' ;;
    t) draw '` + working + `'; sleep 1; draw '` + idle + `' ;;
    q) exit 0 ;;
  esac
done
`
}

var fakeAgents = map[string]string{
	"claude": fakeAgent(`* Thinking… (esc to interrupt)\n`, `Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n`, `Done. All tests pass.\n`),
	"codex":  fakeAgent(`• Working (3s • esc to interrupt)\n`, `› clean up\n\nAllow command?\n  rm -rf build [y/n]\n`, `› \n`),
	"pi":     fakeAgent(`Working...\n`, `Delete 3 files? [y/n]\n`, `ready\n`),
}

// agentEnv writes the fake agents to a directory and returns pane env that
// puts it first on PATH.
func agentEnv(t testing.TB) map[string]string {
	bin := t.TempDir()
	for name, script := range fakeAgents {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
}

// rig is a server with a connection for tests of agents.
type rig struct {
	t    *testing.T
	sock string
	c    *protocol.Client
	env  map[string]string
}

func newRig(t *testing.T) *rig {
	sock := startServer(t)
	c, err := protocol.Connect(sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rig{t: t, sock: sock, c: c, env: agentEnv(t)}
}

// call makes a request and fails the test on an error.
func (r *rig) call(method string, params any, out any) {
	r.t.Helper()
	if err := r.c.Call(method, params, out); err != nil {
		r.t.Fatalf("%s %v: %v", method, params, err)
	}
}

// code makes a request on a fresh connection and returns its error code ("" for success).
func (r *rig) code(method string, params any) string {
	r.t.Helper()
	c, err := protocol.Connect(r.sock)
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	c.Conn().SetDeadline(time.Now().Add(20 * time.Second))
	err = c.Call(method, params, nil)
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	if err != nil {
		r.t.Fatalf("%s: %v", method, err)
	}
	return ""
}

func (r *rig) wantCode(want, method string, params any) {
	r.t.Helper()
	if got := r.code(method, params); got != want {
		r.t.Fatalf("%s %v: code %q, want %q", method, params, got, want)
	}
}

// newPane makes a workspace whose shell has the fake agents on PATH.
func (r *rig) newPane() string {
	r.t.Helper()
	var created protocol.WorkspaceCreated
	r.call("workspace.create", map[string]any{"cwd": "/tmp", "env": r.env}, &created)
	return created.RootPane.PaneID
}

func (r *rig) send(pane, text string) {
	r.t.Helper()
	r.call("pane.send_input", map[string]any{"pane_id": pane, "text": text, "keys": []string{"Enter"}}, nil)
}

func (r *rig) pane(id string) protocol.PaneInfo {
	r.t.Helper()
	var got protocol.PaneInfoResult
	r.call("pane.get", map[string]any{"pane_id": id}, &got)
	return got.Pane
}

func (r *rig) agent(target string) protocol.AgentInfo {
	r.t.Helper()
	var got protocol.AgentInfoResult
	r.call("agent.get", map[string]any{"target": target}, &got)
	return got.Agent
}

func (r *rig) waitStatus(pane string, want protocol.AgentStatus) {
	r.t.Helper()
	waitFor(r.t, fmt.Sprintf("%s to be %s", pane, want), func() bool { return r.pane(pane).AgentStatus == want })
}

// startAgent runs a fake agent in a new pane and waits for it to be seen.
func (r *rig) startAgent(name, cue string, want protocol.AgentStatus) string {
	r.t.Helper()
	p := r.newPane()
	r.call("pane.focus", map[string]any{"pane_id": p}, nil)
	r.send(p, name)
	waitFor(r.t, name+" detected", func() bool { a := r.pane(p).Agent; return a != nil && *a == name })
	r.send(p, cue)
	r.waitStatus(p, want)
	return p
}

// async runs a request on its own connection and delivers its outcome.
func (r *rig) async(method string, params any) <-chan asyncResult {
	ch := make(chan asyncResult, 1)
	c, err := protocol.Connect(r.sock)
	if err != nil {
		r.t.Fatal(err)
	}
	go func() {
		defer c.Close()
		c.Conn().SetDeadline(time.Now().Add(30 * time.Second))
		start := time.Now()
		resp, err := c.Do("a", method, params)
		ch <- asyncResult{resp: resp, err: err, took: time.Since(start)}
	}()
	return ch
}

type asyncResult struct {
	resp protocol.Response
	err  error
	took time.Duration
}

func (a asyncResult) code() string {
	if a.resp.Error != nil {
		return a.resp.Error.Code
	}
	return ""
}

func recv(t *testing.T, ch <-chan asyncResult, within time.Duration) asyncResult {
	t.Helper()
	select {
	case res := <-ch:
		if res.err != nil {
			t.Fatalf("async request: %v", res.err)
		}
		return res
	case <-time.After(within):
		t.Fatalf("no answer within %v", within)
	}
	return asyncResult{}
}

func noAnswer(t *testing.T, ch <-chan asyncResult, within time.Duration) {
	t.Helper()
	select {
	case res := <-ch:
		t.Fatalf("answered too early: %s %v", res.resp.Result, res.resp.Error)
	case <-time.After(within):
	}
}

func TestAgentAPI_CodexTransitionsAndWait(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	p := r.newPane()
	if st := r.pane(p).AgentStatus; st != protocol.StatusUnknown {
		t.Fatalf("plain shell: %s, want unknown", st)
	}
	r.wantCode("agent_not_found", "agent.get", map[string]any{"target": p})
	r.send(p, "codex")
	waitFor(t, "codex detected", func() bool { a := r.pane(p).Agent; return a != nil && *a == "codex" })

	// agent.wait answers when the status arrives, not before.
	blocked := r.async("agent.wait", map[string]any{"target": p, "until": []string{"blocked"}})
	r.send(p, "w")
	r.waitStatus(p, protocol.StatusWorking)
	noAnswer(t, blocked, 300*time.Millisecond)
	r.send(p, "b")
	res := recv(t, blocked, 10*time.Second)
	var info protocol.AgentInfoResult
	if err := json.Unmarshal(res.resp.Result, &info); err != nil || info.Agent.AgentStatus != protocol.StatusBlocked {
		t.Fatalf("agent.wait blocked: %s %v", res.resp.Result, res.resp.Error)
	}

	// Already in one of the default statuses: at once.
	res = recv(t, r.async("agent.wait", map[string]any{"target": p}), 2*time.Second)
	if res.code() != "" {
		t.Fatalf("immediate wait: %v", res.resp.Error)
	}
	r.wantCode("timeout", "agent.wait", map[string]any{"target": p, "until": []string{"working"}, "timeout_ms": 200})

	// Finishing while its tab is on screen: idle; off screen: done.
	r.send(p, "i")
	r.waitStatus(p, protocol.StatusIdle)
	if !r.agent(p).InteractiveReady {
		t.Fatal("idle codex is not interactive_ready")
	}
	r.call("workspace.create", map[string]any{"cwd": "/tmp", "focus": true}, nil)
	r.send(p, "w")
	r.waitStatus(p, protocol.StatusWorking)
	done := r.async("agent.wait", map[string]any{"target": p, "until": []string{"done"}})
	r.send(p, "i")
	if res := recv(t, done, 10*time.Second); res.code() != "" {
		t.Fatalf("wait done: %v", res.resp.Error)
	}
	r.call("agent.focus", map[string]any{"target": p}, &info)
	if info.Agent.AgentStatus != protocol.StatusIdle || !info.Agent.Focused {
		t.Fatalf("agent.focus: %+v, want focused idle", info.Agent)
	}

	// The agent exits while waited on: agent_not_running.
	gone := r.async("agent.wait", map[string]any{"target": p, "until": []string{"working"}})
	noAnswer(t, gone, 200*time.Millisecond)
	r.send(p, "q")
	if res := recv(t, gone, 10*time.Second); res.code() != "agent_not_running" {
		t.Fatalf("wait on an exiting agent: %q, want agent_not_running", res.code())
	}
}

func TestAgentAPI_PromptWait(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	p := r.startAgent("claude", "i", protocol.StatusIdle)

	// A short task: the answer comes after working, once idle again.
	res := recv(t, r.async("agent.prompt", map[string]any{"target": p, "text": "t", "wait": map[string]any{}}), 15*time.Second)
	var prompted protocol.AgentPrompted
	if res.code() != "" || json.Unmarshal(res.resp.Result, &prompted) != nil {
		t.Fatalf("prompt t: %s %v", res.resp.Result, res.resp.Error)
	}
	if prompted.Agent.AgentStatus != protocol.StatusIdle || res.took < 900*time.Millisecond {
		t.Fatalf("prompt wait answered %s after %v; want idle after the task's second", prompted.Agent.AgentStatus, res.took)
	}

	// Without wait the answer is immediate.
	r.call("agent.prompt", map[string]any{"target": p, "text": "w"}, &prompted)
	r.waitStatus(p, protocol.StatusWorking)
	r.send(p, "i")
	r.waitStatus(p, protocol.StatusIdle)

	// An agent that asks for permission while waited for idle: agent_blocked.
	res = recv(t, r.async("agent.prompt", map[string]any{"target": p, "text": "b", "wait": map[string]any{"until": []string{"idle"}}}), 15*time.Second)
	if res.code() != "agent_blocked" {
		t.Fatalf("prompt into a blocking turn: %q, want agent_blocked", res.code())
	}
	// Prompting a blocked agent is refused.
	r.wantCode("agent_blocked", "agent.prompt", map[string]any{"target": p, "text": "hello"})
	r.send(p, "i")
	r.waitStatus(p, protocol.StatusIdle)

	// An agent that shows nothing: timeout within the caller's short
	// timeout, agent_prompt_stalled after 5 s otherwise.
	r.wantCode("timeout", "agent.prompt", map[string]any{"target": p, "text": "ignored", "wait": map[string]any{"timeout_ms": 500}})
	res = recv(t, r.async("agent.prompt", map[string]any{"target": p, "text": "ignored", "wait": map[string]any{}}), 15*time.Second)
	if res.code() != "agent_prompt_stalled" || res.took < 4900*time.Millisecond {
		t.Fatalf("stalled prompt: %q after %v, want agent_prompt_stalled after 5s", res.code(), res.took)
	}
	r.wantCode("empty_agent_prompt", "agent.prompt", map[string]any{"target": p, "text": "  "})
}

func TestAgentAPI_ReadExplainKeysNames(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)
	a := r.startAgent("claude", "b", protocol.StatusBlocked)
	b := r.startAgent("codex", "i", protocol.StatusIdle)
	r.call("pane.focus", map[string]any{"pane_id": a}, nil)

	var read protocol.PaneRead
	r.call("agent.read", map[string]any{"target": a, "source": "visible"}, &read)
	if !strings.Contains(read.Read.Text, "Do you want to proceed?") || read.Read.PaneID != a {
		t.Fatalf("agent.read: %+v", read.Read)
	}
	var explained protocol.AgentExplainResult
	r.call("agent.explain", map[string]any{"target": a}, &explained)
	if explained.Explain.Agent != "claude" || explained.Explain.MatchedRule == nil || explained.Explain.MatchedRule.State != "blocked" ||
		len(explained.Explain.EvaluatedRules) < 2 || explained.Explain.PaneID != a || explained.Explain.EvaluatedRules[0].Evidence == nil {
		t.Fatalf("agent.explain: %+v", explained.Explain)
	}

	// Keys reach the agent: answer the prompt by typing the idle cue.
	r.call("agent.send_keys", map[string]any{"target": a, "keys": []string{"i", "Enter"}}, nil)
	r.waitStatus(a, protocol.StatusIdle)
	r.wantCode("invalid_key", "agent.send_keys", map[string]any{"target": a, "keys": []string{"NoSuchKey"}})

	// Names: valid, unique, usable as targets, cleared.
	var info protocol.AgentInfoResult
	r.call("agent.rename", map[string]any{"target": a, "name": "reviewer"}, &info)
	if info.Agent.Name == nil || *info.Agent.Name != "reviewer" {
		t.Fatalf("rename: %+v", info.Agent)
	}
	if got := r.agent("reviewer"); got.PaneID != a {
		t.Fatalf("agent.get by name: %s, want %s", got.PaneID, a)
	}
	r.wantCode("invalid_agent_name", "agent.rename", map[string]any{"target": b, "name": "Bad Name"})
	r.wantCode("agent_name_taken", "agent.rename", map[string]any{"target": b, "name": "reviewer"})
	r.wantCode("agent_not_found", "agent.get", map[string]any{"target": "nobody"})
	var cleared protocol.AgentInfoResult
	r.call("agent.rename", map[string]any{"target": "reviewer"}, &cleared)
	if cleared.Agent.Name != nil || cleared.Agent.PaneID != a {
		t.Fatalf("rename without a name: %+v", cleared.Agent)
	}
	r.call("agent.rename", map[string]any{"target": b, "name": "reviewer"}, nil)

	// Views.
	var view protocol.AgentViewResult
	r.call("agent.view.set", map[string]any{"source": "test", "label": "Blocked first",
		"filter": map[string]any{"op": "in", "field": "status", "values": []string{"blocked", "idle"}},
		"sort":   []any{map[string]any{"field": "attention"}, map[string]any{"field": map[string]string{"token": "prio"}, "order": "desc"}}}, &view)
	if !view.Active || view.Source == nil || *view.Source != "test" {
		t.Fatalf("view.set: %+v", view)
	}
	r.wantCode("invalid_agent_view", "agent.view.set", map[string]any{"source": "test", "filter": map[string]any{"op": "near", "field": "status"}})
	r.wantCode("invalid_agent_view", "agent.view.set", map[string]any{"source": "test", "filter": map[string]any{"op": "eq", "field": "colour", "value": "x"}})
	r.wantCode("invalid_agent_view", "agent.view.set", map[string]any{"source": "test", "sort": []any{map[string]any{"field": "size"}}})
	r.call("agent.view.clear", map[string]any{"source": "other"}, &view)
	if !view.Active {
		t.Fatal("view.clear with another source cleared the view")
	}
	r.call("agent.view.clear", map[string]any{}, &view)
	if view.Active {
		t.Fatal("view.clear left the view active")
	}
}

func TestAgentAPI_Start(t *testing.T) {
	r := newRig(t)
	p := r.newPane()
	shell := r.newPane()
	var started protocol.AgentStarted
	r.call("agent.start", map[string]any{"name": "alpha", "kind": "claude", "pane_id": p, "args": []string{"--model", "it's"}}, &started)
	if strings.Join(started.Argv, " ") != "claude --model it's" || started.Agent.Name == nil || *started.Agent.Name != "alpha" {
		t.Fatalf("agent_started: %+v", started)
	}
	waitFor(t, "alpha ready", func() bool {
		a := r.agent("alpha")
		return a.Agent != nil && *a.Agent == "claude" && a.InteractiveReady && !a.LaunchPending
	})
	r.wantCode("agent_name_taken", "agent.start", map[string]any{"name": "alpha", "kind": "codex", "pane_id": shell})
	r.wantCode("agent_pane_busy", "agent.start", map[string]any{"name": "beta", "kind": "codex", "pane_id": p})
	r.wantCode("unsupported_agent_kind", "agent.start", map[string]any{"name": "beta", "kind": "vim", "pane_id": shell})
	r.wantCode("invalid_agent_name", "agent.start", map[string]any{"name": "9lives", "kind": "codex", "pane_id": shell})
	r.wantCode("invalid_agent_timeout", "agent.start", map[string]any{"name": "beta", "kind": "codex", "pane_id": shell, "timeout_ms": 3000})
	r.wantCode("pane_not_found", "agent.start", map[string]any{"name": "beta", "kind": "codex", "pane_id": "w9:p9"})
	// Arguments are typed into the shell, where control characters edit
	// the line (Ctrl-U erases the quoting): refused, and nothing changes.
	for _, arg := range []string{"x\x15echo pwned", "tab\tcompletes", "c1\u009bcsi", "del\x7f", "bell\x07"} {
		r.wantCode("invalid_agent_argument", "agent.start", map[string]any{"name": "beta", "kind": "codex", "pane_id": shell, "args": []string{"ok", arg}})
	}
	if code := r.code("agent.get", map[string]any{"target": "beta"}); code != "agent_not_found" {
		t.Fatalf("a refused start left an agent named beta: %s", code)
	}

	// The name goes with its agent.
	r.send(p, "q")
	waitFor(t, "alpha gone", func() bool { return r.code("agent.get", map[string]any{"target": "alpha"}) == "agent_not_found" })
}

func TestHooks_AuthorityPrecedence(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	r := newRig(t)

	// A full-lifecycle source overrides the screen while its agent runs.
	pi := r.startAgent("pi", "w", protocol.StatusWorking)
	r.call("pane.report_agent", map[string]any{"pane_id": pi, "source": "herdr:pi", "agent": "pi", "state": "idle"}, nil)
	if st := r.pane(pi).AgentStatus; st != protocol.StatusIdle {
		t.Fatalf("full-lifecycle idle over a working screen: %s", st)
	}
	if !r.agent(pi).ScreenDetectionSkipped {
		t.Fatal("screen_detection_skipped not set under full-lifecycle authority")
	}
	var explained protocol.AgentExplainResult
	r.call("agent.explain", map[string]any{"target": pi}, &explained)
	if e := explained.Explain; !e.ScreenDetectionSkipped || e.ScreenDetectionSkipReason == nil || *e.ScreenDetectionSkipReason != "full_lifecycle_hook_authority" {
		t.Fatalf("explain under full-lifecycle authority: skipped %v, reason %v", e.ScreenDetectionSkipped, e.ScreenDetectionSkipReason)
	}
	r.send(pi, "b")
	time.Sleep(600 * time.Millisecond) // detection runs; the hook keeps the state
	if st := r.pane(pi).AgentStatus; st != protocol.StatusIdle {
		t.Fatalf("screen blocker under full-lifecycle authority: %s, want idle", st)
	}
	r.call("pane.release_agent", map[string]any{"pane_id": pi, "source": "herdr:pi", "agent": "pi"}, nil)
	r.waitStatus(pi, protocol.StatusBlocked)

	// An identity-only source records the session, not the state.
	cl := r.startAgent("claude", "w", protocol.StatusWorking)
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "herdr:claude", "agent": "claude-code", "state": "idle", "agent_session_id": "s-1"}, nil)
	got := r.pane(cl)
	if got.AgentStatus != protocol.StatusWorking {
		t.Fatalf("identity-only report changed the state: %s", got.AgentStatus)
	}
	if got.AgentSession == nil || got.AgentSession.Value != "s-1" || got.AgentSession.Kind != "id" || got.AgentSession.Agent != "claude" {
		t.Fatalf("agent_session: %+v", got.AgentSession)
	}

	// A custom source sets the state, but a blocker on screen wins.
	r.send(cl, "i")
	r.waitStatus(cl, protocol.StatusIdle)
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "claude", "state": "working", "seq": 5}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusWorking {
		t.Fatalf("custom source working: %s", st)
	}
	// seq ordering: older reports are accepted and ignored.
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "claude", "state": "idle", "seq": 3}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusWorking {
		t.Fatalf("stale seq applied: %s", st)
	}
	// A report naming another agent than the one running is ignored.
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "codex", "state": "idle", "seq": 9}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusWorking {
		t.Fatalf("report for another agent applied: %s", st)
	}
	r.send(cl, "b")
	r.waitStatus(cl, protocol.StatusBlocked)
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "claude", "state": "idle", "seq": 10}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusBlocked {
		t.Fatalf("screen blocker lost to a custom hook: %s", st)
	}
	r.send(cl, "w")
	r.waitStatus(cl, protocol.StatusIdle) // the hook's idle, over the working screen
	r.call("pane.clear_agent_authority", map[string]any{"pane_id": cl, "source": "other"}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusIdle {
		t.Fatalf("clearing another source's authority changed the state: %s", st)
	}
	r.call("pane.clear_agent_authority", map[string]any{"pane_id": cl}, nil)
	r.waitStatus(cl, protocol.StatusWorking)

	// A custom agent with no process herdr knows: the hook is all there is.
	sh := r.newPane()
	r.call("pane.report_agent", map[string]any{"pane_id": sh, "source": "my-hook", "agent": "mybot", "state": "working"}, nil)
	if a := r.agent(sh); a.Agent == nil || *a.Agent != "mybot" || a.AgentStatus != protocol.StatusWorking {
		t.Fatalf("custom agent: %+v", a)
	}
	r.call("pane.report_agent", map[string]any{"pane_id": sh, "source": "my-hook", "agent": "mybot", "state": "unknown"}, nil)
	r.wantCode("agent_not_ready", "agent.prompt", map[string]any{"target": sh, "text": "hi"})
	r.wantCode("invalid_agent", "pane.report_agent", map[string]any{"pane_id": sh, "source": "my-hook", "agent": " ", "state": "idle"})
	r.wantCode("invalid_params", "pane.report_agent", map[string]any{"pane_id": sh, "source": "my-hook", "agent": "x", "state": "sleepy"})
	r.wantCode("invalid_metadata_source", "pane.report_agent", map[string]any{"pane_id": sh, "source": "bad source!", "agent": "x", "state": "idle"})
	r.call("pane.release_agent", map[string]any{"pane_id": sh, "source": "my-hook", "agent": "mybot"}, nil)
	if a := r.pane(sh); a.Agent != nil || a.AgentStatus != protocol.StatusUnknown {
		t.Fatalf("after release: agent %v status %s", a.Agent, a.AgentStatus)
	}

	// The agent's exit ends its authority.
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "claude", "state": "blocked", "seq": 11}, nil)
	r.waitStatus(cl, protocol.StatusBlocked)
	r.send(cl, "q")
	r.waitStatus(cl, protocol.StatusUnknown)
	r.call("pane.report_agent", map[string]any{"pane_id": cl, "source": "my-hook", "agent": "claude", "state": "working", "seq": 12}, nil)
	if st := r.pane(cl).AgentStatus; st != protocol.StatusUnknown {
		t.Fatalf("report after the agent exited applied: %s", st)
	}
}

func TestHooks_Metadata(t *testing.T) {
	r := newRig(t)
	p := r.newPane()
	updates := subscribe(t, r.sock, `{"subscriptions":[{"type":"pane.updated"},{"type":"workspace.metadata_updated"}]}`)
	r.call("pane.report_agent", map[string]any{"pane_id": p, "source": "my-hook", "agent": "mybot", "state": "working"}, nil)
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "meta", "title": "Fixing\tthe\nbuild",
		"display_agent": "Bot", "state_labels": map[string]string{"working": "crunching"}, "tokens": map[string]any{"branch": "main", "pr": "12"}}, nil)
	got := r.pane(p)
	if got.Title == nil || *got.Title != "Fixing the build" || got.DisplayAgent == nil || *got.DisplayAgent != "Bot" ||
		got.StateLabels["working"] != "crunching" || got.Tokens["branch"] != "main" || got.AgentStatus != protocol.StatusWorking {
		t.Fatalf("metadata: %+v", got)
	}
	if e := nextEvent(t, updates); e.Event != "pane_updated" || !strings.Contains(string(e.Data), `"display_agent":"Bot"`) {
		t.Fatalf("event: %s %s", e.Event, e.Data)
	}
	a := r.agent(p)
	if a.Title == nil || *a.Title != "Fixing the build" || a.Tokens["pr"] != "12" {
		t.Fatalf("agent record lacks metadata: %+v", a)
	}

	// null clears a token; presentation never changes the status.
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "meta", "tokens": map[string]any{"pr": nil}, "state_labels": map[string]string{"idle": "resting"}}, nil)
	if got := r.pane(p); got.Tokens["pr"] != "" || got.Tokens["branch"] != "main" || got.AgentStatus != protocol.StatusWorking {
		t.Fatalf("after clearing pr: %+v", got)
	}

	// Guards: for another agent, or for a source without authority, nothing shows.
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "g1", "agent": "claude", "title": "not mine"}, nil)
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "g2", "applies_to_source": "herdr:pi", "display_agent": "Pi"}, nil)
	if got := r.pane(p); *got.Title != "Fixing the build" || *got.DisplayAgent != "Bot" {
		t.Fatalf("guarded metadata shown: title %q display %q", *got.Title, *got.DisplayAgent)
	}
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "g3", "applies_to_source": "my-hook", "agent": "mybot", "display_agent": "Mine"}, nil)
	if got := r.pane(p); *got.DisplayAgent != "Mine" {
		t.Fatalf("metadata whose guards hold not shown: %q", *got.DisplayAgent)
	}

	// seq: older reports are ignored.
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "seq", "title": "v2", "seq": 2}, nil)
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "seq", "title": "v1", "seq": 1}, nil)
	if got := r.pane(p); *got.Title != "v2" {
		t.Fatalf("stale metadata applied: %q", *got.Title)
	}

	// TTL: the report expires by itself, announced by pane_updated.
	for drained := false; !drained; {
		updates.Conn().SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		_, err := updates.ReadLine()
		drained = err != nil
	}
	r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "ttl", "title": "brief", "tokens": map[string]any{"eta": "1m"}, "ttl_ms": 300}, nil)
	if got := r.pane(p); *got.Title != "brief" || got.Tokens["eta"] != "1m" {
		t.Fatalf("ttl metadata: %+v", got)
	}
	nextEvent(t, updates) // the report
	if e := nextEvent(t, updates); e.Event != "pane_updated" || strings.Contains(string(e.Data), "brief") {
		t.Fatalf("expiry event: %s %s", e.Event, e.Data)
	}
	if got := r.pane(p); *got.Title != "v2" || got.Tokens["eta"] != "" {
		t.Fatalf("after expiry: title %q tokens %v", *got.Title, got.Tokens)
	}

	// Workspaces carry tokens too.
	r.call("workspace.report_metadata", map[string]any{"workspace_id": "w1", "source": "ci", "tokens": map[string]any{"ci": "green"}}, nil)
	var ws protocol.WorkspaceInfoResult
	r.call("workspace.get", map[string]any{"workspace_id": "w1"}, &ws)
	if ws.Workspace.Tokens["ci"] != "green" {
		t.Fatalf("workspace tokens: %+v", ws.Workspace.Tokens)
	}
	if e := nextEvent(t, updates); e.Event != "workspace_metadata_updated" {
		t.Fatalf("event %s, want workspace_metadata_updated", e.Event)
	}

	// Limits and validation.
	many := map[string]any{}
	for i := 0; i < 17; i++ {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	r.wantCode("invalid_metadata_token", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "tokens": many})
	r.wantCode("invalid_metadata_token", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "tokens": map[string]any{"bad key": "v"}})
	for i := 0; i < 2; i++ {
		batch := map[string]any{}
		for j := 0; j < 15; j++ {
			batch[fmt.Sprintf("t%d_%d", i, j)] = "v"
		}
		r.call("pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "tokens": batch}, nil)
	}
	r.wantCode("metadata_token_limit", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "tokens": map[string]any{"one": "1", "two": "2"}})
	r.wantCode("invalid_metadata_ttl", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "title": "t", "ttl_ms": 0})
	r.wantCode("invalid_metadata_ttl", "workspace.report_metadata", map[string]any{"workspace_id": "w1", "source": "x", "tokens": map[string]any{}, "ttl_ms": 86400001})
	r.wantCode("invalid_state_label", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "state_labels": map[string]string{"sleepy": "z"}})
	r.wantCode("invalid_metadata_request", "pane.report_metadata", map[string]any{"pane_id": p, "source": "x", "title": "t", "clear_title": true})
	r.wantCode("invalid_metadata_source", "pane.report_metadata", map[string]any{"pane_id": p, "source": strings.Repeat("s", 81)})
	r.wantCode("pane_not_found", "pane.report_metadata", map[string]any{"pane_id": "w9:p9", "source": "x"})
	r.wantCode("workspace_not_found", "workspace.report_metadata", map[string]any{"workspace_id": "w9", "source": "x", "tokens": map[string]any{}})
	for i := 0; i < 32; i++ { // "seq" above was the first sequenced source
		src := fmt.Sprintf("s%d", i)
		code := r.code("pane.report_metadata", map[string]any{"pane_id": p, "source": src, "seq": 1})
		if want := map[bool]string{true: "", false: "metadata_sequence_source_limit"}[i < 31]; code != want {
			t.Fatalf("sequenced source %d: %q, want %q", i+2, code, want)
		}
	}
}

func TestNotifications_Reasons(t *testing.T) {
	r := newRig(t)
	var shown protocol.NotificationShown
	r.call("notification.show", map[string]any{"title": "Build done", "body": "all green"}, &shown)
	if shown.Shown || shown.Reason != "disabled" {
		t.Fatalf("default delivery: %+v, want disabled", shown)
	}
	r.wantCode("invalid_params", "notification.show", map[string]any{"title": " \n\t "})
	r.wantCode("invalid_params", "notification.show", map[string]any{"title": "x", "sound": "loud"})
	var title protocol.ClientWindowTitle
	r.call("client.window_title.set", map[string]any{"title": "herdr"}, &title)
	if title.Changed || title.Reason != "no_foreground_client" {
		t.Fatalf("window title without a client: %+v", title)
	}
	r.call("client.window_title.clear", nil, &title)
	if title.Reason != "no_foreground_client" {
		t.Fatalf("window title clear without a client: %+v", title)
	}
}
