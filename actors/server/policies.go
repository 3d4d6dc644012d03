package server

import (
	"path/filepath"
	"sync/atomic"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// policies holds the [[policy]] entries of the config in force: set at
// start and by each reload (reloads), read by every connection that
// declares one (gateway.Options.Policies), so a reload reaches the next
// connection. A connection keeps the policy it took.
type policies struct {
	cur atomic.Pointer[config.Config]
}

func (p *policies) set(cfg config.Config) { p.cur.Store(&cfg) }

func (p *policies) find(name string) (config.Policy, error) {
	return p.cur.Load().FindPolicy(name)
}

// auditPath is the audit log: in the session's state folder, beside its log.
func auditPath(logPath string, env func(string) string) string {
	if logPath != "" {
		return filepath.Join(filepath.Dir(logPath), "audit.log")
	}
	return filepath.Join(protocol.StateDir(env), "audit.log")
}
