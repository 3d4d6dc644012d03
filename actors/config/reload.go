package config

import "reflect"

// Reloaded carries a configuration server.reload_config read and applied
// to the session, to the actors that apply the rest of it (the
// dispatcher's [tasks], the machines' [remote] ssh_command).
type Reloaded struct {
	Config Config
}

// startOnly are the keys the server reads only as it starts: a reload
// that changes one cannot apply it, and says so (RestartRequired). Every
// other key a server reads is applied by server.reload_config — the
// session's, the clients', [tasks] by the dispatcher, [remote]
// ssh_command by the machines actor for the machines it links next;
// [session] resume_agents_on_restore is read at the next start anyway.
var startOnly = []struct {
	key  string
	same func(a, b *Config) bool
}{
	{"terminal.kitty_graphics", func(a, b *Config) bool { return a.Terminal.KittyGraphics == b.Terminal.KittyGraphics }},
	{"experimental.pane_history", func(a, b *Config) bool { return a.Experimental.PaneHistory == b.Experimental.PaneHistory }},
	{"advanced.persist_scrollback_lines", func(a, b *Config) bool { return a.Advanced.PersistScrollbackLines == b.Advanced.PersistScrollbackLines }},
	{"advanced.persist_scrollback_disk_mb", func(a, b *Config) bool {
		return a.Advanced.PersistScrollbackDiskMB == b.Advanced.PersistScrollbackDiskMB
	}},
	{"server.headless_cols", func(a, b *Config) bool { return a.Advanced.HeadlessCols == b.Advanced.HeadlessCols }},
	{"server.headless_rows", func(a, b *Config) bool { return a.Advanced.HeadlessRows == b.Advanced.HeadlessRows }},
	{"web.listen", func(a, b *Config) bool { return a.Web.Listen == b.Web.Listen }},
	{"web.allow_remote", func(a, b *Config) bool { return a.Web.AllowRemote == b.Web.AllowRemote }},
	{"fleet", func(a, b *Config) bool { return reflect.DeepEqual(a.Fleet, b.Fleet) }},
}

// RestartRequired names ("section.key") the keys whose value in next
// differs from the one the server started with, and that it reads only
// as it starts; nil when there are none.
func RestartRequired(started, next *Config) []string {
	var out []string
	for _, k := range startOnly {
		if !k.same(started, next) {
			out = append(out, k.key)
		}
	}
	return out
}
