// Package shellquote spells an argv as one command line for the shell
// that will read it: agent.start and a resumed agent type their command
// into the pane's shell, and each shell family reads quotes its own way.
// A single-quoted POSIX word ends at the next quote whatever comes before
// it; fish reads \\ and \' inside single quotes as escapes, so the POSIX
// spelling of `x\` ends fish's quote early and the next word runs as a
// command; PowerShell doubles a quote instead (and takes the typographic
// quotes for quotes too). What a shell cannot be trusted to read back
// exactly is refused, never guessed.
package shellquote
