package tui

import (
	"testing"

	"github.com/herdr-go/herdr/actors/config"
)

// The client's config on its own: the session's sidebar width wins over
// config.toml's until the session keeps none; the toast switch and the
// theme follow the file.
func TestClientConfig_OnItsOwn(t *testing.T) {
	cfg := config.Default()
	cfg.UI.SidebarWidth = 26
	cfg.UI.Toast.Delivery = config.ToastOff
	var c clientConfig
	c.set(cfg, false)
	if c.ui.SidebarWidth != 26 || c.toastsOn || c.theme == nil || c.truecolor {
		t.Fatalf("set: width %d toasts %v theme %v truecolor %v", c.ui.SidebarWidth, c.toastsOn, c.theme, c.truecolor)
	}
	w := 40
	c.keepSessionWidth(&w)
	if c.ui.SidebarWidth != 40 || c.cfg.UI.SidebarWidth != 26 {
		t.Fatalf("the session's width: shown %d, file %d", c.ui.SidebarWidth, c.cfg.UI.SidebarWidth)
	}
	cfg.UI.Toast.Delivery = config.ToastHerdr
	c.set(cfg, true) // a reload keeps the session's width
	if c.ui.SidebarWidth != 40 || !c.toastsOn {
		t.Fatalf("reload: width %d toasts %v", c.ui.SidebarWidth, c.toastsOn)
	}
	c.keepSessionWidth(nil)
	if c.ui.SidebarWidth != 26 || c.sessionWidth != 0 {
		t.Fatalf("no session width: %d (%d)", c.ui.SidebarWidth, c.sessionWidth)
	}
}
