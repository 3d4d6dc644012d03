package dispatcher

import (
	"strings"

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

// ShellQuote spells s as one word for a POSIX shell: single quotes, a
// quote inside as '\”. fish reads it the same unless s holds a
// backslash. A control character (a title cannot have one, but the
// typed line must never carry Enter or Ctrl-U) becomes a space.
func ShellQuote(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CommandLine is what the dispatcher types into a worker's shell: the
// task's id exported as HERDR_TASK_ID (so the agent, and the herdr it
// runs, know their task), then the [tasks] agent template with {id} and
// {title} replaced by the task's, each shell-quoted. The replacement is
// one pass, so a title that says "{id}" stays as it is.
func CommandLine(template, id, title string) string {
	quotedID := ShellQuote(id)
	line := strings.NewReplacer("{id}", quotedID, "{title}", ShellQuote(title)).Replace(template)
	return "export HERDR_TASK_ID=" + quotedID + "; " + line
}
