package saved

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// FileName is the profiles file inside the config directory.
const FileName = "machines.json"

// maxFileBytes bounds a read of the file: 256 profiles are far below it.
const maxFileBytes = 1 << 20

// Path is machines.json in the config directory.
func Path(env protocol.Env) string {
	return filepath.Join(protocol.ConfigDir(env), FileName)
}

// Load reads the file at path; a missing file is no machines. A file
// that cannot be read or is not JSON is an error; an entry that cannot be
// used (a bad id or field, an id or label another entry has, a label
// that is another's id) is set aside in Invalid with its reason, so the
// others still work, and written back as it was by Save.
func Load(path string) (*File, error) {
	b, err := protocol.ReadRegularFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var raw struct {
		Machines []json.RawMessage `json:"machines"`
		Retired  []string          `json:"retired,omitempty"`
	}
	if err := protocol.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f := &File{Retired: raw.Retired}
	labels := map[string]bool{}
	var parsed []Profile
	var ok []bool
	for _, r := range raw.Machines {
		var p Profile
		err := protocol.Unmarshal(r, &p)
		if err == nil {
			err = CheckID(p.ID)
		}
		if err == nil {
			err = Check(p)
		}
		if err != nil {
			f.Invalid = append(f.Invalid, Invalid{Raw: r, ID: p.ID, Label: p.Label, Err: err})
			parsed, ok = append(parsed, Profile{}), append(ok, false)
			continue
		}
		parsed, ok = append(parsed, p), append(ok, true)
	}
	for i, p := range parsed {
		if !ok[i] {
			continue
		}
		var err error
		switch key := strings.ToLower(p.Label); {
		case labels[key]:
			err = fmt.Errorf("label %q is another machine's too", p.Label)
		case slices.ContainsFunc(parsed, func(q Profile) bool { return q.ID != p.ID && strings.EqualFold(q.ID, p.Label) }):
			err = fmt.Errorf("label %q is a machine's id", p.Label)
		default:
			labels[key] = true
		}
		if err == nil && slices.ContainsFunc(f.Machines, func(q Profile) bool { return q.ID == p.ID }) {
			err = fmt.Errorf("id %q is another machine's too", p.ID)
		}
		if err != nil {
			f.Invalid = append(f.Invalid, Invalid{Raw: raw.Machines[i], ID: p.ID, Label: p.Label, Err: err})
			continue
		}
		f.Machines = append(f.Machines, p)
	}
	return f, nil
}

// Save writes f to path, private to its owner (0600), atomically, the
// entries set aside by Load after the others, as they were. A symlinked
// machines.json (a dotfiles checkout) is written through: the link
// stays, its target is replaced.
func Save(path string, f *File) error {
	machines := make([]json.RawMessage, 0, len(f.Machines)+len(f.Invalid))
	for _, p := range f.Machines {
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		machines = append(machines, b)
	}
	for _, bad := range f.Invalid {
		machines = append(machines, bad.Raw)
	}
	b, err := json.MarshalIndent(struct {
		Machines []json.RawMessage `json:"machines"`
		Retired  []string          `json:"retired,omitempty"`
	}{machines, f.Retired}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := protocol.SafeDir(dir); err != nil {
		return err
	}
	return protocol.WriteFileAtomic(path, append(b, '\n'), 0o600)
}
