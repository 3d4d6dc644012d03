package emulator

import "strconv"

// OSC (operating system command) sequences: title (0, 2) and working
// directory (7). Others are ignored.

// maxOSCString bounds stored OSC strings.
const maxOSCString = 4096

func (t *Terminal) osc(params [][]byte) {
	if len(params) == 0 {
		return
	}
	n, err := strconv.Atoi(string(params[0]))
	if err != nil {
		return
	}
	arg := joinOSC(params[1:])
	switch n {
	case 0, 2:
		t.changed = true
		if t.title != arg {
			t.title = arg
			if t.opts.OnTitle != nil {
				t.opts.OnTitle(arg)
			}
		}
	case 7:
		t.changed = true
		t.cwd = arg
	}
}

// joinOSC rebuilds the argument of an OSC: the parser splits on ';', but a
// title may legitimately contain semicolons.
func joinOSC(parts [][]byte) string {
	size := 0
	for i, p := range parts {
		if i > 0 {
			size++
		}
		size += len(p)
	}
	if size > maxOSCString {
		size = maxOSCString
	}
	b := make([]byte, 0, size)
	for i, p := range parts {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, p...)
		if len(b) >= maxOSCString {
			b = b[:maxOSCString]
			break
		}
	}
	return string(b)
}
