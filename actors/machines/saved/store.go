package saved

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

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

// Load reads the file at path; a missing file is no machines.
func Load(path string) (*File, error) {
	b, err := protocol.ReadRegularFile(path, maxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var f File
	if err := protocol.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	for _, p := range f.Machines {
		if err := Check(p); err != nil {
			return nil, fmt.Errorf("read %s: machine %q: %w", path, protocol.Printable(p.ID), err)
		}
	}
	return &f, nil
}

// Save writes f to path, private to its owner (0600), atomically.
func Save(path string, f *File) error {
	if f.Machines == nil {
		f.Machines = []Profile{}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return protocol.WriteOwnFile(path, append(b, '\n'), 0o600)
}
