package saved

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// Profile is one saved machine.
type Profile struct {
	ID            string `json:"id"`
	Label         string `json:"label"`
	Target        string `json:"target"`
	RemoteSession string `json:"remote_session,omitempty"`
	RemoteBin     string `json:"remote_bin,omitempty"`
	Enabled       bool   `json:"enabled"`
}

// File is the content of machines.json. Retired keeps the ids of removed
// machines, so that an id never names two machines over time. Invalid
// are the entries Load set aside (Save writes them back as they were).
type File struct {
	Machines []Profile `json:"machines"`
	Retired  []string  `json:"retired,omitempty"`
	Invalid  []Invalid `json:"-"`
}

// Invalid is an entry of machines.json that cannot be used: its text as
// written, what of its id and label could be read, and why.
type Invalid struct {
	Raw       json.RawMessage
	ID, Label string
	Err       error
}

// Name is how messages name the entry: its id, else its label, printable.
func (v Invalid) Name() string {
	if v.ID != "" {
		return protocol.Printable(clipString(v.ID, MaxLabelBytes))
	}
	return protocol.Printable(clipString(v.Label, MaxLabelBytes))
}

// Info is the entry as machine.list shows it: attention (a person must
// mend the file), and why.
func (v Invalid) Info() protocol.MachineInfo {
	return protocol.MachineInfo{ID: v.Name(), Label: protocol.Printable(clipString(v.Label, MaxLabelBytes)),
		State: protocol.MachineAttention, Error: "machines.json: " + protocol.Printable(v.Err.Error())}
}

// MaxMachines bounds the profiles one file holds.
const MaxMachines = 256

// maxRetired bounds the remembered ids: past it the oldest are dropped
// (a random 32-bit id colliding with one of those is still unlikely).
const maxRetired = 4096

// Find returns the index of the profile whose id is key, else whose label
// is key (case-insensitively), else -1.
func (f *File) Find(key string) int {
	if i := slices.IndexFunc(f.Machines, func(p Profile) bool { return p.ID == key }); i >= 0 {
		return i
	}
	return slices.IndexFunc(f.Machines, func(p Profile) bool { return strings.EqualFold(p.Label, key) })
}

// FindInvalid returns the entry set aside whose id or label is key, if any.
func (f *File) FindInvalid(key string) (Invalid, bool) {
	for _, v := range f.Invalid {
		if v.ID == key || v.Label != "" && strings.EqualFold(v.Label, key) {
			return v, true
		}
	}
	return Invalid{}, false
}

// Unusable is the error of a call naming an entry set aside.
func (v Invalid) Unusable() error {
	return fmt.Errorf("machine %q cannot be used: machines.json: %s (mend or remove its entry there)", v.Name(), protocol.Printable(v.Err.Error()))
}

// labelTaken reports whether another profile than skip has label.
func (f *File) labelTaken(label string, skip int) bool {
	for i, p := range f.Machines {
		if i != skip && strings.EqualFold(p.Label, label) {
			return true
		}
	}
	return false
}

// Add checks p (its id is made here) and appends it.
func (f *File) Add(p Profile) (Profile, error) {
	if err := Check(p); err != nil {
		return Profile{}, err
	}
	if f.labelTaken(p.Label, -1) {
		return Profile{}, fmt.Errorf("a machine labelled %q already exists", p.Label)
	}
	if len(f.Machines) >= MaxMachines {
		return Profile{}, fmt.Errorf("at most %d machines can be saved", MaxMachines)
	}
	id, err := f.newID()
	if err != nil {
		return Profile{}, err
	}
	p.ID = id
	f.Machines = append(f.Machines, p)
	return p, nil
}

// Rename gives the profile at i a new label.
func (f *File) Rename(i int, label string) error {
	if err := CheckLabel(label); err != nil {
		return err
	}
	if f.labelTaken(label, i) {
		return fmt.Errorf("a machine labelled %q already exists", label)
	}
	f.Machines[i].Label = label
	return nil
}

// Remove drops the profile at i and retires its id.
func (f *File) Remove(i int) {
	f.Retired = append(f.Retired, f.Machines[i].ID)
	if len(f.Retired) > maxRetired {
		f.Retired = f.Retired[len(f.Retired)-maxRetired:]
	}
	f.Machines = slices.Delete(f.Machines, i, i+1)
}

// newID draws m-<8 hex> until it names no saved or retired machine.
func (f *File) newID() (string, error) {
	for range 64 {
		// Unique, not secret: math/rand/v2's generator (seeded by the
		// runtime from the OS) keeps crypto/rand and its inits out of the
		// front, which every herdr call starts.
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], rand.Uint32())
		id := "m-" + hex.EncodeToString(b[:])
		if f.Find(id) < 0 && !slices.Contains(f.Retired, id) && f.labelFind(id) < 0 && !slices.ContainsFunc(f.Invalid, func(v Invalid) bool { return v.ID == id }) {
			return id, nil
		}
	}
	return "", fmt.Errorf("could not draw a free machine id")
}

// labelFind is Find by label only: an id equal to a label would be ambiguous.
func (f *File) labelFind(s string) int {
	return slices.IndexFunc(f.Machines, func(p Profile) bool { return strings.EqualFold(p.Label, s) })
}
