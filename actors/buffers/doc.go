// Package buffers is the paste buffers' actor (issue 46): a bounded list
// of texts, newest first, like tmux's buffers. buffer.set adds one (the
// interactive client's yank in copy mode sets one too), buffer.list,
// buffer.get and buffer.delete read and drop them, all answered from the
// actor's own list at once.
//
// buffer.paste finds its text here and hands the pane's typing to the
// session as a pane.send_input call carrying the text (protocol.PastedText:
// the person's own text, raw, less any bracketed-paste marker), sent on
// behalf of the caller: the session resolves the pane and the pane answers
// the caller itself, wrapping the text as a bracketed paste when its
// program asked for one. The actor never waits for the pane.
//
// Bounds (protocol): at most BufferMaxCount buffers of BufferMaxBytes
// each; past the count the oldest is dropped. Names: buffer<N> with N
// counting up for the server's life, or the name given to buffer.set,
// which replaces the buffer of that name. Nothing is saved: buffers live
// as long as the server (a live handoff does not carry them either).
package buffers
