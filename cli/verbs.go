package cli

import (
	"slices"
	"strings"

	"github.com/herdr-go/herdr/protocol"
	"github.com/spf13/cobra"
)

// verb is one hand-written verb of a noun: its name and aliases, as its
// Use and Aliases say (TestRoot_BuildsOnlyTheChosenHandWrittenVerb checks
// they agree), and how to build it.
type verb struct {
	names []string
	build func() *cobra.Command
}

// addVerbs adds a noun's hand-written verbs. While rootCmd builds the noun
// a command line chose, with a.verb the word after it, it builds the verb
// that word names and no other, none when the word names another verb
// (the table's, which addTableCmds builds, or one already added), and all
// of them otherwise (help, a
// typo's suggestions): a noun's fifteen verbs with their flags cost a
// `herdr pane list` more than its socket call.
func (a *app) addVerbs(noun *cobra.Command, verbs ...verb) {
	if w := a.verb; w != "" {
		for _, v := range verbs {
			if slices.Contains(v.names, w) {
				noun.AddCommand(v.build())
				return
			}
		}
		if tableVerb(noun.Name(), w) || subcommand(noun, w) != nil {
			return // the table's, or one an earlier addVerbs built
		}
	}
	for _, v := range verbs {
		noun.AddCommand(v.build())
	}
}

// tableVerb says whether the method table has a verb `noun word`.
func tableVerb(noun, word string) bool {
	for m := range protocol.EntryRefs {
		if first, second := cliWords(m.CLI); first == noun && second == word {
			return true
		}
	}
	return false
}

// verbWord is the word after the noun in args (chosenNoun's command line),
// "" when a flag comes first (help may follow) or there is none.
func verbWord(args []string) string {
	seen := false // the noun
	for i := 0; i < len(args); i++ {
		switch s := args[i]; {
		case !seen && (s == "--session" || s == "--machine"):
			i++
		case strings.HasPrefix(s, "-"):
			if seen {
				return ""
			}
		case !seen:
			seen = true
		default:
			return s
		}
	}
	return ""
}
