package gateway

// fdLimit reports no limit: Windows has no per-process descriptor limit
// that sockets run into.
func fdLimit() (n int, limited bool) { return 0, false }

// outOfFDs is never true here; failed accepts just back off.
func outOfFDs(error) bool { return false }
