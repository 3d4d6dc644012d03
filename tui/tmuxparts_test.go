package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeTmuxHost is the client as the tmux parts see it: a session, a
// server that answers layout.select, and the toasts and status said.
type fakeTmuxHost struct {
	session
	toasts  []string
	status  string
	calls   []string
	flushed int
}

func (h *fakeTmuxHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}
func (h *fakeTmuxHost) setToastText(text string) { h.status = text }
func (h *fakeTmuxHost) rpc() rpcFunc {
	return func(method string, params, _ any) error {
		h.calls = append(h.calls, method+" "+params.(protocol.LayoutSelectParams).Layout)
		return nil
	}
}
func (h *fakeTmuxHost) flushInput()        { h.flushed++ }
func (h *fakeTmuxHost) socketPath() string { return "/cfg/herdr.sock" }
func (h *fakeTmuxHost) th() *theme         { return newTheme(config.Default(), true) }
func (h *fakeTmuxHost) width() int         { return 80 }
func (h *fakeTmuxHost) height() int        { return 24 }

// The tmux parts on their own (no model, no server, no terminal): the
// chooser lists through its runner and switches on enter, the layout
// cycle walks the presets, the prompt runs a verb and says it runs.
func TestTmuxParts_OnItsOwn(t *testing.T) {
	h := &fakeTmuxHost{session: session{snap: twoPanes()}}
	md := modeTerminal
	tp := &tmuxParts{h: h, mode: &md}
	if tp.openChooser(); len(h.toasts) != 1 || !strings.Contains(h.toasts[0], "no session chooser") || md != modeTerminal {
		t.Fatalf("no runner: toasts %q mode %v", h.toasts, md)
	}
	f := &fakeHerdr{answer: func([]string) (string, string, error) { return sessionsJSON, "", nil }}
	tp.herdr, tp.canSwitch = f, true
	msg := tp.openChooser()()
	if md != modeChooser {
		t.Fatalf("open: mode %v", md)
	}
	msg.(partMsg).apply(tp)
	if tp.chooser.sel != 0 || len(tp.chooser.sessions) != 3 {
		t.Fatalf("listed: sel %d sessions %d (this client's is first)", tp.chooser.sel, len(tp.chooser.sessions))
	}
	c := newCanvas(80, 24)
	tp.drawChooser(c)
	if !strings.Contains(c.String(), "sessions") {
		t.Errorf("the chooser drawn:\n%s", c.String())
	}
	tp.chooserKey(tea.KeyPressMsg{Code: tea.KeyDown})
	tp.chooserKey(tea.KeyPressMsg{Code: tea.KeyDown}) // the last: work
	if cmd := tp.chooserKey(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd == nil || tp.switchTo != "work" || md != modeTerminal {
		t.Fatalf("enter: switchTo %q mode %v", tp.switchTo, md)
	}

	// The layout cycle: the first press even-horizontal, then the next.
	for i, want := range protocol.LayoutPresets[:2] {
		done := tp.nextLayout()()
		if h.calls[i] != "layout.select "+want || !tp.arranging {
			t.Fatalf("press %d: calls %q arranging %v", i, h.calls, tp.arranging)
		}
		done.(partMsg).apply(tp)
		if tp.arranging || h.toasts[len(h.toasts)-1] != "layout "+want {
			t.Fatalf("press %d done: toasts %q", i, h.toasts)
		}
	}
	if h.flushed != 2 {
		t.Errorf("keys typed before a layout go first: flushed %d, want 2", h.flushed)
	}

	// The prompt: a verb typed and entered runs, said in the tab bar.
	tp.openPrompt()
	if md != modePrompt {
		t.Fatalf("prompt: mode %v", md)
	}
	for _, r := range "pane list" {
		tp.promptKey(keyRunes(string(r)))
	}
	cmd := tp.promptKey(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil || h.status != "herdr pane list …" {
		t.Fatalf("enter: cmd %v status %q", cmd, h.status)
	}
	cmd().(partMsg).apply(tp)
	if got := f.last(); strings.Join(got, " ") != "pane list" {
		t.Errorf("ran %q", got)
	}
}
