package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// taskCmd is `herdr task`: the task board (actors/tasks). Every verb but
// board prints the JSON response line.
func (a *app) taskCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "task",
		Short: "The task board: create, list, dispatch and report tasks",
		Long: `Tasks are durable and independent of panes: a title, a description, a folder,
a priority and dependencies, with a status (backlog, ready, running, blocked,
review, done, failed, cancelled) that moves only as the board allows
(running → done is refused: review is the gate). Task ids look like task-3
and are never reused. Every verb but board prints the JSON response line.`,
	})

	var (
		c       protocol.TaskCreateParams
		cwd     string
		depends []string
	)
	create := &cobra.Command{
		Use:     "create --title T",
		Short:   summary("task.create"),
		Example: `  herdr task create --title "Add retry policy" --description "…" --depends-on task-1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p := c
			p.DependsOn = depends
			if cwd != "" {
				abs, err := a.absPath(cwd)
				if err != nil {
					return err
				}
				p.Cwd = abs
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:task:create", "task.create", p))
		},
	}
	create.Flags().StringVar(&c.Title, "title", "", "the task's title (required)")
	create.Flags().StringVar(&c.Description, "description", "", "what to do")
	create.Flags().StringVar(&cwd, "cwd", "", "the folder to work in (required while the task dispatcher runs)")
	create.Flags().Int64Var(&c.Priority, "priority", 0, "lower runs first")
	create.Flags().StringArrayVar(&depends, "depends-on", nil, "a task that must be done first (repeatable)")
	create.Flags().StringVar(&c.AgentSessionID, "agent-session-id", "", "the agent session the task came from")
	create.Flags().BoolVar(&c.Backlog, "backlog", false, "start in the backlog, not ready")
	create.Flags().BoolVar(&c.Fleet, "fleet", false, "put it on the fleet's board, for any member's dispatcher to run")
	create.Flags().StringArrayVar(&c.Requires, "requires", nil, "a fleet task: a label its member must have (repeatable)")
	_ = create.MarkFlagRequired("title")
	cmd.AddCommand(create)

	var statuses []string
	var listJSON, listFleet bool
	var limit, offset int
	list := jsonFlag(&cobra.Command{
		Use:   "list",
		Short: summary("task.list"),
		Long:  summary("task.list") + ". A table at a terminal; the JSON response line with --json or when piped.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.TaskListParams{Status: statuses, Limit: limit, Offset: offset, Fleet: listFleet}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.request("cli:task:list", "task.list", p, tableFor(a, listJSON, drawTasks)))
		},
	}, &listJSON)
	list.Flags().StringArrayVar(&statuses, "status", nil, "only tasks of this status (repeatable)")
	list.Flags().IntVar(&limit, "limit", 0, fmt.Sprintf("at most this many tasks (1-%d; default: every one); the answer's next_offset starts the next page", protocol.MaxTaskListLimit))
	list.Flags().IntVar(&offset, "offset", 0, "skip this many tasks of the listing first")
	list.Flags().BoolVar(&listFleet, "fleet", false, "the fleet's board, each task with the member running it")
	cmd.AddCommand(list)

	var activities int
	var before uint64
	var getFleet bool
	get := &cobra.Command{
		Use:   "get <task>",
		Short: summary("task.get"),
		Long: summary("task.get") + `: its newest activities (--activities, default ` + fmt.Sprint(protocol.DefaultTaskActivities) + `) and
activity_count, how many it keeps; --before SEQ pages back through older ones.`,
		Args: exactArgs("<task>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.TaskGetParams{TaskID: args[0], ActivityLimit: activities, ActivitiesBefore: before, Fleet: getFleet}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:task:get", "task.get", p))
		},
	}
	get.Flags().IntVar(&activities, "activities", 0, fmt.Sprintf("this many of its newest activities (1-%d)", protocol.MaxTaskActivities))
	get.Flags().Uint64Var(&before, "before", 0, "only activities older than this seq")
	get.Flags().BoolVar(&getFleet, "fleet", false, "a task of the fleet's board")
	cmd.AddCommand(get)

	cmd.AddCommand(&cobra.Command{
		Use:   "board",
		Short: "Print the board: a column per status, each task with its newest activity",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.board())
		},
	})

	var message string
	report := &cobra.Command{
		Use:     "report <task> <status> [--message M]",
		Short:   summary("task.report"),
		Example: `  herdr task report task-3 review --message "retry policy added, tests pass"`,
		Args:    exactArgs("<task>", "<status>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.TaskReportParams{TaskID: args[0], Status: args[1], Message: message, Source: "cli"}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.call("cli:task:report", "task.report", p))
		},
	}
	report.Flags().StringVar(&message, "message", "", "what happened")
	cmd.AddCommand(report)

	// remove, attach, dispatch and run: the table's (cli/fromtable.go).
	return cmd
}

// board prints the tasks in a column per status (a section per column,
// as a terminal of any width shows it), each with its newest activity.
func (a *app) board() int {
	const id = "cli:task:board"
	c, sock, code := a.connect(id)
	if c == nil {
		return code
	}
	defer c.Close()
	var list protocol.TaskList
	if code := a.boardCall(c, sock, "task.list", protocol.TaskListParams{}, &list); code != 0 {
		return code
	}
	// The list leaves activities out; each task's newest comes from its
	// task.get, on the same connection.
	newest := map[string]protocol.TaskActivity{}
	for _, t := range list.Tasks {
		var got protocol.TaskInfoResult
		if code := a.boardCall(c, sock, "task.get", protocol.TaskGetParams{TaskID: t.ID, ActivityLimit: 1}, &got); code != 0 {
			return code
		}
		if n := len(got.Task.Activities); n > 0 {
			newest[t.ID] = got.Task.Activities[n-1]
		}
	}
	fmt.Fprint(a.stdout, renderBoard(list.Tasks, newest))
	return 0
}

// boardCall is one request of board, its result decoded into out.
func (a *app) boardCall(c *protocol.Client, sock, method string, params, out any) int {
	const id = "cli:task:board"
	line, resp, err := roundTrip(c, id, method, params)
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	if err := protocol.Unmarshal(resp.Result, out); err != nil {
		return a.fail(id, fmt.Errorf("task board: %v", err))
	}
	return 0
}

// renderBoard is the board's text: every status, its count and its
// tasks, strings made printable (titles come from any client).
func renderBoard(tasks []protocol.TaskInfo, newest map[string]protocol.TaskActivity) string {
	var b strings.Builder
	for _, status := range protocol.TaskStatuses {
		var in []protocol.TaskInfo
		for _, t := range tasks {
			if t.Status == status {
				in = append(in, t)
			}
		}
		fmt.Fprintf(&b, "%s (%d)\n", strings.ToUpper(status), len(in))
		for _, t := range in {
			fmt.Fprintf(&b, "  %-8s %s", t.ID, protocol.Printable(t.Title))
			if t.Assignee != nil {
				fmt.Fprintf(&b, "  @%s", protocol.Printable(t.Assignee.Target))
			}
			b.WriteByte('\n')
			if act, ok := newest[t.ID]; ok {
				fmt.Fprintf(&b, "           #%d %s\n", act.Seq, protocol.Printable(activityText(act)))
			}
		}
	}
	return b.String()
}

// activityText is one line of an activity: its kind, the move, the message.
func activityText(act protocol.TaskActivity) string {
	text := act.Kind
	switch {
	case act.From != "" && act.Status != "":
		text += " " + act.From + " → " + act.Status
	case act.Status != "":
		text += " " + act.Status
	}
	if act.Message != "" {
		text += ": " + firstLine(act.Message)
	}
	return text
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
