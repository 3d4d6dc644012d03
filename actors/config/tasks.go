package config

// Tasks holds the [tasks] section: the task board's dispatcher (off
// unless asked). server.reload_config applies it to the running
// dispatcher.
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
	// AgentStartTimeout (agent_start_timeout, seconds, default 30,
	// 1–3600) is how long a worker's agent has to be recognised in its
	// pane before the worker is given up.
	AgentStartTimeout int
	// MaxAttempts (max_attempts, default 3, 1–100) is how many workers a
	// task is given before one that cannot start moves it to failed.
	MaxAttempts int
	// RetryDelay (retry_delay, seconds, default 5, 0–3600) is the wait
	// before a given-up task's next worker; it doubles each time.
	RetryDelay int
	// KeepDone (keep_done, default 500, 0–100000; 0 keeps every one) is
	// how many done and cancelled tasks the board keeps, the oldest
	// finished removed first.
	KeepDone int
	// KeepDoneDays (keep_done_days, default 30, 0–3650; 0 keeps them
	// however old) removes a done or cancelled task that many days after
	// it finished.
	KeepDoneDays int
}

func defaultTasks() Tasks {
	return Tasks{Agent: "claude", MaxRunning: 2, BranchPrefix: "task/", AgentStartTimeout: 30, MaxAttempts: 3, RetryDelay: 5, KeepDone: 500, KeepDoneDays: 30}
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
	{key: "agent_start_timeout", doc: "Seconds a worker's agent has to be recognised in its pane (a command not found never is) before the worker is given up.",
		ptr: func(c *Config) any { return &c.Tasks.AgentStartTimeout }, lo: 1, hi: 3600},
	{key: "max_attempts", doc: "Workers a task is given; when the last cannot start either, the task moves to failed with the reason.",
		ptr: func(c *Config) any { return &c.Tasks.MaxAttempts }, lo: 1, hi: 100},
	{key: "retry_delay", doc: "Seconds before a given-up task gets its next worker; doubled at each attempt.",
		ptr: func(c *Config) any { return &c.Tasks.RetryDelay }, lo: 0, hi: 3600},
	{key: "keep_done", doc: "Done and cancelled tasks the board keeps; past it the oldest finished are removed (0 keeps every one). One a backlog task depends on stays.",
		ptr: func(c *Config) any { return &c.Tasks.KeepDone }, lo: 0, hi: 100000},
	{key: "keep_done_days", doc: "Days a done or cancelled task stays on the board after it finished (0 keeps them however old).",
		ptr: func(c *Config) any { return &c.Tasks.KeepDoneDays }, lo: 0, hi: 3650},
}

func (d *decoder) tasks(t map[string]any) { d.fields("tasks", t, tasksFields) }
