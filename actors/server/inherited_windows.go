package server

// closeInheritedOnExec has nothing to do on Windows: panes are created
// with no handle inheritance at all (the ConPTY is their console), and
// os/exec gives the other children only the handles it lists.
func closeInheritedOnExec() {}
