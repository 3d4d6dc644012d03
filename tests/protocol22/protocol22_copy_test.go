//go:build unix

package protocol22

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Protocol 22's copy-mode and link methods against the real binary: a
// pane prints 5,000 numbered lines (a blank one after every thousandth),
// then the methods work on its whole history and screen. Every answer is
// validated (s.Call): the protocol-20 reference has none of their result
// types, so our printed schema judges them.

// copyFail calls method and checks that it fails with code.
func copyFail(t *testing.T, s *Server, method string, params map[string]any, code string) {
	t.Helper()
	Fail(t, s.CallT(t, method, params), code)
}

// numberedPane prints the numbered lines in the fixture plugin's server.
func numberedPane(t *testing.T, name string) (CopyPane, string) {
	_, s, state := LinkFixture(t, name)
	c := CopyPane{T: t, S: s, Pane: "w1:p1"}
	s.Run(t, c.Pane, `i=1; while [ $i -le 5000 ]; do echo "numbered line $i."; [ $((i%1000)) -eq 0 ] && echo; i=$((i+1)); done`)
	s.WaitLine(t, c.Pane, "numbered line 5000.")
	return c, state
}

func TestProtocol22_CopyScrollSelectionSearch(t *testing.T) {
	c, _ := numberedPane(t, "copy")
	s := c.S
	c.Revision()
	scroll := *c.Info().Scroll
	top := uint32(scroll.MaxOffsetFromBottom) // the screen's top row
	if top+uint32(scroll.ViewportRows) < 5000 {
		t.Fatalf("only %d rows of text: the whole output is not kept", top+uint32(scroll.ViewportRows))
	}

	// pane.scroll answers the pane's PaneInfo with the new position, and
	// the pane keeps it; past the history it is clamped. A screen watcher
	// gets the view's rows.
	watch := s.Dial(t)
	defer watch.Close()
	_ = watch.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{c.Pane}}})
	if err := watch.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	got := OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.Params("offset_from_bottom", 100)), "pane_info").Pane
	if got.Scroll == nil || got.Scroll.OffsetFromBottom != 100 {
		t.Fatalf("pane.scroll 100 answered scroll %+v", got.Scroll)
	}
	viewTop := c.Read(Point(top-100, 0), Point(top-100, 300))
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
	if now := c.Info().Scroll; now.OffsetFromBottom != 100 {
		t.Fatalf("pane.get after the scroll: %+v", now)
	}
	got = OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.Params("offset_from_bottom", 1<<40)), "pane_info").Pane
	if got.Scroll.OffsetFromBottom != got.Scroll.MaxOffsetFromBottom {
		t.Fatalf("pane.scroll past the history: %+v, want it clamped to the top", got.Scroll)
	}
	got = OK[protocol.PaneInfoResult](t, s.Call("pane.scroll", c.Params("offset_from_bottom", 0)), "pane_info").Pane
	if got.Scroll.OffsetFromBottom != 0 {
		t.Fatalf("pane.scroll 0: %+v", got.Scroll)
	}

	// A selection from three rows of history into the screen.
	text := c.Read(Point(top-3, 0), Point(top+2, 200))
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
	if row := c.RowOf(fmt.Sprintf("line %d.", first)); row != top-3 {
		t.Fatalf("the selection's first line is at row %d, want %d", row, top-3)
	}
	// Either order, the same text; the first history line is there too.
	if back := c.Read(Point(top+2, 200), Point(top-3, 0)); back != text {
		t.Fatalf("selection read backwards differs:\n%s", back)
	}
	row1 := c.RowOf("numbered line 1.")
	if got := c.Read(Point(row1, 0), Point(row1, 300)); got != "numbered line 1." {
		t.Fatalf("history line 1 reads %q", got)
	}

	// Search from the bottom to line 1 of the history, both ways (one
	// match: forward wraps round to it, backward runs up to it).
	bottom := Point(top+uint32(scroll.ViewportRows)-1, 0)
	for _, dir := range []string{"forward", "backward"} {
		res := c.Search("numbered line 1.", dir, bottom, nil)
		if res.Total != 1 || *res.CurrentGlobal != 0 || res.Matches[0] != (protocol.PaneTextRange{Start: Point(row1, 0), End: Point(row1, 15)}) {
			t.Fatalf("%s search for line 1: %+v", dir, res)
		}
	}
	// Smart case: an upper-case letter makes it exact.
	if res := c.Search("NUMBERED LINE 1.", "forward", bottom, nil); res.Total != 0 || res.Current != nil {
		t.Fatalf("upper-case query matched: %+v", res)
	}
	if res := c.Search("NuMbErEd line 1.", "forward", bottom, nil); res.Total != 0 {
		t.Fatalf("mixed-case query matched: %+v", res)
	}
	// Many matches: all counted, at most 1024 listed around the current.
	res := c.Search("numbered line", "backward", bottom, nil)
	if res.Total < 5000 || len(res.Matches) != protocol.CopySearchMaxMatches || res.Current == nil || res.CurrentGlobal == nil {
		t.Fatalf("numbered line: total %d, %d listed", res.Total, len(res.Matches))
	}
	cur := res.Matches[*res.Current]
	if got := c.Read(cur.Start, Point(cur.Start.Row, 300)); got != "numbered line 5000." {
		t.Fatalf("backward from the bottom landed on %q", got)
	}
	// Again from there, passing the match: the one above.
	next := c.Search("numbered line", "backward", cur.Start, &cur)
	if *next.CurrentGlobal != *res.CurrentGlobal-1 {
		t.Fatalf("previous did not move on: %d then %d", *res.CurrentGlobal, *next.CurrentGlobal)
	}

	// A stale revision is refused; a missing one is bad params.
	rev := c.Revision()
	copyFail(t, s, "pane.copy_search", c.Params("query", "x", "direction", "forward", "cursor", Point(0, 0), "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.selection.read", c.Params("anchor", Point(0, 0), "cursor", Point(0, 5), "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.copy_motion", c.Params("cursor", Point(0, 0), "motion", "line_end", "content_revision", rev+1000), protocol.CodeStaleContentRevision)
	copyFail(t, s, "pane.copy_search", c.Params("query", "x", "direction", "forward", "cursor", Point(0, 0)), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_search", c.Params("query", strings.Repeat("x", protocol.CopySearchMaxQuery+1), "direction", "forward", "cursor", Point(0, 0), "content_revision", rev), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_motion", c.Params("cursor", Point(0, 0), "motion", "sideways"), protocol.CodeInvalidParams)
	copyFail(t, s, "pane.copy_motion", map[string]any{"pane_id": "w9:p9", "cursor": Point(0, 0), "motion": "line_end"}, protocol.CodePaneNotFound)
	copyFail(t, s, "pane.scroll", map[string]any{"pane_id": "w9:p9", "offset_from_bottom": 1}, protocol.CodePaneNotFound)
}

func TestProtocol22_CopyMotions(t *testing.T) {
	c, _ := numberedPane(t, "motion")
	c.Revision()
	r := c.RowOf("numbered line 1500.")
	blank1000 := c.RowOf("numbered line 1000.") + 1
	blank2000 := c.RowOf("numbered line 2000.") + 1
	cases := []struct {
		motion string
		from   protocol.PaneTextPoint
		want   protocol.PaneTextPoint
	}{
		{"line_end", Point(r, 0), Point(r, 18)},
		{"first_non_blank", Point(r, 6), Point(r, 0)},
		{"next_word_start", Point(r, 0), Point(r, 9)},
		{"previous_word_start", Point(r, 9), Point(r, 0)},
		{"next_word_end", Point(r, 0), Point(r, 7)},
		{"next_word_end", Point(r, 16), Point(r, 17)}, // "1500" then "."
		{"next_big_word_start", Point(r, 14), Point(r+1, 0)},
		{"previous_big_word_start", Point(r, 0), Point(r-1, 14)},
		{"next_big_word_end", Point(r, 14), Point(r, 18)},
		{"previous_paragraph", Point(r, 3), Point(blank1000, 3)},
		{"next_paragraph", Point(r, 3), Point(blank2000, 3)},
	}
	for _, tc := range cases {
		if got := c.Move(tc.from, tc.motion); got != tc.want {
			t.Errorf("%s from %+v: %+v, want %+v", tc.motion, tc.from, got, tc.want)
		}
	}
}

func TestProtocol22_Links(t *testing.T) {
	_, s, state := LinkFixture(t, "links")
	c := CopyPane{T: t, S: s, Pane: "w1:p1"}
	// Filler lines first, so that the view can scroll back.
	s.Run(t, c.Pane, `i=0; while [ $i -lt 60 ]; do echo filler; i=$((i+1)); done; printf '\033]8;;https://herdr.dev/docs\033\\osc link\033]8;;\033\\ https://example.com/issues/7 (https://example.com/plain).\n'`)
	s.WaitLine(t, c.Pane, "osc link https://example.com/issues/7 (https://example.com/plain).")
	c.Revision()
	info := c.Info()
	top := uint32(info.Scroll.MaxOffsetFromBottom)
	// The output line is the last row holding "osc link" (the command
	// line above it holds the text too).
	res := c.Search("osc link", "backward", Point(top+uint32(info.Scroll.ViewportRows)-1, 0), nil)
	row := res.Matches[*res.Current].Start.Row
	vrow := uint16(row - top)
	if got := c.Read(Point(row, 0), Point(row, 300)); !strings.HasPrefix(got, "osc link https") {
		t.Fatalf("link row reads %q", got)
	}
	resolve := func(col int) protocol.PaneLinkResolved {
		return CopyCall[protocol.PaneLinkResolved](t, s, "pane.link.resolve", c.Params("viewport_row", vrow, "col", col), "pane_link_resolved")
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
		return CopyCall[protocol.PaneLinkActivated](t, s, "pane.link.activate", c.Params("viewport_row", vrow, "col", col), "pane_link_activated")
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
	copyFail(t, s, "pane.link.resolve", c.Params("viewport_row", vrow, "col", 2, "content_revision", c.Revision()+1), protocol.CodeStaleContentRevision)
	if got := CopyCall[protocol.PaneLinkResolved](t, s, "pane.link.resolve", c.Params("viewport_row", vrow+1, "col", 2, "offset_from_bottom", 1), "pane_link_resolved"); got.URL == nil || *got.URL != "https://herdr.dev/docs" || got.Regions[0].Row != vrow+1 {
		t.Fatalf("resolve in a view one row back: %+v", got)
	}
}
