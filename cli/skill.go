package cli

import _ "embed"

// skillFile tells an agent in a pane how to drive herdr (herdr --skill).
//
//go:embed skill.md
var skillFile string
