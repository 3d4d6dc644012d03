package pane

import "fmt"

// adoptConsole: a ConPTY cannot be passed to another process.
func adoptConsole(Adoption) (console, error) {
	return nil, fmt.Errorf("terminals cannot be handed off on Windows")
}
