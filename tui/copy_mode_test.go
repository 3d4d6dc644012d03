package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeCopyHost is the client as copy mode sees it: one pane's screen,
// the server's text from a fakeText, and the toasts and yanks it got.
type fakeCopyHost struct {
	text    *fakeText
	screens map[string]*paneScreen
	toasts  []string
	yanks   []string
}

func (h *fakeCopyHost) copyCall() rpcFunc                { return h.text.call }
func (h *fakeCopyHost) screen(paneID string) *paneScreen { return h.screens[paneID] }
func (h *fakeCopyHost) toast(text string) tea.Cmd        { h.toasts = append(h.toasts, text); return nil }
func (h *fakeCopyHost) yanked(text string, _ protocol.BufferInfo, _ error) tea.Cmd {
	h.yanks = append(h.yanks, text)
	return nil
}

// runCopy runs a command and feeds the copy answers it produced back.
func runCopy(c *copyMode, cmd tea.Cmd) {
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch msg := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case copyAnswerMsg:
			queue = append(queue, c.copyAnswered(msg))
		}
	}
}

// Copy mode on its own, without a model or a server: it starts at the
// pane's cursor, a motion asks the server, a selection is drawn over the
// pane's view, a yank hands pane.selection.read's text to the host and
// leaves with the view back at the bottom, and a search for nothing says
// so through the host's toast.
func TestCopyMode_OnItsOwn(t *testing.T) {
	f := newFakeText(40, 10)
	s := &paneScreen{}
	s.apply(&protocol.ScreenFrame{Cols: 30, Rows: 10, Full: true, Cursor: protocol.ScreenCursor{X: 0, Y: 2, Visible: true}})
	h := &fakeCopyHost{text: f, screens: map[string]*paneScreen{"p": s}}
	md := modeTerminal
	c := &copyMode{host: h, mode: &md}

	if c.enterCopy("gone") != nil {
		t.Fatal("copy mode started on a pane that is not shown")
	}
	runCopy(c, c.enterCopy("p"))
	if md != modeCopy || c.hist != 30 || c.cur != (protocol.PaneTextPoint{Row: 32}) {
		t.Fatalf("started: mode %v hist %d cursor %+v", md, c.hist, c.cur)
	}
	runCopy(c, c.copyKey(keyRunes("v")))
	runCopy(c, c.copyKey(keyRunes("$")))
	if c.cur != (protocol.PaneTextPoint{Row: 32, Col: 18}) || !c.sel || f.motions[0] != protocol.MotionLineEnd {
		t.Fatalf("v $: cursor %+v sel %v motions %v", c.cur, c.sel, f.motions)
	}
	if st := c.copyStatus("hi"); !strings.HasPrefix(st, " hi · COPY 33/40") || !strings.Contains(st, "y copy") {
		t.Fatalf("status %q", st)
	}
	cv := newCanvas(30, 10)
	th := newTheme(config.Default(), true)
	c.drawCopy(cv, 0, 0, 30, 10, th)
	if cv.cells[2*30+5].st != th.selection || cv.cells[3*30+5].st == th.selection {
		t.Fatal("the selection is not drawn on its row alone")
	}
	runCopy(c, c.copyKey(tea.KeyPressMsg{Code: tea.KeyEnter}))
	if len(h.yanks) != 1 || h.yanks[0] != "line 33: some words" || md != modeTerminal || c.paneID != "" || f.offset != 0 {
		t.Fatalf("yank: %q mode %v pane %q offset %d", h.yanks, md, c.paneID, f.offset)
	}

	runCopy(c, c.enterCopy("p"))
	for _, k := range []string{"/", "n", "o", "p", "e"} {
		runCopy(c, c.copyKey(keyRunes(k)))
	}
	runCopy(c, c.copyKey(tea.KeyPressMsg{Code: tea.KeyEnter}))
	if len(h.toasts) != 1 || h.toasts[0] != "not found: nope" || md != modeCopy {
		t.Fatalf("search for nothing: toasts %q mode %v", h.toasts, md)
	}
}
