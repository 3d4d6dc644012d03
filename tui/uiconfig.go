package tui

import "github.com/herdr-go/herdr/actors/config"

// clientConfig is config.toml as this client draws and acts with it: the
// file as last read, its [ui] with the session's sidebar width over it,
// the colours drawn, and the [ui] switches the client reads. The model
// embeds it; a reload (diagnostics.go) or the session's ui state
// (uistate.go) sets it again.
type clientConfig struct {
	// cfg is config.toml as last read, ui its [ui] and theme the colours
	// drawn (set).
	cfg   config.Config
	ui    config.UI
	theme *theme
	// sessionWidth is the sidebar width the session keeps (0:
	// config.toml's; session.json's, uistate.go).
	sessionWidth int
	// configPath is config.toml (prefix R reads it again); truecolor
	// says whether the outer terminal shows 24-bit colour.
	configPath string
	truecolor  bool
	toastsOn   bool
	// confirmClose asks before closing a program ([ui] confirm_close).
	confirmClose bool
	// copyOnSelect copies a mouse selection when it ends ([ui] copy_on_select).
	copyOnSelect bool
}

// set takes the settings of config.toml the client draws with.
func (c *clientConfig) set(cfg config.Config, truecolor bool) {
	c.truecolor = truecolor
	c.cfg, c.ui = cfg, cfg.UI
	if c.sessionWidth > 0 {
		c.ui.SidebarWidth = c.sessionWidth
	}
	c.toastsOn = cfg.UI.Toast.Delivery != config.ToastOff && cfg.UI.Toast.Delivery != ""
	c.theme = newTheme(cfg, truecolor)
}

// keepSessionWidth takes the sidebar width the session keeps (nil: none,
// config.toml's).
func (c *clientConfig) keepSessionWidth(w *int) {
	c.sessionWidth = 0
	if w != nil {
		c.sessionWidth = *w
	}
	c.set(c.cfg, c.truecolor)
}
