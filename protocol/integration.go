package protocol

var integrationMethods = []Method{
	{Name: "integration.install", Since: "0.5.0", Params: func() Params { return &IntegrationInstallParams{} }, Result: "integration_install", Summary: "Install an agent's herdr hook and register it in that agent's settings", Owner: OwnerIntegrations, Shape: ShapeAnswer},
	{Name: "integration.uninstall", Since: "0.5.0", Params: func() Params { return &IntegrationUninstallParams{} }, Result: "integration_uninstall", Summary: "Remove an agent's herdr hook and its registration", Owner: OwnerIntegrations, Shape: ShapeAnswer},
	{Name: "integration.list", Since: "0.9.0", Pipeline: true, Params: empty, Result: "integration_list", Summary: "Every integration target: its agent's command, whether it can be installed here, and whether it is installed and current", Owner: OwnerIntegrations, Shape: ShapeAnswer},
}

// IntegrationTargets are the wire names of the agents herdr integrates
// with, in the schema's order. The CLI also accepts antigravity-cli.
var IntegrationTargets = []string{
	"pi", "omp", "claude", "codex", "copilot", "devin", "droid", "kimi",
	"opencode", "kilo", "hermes", "qodercli", "qwen", "cursor", "mastracode", "antigravity_cli", "grok",
}

// IntegrationInstallParams are the params of integration.install.
type IntegrationInstallParams struct {
	Target string `json:"target"`
}

// Validate implements Params.
func (p *IntegrationInstallParams) Validate() error { return validTarget(p.Target) }

// IntegrationUninstallParams are the params of integration.uninstall.
type IntegrationUninstallParams struct {
	Target string `json:"target"`
}

// Validate implements Params.
func (p *IntegrationUninstallParams) Validate() error { return validTarget(p.Target) }

func validTarget(t string) error {
	if err := required("target", t); err != nil {
		return err
	}
	return oneOf("target", t, IntegrationTargets...)
}

// IntegrationDetails lists what an install or uninstall did, one line each.
type IntegrationDetails struct {
	Messages []string `json:"messages"`
}

// IntegrationInstalled answers integration.install.
type IntegrationInstalled struct {
	Target  string             `json:"target"`
	Details IntegrationDetails `json:"details"`
}

// IntegrationUninstalled answers integration.uninstall.
type IntegrationUninstalled struct {
	Target  string             `json:"target"`
	Details IntegrationDetails `json:"details"`
}

// Integration states (IntegrationInfo.State).
const (
	IntegrationNotInstalled = "not_installed"
	IntegrationCurrent      = "current"
	IntegrationOutdated     = "outdated"
)

// IntegrationInfo is one target of integration.list. Label is the
// target's CLI name; Command the agent's command; Available whether an
// install can succeed here now (the directory it needs exists, or the
// install makes it) or it is installed already.
type IntegrationInfo struct {
	Target    string `json:"target"`
	Label     string `json:"label"`
	Command   string `json:"command"`
	Available bool   `json:"available"`
	State     string `json:"state"`
}

// IntegrationList answers integration.list, targets in the schema's order.
type IntegrationList struct {
	Integrations []IntegrationInfo `json:"integrations"`
}

func (IntegrationList) ResultType() string        { return "integration_list" }
func (IntegrationInstalled) ResultType() string   { return "integration_install" }
func (IntegrationUninstalled) ResultType() string { return "integration_uninstall" }

// Integration error codes.
const (
	CodeIntegrationInstallFailed   = "integration_install_failed"
	CodeIntegrationUninstallFailed = "integration_uninstall_failed"
)
