package saved

import (
	"os"
	"slices"
	"sync/atomic"
)

// SSHAgents are the ssh agent sockets clients lent the server
// (server.ssh_agent.register), each for as long as its connection stays
// open. The newest one still lent is the server's SSH_AUTH_SOCK for the
// ssh sessions of saved machines (Env); when it is given back, the one
// lent before it serves again, and with none lent the server's own
// environment does. Connections lend and give back from their own
// goroutines and machine links read from theirs, so the list is an
// immutable slice swapped whole (no lock: a reader never waits).
type SSHAgents struct {
	lent atomic.Pointer[[]lentAgent]
	seq  atomic.Uint64
}

type lentAgent struct {
	id   uint64
	path string
}

// Lend records path as the newest agent socket; give back ends the loan
// (once is enough, more are harmless).
func (a *SSHAgents) Lend(path string) (giveBack func()) {
	id := a.seq.Add(1)
	a.swap(func(l []lentAgent) []lentAgent { return append(slices.Clone(l), lentAgent{id, path}) })
	return func() {
		a.swap(func(l []lentAgent) []lentAgent {
			return slices.DeleteFunc(slices.Clone(l), func(x lentAgent) bool { return x.id == id })
		})
	}
}

func (a *SSHAgents) swap(change func([]lentAgent) []lentAgent) {
	for {
		old := a.lent.Load()
		var cur []lentAgent
		if old != nil {
			cur = *old
		}
		next := change(cur)
		if a.lent.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Current is the newest socket still lent, "" when none is.
func (a *SSHAgents) Current() string {
	if a == nil {
		return ""
	}
	l := a.lent.Load()
	if l == nil || len(*l) == 0 {
		return ""
	}
	return (*l)[len(*l)-1].path
}

// Env is the environment of an ssh child: nil (the server's own) when no
// agent is lent, else the server's with SSH_AUTH_SOCK set to the newest.
func (a *SSHAgents) Env() []string {
	sock := a.Current()
	if sock == "" {
		return nil
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return len(kv) >= 14 && kv[:14] == "SSH_AUTH_SOCK=" })
	return append(env, "SSH_AUTH_SOCK="+sock)
}
