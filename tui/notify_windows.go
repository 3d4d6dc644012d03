package tui

import (
	"errors"
	"os/exec"
)

// toastScript shows a Windows toast whose texts come from the environment,
// so nothing needs quoting.
const toastScript = `[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null
$t = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)
$x = $t.GetElementsByTagName('text')
$x.Item(0).AppendChild($t.CreateTextNode($env:HERDR_NOTIFY_TITLE)) > $null
$x.Item(1).AppendChild($t.CreateTextNode($env:HERDR_NOTIFY_BODY)) > $null
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('herdr').Show([Windows.UI.Notifications.ToastNotification]::new($t))`

// systemNotifier is a Windows toast through PowerShell.
func systemNotifier(title, body string) (prog string, args, env []string) {
	return "powershell.exe", []string{"-NoProfile", "-NonInteractive", "-Command", toastScript},
		[]string{"HERDR_NOTIFY_TITLE=" + title, "HERDR_NOTIFY_BODY=" + body}
}

func notifierUsable(prog string, _ func(string) string) error {
	if _, err := exec.LookPath(prog); err != nil {
		return errors.New("not installed")
	}
	return nil
}
