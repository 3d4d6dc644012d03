package protocol

import (
	"fmt"
	"time"
)

// Owner is the actor that answers a method. Every table entry names one;
// the server checks at start-up that each owner's handlers are exactly the
// methods the table gives it.
type Owner uint8

const (
	ownerUnset Owner = iota
	// OwnerGateway: the connection answers it itself (ping, server.stop,
	// server.live_handoff).
	OwnerGateway
	// OwnerSession: the topology authority.
	OwnerSession
	// OwnerAgents: the agents actor, after the session resolved the target.
	OwnerAgents
	// OwnerClients: the interactive client in front (toasts, title, popup).
	OwnerClients
	// OwnerPlugins: the plugins actor.
	OwnerPlugins
	// OwnerIntegrations: the integrations actor.
	OwnerIntegrations
	// OwnerWeb: the web dashboard's listener actor.
	OwnerWeb
	// OwnerWorkspace, OwnerTab and OwnerPane: the entity's own actor, which
	// the session finds by resolving the method's target.
	OwnerWorkspace
	OwnerTab
	OwnerPane
	// OwnerMachines: the machines actor (saved machines' links; it also
	// takes every call for another machine and every fleet-scoped one).
	OwnerMachines
	// OwnerTasks: the tasks actor (the task board).
	OwnerTasks
	// OwnerBuffers: the paste buffers' actor.
	OwnerBuffers
	// OwnerEvents: the event bus (events.wait and events.subscribe,
	// resolved from the session's published read side).
	OwnerEvents
	// OwnerCommands: the commands actor (command.invoke, resolved from the
	// session's published read side).
	OwnerCommands
	// OwnerFleet: the fleet actor (membership of a fleet on NATS).
	OwnerFleet
	// OwnerLoop: the agent loop's actor (queued prompts, the inbox).
	OwnerLoop
	// OwnerAudit: the audit log's actor (audit.list).
	OwnerAudit
	// OwnerReview: the review actor (worktree.diff, review.*).
	OwnerReview
	// OwnerWorktrees: the worktrees actor (worktree.list|create|open|remove,
	// their source resolved from the session's published read side).
	OwnerWorktrees
	// OwnerReloads: the reloads actor (server.reload_config,
	// server.reload_agent_manifests: it loads the file or catalog and hands
	// it to the actors that apply it, the session among them).
	OwnerReloads
	ownerEnd
)

var ownerNames = [...]string{"unset", "gateway", "session", "agents", "clients", "plugins", "integrations", "web", "workspace", "tab", "pane", "machines", "tasks", "buffers", "events", "commands", "fleet", "loop", "audit", "review", "worktrees", "reloads"}

// String is the owner's name, as errors and the docs spell it.
func (o Owner) String() string {
	if int(o) < len(ownerNames) {
		return ownerNames[o]
	}
	return fmt.Sprintf("owner(%d)", uint8(o))
}

// Owners lists every owner.
func Owners() []Owner {
	out := make([]Owner, 0, ownerEnd-1)
	for o := ownerUnset + 1; o < ownerEnd; o++ {
		out = append(out, o)
	}
	return out
}

// ThroughSession reports whether the session resolves a call's target
// before its owner answers it (the agents, workspace, tab and pane
// actors, and the session itself): a connection sends such calls to the
// session.
func (o Owner) ThroughSession() bool {
	switch o {
	case OwnerSession, OwnerAgents, OwnerWorkspace, OwnerTab, OwnerPane:
		return true
	}
	return false
}

// Shape is what a call does to its connection.
type Shape uint8

const (
	shapeUnset Shape = iota
	// ShapeAnswer: one reply, soon.
	ShapeAnswer
	// ShapeWait: one reply that may take as long as the caller asked; the
	// params implement Waiting. A connection whose client leaves cancels it.
	ShapeWait
	// ShapeWatch: one reply; once accepted the connection is an interactive
	// client's, whose quiet spells are not idleness (screen.subscribe).
	ShapeWatch
	// ShapeStream: an accepted reply turns the connection into a stream of
	// lines from the server (events.subscribe); a refused one closes it.
	ShapeStream
	// ShapeFrames: an accepted reply turns the connection into a stream of
	// frames from the client (pane.graphics.stream): its reader stops after
	// the request line until the owner has answered.
	ShapeFrames
	shapeEnd
)

var shapeNames = [...]string{"unset", "answer", "wait", "watch", "stream", "frames"}

// String is the shape's name.
func (s Shape) String() string {
	if int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("shape(%d)", uint8(s))
}

// Waiting is implemented by the params of every ShapeWait method, and of
// any other that may take as long as a timeout its caller gives
// (agent.start), so the connection's safety deadline allows for it.
type Waiting interface {
	// Waits reports whether this call waits at all (agent.prompt only
	// with its wait option) and for how long at most: 0 is for as long
	// as it takes.
	Waits() (waits bool, timeout time.Duration)
}

// Browser says whether the web dashboard's page may call a method.
type Browser uint8

const (
	// BrowserDenied: the page may not (the zero value: a new method is
	// closed to it until its entry says otherwise).
	BrowserDenied Browser = iota
	// BrowserAllowed: reading, watching, focusing, closing.
	BrowserAllowed
	// BrowserTyping: writes to a program, rate-limited per page.
	BrowserTyping
)

func msTimeout(ms *uint64) time.Duration {
	if ms == nil {
		return 0
	}
	return max(time.Duration(*ms)*time.Millisecond, time.Millisecond)
}

// Waits implements Waiting.
func (p *EventsWaitParams) Waits() (bool, time.Duration) { return true, msTimeout(p.TimeoutMS) }

// Waits implements Waiting.
func (p *PaneWaitForOutputParams) Waits() (bool, time.Duration) {
	return true, msTimeout(p.TimeoutMS)
}

// Waits implements Waiting.
func (p *AgentWaitParams) Waits() (bool, time.Duration) { return true, msTimeout(p.TimeoutMS) }

// Waits implements Waiting: agent.start answers within the timeout it is
// given, if any.
func (p *AgentStartParams) Waits() (bool, time.Duration) {
	if p.TimeoutMS == nil {
		return false, 0
	}
	return true, msTimeout(p.TimeoutMS)
}

// Waits implements Waiting: a prompt waits only when asked to.
func (p *AgentPromptParams) Waits() (bool, time.Duration) {
	if p.Wait == nil {
		return false, 0
	}
	return true, msTimeout(p.Wait.TimeoutMS)
}

// checkRouting refuses a table entry without an owner or a shape, or a
// wait whose params do not say how long it waits.
func checkRouting(m Method) {
	if m.Owner == ownerUnset || m.Owner >= ownerEnd {
		panic(fmt.Sprintf("protocol: method %s has no owner", m.Name))
	}
	if m.Shape == shapeUnset || m.Shape >= shapeEnd {
		panic(fmt.Sprintf("protocol: method %s has no shape", m.Name))
	}
	if _, ok := m.Params().(Waiting); !ok && m.Shape == ShapeWait {
		panic(fmt.Sprintf("protocol: method %s has shape %s but its params do not say how long it waits (Waiting)", m.Name, m.Shape))
	}
}
