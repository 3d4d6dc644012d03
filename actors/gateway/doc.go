// Package gateway accepts API connections and gives each one a conn actor.
//
// A conn actor decodes request lines, answers the methods the table gives
// the gateway itself (ping, server.stop, server.live_handoff, client_shell.surface.set,
// server.ssh_agent.register — a loan held for the connection's life, sshagent.go:
// Registry),
// routes the session's reads and every call whose target the session's
// ids name (a pane's, a workspace's, a tab's, the agents actor's) from the
// View the session last published (Options.Reads, paneroute.go): a read
// is answered on the connection, errors included, the others go straight
// to their owner's actor, and a call that finds the session behind waits
// in the read side, never in the session's mailbox; a pane's own calls by
// id then go to the pane it learnt at once (kit.PaneCall), whose mailbox,
// when idle, then runs on the connection's goroutine (kit.Inline: the
// pane told its post with its route), and a pane posts its frames to a
// screen connection the same way once the connection has offered it
// (kit.FramesWritten.Post). It sends the
// session's writes to the session, the rest to their owner — the clients,
// plugins, integrations or web actor for theirs (Options.Owners, checked
// at start-up) — and writes the replies back in request order. What a call does to the connection (a wait, a
// watch, a stream) is the method's Shape, not its name. A connection's
// reader goroutine hands the conn the whole lines it holds at once and,
// while the conn is idle, runs its mailbox itself (dispatch.go); answers
// go to the socket without waiting, the answers to lines read together in
// one write, and what the socket does not take goes to a writer goroutine
// started then, so a slow client never blocks an actor. The gateway's own
// mailbox runs on the goroutine that posts to it: a new connection is
// taken in, and its conn spawned, on the accept loop's goroutine, which
// also answers the requests the client had written by then (read without
// waiting) before the conn's reader starts. Readers' buffers are reused
// from ended connections, and so are their goroutines, whose stacks have
// grown (kit.Spare).
// When the gateway stops with the server, each connection that watches
// screens (an interactive client) is sent client.server_stopping before it
// closes, so the client exits instead of waiting for a new server.
// client_shell.surface.set is the connection's own state: while its
// surface is off, screen frames are held back (surface.go).
//
// Limits keep one client from deafening or bloating the server: failed
// accepts back off and retry; connections past a cap (lower under a low
// open-file limit) are answered with one server_unavailable line and
// closed; so is one past a peer process's share of the cap (the process as
// SO_PEERCRED / LOCAL_PEERPID name it), and a wait or stream past the
// share all of them may hold is answered server_unavailable, so a quarter
// of the connections always stays for short calls and the interactive
// client, whoever loops on waits (peers.go); a connection that waits for nothing is closed after IdleTimeout;
// a client reads ahead at most 64 requests of the answers actually
// written to it; and a connection whose unsent answers are over its
// budget (or over the budget of all connections) answers no further
// request until they go out, and is closed when its client takes nothing
// for StallTimeout (budget.go) — for an observer, a connection that
// watches screens or streams events, ObserverStall (30 s, Herdr 0.9.2's); over the budget of all connections, one
// whose socket is full (its client reads nothing) has no further answer
// made either. Once connections that held much have ended, one collection
// hands the memory back (trim.go).
//
// A connection that declared a [[policy]] (connection.policy, policy.go)
// has every call checked against it before it is answered or sent on
// (audit.Check), pipelined ones included, and keeps it until it ends;
// the calls of such a connection and of one that named itself (herdr
// mcp's) are sent to the audit log's actor with their outcome.
package gateway
