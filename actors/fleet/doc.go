// Package fleet is the fleet actor: this server's membership of a fleet on
// NATS JetStream (issue 48), when config.toml has a [fleet] section.
//
// As it starts, a goroutine of its own runs the embedded hub when
// [fleet] hub = true (nats-server in this process, JetStream's store
// under the state dir, the configured user and password required of
// every client, a node of a clustered hub when routes are set: buckets
// then made with 3 replicas), then connects to the NATS servers (url, or
// the hub itself). The connection retries forever with a backoff of 1 s
// doubling to 30 s, an authorization error too; its callbacks only send
// the actor messages (the hub's state and the last error, which
// fleet.status shows and the log says at warn).
//
// Four children, each owning its subscriptions:
//
//   - presence keeps this member's entry in the key-value bucket
//     herdr-members ({name, version, labels, started}, a TTL of 15 s,
//     rewritten every 5 s) and watches the bucket, sending the parent
//     every member written, deleted or expired. fleet.status lists them:
//     online while the entry is fresh, dropped once it expired.
//   - calls answers the calls other members send on herdr.<name>.call:
//     each on a goroutine, through this server's own socket, so an answer
//     is exactly a local call's (its shapes and errors).
//   - tasks wires in the fleet board (package board): it answers
//     task.create, task.list and task.get with fleet: true (the tasks
//     actor hands them over), watches the board, and claims the ready
//     tasks this member is eligible for (labels) while it holds fewer
//     than Capacity (its dispatcher's max_running when the dispatcher
//     runs by config; none otherwise). A claimed task runs as a task of
//     this server's own board, made through its socket, so the local
//     dispatcher runs it as any other; every third of the lease's TTL the
//     child reads that local task and reports a new status (and its last
//     message) to the board, else renews the lease. Review, done, failed
//     or cancelled ends the lease; a lease found lost cancels the local
//     task. Every member sweeps the board every half TTL, returning the
//     leases of dead members to ready. Board calls run on goroutines.
//   - events relays this server's lifecycle events (the bus's, typed)
//     into the fleet's event stream (evstream, bounded by [fleet]
//     events_max_age_hours and events_max_mib) and publishes the other
//     members' on the bus as a saved machine's remote events are,
//     qualified by the member's name; fleet subscribers (events.subscribe
//     with "machines":"all") get them with this bus's sequence numbers,
//     so since_seq resumes them. A member republishes nothing it got from
//     the stream. It keeps its place in the stream (the next
//     sequence to read) in events.seq under the state dir (written at most once a second), so
//     a member that was down replays the stream from there as it rejoins;
//     a gap the stream no longer holds is a protocol.FleetEventsLost
//     (events_lost) on the bus for the fleet subscribers, and a warning.
//
// A fleet-scoped agent.list or session.snapshot (the machines actor's
// gather child) sends Gather: every online member is asked at once over
// NATS, bounded by 5 s, and the answers come back as a Gathered.
//
// A call for "NAME/w1:p2" whose NAME is no saved machine reaches this
// actor from the machines actor; it goes to member NAME as a NATS request
// and its answer comes back with every id qualified by NAME, as a saved
// machine's are. Unknown member: machine_not_found; a member that does not
// answer (gone, no responders, the timeout): machine_offline.
//
// Permissions: a hub whose config names its members ([[fleet.member]]
// name with a user and password or an nkey) gives each a user of its own
// (hub.go, memberPermissions): it may subscribe only its own call subject
// herdr.<name>.call and its own replies _INBOX.<name>.> (every member
// takes that inbox prefix), publish only its own events, call the others,
// answer callers and use JetStream; the hub's own user is member <name>
// of the hub. The server's refusals (a subject out of bounds, wrong
// credentials) are logged at warn naming the client. Without members
// every client of the shared user may do anything. The same permissions
// can be given on a NATS server you run. [fleet] allow limits what the
// other members may call on this one (allow.go): "read" lets in only
// methods that change nothing; a refusal is not_allowed naming the
// setting, answered before this server's socket sees the call.
//
// This package links nats-server; only the server (herdr-full) imports
// it, never the light front (cmd/herdr).
package fleet
