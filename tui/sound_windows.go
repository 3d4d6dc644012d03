package tui

// soundPlayers plays file through PowerShell: SoundPlayer for WAV, the
// media player for mp3. The path is an argument of the script block.
func soundPlayers(file string, wav bool) [][]string {
	script := `& { (New-Object Media.SoundPlayer $args[0]).PlaySync() }`
	if !wav {
		script = `& { Add-Type -AssemblyName presentationCore; $p = New-Object System.Windows.Media.MediaPlayer; $p.Open([uri]$args[0]); $p.Play(); Start-Sleep -Seconds 3 }`
	}
	return [][]string{{"powershell.exe", "-NoProfile", "-NonInteractive", "-Command", script, file}}
}
