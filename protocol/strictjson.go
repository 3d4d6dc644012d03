package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Unmarshal is json.Unmarshal that also refuses an object naming one key
// twice. encoding/json keeps the last of two, so {"pane_id":"a","pane_id":"b"}
// would check one value and act on another: every JSON text this project
// decodes goes through here (TestEveryDecodeIsStrict holds the tree to it).
func Unmarshal(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	return NoDuplicateKeys(data)
}

// UnmarshalNumbers is Unmarshal keeping numbers as json.Number, so ids and
// counters pass through a map[string]any exactly.
func UnmarshalNumbers(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("invalid character after the top-level value")
	}
	return NoDuplicateKeys(data)
}

// DuplicateKeyError names a key that appears twice in one object.
type DuplicateKeyError struct {
	Key string
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("duplicate field `%s`", e.Key)
}

// NoDuplicateKeys reports the first object key of the valid JSON text data
// that appears twice in its object, as a *DuplicateKeyError. Keys are
// compared after unescaping ("\u0069d" is "id"), exactly as encoding/json
// would see them. data must be valid JSON (it has been decoded).
func NoDuplicateKeys(data []byte) error {
	if bytes.IndexByte(data, '{') < 0 {
		return nil
	}
	if _, dup, found := firstDuplicate(data, skipSpace(data, 0)); found {
		return &DuplicateKeyError{Key: dup}
	}
	return nil
}

// firstDuplicate walks the value at b[i] and returns the index past it
// and the first key seen twice in one of its objects (found false for
// none; "" is a key like any other).
func firstDuplicate(b []byte, i int) (end int, dup string, found bool) {
	switch b[i] {
	case '{':
		return objectDuplicate(b, i+1)
	case '[':
		i++
		for {
			i = skipSpace(b, i)
			switch b[i] {
			case ']':
				return i + 1, "", false
			case ',':
				i = skipSpace(b, i+1)
			}
			if i, dup, found = firstDuplicate(b, i); found {
				return i, dup, true
			}
		}
	}
	return valueEnd(b, i), "", false
}

// objectDuplicate walks the members of an object whose '{' is just before
// b[i]. Small objects compare keys in a slice; a large one moves to a map
// so a 100,000-key object costs a pass, not a square.
func objectDuplicate(b []byte, i int) (end int, dup string, found bool) {
	var keys [][]byte
	var seen map[string]struct{}
	for {
		i = skipSpace(b, i)
		switch b[i] {
		case '}':
			return i + 1, "", false
		case ',':
			i = skipSpace(b, i+1)
		}
		end = stringEnd(b, i)
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if json.Unmarshal(b[i:end], &k) == nil {
				key = []byte(k)
			}
		}
		if seen != nil {
			if _, ok := seen[string(key)]; ok {
				return end, string(key), true
			}
			seen[string(key)] = struct{}{}
		} else {
			for _, k := range keys {
				if bytes.Equal(k, key) {
					return end, string(key), true
				}
			}
			keys = append(keys, key)
			if len(keys) > 16 {
				seen = make(map[string]struct{}, 2*len(keys))
				for _, k := range keys {
					seen[string(k)] = struct{}{}
				}
				keys = nil
			}
		}
		i = skipSpace(b, skipSpace(b, end)+1) // past the colon
		if i, dup, found = firstDuplicate(b, i); found {
			return i, dup, true
		}
	}
}
