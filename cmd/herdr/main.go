// Command herdr is the herdr binary: server, CLI and interactive client in one.
package main

import (
	"os"

	"github.com/herdr-go/herdr/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
