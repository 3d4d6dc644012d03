package dispatcher

import (
	"fmt"
	"strings"

	"github.com/herdr-go/herdr/actors/agents/shellquote"
	"github.com/herdr-go/herdr/protocol"
)

// slugMax bounds the title's share of a worker's branch name.
const slugMax = 40

// Slug is a title as a branch name's words: its runs of lower-case
// letters and digits joined by '-', as many whole words as fit in slugMax
// bytes (a first word longer than that cut), "" when none.
func Slug(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
	slug := ""
	for _, w := range words {
		switch {
		case slug == "" && len(w) > slugMax:
			return w[:slugMax]
		case slug == "":
			slug = w
		case len(slug)+1+len(w) > slugMax:
			return slug
		default:
			slug += "-" + w
		}
	}
	return slug
}

// BranchName is a worker's branch: the prefix, the task's id and its
// title's slug ("task/task-3-add-retry-policy"). It is an error when git
// would not take the result as a branch (a bad prefix).
func BranchName(prefix, id, title string) (string, error) {
	name := prefix + id
	if s := Slug(title); s != "" {
		name += "-" + s
	}
	if err := protocol.BranchName("branch_prefix", &name); err != nil {
		return "", err
	}
	return name, nil
}

// CommandLine is what the dispatcher types into a worker's shell, shell
// being the name of the program running in the pane (pane.process_info's
// leader of the job in front): the task's id exported as HERDR_TASK_ID
// (so the agent, and the herdr it runs, know their task), then the
// [tasks] agent template with {id} and {title} replaced by the task's,
// each quoted for that shell's dialect (shellquote.Word: fish reads '\'
// inside single quotes, PowerShell doubles a quote). The replacement is
// one pass, so a title that says "{id}" stays as it is. A control
// character in the title (a title cannot have one, but the typed line
// must never carry Enter or Ctrl-U) becomes a space. A shell whose
// quoting is not known takes only words that need no quoting, and the
// error says so.
func CommandLine(shell, template, id, title string) (string, error) {
	d := shellquote.DialectOf(shell)
	quotedID, err := shellquote.Word(d, id)
	if err != nil {
		return "", fmt.Errorf("the task's id cannot be typed into %s: %w", shellName(shell), err)
	}
	quotedTitle := ""
	if strings.Contains(template, "{title}") {
		flat := strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				return ' '
			}
			return r
		}, title)
		if quotedTitle, err = shellquote.Word(d, flat); err != nil {
			return "", fmt.Errorf("the task's title cannot be typed into %s: %w", shellName(shell), err)
		}
	}
	line := strings.NewReplacer("{id}", quotedID, "{title}", quotedTitle).Replace(template)
	switch d {
	case shellquote.Fish:
		return "set -gx HERDR_TASK_ID " + quotedID + "; " + line, nil
	case shellquote.PowerShell: // an expression: the value is a string literal
		return "$env:HERDR_TASK_ID = '" + strings.ReplaceAll(id, "'", "''") + "'; " + line, nil
	}
	return "export HERDR_TASK_ID=" + quotedID + "; " + line, nil
}

// shellName names the pane's shell in an error.
func shellName(shell string) string {
	if shell == "" {
		return "the pane's shell (which one runs there is not known)"
	}
	return "the pane's shell (" + shell + ")"
}
