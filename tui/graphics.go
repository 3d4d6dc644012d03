package tui

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// Pane graphics (pane.graphics.*): the screen stream carries each visible
// pane's layers (screen.graphics lines, asked for with screen.subscribe's
// graphics flag); the client draws them on the outer terminal with the
// kitty graphics protocol: each image is transmitted once (a=t, in 4 KiB
// chunks of base64) under an id of the client's, placed (a=p) at the
// pane's cells, clipped to the pane's inside, and placed again only when
// where it goes changes; a layer that goes, or a pane that leaves the
// screen, deletes its image. Terminals that do not speak the protocol are
// told nothing: the client says once that they cannot show graphics and
// stops asking for them.

// graphicsMsg carries one screen.graphics line.
type graphicsMsg struct{ u *protocol.GraphicsUpdate }

// gfxImage is one layer as the client holds it.
type gfxImage struct {
	meta   protocol.GraphicsLayerMeta
	data   string // base64, kept to send again after a full redraw
	id     uint32 // the kitty image id
	sent   bool   // transmitted to the terminal
	placed *kittyPlacement
}

// kittyPlacement is where an image was last placed.
type kittyPlacement struct {
	x, y, cols, rows  int
	sx, sy, sw, sh, z int
}

// graphicsState is the client's side of pane graphics.
type graphicsState struct {
	// supported: the outer terminal speaks the kitty graphics protocol.
	supported bool
	// local: the client runs on the server's machine (client.resize says
	// so with supported, for the server's file frames).
	local bool
	// said: the client said the terminal cannot show graphics, and asks
	// for none since.
	said   bool
	panes  map[string][]*gfxImage // by pane id, in drawing order
	nextID uint32
	// gone are images to delete with the next frame.
	gone []uint32
	// cellW, cellH are the outer terminal's cell size in pixels (0: unknown).
	cellW, cellH int
	host         graphicsHost
}

// graphicsHost is what pane graphics need of the client around them.
type graphicsHost interface {
	// watched are the panes the screen stream sends.
	watched() []string
	// unwatchGraphics subscribes the screen stream again without graphics.
	unwatchGraphics()
	toast(text string) tea.Cmd
	// paneInsides are the insides of the panes drawn, in window cells, by
	// pane; none while an overlay (a popup, the help, the picker) covers
	// the panes.
	paneInsides() map[string]protocol.Rect
}

// kittyTerminal reports whether the terminal the client runs in speaks
// the kitty graphics protocol, by its identity: kitty, Ghostty and
// WezTerm do. Inside tmux it does not reach the terminal.
func kittyTerminal(getenv func(string) string) bool {
	if getenv("TMUX") != "" {
		return false
	}
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	return getenv("KITTY_WINDOW_ID") != "" || strings.Contains(term, "kitty") || term == "xterm-ghostty" ||
		prog == "ghostty" || prog == "WezTerm"
}

// localTerminal reports whether the client's terminal is on this machine:
// not reached over SSH nor through screen (kittyTerminal rules out tmux),
// so a file the server reads is one the terminal could read too.
func localTerminal(getenv func(string) string) bool {
	for _, v := range []string{"SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "STY"} {
		if getenv(v) != "" {
			return false
		}
	}
	return true
}

// want is whether screen.subscribe asks for graphics.
func (gs *graphicsState) want() bool { return !gs.said }

// apply takes a screen.graphics line.
func (gs *graphicsState) apply(u *protocol.GraphicsUpdate) tea.Cmd {
	if !slices.Contains(gs.host.watched(), u.PaneID) {
		return nil
	}
	if !gs.supported {
		if len(u.Layers) == 0 || gs.said {
			return nil
		}
		gs.said = true
		gs.host.unwatchGraphics() // without graphics from now on
		return gs.host.toast("graphics unsupported by this terminal (pane " + u.PaneID + " has images; kitty, Ghostty and WezTerm show them)")
	}
	if gs.panes == nil {
		gs.panes = map[string][]*gfxImage{}
	}
	old := gs.panes[u.PaneID]
	next := make([]*gfxImage, 0, len(u.Layers))
	for _, l := range u.Layers {
		i := slices.IndexFunc(old, func(g *gfxImage) bool { return g.meta.LayerID == l.LayerID })
		switch {
		case l.DataBase64 != "":
			if i >= 0 {
				gs.gone = append(gs.gone, old[i].id)
			}
			gs.nextID++
			next = append(next, &gfxImage{meta: l.GraphicsLayerMeta, data: l.DataBase64, id: gs.nextID})
		case i >= 0:
			old[i].meta = l.GraphicsLayerMeta
			next = append(next, old[i])
		}
		if i >= 0 {
			old = slices.Delete(old, i, i+1)
		}
	}
	for _, g := range old {
		gs.gone = append(gs.gone, g.id)
	}
	gs.panes[u.PaneID] = next
	return nil
}

// drop forgets the images of panes no longer watched.
func (gs *graphicsState) drop(keep []string) {
	for id, imgs := range gs.panes {
		if !slices.Contains(keep, id) {
			for _, g := range imgs {
				gs.gone = append(gs.gone, g.id)
			}
			delete(gs.panes, id)
		}
	}
}

// bytes is what the outer terminal must be sent for its images to
// match the frame being drawn; full says the frame clears the screen, so
// every image is sent and placed again.
func (gs *graphicsState) bytes(full bool) []byte {
	if !gs.supported {
		return nil
	}
	var b bytes.Buffer
	for _, id := range gs.gone {
		b.WriteString("\x1b_Ga=d,d=I,q=2,i=" + strconv.FormatUint(uint64(id), 10) + "\x1b\\")
	}
	gs.gone = gs.gone[:0]
	if full {
		for _, imgs := range gs.panes {
			for _, g := range imgs {
				g.sent, g.placed = false, nil
			}
		}
	}
	want := gs.placements()
	for _, imgs := range gs.panes {
		for _, g := range imgs {
			p, ok := want[g.id]
			switch {
			case !ok && g.placed != nil:
				b.WriteString("\x1b_Ga=d,d=i,q=2,p=1,i=" + strconv.FormatUint(uint64(g.id), 10) + "\x1b\\")
				g.placed = nil
			case ok && (g.placed == nil || *g.placed != p):
				if !g.sent {
					transmit(&b, g)
					g.sent = true
				}
				place(&b, g.id, p)
				g.placed = &p
			}
		}
	}
	return b.Bytes()
}

// placements are where each image goes in this frame: on the panes drawn,
// clipped to their inside, and nowhere while an overlay (a popup, the
// help, the picker) covers the panes.
func (gs *graphicsState) placements() map[uint32]kittyPlacement {
	out := map[uint32]kittyPlacement{}
	if len(gs.panes) == 0 {
		return out
	}
	cw, ch := gs.cellW, gs.cellH
	if cw <= 0 || ch <= 0 {
		cw, ch = protocol.DefaultCellWidthPx, protocol.DefaultCellHeightPx
	}
	for id, r := range gs.host.paneInsides() {
		for _, img := range gs.panes[id] {
			if pl, ok := clipPlacement(img.meta, r.X, r.Y, r.Width, r.Height, cw, ch); ok {
				out[img.id] = pl
			}
		}
	}
	return out
}

// clipPlacement places an image's cells in a pane whose inside is w×h
// cells at (x, y), cropping the source where the cells reach past it.
func clipPlacement(meta protocol.GraphicsLayerMeta, x, y, w, h, cw, ch int) (kittyPlacement, bool) {
	iw, ih := int(meta.ImageWidth), int(meta.ImageHeight)
	cols, rows := int(meta.Placement.GridCols), int(meta.Placement.GridRows)
	if cols == 0 {
		cols = (iw + cw - 1) / cw
	}
	if rows == 0 {
		rows = (ih + ch - 1) / ch
	}
	c0, r0 := int(meta.Placement.ViewportCol), int(meta.Placement.ViewportRow)
	vc0, vr0 := max(c0, 0), max(r0, 0)
	vc1, vr1 := min(c0+cols, w), min(r0+rows, h)
	if vc1 <= vc0 || vr1 <= vr0 || cols <= 0 || rows <= 0 {
		return kittyPlacement{}, false
	}
	p := kittyPlacement{x: x + vc0, y: y + vr0, cols: vc1 - vc0, rows: vr1 - vr0, z: int(meta.ZIndex)}
	p.sx, p.sw = (vc0-c0)*iw/cols, (vc1-vc0)*iw/cols
	p.sy, p.sh = (vr0-r0)*ih/rows, (vr1-vr0)*ih/rows
	return p, p.sw > 0 && p.sh > 0
}

// kittyChunk is the most base64 one kitty graphics escape carries.
const kittyChunk = 4096

// transmit sends an image's data under its id without showing it.
func transmit(b *bytes.Buffer, g *gfxImage) {
	f := "100"
	switch g.meta.Format {
	case protocol.GraphicsRGB:
		f = "24"
	case protocol.GraphicsRGBA:
		f = "32"
	}
	data := g.data
	first := true
	for first || data != "" {
		n := min(len(data), kittyChunk)
		more := "0"
		if n < len(data) {
			more = "1"
		}
		b.WriteString("\x1b_G")
		if first {
			b.WriteString("a=t,q=2,f=" + f + ",i=" + strconv.FormatUint(uint64(g.id), 10))
			if f != "100" {
				b.WriteString(",s=" + strconv.Itoa(int(g.meta.ImageWidth)) + ",v=" + strconv.Itoa(int(g.meta.ImageHeight)))
			}
			b.WriteString(",m=" + more)
		} else {
			b.WriteString("m=" + more)
		}
		b.WriteByte(';')
		b.WriteString(data[:n])
		b.WriteString("\x1b\\")
		data, first = data[n:], false
	}
}

// place shows image id at p (placement 1 of the image: placing it again
// moves it), leaving the cursor where it is.
func place(b *bytes.Buffer, id uint32, p kittyPlacement) {
	moveTo(b, p.x, p.y)
	b.WriteString("\x1b_Ga=p,q=2,C=1,p=1,i=" + strconv.FormatUint(uint64(id), 10) +
		",c=" + strconv.Itoa(p.cols) + ",r=" + strconv.Itoa(p.rows) +
		",x=" + strconv.Itoa(p.sx) + ",y=" + strconv.Itoa(p.sy) + ",w=" + strconv.Itoa(p.sw) + ",h=" + strconv.Itoa(p.sh) +
		",z=" + strconv.Itoa(p.z) + "\x1b\\")
}
