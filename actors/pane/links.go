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

// graphicsTo is the actor pane.graphics.info's answers go through, and
// the server's file frame directory (SendGraphicsTo).
type graphicsTo struct {
	pid     *actor.PID
	fileDir string
}

// SendGraphicsTo names the actor that completes pane.graphics.info's
// answers (GraphicsInfo: the server's clients actor) and the directory
// graphics streams' file frames must be in ("": none taken). Until it is
// called a pane answers info with its defaults and takes no file frames.
func (r *Runtime) SendGraphicsTo(pid *actor.PID, fileDir string) {
	r.graphics.Store(&graphicsTo{pid: pid, fileDir: fileDir})
}

// graphicsActor is SendGraphicsTo's actor and directory (nil, "": none).
func (r *Runtime) graphicsActor() (*actor.PID, string) {
	if r == nil {
		return nil, ""
	}
	if g := r.graphics.Load(); g != nil {
		return g.pid, g.fileDir
	}
	return nil, ""
}
