// Command herdr is the program a person, a script and an agent hook run:
// the whole command line and the interactive client. It links no actor
// runtime, so a `herdr pane …` call starts in the time of a small program;
// the commands that run a server in their own process are handed to
// herdr-server, beside it (cli/serve.go says why and how).
package main

import (
	"os"

	"github.com/herdr-go/herdr/cli"
)

func main() {
	os.Exit(cli.Main(nil, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
