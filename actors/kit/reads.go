package kit

// Reader answers a read from the newest snapshot its owner published,
// on the caller's goroutine: a list or get does not wait in the owner's
// mailbox behind writes. nil means it cannot answer this call from the
// snapshot (nothing published yet, a method it does not serve, an id in a
// form only the owner resolves): the caller sends the call to the owner
// as before, which answers it, errors included.
type Reader interface {
	Read(call *Call) *Reply
}
