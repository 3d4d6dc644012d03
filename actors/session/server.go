package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

var serverHandlers = map[string]handler{
	"server.reload_config": (*Session).reloadConfig,
}

// reloadConfig re-reads config.toml; invalid parts keep their defaults and
// are reported, and new panes use the new settings. The clients, and the
// actors Reloaded names ([tasks], [remote] ssh_command), are handed the
// new file; the keys read only at start that it changes are named in
// restart_required.
func (s *Session) reloadConfig(ctx actor.Context, _ *kit.Call) *kit.Reply {
	cfg, diags, status := config.Load(s.opts.ConfigPath)
	var restart []string
	if status != config.StatusFailed {
		s.cfg = cfg
		s.spawner.Config = cfg // new panes' shell and scrollback
		if s.opts.Clients != nil {
			ctx.Send(s.opts.Clients, &clients.SetConfig{Config: cfg})
		}
		if s.opts.Reloaded != nil {
			ctx.Send(s.opts.Reloaded, &config.Reloaded{Config: cfg})
		}
		if s.opts.Worktrees != nil { // [worktrees] directory
			ctx.Send(s.opts.Worktrees, &config.Reloaded{Config: cfg})
		}
		restart = config.RestartRequired(&s.opts.Config, &cfg)
		if len(restart) > 0 && s.opts.Log != nil {
			s.opts.Log.Warn("config reloaded; these keys apply at the next start", "keys", restart)
		}
	}
	if diags == nil {
		diags = []string{}
	}
	return kit.Done(protocol.ConfigReload{Status: string(status), Diagnostics: diags, RestartRequired: restart})
}
