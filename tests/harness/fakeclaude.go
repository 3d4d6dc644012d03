package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// FakeClaude draws Claude Code's screens and logs what it is given to
// $FAKE_LOG. It reads one character at a time, as Claude does: a line
// ended by Enter is a prompt ("." ends the turn, "b" and "c" ask two
// different permission questions, a prompt starting "quiet" is taken
// without a turn); while it asks, a digit answers at once. A prompt that
// comes while it works is logged "busy prompt …", which no test wants.
const FakeClaude = `#!/bin/sh
stty -echo -icanon min 1
printf 'claude ready\n'
mode=idle
line=''
turn() { printf '\033[2J\033[H* Working on %s… (esc to interrupt)\n' "$1"; mode=work; }
ask() {
  printf '\033[2J\033[H'
  case "$1" in
    b) printf 'Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n' ;;
    c) printf 'Bash command\n  git push --force\nDo you want to proceed?\n❯ 1. Yes\n  2. Yes, and do not ask again\n  3. No\n' ;;
  esac
  mode=ask
}
while :; do
  c=$(dd bs=1 count=1 2>/dev/null)
  if [ "$mode" = ask ]; then
    case "$c" in
      [0-9]) printf 'answer %s\n' "$c" >> "$FAKE_LOG"; turn "the answer"; continue ;;
    esac
  fi
  if [ -n "$c" ]; then line="$line$c"; continue; fi
  cue=$line; line=''
  case "$cue" in
    '') ;;
    .) printf '\033[2J\033[HDone.\n'; mode=idle ;;
    b|c) ask "$cue" ;;
    q) exit 0 ;;
    quiet*) printf 'prompt %s\n' "$cue" >> "$FAKE_LOG"; printf '\033[2J\033[HNothing to do.\n' ;;
    *) [ "$mode" = work ] && printf 'busy ' >> "$FAKE_LOG"; printf 'prompt %s\n' "$cue" >> "$FAKE_LOG"; turn "$cue" ;;
  esac
done
`

// WriteFakeClaude writes FakeClaude as dir/claude, for a PATH that finds
// it first, and returns dir.
func WriteFakeClaude(t testing.TB, dir string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte(FakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
