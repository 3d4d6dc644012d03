package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

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

// drawInbox writes each blocked agent, its question's lines and the
// answers it offers, for a person at a terminal (verbStyleOf).
func drawInbox(w io.Writer, l protocol.InboxList) {
	if len(l.Items) == 0 {
		fmt.Fprintln(w, "no agent is waiting for an answer")
		return
	}
	for i, it := range l.Items {
		if i > 0 {
			fmt.Fprintln(w)
		}
		who := it.Agent
		if it.Name != "" {
			who += " " + it.Name
		}
		fmt.Fprintf(w, "%s  %s  question %s\n", protocol.Printable(it.PaneID), protocol.Printable(who), protocol.Printable(it.QuestionID))
		for _, line := range strings.Split(it.Question, "\n") {
			fmt.Fprintln(w, "  "+protocol.Printable(line))
		}
		var answers []string
		for _, c := range it.Choices {
			answers = append(answers, protocol.Printable(c.Key)+". "+protocol.Printable(c.Label))
		}
		if len(answers) == 0 {
			answers = []string{"answer with --text"}
		}
		fmt.Fprintln(w, "  → "+strings.Join(answers, "   "))
	}
}
