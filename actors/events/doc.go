// Package events is the event bus: one actor that stamps every event with a
// global sequence number, keeps a bounded history, and feeds subscribers
// and waiters.
//
// Subscribers are pulled, not pushed: each has a cursor into the history
// and at most one batch in flight; the next batch goes out when the last was
// written. A subscriber whose cursor falls out of the history gets
// events_lost and is dropped. So publishers never wait, other subscribers
// are never slowed, and memory is the history plus one batch per
// subscriber, whatever a client does.
package events
