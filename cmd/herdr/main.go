// Command herdr is the program a person, a script and an agent hook run:
// the whole command line. It links no actor runtime and no interactive
// client, so a `herdr pane …` call starts in the time of a small program;
// the commands that run a server or the client in their own process are
// handed to herdr-full, beside it (cli/runtime.go says why and how).
//
// updatemaxprocs=0: the runtime's goroutine that follows a changing CPU
// limit (started at every start, 4-7 % of `herdr --version`) is no use to
// a call that lasts milliseconds; GOMAXPROCS still starts from the limit.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/herdr-go/herdr/cli"
)

func main() {
	os.Exit(cli.Main(nil, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
