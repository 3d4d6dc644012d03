package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeClipHost is the client as the clipboard sees it: what went to the
// outer terminal, the toasts, the requests.
type fakeClipHost struct {
	out  string
	tc   config.Toast
	pane string
	said []string
	sent []string
}

func (h *fakeClipHost) toOuter(b []byte)          { h.out += string(b) }
func (h *fakeClipHost) toastConfig() config.Toast { return h.tc }
func (h *fakeClipHost) corner(n notice) tea.Cmd {
	h.said = append(h.said, "corner "+n.title)
	return nil
}
func (h *fakeClipHost) toast(text string) tea.Cmd {
	h.said = append(h.said, text)
	return nil
}
func (h *fakeClipHost) focusedPaneID() string { return h.pane }
func (h *fakeClipHost) send(method string, params any) {
	h.sent = append(h.sent, method+" "+params.(protocol.BufferPasteParams).PaneID)
}

// The clipboard on its own (no model, no terminal): a copy and a yank go
// out as OSC 52 and are confirmed (in the corner when [ui.toast.clipboard]
// is on; a buffer that could not be kept is said either way); a paste is
// one buffer.paste into the focused pane, or a toast when there is none.
func TestClipboard_OnItsOwn(t *testing.T) {
	h := &fakeClipHost{tc: config.Toast{ClipboardEnabled: true}}
	cb := clipboard{h: h}
	cb.copy("héllo")
	if h.out != osc52("héllo") || len(h.said) != 1 || h.said[0] != "corner copied 5 characters" {
		t.Fatalf("copy: out %q said %q", h.out, h.said)
	}
	h.out, h.said = "", nil
	cb.yanked("abc", protocol.BufferInfo{Name: "buffer3"}, nil)
	cb.yanked("", protocol.BufferInfo{}, nil)
	h.tc.ClipboardEnabled = false
	cb.yanked("abcd", protocol.BufferInfo{}, errors.New("too big"))
	cb.copy("x")
	if want := "corner copied 3 bytes to buffer3|copy mode: nothing selected, nothing copied|copied 4 bytes to the clipboard (OSC 52) only, not kept as a buffer: too big"; strings.Join(h.said, "|") != want {
		t.Fatalf("said %q, want %q", h.said, want)
	}
	if h.out != osc52("abc")+osc52("abcd")+osc52("x") {
		t.Errorf("out %q: every copy goes out, an empty yank does not", h.out)
	}
	cb.paste()
	h.pane = "w1:p2"
	cb.paste()
	if len(h.sent) != 1 || h.sent[0] != "buffer.paste w1:p2" || h.said[len(h.said)-1] != "paste: no pane to paste into" {
		t.Fatalf("paste: sent %q said %q", h.sent, h.said)
	}
}
