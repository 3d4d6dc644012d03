//go:build !windows

package herdr095

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_SSHAgentRegister: server.ssh_agent.register takes a unix
// socket of this user and answers ok; the connection is then held (it
// answers nothing more; a further line closes it). A path that is no
// agent socket is invalid_ssh_agent, one naming nothing
// ssh_agent_unavailable, a missing socket_path invalid_params — each
// with the request's id.
func TestHerdr095_SSHAgentRegister(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "e2e")
	sock := filepath.Join(h.Dir, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	file := filepath.Join(h.Dir, "plain")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(h.Dir, "agent.link")
	if err := os.Symlink(sock, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{`{"id":"a1","method":"server.ssh_agent.register","params":{"socket_path":"agent.sock"}}`,
			`{"id":"a1","error":{"code":"invalid_ssh_agent","message":"ssh agent socket \"agent.sock\" is not an absolute path"}}`},
		{`{"id":"a2","method":"server.ssh_agent.register","params":{"socket_path":"` + file + `"}}`,
			`{"id":"a2","error":{"code":"invalid_ssh_agent","message":"` + file + ` is not a socket"}}`},
		{`{"id":"a3","method":"server.ssh_agent.register","params":{"socket_path":"` + link + `"}}`,
			`{"id":"a3","error":{"code":"invalid_ssh_agent","message":"` + link + ` is not a socket"}}`},
		{`{"id":"a4","method":"server.ssh_agent.register","params":{"socket_path":"` + sock + `.gone"}}`,
			`{"id":"a4","error":{"code":"ssh_agent_unavailable","message":"no ssh agent socket at ` + sock + `.gone"}}`},
		{`{"id":"a5","method":"server.ssh_agent.register","params":{"socket_path":"/` + strings.Repeat("x", 200) + `"}}`,
			`{"id":"a5","error":{"code":"invalid_ssh_agent","message":"ssh agent socket path is 201 bytes, more than a socket address holds (`},
		{`{"id":"a6","method":"server.ssh_agent.register","params":{}}`,
			`{"id":"a6","error":{"code":"invalid_params","message":"`},
	} {
		got := wire(t, s, c.line)
		whole := strings.HasSuffix(c.want, "}}") // else the answer begins with want
		if (whole && got != c.want) || !strings.HasPrefix(got, c.want) {
			t.Errorf("%s\n got %s\nwant %s", c.line, got, c.want)
		}
	}

	// A good one: ok, then the connection is held.
	c := s.Dial(t)
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	got, err := c.RoundTrip([]byte(`{"id":"ok1","method":"server.ssh_agent.register","params":{"socket_path":"` + sock + `"}}`))
	if err != nil || string(got) != `{"id":"ok1","result":{"type":"ok"}}` {
		t.Fatalf("register: %s, %v", got, err)
	}
	if err := c.WriteLine([]byte(`{"id":"p1","method":"ping","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if line, err := c.ReadLine(); err == nil {
		t.Fatalf("a held connection answered %s, want it closed", line)
	}
}

// TestHerdr095_SSHAgentReachesMachineHops: while a client's agent is
// registered, the ssh of a saved machine's link runs with it as
// SSH_AUTH_SOCK.
func TestHerdr095_SSHAgentReachesMachineHops(t *testing.T) {
	t.Parallel()
	h, seen := agentHome(t)
	s := h.Start(t, "e2e")
	sock := agentSocket(t, h)
	c := s.Dial(t)
	got, err := c.RoundTrip([]byte(`{"id":"r","method":"server.ssh_agent.register","params":{"socket_path":"` + sock + `"}}`))
	if err != nil || string(got) != `{"id":"r","result":{"type":"ok"}}` {
		t.Fatalf("register: %s, %v", got, err)
	}
	waitSeen(t, seen, sock)
}

// TestHerdr095_ClientLendsItsAgent: the interactive client registers its
// SSH_AUTH_SOCK at attach, so the machine hops use it.
func TestHerdr095_ClientLendsItsAgent(t *testing.T) {
	t.Parallel()
	h, seen := agentHome(t)
	h.Start(t, "e2e")
	sock := agentSocket(t, h)
	AttachWith(t, h, "e2e", "SSH_AUTH_SOCK="+sock)
	waitSeen(t, seen, sock)
}

// agentHome is a home with one saved machine whose "ssh" is a script that
// records its SSH_AUTH_SOCK in seen and fails as an unreachable host
// would, so the link keeps retrying.
func agentHome(t *testing.T) (h *Home, seen string) {
	t.Helper()
	h = NewHome(t)
	seen = filepath.Join(h.Dir, "seen")
	bin := filepath.Join(h.Dir, "fake-ssh")
	script := "#!/bin/sh\nprintf '%s\\n' \"${SSH_AUTH_SOCK:-none}\" >> " + ShellQuoted(seen) + "\necho 'ssh: connect to host build: Connection refused' >&2\nexit 255\n"
	if err := os.WriteFile(bin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(MachinesFile(h), []byte(`{"machines":[{"id":"m-0000b01d","label":"build","target":"build","enabled":true}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Env = append(h.Env, "HERDR_SSH_COMMAND="+bin)
	return h, seen
}

// agentSocket listens on a unix socket standing for an ssh agent.
func agentSocket(t *testing.T, h *Home) string {
	t.Helper()
	sock := filepath.Join(h.Dir, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return sock
}

// waitSeen waits until an ssh of the link ran with SSH_AUTH_SOCK=sock.
func waitSeen(t *testing.T, seen, sock string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a bound on a broken build, not the measure of a pass
	for {
		b, _ := os.ReadFile(seen)
		if strings.Contains(string(b), sock+"\n") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ssh of the link ran with SSH_AUTH_SOCK=%s; it saw:\n%s", sock, b)
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
}
