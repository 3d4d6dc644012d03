package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// Recordings (pane.record.*, pane.history) are asciicast v2: a header
// object on the first line, then one [time, code, data] array per line,
// time in seconds from the start, code "o" for output and "r" for a
// resize ("COLSxROWS").

// CastHeader is the first line of an asciicast v2 file.
type CastHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// CastEvent is one event line.
type CastEvent struct {
	Time float64
	Code string
	Data string
}

// AppendCastEvent appends one event line (with its newline) to dst. Data
// that is not valid UTF-8 has its bad bytes replaced, as JSON requires.
func AppendCastEvent(dst []byte, t float64, code string, data []byte) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendFloat(dst, t, 'f', 6, 64)
	dst = append(dst, ", \""...)
	dst = append(dst, code...)
	dst = append(dst, "\", "...)
	s, _ := json.Marshal(string(data)) // a string always marshals
	dst = append(dst, s...)
	return append(dst, "]\n"...)
}

// UTF8Cut returns how much of b ends on a whole character: a character
// split across two reads is written whole with the next event, not as two
// replacement characters.
func UTF8Cut(b []byte) int {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-i:]) {
				return len(b)
			}
			return len(b) - i
		}
	}
	return len(b)
}

// MaxCastBytes bounds a cast file the server reads (a dashboard replay).
const MaxCastBytes = 32 << 20

// ParseCast reads an asciicast v2 document. It fails on a bad header or
// event line, naming the line.
func ParseCast(r io.Reader) (CastHeader, []CastEvent, error) {
	var h CastHeader
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxCastBytes)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return h, nil, fmt.Errorf("read cast: %w", err)
		}
		return h, nil, fmt.Errorf("read cast: empty")
	}
	if err := Unmarshal(sc.Bytes(), &h); err != nil {
		return h, nil, fmt.Errorf("cast header: %w", err)
	}
	if h.Version != 2 {
		return h, nil, fmt.Errorf("cast header: version %d, only 2 is read", h.Version)
	}
	if h.Width < 1 || h.Height < 1 || h.Width > 4096 || h.Height > 4096 {
		return h, nil, fmt.Errorf("cast header: size %dx%d out of range", h.Width, h.Height)
	}
	var evs []CastEvent
	for n := 2; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var raw []json.RawMessage
		if err := Unmarshal(line, &raw); err != nil || len(raw) != 3 {
			return h, nil, fmt.Errorf("cast line %d: not a [time, code, data] array", n)
		}
		var ev CastEvent
		if Unmarshal(raw[0], &ev.Time) != nil || Unmarshal(raw[1], &ev.Code) != nil || Unmarshal(raw[2], &ev.Data) != nil {
			return h, nil, fmt.Errorf("cast line %d: not a [time, code, data] array", n)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return h, nil, fmt.Errorf("read cast: %w", err)
	}
	return h, evs, nil
}

// CastSize parses the data of an "r" event.
func CastSize(data string) (cols, rows int, ok bool) {
	c, r, found := bytes.Cut([]byte(data), []byte("x"))
	if !found {
		return 0, 0, false
	}
	cols, err1 := strconv.Atoi(string(c))
	rows, err2 := strconv.Atoi(string(r))
	return cols, rows, err1 == nil && err2 == nil && cols > 0 && rows > 0 && cols <= 4096 && rows <= 4096
}
