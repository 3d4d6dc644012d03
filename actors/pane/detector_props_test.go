package pane

import (
	"testing"

	"github.com/herdr-go/herdr/actors/detector/rules"
)

// TestDetectorProps_SharedWhileTheCatalogIsTheSame: every pane started
// with one catalog spawns its detector from the same props; a reloaded
// catalog gets props of its own (a restarted detector starts from them).
func TestDetectorProps_SharedWhileTheCatalogIsTheSame(t *testing.T) {
	rt := NewRuntime()
	first, _ := rules.LoadCatalog("")
	reloaded, _ := rules.LoadCatalog("")
	a := rt.detectorProps(first)
	if b := rt.detectorProps(first); b != a {
		t.Fatal("two panes with the same catalog got props of their own")
	}
	c := rt.detectorProps(reloaded)
	if c == a {
		t.Fatal("a reloaded catalog reused the props of the old one")
	}
	if rt.detectorProps(reloaded) != c || rt.detectorProps(nil) == c {
		t.Fatal("props not kept per catalog")
	}
}
