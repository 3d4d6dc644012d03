//go:build !darwin && !windows

package tui

// soundPlayers are the commands that may play file, in order of preference.
func soundPlayers(file string, wav bool) [][]string {
	if wav {
		return [][]string{{"paplay", file}, {"pw-play", file}, {"aplay", "-q", file}}
	}
	return [][]string{
		{"ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet", file},
		{"mpg123", "-q", file},
		{"mpv", "--no-video", "--really-quiet", file},
	}
}
