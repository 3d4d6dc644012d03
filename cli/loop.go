package cli

import "github.com/spf13/cobra"

// The agent loop's nouns (issue 49); their verbs come from the method
// table (protocol/loop.go, cli/fromtable.go).

// agentQueueCmd is `herdr agent queue`: add, list, remove, clear, pause.
func (a *app) agentQueueCmd() *cobra.Command {
	return a.group(&cobra.Command{
		Use:   "queue",
		Short: "Prompts queued for an agent, typed one each time it finishes a turn",
		Long: `Prompts queued for an agent, typed one each time it finishes a turn (done, or
idle after working), in order, once each, never while it is blocked or working
and not while the queue is paused. Queues are kept across restarts.`,
	})
}

// inboxCmd is `herdr inbox`: list, answer.
func (a *app) inboxCmd() *cobra.Command {
	return a.group(&cobra.Command{
		Use:   "inbox",
		Short: "Blocked agents, their questions and the answers they offer",
		Long: `Every blocked agent with its question (the screen lines that ask) and the
answers its prompt offers (numbered choices, yes/no). An answer is typed only
while the agent still asks the same question.`,
	})
}
