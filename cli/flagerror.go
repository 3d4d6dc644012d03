package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError is every command's flag error: a flag given without its value
// says what value it wants (pflag's own "flag needs an argument: --remote"
// does not), from the flag's own help.
func flagError(cmd *cobra.Command, err error) error {
	if e := unknownFlag(cmd, err); e != nil {
		return e
	}
	if e := badFlagValue(cmd, err); e != nil {
		return e
	}
	rest, ok := strings.CutPrefix(err.Error(), "flag needs an argument: ")
	if !ok {
		return err
	}
	var f *pflag.Flag
	if name, long := strings.CutPrefix(rest, "--"); long {
		f = cmd.Flags().Lookup(name)
	} else if i := strings.IndexByte(rest, '\''); i >= 0 && i+2 < len(rest) && rest[i+2] == '\'' { // 'x' in -x
		f = cmd.Flags().ShorthandLookup(rest[i+1 : i+2])
	}
	if f == nil {
		return err
	}
	value, usage := pflag.UnquoteUsage(f)
	if !strings.Contains(f.Usage, "`") { // the name is the value's type
		value = "a " + f.Value.Type() + " value"
	}
	return fmt.Errorf("--%s needs %s: %s", f.Name, value, usage)
}
