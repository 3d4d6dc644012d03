package cli

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// The commands of the method table. A method whose entry names a command
// path (protocol.Method.CLI, "workspace get") gets its verb built here,
// from the entry and its params type, unless a hand-written command has
// that path already: the hand-written ones are where Herdr's CLI differs
// from the params (a table at a terminal, a resolved --cwd or $HERDR_PANE_ID,
// a flag spelled unlike its field, a check before the request).
//
// A params field is on the command line by its `cli` tag:
//
//	`cli:"<pane>"`         a positional argument, in field order
//	`cli:"<label...>"`     the remaining arguments (a string joins them with spaces)
//	`cli:"--group"`        a flag; `cli:"-n,--name"` with a short form,
//	                       `cli:"--index,required"` one that must be given
//	`help:"…"`             a flag's help line
//
// A field without the tag is not on the command line. A pointer field is
// set only when its flag is given (the server then sees the key).
//
// The command's Short is the entry's Summary; its Long, the Summary and
// CLIHelp; its Example, CLIExample. It prints the answer line (a.call).

// addTableCmds adds the table's commands to the nouns root holds: a path
// whose first word is no noun of root (another noun, not built for these
// args: chosenNoun) is left out.
func (a *app) addTableCmds(root *cobra.Command) {
	for _, m := range protocol.Entries() {
		if m.CLI == "" {
			continue
		}
		words := strings.Fields(m.CLI)
		parent := root
		for _, w := range words[:len(words)-1] {
			parent = subcommand(parent, w)
			if parent == nil {
				break
			}
		}
		if parent == nil || subcommand(parent, words[len(words)-1]) != nil {
			continue
		}
		parent.AddCommand(a.tableCmd(m, words))
	}
}

// subcommand is cmd's subcommand called name (or aliased so), or nil.
func subcommand(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

// tableCmd builds the verb of method m at path words.
func (a *app) tableCmd(m protocol.Method, words []string) *cobra.Command {
	params := m.Params()
	v := reflect.ValueOf(params).Elem()
	cmd := &cobra.Command{Short: m.Summary, Example: m.CLIExample}
	if m.CLIHelp != "" {
		cmd.Long = m.Summary + m.CLIHelp
	}
	var (
		args     []reflect.Value // the positional fields, in order
		names    []string        // their placeholders, "<label>" for "<label...>"
		use      []string
		variadic bool
		onRun    []func(*cobra.Command) // pointer flags set when given
	)
	for i := range v.NumField() {
		f := v.Type().Field(i)
		tag := f.Tag.Get("cli")
		if tag == "" || tag == "-" {
			continue
		}
		field := v.Field(i)
		if strings.HasPrefix(tag, "<") {
			if variadic {
				panic(fmt.Sprintf("cli: %s: positional %s after a variadic one", m.Name, tag))
			}
			use = append(use, tag)
			name, rest := strings.CutSuffix(tag, "...>")
			if rest {
				name += ">"
				variadic = true
			}
			args, names = append(args, field), append(names, name)
			continue
		}
		onRun = append(onRun, bindFlag(cmd, m.Name, tag, f.Tag.Get("help"), field))
	}
	cmd.Use = strings.Join(append([]string{words[len(words)-1]}, use...), " ")
	switch {
	case variadic:
		cmd.Args = minArgs(names...)
	case len(names) == 0:
		cmd.Args = cobra.NoArgs // as the hand-written verbs
	default:
		cmd.Args = exactArgs(names...)
	}
	id := "cli:" + strings.Join(words, ":")
	view, asJSON := tableViews[m.Name], false // drawn at a terminal (cli/review.go)
	if view != nil {
		jsonFlag(cmd, &asJSON)
	}
	cmd.RunE = func(cmd *cobra.Command, given []string) error {
		for i, field := range args {
			if i == len(args)-1 && variadic {
				setVariadic(field, given[i:])
				break
			}
			field.SetString(given[i])
		}
		for _, set := range onRun {
			set(cmd)
		}
		if view != nil {
			return exit(a.request(id, m.Name, params, view(a, asJSON)))
		}
		return exit(a.call(id, m.Name, params))
	}
	return cmd
}

// setVariadic fills the last positional field with the remaining arguments.
func setVariadic(field reflect.Value, rest []string) {
	if field.Kind() == reflect.Slice {
		field.Set(reflect.ValueOf(rest))
		return
	}
	field.SetString(strings.Join(rest, " "))
}

// bindFlag declares the flag a `cli:"…"` tag names and binds it to field;
// what it returns sets a pointer field once the command runs, when the flag
// was given.
func bindFlag(cmd *cobra.Command, method, tag, help string, field reflect.Value) func(*cobra.Command) {
	var name, short string
	required := false
	for _, part := range strings.Split(tag, ",") {
		switch {
		case strings.HasPrefix(part, "--"):
			name = part[2:]
		case strings.HasPrefix(part, "-") && len(part) == 2:
			short = part[1:]
		case part == "required":
			required = true
		default:
			panic(fmt.Sprintf("cli: %s: bad cli tag %q", method, tag))
		}
	}
	if name == "" {
		panic(fmt.Sprintf("cli: %s: cli tag %q names no flag", method, tag))
	}
	flags := cmd.Flags()
	set := func(*cobra.Command) {}
	target := field
	if field.Kind() == reflect.Pointer {
		target = reflect.New(field.Type().Elem()).Elem()
		set = func(cmd *cobra.Command) {
			if cmd.Flags().Changed(name) {
				p := reflect.New(target.Type())
				p.Elem().Set(target)
				field.Set(p)
			}
		}
	}
	switch p := target.Addr().Interface().(type) {
	case *string:
		flags.StringVarP(p, name, short, *p, help)
	case *bool:
		flags.BoolVarP(p, name, short, *p, help)
	case *int:
		flags.IntVarP(p, name, short, *p, help)
	case *uint32:
		flags.Uint32VarP(p, name, short, *p, help)
	case *uint64:
		flags.Uint64VarP(p, name, short, *p, help)
	case *[]string:
		flags.StringArrayVarP(p, name, short, *p, help)
	default:
		panic(fmt.Sprintf("cli: %s: flag --%s of type %s is not supported", method, name, target.Type()))
	}
	if required {
		_ = cmd.MarkFlagRequired(name)
	}
	return set
}
