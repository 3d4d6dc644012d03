package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// Review (issue 49): `herdr review comment|list|send|accept` and
// `herdr worktree diff` are the table's verbs (protocol/review.go); the
// noun is here, and the two that read (diff, list) are drawn for a person
// at a terminal (verbStyleOf), the answer line otherwise.

func (a *app) reviewCmd() *cobra.Command {
	return a.group(&cobra.Command{
		Use:   "review",
		Short: "Review a worktree's branch: comment on its diff, send the comments to its agent, accept it",
		Long: `Review the work of an agent on a worktree (a worktree workspace, --workspace, or a
task whose worker has one, --task). herdr worktree diff shows the branch against
its base (the branch of the repository's main checkout, or --base). Comments go
on a line of a file of that diff and are kept with the task or workspace; send
types the pending ones into the agent as one prompt (when it is working, at the
end of its turn) and moves a task in review back to running; accept makes the
task done and, with --merge, merges the branch into its base (git merge --no-ff,
refused when the base has uncommitted changes or conflicts, which is aborted),
else prints the command that pushes it for a pull request.`,
		Example: "  herdr worktree diff --task task-4\n  herdr review comment --task task-4 --line 12 src/main.go use the helper here\n  herdr review send --task task-4\n  herdr review accept --task task-4 --merge",
	})
}

// drawDiff writes the files of a diff as a table, then the diff, its
// lines coloured as git colours them.
func drawDiff(w io.Writer, d protocol.WorktreeDiff) {
	fmt.Fprintf(w, "%s against %s (merge-base %.12s), %d files\n", protocol.Printable(d.Branch), protocol.Printable(d.Base), d.MergeBase, len(d.Files))
	row(w, "STATUS", "+", "-", "PATH")
	for _, f := range d.Files {
		add, del := strconv.Itoa(f.Additions), strconv.Itoa(f.Deletions)
		if f.Binary {
			add, del = "bin", "bin"
		}
		path := f.Path
		if f.OldPath != "" {
			path = f.OldPath + " → " + f.Path
		}
		row(w, f.Status, add, del, path)
	}
	if tw, ok := w.(*tabwriter.Writer); ok {
		_ = tw.Flush() // the table ends before the diff, which has tabs of its own
	}
	if d.Uncommitted {
		fmt.Fprintln(w, "note: the checkout has uncommitted changes, not in this diff (nor in a merge)")
	}
	if d.Truncated {
		fmt.Fprintf(w, "note: cut at %d files or %d bytes of diff\n", protocol.MaxDiffFiles, protocol.MaxDiffBytes)
	}
	fmt.Fprintln(w)
	writeDiff(w, d.Diff)
}

// writeDiff writes a unified diff with git's colours, each line made
// safe to draw (tabs kept).
func writeDiff(w io.Writer, diff string) {
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		safe := protocol.Printable(strings.ReplaceAll(line, "\t", "    "))
		colour := ""
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"), strings.HasPrefix(line, "diff --git"):
			colour = "\x1b[1m"
		case strings.HasPrefix(line, "@@"):
			colour = "\x1b[36m"
		case strings.HasPrefix(line, "+"):
			colour = "\x1b[32m"
		case strings.HasPrefix(line, "-"):
			colour = "\x1b[31m"
		}
		if colour != "" {
			fmt.Fprintf(w, "%s%s\x1b[m\n", colour, safe)
		} else {
			fmt.Fprintln(w, safe)
		}
	}
}

// drawReviews writes each thread's comments as a table.
func drawReviews(w io.Writer, l protocol.ReviewList) {
	if len(l.Threads) == 0 {
		fmt.Fprintln(w, "no review comments")
		return
	}
	for i, t := range l.Threads {
		if i > 0 {
			fmt.Fprintln(w)
		}
		who := t.TaskID
		if who == "" {
			who = t.WorkspaceID
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", protocol.Printable(who), protocol.Printable(t.Branch), protocol.Printable(t.Checkout))
		row(w, "ID", "STATUS", "WHERE", "COMMENT")
		for _, c := range t.Comments {
			text, _, more := strings.Cut(c.Text, "\n")
			if more {
				text += " …"
			}
			row(w, strconv.Itoa(c.ID), c.Status, c.File+":"+strconv.Itoa(c.Line), text)
		}
	}
}
