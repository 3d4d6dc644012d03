// Package events is the event bus: one actor that stamps every event with a
// global sequence number and keeps a bounded history, and one child actor
// per subscription (sub.go) and per events.wait.
//
// A sub owns its filter, its cursor, its one batch in flight and the
// events_lost rule. The bus is only ever told, so the choice was between
// the bus telling every sub every record and each sub keeping its own
// bounded queue, or the subs pulling: a sub that is idle tells the bus
// more{from}, and the bus's next flush tells it the records from there —
// pointers into the shared history, never copied or changed. Subs pull.
// Pushing every flush to every sub was built first and measured: each sub
// answered at once and wrote a batch of about one line, so 100 subscribers
// cost three times the CPU of the old single-actor bus. Pulling, a sub
// writing a batch is sent nothing, what piles up meanwhile leaves as one
// batch, and connections acknowledge through the bus, whose mailbox paces
// them as before. A sub that asks for records the history no longer holds
// sees the gap, tells its connection events_lost and stops; nobody else is
// slowed, and memory is the history plus one batch per subscriber. A
// connection's sub whose batch stays unwritten for the stall timeout
// (DefaultStallTimeout, 30 s, as Herdr 0.9.2; PropsStall sets it) is
// dropped the same way: its connection gets events_lost saying so.
//
// since_seq: a sub is spawned with the retained history after since_seq,
// or lost at once when that history is gone. Volatile events (output and
// scroll changes, output matches) are handed to the waits and subs as they
// come, never retained.
//
// Live handoff: Export answers the retained history and the next number,
// and from then on the bus numbers nothing (what is published waits until
// Resume, sent when the handoff failed), so no number is given twice. The
// new server's bus starts from it (PropsCarried) and numbers on.
//
// events.subscribe is the bus's own method too (subscribe.go): its
// panes are resolved from the read side as a wait's ids are, every entry
// checked before any is registered, and each pane.output_matched entry
// starts a matcher on its pane (AddMatcher).
//
// events.wait is the bus's own method (wait.go, Registry): it resolves the
// wait's ids from the session's published read side (ReadSide, the
// server's is actors/session/view.ReadSide), once that shows every
// message the session was sent before the call came, so a write answered
// before the wait was sent is seen; the session is not asked. A wait the
// present state already matches is answered by the bus at once
// (ReadSide.Present); else a wait is a
// short-lived child: it answers its connection with the first
// matching record published after it was spawned, or a timeout error from
// a scheduler timer (not SetReceiveTimeout, which races in this protoactor
// version when messages keep arriving, as they do for a wait).
//
// Supervision: the bus supervises its children itself (Bus.HandleFailure).
// A child that panics is stopped, never restarted — a new sub would not
// know what its connection was sent. The connection of a failed sub gets
// Failed and ends its stream with one internal_error line carrying the
// subscribe request's id, the same shape as events_lost; a failed wait
// answers its request with internal_error. Every other child carries on.
//
// Typed: records keep the event's protocol.EventData; its JSON line is
// made once, by the first sub, wait or export that needs it, and shared
// (record.encoded). A sub of an actor of this server (Subscribe.Typed)
// hands it Events, the typed values, and encodes nothing; a sub of a
// connection hands it Batch lines. Publishers hand their data over and
// never change it after.
//
// Subs and waits run inline on the goroutine that sends to them (almost
// always the bus's): their turns are a few map lookups and one send.
package events
