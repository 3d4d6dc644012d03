package screen

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Kitty graphics written by a program in a pane (issue 18): the emulator
// keeps the image and its placement, answers the program's query, and the
// screen stream carries the placement as a layer, like an API layer.

// subscribeGraphics opens a screen subscription with graphics on pane.
func subscribeGraphics(t *testing.T, s *Server, pane string) *protocol.Client {
	t.Helper()
	c := s.Dial(t)
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{pane}, "graphics": true}})
	if err := c.WriteLine(sub); err != nil {
		t.Fatal(err)
	}
	return c
}

// nextGraphics reads the subscription up to a screen.graphics line that
// satisfies ok.
func nextGraphics(t *testing.T, c *protocol.Client, ok func(protocol.GraphicsUpdate) bool) protocol.GraphicsUpdate {
	t.Helper()
	for {
		line, err := c.ReadLine()
		if err != nil {
			t.Fatalf("watcher: %v", err)
		}
		var push struct {
			Event string                  `json:"event"`
			Data  protocol.GraphicsUpdate `json:"data"`
		}
		if json.Unmarshal(line, &push) == nil && push.Event == protocol.GraphicsEvent && ok(push.Data) {
			return push.Data
		}
	}
}

func TestKittyProgram_ImageBecomesLayer(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	watch := subscribeGraphics(t, s, pane)

	// 2×1 RGB pixels 1..6, shown over 3×2 cells, the reply silenced (q=2)
	// so that it does not land on the shell's command line.
	pixels := []byte{1, 2, 3, 4, 5, 6}
	s.Run(t, pane, `printf '\033_Ga=T,f=24,s=2,v=1,i=7,c=3,r=2,q=2;`+base64.StdEncoding.EncodeToString(pixels)+`\033\\'; echo; echo drawn`)
	s.WaitLine(t, pane, "drawn")
	u := nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool { return len(u.Layers) == 1 })
	l := u.Layers[0]
	raw, _ := base64.StdEncoding.DecodeString(l.DataBase64)
	if !strings.HasPrefix(l.LayerID, "kitty:7:") || l.Format != "rgb" || l.ImageWidth != 2 || l.ImageHeight != 1 ||
		l.Placement.GridCols != 3 || l.Placement.GridRows != 2 || l.Placement.ViewportCol != 0 || l.Placement.ViewportRow < 1 || !bytes.Equal(raw, pixels) {
		t.Fatalf("layer = %+v (pixels %v)", l.GraphicsLayerMeta, raw)
	}
	// The image is the program's, not a layer of the API.
	if info := GraphicsInfo(t, s, pane); len(info.Layers) != 0 {
		t.Errorf("pane.graphics.info lists %+v", info.Layers)
	}

	// The program deletes it: the layer goes.
	s.Run(t, pane, `printf '\033_Ga=d,d=I,i=7\033\\'; echo deleted`)
	s.WaitLine(t, pane, "deleted")
	nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool { return len(u.Layers) == 0 })

	// Placed again and then the screen cleared: gone again.
	s.Run(t, pane, `printf '\033_Ga=T,f=24,s=2,v=1,i=8,q=2;`+base64.StdEncoding.EncodeToString(pixels)+`\033\\'; echo again`)
	nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool {
		return len(u.Layers) == 1 && strings.HasPrefix(u.Layers[0].LayerID, "kitty:8:")
	})
	s.Run(t, pane, `printf '\033[2J'`)
	nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool { return len(u.Layers) == 0 })
}

// The program's query is answered through the pane's input, ahead of the
// DA1 answer, as programs that detect the protocol expect; with
// kitty_graphics off only DA1 comes back.
func TestKittyProgram_QueryReply(t *testing.T) {
	query := `printf '\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\\033[c'`
	for _, c := range []struct {
		name, config string
		n            int
		want         string
	}{
		{"on", "", 21, `~_Gi=31;OK~\~[?62;22c`},
		{"off", "kitty_graphics = false\n", 9, `~[?62;22c`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := NewHome(t)
			h.WriteConfig(t, c.config)
			s := h.Start(t, "kq")
			pane := FirstPane(t, s)
			// Raw input so that head takes the replies as they come.
			s.Run(t, pane, `stty -echo -icanon; `+query+`; head -c `+strconv.Itoa(c.n)+` | tr '\033' '~'; echo; stty sane`)
			s.WaitLine(t, pane, c.want)
		})
	}
}

// A placement scrolls with the text it was drawn in, and goes once it has
// scrolled off the screen.
func TestKittyProgram_PlacementScrolls(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	watch := subscribeGraphics(t, s, pane)
	img := base64.StdEncoding.EncodeToString([]byte{1, 2, 3, 4, 5, 6})
	// The image goes right of "MAK" (printed by M%sK, which its own echo
	// does not read as), without moving the cursor; then the screen scrolls.
	s.Run(t, pane, `seq 1 60; printf 'M%sK' A; printf '\033_Ga=T,f=24,s=2,v=1,i=9,c=2,r=1,C=1,q=2;`+img+`\033\\'; echo; seq 1 3; echo end`)
	s.WaitLine(t, pane, "end")
	row := -1
	for i, l := range Lines(s.Read(t, pane, "visible", 0).Text) {
		if l == "MAK" {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("no MAK line on the screen")
	}
	nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool {
		return len(u.Layers) == 1 && u.Layers[0].Placement.ViewportRow == int32(row) && u.Layers[0].Placement.ViewportCol == 3
	})
	s.Run(t, pane, `seq 1 100; echo gone`)
	s.WaitLine(t, pane, "gone")
	nextGraphics(t, watch, func(u protocol.GraphicsUpdate) bool { return len(u.Layers) == 0 })
}
