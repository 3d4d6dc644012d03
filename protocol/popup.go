package protocol

import (
	"math"
	"strconv"
	"strings"
)

// Popups are session-modal terminals drawn by the interactive client over
// the tab area (plugin.pane.open with placement popup). A popup has no
// pane id, is outside every pane.* and agent method and emits no pane
// events; popup.close closes it. The interactive client in front is told
// of it with one line on its screen connection,
//
//	{"event":"client.popup","data":{"open":true,"terminal_id":"term_…",…}}
//
// and gets the popup's screen as screen.frame lines whose pane_id is the
// popup's terminal id. Its keys go back with popup.send_text (extension).

// PopupEvent is the event name of the line that tells the client in front
// a popup opened or closed.
const PopupEvent = "client.popup"

// Popup error codes.
const (
	CodeUIBusy       = "ui_busy"
	CodePopupNotOpen = "popup_not_open"
)

var popupMethods = []Method{
	{Name: "popup.close", Since: "0.7.4", Params: empty, Result: "ok", Summary: "Close the open popup", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "popup.send_text", Extension: true, Params: func() Params { return &PopupSendTextParams{} }, Result: "ok", Summary: "Write text to the open popup's program (extension; the interactive client's keys)", Owner: OwnerClients, Shape: ShapeAnswer},
	{Name: "popup.open", Extension: true, Params: func() Params { return &PopupOpenParams{} }, Result: "ok", Summary: "Run a command line in a popup over the client in front (extension; [[keys.command]] type popup)", Owner: OwnerClients, Shape: ShapeAnswer},
}

// CodePopupOpenFailed answers a popup.open whose command cannot start.
const CodePopupOpenFailed = "popup_open_failed"

// PopupOpenParams are the params of popup.open: a command line run by the
// platform shell (/bin/sh -c) in a popup, which closes when it exits.
// Cwd defaults to the focused pane's folder; Env is added to the popup's
// environment, which has HERDR_ACTIVE_* of the focused pane as a key
// command's does. Width and Height are cells or "N%" as PopupSize.
type PopupOpenParams struct {
	Command string            `json:"command"`
	Title   string            `json:"title,omitempty"`
	Width   any               `json:"width,omitempty"`
	Height  any               `json:"height,omitempty"`
	Cwd     *string           `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// Validate implements Params.
func (p *PopupOpenParams) Validate() error {
	if strings.TrimSpace(p.Command) == "" {
		return ParamError("command", "missing required field")
	}
	if err := absolute("cwd", p.Cwd); err != nil {
		return err
	}
	if err := validEnv(p.Env); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"width", p.Width}, {"height", p.Height}} {
		if _, err := ParsePopupSize(f.v); err != nil {
			return ParamError(f.name, "%s", AsError(err).Message)
		}
	}
	return nil
}

// Sizes are the popup's width and height as Validate accepted them.
func (p *PopupOpenParams) Sizes() (width, height *PopupSize) {
	width, _ = ParsePopupSize(p.Width)
	height, _ = ParsePopupSize(p.Height)
	return width, height
}

// PopupSendTextParams are the params of popup.send_text: raw input for the
// popup's program.
type PopupSendTextParams struct {
	Text string `json:"text"`
}

// Validate implements Params.
func (*PopupSendTextParams) Validate() error { return nil }

// PopupState is the data of a client.popup line.
type PopupState struct {
	Open       bool   `json:"open"`
	TerminalID string `json:"terminal_id,omitempty"`
	Title      string `json:"title,omitempty"`
	// Width and Height are the sizes asked for (cells or "N%"); absent:
	// half the tab area. Geometry resolves them.
	Width  *PopupSize `json:"width,omitempty"`
	Height *PopupSize `json:"height,omitempty"`
}

// PopupSize is a popup's outer size: Cells, or Percent of the tab area
// when Percent is not 0.
type PopupSize struct {
	Cells   int
	Percent int
}

var percentPattern = LazyRegexp(`^(100|[1-9][0-9]?)%$`)

// ParsePopupSize reads a size as JSON or TOML give it: a whole number of
// cells (0–65535) or a string "1%"–"100%". nil gives nil.
func ParsePopupSize(v any) (*PopupSize, error) {
	bad := Errorf(CodeInvalidParams, "a popup size is a number of cells (0-65535) or a percentage like \"80%%\", got %v", v)
	var n float64
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		if !percentPattern().MatchString(x) {
			return nil, bad
		}
		p, _ := strconv.Atoi(x[:len(x)-1])
		return &PopupSize{Percent: p}, nil
	case float64:
		n = x
	case int64:
		n = float64(x)
	case int:
		n = float64(x)
	default:
		return nil, bad
	}
	if n != math.Trunc(n) || n < 0 || n > 65535 {
		return nil, bad
	}
	return &PopupSize{Cells: int(n)}, nil
}

// MarshalJSON writes cells as a number and a percentage as "N%".
func (s PopupSize) MarshalJSON() ([]byte, error) {
	if s.Percent != 0 {
		return []byte(`"` + strconv.Itoa(s.Percent) + `%"`), nil
	}
	return []byte(strconv.Itoa(s.Cells)), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *PopupSize) UnmarshalJSON(b []byte) error {
	var v any
	if len(b) > 0 && b[0] == '"' {
		v = string(b[1 : len(b)-1])
	} else {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			return err
		}
		v = f
	}
	p, err := ParsePopupSize(v)
	if err != nil {
		return err
	}
	*s = *p
	return nil
}

func (s *PopupSize) resolve(avail, fallback int) int {
	switch {
	case s == nil:
		return fallback
	case s.Percent != 0:
		return avail * s.Percent / 100
	}
	return s.Cells
}

// PopupGeometry places a popup in the tab area of w×h cells as Herdr does:
// centred, its outer size as asked (default half the area), at least 6×4
// and at most the area. Inner is where its terminal is drawn, inside the
// border, one column narrower for the scrollbar when wider than 4. ok is
// false when the area is too small for a popup.
func PopupGeometry(width, height *PopupSize, w, h int) (outer, inner Rect, ok bool) {
	ow := min(max(width.resolve(w, max(w/2, 6)), 6), w)
	oh := min(max(height.resolve(h, max(h/2, 4)), 4), h)
	if ow < 6 || oh < 4 {
		return Rect{}, Rect{}, false
	}
	outer = Rect{X: (w - ow) / 2, Y: (h - oh) / 2, Width: ow, Height: oh}
	cols := ow - 2
	if cols > 4 {
		cols--
	}
	inner = Rect{X: outer.X + 1, Y: outer.Y + 1, Width: cols, Height: oh - 2}
	return outer, inner, true
}
