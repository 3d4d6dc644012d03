package config

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// TestGateOpen: no gate is always open, kitty_graphics follows its
// switch, and a gate the config does not know is closed.
func TestGateOpen(t *testing.T) {
	c := Default()
	c.Terminal.KittyGraphics = false
	if !c.GateOpen("") || c.GateOpen(protocol.GateKittyGraphics) || c.GateOpen("no_such_switch") {
		t.Fatalf("gates with kitty_graphics off: none %v, kitty %v, unknown %v", c.GateOpen(""), c.GateOpen(protocol.GateKittyGraphics), c.GateOpen("no_such_switch"))
	}
	c.Terminal.KittyGraphics = true
	if !c.GateOpen(protocol.GateKittyGraphics) {
		t.Fatal("kitty_graphics on, its gate closed")
	}
	e := protocol.AsError(GateClosed("pane.graphics.info", protocol.GateKittyGraphics))
	if e.Code != protocol.CodeFeatureDisabled || !strings.Contains(e.Message, "pane.graphics.info") || !strings.Contains(e.Message, "restart") {
		t.Fatalf("closed gate answered %v", e)
	}
}
