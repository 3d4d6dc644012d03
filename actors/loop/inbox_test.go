package loop

import (
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func TestQuestion_ParsesRealAgentsPrompts(t *testing.T) {
	for _, c := range []struct {
		name, screen string
		keys         []string
		labels       []string
		says         []string
	}{
		{"claude bare", "● Bash(rm -rf build)\n\nBash command\n  rm -rf build\n  Remove the build folder\n\nDo you want to proceed?\n❯ 1. Yes\n  2. Yes, and don't ask again for rm commands in /src\n  3. No, and tell Claude what to do differently (esc)\n",
			[]string{"1", "2", "3"}, []string{"Yes", "Yes, and don't ask again for rm commands in /src", "No, and tell Claude what to do differently (esc)"}, []string{"rm -rf build", "Do you want to proceed?"}},
		{"claude boxed", "╭──────────────────────────────╮\n│ Edit file                    │\n│ Do you want to make this edit to main.go? │\n│ ❯ 1. Yes                     │\n│   2. No                      │\n╰──────────────────────────────╯\n",
			[]string{"1", "2"}, []string{"Yes", "No"}, []string{"Do you want to make this edit to main.go?"}},
		{"codex", "Would you like to run the following command?\n\n  $ go test ./...\n\n› 1. Yes, proceed (y)\n  2. Yes, and don't ask again for this command (a)\n  3. No, and tell Codex what to do differently (esc)\n\nPress enter to confirm or esc to cancel\n",
			[]string{"1", "2", "3"}, []string{"Yes, proceed (y)", "Yes, and don't ask again for this command (a)", "No, and tell Codex what to do differently (esc)"}, []string{"go test ./..."}},
		{"y/n", "Writing config.toml\nOverwrite the existing file? [y/N]\n", []string{"y", "n"}, []string{"Yes", "No"}, []string{"Overwrite the existing file?"}},
		{"older numbers above", "Steps:\n1. build\n2. test\n\nDo you want to proceed?\n❯ 1. Yes\n  2. No\n", []string{"1", "2"}, []string{"Yes", "No"}, []string{"Do you want to proceed?"}},
		{"no choices", "Waiting for the lock on .git/index\nPress any key\n", nil, nil, []string{"Press any key"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, choices := Question(c.screen)
			var keys, labels []string
			for _, ch := range choices {
				keys, labels = append(keys, ch.Key), append(labels, ch.Label)
			}
			if !reflect.DeepEqual(keys, c.keys) || !reflect.DeepEqual(labels, c.labels) {
				t.Fatalf("choices %q %q, want %q %q", keys, labels, c.keys, c.labels)
			}
			for _, s := range c.says {
				if !strings.Contains(q, s) {
					t.Fatalf("question %q lacks %q", q, s)
				}
			}
			if strings.Count(q, "\n") >= questionLines {
				t.Fatalf("question of %d lines", strings.Count(q, "\n")+1)
			}
		})
	}
}

func TestFingerprint_IgnoresTheSelectionMarkerOnly(t *testing.T) {
	a, _ := Question("Do you want to proceed?\n❯ 1. Yes\n  2. No\n")
	b, _ := Question("Do you want to proceed?\n  1. Yes\n❯ 2. No\n")
	c, _ := Question("Do you want to proceed?\n❯ 1. Yes\n  2. No, stop\n")
	if Fingerprint(a) != Fingerprint(b) {
		t.Fatalf("moving the selection changed the question: %q %q", a, b)
	}
	if Fingerprint(a) == Fingerprint(c) {
		t.Fatal("another question, the same fingerprint")
	}
}

func TestNotifier_BoundsPerMinute(t *testing.T) {
	now := time.Unix(1000, 0)
	var n notifier
	n.init(Notify{PerMinute: 2}, slog.New(slog.DiscardHandler), func() time.Time { return now })
	if !n.allow("a") || !n.allow("b") || n.allow("c") || n.dropped != 1 {
		t.Fatalf("two a minute: dropped %d", n.dropped)
	}
	now = now.Add(59 * time.Second)
	if n.allow("d") {
		t.Fatal("allowed within the minute")
	}
	now = now.Add(2 * time.Second)
	if !n.allow("e") || n.dropped != 2 {
		t.Fatalf("a minute later: dropped %d", n.dropped)
	}
	if !reflect.DeepEqual(n.cfg.On, []string{string(protocol.StatusBlocked), string(protocol.StatusDone)}) {
		t.Fatalf("default statuses %v", n.cfg.On)
	}
}

// BenchmarkQuestion parses a full 40-row Claude screen with a permission
// prompt, as inbox.list does once per blocked agent.
func BenchmarkQuestion(b *testing.B) {
	screen := strings.Repeat("  some earlier output of the agent's turn, wide enough to matter\n", 30) +
		"Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. Yes, and don't ask again\n  3. No, and tell Claude what to do differently (esc)\n"
	for b.Loop() {
		q, _ := Question(screen)
		_ = Fingerprint(q)
	}
}
