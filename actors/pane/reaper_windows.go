package pane

// reaper: Windows waits on each process's handle (conConsole.OnExit), so
// a runtime has nothing to share there.
type reaper struct{}

func newReaper() *reaper { return &reaper{} }
