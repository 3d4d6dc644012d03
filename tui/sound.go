package tui

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Sounds: "done" when an agent finishes, "request" when one needs the
// person. A configured mp3 ([ui.sound] path, done_path, request_path) or
// the built-in tone, a WAV made here, plays through the first platform
// player found (sound_*.go); with none, the outer terminal's bell rings.
// HERDR_DISABLE_SOUND or [ui.sound] enabled = false silence them.

// soundAgentKeys maps agent ids to their [ui.sound.agents] keys where the
// two differ.
var soundAgentKeys = map[string]string{"opencode": "open_code", "copilot": "github_copilot"}

// soundPlayed is the end of a player's run; bell asks for the bell instead.
type soundPlayed struct{ bell bool }

// soundOn reports whether sound kind plays for agent.
func (nf *notifier) soundOn(kind, agent string) bool {
	if kind != "done" && kind != "request" || !nf.host.soundConfig().Enabled {
		return false
	}
	if v := strings.ToLower(nf.host.getenv("HERDR_DISABLE_SOUND")); v != "" && v != "0" && v != "false" {
		return false
	}
	if agent != "" {
		key := agent
		if k, ok := soundAgentKeys[agent]; ok {
			key = k
		}
		if nf.host.soundConfig().Agents[key] == "off" {
			return false
		}
	}
	return true
}

// soundFile is the configured mp3 for kind, "" for the built-in tone.
func (nf *notifier) soundFile(kind string) string {
	p := nf.host.soundConfig().Path
	if kind == "done" && nf.host.soundConfig().DonePath != "" {
		p = nf.host.soundConfig().DonePath
	}
	if kind == "request" && nf.host.soundConfig().RequestPath != "" {
		p = nf.host.soundConfig().RequestPath
	}
	if p != "" && !filepath.IsAbs(p) && nf.configDir != "" {
		p = filepath.Join(nf.configDir, p)
	}
	return p
}

// playSound plays sound kind off the loop, or rings the bell.
func (nf *notifier) playSound(kind, agent string) tea.Cmd {
	if !nf.soundOn(kind, agent) {
		return nil
	}
	file, ctx, tones := nf.soundFile(kind), nf.host.context(), nf.tones
	return func() tea.Msg {
		wav := file == ""
		if wav {
			var err error
			if file, err = tones.file(kind); err != nil {
				return soundPlayed{bell: true}
			}
		}
		for _, argv := range soundPlayers(file, wav) {
			if _, err := exec.LookPath(argv[0]); err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := exec.CommandContext(ctx, argv[0], argv[1:]...).Run()
			cancel()
			if err == nil {
				return soundPlayed{}
			}
		}
		return soundPlayed{bell: true}
	}
}

// toneFiles writes the built-in tones once, to temporary files removed
// when the client ends.
type toneFiles struct {
	once  sync.Once
	dir   string
	err   error
	files map[string]string
}

func (t *toneFiles) file(kind string) (string, error) {
	t.once.Do(func() {
		t.dir, t.err = os.MkdirTemp("", "herdr-sound-")
		if t.err != nil {
			return
		}
		t.files = map[string]string{}
		// done rises, request repeats a higher note.
		for k, notes := range map[string][]float64{"done": {660, 880}, "request": {880, 0, 880}} {
			p := filepath.Join(t.dir, k+".wav")
			if t.err = os.WriteFile(p, toneWAV(notes), 0o600); t.err != nil {
				return
			}
			t.files[k] = p
		}
	})
	return t.files[kind], t.err
}

func (t *toneFiles) remove() {
	if t.dir != "" {
		os.RemoveAll(t.dir)
	}
}

// toneWAV is a 16-bit mono WAV of notes (Hz, 0 a rest), 110 ms each,
// faded in and out so they do not click.
func toneWAV(notes []float64) []byte {
	const rate, noteMS = 22050, 110
	n := rate * noteMS / 1000
	pcm := make([]int16, 0, n*len(notes))
	for _, f := range notes {
		for i := 0; i < n; i++ {
			env := math.Min(1, math.Min(float64(i), float64(n-i))/(float64(n)/8))
			pcm = append(pcm, int16(0.3*32767*env*math.Sin(2*math.Pi*f*float64(i)/rate)))
		}
	}
	var b bytes.Buffer
	size := uint32(len(pcm) * 2)
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, 36+size)
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, size)
	_ = binary.Write(&b, binary.LittleEndian, pcm)
	return b.Bytes()
}
