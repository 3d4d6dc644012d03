package tui

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

func TestGraphics_ClipPlacement(t *testing.T) {
	meta := func(col, row int32, cols, rows uint32) protocol.GraphicsLayerMeta {
		return protocol.GraphicsLayerMeta{ImageWidth: 80, ImageHeight: 40, Placement: protocol.PaneGraphicsPlacement{ViewportCol: col, ViewportRow: row, GridCols: cols, GridRows: rows}}
	}
	cases := []struct {
		name string
		meta protocol.GraphicsLayerMeta
		want kittyPlacement
		ok   bool
	}{
		{"inside", meta(1, 2, 8, 4), kittyPlacement{x: 11, y: 7, cols: 8, rows: 4, sw: 80, sh: 40}, true},
		{"natural size from the cell size", meta(0, 0, 0, 0), kittyPlacement{x: 10, y: 5, cols: 10, rows: 3, sw: 80, sh: 40}, true},
		{"past the right edge is cropped", meta(16, 0, 8, 4), kittyPlacement{x: 26, y: 5, cols: 4, rows: 4, sw: 40, sh: 40}, true},
		{"above the top is cropped", meta(0, -2, 8, 4), kittyPlacement{x: 10, y: 5, cols: 8, rows: 2, sy: 20, sw: 80, sh: 20}, true},
		{"outside", meta(20, 0, 8, 4), kittyPlacement{}, false},
	}
	for _, c := range cases {
		got, ok := clipPlacement(c.meta, 10, 5, 20, 10, 8, 16)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestGraphics_TransmitChunks(t *testing.T) {
	var b bytes.Buffer
	data := strings.Repeat("A", kittyChunk+8)
	transmit(&b, &gfxImage{id: 7, data: data, meta: protocol.GraphicsLayerMeta{Format: "rgba", ImageWidth: 1, ImageHeight: 1}})
	out := b.String()
	if !strings.HasPrefix(out, "\x1b_Ga=t,q=2,f=32,i=7,s=1,v=1,m=1;") || !strings.Contains(out, "\x1b\\\x1b_Gm=0;AAAAAAAA\x1b\\") ||
		strings.Count(out, "\x1b_G") != 2 {
		t.Errorf("chunks = %q…", out[:60])
	}
}

func TestGraphics_KittyTerminal(t *testing.T) {
	for env, want := range map[string]bool{
		"TERM=xterm-kitty": true, "TERM=xterm-ghostty": true, "TERM_PROGRAM=WezTerm": true, "KITTY_WINDOW_ID=3": true,
		"TERM=xterm-256color": false, "TERM_PROGRAM=Apple_Terminal": false,
	} {
		k, v, _ := strings.Cut(env, "=")
		if got := kittyTerminal(func(s string) string {
			if s == k {
				return v
			}
			return ""
		}); got != want {
			t.Errorf("%s: %v", env, got)
		}
	}
	if kittyTerminal(func(s string) string { return map[string]string{"TERM": "xterm-kitty", "TMUX": "/tmp/x"}[s] }) {
		t.Errorf("kitty inside tmux counts as kitty")
	}
}

// fakeGraphicsHost is the client as pane graphics see it: the panes
// watched and where their insides are, and what it was asked to do.
type fakeGraphicsHost struct {
	insides   map[string]protocol.Rect
	unwatched int
	toasts    []string
}

func (h *fakeGraphicsHost) watched() []string                     { return []string{"w1:p1"} }
func (h *fakeGraphicsHost) unwatchGraphics()                      { h.unwatched++ }
func (h *fakeGraphicsHost) paneInsides() map[string]protocol.Rect { return h.insides }
func (h *fakeGraphicsHost) toast(text string) tea.Cmd {
	h.toasts = append(h.toasts, text)
	return nil
}

// Pane graphics on their own: a terminal without the kitty protocol says
// so once and stops asking; one with it transmits an image once, places
// it in its pane's inside, places it again only when that moves, takes it
// off while nothing shows the pane, and deletes it when its pane goes.
func TestGraphicsState_OnItsOwn(t *testing.T) {
	layer := protocol.GraphicsLayerWire{GraphicsLayerMeta: protocol.GraphicsLayerMeta{LayerID: "l1", ImageWidth: 20, ImageHeight: 40,
		Placement: protocol.PaneGraphicsPlacement{GridCols: 2, GridRows: 2}}, DataBase64: "aGk="}
	h := &fakeGraphicsHost{insides: map[string]protocol.Rect{"w1:p1": {X: 5, Y: 2, Width: 10, Height: 5}}}
	off := &graphicsState{host: h}
	for range 2 {
		off.apply(&protocol.GraphicsUpdate{PaneID: "w1:p1", Layers: []protocol.GraphicsLayerWire{layer}})
	}
	if !off.said || off.want() || h.unwatched != 1 || len(h.toasts) != 1 || off.bytes(true) != nil {
		t.Fatalf("unsupported: said %v unwatched %d toasts %q", off.said, h.unwatched, h.toasts)
	}

	gs := &graphicsState{host: h, supported: true, cellW: 10, cellH: 20}
	gs.apply(&protocol.GraphicsUpdate{PaneID: "elsewhere", Layers: []protocol.GraphicsLayerWire{layer}})
	if len(gs.panes) != 0 {
		t.Fatal("a pane not watched got an image")
	}
	gs.apply(&protocol.GraphicsUpdate{PaneID: "w1:p1", Layers: []protocol.GraphicsLayerWire{layer}})
	first := string(gs.bytes(false))
	if !strings.Contains(first, "a=t") || !strings.Contains(first, "a=p") {
		t.Fatalf("first frame: %q", first)
	}
	if b := gs.bytes(false); len(b) != 0 {
		t.Fatalf("an unchanged frame sent %q", b)
	}
	h.insides["w1:p1"] = protocol.Rect{X: 6, Y: 2, Width: 10, Height: 5}
	if b := string(gs.bytes(false)); !strings.Contains(b, "a=p") || strings.Contains(b, "a=t") {
		t.Fatalf("moved: %q", b)
	}
	h.insides = map[string]protocol.Rect{}
	if b := string(gs.bytes(false)); !strings.Contains(b, "a=d,d=i") {
		t.Fatalf("covered: %q", b)
	}
	gs.drop(nil)
	if b := string(gs.bytes(false)); !strings.Contains(b, "a=d,d=I") || len(gs.panes) != 0 {
		t.Fatalf("dropped: %q", b)
	}
}
