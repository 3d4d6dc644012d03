//go:build unix

package harness

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// CopyCall calls method and decodes its result of type want.
func CopyCall[T any](t *testing.T, s *Server, method string, params map[string]any, want string) T {
	t.Helper()
	return OK[T](t, s.CallT(t, method, params), want)
}

type CopyPane struct {
	T    *testing.T
	S    *Server
	Pane string
}

func (c CopyPane) Params(kv ...any) map[string]any {
	p := map[string]any{"pane_id": c.Pane}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return p
}

func Point(row uint32, col uint16) protocol.PaneTextPoint {
	return protocol.PaneTextPoint{Row: row, Col: col}
}

// Revision is the pane's content revision, once two reads in a row agree
// (the shell has finished printing its prompt).
func (c CopyPane) Revision() uint64 {
	c.T.Helper()
	var last uint64
	var rev uint64
	WaitFor(c.T, "the pane's text to settle", func() bool {
		rev = CopyCall[protocol.PaneCopyMotion](c.T, c.S, "pane.copy_motion", c.Params("cursor", Point(0, 0), "motion", "line_end"), "pane_copy_motion").ContentRevision
		same := rev == last
		last = rev
		return same
	})
	return rev
}

// Search runs pane.copy_search at the current revision.
func (c CopyPane) Search(query, dir string, cursor protocol.PaneTextPoint, previous *protocol.PaneTextRange) protocol.PaneCopySearch {
	c.T.Helper()
	p := c.Params("query", query, "direction", dir, "cursor", cursor, "content_revision", c.Revision())
	if previous != nil {
		p["previous"] = previous
	}
	return CopyCall[protocol.PaneCopySearch](c.T, c.S, "pane.copy_search", p, "pane_copy_search")
}

// RowOf is the text row of the only line holding query.
func (c CopyPane) RowOf(query string) uint32 {
	c.T.Helper()
	res := c.Search(query, "forward", Point(0, 0), nil)
	if res.Total != 1 || res.Current == nil {
		c.T.Fatalf("%q: %d matches, want 1", query, res.Total)
	}
	return res.Matches[*res.Current].Start.Row
}

func (c CopyPane) Read(a, b protocol.PaneTextPoint) string {
	c.T.Helper()
	return CopyCall[protocol.PaneSelection](c.T, c.S, "pane.selection.read", c.Params("anchor", a, "cursor", b), "pane_selection").Text
}

func (c CopyPane) Move(from protocol.PaneTextPoint, motion string) protocol.PaneTextPoint {
	c.T.Helper()
	return CopyCall[protocol.PaneCopyMotion](c.T, c.S, "pane.copy_motion", c.Params("cursor", from, "motion", motion), "pane_copy_motion").Cursor
}

func (c CopyPane) Info() protocol.PaneInfo {
	c.T.Helper()
	return OK[protocol.PaneInfoResult](c.T, c.S.Call("pane.get", c.Params()), "pane_info").Pane
}
