//go:build unix

package handoff

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The edges of a live handoff: what it does to requests in flight, the
// CLI's spellings, and a new binary that cannot read the old one's state.

// Waits in flight when the old server goes are answered, each with its
// own id and server_unavailable, instead of a connection that just drops.
func TestHandoff_WaitsInFlightGetServerUnavailable(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	waits := map[string]string{
		"out": `{"id":"out","method":"pane.wait_for_output","params":{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"never-printed-7f3a"},"timeout_ms":60000}}`,
		"ev":  `{"id":"ev","method":"events.wait","params":{"match_event":{"event":"workspace_closed","workspace_id":"w1"},"timeout_ms":60000}}`,
	}
	conns := map[string]*protocol.Client{}
	for id, line := range waits {
		c := s.Dial(t)
		if err := c.WriteLine([]byte(line)); err != nil {
			t.Fatal(err)
		}
		conns[id] = c
	}
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	for id, c := range conns {
		resp := ReadResponse(t, c)
		if resp.ID != id || resp.Error == nil || resp.Error.Code != protocol.CodeServerUnavailable {
			raw, _ := json.Marshal(resp)
			t.Fatalf("wait %s in flight at the handoff answered %s, want a server_unavailable error with its id", id, raw)
		}
	}
	s.WaitExit(t)
	// The new server waits afresh on the same pane.
	s.Run(t, "w1:p1", "echo fresh-$((6*7))")
	OK[protocol.OutputMatched](t, s.CallT(t, "pane.wait_for_output", map[string]any{
		"pane_id": "w1:p1", "source": "recent", "match": map[string]any{"type": "substring", "value": "fresh-42"}, "timeout_ms": 10000,
	}), "output_matched")
}

// `herdr server handoff --binary PATH` (the spelling) starts PATH
// as the new server, like `server live-handoff --import-exe PATH`.
func TestHandoff_BinaryFlagIsImportExe(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	s.CreateWorkspace(t, nil)
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	wrapper := filepath.Join(dir, "herdr-wrapper")
	script := fmt.Sprintf("#!/bin/sh\necho \"$@\" > %q\nexec %q \"$@\"\n", started, HerdrBin)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := s.CLI("server", "handoff", "--binary", wrapper, "--import-exe", wrapper); code == 0 || !strings.Contains(stderr, "import-exe") {
		t.Fatalf("--binary with --import-exe: exit %d, stderr %s; want them refused together", code, stderr)
	}
	if _, err := os.Stat(started); err == nil {
		t.Fatal("a refused command line started the wrapper")
	}
	_, stderr, code := s.CLI("server", "handoff", "--binary", wrapper)
	if code != 0 || !strings.Contains(stderr, "live handoff complete") {
		t.Fatalf("server handoff --binary: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	args, err := os.ReadFile(started)
	if err != nil || !strings.Contains(string(args), "server") {
		t.Fatalf("the new server was not started from --binary: %q, %v", args, err)
	}
	OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list")
}

// A new binary whose handoff state version is one past this one's refuses
// the state, says which versions, and the old server goes on serving.
func TestHandoff_NewerStateVersionIsRefused(t *testing.T) {
	src := filepath.Join(ModuleRoot, "actors", "server", "handoff.go")
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const handoffVersion = (\d+)`).FindSubmatch(text)
	if m == nil {
		t.Fatalf("no handoffVersion constant in %s", src)
	}
	ours, _ := strconv.Atoi(string(m[1]))
	theirs := ours + 1
	// The same binary but for that constant, built with an overlay.
	dir := t.TempDir()
	patched := filepath.Join(dir, "handoff.go")
	if err := os.WriteFile(patched, []byte(strings.Replace(string(text), string(m[0]), fmt.Sprintf("const handoffVersion = %d", theirs), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{src: patched}})
	overlayPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayPath, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "herdr-newer")
	build := exec.Command("go", "build", "-overlay", overlayPath, "-o", newer, "./cmd/herdr-full")
	build.Dir = ModuleRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the newer binary: %v\n%s", err, out)
	}

	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	s.Run(t, "w1:p1", "echo before-$((6*7))")
	s.WaitLine(t, "w1:p1", "before-42")
	before := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": "w1:p1"}), "pane_process_info").ProcessInfo
	_, stderr, code := s.CLI("server", "handoff", "--binary", newer)
	want := fmt.Sprintf("handoff state version %d, this binary reads version %d", ours, theirs)
	if code != 1 || !strings.Contains(stderr, "handoff_failed") || !strings.Contains(stderr, want) {
		t.Fatalf("handoff to a binary of state version %d: exit %d, stderr %s; want handoff_failed saying %q", theirs, code, stderr, want)
	}
	if s.Exited() {
		t.Fatal("the old server exited")
	}
	after := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": "w1:p1"}), "pane_process_info").ProcessInfo
	if before.ShellPID == nil || after.ShellPID == nil || *after.ShellPID != *before.ShellPID {
		t.Fatalf("shell pid %v after, %v before", after.ShellPID, before.ShellPID)
	}
	s.Run(t, "w1:p1", "echo still-$((6*7))")
	s.WaitLine(t, "w1:p1", "still-42")
}

// herdr update --handoff hands the session to the herdr-full beside the
// herdr it is run from (the ones a user has just installed), not the
// server's own; without
// --handoff it downloads nothing and says what to do instead.
func TestHandoff_UpdateHandsOffToTheInstalledBinary(t *testing.T) {
	s := StartServer(t)
	StopHeir(t, s)
	ws := s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, ws.RootPane.PaneID)
	shellPID := func() uint32 {
		info := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": ws.RootPane.PaneID}), "pane_process_info").ProcessInfo
		if info.ShellPID == nil {
			t.Fatal("no shell pid")
		}
		return *info.ShellPID
	}
	shell := shellPID()
	// Both programs newly installed side by side: the new server is the
	// herdr-full beside the herdr that is run.
	dir := t.TempDir()
	for _, name := range []string{"herdr", "herdr-full"} {
		bin, err := os.ReadFile(filepath.Join(filepath.Dir(HerdrBin), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	installed := filepath.Join(dir, "herdr-full")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(dir, "herdr"), append([]string{"--session", s.Name}, args...)...)
		cmd.Env = s.Env
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return errb.String(), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return errb.String(), 0
	}
	if stderr, code := run("update"); code != 1 || !strings.Contains(stderr, "update --handoff") {
		t.Fatalf("update without --handoff: exit %d, %q", code, stderr)
	}
	if stderr, code := run("update", "--handoff"); code != 0 || !strings.Contains(stderr, "live handoff complete") {
		t.Fatalf("update --handoff: exit %d, %q", code, stderr)
	}
	s.WaitExit(t)
	if got := shellPID(); got != shell {
		t.Fatalf("the pane's shell is %d after the update, was %d", got, shell)
	}
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		return // no /proc to tell which binary the new server runs
	}
	exes, _ := filepath.Glob("/proc/[0-9]*/exe")
	for _, e := range exes {
		if target, err := os.Readlink(e); err == nil && target == installed {
			return
		}
	}
	t.Fatalf("no process runs the installed %s: the new server was not started from it", installed)
}
