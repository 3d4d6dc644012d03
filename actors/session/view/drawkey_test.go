package view

import (
	"reflect"
	"slices"
	"testing"
)

// A pane's records are drawn again only when their drawKey changes, and
// drawKey restates PaneIn field by field (the terminal id aside, which a
// Record keeps for good; the facts by their revision). A field added to
// PaneIn and not to drawKey would leave records stale: this fails first.
func TestDrawKey_CoversEveryPaneInField(t *testing.T) {
	var got []string
	for f := range reflect.TypeFor[PaneIn]().Fields() {
		got = append(got, f.Name)
	}
	keyed := []string{"ID", "TermID", "WS", "Tab", "Label", "Cwd", "RestoreError", "Focused", "Rows", "Facts"}
	if !slices.Equal(got, keyed) {
		t.Fatalf("PaneIn's fields are %v; drawKey (records.go) keys %v: add the new ones to drawKey and draw, then here", got, keyed)
	}
}
