// Package session is the topology authority of a herdr session: which
// workspaces, tabs and panes exist, their ids, order, layout trees, zoom
// and focus, changed only here and only through the model package, so a
// change that spans entities (a split, closing the last pane of a tab) is
// one step inside one message with no asks. Beside the topology it holds
// its read side's records (view.Records: each terminal's actor, the facts
// its pane told, what the agents actor shows of its agent, its size),
// which render every record and publish the read model; the session
// hands them what it learns at fixed points of a message and journals a
// record it puts or drops in the message's transaction. The
// keeper actor writes that file and (unless [advanced]
// persist_scrollback_lines = 0) each pane's lines in history/ beside it
// (asked of the panes it finds in the published View); the session tells
// it the file changed and hands it a detached model.Saved, with each
// pane's lines key, when it asks (persist.go).
// After each message that changed the read model its records publish a
// view.View built by view.Build (view.Records.Publish, from settle; the
// session's answers and events render their records with the same
// functions): every
// read (lists, gets, counts, pane.layout, pane.edges, pane.neighbor,
// layout.export, session.snapshot, client.ui_state.get, the agent
// manifests) is answered from the newest one by one function in package
// view, and never enters the session's mailbox when a connection asks;
// published before the message's answer and events, and first once the
// restore is done.
// Each message that may change the topology runs in one transaction, a
// txn value (txn.go) holding the model's journal, typed undos of the
// session's own records it changed (a terminal's record put or dropped),
// and typed effects (events, entity and pane actors to start or
// stop, messages to other actors): settle commits it and applies the
// effects once, in a fixed order; abandon drops them. The session keeps no
// queue of its own. The writes are the model's operations (model/ops_*.go);
// one that starts panes is checked and placed by the model, started here
// (launch, spawn.go) and finished by the model.
// A saved session is restored as the session's first message, so calls
// wait for it and every list answers the whole of it (restore.go: the
// model builds it, panes.Spawner.Restore starts its terminals, the model
// takes in what started).
//
// Everything else is another actor's. A connection routes a call the
// table gives a pane, the agents actor, a workspace or a tab, and the
// agent calls a pane answers (agent.read, agent.explain,
// agent.send_keys), from the newest View (view/route.go, every id form and
// agent names resolved there, errors included) straight to its owner; a
// call that finds the session behind waits in the read side until the
// session caught up, not in its mailbox. The actors that make such calls
// as a client would (tasks, loop, dispatcher, buffers, machines, review,
// web) route them the same way (kit.SessionRoutes); one sent here anyway
// is answered internal_error naming it (the Registry has no handler for
// it: Routed). The
// agents actor's rendered answers and pane.scroll's answer come from the
// read side too (view/answer.go). Plugin
// calls, popup.open and worktree.* go from the gateway to the plugins,
// clients and worktrees actors, which take their context or source from
// the newest View and ask here only for a topology change. What comes
// here is the session's writes: route resolves the target once, as the
// method's table entry declares, and runs the handler (session.go); its
// own handlers are Registry. Another
// actor that needs the topology changed asks with one message carrying
// the call (api.OpenPane, FocusPane, ClosePane; worktrees.OpenCheckout,
// CloseCheckout), applied as one transaction. Pane actors are the panes
// supervisor's children (actors/panes: it stops one that fails and tells
// the session it is gone, and stops them all at the server's stop, after
// the session's last save): the session has the terminal started and
// the actor spawned under the supervisor inside the message
// (panes.Spawner.StartPane, given the pane's ids, size and setup), so a
// pane that cannot start fails its call and its PID is there for the next
// forward, and its transaction's effects hand the supervisor the pane
// (startPane) or have it stop one (the model's Stop). A pane tells the session
// its facts and its program's end directly (pane.Spec.Owner), no hop.
// The workspace and tab actors are the entities supervisor's
// (actors/entities, the server's; the session starts its own supervisors
// when none is given, as its tests do), told at the end of the
// message that made or removed their entity to start or stop them
// (entities.go).
//
// Some calls about the session's panes never enter its mailbox: their
// owners resolve the ids from the newest View (view.View.Resolve*, every
// form the model accepts) and ask the session only for the topology
// change they need (kit.OpenPane): events.wait and events.subscribe (the bus),
// screen.subscribe, pane.edit_scrollback and client.resize (the clients
// actor, which keeps the client's frame geometry and hands the session
// the tab area, kit.SetArea),
// command.invoke and pane.link.activate's links (the commands actor).
//
// Receive switches on kinds of message, not on each message (kinds.go,
// kit/session.go): a call; a kit.TopologyAsk (another actor's topology
// change for a call it carries); a kit.Fact (what a pane, entity or the
// agents actor says changed); a kit.Keeping (the keeper's or a handoff's
// prompt to write the session down); a kit.PassOn (an answer passing
// through); and its own lifecycle. A pane gone is a fact: its program
// exited (pane.Exited) or its actor failed (panes.Gone).
package session
