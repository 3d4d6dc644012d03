//go:build unix

package tests

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// Protocol 22's copy-mode and link methods against the real binary: a
// pane prints 5,000 numbered lines (a blank one after every thousandth),
// then the methods work on its whole history and screen. Every answer is
// validated (s.Call): the protocol-20 reference has none of their result
// types, so our printed schema judges them.

// copyCall calls method and decodes its result of type want.
func copyCall[T any](t *testing.T, s *Server, method string, params map[string]any, want string) T {
	t.Helper()
	return OK[T](t, s.CallT(t, method, params), want)
}

// copyFail calls method and checks that it fails with code.
func copyFail(t *testing.T, s *Server, method string, params map[string]any, code string) {
	t.Helper()
	Fail(t, s.CallT(t, method, params), code)
}

type copyPane struct {
	t    *testing.T
	s    *Server
	pane string
}

func (c copyPane) params(kv ...any) map[string]any {
	p := map[string]any{"pane_id": c.pane}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return p
}

func point(row uint32, col uint16) protocol.PaneTextPoint {
	return protocol.PaneTextPoint{Row: row, Col: col}
}

// revision is the pane's content revision, once two reads in a row agree
// (the shell has finished printing its prompt).
func (c copyPane) revision() uint64 {
	c.t.Helper()
	var last uint64
	var rev uint64
	WaitFor(c.t, "the pane's text to settle", func() bool {
		rev = copyCall[protocol.PaneCopyMotion](c.t, c.s, "pane.copy_motion", c.params("cursor", point(0, 0), "motion", "line_end"), "pane_copy_motion").ContentRevision
		same := rev == last
		last = rev
		return same
	})
	return rev
}

// search runs pane.copy_search at the current revision.
func (c copyPane) search(query, dir string, cursor protocol.PaneTextPoint, previous *protocol.PaneTextRange) protocol.PaneCopySearch {
	c.t.Helper()
	p := c.params("query", query, "direction", dir, "cursor", cursor, "content_revision", c.revision())
	if previous != nil {
		p["previous"] = previous
	}
	return copyCall[protocol.PaneCopySearch](c.t, c.s, "pane.copy_search", p, "pane_copy_search")
}

// rowOf is the text row of the only line holding query.
func (c copyPane) rowOf(query string) uint32 {
	c.t.Helper()
	res := c.search(query, "forward", point(0, 0), nil)
	if res.Total != 1 || res.Current == nil {
		c.t.Fatalf("%q: %d matches, want 1", query, res.Total)
	}
	return res.Matches[*res.Current].Start.Row
}

func (c copyPane) read(a, b protocol.PaneTextPoint) string {
	c.t.Helper()
	return copyCall[protocol.PaneSelection](c.t, c.s, "pane.selection.read", c.params("anchor", a, "cursor", b), "pane_selection").Text
}

func (c copyPane) move(from protocol.PaneTextPoint, motion string) protocol.PaneTextPoint {
	c.t.Helper()
	return copyCall[protocol.PaneCopyMotion](c.t, c.s, "pane.copy_motion", c.params("cursor", from, "motion", motion), "pane_copy_motion").Cursor
}

func (c copyPane) info() protocol.PaneInfo {
	c.t.Helper()
	return OK[protocol.PaneInfoResult](c.t, c.s.Call("pane.get", c.params()), "pane_info").Pane
}

// numberedPane prints the numbered lines in the fixture plugin's server.
func numberedPane(t *testing.T, name string) (copyPane, string) {
	_, s, state := linkFixture(t, name)
	c := copyPane{t: t, s: s, pane: "w1:p1"}
	s.Run(t, c.pane, `i=1; while [ $i -le 5000 ]; do echo "numbered line $i."; [ $((i%1000)) -eq 0 ] && echo; i=$((i+1)); done`)
	s.WaitLine(t, c.pane, "numbered line 5000.")
	return c, state
}

func TestProtocol22_CopyScrollSelectionSearch(t *testing.T) {
	c, _ := numberedPane(t, "copy")
	s := c.s
	c.revision()
	scroll := *c.info().Scroll
	top := uint32(scroll.MaxOffsetFromBottom) // the screen's top row
	if top+uint32(scroll.ViewportRows) < 5000 {
		t.Fatalf("only %d rows of text: the whole output is not kept", top+uint32(scroll.ViewportRows))
	}

	// pane.scroll answers the pane's PaneInfo with the new position, and
	// the pane keeps it; past the history it is clamped. A screen watcher
	// gets the view's rows.
	watch := s.Dial(t)
	defer watch.Close()
	_ = watch.Conn().SetDeadline(time.Now().Add(waitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{c.pane}}})
	if err := watch.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	got := OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.params("offset_from_bottom", 100)), "pane_info").Pane
	if got.Scroll == nil || got.Scroll.OffsetFromBottom != 100 {
		t.Fatalf("pane.scroll 100 answered scroll %+v", got.Scroll)
	}
	viewTop := c.read(point(top-100, 0), point(top-100, 300))
	for shown := false; !shown; {
		line, err := watch.ReadLine()
		if err != nil {
			t.Fatalf("no frame of the scrolled view: %v", err)
		}
		ValidateIfResponse(t, line) // screen.subscribe's answer
		var push struct {
			Event string               `json:"event"`
			Data  protocol.ScreenFrame `json:"data"`
		}
		if json.Unmarshal(line, &push) != nil || push.Event != protocol.ScreenFrameEvent || push.Data.ViewOffset != 100 {
			continue
		}
		for _, l := range push.Data.Lines {
			var text strings.Builder
			for _, r := range l.Runs {
				text.WriteString(r.Text)
			}
			shown = shown || l.Y == 0 && strings.TrimSpace(text.String()) == viewTop
		}
	}
	if now := c.info().Scroll; now.OffsetFromBottom != 100 {
		t.Fatalf("pane.get after the scroll: %+v", now)
	}
	got = OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.params("offset_from_bottom", 1<<40)), "pane_info").Pane
	if got.Scroll.OffsetFromBottom != got.Scroll.MaxOffsetFromBottom {
		t.Fatalf("pane.scroll past the history: %+v, want it clamped to the top", got.Scroll)
	}
	got = OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.params("offset_from_bottom", 0)), "pane_info").Pane
	if got.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("pane.scroll 0: %+v", got.Scroll)
	}

	// A selection from three rows of history into the screen.
	text := c.read(point(top-3, 0), point(top+2, 200))
	lines := strings.Split(text, "\n")
	if len(lines) != 6 {
		t.Fatalf("selection over the history/screen boundary has %d lines:\n%s", len(lines), text)
	}
	var first int
	if _, err := fmt.Sscanf(lines[0], "numbered line %d.", &first); err != nil {
		t.Fatalf("selection starts %q", lines[0])
	}
	for i, l := range lines {
		if want := fmt.Sprintf("numbered line %d.", first+i); l != want && l != "" {
			t.Fatalf("selection line %d is %q, want %q:\n%s", i, l, want, text)
		}
	}
	if row := c.rowOf(fmt.Sprintf("line %d.", first)); row != top-3 {
		t.Fatalf("the selection's first line is at row %d, want %d", row, top-3)
	}
	// Either order, the same text; the first history line is there too.
	if back := c.read(point(top+2, 200), point(top-3, 0)); back != text {
		t.Fatalf("selection read backwards differs:\n%s", back)
	}
	row1 := c.rowOf("numbered line 1.")
	if got := c.read(point(row1, 0), point(row1, 300)); got != "numbered line 1." {
		t.Fatalf("history line 1 reads %q", got)
	}

	// Search from the bottom to line 1 of the history, both ways (one
	// match: forward wraps round to it, backward runs up to it).
	bottom := point(top+uint32(scroll.ViewportRows)-1, 0)
	for _, dir := range []string{"forward", "backward"} {
		res := c.search("numbered line 1.", dir, bottom, nil)
		if res.Total != 1 || *res.CurrentGlobal != 0 || res.Matches[0] != (protocol.PaneTextRange{Start: point(row1, 0), End: point(row1, 15)}) {
			t.Fatalf("%s search for line 1: %+v", dir, res)
		}
	}
	// Smart case: an upper-case letter makes it exact.
	if res := c.search("NUMBERED LINE 1.", "forward", bottom, nil); res.Total != 0 || res.Current != nil {
		t.Fatalf("upper-case query matched: %+v", res)
	}
	if res := c.search("NuMbErEd line 1.", "forward", bottom, nil); res.Total != 0 {
		t.Fatalf("mixed-case query matched: %+v", res)
	}
	// Many matches: all counted, at most 1024 listed around the current.
	res := c.search("numbered line", "backward", bottom, nil)
	if res.Total < 5000 || len(res.Matches) != protocol.CopySearchMaxMatches || res.Current == nil || res.CurrentGlobal == nil {
		t.Fatalf("numbered line: total %d, %d listed", res.Total, len(res.Matches))
	}
	cur := res.Matches[*res.Current]
	if got := c.read(cur.Start, point(cur.Start.Row, 300)); got != "numbered line 5000." {
		t.Fatalf("backward from the bottom landed on %q", got)
	}
	// Again from there, passing the match: the one above.
	next := c.search("numbered line", "backward", cur.Start, &cur)
	if *next.CurrentGlobal != *res.CurrentGlobal-1 {
		t.Fatalf("previous did not move on: %d then %d", *res.CurrentGlobal, *next.CurrentGlobal)
	}

	// A stale revision is refused; a missing one is bad params.
	rev := c.revision()
	copyFail(t, s, "pane.copy_search", c.params("query", "x", "direction", "forward", "cursor", point(0, 0), "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.selection.read", c.params("anchor", point(0, 0), "cursor", point(0, 5), "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.copy_motion", c.params("cursor", point(0, 0), "motion", "line_end", "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.copy_search", c.params("query", "x", "direction", "forward", "cursor", point(0, 0)), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_search", c.params("query", strings.Repeat("x", protocol.CopySearchMaxQuery+1), "direction", "forward", "cursor", point(0, 0), "content_revision", rev), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_motion", c.params("cursor", point(0, 0), "motion", "sideways"), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_motion", map[string]any{"pane_id": "w9:p9", "cursor": point(0, 0), "motion": "line_end"}, protocol.CodePaneNotFound)
	copyFail(t, s, "pane.scroll", map[string]any{"pane_id": "w9:p9", "offset_from_bottom": 1}, protocol.CodePaneNotFound)
}

func TestProtocol22_CopyMotions(t *testing.T) {
	c, _ := numberedPane(t, "motion")
	c.revision()
	r := c.rowOf("numbered line 1500.")
	blank1000 := c.rowOf("numbered line 1000.") + 1
	blank2000 := c.rowOf("numbered line 2000.") + 1
	cases := []struct {
		motion string
		from   protocol.PaneTextPoint
		want   protocol.PaneTextPoint
	}{
		{"line_end", point(r, 0), point(r, 18)},
		{"first_non_blank", point(r, 6), point(r, 0)},
		{"next_word_start", point(r, 0), point(r, 9)},
		{"previous_word_start", point(r, 9), point(r, 0)},
		{"next_word_end", point(r, 0), point(r, 7)},
		{"next_word_end", point(r, 16), point(r, 17)}, // "1500" then "."
		{"next_big_word_start", point(r, 14), point(r+1, 0)},
		{"previous_big_word_start", point(r, 0), point(r-1, 14)},
		{"next_big_word_end", point(r, 14), point(r, 18)},
		{"previous_paragraph", point(r, 3), point(blank1000, 3)},
		{"next_paragraph", point(r, 3), point(blank2000, 3)},
	}
	for _, tc := range cases {
		if got := c.move(tc.from, tc.motion); got != tc.want {
			t.Errorf("%s from %+v: %+v, want %+v", tc.motion, tc.from, got, tc.want)
		}
	}
}

func TestProtocol22_Links(t *testing.T) {
	_, s, state := linkFixture(t, "links")
	c := copyPane{t: t, s: s, pane: "w1:p1"}
	// Filler lines first, so that the view can scroll back.
	s.Run(t, c.pane, `i=0; while [ $i -lt 60 ]; do echo filler; i=$((i+1)); done; printf '\033]8;;https://herdr.dev/docs\033\\osc link\033]8;;\033\\ https://example.com/issues/7 (https://example.com/plain).\n'`)
	s.WaitLine(t, c.pane, "osc link https://example.com/issues/7 (https://example.com/plain).")
	c.revision()
	info := c.info()
	top := uint32(info.Scroll.MaxOffsetFromBottom)
	// The output line is the last row holding "osc link" (the command
	// line above it holds the text too).
	res := c.search("osc link", "backward", point(top+uint32(info.Scroll.ViewportRows)-1, 0), nil)
	row := res.Matches[*res.Current].Start.Row
	vrow := uint16(row - top)
	if got := c.read(point(row, 0), point(row, 300)); !strings.HasPrefix(got, "osc link https") {
		t.Fatalf("link row reads %q", got)
	}
	resolve := func(col int) protocol.PaneLinkResolved {
		return copyCall[protocol.PaneLinkResolved](t, s, "pane.link.resolve", c.params("viewport_row", vrow, "col", col), "pane_link_resolved")
	}
	osc := resolve(2)
	if osc.URL == nil || *osc.URL != "https://herdr.dev/docs" || len(osc.Regions) != 1 || osc.Regions[0] != (protocol.PaneLinkRegion{Row: vrow, StartCol: 0, EndCol: 7}) {
		t.Fatalf("OSC 8 link: %+v", osc)
	}
	plain := resolve(40)
	if plain.URL == nil || *plain.URL != "https://example.com/plain" || len(plain.Regions) != 1 || plain.Regions[0] != (protocol.PaneLinkRegion{Row: vrow, StartCol: 39, EndCol: 63}) {
		t.Fatalf("plain URL: %+v", plain)
	}
	if none := resolve(8); none.URL != nil || len(none.Regions) != 0 {
		t.Fatalf("a blank cell has a link: %+v", none)
	}

	activate := func(col int) protocol.PaneLinkActivated {
		return copyCall[protocol.PaneLinkActivated](t, s, "pane.link.activate", c.params("viewport_row", vrow, "col", col), "pane_link_activated")
	}
	// The issue link matches the fixture plugin's handler, which runs.
	if got := activate(12); !got.Handled || got.URL == nil || *got.URL != "https://example.com/issues/7" {
		t.Fatalf("issue link: %+v", got)
	}
	var clicked string
	WaitFor(t, "the link handler's action", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "clicked"))
		clicked = strings.TrimSpace(string(b))
		return err == nil && clicked != ""
	})
	if want := "issue|https://example.com/issues/7|w1:p1|test.worktree-notes.link"; clicked != want {
		t.Fatalf("the handler ran with %q, want %q", clicked, want)
	}
	// No handler takes the others: the caller gets the URL to open.
	if got := activate(2); got.Handled || got.URL == nil || *got.URL != "https://herdr.dev/docs" {
		t.Fatalf("OSC 8 link: %+v", got)
	}
	if got := activate(8); got.Handled || got.URL != nil {
		t.Fatalf("no link: %+v", got)
	}
	// The view scrolled back: the same cell is another row of the text.
	copyFail(t, s, "pane.link.resolve", c.params("viewport_row", vrow, "col", 2, "content_revision", c.revision()+1), protocol.CodeStaleContentRevision)
	if got := copyCall[protocol.PaneLinkResolved](t, s, "pane.link.resolve", c.params("viewport_row", vrow+1, "col", 2, "offset_from_bottom", 1), "pane_link_resolved"); got.URL == nil || *got.URL != "https://herdr.dev/docs" || got.Regions[0].Row != vrow+1 {
		t.Fatalf("resolve in a view one row back: %+v", got)
	}
}
