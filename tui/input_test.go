package tui

import (
	"bufio"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// fakeServer answers every request on the other end of a pipe with ok (or
// with fail(method, params) when it returns an error code) and records
// the requests.
type fakeServer struct {
	mu   sync.Mutex
	reqs []protocol.Request
	fail func(method string, params json.RawMessage) string
}

func (f *fakeServer) serve(c net.Conn) {
	// Answers are written by their own goroutine: a pipe has no buffer, and
	// the client writes its next request while its reader is busy.
	out := make(chan string, 4096)
	defer close(out)
	go func() {
		for s := range out {
			if _, err := c.Write([]byte(s)); err != nil {
				return
			}
		}
	}()
	br := bufio.NewReader(c)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		var req protocol.Request
		if json.Unmarshal(line, &req) != nil {
			continue
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, req)
		fail := f.fail
		f.mu.Unlock()
		resp := `{"id":"` + req.ID + `","result":{"type":"ok"}}` + "\n"
		if fail != nil {
			if code := fail(req.Method, req.Params); code != "" {
				resp = `{"id":"` + req.ID + `","error":{"code":"` + code + `","message":"the program in the pane is not reading its input"}}` + "\n"
			}
		}
		out <- resp
	}
}

func (f *fakeServer) requests(method string) []protocol.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []protocol.Request
	for _, r := range f.reqs {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// testModel is the two-pane view model wired to a fake server; messages
// the model sends itself (answers) arrive on msgs.
func testModel(t *testing.T, f *fakeServer) (*model, chan tea.Msg) {
	t.Helper()
	m, _ := viewModel(t)
	conn := func() *rpcConn {
		a, b := net.Pipe()
		go f.serve(b)
		t.Cleanup(func() { a.Close(); b.Close() })
		return newRPCConn(a, nil)
	}
	msgs := make(chan tea.Msg, 1024)
	m.link = &link{req: conn(), scr: conn(), send: func(msg tea.Msg) { msgs <- msg }}
	return m, msgs
}

func keyRunes(s string) tea.KeyPressMsg { return textKey(s) }

// waitFor waits for a condition the fake server's goroutine makes true.
func waitFor(t *testing.T, why string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", why)
		}
		time.Sleep(time.Millisecond) // polling another goroutine's progress
	}
}

func sentText(t *testing.T, r protocol.Request) string {
	t.Helper()
	var p protocol.PaneSendTextParams
	if err := json.Unmarshal(r.Params, &p); err != nil {
		t.Fatal(err)
	}
	return p.PaneID + "=" + p.Text
}

// Keys that arrive together (a typed burst, an unbracketed paste) leave
// as two pane.send_text at most: the first key at once (someone waits for
// its echo), the rest as one write once the first is answered.
func TestInput_BurstIsOneWriteAfterTheFirstKey(t *testing.T) {
	f := &fakeServer{}
	m, msgs := testModel(t, f)
	keys := []tea.KeyPressMsg{keyRunes("echo"), {Code: tea.KeySpace, Text: " "}, keyRunes("hello"), {Code: tea.KeyEnter}, keyRunes("ls"), {Code: tea.KeyEnter}}
	for _, k := range keys {
		m.Update(k)
	}
	waitFor(t, "the first write", func() bool { return len(f.requests("pane.send_text")) > 0 })
	if got := f.requests("pane.send_text"); len(got) != 1 || sentText(t, got[0]) != "w1:p2=echo" {
		t.Fatalf("the first key did not leave alone at once: %v", got)
	}
	m.Update(<-msgs) // the answer (sentMsg): the rest may go
	m.Update(drainMsg{})
	waitFor(t, "the second write", func() bool { return len(f.requests("pane.send_text")) > 1 })
	got := f.requests("pane.send_text")
	if len(got) != 2 || sentText(t, got[1]) != "w1:p2= hello\rls\r" {
		t.Fatalf("want the rest of the burst as one write, got %d: %v", len(got), got)
	}
}

// While a write is unanswered, what is typed waits and leaves as one write
// once the answer came; input a busy pane refused is offered again, in
// front, so nothing is lost or reordered.
func TestInput_OneWriteInFlightAndRetry(t *testing.T) {
	f := &fakeServer{}
	refuse := 1
	f.fail = func(method string, _ json.RawMessage) string {
		if method == "pane.send_text" && refuse > 0 {
			refuse--
			return protocol.CodePaneSendFailed
		}
		return ""
	}
	m, msgs := testModel(t, f)
	m.Update(keyRunes("abc"))
	m.Update(drainMsg{})
	m.Update(keyRunes("def"))
	m.Update(drainMsg{})
	if n := len(f.requests("pane.send_text")); n > 1 {
		t.Fatalf("%d writes in flight to one pane", n)
	}
	// Run the model's own messages (the refusal, the retry) until the
	// pane has everything.
	deadline := time.After(5 * time.Second)
	for {
		var text strings.Builder
		reqs := f.requests("pane.send_text")
		for i, r := range reqs {
			if i > 0 { // the first was refused
				text.WriteString(sentText(t, r))
			}
		}
		if strings.Contains(text.String(), "def") {
			if got := text.String(); got != "w1:p2=abcdef" {
				t.Fatalf("after a refusal the pane got %q, want %q", got, "w1:p2=abcdef")
			}
			return
		}
		select {
		case msg := <-msgs:
			_, cmd := m.Update(msg)
			runCmd(cmd, msgs)
			m.Update(drainMsg{})
		case <-deadline:
			t.Fatalf("input never arrived; requests %v", reqs)
		}
	}
}

// runCmd runs a command (and batches) as Bubble Tea would, delivering
// the messages to msgs.
func runCmd(cmd tea.Cmd, msgs chan tea.Msg) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				runCmd(c, msgs)
			}
			return
		}
		if msg != nil {
			msgs <- msg
		}
	}()
}

// Resize mode applies every key of a burst: "hhh" is three steps.
func TestInput_ResizeModeAppliesEveryKey(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("r"))
	if m.mode != modeResize {
		t.Fatalf("prefix r: mode %v", m.mode)
	}
	m.Update(keyRunes("hhh"))
	waitFor(t, "three resizes", func() bool { return len(f.requests("pane.resize")) >= 3 })
	time.Sleep(20 * time.Millisecond) // a fourth would come at once if any
	if n := len(f.requests("pane.resize")); n != 3 {
		t.Fatalf("hhh in resize mode sent %d pane.resize, want 3", n)
	}
	// Keys after the prefix that arrive with it: the binding, then text
	// for the pane.
	m.Update(keyRunes("q")) // leaves resize mode
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("zls"))
	m.Update(drainMsg{})
	waitFor(t, "zoom and text", func() bool {
		return len(f.requests("pane.zoom")) == 1 && len(f.requests("pane.send_text")) == 1
	})
	if got := sentText(t, f.requests("pane.send_text")[0]); got != "w1:p2=ls" {
		t.Fatalf("text after the binding = %q", got)
	}
}
