package session

import (
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A method's table entry can name a config switch that must be on (Gate):
// the session checks it before resolving the target ([terminal]
// kitty_graphics, read when the server starts: a reload does not change
// it).

// GateOpen reports whether the switch gate names is on in cfg ("" is no
// switch: always on); the gateway asks it before sending a gated pane
// method straight to its pane.
func GateOpen(cfg config.Config, gate string) bool {
	switch gate {
	case "":
		return true
	case protocol.GateKittyGraphics:
		return cfg.Terminal.KittyGraphics
	}
	return false
}

// gateClosed is the answer to a method whose switch is off.
func gateClosed(method, gate string) *kit.Reply {
	return kit.Fail(protocol.Errorf(protocol.CodeFeatureDisabled, "%s is disabled: set [terminal] %s = true and restart the server", method, gate))
}
