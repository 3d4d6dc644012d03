package screen

import (
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The interactive client draws pane graphics with the kitty graphics
// protocol on a terminal that speaks it, and says once that it cannot on
// one that does not.

func setGraphics(t *testing.T, s *Server, params map[string]any) {
	t.Helper()
	OK[protocol.OK](t, s.Call("pane.graphics.set", params), "ok")
}

func TestTUI_GraphicsKittyTerminal(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "gfx")
	c := AttachWith(t, h, "gfx", "TERM_PROGRAM=WezTerm") // a kitty-capable terminal
	pane := SessionSnapshot(t, s).Panes[0].PaneID
	setGraphics(t, s, map[string]any{"pane_id": pane, "format": "png", "image_width": 16, "image_height": 32, "data_base64": testPNG(t, 16, 32),
		"placement": map[string]any{"viewport_col": 2, "viewport_row": 1, "grid_cols": 4, "grid_rows": 2}})
	var id string
	WaitFor(t, "the image transmitted and placed on the outer terminal", func() bool {
		out := c.Output()
		i := strings.Index(out, "\x1b_Ga=t,q=2,f=100,i=")
		if i < 0 || !strings.Contains(out[i:], "\x1b_Ga=p,q=2,C=1,p=1,i=") {
			return false
		}
		id = out[i+len("\x1b_Ga=t,q=2,f=100,i="):]
		id = id[:strings.IndexByte(id, ',')]
		return true
	})
	// Placed in the pane's cells: its frame's inside starts one cell in.
	snap := SessionSnapshot(t, s)
	var r protocol.Rect
	for _, l := range snap.Layouts {
		for _, p := range l.Panes {
			if p.PaneID == pane {
				r = p.Rect
			}
		}
	}
	// The pane area starts below the tab bar, right of the 26-column
	// sidebar; the cursor goes to the placement's cell first (CUP is 1-based).
	cup := "\x1b[" + strconv.Itoa(1+r.Y+1+1+1) + ";" + strconv.Itoa(26+r.X+1+2+1) + "H"
	out := c.Output()
	if r.Width == 0 || !strings.Contains(out, cup+"\x1b_Ga=p,q=2,C=1,p=1,i="+id+",c=4,r=2,x=0,y=0,w=16,h=32,z=0\x1b\\") {
		t.Fatalf("placement of image %s at %q (pane rect %+v) not found in %q", id, cup, r, tail(out, 600))
	}
	// Clearing the layer deletes the image.
	OK[protocol.OK](t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane}), "ok")
	WaitFor(t, "the image deleted", func() bool { return strings.Contains(c.Output(), "\x1b_Ga=d,d=I,q=2,i="+id+"\x1b\\") })
	if strings.Contains(c.Screen(), "graphics unsupported") {
		t.Errorf("a kitty-capable terminal was told it cannot show graphics")
	}
}

func TestTUI_GraphicsUnsupportedSaysSo(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "nogfx")
	c := AttachWith(t, h, "nogfx") // TERM=xterm-256color
	pane := SessionSnapshot(t, s).Panes[0].PaneID
	setGraphics(t, s, map[string]any{"pane_id": pane, "format": "rgb", "image_width": 1, "image_height": 1, "data_base64": "AAAA"})
	c.WaitText(t, "graphics unsupported by this terminal")
	if strings.Contains(c.Output(), "\x1b_G") {
		t.Errorf("kitty graphics written to a terminal that does not speak them")
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// An image a program in the pane draws with the kitty protocol reaches the
// outer terminal as the client's own kitty image, placed in the pane's
// cells, and is deleted there when the program deletes it.
func TestTUI_GraphicsFromProgram(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "pgfx")
	c := AttachWith(t, h, "pgfx", "TERM_PROGRAM=WezTerm")
	pane := SessionSnapshot(t, s).Panes[0].PaneID
	s.Run(t, pane, `printf '\033_Ga=T,f=24,s=2,v=1,i=5,c=3,r=2,q=2;AQIDBAUG\033\\'; echo; echo drawn`)
	s.WaitLine(t, pane, "drawn")
	const tx = "\x1b_Ga=t,q=2,f=24,i="
	var id string
	WaitFor(t, "the program's image transmitted and placed on the outer terminal", func() bool {
		out := c.Output()
		i := strings.Index(out, tx)
		if i < 0 {
			return false
		}
		id = out[i+len(tx):]
		id = id[:strings.IndexByte(id, ',')]
		return strings.Contains(out[i:], tx+id+",s=2,v=1,m=0;AQIDBAUG\x1b\\") &&
			strings.Contains(out[i:], "\x1b_Ga=p,q=2,C=1,p=1,i="+id+",c=3,r=2,x=0,y=0,w=2,h=1,z=0\x1b\\")
	})
	s.Run(t, pane, `printf '\033_Ga=d,d=I,i=5\033\\'`)
	WaitFor(t, "the image deleted", func() bool { return strings.Contains(c.Output(), "\x1b_Ga=d,d=I,q=2,i="+id+"\x1b\\") })
}
