package web

// fdLimit reports no limit: Windows has no per-process descriptor limit
// that sockets run into.
func fdLimit() (n int, limited bool) { return 0, false }
