package kit

// FDLimit reports no limit: Windows has no per-process descriptor limit
// that sockets run into.
func FDLimit() (n int, limited bool) { return 0, false }
