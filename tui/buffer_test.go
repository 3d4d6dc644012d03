package tui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// keeping wraps copy mode's fake with buffer.set: it keeps what it is
// sent and answers like the server, or fails with err.
func keeping(f *fakeText, kept *[]string, err error) rpcFunc {
	return func(method string, params, out any) error {
		if method != "buffer.set" {
			return f.call(method, params, out)
		}
		if err != nil {
			return err
		}
		p := params.(protocol.BufferSetParams)
		*kept = append(*kept, p.Text)
		b, _ := json.Marshal(protocol.BufferInfoResult{Buffer: protocol.BufferInfo{Name: "buffer7", Bytes: len(p.Text)}})
		return json.Unmarshal(b, out)
	}
}

// A yank keeps its text as a server buffer, still goes to the clipboard
// through OSC 52, and a toast names the buffer and the bytes.
func TestBuffer_YankKeepsABufferAndSaysSo(t *testing.T) {
	m, f := copyModel(t, 50)
	m.ui.Toast.ClipboardEnabled = true
	var kept []string
	m.link.req = fakeReq(keeping(f, &kept, nil))
	typeKeys(m, "0", "v", "$", "y")
	if len(kept) != 1 || kept[0] == "" {
		t.Fatalf("buffer.set got %q", kept)
	}
	if !strings.Contains(string(m.toHost), osc52(kept[0])) {
		t.Fatalf("the yank did not reach the clipboard: %q", m.toHost)
	}
	want := "copied " + strconv.Itoa(len(kept[0])) + " bytes to buffer7"
	if m.notes.corner == nil || m.notes.corner.text != want {
		t.Fatalf("toast %+v, want %q", m.notes.corner, want)
	}
}

// A buffer the server refuses leaves the clipboard copy, and the toast
// says the text is on the clipboard only, and why, even with the
// clipboard notice turned off.
func TestBuffer_YankSaysWhenNotKept(t *testing.T) {
	m, f := copyModel(t, 50)
	m.ui.Toast.ClipboardEnabled = false
	var kept []string
	m.link.req = fakeReq(keeping(f, &kept, protocol.Errorf(protocol.CodeInternal, "the server broke")))
	typeKeys(m, "0", "v", "$", "y")
	if m.mode != modeTerminal || !strings.Contains(string(m.toHost), "\x1b]52;c;") {
		t.Fatalf("mode %v, toHost %q: the clipboard copy is lost", m.mode, m.toHost)
	}
	if !strings.Contains(m.toast.text, "clipboard (OSC 52) only") || !strings.Contains(m.toast.text, "the server broke") {
		t.Fatalf("toast %q", m.toast.text)
	}
}

// The paste key (prefix ], or pasteBufferMsg from a preset) asks the
// server to paste the newest buffer into the focused pane; the server's
// refusal comes back as a toast.
func TestBuffer_PasteKey(t *testing.T) {
	f := &fakeServer{fail: func(method string, _ json.RawMessage) string {
		if method == "buffer.paste" {
			return protocol.CodeBufferNotFound
		}
		return ""
	}}
	m, msgs := testModel(t, f)
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("]"))
	waitFor(t, "buffer.paste", func() bool { return len(f.requests("buffer.paste")) == 1 })
	var p protocol.BufferPasteParams
	if err := json.Unmarshal(f.requests("buffer.paste")[0].Params, &p); err != nil || p.PaneID != "w1:p2" || p.Buffer != "" {
		t.Fatalf("buffer.paste params %+v, %v; want the focused pane w1:p2, the newest buffer", p, err)
	}
	var toast toastMsg
	for toast.text == "" {
		select {
		case msg := <-msgs:
			toast, _ = msg.(toastMsg)
		case <-time.After(5 * time.Second):
			t.Fatal("the refusal did not come back as a toast")
		}
	}
	if !strings.HasPrefix(toast.text, "buffer.paste: ") {
		t.Fatalf("the refusal came back as %q", toast.text)
	}
	m.Update(pasteBufferMsg{})
	waitFor(t, "a second buffer.paste", func() bool { return len(f.requests("buffer.paste")) == 2 })
	if len(f.requests("pane.send_text")) != 0 {
		t.Fatal("the paste key reached the pane as text")
	}
}
