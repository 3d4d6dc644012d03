package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/herdr-go/herdr/protocol"
)

// didYouMean is cobra's suggestion block for the words given, "" for none;
// usageMessage folds it onto the error's line (suggested).
func didYouMean(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return "\n\nDid you mean this?\n\t" + strings.Join(words, "\n\t") + "\n"
}

// nearCommand is the subcommand of cmd a mistyped word most likely meant:
// the nearest name (protocol.Closest), else those it is a prefix of.
func nearCommand(cmd *cobra.Command, word string) []string {
	var names, prefixed []string
	for _, c := range cmd.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		names = append(names, c.Name())
		if strings.HasPrefix(c.Name(), word) {
			prefixed = append(prefixed, c.Name())
		}
	}
	if near := protocol.Closest(word, names); near != "" {
		return []string{near}
	}
	return prefixed
}

// suggested is " (did you mean X?)" from a cobra message's suggestion
// block, "" when it has none.
func suggested(msg string) string {
	_, block, ok := strings.Cut(msg, "Did you mean this?")
	if !ok {
		return ""
	}
	words := strings.Fields(block)
	if len(words) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(words, " or ") + "?)"
}

// unknownFlag adds the nearest flag of cmd to pflag's "unknown flag:
// --lable"; nil when err is another error or no flag is near.
func unknownFlag(cmd *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return nil
	}
	name, _, _ = strings.Cut(name, "=")
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	near := protocol.Closest(name, names)
	if near == "" {
		return nil
	}
	return fmt.Errorf("unknown flag: --%s (did you mean --%s?)", name, near)
}

// pflag's message for a value its type cannot parse.
var invalidArgument = protocol.LazyRegexp(`^invalid argument "(.*)" for "(?:-\w, )?--([^"]+)" flag: `)

// badFlagValue words pflag's "invalid argument "abc" for "--timeout"
// flag: strconv.ParseUint: …" as what the flag wants; nil for another error.
func badFlagValue(cmd *cobra.Command, err error) error {
	m := invalidArgument().FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	f := cmd.Flags().Lookup(m[2])
	if f == nil {
		return nil
	}
	want := map[string]string{
		"uint": "a whole number, 0 or more", "uint8": "a whole number, 0 or more", "uint16": "a whole number, 0 or more",
		"uint32": "a whole number, 0 or more", "uint64": "a whole number, 0 or more",
		"int": "a whole number", "int32": "a whole number", "int64": "a whole number",
		"float32": "a number", "float64": "a number", "bool": "true or false",
		"duration": "a duration such as 500ms, 30s or 2m",
	}[f.Value.Type()]
	if want == "" {
		return nil
	}
	_, usage := pflag.UnquoteUsage(f)
	return fmt.Errorf("invalid --%s %q: expected %s (%s)", f.Name, protocol.Printable(m[1]), want, usage)
}
