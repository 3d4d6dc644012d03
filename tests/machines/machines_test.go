//go:build unix

package machines

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// A real OpenSSH server on 127.0.0.1 whose logins run a "remote" herdr:
// a second home's environment, the test binary on PATH. The local side
// reaches it through HERDR_SSH_COMMAND="ssh -F <generated config>", the
// host alias "build".

func TestMachines_AddListRenameDisableEnableRemove(t *testing.T) {
	remote := NewHome(t)
	remote.Start(t, "e2e")
	r := StartSSHRemote(t, remote)
	local := NewHome(t)
	env := r.LocalEnv(local)

	out, errOut, code := RunCLI(t, env, "machine", "add", "build", "--label", "Build", "--remote-session", "e2e")
	if code != 0 || !strings.HasPrefix(out, "added machine m-") {
		t.Fatalf("machine add: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	fi, err := os.Stat(MachinesFile(local))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("machines.json: %v, %v; want mode 0600", fi, err)
	}
	ms := ListMachines(t, env)
	if len(ms) != 1 || ms[0].Label != "Build" || ms[0].Target != "build" || ms[0].RemoteSession != "e2e" || !ms[0].Enabled || len(ms[0].ID) != 10 {
		t.Fatalf("machines = %+v", ms)
	}
	id := ms[0].ID
	if _, errOut, code := RunCLI(t, env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Fatalf("a second machine labelled build: exit %d, %q", code, errOut)
	}

	if _, errOut, code := RunCLI(t, env, "machine", "rename", "build", "--label", "gpu"); code != 0 {
		t.Fatalf("rename: exit %d: %s", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "machine", "rename", id, "--label", "local"); code != 2 || !strings.Contains(errOut, "reserved") {
		t.Fatalf("rename to local: exit %d, %q", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "machine", "disable", "gpu"); code != 0 {
		t.Fatalf("disable: exit %d: %s", code, errOut)
	}
	if ms := ListMachines(t, env); len(ms) != 1 || ms[0].ID != id || ms[0].Label != "gpu" || ms[0].Enabled {
		t.Fatalf("after rename and disable: %+v", ms)
	}
	_, errOut, code = RunCLI(t, env, "--machine", "gpu", "workspace", "list")
	if code != 1 || !strings.Contains(errOut, "disabled") || !SingleLine(errOut) {
		t.Fatalf("--machine of a disabled machine: exit %d, %q", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "machine", "enable", id); code != 0 {
		t.Fatalf("enable: exit %d: %s", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "--machine", id, "workspace", "list"); code != 0 {
		t.Fatalf("--machine by id after enable: exit %d: %s", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "machine", "remove", "GPU"); code != 0 {
		t.Fatalf("remove: exit %d: %s", code, errOut)
	}
	if ms := ListMachines(t, env); len(ms) != 0 {
		t.Fatalf("after remove: %+v", ms)
	}
	_, errOut, code = RunCLI(t, env, "--machine", "gpu", "workspace", "list")
	if code != 1 || !strings.Contains(errOut, `no machine "gpu"`) || !SingleLine(errOut) {
		t.Fatalf("--machine of a removed machine: exit %d, %q", code, errOut)
	}
}

func TestMachines_MachineFlagReachesTheRemotePanes(t *testing.T) {
	remote := NewHome(t)
	srv := remote.Start(t, "e2e")
	r := StartSSHRemote(t, remote)
	local := NewHome(t) // no local server runs: every answer is the remote's
	env := r.LocalEnv(local)
	if _, errOut, code := RunCLI(t, env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}

	ws := srv.CreateWorkspace(t, map[string]any{"label": "far-away"})
	pane := ws.RootPane.PaneID
	out, errOut, code := RunCLI(t, env, "--machine", "build", "workspace", "list")
	if code != 0 || !strings.Contains(out, "far-away") || !strings.Contains(out, ws.Workspace.WorkspaceID) {
		t.Fatalf("--machine build workspace list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, _, code := RunCLI(t, local.Env, "workspace", "list"); code == 0 {
		t.Fatal("a local server answered: the test would not tell local from remote")
	}
	srv.WaitPrompt(t, pane)
	if _, errOut, code := RunCLI(t, env, "--machine", "build", "pane", "send-text", pane, "echo from-$((6*7))-local"); code != 0 {
		t.Fatalf("pane send-text: exit %d: %s", code, errOut)
	}
	if _, errOut, code := RunCLI(t, env, "--machine", "build", "pane", "send-keys", pane, "Enter"); code != 0 {
		t.Fatalf("pane send-keys: exit %d: %s", code, errOut)
	}
	srv.WaitLine(t, pane, "from-42-local")
	var text string
	if !Eventually(func() bool {
		text, _, _ = RunCLI(t, env, "--machine", "build", "pane", "read", pane, "--lines", "50")
		return HasLine(text, "from-42-local")
	}) {
		t.Fatalf("--machine build pane read does not show the remote pane's line:\n%s", text)
	}

	// agent start polls agent.get until the agent is ready: over the machine too.
	other := AgentWorkspace(t, srv)
	srv.WaitPrompt(t, other)
	out, errOut, code = RunCLI(t, env, "--machine", "build", "agent", "start", "alpha", "--kind", "claude", "--pane", other, "--timeout", "10000")
	if code != 0 {
		t.Fatalf("--machine build agent start: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	OK[protocol.AgentStarted](t, CLIResponse(t, out), "agent_started")
	if a := OK[protocol.AgentInfoResult](t, srv.CallT(t, "agent.get", map[string]any{"target": "alpha"}), "agent_info").Agent; a.PaneID != other || !a.InteractiveReady {
		t.Fatalf("the remote server's agent alpha: %+v", a)
	}
}

func TestMachines_SSHCommandFromConfigAndARemoteOfAnotherProtocol(t *testing.T) {
	remote := NewHome(t)
	remote.Start(t, "e2e")
	r := StartSSHRemote(t, remote)
	local := NewHome(t)
	// [remote] ssh_command is used when HERDR_SSH_COMMAND is unset.
	local.WriteConfig(t, fmt.Sprintf("[remote]\nssh_command = %q\n", "ssh -F "+r.Client))
	if _, errOut, code := RunCLI(t, local.Env, "machine", "add", "build", "--label", "viaconfig", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add with [remote] ssh_command: exit %d: %s", code, errOut)
	}
	// HERDR_SSH_COMMAND wins over it; ssh's own failure is named in one line.
	env := append(append([]string{}, local.Env...), "HERDR_SSH_COMMAND=ssh -F "+r.Client+" -o Port=1")
	if _, errOut, code := RunCLI(t, env, "--machine", "viaconfig", "workspace", "list"); code != 1 || !strings.Contains(errOut, "ssh failed") || !strings.Contains(errOut, "port 1") || !SingleLine(errOut) {
		t.Fatalf("--machine through an ssh that cannot connect: exit %d, %q", code, errOut)
	}
	// A remote answering ping in protocol 20 (an older herdr) is refused.
	old := filepath.Join(r.Dir, "old-herdr")
	SshTestFile(t, old, "#!/bin/sh\nread line\nprintf '%s\\n' '{\"id\":\"machine-check\",\"result\":{\"type\":\"pong\",\"version\":\"0.4.0\",\"protocol\":20}}'\n", 0o755)
	_, errOut, code := RunCLI(t, r.LocalEnv(local), "machine", "add", "build", "--label", "old", "--remote-bin", old)
	if code != 1 || !strings.Contains(errOut, "protocol 20") || !SingleLine(errOut) {
		t.Fatalf("a remote of protocol 20: exit %d, %q", code, errOut)
	}
	if ms := ListMachines(t, local.Env); len(ms) != 1 || ms[0].Label != "viaconfig" {
		t.Fatalf("machines after the refused add: %+v", ms)
	}
}

func TestMachines_AddStartsTheRemoteServer(t *testing.T) {
	remote := NewHome(t) // no server runs there yet
	r := StartSSHRemote(t, remote)
	t.Cleanup(func() { RunCLI(t, remote.Env, "--session", "auto", "server", "stop") })
	local := NewHome(t)
	env := r.LocalEnv(local)
	if _, errOut, code := RunCLI(t, env, "machine", "add", r.URL, "--label", "build", "--remote-session", "auto"); code != 0 {
		t.Fatalf("machine add %s: exit %d: %s", r.URL, code, errOut)
	}
	if Refused(remote.Socket("auto")) {
		t.Fatal("the remote server of session auto does not answer after add")
	}
}

func TestMachines_BadInputSavesNothing(t *testing.T) {
	remote := NewHome(t)
	remote.Start(t, "e2e")
	r := StartSSHRemote(t, remote)
	local := NewHome(t)
	env := r.LocalEnv(local)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"machine", "add", "--label", "x", "--", "-oProxyCommand=touch /tmp/pwned"}, 2, "cannot start with '-'"},
		{[]string{"machine", "add", "a b", "--label", "x"}, 2, "spaces"},
		{[]string{"machine", "add", "a;b", "--label", "x"}, 2, "shell characters"},
		{[]string{"machine", "add", "ssh://h:99999", "--label", "x"}, 2, "port"},
		{[]string{"machine", "add", "build", "--label", "local"}, 2, "reserved"},
		{[]string{"machine", "add", "build", "--label", ""}, 2, "empty"},
		{[]string{"machine", "add", "build", "--label", "a\x1b[31m"}, 2, "printable"},
		{[]string{"machine", "add", "build", "--label", "x", "--remote-bin", "herdr;id"}, 2, "plain path"},
		{[]string{"machine", "add", "build", "--label", "x", "--remote-bin", "/bin/true"}, 1, "did not answer as herdr"},
		{[]string{"machine", "add", "build", "--label", "x", "--remote-session", "nope/x"}, 2, "session"},
		{[]string{"machine", "add", "nohost.invalid", "--label", "x"}, 1, "nothing saved"},
		{[]string{"machine", "rename", "ghost", "--label", "y"}, 1, `no machine "ghost"`},
		{[]string{"machine", "remove", "ghost"}, 1, `no machine "ghost"`},
		{[]string{"--machine", "ghost", "workspace", "list"}, 1, `no machine "ghost"`},
		{[]string{"--machine", "ghost", "status"}, 1, "--machine"},
	} {
		_, errOut, code := RunCLI(t, env, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || !SingleLine(errOut) {
			t.Errorf("herdr %q: exit %d, stderr %q; want exit %d and one line holding %q", tc.args, code, errOut, tc.code, tc.want)
		}
		if _, err := os.Stat(MachinesFile(local)); !os.IsNotExist(err) {
			t.Fatalf("herdr %q saved a machines file: %v", tc.args, err)
		}
	}
	if _, err := os.Stat("/tmp/pwned"); err == nil {
		t.Fatal("a target ran a local command")
	}
}

// The interactive client reaches a machine the same way: `herdr --machine
// build` attaches to its server, and `herdr --remote build` goes through
// HERDR_SSH_COMMAND too.
func TestMachines_AttachAndRemoteUseTheSSHCommand(t *testing.T) {
	remote := NewHome(t)
	srv := remote.Start(t, "e2e")
	ws := srv.CreateWorkspace(t, map[string]any{"focus": true})
	pane := ws.RootPane.PaneID
	srv.WaitPrompt(t, pane)
	r := StartSSHRemote(t, remote)
	local := NewHome(t)
	env := append(r.LocalEnv(local), "TERM=xterm-256color")
	if _, errOut, code := RunCLI(t, env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	for i, args := range [][]string{{"--machine", "build"}, {"--remote", "build", "--session", "e2e"}} {
		cmd := exec.Command(HerdrBin, args...)
		cmd.Env = env
		cmd.Dir = local.Dir
		c := StartTUI(t, cmd)
		c.WaitScreen(t, "the remote session drawn", func(sc string) bool { return strings.Contains(sc, "╭") })
		line := fmt.Sprintf("via-%d-$((6*7))", i)
		c.Type("echo " + line + "\r")
		want := fmt.Sprintf("via-%d-42", i)
		srv.WaitLine(t, pane, want)
		c.WaitText(t, want)
		c.Type("\x02q") // the default prefix, then detach
		if code := c.WaitExit(t); code != 0 {
			t.Fatalf("herdr %q: detach exit %d", args, code)
		}
	}
}

// sshDirs lists the ssh socket folders in tmp.
func sshDirs(t *testing.T, tmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(tmp, "herdr-ssh-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// The folders of the shared ssh connections' sockets do not outlive
// their server: one a killed server left is removed by the next start,
// and a server stopped removes its own. Both servers (the local one and
// the machine's) use a private TMPDIR, so the count is theirs.
func TestMachines_SSHSocketFoldersAreRemoved(t *testing.T) {
	tmp, err := os.MkdirTemp("", "ht") // short: a socket's path must be
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	remoteHome := NewHome(t)
	remoteHome.Env = append(remoteHome.Env, "TMPDIR="+tmp)
	remote := remoteHome.Start(t, "e2e")
	r := StartSSHRemote(t, remoteHome)
	localHome := NewHome(t)
	localHome.Env = append(r.LocalEnv(localHome), "TMPDIR="+tmp)
	if _, errOut, code := RunCLI(t, localHome.Env, "machine", "add", "build", "--label", "build", "--remote-session", "e2e"); code != 0 {
		t.Fatalf("machine add: exit %d: %s", code, errOut)
	}
	f := &FleetPair{Local: localHome.Start(t, "e2e"), Remote: remote, Ssh: r, Env: localHome.Env}
	f.WaitState(t, protocol.MachineOnline)
	before := sshDirs(t, tmp)
	if len(before) != 2 {
		t.Fatalf("ssh socket folders with both servers running: %q, want one each", before)
	}

	// kill -9: nothing of the local server runs to remove its folder; the
	// next start does.
	f.Local.Kill(t)
	again := localHome.Start(t, "e2e")
	f.Local = again
	f.WaitState(t, protocol.MachineOnline)
	after := sshDirs(t, tmp)
	if len(after) != 2 {
		t.Fatalf("after kill -9 and a restart: %q, want one per running server (before: %q)", after, before)
	}

	// Stopped, each server removes its own.
	for _, s := range []*Server{again, remote} {
		if _, errOut, code := s.CLI("server", "stop"); code != 0 {
			t.Fatalf("server stop: exit %d: %s", code, errOut)
		}
		s.WaitExit(t)
	}
	if left := sshDirs(t, tmp); len(left) != 0 {
		t.Fatalf("ssh socket folders left once every server stopped: %q", left)
	}
}

// A server that hands off removes its ssh socket folder as it exits (it
// ends with os.Exit, which runs no deferred call): the heir's is the one
// left.
func TestMachines_SSHSocketFolderGoesWithAHandoff(t *testing.T) {
	tmp, err := os.MkdirTemp("", "ht")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	h := NewHome(t)
	h.Env = append(h.Env, "TMPDIR="+tmp)
	s := h.Start(t, "e2e")
	StopHeir(t, s)
	before := sshDirs(t, tmp)
	if len(before) != 1 {
		t.Fatalf("ssh socket folders of one server: %q", before)
	}
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	after := sshDirs(t, tmp)
	if len(after) != 1 || after[0] == before[0] {
		t.Fatalf("ssh socket folders after a handoff: %q (the old server's: %q), want the heir's alone", after, before)
	}
}
