package tui

// soundPlayers: afplay plays WAV and mp3 alike.
func soundPlayers(file string, _ bool) [][]string {
	return [][]string{{"afplay", file}}
}
