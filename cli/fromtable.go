package cli

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
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
//	`cli:"<label...>"`     the remaining arguments (a string joins them with
//	                       spaces, a []string keeps them)
//	`cli:"--group"`        a flag; `cli:"-n,--name"` with a short form,
//	                       `cli:"--index,required"` one that must be given,
//	                       `cli:"--index,min=0"` an int refused below 0,
//	                       `cli:"--direction,oneof=left|right"` a string
//	                       refused unless one of those (usage errors, before
//	                       any request), `cli:"--amount,default=0.05"` a
//	                       default other than the zero value,
//	                       `cli:"--plugin,value=ID"` the flag's value named
//	                       in its help (--plugin ID; the word in help:)
//	`cli:"[<pane>|--pane|--current]"`
//	                       a *string pane: the optional argument, --pane, or
//	                       the calling pane with --current ($HERDR_PANE_ID),
//	                       else unset (the server's focused pane);
//	                       `cli:"--pane|--current"` the same without the
//	                       argument (paneSel, pane.go)
//	`help:"…"`             a flag's help line
//
// A field without the tag is not on the command line. A pointer field is
// set only when its flag is given (the server then sees the key).
//
// The entry's CLI is the command path, then, when the usage line says more
// than the positional arguments ("tab move <tab> --index N"), that line:
// the words from the first that starts with <, [ or -.
//
// The command's Short is the entry's Summary; its Long, the Summary and
// CLIHelp; its Example, CLIExample. It prints the answer line (a.call),
// unless the method's verbStyle (tables.go) says otherwise: a list draws
// its table at a terminal and takes --json; a silent verb prints nothing,
// a verbatim one also sends every argument after the first as is; a
// checked one runs the params' Validate before connecting.

// addTableCmds adds the table's commands to the nouns root holds: a path
// whose first word is no noun of root (another noun, not built for these
// args: chosenNoun) is left out, and with verb set, one whose second word
// is not verb (chosenVerb).
func (a *app) addTableCmds(root *cobra.Command, verb string) {
	for m := range protocol.EntryRefs {
		if m.CLI == "" {
			continue
		}
		if _, second := cliWords(m.CLI); verb != "" && second != verb {
			continue // verb: only its commands (chosenVerb)
		}
		words, _ := cliPath(m.CLI)
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
		parent.AddCommand(a.tableCmd(*m, words))
	}
}

// cliPath splits an entry's CLI into the command path and the usage line
// after the verb ("" when the positional arguments spell it).
func cliPath(cli string) (path []string, use string) {
	words := strings.Fields(cli)
	for i, w := range words {
		if strings.ContainsAny(w[:1], "<[-") {
			return words[:i], strings.Join(words[i:], " ")
		}
	}
	return words, ""
}

// cliWords are the first two words of an entry's CLI, without splitting
// the rest (a command line's start looks at every entry).
func cliWords(cli string) (first, second string) {
	cli = strings.TrimLeft(cli, " ")
	first, rest, _ := strings.Cut(cli, " ")
	second, _, _ = strings.Cut(strings.TrimLeft(rest, " "), " ")
	return first, second
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
	style := verbStyleOf(m.Name)
	var asJSON bool
	if style.table != nil {
		jsonFlag(cmd, &asJSON)
	}
	switch {
	case m.CLIHelp != "":
		cmd.Long = m.Summary + m.CLIHelp
	case style.table != nil:
		cmd.Long = m.Summary + ". A table at a terminal; the JSON response line with --json or when piped."
	}
	var (
		args     []reflect.Value // the positional fields, in order
		names    []string        // their placeholders, "<label>" for "<label...>"
		use      []string
		variadic bool
		onRun    []func(*cobra.Command) error // pointer flags set when given, checks
		pane     func(*cobra.Command, []string) error
		paneArg  bool
	)
	for i := range v.NumField() {
		f := v.Type().Field(i)
		tag := f.Tag.Get("cli")
		if tag == "" || tag == "-" {
			continue
		}
		field := v.Field(i)
		if tag == "[<pane>|--pane|--current]" || tag == "--pane|--current" {
			if field.Type() != reflect.TypeFor[*string]() || pane != nil {
				panic(fmt.Sprintf("cli: %s: %s wants one *string field", m.Name, tag))
			}
			paneArg = tag[0] == '['
			if paneArg {
				use = append(use, "[<pane>|--pane ID|--current]")
			} else {
				use = append(use, "[--pane ID|--current]")
			}
			pane = paneSelector(a, cmd, paneArg, field)
			continue
		}
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
	if _, line := cliPath(m.CLI); line != "" {
		cmd.Use = words[len(words)-1] + " " + line
	}
	switch {
	case paneArg:
		if len(names) > 0 {
			panic(fmt.Sprintf("cli: %s: an optional pane argument with other positionals", m.Name))
		}
		cmd.Args = cobra.MaximumNArgs(1)
	case variadic:
		cmd.Args = minArgs(names...)
	case len(names) == 0:
		cmd.Args = cobra.NoArgs // as the hand-written verbs
	default:
		cmd.Args = exactArgs(names...)
	}
	if style.verbatim {
		silentCmd(cmd) // pane.go
	}
	id := "cli:" + strings.Join(words, ":")
	cmd.RunE = func(cmd *cobra.Command, given []string) error {
		for i, field := range args {
			if i == len(args)-1 && variadic {
				setVariadic(field, given[i:])
				break
			}
			field.SetString(given[i])
		}
		for _, set := range onRun {
			if err := set(cmd); err != nil {
				return err
			}
		}
		if pane != nil {
			if err := pane(cmd, given); err != nil {
				return err
			}
		}
		if style.check {
			if err := validate(params); err != nil {
				return err
			}
		}
		switch {
		case style.table != nil:
			return exit(a.request(id, m.Name, params, style.table(a, asJSON)))
		case style.silent:
			return exit(a.silent(id, m.Name, params))
		default:
			return exit(a.call(id, m.Name, params))
		}
	}
	return cmd
}

// paneSelector binds --pane and --current to cmd; what it returns sets
// field, once the command runs, to the pane they (or the argument) name.
func paneSelector(a *app, cmd *cobra.Command, withArg bool, field reflect.Value) func(*cobra.Command, []string) error {
	sel := &paneSel{}
	sel.bind(cmd)
	return func(cmd *cobra.Command, given []string) error {
		var t *string
		if withArg {
			var err error
			if t, err = sel.argOrResolve(a, cmd, given); err != nil {
				return err
			}
		} else {
			t = sel.resolve(a, cmd, false)
		}
		if t != nil {
			field.Set(reflect.ValueOf(t))
		}
		return nil
	}
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
// what it returns, once the command runs, checks the value and sets a
// pointer field when the flag was given.
func bindFlag(cmd *cobra.Command, method, tag, help string, field reflect.Value) func(*cobra.Command) error {
	var name, short string
	required := false
	var floor *int
	var oneof []string
	def := ""
	for _, part := range strings.Split(tag, ",") {
		switch {
		case strings.HasPrefix(part, "--"):
			name = part[2:]
		case strings.HasPrefix(part, "-") && len(part) == 2:
			short = part[1:]
		case part == "required":
			required = true
		case strings.HasPrefix(part, "min="):
			n, err := strconv.Atoi(part[4:])
			if err != nil {
				panic(fmt.Sprintf("cli: %s: bad cli tag %q", method, tag))
			}
			floor = &n
		case strings.HasPrefix(part, "oneof="):
			oneof = strings.Split(part[6:], "|")
		case strings.HasPrefix(part, "default="):
			def = part[8:]
		case strings.HasPrefix(part, "value="):
			// pflag names a flag's value by the word its help backquotes,
			// which a raw-string tag cannot hold.
			value := part[6:]
			if !strings.Contains(help, value) {
				panic(fmt.Sprintf("cli: %s: value=%s is not in the help of %q", method, value, tag))
			}
			help = strings.Replace(help, value, "`"+value+"`", 1)
		default:
			panic(fmt.Sprintf("cli: %s: bad cli tag %q", method, tag))
		}
	}
	if name == "" {
		panic(fmt.Sprintf("cli: %s: cli tag %q names no flag", method, tag))
	}
	flags := cmd.Flags()
	target := field
	if field.Kind() == reflect.Pointer {
		target = reflect.New(field.Type().Elem()).Elem()
	}
	if floor != nil && target.Kind() != reflect.Int || oneof != nil && target.Kind() != reflect.String {
		panic(fmt.Sprintf("cli: %s: bad check on flag --%s of type %s", method, name, target.Type()))
	}
	set := func(cmd *cobra.Command) error {
		if !cmd.Flags().Changed(name) {
			return nil
		}
		if oneof != nil && !slices.Contains(oneof, target.String()) {
			return fmt.Errorf("invalid --%s %q: expected %s or %s", name, target.String(), strings.Join(oneof[:len(oneof)-1], ", "), oneof[len(oneof)-1])
		}
		if floor != nil && target.Int() < int64(*floor) {
			if *floor == 0 {
				return fmt.Errorf("invalid --%s %d: must not be negative", name, target.Int())
			}
			return fmt.Errorf("invalid --%s %d: must be at least %d", name, target.Int(), *floor)
		}
		if field.Kind() == reflect.Pointer {
			p := reflect.New(target.Type())
			p.Elem().Set(target)
			field.Set(p)
		}
		return nil
	}
	if def != "" {
		// The flag's own parser reads the default: a bad one is caught
		// building the verb, in TestTableCommands_EveryCLIPathIsBuilt.
		defer func() {
			f := flags.Lookup(name)
			if err := f.Value.Set(def); err != nil {
				panic(fmt.Sprintf("cli: %s: --%s default=%s: %v", method, name, def, err))
			}
			f.DefValue = f.Value.String()
		}()
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
	case *float64:
		flags.Float64VarP(p, name, short, *p, help)
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
