package harness

// FakeAgentCLI plays one agent's sample screens (the files the detect unit
// tests check): the working screen at start, then on each line read from
// the terminal the permission prompt, then the idle screen; it stays at the
// idle screen until stdin ends so the agent's process stays alive.
const FakeAgentCLI = `#!/bin/sh
stty -echo
screens='%s'
show() { printf '\033[2J\033[H%%s' "$(cat "$screens/$1.txt")"; } # one write: never a blank screen between two states
show working
read cue || exit 0
show blocked
read cue || exit 0
show idle
while read cue; do :; done
`
