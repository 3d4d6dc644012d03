package pane

import (
	"testing"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// A program's images obey the socket API's limits.
func TestKittyLimitsAreTheAPIs(t *testing.T) {
	if emulator.KittyMaxImageBytes != protocol.GraphicsFrameMaxBytes || emulator.KittyMaxSide != protocol.GraphicsMaxSide {
		t.Fatalf("emulator limits %d bytes / %d px, API %d bytes / %d px",
			emulator.KittyMaxImageBytes, emulator.KittyMaxSide, protocol.GraphicsFrameMaxBytes, protocol.GraphicsMaxSide)
	}
}
