package config

// Tasks holds the [tasks] section: the task board's dispatcher (off
// unless asked), read when the server starts.
type Tasks struct {
	// Dispatcher (dispatcher, default false) starts the dispatcher with
	// the server, as `herdr task run` does for one server's life.
	Dispatcher bool
	// Agent (agent, default "claude") is a worker's command line; {id}
	// and {title} are replaced by the task's, shell-quoted.
	Agent string
	// MaxRunning (max_running, default 2, 1–64) bounds the workers at once.
	MaxRunning int
	// BranchPrefix (branch_prefix, default "task/") starts a worker's branch name.
	BranchPrefix string
}

func defaultTasks() Tasks {
	return Tasks{Agent: "claude", MaxRunning: 2, BranchPrefix: "task/"}
}

var tasksFields = []field{
	{key: "dispatcher", doc: "Start the task dispatcher with the server: it runs ready tasks on workers of its own (herdr task run does it for one server's life).",
		ptr: func(c *Config) any { return &c.Tasks.Dispatcher }},
	{key: "agent", doc: "A worker's command line; {id} and {title} are replaced by the task's, shell-quoted.",
		ptr: func(c *Config) any { return &c.Tasks.Agent }},
	{key: "max_running", doc: "At most this many workers at once.",
		ptr: func(c *Config) any { return &c.Tasks.MaxRunning }, lo: 1, hi: 64},
	{key: "branch_prefix", doc: "A worker's branch is this prefix, the task's id and its title's words.",
		ptr: func(c *Config) any { return &c.Tasks.BranchPrefix }},
}

func (d *decoder) tasks(t map[string]any) { d.fields("tasks", t, tasksFields) }
