//go:build unix

package harness

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const sshdPath = "/usr/sbin/sshd"

type sshRemote struct {
	Home   *Home
	Client string // the generated ssh client config
	URL    string // ssh://user@127.0.0.1:port
	Dir    string
	port   int
	sshd   *exec.Cmd
	exited chan struct{}
	out    *SyncBuffer
}

// StartSSHRemote starts sshd whose logins run commands in remote's env.
func StartSSHRemote(t testing.TB, remote *Home) *sshRemote {
	t.Helper()
	if _, err := os.Stat(sshdPath); err != nil {
		t.Skipf("%s is absent (Debian's openssh-server provides it): %v", sshdPath, err)
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skipf("no ssh client: %v", err)
	}
	dir, err := os.MkdirTemp("", "hsd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, key := range []string{"host_key", "user_key"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, key)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	// The login's environment is the remote home's, with herdr on PATH.
	env := []string{"PATH=" + filepath.Dir(HerdrBin) + ":/usr/local/bin:/usr/bin:/bin"}
	for _, kv := range remote.Env {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	var wrap strings.Builder
	wrap.WriteString("#!/bin/sh\nexec env -i")
	for _, kv := range env {
		wrap.WriteString(" " + ShellQuoted(kv))
	}
	wrap.WriteString(" /bin/sh -c \"$SSH_ORIGINAL_COMMAND\"\n")
	wrapper := filepath.Join(dir, "login.sh")
	SshTestFile(t, wrapper, wrap.String(), 0o755)
	pub, err := os.ReadFile(filepath.Join(dir, "user_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	SshTestFile(t, filepath.Join(dir, "authorized_keys"), fmt.Sprintf("command=%q,no-pty,no-port-forwarding %s", wrapper, pub), 0o600)

	port := FreePort(t)
	SshTestFile(t, filepath.Join(dir, "sshd_config"), fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PidFile none
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
LogLevel ERROR
`, port, filepath.Join(dir, "host_key"), filepath.Join(dir, "authorized_keys")), 0o600)
	if os.Geteuid() == 0 {
		// Debian's sshd refuses to start without its privilege separation
		// directory, which its package (not this test) normally makes.
		_ = os.MkdirAll("/run/sshd", 0o755)
	}
	r := &sshRemote{Home: remote, Dir: dir, port: port}
	r.startSSHD(t)
	t.Cleanup(func() { r.Kill(t) })
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, "ssh_config")
	// "build" is an alias with the port; a URL target names 127.0.0.1
	// and its port itself (ssh://user@127.0.0.1:PORT).
	SshTestFile(t, client, fmt.Sprintf(`Host build
  HostName 127.0.0.1
  Port %d
Host *
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  StrictHostKeyChecking no
  BatchMode yes
  LogLevel ERROR
`, port, u.Username, filepath.Join(dir, "user_key"), filepath.Join(dir, "known_hosts")), 0o600)
	r.Client, r.URL = client, fmt.Sprintf("ssh://%s@127.0.0.1:%d", u.Username, port)
	return r
}

// startSSHD runs sshd on r's port and waits until it listens.
func (r *sshRemote) startSSHD(t testing.TB) {
	t.Helper()
	r.out = &SyncBuffer{}
	cmd := exec.Command(sshdPath, "-D", "-e", "-f", filepath.Join(r.Dir, "sshd_config"))
	cmd.Stdout, cmd.Stderr = r.out, r.out
	cmd.WaitDelay = 2 * time.Second // a session's process may hold the output pipe
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	r.sshd, r.exited = cmd, exited
	WaitFor(t, "sshd to listen", func() bool {
		select {
		case <-exited:
			t.Fatalf("sshd exited:\n%s", r.out.String())
		default:
		}
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", r.port), time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

// Kill ends sshd and every connection it serves (each runs in a child
// of its own session, which killing the listener would leave up), as a
// machine whose network went away.
func (r *sshRemote) Kill(t testing.TB) {
	t.Helper()
	if r.sshd == nil {
		return
	}
	children := childrenOf(r.sshd.Process.Pid)
	r.sshd.Process.Kill()
	for _, pid := range children {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	<-r.exited
	r.sshd = nil
}

// Restart starts sshd again on the same port, keys and configuration.
func (r *sshRemote) Restart(t testing.TB) {
	t.Helper()
	r.startSSHD(t)
}

// LocalEnv is a local home's environment reaching r through its ssh config.
func (r *sshRemote) LocalEnv(local *Home) []string {
	return append(append([]string{}, local.Env...), "HERDR_SSH_COMMAND=ssh -F "+r.Client)
}

func SshTestFile(t testing.TB, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

type savedMachine struct {
	ID            string `json:"id"`
	Label         string `json:"label"`
	Target        string `json:"target"`
	RemoteSession string `json:"remote_session"`
	Enabled       bool   `json:"enabled"`
}

func ListMachines(t *testing.T, env []string) []savedMachine {
	t.Helper()
	out, errOut, code := RunCLI(t, env, "machine", "list", "--json")
	if code != 0 {
		t.Fatalf("machine list --json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Result struct {
			Type     string         `json:"type"`
			Machines []savedMachine `json:"machines"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Result.Type != "machine_list" {
		t.Fatalf("machine list --json: want a machine_list response line: %v: %q", err, out)
	}
	return doc.Result.Machines
}

func MachinesFile(h *Home) string { return filepath.Join(h.ConfigHome, "herdr", "machines.json") }

// SingleLine reports whether s is exactly one newline-ended line.
func SingleLine(s string) bool { return strings.Count(s, "\n") == 1 && strings.HasSuffix(s, "\n") }
