// Package machines is the machines actor: the server's side of saved ssh
// machines (the profiles are its package saved, which the CLI also reads).
//
// The fleet actor (fleet.go) reads machines.json when it changes and
// supervises one link child per enabled machine; calls that come before
// its first read wait for it, in order, so no one is told of an empty
// fleet while the file is on its way. A link (link.go) keeps
// the machine's connection: ssh sessions to the remote herdr's
// remote-client-bridge (one for calls and health probes, one for the
// event stream, one per forwarded wait), sharing one OpenSSH connection
// (ControlMaster) where the platform has it; a mirror of the remote read
// model (session.snapshot and agent.list, re-read after the events that
// change it); and the state connecting → online, or offline (retried with
// a backoff of 1 s doubling to 30 s) or attention (a person must act:
// ssh refused, no herdr there, another protocol; retried each minute).
// Remote events are published on the local bus, qualified and marked
// with their machine, for fleet subscribers and plugin hooks; a state
// change is a machine_state_changed event.
//
// Calls whose targets are machine-qualified ("build/w1:p2") reach the
// fleet, which forwards them to the link; the link sends them on and
// answers the caller with the remote's answer qualified; one naming no
// saved machine goes on to the fleet actor (Options.Fleet) when this
// server is a member of a fleet on NATS (actors/fleet). Fleet-scoped
// agent.list and session.snapshot are answered by a gather child
// (gather.go): the session's local answer merged with the mirrors and,
// on a fleet member, the other NATS members' answers (fleet.Gather to
// the fleet actor), one id space. A
// fleet events.subscribe naming another machine's pane comes here too:
// its machine is checked and named by id, and the session registers it
// with the bus, which matches the link's events by machine and pane.
//
// Only the public API crosses the wire, so a remote may be an upstream
// Herdr server of protocol 22. The ssh sessions are read on goroutines
// (wire.go) that only send the link messages, within budgets: a line's
// size, an inbox of lines handed to the link and not yet taken (the
// reader waits for room, holding the remote back), and a rate of unasked
// lines past which the remote is flooding: the wire is cut and the link
// marked attention ("cut off: …"), warned in the log and retried after 1,
// 2, 4, 8 minutes. ssh runs through saved.StartPipe, whose wait and output
// end when ssh ends, whatever a child it left holds. An entry of
// machines.json that fails its checks is listed as attention with its
// reason and linked not at all; the others are. The ssh ControlPath is a
// hash of the id inside the server's private socket folder.
package machines
