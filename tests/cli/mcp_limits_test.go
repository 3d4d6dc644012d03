//go:build unix

package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

const (
	mcpInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	mcpInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func mcpToolCall(id int, name string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	return string(b)
}

// rawMCP is `herdr mcp` on pipes: lines in, decoded messages out.
type rawMCP struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out chan map[string]any
}

func startRawMCP(t *testing.T, s *Server) *rawMCP {
	t.Helper()
	r := &rawMCP{cmd: exec.Command(HerdrBin, "--session", s.Name, "mcp"), out: make(chan map[string]any, 4096)}
	r.cmd.Env = slices.Clone(s.Env)
	r.cmd.Stderr = os.Stderr
	var err error
	if r.in, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.in.Close(); r.cmd.Process.Kill(); r.cmd.Wait() })
	go func() {
		defer close(r.out)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]any{"undecodable": sc.Text()}
			}
			r.out <- m
		}
	}()
	return r
}

func (r *rawMCP) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(r.in, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (r *rawMCP) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m, ok := <-r.out:
		if !ok {
			t.Fatal("herdr mcp's output ended")
		}
		return m
	case <-time.After(CallTimeout):
		t.Fatal("no answer from herdr mcp")
	}
	return nil
}

func rpcErr(m map[string]any) (float64, string) {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	s, _ := e["message"].(string)
	return c, s
}

// Requests piped in before stdin ends are all answered, then herdr mcp
// exits 0.
func TestMCP_PipedRequestsAreAllAnswered(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	cmd := exec.Command(HerdrBin, "--session", s.Name, "mcp")
	cmd.Env = slices.Clone(s.Env)
	cmd.Stdin = strings.NewReader(strings.Join([]string{mcpInit, mcpInitialized,
		mcpToolCall(2, "list_workspaces", map[string]any{}),
		mcpToolCall(3, "read_pane", map[string]any{"pane_id": "w1:p1"}),
		mcpToolCall(4, "wait_output", map[string]any{"pane_id": "w1:p1", "pattern": "never shown", "timeout_ms": 300}),
	}, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("herdr mcp: %v\n%s", err, out)
	}
	answered := map[float64]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			if id, ok := m["id"].(float64); ok {
				answered[id] = m
			}
		}
	}
	for id := 1.0; id <= 3; id++ {
		if answered[id]["result"] == nil || strings.Contains(fmt.Sprint(answered[id]), "isError:true") {
			t.Errorf("request %v: %v", id, answered[id])
		}
	}
	if !strings.Contains(fmt.Sprint(answered[4]), "timeout") {
		t.Errorf("the wait: %v", answered[4])
	}
}

// A line longer than the server's request line is answered with the
// limit; herdr mcp keeps its server and serves the next request.
func TestMCP_LongLineAnsweredWithLimit(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	r := startRawMCP(t, s)
	r.send(t, mcpInit, mcpInitialized)
	r.next(t)
	r.send(t, mcpToolCall(2, "send_text", map[string]any{"pane_id": "w1:p1", "text": strings.Repeat("y", 2*protocol.MaxLineBytes)}),
		mcpToolCall(3, "list_workspaces", map[string]any{}))
	if code, msg := rpcErr(r.next(t)); code != -32600 || !strings.Contains(msg, fmt.Sprint(protocol.MaxLineBytes)) {
		t.Fatalf("a 2 MB line: %v %q", code, msg)
	}
	m := r.next(t)
	if res, _ := m["result"].(map[string]any); res == nil || res["isError"] == true {
		t.Fatalf("the request after: %v", m)
	}
}

// One herdr mcp fed 3,000 wait_output calls holds a few connections: the
// rest are refused busy at once, and the person's CLI is still served.
func TestMCP_ThousandsOfWaitsKeepTheServerOpen(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	r := startRawMCP(t, s)
	r.send(t, mcpInit, mcpInitialized)
	r.next(t)
	const n = 3000
	var lines []string
	for i := range n {
		lines = append(lines, mcpToolCall(100+i, "wait_output", map[string]any{"pane_id": "w1:p1", "pattern": "never shown", "timeout_ms": 120000}))
	}
	go io.WriteString(r.in, strings.Join(lines, "\n")+"\n")
	busy := 0
	for busy < n-16 {
		m := r.next(t)
		code, msg := rpcErr(m)
		if code != -32000 || !strings.Contains(msg, "busy") {
			t.Fatalf("answer %d: %v", busy, m)
		}
		busy++
	}
	if out, errOut, code := s.CLI("workspace", "list"); code != 0 {
		t.Fatalf("the CLI beside 3,000 waits: %d %s %s", code, out, errOut)
	}
	OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info")
}
