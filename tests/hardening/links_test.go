//go:build unix

package hardening

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The links to saved machines under hostile and broken peers: the "ssh"
// of each test is a script (HERDR_SSH_COMMAND) standing for a remote
// herdr's bridge, so nothing here needs sshd.

// fakeBridge answers the link's calls as a remote herdr's bridge would
// (ping, events.subscribe, session.snapshot, agent.list); afterSubscribe
// is what it runs once the event stream is subscribed.
func fakeBridge(afterSubscribe string) string {
	return fmt.Sprintf(`#!/bin/sh
while IFS= read -r line; do
  id=$(printf '%%s' "$line" | sed 's/^{"id":"\([^"]*\)".*/\1/')
  case $line in
  *'"method":"ping"'*) printf '{"id":"%%s","result":{"type":"pong","version":"9.9.9","protocol":%d}}\n' "$id" ;;
  *'"method":"events.subscribe"'*) printf '{"id":"%%s","result":{"type":"subscription_started"}}\n' "$id"; %s ;;
  *'"method":"session.snapshot"'*) printf '{"id":"%%s","result":{"type":"session_snapshot","snapshot":{"workspaces":[]}}}\n' "$id" ;;
  *'"method":"agent.list"'*) printf '{"id":"%%s","result":{"type":"agent_list","agents":[]}}\n' "$id" ;;
  esac
done
`, protocol.ProtocolVersion, afterSubscribe)
}

// linkHome is a home whose one saved machine "build" is reached through
// the script ssh (its ssh command).
func linkHome(t *testing.T, ssh string) *Home {
	t.Helper()
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "fake-ssh")
	if err := os.WriteFile(bin, []byte(ssh), 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(h.ConfigHome, "herdr", "machines.json")
	if err := os.WriteFile(file, []byte(`{"machines":[{"id":"m-0000b01d","label":"build","target":"build","enabled":true}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Env = append(h.Env, "HERDR_SSH_COMMAND="+bin)
	return h
}

// waitMachine polls machine.list until the machine is in state, for up to
// a minute (a bound on a broken build, not the measure of a pass).
func waitMachine(t *testing.T, s *Server, state string) protocol.MachineInfo {
	t.Helper()
	var m protocol.MachineInfo
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		list := OK[protocol.MachineList](t, s.CallT(t, "machine.list", map[string]any{}), "machine_list")
		if len(list.Machines) == 1 {
			if m = list.Machines[0]; m.State == state {
				return m
			}
		}
		time.Sleep(50 * time.Millisecond) // poll interval
	}
	t.Fatalf("machine build never became %s: %+v\nserver log:\n%s", state, m, s.Home.ServerLog(s.Name))
	return m
}

// peakRSS is the server process's peak resident set in bytes (Linux).
func peakRSS(t *testing.T, pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// A remote that floods its event stream is cut off and marked (attention,
// the reason in machine.list, a warn in the log); the local server's
// memory stays bounded (the reader waits for the link, the flood budget
// cuts the wire) and its local panes answer.
func TestLinks_AFloodingRemoteIsCutOffAndMarked(t *testing.T) {
	t.Parallel()
	line := `{"event":"workspace_created","seq":1,"data":{"workspace_id":"w1","pad":"` + strings.Repeat("x", 400) + `"}}`
	h := linkHome(t, fakeBridge("exec yes '"+line+"'"))
	s := h.Start(t, "e2e")
	m := waitMachine(t, s, protocol.MachineAttention)
	if !strings.Contains(m.Error, "cut off") || !strings.Contains(m.Error, "flooding") {
		t.Fatalf("the flooding machine's error = %q, want it cut off for flooding", m.Error)
	}
	if log := h.ServerLog("e2e"); !strings.Contains(log, "machine cut off") || !strings.Contains(log, "WARN") {
		t.Fatalf("no warn line names the cut in the server log:\n%s", log)
	}
	ws := s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": ws.RootPane.PaneID}), "pane_info")
	if peak, ok := peakRSS(t, s.Cmd.Process.Pid); ok && peak > 400<<20 {
		t.Fatalf("the server's peak RSS reached %d MiB under the flood", peak>>20)
	}
}

// grandchildScript is an ssh command that ends at once, leaving a child
// that holds its stdout and stderr (the pid written to pidFile).
func grandchildScript(pidFile string) string {
	return fmt.Sprintf("#!/bin/sh\nsleep 600 &\necho $! > %s\nexit 0\n", ShellQuoted(pidFile))
}

// killPidFile ends the grandchild a script left.
func killPidFile(pidFile string) {
	if b, err := os.ReadFile(pidFile); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// An ssh that exits leaving a grandchild holding its pipes fails the
// link with a reason (it is retried), instead of leaving it connecting
// for good; `herdr --machine` fails in one line instead of hanging.
func TestLinks_AGrandchildHoldingThePipesCannotHangALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild.pid")
	t.Cleanup(func() { killPidFile(pidFile) })
	h := linkHome(t, grandchildScript(pidFile))
	s := h.Start(t, "e2e")
	m := waitMachine(t, s, protocol.MachineAttention)
	if !strings.Contains(m.Error, "exit 0") {
		t.Fatalf("the link's error = %q, want the remote command's end named", m.Error)
	}
	_, errOut, code := RunCLI(t, h.Env, "--machine", "build", "pane", "list")
	if code != 1 || !SingleLine(errOut) || !strings.Contains(errOut, "did not answer as herdr") {
		t.Fatalf("herdr --machine build pane list: exit %d, stderr %q; want exit 1 and one line", code, errOut)
	}

	// A background writer on stderr: the same.
	yes := linkHome(t, "#!/bin/sh\nyes >&2 &\necho $! > "+ShellQuoted(filepath.Join(dir, "yes.pid"))+"\nexit 0\n")
	t.Cleanup(func() { killPidFile(filepath.Join(dir, "yes.pid")) })
	_, errOut, code = RunCLI(t, yes.Env, "--machine", "build", "pane", "list")
	if code != 1 || !SingleLine(errOut) || !strings.Contains(errOut, "did not answer as herdr") {
		t.Fatalf("herdr --machine with a writer left on stderr: exit %d, stderr %q; want exit 1 and one line", code, errOut)
	}
}

// One bad entry of machines.json (an id that would steer the ssh socket
// out of its folder, a label shaped like an id) makes only that machine
// unusable, named with its reason in machine.list and the log at warn;
// the good one links, and a CLI call naming the bad one says why.
func TestLinks_OneBadMachineEntryLeavesTheOthersWorking(t *testing.T) {
	t.Parallel()
	h := linkHome(t, fakeBridge(":"))
	file := filepath.Join(h.ConfigHome, "herdr", "machines.json")
	if err := os.WriteFile(file, []byte(`{"machines":[
		{"id":"../../../tmp/x","label":"evil","target":"build","enabled":true},
		{"id":"m-0000b01d","label":"build","target":"build","enabled":true},
		{"id":"m-0000b01e","label":"m-0000b01f","target":"build","enabled":true}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "e2e")
	var list protocol.MachineList
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		list = OK[protocol.MachineList](t, s.CallT(t, "machine.list", map[string]any{}), "machine_list")
		if len(list.Machines) == 3 && list.Machines[0].State == protocol.MachineOnline {
			break
		}
		time.Sleep(50 * time.Millisecond) // poll interval
	}
	if len(list.Machines) != 3 || list.Machines[0].Label != "build" || list.Machines[0].State != protocol.MachineOnline {
		t.Fatalf("machine.list = %+v; want build online beside the two bad entries", list.Machines)
	}
	for i, want := range map[int]string{1: "invalid machine id", 2: "shape of a machine id"} {
		if m := list.Machines[i]; m.State != protocol.MachineAttention || !strings.Contains(m.Error, want) {
			t.Errorf("bad entry %d = %+v; want attention naming %q", i, m, want)
		}
	}
	if log := h.ServerLog("e2e"); !strings.Contains(log, "cannot be used") || !strings.Contains(log, "WARN") {
		t.Errorf("the log does not name the bad entries at warn:\n%s", log)
	}
	_, errOut, code := RunCLI(t, h.Env, "--machine", "evil", "pane", "list")
	if code != 1 || !SingleLine(errOut) || !strings.Contains(errOut, "cannot be used") {
		t.Fatalf("herdr --machine evil: exit %d, stderr %q; want one line saying why", code, errOut)
	}
}
