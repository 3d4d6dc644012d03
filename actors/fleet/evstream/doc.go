// Package evstream is the fleet's event stream (issue 48, item 3): every
// member publishes its lifecycle events, the JSON event envelope as it
// goes on the wire, into one JetStream stream, and a fleet subscriber
// reads them back from any stream sequence, so one that was disconnected
// resumes where it stopped and gets what it missed, in order.
//
// Subjects are <prefix>.<member>.<kind> (herdr.events.alpha.pane_created):
// the member's name is one subject token, so NATS permissions can let a
// member publish only under its own name, and a subscriber can be told
// which members it wants. The stream is bounded by age and by bytes
// (Config; the defaults keep a day or 256 MiB, whichever is less: enough
// for a laptop asleep overnight to catch up, small enough for a hub on a
// small disk). When a subscriber wants a sequence the stream no longer
// has (aged out, pushed out by bytes, or the stream was recreated), it is
// told so with a Lost (the wanted sequence and the first one it gets),
// the events_lost of the socket API, never silently.
//
// A member that retries a publish uses PublishOnce with the event's id
// (its name and bus sequence): the stream keeps one of each id, so a
// retry after a timeout whose first try was stored makes no duplicate.
//
// The package is shaped for an actor: Subscribe calls the caller's
// deliver func from NATS's goroutine, one delivery at a time and in
// order, and that func must only send a message (to an actor's PID or a
// channel); nothing here touches caller state. Publish waits for the
// stream's acknowledgement, so a caller runs it off its actor's Receive.
//
// No actor code and no server wiring here: the fleet actor (actors/fleet)
// owns the connection and calls this package.
package evstream
