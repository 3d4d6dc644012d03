package layout

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The layout and structure methods (issue 4), through the socket and the CLI.
// Every test runs its own server; the tab area is 200×50 ([server]
// headless_cols and headless_rows), which the rects below are worked out for.

// --- helpers -------------------------------------------------------------------

// startLayoutServer starts a server whose tab area is 200×50.
func startLayoutServer(t testing.TB) *Server {
	t.Helper()
	h := NewHome(t)
	h.WriteConfig(t, "[server]\nheadless_cols = 200\nheadless_rows = 50\n")
	return h.Start(t, "e2e")
}

// splitPane splits target in direction and returns the new pane's id.
func splitPane(t testing.TB, s *Server, target, direction string) string {
	t.Helper()
	return OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": target, "direction": direction}), "pane_info").Pane.PaneID
}

// grid makes workspace w1 with a 2×2 grid in w1:t1:
//
//	w1:p1 | w1:p2
//	------+------
//	w1:p3 | w1:p4
func grid(t testing.TB, s *Server) {
	t.Helper()
	s.CreateWorkspace(t, nil)
	for _, c := range []struct{ target, dir, want string }{
		{"w1:p1", "right", "w1:p2"}, {"w1:p1", "down", "w1:p3"}, {"w1:p2", "down", "w1:p4"},
	} {
		if got := splitPane(t, s, c.target, c.dir); got != c.want {
			t.Fatalf("split %s %s = %s, want %s", c.target, c.dir, got, c.want)
		}
	}
}

// ratios lists the split ratios of a layout in tree order.
func ratios(l protocol.PaneLayoutSnapshot) []float64 {
	var out []float64
	for _, sp := range l.Splits {
		out = append(out, sp.Ratio)
	}
	return out
}

func sameRatios(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}

// terminals maps pane ids to terminal ids (the process identity).
func terminals(t testing.TB, s *Server) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, p := range OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list").Panes {
		m[p.PaneID] = p.TerminalID
	}
	return m
}

// wantReason checks an unchanged result's reason.
func wantReason(t testing.TB, what string, changed bool, reason *string, want string) {
	t.Helper()
	if changed || str(reason) != want {
		t.Errorf("%s: changed %v reason %q, want false %q", what, changed, str(reason), want)
	}
}

// cliOK runs a JSON CLI command that must succeed and decodes its result.
func cliOK[T any](t testing.TB, s *Server, want string, args ...string) T {
	t.Helper()
	out, errOut, code := s.CLIT(t, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("herdr %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
	}
	return OK[T](t, CLIResponse(t, out), want)
}

// cliFail runs a CLI command that must fail with an error response (exit 1).
func cliFail(t testing.TB, s *Server, code string, args ...string) {
	t.Helper()
	out, errOut, exit := s.CLIT(t, args...)
	if exit != 1 || out != "" {
		t.Fatalf("herdr %s: exit %d stdout %q, want exit 1 and no stdout", strings.Join(args, " "), exit, out)
	}
	Fail(t, CLIResponse(t, errOut), code)
}

// cliUsage runs a CLI command that must be a usage error (exit 2).
func cliUsage(t testing.TB, s *Server, args ...string) {
	t.Helper()
	out, errOut, code := s.CLIT(t, args...)
	if code != 2 || out != "" || !(strings.HasPrefix(errOut, "herdr: ") || strings.HasPrefix(errOut, "unknown ")) {
		t.Fatalf("herdr %s: exit %d stdout %q stderr %q, want a usage error (exit 2)", strings.Join(args, " "), code, out, errOut)
	}
}

func ids[T any](list []T, id func(T) string) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, id(x))
	}
	return out
}

func workspaceIDs(ws []protocol.WorkspaceInfo) []string {
	return ids(ws, func(w protocol.WorkspaceInfo) string { return w.WorkspaceID })
}

func tabIDs(ts []protocol.TabInfo) []string {
	return ids(ts, func(x protocol.TabInfo) string { return x.TabID })
}

// --- pane.swap -----------------------------------------------------------------

func TestE2E_Layout_Swap_Direction(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	before := PaneLayout(t, s, "w1:p1")
	terms := terminals(t, s)

	sw := OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"pane_id": "w1:p1", "direction": "right"}), "pane_swap").Swap
	if !sw.Changed || sw.Reason != nil || sw.SourcePaneID != "w1:p1" || str(sw.TargetPaneID) != "w1:p2" {
		t.Fatalf("swap right = %+v, want changed w1:p1 ↔ w1:p2", sw)
	}
	if got, want := RectOf(t, sw.Layout, "w1:p1"), RectOf(t, before, "w1:p2"); got != want {
		t.Errorf("w1:p1 rect after swap = %+v, want w1:p2's old %+v", got, want)
	}
	if got, want := RectOf(t, sw.Layout, "w1:p2"), RectOf(t, before, "w1:p1"); got != want {
		t.Errorf("w1:p2 rect after swap = %+v, want w1:p1's old %+v", got, want)
	}
	if !sameRatios(ratios(sw.Layout), ratios(before)) || len(sw.Layout.Splits) != 3 {
		t.Errorf("split shapes changed: %+v, was %+v", sw.Layout.Splits, before.Splits)
	}
	if fmt.Sprint(terminals(t, s)) != fmt.Sprint(terms) {
		t.Errorf("swap changed pane ids or processes: %v, was %v", terminals(t, s), terms)
	}
	if sw.FocusedPaneID != "w1:p1" {
		t.Errorf("focused = %s, want w1:p1 (swap keeps focus)", sw.FocusedPaneID)
	}

	// w1:p1 is now top right: nothing further right, nothing up.
	for _, dir := range []string{"right", "up"} {
		sw = OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"pane_id": "w1:p1", "direction": dir}), "pane_swap").Swap
		wantReason(t, "swap "+dir+" at the edge", sw.Changed, sw.Reason, "no_neighbor")
		if sw.TargetPaneID != nil {
			t.Errorf("no_neighbor swap names target %s", *sw.TargetPaneID)
		}
	}
	if got := RectOf(t, PaneLayout(t, s, "w1:p1"), "w1:p1"); got != RectOf(t, before, "w1:p2") {
		t.Errorf("a refused swap moved w1:p1 to %+v", got)
	}
	Fail(t, s.Call("pane.swap", map[string]any{"pane_id": "w1:p1", "direction": "sideways"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.swap", map[string]any{"pane_id": "w1:p1"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.swap", map[string]any{"pane_id": "w9:p9", "direction": "left"}), protocol.CodePaneNotFound)

	// Without a pane, the focused pane swaps (w1:p1, now top right).
	sw = OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"direction": "down"}), "pane_swap").Swap
	if !sw.Changed || sw.SourcePaneID != "w1:p1" || str(sw.TargetPaneID) != "w1:p4" {
		t.Errorf("swap down of the focused pane = %+v, want w1:p1 ↔ w1:p4", sw)
	}

	// CLI: --direction with --pane; a usage error; an unchanged swap still exits 0.
	sw = cliOK[protocol.PaneSwap](t, s, "pane_swap", "pane", "swap", "--direction", "left", "--pane", "w1:p1").Swap
	if !sw.Changed || str(sw.TargetPaneID) != "w1:p3" {
		t.Errorf("CLI swap left = %+v, want w1:p1 ↔ w1:p3", sw)
	}
	sw = cliOK[protocol.PaneSwap](t, s, "pane_swap", "pane", "swap", "--direction", "left", "--pane", "w1:p1").Swap
	wantReason(t, "CLI swap left at the edge", sw.Changed, sw.Reason, "no_neighbor")
	cliUsage(t, s, "pane", "swap", "--direction", "north")
	cliFail(t, s, protocol.CodePaneNotFound, "pane", "swap", "--direction", "left", "--pane", "w1:p99")
}

func TestE2E_Layout_Swap_SourceTarget(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	before := PaneLayout(t, s, "w1:p1")

	sw := OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"source_pane_id": "w1:p1", "target_pane_id": "w1:p4"}), "pane_swap").Swap
	if !sw.Changed || sw.SourcePaneID != "w1:p1" || str(sw.TargetPaneID) != "w1:p4" {
		t.Fatalf("swap p1 p4 = %+v", sw)
	}
	if RectOf(t, sw.Layout, "w1:p4") != RectOf(t, before, "w1:p1") || RectOf(t, sw.Layout, "w1:p1") != RectOf(t, before, "w1:p4") {
		t.Errorf("rects after swap: %+v", sw.Layout.Panes)
	}

	other := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created").RootPane.PaneID
	for _, c := range []struct{ target, reason string }{
		{"w1:p1", "same_pane"}, {"w1:p99", "not_found"}, {other, "cross_tab"},
	} {
		sw = OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"source_pane_id": "w1:p1", "target_pane_id": c.target}), "pane_swap").Swap
		wantReason(t, "swap with "+c.target, sw.Changed, sw.Reason, c.reason)
		if sw.SourcePaneID != "w1:p1" {
			t.Errorf("swap with %s: source %s, want w1:p1", c.target, sw.SourcePaneID)
		}
	}
	if got := PaneLayout(t, s, "w1:p1"); RectOf(t, got, "w1:p1") != RectOf(t, before, "w1:p4") {
		t.Errorf("a refused swap changed the layout: %+v", got.Panes)
	}

	// A zoomed tab keeps its zoom; the hidden layout changes.
	OK[protocol.PaneZoom](t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p2", "mode": "on"}), "pane_zoom")
	sw = OK[protocol.PaneSwap](t, s.Call("pane.swap", map[string]any{"source_pane_id": "w1:p2", "target_pane_id": "w1:p3"}), "pane_swap").Swap
	if !sw.Changed || !sw.Layout.Zoomed || sw.FocusedPaneID != "w1:p2" {
		t.Errorf("swap in a zoomed tab = changed %v zoomed %v focused %s, want true true w1:p2", sw.Changed, sw.Layout.Zoomed, sw.FocusedPaneID)
	}
	if r := RectOf(t, sw.Layout, "w1:p3"); r != RectOf(t, before, "w1:p2") {
		t.Errorf("hidden rect of w1:p3 = %+v, want w1:p2's old %+v", r, RectOf(t, before, "w1:p2"))
	}

	// CLI: --source-pane/--target-pane, and --target-pane alone (source = --pane).
	sw = cliOK[protocol.PaneSwap](t, s, "pane_swap", "pane", "swap", "--source-pane", "w1:p2", "--target-pane", "w1:p3").Swap
	if !sw.Changed || sw.SourcePaneID != "w1:p2" || str(sw.TargetPaneID) != "w1:p3" {
		t.Errorf("CLI swap = %+v", sw)
	}
	sw = cliOK[protocol.PaneSwap](t, s, "pane_swap", "pane", "swap", "--pane", "w1:p4", "--target-pane", other).Swap
	wantReason(t, "CLI cross-tab swap", sw.Changed, sw.Reason, "cross_tab")
	cliUsage(t, s, "pane", "swap", "--source-pane", "w1:p1")
	cliUsage(t, s, "pane", "swap", "--direction", "left", "--target-pane", "w1:p2")
}

// --- pane.zoom -----------------------------------------------------------------

func TestE2E_Layout_Zoom_ModesAndReasons(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	zoom := func(pane, mode string) protocol.PaneZoomResult {
		t.Helper()
		params := map[string]any{"pane_id": pane}
		if mode != "" {
			params["mode"] = mode
		}
		return OK[protocol.PaneZoom](t, s.Call("pane.zoom", params), "pane_zoom").Zoom
	}
	for _, mode := range []string{"", "toggle", "on"} {
		z := zoom("w1:p1", mode)
		wantReason(t, "zoom "+mode+" of a single pane", z.Changed, z.Reason, "single_pane")
		if z.Zoomed || z.ZoomChanged || z.FocusChanged {
			t.Errorf("single pane zoom %q: %+v", mode, z)
		}
	}
	z := zoom("w1:p1", "off")
	wantReason(t, "zoom off of an unzoomed tab", z.Changed, z.Reason, "already_unzoomed")

	splitPane(t, s, "w1:p1", "right")
	z = zoom("w1:p1", "on")
	if !z.Changed || !z.ZoomChanged || z.FocusChanged || !z.Zoomed || z.Reason != nil || z.FocusedPaneID != "w1:p1" {
		t.Errorf("zoom on = %+v, want changed zoom_changed, not focus_changed", z)
	}
	if !z.Layout.Zoomed || RectOf(t, z.Layout, "w1:p1") != z.Layout.Area {
		t.Errorf("zoomed layout: zoomed %v rect %+v, want the whole area %+v", z.Layout.Zoomed, RectOf(t, z.Layout, "w1:p1"), z.Layout.Area)
	}
	z = zoom("w1:p1", "on")
	wantReason(t, "zoom on twice", z.Changed, z.Reason, "already_zoomed")
	if !z.Zoomed {
		t.Errorf("already_zoomed result says zoomed false")
	}

	// Toggling another pane of a zoomed tab zooms that one instead.
	z = zoom("w1:p2", "toggle")
	if !z.Changed || z.ZoomChanged || !z.FocusChanged || !z.Zoomed || z.FocusedPaneID != "w1:p2" {
		t.Errorf("toggle another pane = %+v, want focus_changed only, zoomed on w1:p2", z)
	}
	// Toggling the zoomed pane unzooms.
	z = zoom("w1:p2", "")
	if !z.Changed || !z.ZoomChanged || z.FocusChanged || z.Zoomed {
		t.Errorf("toggle the zoomed pane = %+v, want unzoom", z)
	}
	z = zoom("w1:p1", "off")
	wantReason(t, "off when unzoomed", z.Changed, z.Reason, "already_unzoomed")
	// on for an unfocused pane: both flags.
	z = zoom("w1:p1", "on")
	if !z.ZoomChanged || !z.FocusChanged || z.FocusedPaneID != "w1:p1" {
		t.Errorf("zoom on of the unfocused pane = %+v, want zoom_changed and focus_changed", z)
	}
	z = zoom("w1:p2", "off")
	if !z.Changed || !z.ZoomChanged || z.Zoomed {
		t.Errorf("off from another pane = %+v, want unzoomed", z)
	}
	Fail(t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p1", "mode": "maybe"}), protocol.CodeInvalidParams)

	// CLI: default toggle, --on, --off, positional and --pane forms.
	z = cliOK[protocol.PaneZoom](t, s, "pane_zoom", "pane", "zoom", "w1:p2").Zoom
	if !z.Zoomed || z.PaneID != "w1:p2" {
		t.Errorf("CLI zoom toggle = %+v", z)
	}
	z = cliOK[protocol.PaneZoom](t, s, "pane_zoom", "pane", "zoom", "--pane", "w1:p2", "--on").Zoom
	wantReason(t, "CLI zoom --on twice", z.Changed, z.Reason, "already_zoomed")
	z = cliOK[protocol.PaneZoom](t, s, "pane_zoom", "pane", "zoom", "w1:p2", "--off").Zoom
	if z.Zoomed || !z.ZoomChanged {
		t.Errorf("CLI zoom --off = %+v", z)
	}
	cliUsage(t, s, "pane", "zoom", "--on", "--off")
	cliFail(t, s, protocol.CodePaneNotFound, "pane", "zoom", "w1:p99")
}

// --- pane.resize ---------------------------------------------------------------

func TestE2E_Layout_Resize_AmountsAndClamp(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	resize := func(pane, dir string, amount float64) protocol.PaneResizeResult {
		t.Helper()
		params := map[string]any{"pane_id": pane, "direction": dir}
		if amount != 0 {
			params["amount"] = amount
		}
		return OK[protocol.PaneResize](t, s.Call("pane.resize", params), "pane_resize").Resize
	}
	r := resize("w1:p1", "right", 0)
	wantReason(t, "resize a single pane", r.Changed, r.Reason, "unchanged")

	splitPane(t, s, "w1:p1", "right")
	r = resize("w1:p1", "right", 0) // default amount 0.05
	if !r.Changed || r.Reason != nil || !sameRatios(ratios(r.Layout), []float64{0.55}) {
		t.Fatalf("resize right by default = changed %v ratios %v, want 0.55", r.Changed, ratios(r.Layout))
	}
	if w := RectOf(t, r.Layout, "w1:p1").Width; w != 110 {
		t.Errorf("w1:p1 width at 0.55 = %d, want 110", w)
	}
	r = resize("w1:p2", "left", 0.2)
	if !r.Changed || !sameRatios(ratios(r.Layout), []float64{0.35}) {
		t.Errorf("resize left 0.2 = ratios %v, want 0.35", ratios(r.Layout))
	}
	r = resize("w1:p1", "left", 0.5) // clamped to 0.1
	if !r.Changed || !sameRatios(ratios(r.Layout), []float64{0.1}) {
		t.Errorf("resize left 0.5 = ratios %v, want clamped 0.1", ratios(r.Layout))
	}
	r = resize("w1:p1", "left", 0)
	wantReason(t, "resize past the clamp", r.Changed, r.Reason, "unchanged")
	r = resize("w1:p1", "down", 0) // no down split encloses it
	wantReason(t, "resize across no split", r.Changed, r.Reason, "unchanged")
	if !sameRatios(ratios(PaneLayout(t, s, "w1:p1")), []float64{0.1}) {
		t.Errorf("unchanged resizes moved the split: %v", ratios(PaneLayout(t, s, "w1:p1")))
	}
	for _, bad := range []float64{0.6, -0.7} {
		Fail(t, s.Call("pane.resize", map[string]any{"pane_id": "w1:p1", "direction": "right", "amount": bad}), protocol.CodeInvalidParams)
	}
	Fail(t, s.Call("pane.resize", map[string]any{"pane_id": "w1:p1", "direction": "across"}), protocol.CodeInvalidParams)

	// Nested: the innermost split across the direction moves.
	splitPane(t, s, "w1:p2", "down") // w1:p3 under w1:p2
	r = resize("w1:p3", "up", 0.1)
	if !r.Changed || !sameRatios(ratios(r.Layout), []float64{0.1, 0.4}) {
		t.Errorf("resize up in the nested split = ratios %v, want [0.1 0.4]", ratios(r.Layout))
	}

	// CLI: default and explicit amounts.
	r = cliOK[protocol.PaneResize](t, s, "pane_resize", "pane", "resize", "--direction", "right", "--pane", "w1:p1").Resize
	if !r.Changed || !sameRatios(ratios(r.Layout), []float64{0.15, 0.4}) {
		t.Errorf("CLI resize = ratios %v, want [0.15 0.4]", ratios(r.Layout))
	}
	r = cliOK[protocol.PaneResize](t, s, "pane_resize", "pane", "resize", "--direction", "down", "--amount", "0.25", "--pane", "w1:p2").Resize
	if !r.Changed || !sameRatios(ratios(r.Layout), []float64{0.15, 0.65}) {
		t.Errorf("CLI resize --amount = ratios %v, want [0.15 0.65]", ratios(r.Layout))
	}
	r = cliOK[protocol.PaneResize](t, s, "pane_resize", "pane", "resize", "--direction", "up", "--pane", "w1:p1").Resize
	wantReason(t, "CLI resize across no split", r.Changed, r.Reason, "unchanged")
	cliUsage(t, s, "pane", "resize", "--pane", "w1:p1")
	cliFail(t, s, protocol.CodeInvalidParams, "pane", "resize", "--direction", "up", "--amount", "0.9", "--pane", "w1:p1")
	// An amount of 0 is a resize that changes nothing, not a bad request.
	zero := OK[protocol.PaneResize](t, s.Call("pane.resize", map[string]any{"pane_id": "w1:p1", "direction": "right", "amount": 0}), "pane_resize").Resize
	wantReason(t, "resize by 0", zero.Changed, zero.Reason, "unchanged")
}

// --- pane.neighbor, pane.edges, pane.focus_direction, pane.layout -------------

func TestE2E_Layout_Neighbor_Grid(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	want := map[string]map[string]string{ // pane → direction → neighbour ("" = none)
		"w1:p1": {"left": "", "up": "", "right": "w1:p2", "down": "w1:p3"},
		"w1:p2": {"left": "w1:p1", "up": "", "right": "", "down": "w1:p4"},
		"w1:p3": {"left": "", "up": "w1:p1", "right": "w1:p4", "down": ""},
		"w1:p4": {"left": "w1:p3", "up": "w1:p2", "right": "", "down": ""},
	}
	for pane, dirs := range want {
		for dir, n := range dirs {
			got := OK[protocol.PaneNeighbor](t, s.Call("pane.neighbor", map[string]any{"pane_id": pane, "direction": dir}), "pane_neighbor").Neighbor
			if got.PaneID != pane || got.Direction != dir || str(got.NeighborPaneID) != n {
				t.Errorf("neighbor %s %s = %+v, want %q", pane, dir, got, n)
			}
		}
	}
	if f := PaneLayout(t, s, "w1:p1").FocusedPaneID; f != "w1:p1" {
		t.Errorf("pane.neighbor changed focus to %s", f)
	}
	// Default pane: the focused one.
	n := OK[protocol.PaneNeighbor](t, s.Call("pane.neighbor", map[string]any{"direction": "down"}), "pane_neighbor").Neighbor
	if n.PaneID != "w1:p1" || str(n.NeighborPaneID) != "w1:p3" {
		t.Errorf("neighbor of the focused pane = %+v", n)
	}
	Fail(t, s.Call("pane.neighbor", map[string]any{"pane_id": "w1:p1"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.neighbor", map[string]any{"pane_id": "w1:p1", "direction": "north"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.neighbor", map[string]any{"pane_id": "w1:p9", "direction": "up"}), protocol.CodePaneNotFound)

	n = cliOK[protocol.PaneNeighbor](t, s, "pane_neighbor", "pane", "neighbor", "--direction", "up", "--pane", "w1:p4").Neighbor
	if str(n.NeighborPaneID) != "w1:p2" {
		t.Errorf("CLI neighbor up of w1:p4 = %+v", n)
	}
	cliUsage(t, s, "pane", "neighbor", "--pane", "w1:p4")
}

func TestE2E_Layout_Edges_Grid(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	want := map[string][4]bool{ // left right up down
		"w1:p1": {true, false, true, false},
		"w1:p2": {false, true, true, false},
		"w1:p3": {true, false, false, true},
		"w1:p4": {false, true, false, true},
	}
	for pane, w := range want {
		e := OK[protocol.PaneEdges](t, s.Call("pane.edges", map[string]any{"pane_id": pane}), "pane_edges").Edges
		if got := [4]bool{e.Left, e.Right, e.Up, e.Down}; got != w || e.PaneID != pane {
			t.Errorf("edges of %s = %v, want %v", pane, got, w)
		}
	}
	e := OK[protocol.PaneEdges](t, s.Call("pane.edges", nil), "pane_edges").Edges
	if e.PaneID != "w1:p1" {
		t.Errorf("edges default pane = %s, want the focused w1:p1", e.PaneID)
	}
	Fail(t, s.Call("pane.edges", map[string]any{"pane_id": "w1:p9"}), protocol.CodePaneNotFound)

	e = cliOK[protocol.PaneEdges](t, s, "pane_edges", "pane", "edges", "--pane", "w1:p4").Edges
	if !e.Right || !e.Down || e.Left || e.Up {
		t.Errorf("CLI edges of w1:p4 = %+v", e)
	}
	cliFail(t, s, protocol.CodePaneNotFound, "pane", "edges", "--pane", "w1:p9")
}

func TestE2E_Layout_FocusDirection_Grid(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	focus := func(pane, dir string) protocol.PaneFocusDirectionResult {
		t.Helper()
		params := map[string]any{"direction": dir}
		if pane != "" {
			params["pane_id"] = pane
		}
		return OK[protocol.PaneFocusDirection](t, s.Call("pane.focus_direction", params), "pane_focus_direction").Focus
	}
	f := focus("w1:p1", "right")
	if !f.Changed || f.Reason != nil || f.SourcePaneID != "w1:p1" || str(f.FocusedPaneID) != "w1:p2" || f.Layout.FocusedPaneID != "w1:p2" {
		t.Fatalf("focus right from w1:p1 = %+v", f)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane.PaneID; cur != "w1:p2" {
		t.Errorf("focused pane after focus right = %s, want w1:p2", cur)
	}
	// From the focused pane (w1:p2), down then left.
	if f = focus("", "down"); str(f.FocusedPaneID) != "w1:p4" || f.SourcePaneID != "w1:p2" {
		t.Errorf("focus down from the focused pane = %+v", f)
	}
	if f = focus("", "left"); str(f.FocusedPaneID) != "w1:p3" {
		t.Errorf("focus left = %+v", f)
	}
	if f = focus("", "up"); str(f.FocusedPaneID) != "w1:p1" {
		t.Errorf("focus up = %+v", f)
	}
	for _, dir := range []string{"left", "up"} {
		f = focus("w1:p1", dir)
		wantReason(t, "focus "+dir+" at the edge", f.Changed, f.Reason, "no_neighbor")
		if f.FocusedPaneID != nil {
			t.Errorf("no_neighbor names a focused pane %s", *f.FocusedPaneID)
		}
	}
	// Focusing the already focused neighbour changes nothing.
	f = focus("w1:p3", "up")
	if f.Changed || str(f.FocusedPaneID) != "w1:p1" {
		t.Errorf("focus onto the focused pane = %+v, want changed false", f)
	}

	// CLI: `pane focus --direction` is focus_direction, `pane focus <p>` is pane.focus.
	f = cliOK[protocol.PaneFocusDirection](t, s, "pane_focus_direction", "pane", "focus", "--direction", "right", "--pane", "w1:p3").Focus
	if !f.Changed || str(f.FocusedPaneID) != "w1:p4" {
		t.Errorf("CLI focus --direction = %+v", f)
	}
	f = cliOK[protocol.PaneFocusDirection](t, s, "pane_focus_direction", "pane", "focus", "--direction", "down").Focus
	wantReason(t, "CLI focus down from w1:p4", f.Changed, f.Reason, "no_neighbor")
	p := cliOK[protocol.PaneInfoResult](t, s, "pane_info", "pane", "focus", "w1:p1").Pane
	if p.PaneID != "w1:p1" || !p.Focused {
		t.Errorf("CLI pane focus <p> = %+v", p)
	}
	cliUsage(t, s, "pane", "focus", "w1:p1", "--direction", "left")
	cliUsage(t, s, "pane", "focus", "--direction", "inward")
}

func TestE2E_Layout_PaneLayout_RectsTileArea(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	grid(t, s)
	splitPane(t, s, "w1:p4", "right")
	splitPane(t, s, "w1:p1", "down")
	OK[protocol.PaneResize](t, s.Call("pane.resize", map[string]any{"pane_id": "w1:p2", "direction": "left", "amount": 0.13}), "pane_resize")

	l := PaneLayout(t, s, "w1:p4")
	if l.Area != (protocol.Rect{X: 0, Y: 0, Width: 200, Height: 50}) {
		t.Fatalf("area = %+v, want 200×50 at 0,0", l.Area)
	}
	if l.TabID != "w1:t1" || l.WorkspaceID != "w1" || l.Zoomed || len(l.Panes) != 6 || len(l.Splits) != 5 {
		t.Fatalf("layout = %+v, want w1:t1 with 6 panes and 5 splits", l)
	}
	cells := make([][]string, 50)
	for y := range cells {
		cells[y] = make([]string, 200)
	}
	focused := 0
	for _, p := range l.Panes {
		r := p.Rect
		if r.Width < 1 || r.Height < 1 || r.X < 0 || r.Y < 0 || r.X+r.Width > 200 || r.Y+r.Height > 50 {
			t.Fatalf("pane %s rect %+v is outside the area", p.PaneID, r)
		}
		for y := r.Y; y < r.Y+r.Height; y++ {
			for x := r.X; x < r.X+r.Width; x++ {
				if cells[y][x] != "" {
					t.Fatalf("panes %s and %s overlap at %d,%d", cells[y][x], p.PaneID, x, y)
				}
				cells[y][x] = p.PaneID
			}
		}
		if p.Focused {
			focused++
			if p.PaneID != l.FocusedPaneID {
				t.Errorf("pane %s flagged focused, focused_pane_id is %s", p.PaneID, l.FocusedPaneID)
			}
		}
	}
	for y := range cells {
		for x := range cells[y] {
			if cells[y][x] == "" {
				t.Fatalf("cell %d,%d belongs to no pane", x, y)
			}
		}
	}
	if focused != 1 {
		t.Errorf("%d panes flagged focused, want 1", focused)
	}
	if l.Splits[0].Rect != l.Area || l.Splits[0].ID == "" {
		t.Errorf("root split = %+v, want the whole area", l.Splits[0])
	}

	// Default target is the focused pane's tab; the CLI prints the same.
	if d := PaneLayout(t, s, ""); fmt.Sprint(d) != fmt.Sprint(l) {
		t.Errorf("pane.layout without pane_id differs:\n%+v\n%+v", d, l)
	}
	if c := cliOK[protocol.PaneLayout](t, s, "pane_layout", "pane", "layout", "--pane", "w1:p1").Layout; fmt.Sprint(c) != fmt.Sprint(l) {
		t.Errorf("CLI pane layout differs:\n%+v\n%+v", c, l)
	}
	Fail(t, s.Call("pane.layout", map[string]any{"pane_id": "w1:p77"}), protocol.CodePaneNotFound)
	// The pane as an argument is the same as --pane; both at once is a usage error.
	if c := cliOK[protocol.PaneLayout](t, s, "pane_layout", "pane", "layout", "w1:p1").Layout; fmt.Sprint(c) != fmt.Sprint(l) {
		t.Errorf("CLI pane layout w1:p1 differs:\n%+v\n%+v", c, l)
	}
	cliUsage(t, s, "pane", "layout", "w1:p1", "--pane", "w1:p2")
}

// --- pane.input.set --------------------------------------------------------------

func TestE2E_Layout_InputSet(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.OK](t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p1", "right_click": "pane"}), "ok")
	OK[protocol.OK](t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p1", "right_click": "herdr"}), "ok")
	Fail(t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p1", "right_click": "mouse"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p1"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.input.set", map[string]any{"pane_id": "w1:p5", "right_click": "pane"}), protocol.CodePaneNotFound)

	cliOK[protocol.OK](t, s, "ok", "pane", "input", "w1:p1", "--right-click", "pane")
	cliOK[protocol.OK](t, s, "ok", "pane", "input", "--pane", "w1:p1", "--right-click", "herdr")
	cliFail(t, s, protocol.CodePaneNotFound, "pane", "input", "w1:p5", "--right-click", "pane")
	cliUsage(t, s, "pane", "input", "w1:p1", "--right-click", "mouse")
	cliUsage(t, s, "pane", "input", "--right-click", "pane")
	// pane split takes --right-click too.
	p := cliOK[protocol.PaneInfoResult](t, s, "pane_info", "pane", "split", "w1:p1", "--direction", "down", "--right-click", "pane").Pane
	if p.PaneID != "w1:p2" {
		t.Errorf("split --right-click made %s", p.PaneID)
	}
}

// --- layout.export, layout.apply, layout.set_split_ratio ------------------------

func TestE2E_Layout_Export_SplitTab(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	dir := Mkdir(t, s, "proj")
	s.CreateWorkspace(t, map[string]any{"cwd": dir})
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down", "ratio": 0.3}), "pane_info")
	OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2", "label": "logs"}), "pane_info")

	l := OK[protocol.LayoutExport](t, s.Call("layout.export", map[string]any{"tab_id": "w1:t1"}), "layout_export").Layout
	if l.TabID != "w1:t1" || l.WorkspaceID != "w1" || l.Zoomed || l.FocusedPaneID != "w1:p1" {
		t.Errorf("export header = %+v", l)
	}
	r := l.Root
	if r.Type != "split" || r.Direction != "down" || r.Ratio == nil || *r.Ratio != 0.3 || r.First == nil || r.Second == nil {
		t.Fatalf("export root = %+v, want a down split at 0.3", r)
	}
	for _, c := range []struct {
		n           *protocol.LayoutNode
		id, label   string
		cwd         string
		wantCommand bool
	}{{r.First, "w1:p1", "", dir, false}, {r.Second, "w1:p2", "logs", dir, false}} {
		if c.n.Type != "pane" || str(c.n.PaneID) != c.id || str(c.n.Label) != c.label || str(c.n.Cwd) != c.cwd {
			t.Errorf("export leaf = type %s id %s label %q cwd %q, want %s %q %s", c.n.Type, str(c.n.PaneID), str(c.n.Label), str(c.n.Cwd), c.id, c.label, c.cwd)
		}
	}

	// By pane, by focus, through the CLI: the same tree.
	byPane := OK[protocol.LayoutExport](t, s.Call("layout.export", map[string]any{"pane_id": "w1:p2"}), "layout_export").Layout
	byFocus := OK[protocol.LayoutExport](t, s.Call("layout.export", nil), "layout_export").Layout
	cli := cliOK[protocol.LayoutExport](t, s, "layout_export", "layout", "export", "--tab", "w1:t1").Layout
	want, _ := json.Marshal(l)
	for name, got := range map[string]protocol.LayoutDescription{"pane_id": byPane, "focused": byFocus, "CLI": cli} {
		if b, _ := json.Marshal(got); string(b) != string(want) {
			t.Errorf("export by %s = %s, want %s", name, b, want)
		}
	}
	Fail(t, s.Call("layout.export", map[string]any{"tab_id": "w1:t9"}), protocol.CodeTabNotFound)
	cliFail(t, s, protocol.CodePaneNotFound, "layout", "export", "--pane", "w1:p9")
	cliUsage(t, s, "layout", "export", "--tab", "w1:t1", "--pane", "w1:p1")
}

// TestE2E_Layout_Export_CwdAfterCd: an exported pane's cwd is where its
// shell is now. A `cd` typed right after the prompt appears (as scripts do)
// must show up; the server refreshes the foreground cwd only on output, at
// most every 500 ms, so a quiet `cd` inside that window is never seen.
func TestE2E_Layout_Export_CwdAfterCd(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	dir := Mkdir(t, s, "elsewhere")
	s.CreateWorkspace(t, nil)
	s.Run(t, "w1:p1", "cd "+dir)
	var cwd, fg string
	if !Eventually(func() bool {
		cwd = str(OK[protocol.LayoutExport](t, s.Call("layout.export", map[string]any{"tab_id": "w1:t1"}), "layout_export").Layout.Root.Cwd)
		return cwd == dir
	}) {
		fg = str(OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info").Pane.ForegroundCwd)
		t.Errorf("after `cd %s`, layout.export cwd = %q and pane.get foreground_cwd = %q, want %s", dir, cwd, fg, dir)
	}
}

func TestE2E_Layout_Apply_TreeCwdCommand(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	left, right := Mkdir(t, s, "left"), Mkdir(t, s, "right")
	s.CreateWorkspace(t, nil)
	root := map[string]any{
		"type": "split", "direction": "right", "ratio": 0.4,
		"first": map[string]any{"type": "pane", "label": "editor", "cwd": left},
		"second": map[string]any{
			"type": "split", "direction": "down", "ratio": 0.5,
			"first":  map[string]any{"type": "pane", "cwd": right, "env": map[string]string{"LAYOUT_VAR": "from-layout"}},
			"second": map[string]any{"type": "pane", "label": "cmd", "command": []string{"sh", "-c", "echo applied; exec sh"}},
		},
	}
	l := OK[protocol.LayoutApply](t, s.Call("layout.apply", map[string]any{"root": root, "tab_label": "dev"}), "layout_apply").Layout
	if l.WorkspaceID != "w1" || l.TabID != "w1:t2" || l.Root.Type != "split" || l.Root.Ratio == nil || *l.Root.Ratio != 0.4 {
		t.Fatalf("apply = %+v", l)
	}
	ed, sh, cmd := l.Root.First, l.Root.Second.First, l.Root.Second.Second
	if str(ed.Label) != "editor" || str(ed.Cwd) != left || str(sh.Cwd) != right || str(cmd.Label) != "cmd" {
		t.Errorf("applied leaves: %+v / %+v / %+v", ed, sh, cmd)
	}
	if l.FocusedPaneID != str(ed.PaneID) {
		t.Errorf("focused pane of the new tab = %s, want the first leaf %s", l.FocusedPaneID, str(ed.PaneID))
	}
	tab := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "w1:t2"}), "tab_info").Tab
	if tab.Label != "dev" || tab.PaneCount != 3 || tab.Focused {
		t.Errorf("new tab = %+v, want label dev, 3 panes, not focused", tab)
	}
	s.Run(t, str(ed.PaneID), "pwd")
	waitOutput(t, s, str(ed.PaneID), left)
	s.Run(t, str(sh.PaneID), "pwd; echo $LAYOUT_VAR")
	waitOutput(t, s, str(sh.PaneID), right)
	waitOutput(t, s, str(sh.PaneID), "from-layout")
	waitOutput(t, s, str(cmd.PaneID), "applied")
	if ex := OK[protocol.LayoutExport](t, s.Call("layout.export", map[string]any{"tab_id": "w1:t2"}), "layout_export").Layout; !slices.Equal(ex.Root.Second.Second.Command, []string{"sh", "-c", "echo applied; exec sh"}) {
		t.Errorf("exported command = %q", ex.Root.Second.Second.Command)
	}

	// With tab_id the new tab replaces that one (w1:t1, the focused tab).
	one := map[string]any{"type": "pane", "cwd": right}
	r := OK[protocol.LayoutApply](t, s.Call("layout.apply", map[string]any{"root": one, "tab_id": "w1:t1", "tab_label": "fresh"}), "layout_apply").Layout
	if r.WorkspaceID != "w1" || r.TabID == "w1:t1" {
		t.Errorf("replacement = %+v", r)
	}
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), protocol.CodeTabNotFound)
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), protocol.CodePaneNotFound)
	tabs := OK[protocol.TabList](t, s.Call("tab.list", map[string]any{"workspace_id": "w1"}), "tab_list").Tabs
	if !slices.Contains(tabIDs(tabs), r.TabID) || len(tabs) != 2 {
		t.Errorf("tabs after replace = %v, want w1:t2 and %s", tabIDs(tabs), r.TabID)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.TabID != r.TabID {
		t.Errorf("replacing the focused tab left focus on %s, want %s", cur.TabID, r.TabID)
	}

	// Invalid trees: nothing starts.
	panes := len(s.PaneIDs(t))
	for name, bad := range map[string]any{
		"unknown type":  map[string]any{"type": "triangle"},
		"no ratio":      map[string]any{"type": "split", "direction": "right", "first": one, "second": one},
		"no second":     map[string]any{"type": "split", "direction": "down", "ratio": 0.5, "first": one},
		"bad direction": map[string]any{"type": "split", "direction": "left", "ratio": 0.5, "first": one, "second": one},
		"empty command": map[string]any{"type": "pane", "command": []string{}},
	} {
		resp := s.Call("layout.apply", map[string]any{"root": bad})
		if resp.Error == nil || resp.Error.Code != "invalid_layout" {
			t.Errorf("%s: response %+v, want invalid_layout", name, resp.Error)
		}
	}
	Fail(t, s.Call("layout.apply", map[string]any{"root": map[string]any{"type": "pane", "cwd": filepath.Join(left, "missing")}}), protocol.CodeInvalidParams)
	Fail(t, s.Call("layout.apply", map[string]any{"root": one, "workspace_id": "w7"}), protocol.CodeWorkspaceNotFound)
	Fail(t, s.Call("layout.apply", nil), protocol.CodeInvalidParams)
	if n := len(s.PaneIDs(t)); n != panes {
		t.Errorf("refused layouts left %d panes, want %d", n, panes)
	}

	// CLI: --file PATH (a layout.export response), --workspace, --focus; a bad tree exits 1.
	exported, _, _ := s.CLI("layout", "export", "--tab", "w1:t2")
	file := filepath.Join(s.Home.Dir, "layout.json")
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	c := cliOK[protocol.LayoutApply](t, s, "layout_apply", "layout", "apply", "--file", file, "--workspace", "w1", "--tab-label", "copy", "--focus").Layout
	if c.Root.Type != "split" || c.Root.Second == nil || c.Root.Second.Type != "split" || str(c.Root.First.Cwd) != left {
		t.Errorf("CLI apply of an export = %+v", c.Root)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.TabID != c.TabID {
		t.Errorf("--focus: focused tab %s, want %s", cur.TabID, c.TabID)
	}
	waitOutput(t, s, str(c.Root.Second.Second.PaneID), "applied")
	if err := os.WriteFile(file, []byte(`{"type":"split","direction":"right","ratio":0.5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cliFail(t, s, "invalid_layout", "layout", "apply", "--file", file)
	cliUsage(t, s, "layout", "apply", "--file", filepath.Join(s.Home.Dir, "nope.json"))
	cliUsage(t, s, "layout", "apply")
}

func TestE2E_Layout_SetSplitRatio_Paths(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	// Root: right split; first = p1 over p3, second = p2 over p4.
	grid(t, s)
	set := func(path []bool, ratio float64) protocol.LayoutDescription {
		t.Helper()
		return OK[protocol.LayoutSplitRatioSet](t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t1", "path": path, "ratio": ratio}), "layout_split_ratio_set").Layout
	}
	d := set([]bool{}, 0.3)
	if d.Root.Ratio == nil || *d.Root.Ratio != 0.3 {
		t.Errorf("root ratio = %v, want 0.3", d.Root.Ratio)
	}
	l := PaneLayout(t, s, "w1:p1")
	if !sameRatios(ratios(l), []float64{0.3, 0.5, 0.5}) || RectOf(t, l, "w1:p1").Width != 60 {
		t.Errorf("after path []: ratios %v, w1:p1 width %d; want [0.3 0.5 0.5], 60", ratios(l), RectOf(t, l, "w1:p1").Width)
	}
	d = set([]bool{true}, 0.7)
	if *d.Root.Second.Ratio != 0.7 || *d.Root.First.Ratio != 0.5 {
		t.Errorf("path [true]: first %v second %v, want 0.5 0.7", *d.Root.First.Ratio, *d.Root.Second.Ratio)
	}
	l = PaneLayout(t, s, "w1:p1")
	if !sameRatios(ratios(l), []float64{0.3, 0.5, 0.7}) || RectOf(t, l, "w1:p2").Height != 35 {
		t.Errorf("after path [true]: ratios %v, w1:p2 height %d; want [0.3 0.5 0.7], 35", ratios(l), RectOf(t, l, "w1:p2").Height)
	}
	d = set([]bool{}, 0.02) // clamped
	if *d.Root.Ratio != 0.1 {
		t.Errorf("ratio 0.02 set to %v, want clamped 0.1", *d.Root.Ratio)
	}
	for _, bad := range [][]bool{{false, false}, {true, true}, {true, false, true}} {
		Fail(t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t1", "path": bad, "ratio": 0.5}), "split_not_found")
	}
	one := s.CreateWorkspace(t, nil).Tab.TabID
	Fail(t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": one, "path": []bool{}, "ratio": 0.5}), "split_not_found")
	Fail(t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t1", "path": []bool{}, "ratio": 1.5}), protocol.CodeInvalidRatio)
	Fail(t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t1", "ratio": 0.5}), protocol.CodeInvalidParams)
	Fail(t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t9", "path": []bool{}, "ratio": 0.5}), protocol.CodeTabNotFound)
	// By pane: that pane's tab.
	d = OK[protocol.LayoutSplitRatioSet](t, s.Call("layout.set_split_ratio", map[string]any{"pane_id": "w1:p4", "path": []bool{false}, "ratio": 0.6}), "layout_split_ratio_set").Layout
	if d.TabID != "w1:t1" || *d.Root.First.Ratio != 0.6 {
		t.Errorf("by pane: tab %s first ratio %v", d.TabID, *d.Root.First.Ratio)
	}

	// CLI: --path as a comma list; no path = the root.
	d = cliOK[protocol.LayoutSplitRatioSet](t, s, "layout_split_ratio_set", "layout", "set-ratio", "--tab", "w1:t1", "--path", "1", "--ratio", "0.25").Layout
	if *d.Root.Second.Ratio != 0.25 {
		t.Errorf("CLI --path 1: %v", *d.Root.Second.Ratio)
	}
	d = cliOK[protocol.LayoutSplitRatioSet](t, s, "layout_split_ratio_set", "layout", "set-ratio", "--pane", "w1:p1", "--ratio", "0.45").Layout
	if *d.Root.Ratio != 0.45 {
		t.Errorf("CLI root: %v", *d.Root.Ratio)
	}
	cliFail(t, s, "split_not_found", "layout", "set-ratio", "--tab", "w1:t1", "--path", "0,0", "--ratio", "0.5")
	cliFail(t, s, protocol.CodeInvalidRatio, "layout", "set-ratio", "--tab", "w1:t1", "--ratio", "1")
	cliUsage(t, s, "layout", "set-ratio", "--tab", "w1:t1", "--path", "0,x", "--ratio", "0.5")
	cliUsage(t, s, "layout", "set-ratio", "--tab", "w1:t1")
}

// --- workspace.move, workspace.move_block, tab.move ------------------------------

func TestE2E_Layout_WorkspaceMove_Order(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	for range 4 {
		s.CreateWorkspace(t, nil)
	}
	move := func(ws string, index int) []string {
		t.Helper()
		return workspaceIDs(OK[protocol.WorkspaceList](t, s.Call("workspace.move", map[string]any{"workspace_id": ws, "insert_index": index}), "workspace_list").Workspaces)
	}
	list := func() []string {
		return workspaceIDs(OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces)
	}
	for _, c := range []struct {
		ws    string
		index int
		want  string
	}{
		{"w4", 0, "[w4 w1 w2 w3]"},
		{"w4", 99, "[w1 w2 w3 w4]"},
		{"w1", 2, "[w2 w3 w1 w4]"},
		{"w1", 2, "[w2 w3 w1 w4]"},
	} {
		if got := fmt.Sprint(move(c.ws, c.index)); got != c.want {
			t.Errorf("move %s to %d = %s, want %s", c.ws, c.index, got, c.want)
		}
	}
	if got := fmt.Sprint(list()); got != "[w2 w3 w1 w4]" {
		t.Errorf("workspace.list = %s after moves", got)
	}
	Fail(t, s.Call("workspace.move", map[string]any{"workspace_id": "w9", "insert_index": 0}), protocol.CodeWorkspaceNotFound)
	Fail(t, s.Call("workspace.move", map[string]any{"workspace_id": "w1", "insert_index": -1}), protocol.CodeInvalidParams)
	Fail(t, s.Call("workspace.move", map[string]any{"workspace_id": "w1"}), protocol.CodeInvalidParams)

	ws := cliOK[protocol.WorkspaceList](t, s, "workspace_list", "workspace", "move", "w4", "--index", "0").Workspaces
	if got := fmt.Sprint(workspaceIDs(ws)); got != "[w4 w2 w3 w1]" {
		t.Errorf("CLI workspace move = %s", got)
	}
	cliFail(t, s, protocol.CodeWorkspaceNotFound, "workspace", "move", "w9", "--index", "0")
	cliUsage(t, s, "workspace", "move", "w1")
}

func TestE2E_Layout_WorkspaceMoveBlock_Order(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	for range 5 {
		s.CreateWorkspace(t, nil)
	}
	block := func(params map[string]any) protocol.Response {
		t.Helper()
		return s.Call("workspace.move_block", params)
	}
	order := func(resp protocol.Response) string {
		t.Helper()
		return fmt.Sprint(workspaceIDs(OK[protocol.WorkspaceList](t, resp, "workspace_list").Workspaces))
	}
	if got := order(block(map[string]any{"workspace_ids": []string{"w5", "w3"}, "before_workspace_id": "w1"})); got != "[w5 w3 w1 w2 w4]" {
		t.Errorf("block [w5 w3] before w1 = %s", got)
	}
	if got := order(block(map[string]any{"workspace_ids": []string{"w1", "w5"}})); got != "[w3 w2 w4 w1 w5]" {
		t.Errorf("block [w1 w5] to the end = %s", got)
	}
	if got := order(block(map[string]any{"workspace_ids": []string{"w4", "w2"}, "before_workspace_id": "w3"})); got != "[w4 w2 w3 w1 w5]" {
		t.Errorf("block [w4 w2] before w3 = %s", got)
	}
	const unchanged = "[w4 w2 w3 w1 w5]"
	Fail(t, block(map[string]any{"workspace_ids": []string{"w1", "w2"}, "before_workspace_id": "w2"}), protocol.CodeInvalidParams)
	Fail(t, block(map[string]any{"workspace_ids": []string{"w1", "w1"}}), protocol.CodeInvalidParams)
	Fail(t, block(map[string]any{"workspace_ids": []string{}}), protocol.CodeInvalidParams)
	Fail(t, block(map[string]any{"workspace_ids": []string{"w1", "w9"}}), protocol.CodeWorkspaceNotFound)
	Fail(t, block(map[string]any{"workspace_ids": []string{"w1"}, "before_workspace_id": "w9"}), protocol.CodeWorkspaceNotFound)
	if got := order(s.Call("workspace.list", nil)); got != unchanged {
		t.Errorf("refused blocks moved workspaces: %s, want %s", got, unchanged)
	}

	ws := cliOK[protocol.WorkspaceList](t, s, "workspace_list", "workspace", "move-block", "w1", "w5", "--before", "w4").Workspaces
	if got := fmt.Sprint(workspaceIDs(ws)); got != "[w1 w5 w4 w2 w3]" {
		t.Errorf("CLI move-block = %s", got)
	}
	ws = cliOK[protocol.WorkspaceList](t, s, "workspace_list", "workspace", "move-block", "w1").Workspaces
	if got := fmt.Sprint(workspaceIDs(ws)); got != "[w5 w4 w2 w3 w1]" {
		t.Errorf("CLI move-block to the end = %s", got)
	}
	cliFail(t, s, protocol.CodeInvalidParams, "workspace", "move-block", "w1", "w2", "--before", "w1")
	cliFail(t, s, protocol.CodeWorkspaceNotFound, "workspace", "move-block", "w8")
	cliUsage(t, s, "workspace", "move-block")
}

func TestE2E_Layout_TabMove_Order(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	s.CreateWorkspace(t, nil)
	for range 2 {
		OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	}
	move := func(tab string, index int) string {
		t.Helper()
		return fmt.Sprint(tabIDs(OK[protocol.TabList](t, s.Call("tab.move", map[string]any{"tab_id": tab, "insert_index": index}), "tab_list").Tabs))
	}
	if got := move("w1:t3", 0); got != "[w1:t3 w1:t1 w1:t2]" {
		t.Errorf("move w1:t3 to 0 = %s", got)
	}
	if got := move("w1:t3", 10); got != "[w1:t1 w1:t2 w1:t3]" {
		t.Errorf("move w1:t3 to 10 = %s", got)
	}
	if got := move("w1:t1", 1); got != "[w1:t2 w1:t1 w1:t3]" {
		t.Errorf("move w1:t1 to 1 = %s", got)
	}
	if got := move("w2:t1", 3); got != "[w2:t1]" {
		t.Errorf("move the only tab of w2 = %s, want only w2's tabs", got)
	}
	Fail(t, s.Call("tab.move", map[string]any{"tab_id": "w1:t9", "insert_index": 0}), protocol.CodeTabNotFound)
	Fail(t, s.Call("tab.move", map[string]any{"tab_id": "w1:t1", "insert_index": -3}), protocol.CodeInvalidParams)

	tabs := cliOK[protocol.TabList](t, s, "tab_list", "tab", "move", "w1:t3", "--index", "0").Tabs
	if got := fmt.Sprint(tabIDs(tabs)); got != "[w1:t3 w1:t2 w1:t1]" {
		t.Errorf("CLI tab move = %s", got)
	}
	if got := fmt.Sprint(tabIDs(OK[protocol.TabList](t, s.Call("tab.list", map[string]any{"workspace_id": "w1"}), "tab_list").Tabs)); got != "[w1:t3 w1:t2 w1:t1]" {
		t.Errorf("tab.list after moves = %s", got)
	}
	cliFail(t, s, protocol.CodeTabNotFound, "tab", "move", "w1:t9", "--index", "0")
	cliUsage(t, s, "tab", "move", "w1:t1", "--index", "-1")
}

// --- pane.move -------------------------------------------------------------------

func TestE2E_Layout_PaneMove_ToTab(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	splitPane(t, s, "w1:p1", "right") // w1:p2
	t2 := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	p3 := t2.RootPane.PaneID
	term := terminals(t, s)["w1:p2"]

	m := OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": t2.Tab.TabID, "split": "right"}}), "pane_move").MoveResult
	if !m.Changed || m.Reason != nil || m.Pane.PaneID != "w1:p2" || m.Pane.TabID != t2.Tab.TabID || m.Pane.TerminalID != term {
		t.Fatalf("move to tab = %+v", m)
	}
	if m.PreviousPaneID != "w1:p2" || m.PreviousTabID != "w1:t1" || m.PreviousWorkspaceID != "w1" || m.ClosedTabID != nil || m.CreatedTab != nil {
		t.Errorf("move bookkeeping = %+v", m)
	}
	if r := RectOf(t, m.TargetLayout, p3); r != (protocol.Rect{X: 0, Y: 0, Width: 100, Height: 50}) {
		t.Errorf("target pane rect = %+v, want the left half", r)
	}
	if r := RectOf(t, m.TargetLayout, "w1:p2"); r != (protocol.Rect{X: 100, Y: 0, Width: 100, Height: 50}) {
		t.Errorf("moved pane rect = %+v, want the right half", r)
	}
	if m.SourceLayout == nil || len(m.SourceLayout.Panes) != 1 || RectOf(t, *m.SourceLayout, "w1:p1") != m.SourceLayout.Area {
		t.Errorf("source layout = %+v, want w1:p1 alone", m.SourceLayout)
	}
	if m.FocusedPaneID != p3 {
		t.Errorf("focused pane of the target = %s, want %s (no --focus)", m.FocusedPaneID, p3)
	}

	// Split down under a chosen target pane, with a ratio, and focus.
	m = OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p1", "focus": true, "destination": map[string]any{"type": "tab", "tab_id": t2.Tab.TabID, "split": "down", "target_pane_id": "w1:p2", "ratio": 0.3}}), "pane_move").MoveResult
	if !m.Changed || m.ClosedTabID == nil || *m.ClosedTabID != "w1:t1" || m.ClosedWorkspaceID != nil || m.SourceLayout != nil {
		t.Fatalf("moving the last pane of w1:t1 = %+v, want closed_tab_id w1:t1 and no source layout", m)
	}
	if r := RectOf(t, m.TargetLayout, "w1:p2"); r != (protocol.Rect{X: 100, Y: 0, Width: 100, Height: 15}) {
		t.Errorf("target w1:p2 rect = %+v, want 100,0 100×15", r)
	}
	if r := RectOf(t, m.TargetLayout, "w1:p1"); r != (protocol.Rect{X: 100, Y: 15, Width: 100, Height: 35}) {
		t.Errorf("moved w1:p1 rect = %+v, want 100,15 100×35", r)
	}
	if m.FocusedPaneID != "w1:p1" {
		t.Errorf("focus:true left focus on %s", m.FocusedPaneID)
	}
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), protocol.CodeTabNotFound)

	// Reasons: same tab; zoomed source or target.
	m = OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p1", "destination": map[string]any{"type": "tab", "tab_id": t2.Tab.TabID, "split": "right"}}), "pane_move").MoveResult
	wantReason(t, "move into its own tab", m.Changed, m.Reason, "same_tab")
	t3 := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	OK[protocol.PaneZoom](t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p1", "mode": "on"}), "pane_zoom")
	m = OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": t3.RootPane.PaneID, "destination": map[string]any{"type": "tab", "tab_id": t2.Tab.TabID, "split": "right"}}), "pane_move").MoveResult
	wantReason(t, "move into a zoomed tab", m.Changed, m.Reason, "zoomed_tab")
	m = OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": t3.Tab.TabID, "split": "right"}}), "pane_move").MoveResult
	wantReason(t, "move out of a zoomed tab", m.Changed, m.Reason, "zoomed_tab")
	if m.Pane.TabID != t2.Tab.TabID {
		t.Errorf("refused move reports the pane in %s", m.Pane.TabID)
	}
	OK[protocol.PaneZoom](t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p1", "mode": "off"}), "pane_zoom")

	// Errors.
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": t3.Tab.TabID, "split": "right", "target_pane_id": "w1:p1"}}), "target_pane_not_found")
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": "w1:t9", "split": "right"}}), protocol.CodeTabNotFound)
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p9", "destination": map[string]any{"type": "new_tab"}}), protocol.CodePaneNotFound)
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": t3.Tab.TabID}}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "elsewhere"}}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "tab", "tab_id": t3.Tab.TabID, "split": "down", "ratio": 1.2}}), protocol.CodeInvalidRatio)

	// CLI: --tab --split --target-pane --ratio; same_tab exits 0 with the reason.
	m = cliOK[protocol.PaneMove](t, s, "pane_move", "pane", "move", "w1:p2", "--tab", t3.Tab.TabID, "--split", "down", "--target-pane", t3.RootPane.PaneID, "--ratio", "0.6").MoveResult
	if !m.Changed || m.Pane.TabID != t3.Tab.TabID || RectOf(t, m.TargetLayout, "w1:p2").Height != 20 {
		t.Errorf("CLI move --tab = %+v", m)
	}
	m = cliOK[protocol.PaneMove](t, s, "pane_move", "pane", "move", "w1:p2", "--tab", t3.Tab.TabID, "--split", "right").MoveResult
	wantReason(t, "CLI move into its own tab", m.Changed, m.Reason, "same_tab")
	cliFail(t, s, protocol.CodeTabNotFound, "pane", "move", "w1:p2", "--tab", "w1:t9", "--split", "right")
	cliUsage(t, s, "pane", "move", "w1:p2", "--tab", t2.Tab.TabID)
	cliUsage(t, s, "pane", "move", "w1:p2")
}

func TestE2E_Layout_PaneMove_NewTab(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	splitPane(t, s, "w1:p1", "down") // w1:p2

	m := OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "new_tab", "label": "logs"}}), "pane_move").MoveResult
	if !m.Changed || m.CreatedTab == nil || m.CreatedTab.Label != "logs" || m.CreatedTab.WorkspaceID != "w1" || m.CreatedWorkspace != nil {
		t.Fatalf("move to a new tab = %+v", m)
	}
	if m.Pane.PaneID != "w1:p2" || m.Pane.TabID != m.CreatedTab.TabID || m.CreatedTab.PaneCount != 1 {
		t.Errorf("moved pane = %+v in %+v", m.Pane, m.CreatedTab)
	}
	if len(m.TargetLayout.Panes) != 1 || RectOf(t, m.TargetLayout, "w1:p2") != m.TargetLayout.Area {
		t.Errorf("new tab layout = %+v", m.TargetLayout)
	}
	if tabs := OK[protocol.TabList](t, s.Call("tab.list", map[string]any{"workspace_id": "w1"}), "tab_list").Tabs; len(tabs) != 2 {
		t.Errorf("w1 tabs = %v, want 2", tabIDs(tabs))
	}
	// The only pane of a tab into a new tab: the old tab closes, the workspace stays.
	m = OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p1", "destination": map[string]any{"type": "new_tab"}}), "pane_move").MoveResult
	if !m.Changed || str(m.ClosedTabID) != "w1:t1" || m.ClosedWorkspaceID != nil {
		t.Errorf("emptying w1:t1 = closed tab %v workspace %v", str(m.ClosedTabID), str(m.ClosedWorkspaceID))
	}
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), protocol.CodeTabNotFound)
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), "workspace_info")

	// Into a new tab of another workspace: a new id there.
	s.CreateWorkspace(t, nil) // w2
	m = cliOK[protocol.PaneMove](t, s, "pane_move", "pane", "move", "w1:p2", "--new-tab", "--workspace", "w2", "--label", "moved").MoveResult
	if !m.Changed || m.CreatedTab == nil || m.CreatedTab.WorkspaceID != "w2" || m.CreatedTab.Label != "moved" || m.Pane.WorkspaceID != "w2" || m.Pane.PaneID != "w2:p2" || m.PreviousPaneID != "w1:p2" {
		t.Errorf("CLI move --new-tab --workspace w2 = pane %s created %+v", m.Pane.PaneID, m.CreatedTab)
	}
	cliFail(t, s, protocol.CodeWorkspaceNotFound, "pane", "move", "w2:p2", "--new-tab", "--workspace", "w9")
	cliUsage(t, s, "pane", "move", "w2:p2", "--new-tab", "--tab-label", "x")
}

func TestE2E_Layout_PaneMove_NewWorkspaceKeepsShell(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	splitPane(t, s, "w1:p1", "right") // w1:p2
	s.Run(t, "w1:p2", "echo before-move")
	waitOutput(t, s, "w1:p2", "before-move")
	term := terminals(t, s)["w1:p2"]

	m := OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p2", "destination": map[string]any{"type": "new_workspace", "label": "api", "tab_label": "srv"}}), "pane_move").MoveResult
	if !m.Changed || m.CreatedWorkspace == nil || m.CreatedTab == nil {
		t.Fatalf("move to a new workspace = %+v", m)
	}
	ws, tab := m.CreatedWorkspace, m.CreatedTab
	if ws.Label != "api" || tab.Label != "srv" || tab.WorkspaceID != ws.WorkspaceID || ws.PaneCount != 1 || ws.TabCount != 1 {
		t.Errorf("created workspace %+v tab %+v", ws, tab)
	}
	newID := m.Pane.PaneID
	if newID == "w1:p2" || !strings.HasPrefix(newID, ws.WorkspaceID+":") || m.Pane.TerminalID != term || m.PreviousPaneID != "w1:p2" {
		t.Errorf("moved pane id %s (terminal %s), want a new id in %s, same terminal %s", newID, m.Pane.TerminalID, ws.WorkspaceID, term)
	}
	if m.ClosedTabID != nil || m.ClosedWorkspaceID != nil {
		t.Errorf("w1 still has w1:p1, but the move reports closed %v %v", str(m.ClosedTabID), str(m.ClosedWorkspaceID))
	}
	// The old id still answers pane.get, as the moved pane.
	old := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane
	if old.PaneID != newID || old.WorkspaceID != ws.WorkspaceID || old.TerminalID != term {
		t.Errorf("pane.get of the old id = %+v, want the moved pane %s", old, newID)
	}
	if slices.Contains(s.PaneIDs(t), "w1:p2") {
		t.Errorf("pane.list still lists the old id: %v", s.PaneIDs(t))
	}
	// The shell still answers, under the new id (CLI) and the old one; its scrollback moved with it.
	if out, errOut, code := s.CLI("pane", "run", newID, "echo still-alive"); code != 0 || out != "" || errOut != "" {
		t.Fatalf("pane run %s: exit %d stdout %q stderr %q", newID, code, out, errOut)
	}
	text := waitOutput(t, s, newID, "still-alive")
	if !hasOutput(text, "before-move") {
		t.Errorf("the moved pane lost its output:\n%s", text)
	}
	s.Run(t, "w1:p2", "echo via-old-id")
	waitOutput(t, s, newID, "via-old-id")

	// The only pane of a workspace into a new workspace: the source workspace closes.
	m = cliOK[protocol.PaneMove](t, s, "pane_move", "pane", "move", "w1:p1", "--new-workspace", "--label", "solo", "--tab-label", "main", "--focus").MoveResult
	if !m.Changed || str(m.ClosedTabID) != "w1:t1" || str(m.ClosedWorkspaceID) != "w1" || m.CreatedWorkspace == nil || m.CreatedWorkspace.Label != "solo" {
		t.Fatalf("emptying w1 = %+v", m)
	}
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), protocol.CodeWorkspaceNotFound)
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), protocol.CodeTabNotFound)
	if got := workspaceIDs(OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces); slices.Contains(got, "w1") || len(got) != 2 {
		t.Errorf("workspaces after emptying w1 = %v", got)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.PaneID != m.Pane.PaneID {
		t.Errorf("--focus: focused pane %s, want %s", cur.PaneID, m.Pane.PaneID)
	}
	s.Run(t, "w1:p1", "echo solo-alive") // the old id of a twice-moved pane
	waitOutput(t, s, m.Pane.PaneID, "solo-alive")
}

// --- PTY size follows the layout --------------------------------------------------

// sttySeq makes every stty marker unique, so an old line cannot match.
var sttySeq atomic.Int64

// sttySize runs `stty size` in pane and waits for "rows cols" equal to the rect.
func sttySize(t *testing.T, s *Server, pane string, r protocol.Rect) {
	t.Helper()
	marker := fmt.Sprintf("size%d", sttySeq.Add(1))
	s.Run(t, pane, "echo "+marker+" $(stty size)")
	waitOutput(t, s, pane, fmt.Sprintf("%s %d %d", marker, r.Height, r.Width))
}

// waitOutput waits until a recent read of pane shows want as a command's
// output line. Typed ahead of the shell's next prompt, the output can share
// its line with the prompt ("# want"); the command line itself (it contains
// "echo" or the command) is not taken for output.
func waitOutput(t testing.TB, s *Server, pane, want string) string {
	t.Helper()
	var text string
	if !Eventually(func() bool {
		text = s.Read(t, pane, "recent", 200).Text
		return hasOutput(text, want)
	}) {
		visible := s.Read(t, pane, "visible", 0).Text
		t.Fatalf("timed out after %v waiting for pane %s to show %q\nrecent:\n%s\nvisible:\n%s", WaitTimeout, pane, want, text, visible)
	}
	return text
}

func TestE2E_Layout_PTYSize_FollowsRect(t *testing.T) {
	t.Parallel()
	s := startLayoutServer(t)
	s.CreateWorkspace(t, nil)
	sttySize(t, s, "w1:p1", protocol.Rect{Width: 200, Height: 50})

	splitPane(t, s, "w1:p1", "right")
	l := PaneLayout(t, s, "w1:p1")
	r1, r2 := RectOf(t, l, "w1:p1"), RectOf(t, l, "w1:p2")
	if r1.Width < 99 || r1.Width > 101 || r1.Height != 50 {
		t.Errorf("w1:p1 rect after a right split = %+v, want about 100×50", r1)
	}
	sttySize(t, s, "w1:p1", r1)
	sttySize(t, s, "w1:p2", r2)

	// A resize, a zoom and a move each resize the PTYs to their rects.
	OK[protocol.PaneResize](t, s.Call("pane.resize", map[string]any{"pane_id": "w1:p1", "direction": "right", "amount": 0.2}), "pane_resize")
	l = PaneLayout(t, s, "w1:p1")
	sttySize(t, s, "w1:p1", RectOf(t, l, "w1:p1"))
	sttySize(t, s, "w1:p2", RectOf(t, l, "w1:p2"))

	splitPane(t, s, "w1:p2", "down") // w1:p3
	z := OK[protocol.PaneZoom](t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p3", "mode": "on"}), "pane_zoom").Zoom
	sttySize(t, s, "w1:p3", RectOf(t, z.Layout, "w1:p3"))
	z = OK[protocol.PaneZoom](t, s.Call("pane.zoom", map[string]any{"pane_id": "w1:p3", "mode": "off"}), "pane_zoom").Zoom
	sttySize(t, s, "w1:p3", RectOf(t, z.Layout, "w1:p3"))

	m := OK[protocol.PaneMove](t, s.Call("pane.move", map[string]any{"pane_id": "w1:p3", "destination": map[string]any{"type": "new_tab"}}), "pane_move").MoveResult
	sttySize(t, s, "w1:p3", RectOf(t, m.TargetLayout, "w1:p3"))
	sttySize(t, s, "w1:p2", RectOf(t, *m.SourceLayout, "w1:p2"))

	d := OK[protocol.LayoutSplitRatioSet](t, s.Call("layout.set_split_ratio", map[string]any{"tab_id": "w1:t1", "path": []bool{}, "ratio": 0.25}), "layout_split_ratio_set").Layout
	if *d.Root.Ratio != 0.25 {
		t.Fatalf("set ratio = %v", *d.Root.Ratio)
	}
	l = PaneLayout(t, s, "w1:p1")
	sttySize(t, s, "w1:p1", RectOf(t, l, "w1:p1"))
}

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// hasOutput reports whether text has want as an output line (see waitOutput).
func hasOutput(text, want string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == want || (strings.HasSuffix(l, " "+want) && !strings.Contains(l, "echo") && !strings.Contains(l, "pwd")) {
			return true
		}
	}
	return false
}
