package config

import "github.com/herdr-go/herdr/protocol"

// A method's table entry can name a config switch that must be on (its
// Gate): [terminal] kitty_graphics, read when the server starts (a reload
// does not change it). The session and the connections ask the start's
// configuration before a gated call goes anywhere.

// GateOpen reports whether the switch gate names is on ("" is no switch:
// always on).
func (c Config) GateOpen(gate string) bool {
	switch gate {
	case "":
		return true
	case protocol.GateKittyGraphics:
		return c.Terminal.KittyGraphics
	}
	return false
}

// GateClosed is the error a call of method gets while its switch is off.
func GateClosed(method, gate string) error {
	return protocol.Errorf(protocol.CodeFeatureDisabled, "%s is disabled: set [terminal] %s = true and restart the server", method, gate)
}
