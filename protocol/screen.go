package protocol

import "strconv"

// The screen stream is an extension of the Herdr protocol for interactive
// clients. A connection that sends screen.subscribe receives, besides the
// answers to its requests, one line per changed pane screen:
//
//	{"event":"screen.frame","data":{"pane_id":"w1:p1",…,"lines":[{"y":3,"runs":[…]}]}}
//
// Only rows that changed since the last frame sent on that connection are
// included (all of them in the first frame and after a resize, marked
// "full"); frames are coalesced to at most ScreenMaxFPS a second per pane
// and a connection gets the next frame of a pane only after the previous
// one was written. Nothing is sent while nothing changes. Sending
// screen.subscribe again replaces the set of panes.
//
// client.resize sets the tab area (the cells the client draws panes in) to
// the caller's size and re-lays every tab out, so every pane's terminal
// follows the most recently active client.

// ScreenFrameEvent is the event name of a screen frame line.
const ScreenFrameEvent = "screen.frame"

// ScreenMaxFPS bounds how many frames a pane sends a connection per second.
const ScreenMaxFPS = 60

var screenMethods = []Method{
	{Name: "screen.subscribe", Access: AccessRead, Extension: true, Params: func() Params { return &ScreenSubscribeParams{} }, Result: "screen_subscribed", Summary: "Stream the screens of these panes on this connection (extension; replaces the set)", Owner: OwnerClients, Shape: ShapeWatch, Browser: BrowserAllowed},
	{Name: "client.resize", Extension: true, Params: func() Params { return &ClientResizeParams{} }, Result: "ok", Summary: "Size every tab to this client's pane area (extension)", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "screen.scroll", Extension: true, Params: func() Params { return &ScreenScrollParams{} }, Result: "screen_scrolled", Summary: "Scroll a pane's view back into its history or forward (extension)", Target: TargetPane, Owner: OwnerPane, Shape: ShapeAnswer, Browser: BrowserAllowed},
}

// ScreenSubscribeParams are the params of screen.subscribe.
type ScreenSubscribeParams struct {
	PaneIDs []string `json:"pane_ids"`
	// Graphics asks for the panes' graphics layers too (screen.graphics
	// lines, see graphics.go); a client that cannot draw them leaves it off.
	Graphics bool `json:"graphics,omitempty"`
}

// Validate implements Params.
func (p *ScreenSubscribeParams) Validate() error {
	if p.PaneIDs == nil {
		return ParamError("pane_ids", "missing required field")
	}
	for i, id := range p.PaneIDs {
		if err := required("pane_ids["+strconv.Itoa(i)+"]", id); err != nil {
			return err
		}
	}
	return nil
}

// ClientResizeParams are the params of client.resize: the size in cells of
// the area the client draws panes in.
type ClientResizeParams struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
	// CellWidthPx and CellHeightPx are the size of one cell in pixels when
	// the client's terminal tells it (0: unknown); pane.graphics.info
	// reports them.
	CellWidthPx  int `json:"cell_width_px,omitempty"`
	CellHeightPx int `json:"cell_height_px,omitempty"`
	// KittyGraphicsLocal: the client runs on the server's machine and its
	// terminal speaks kitty graphics, so pane.graphics.info offers file
	// frames (file_frame_transport "direct-kitty").
	KittyGraphicsLocal bool `json:"kitty_graphics_local,omitempty"`
}

// The largest terminal a pane gets: every size that reaches a pane is
// clamped to it (a terminal's memory, and what a read of it answers, grow
// with its area; 4096×4096 for every pane took a server past 1 GB).
const (
	MaxTerminalCols = 1000
	MaxTerminalRows = 500
)

// Validate implements Params: a size under 1 is refused; one past
// MaxTerminalCols × MaxTerminalRows is clamped to it, so a client on a
// huge screen still works, its panes at most that large.
func (p *ClientResizeParams) Validate() error {
	if p.Cols < 1 {
		return ParamError("cols", "must be at least 1, got %d", p.Cols)
	}
	if p.Rows < 1 {
		return ParamError("rows", "must be at least 1, got %d", p.Rows)
	}
	p.Cols, p.Rows = min(p.Cols, MaxTerminalCols), min(p.Rows, MaxTerminalRows)
	if p.CellWidthPx < 0 || p.CellWidthPx > 1024 || p.CellHeightPx < 0 || p.CellHeightPx > 1024 {
		return ParamError("cell_width_px", "cell sizes must be between 0 and 1024 pixels")
	}
	return nil
}

// ScreenScrollParams are the params of screen.scroll: move the pane's view
// Lines lines back into its history (negative: forward, towards the live
// screen), or back to the live screen when Bottom is set. The view is
// clamped to the history; the alternate screen has none. The pane's
// PaneInfo.scroll and pane.scroll_changed follow the view, its frames show
// it, and input sent to the pane returns it to the bottom.
type ScreenScrollParams struct {
	PaneID string `json:"pane_id"`
	Lines  int    `json:"lines,omitempty"`
	Bottom bool   `json:"bottom,omitempty"`
}

// Validate implements Params.
func (p *ScreenScrollParams) Validate() error { return required("pane_id", p.PaneID) }

// ScreenScrolled answers screen.scroll with the pane's new scroll position.
type ScreenScrolled struct {
	PaneID string         `json:"pane_id"`
	Scroll PaneScrollInfo `json:"scroll"`
}

func (ScreenScrolled) ResultType() string { return "screen_scrolled" }

// ScreenSubscribed answers screen.subscribe with the panes now streamed
// (unknown ids are left out).
type ScreenSubscribed struct {
	PaneIDs []string `json:"pane_ids"`
}

func (ScreenSubscribed) ResultType() string { return "screen_subscribed" }

// Attribute bits of ScreenStyle.Attrs.
const (
	ScreenBold = 1 << iota
	ScreenDim
	ScreenItalic
	ScreenUnderline
	ScreenBlink
	ScreenInverse
	ScreenHidden
	ScreenStrike
)

// ScreenStyle is a run's rendition. Colours are "" (default), a palette
// index "0"–"255" or "#rrggbb".
type ScreenStyle struct {
	Fg    string `json:"fg,omitempty"`
	Bg    string `json:"bg,omitempty"`
	Attrs int    `json:"a,omitempty"`
	// Under is the underline style (1 single, 2 double, 3 curly, 4 dotted,
	// 5 dashed; 0 none) and UnderColor its colour (SGR 58), when set.
	Under      int    `json:"u,omitempty"`
	UnderColor string `json:"uc,omitempty"`
}

// ScreenRun is a stretch of a row in one style, starting at column X and
// covering W columns.
type ScreenRun struct {
	X     int          `json:"x"`
	W     int          `json:"w"`
	Text  string       `json:"t"`
	Style *ScreenStyle `json:"s,omitempty"`
}

// ScreenLine is one changed row; no runs means blank.
type ScreenLine struct {
	Y    int         `json:"y"`
	Runs []ScreenRun `json:"runs,omitempty"`
}

// ScreenCursor is the cursor of a pane.
type ScreenCursor struct {
	X       int  `json:"x"`
	Y       int  `json:"y"`
	Visible bool `json:"visible"`
	// Shape is the DECSCUSR shape the program asked for (0 default, 1–2
	// block, 3–4 underline, 5–6 bar; odd numbers blink).
	Shape int `json:"shape,omitempty"`
}

// ScreenModes are the terminal modes a client needs to encode input.
type ScreenModes struct {
	AppCursor      bool `json:"app_cursor,omitempty"`
	BracketedPaste bool `json:"bracketed_paste,omitempty"`
	Mouse          bool `json:"mouse,omitempty"`
	MouseSGR       bool `json:"mouse_sgr,omitempty"`
	// MouseDrag: the program asked for motion with a button held (?1002
	// or ?1003); MouseMotion: for all motion (?1003); MousePressOnly: for
	// presses alone (?9, X10). A client forwarding the mouse sends what
	// was asked for and nothing else.
	MouseDrag      bool `json:"mouse_drag,omitempty"`
	MouseMotion    bool `json:"mouse_motion,omitempty"`
	MousePressOnly bool `json:"mouse_press_only,omitempty"`
	AltScreen      bool `json:"alt_screen,omitempty"`
	// RightClickPane is the pane's right_click = "pane" (pane.input.set,
	// pane.split): a plain right click goes to a program that asked for
	// the mouse, not to the client's menu.
	RightClickPane bool `json:"right_click_pane,omitempty"`
	// KittyKeys are the kitty keyboard protocol flags the program pushed
	// (CSI > flags u): a client sends keys a legacy encoding makes
	// ambiguous (shift+enter, ctrl+i) as CSI u when bit 1 is set.
	KittyKeys int `json:"kitty_keys,omitempty"`
}

// ScreenFrame is the data of a screen.frame line.
type ScreenFrame struct {
	PaneID     string       `json:"pane_id"`
	TerminalID string       `json:"terminal_id"`
	Seq        uint64       `json:"seq"`
	Cols       int          `json:"cols"`
	Rows       int          `json:"rows"`
	Full       bool         `json:"full,omitempty"`
	Cursor     ScreenCursor `json:"cursor"`
	Modes      ScreenModes  `json:"modes"`
	// ViewOffset is how many lines the pane's view is scrolled back into
	// its history (screen.scroll); the rows are then those of the view.
	ViewOffset int `json:"view_offset,omitempty"`
	// History is how many lines of history the pane keeps (its
	// max_offset_from_bottom; 0 on the alternate screen), so a client draws
	// the scrollbar for history gained while it watches.
	History int `json:"history,omitempty"`
	// Bell counts the bells the pane rang since the connection's last frame.
	Bell int `json:"bell,omitempty"`
	// Clipboard is the text (base64) a program in the pane put on the
	// clipboard with OSC 52 since the connection's last frame.
	Clipboard string       `json:"clipboard,omitempty"`
	Lines     []ScreenLine `json:"lines"`
}

// TargetID implements Targeted.
func (p *ScreenScrollParams) TargetID() string { return p.PaneID }
