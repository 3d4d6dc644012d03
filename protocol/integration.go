package protocol

var integrationMethods = []Method{
	{Name: "integration.install", Params: func() Params { return &IntegrationInstallParams{} }, Result: "integration_install", Summary: "Install an agent's herdr hook and register it in that agent's settings", Owner: OwnerIntegrations, Shape: ShapeAnswer},
	{Name: "integration.uninstall", Params: func() Params { return &IntegrationUninstallParams{} }, Result: "integration_uninstall", Summary: "Remove an agent's herdr hook and its registration", Owner: OwnerIntegrations, Shape: ShapeAnswer},
}

// IntegrationTargets are the wire names of the agents herdr integrates
// with, in the schema's order. The CLI also accepts antigravity-cli.
var IntegrationTargets = []string{
	"pi", "omp", "claude", "codex", "copilot", "devin", "droid", "kimi",
	"opencode", "kilo", "hermes", "qodercli", "cursor", "mastracode", "antigravity_cli", "grok",
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

func (IntegrationInstalled) ResultType() string   { return "integration_install" }
func (IntegrationUninstalled) ResultType() string { return "integration_uninstall" }

// Integration error codes.
const (
	CodeIntegrationInstallFailed   = "integration_install_failed"
	CodeIntegrationUninstallFailed = "integration_uninstall_failed"
)
