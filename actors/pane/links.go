package pane

import "github.com/asynkron/protoactor-go/actor"

// SendLinksTo names the actor every pane of this runtime hands
// pane.link.activate's links to (LinkFound); until it is named a pane
// answers a link unhandled, with its URL for the client to open.
func (r *Runtime) SendLinksTo(pid *actor.PID) { r.links.Store(pid) }

// linksActor is the actor SendLinksTo named, nil for none (or no runtime).
func (r *Runtime) linksActor() *actor.PID {
	if r == nil {
		return nil
	}
	return r.links.Load()
}
