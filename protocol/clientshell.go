package protocol

// The client shell's methods (protocol 22): what a client tells the
// server about what it shows. A connection's surface interest is its own
// state (the gateway's); dismissals are remembered by the server, in a
// small file beside the session's, so a client does not show them again.

var clientShellMethods = []Method{
	{Name: "client_shell.surface.set", Since: "0.9.0", Params: func() Params { return &ClientShellSurfaceSetParams{} }, Result: "client_shell_surface_set",
		Summary: "Say whether this connection shows this server: screen frames stream only while it does", Owner: OwnerGateway, Shape: ShapeAnswer},
}

// dismissMethods are the dismissals a client asks the server to remember.
var dismissMethods = []Method{
	{Name: "release_notes.dismiss", Since: "0.9.0", Params: func() Params { return &ReleaseNotesDismissParams{} }, Result: "ok",
		Summary: "Remember that a version's release notes were dismissed", Owner: OwnerGateway, Shape: ShapeAnswer},
	{Name: "product_announcement.dismiss", Since: "0.9.0", Params: func() Params { return &ProductAnnouncementDismissParams{} }, Result: "ok",
		Summary: "Remember that a product announcement was dismissed", Owner: OwnerGateway, Shape: ShapeAnswer},
}

// ClientShellSurfaceSetParams are the params of client_shell.surface.set.
type ClientShellSurfaceSetParams struct {
	Active *bool `json:"active"`
}

// Validate implements Params.
func (p *ClientShellSurfaceSetParams) Validate() error {
	if p.Active == nil {
		return ParamError("active", "missing required field")
	}
	return nil
}

// ClientShellSurfaceSet answers client_shell.surface.set. ProjectionRevision
// counts the changes of what the server projects onto this connection: it
// starts at 0 and goes up by one each time the connection's surface turns
// on or off (a set that changes nothing leaves it).
type ClientShellSurfaceSet struct {
	Active             bool   `json:"active"`
	ProjectionRevision uint64 `json:"projection_revision"`
}

// ResultType implements Result.
func (ClientShellSurfaceSet) ResultType() string { return "client_shell_surface_set" }

// ReleaseNotesDismissParams are the params of release_notes.dismiss.
type ReleaseNotesDismissParams struct {
	Version string `json:"version"`
}

// Validate implements Params.
func (p *ReleaseNotesDismissParams) Validate() error { return versionLike("version", p.Version) }

// ProductAnnouncementDismissParams are the params of
// product_announcement.dismiss: an announcement is known by its id within
// the version it came with.
type ProductAnnouncementDismissParams struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// Validate implements Params.
func (p *ProductAnnouncementDismissParams) Validate() error {
	if err := required("id", p.ID); err != nil {
		return err
	}
	if len(p.ID) > MaxDismissKeyBytes || !dismissID().MatchString(p.ID) {
		return ParamError("id", "must be at most %d letters, digits and . _ - : characters", MaxDismissKeyBytes)
	}
	return versionLike("version", p.Version)
}

// MaxDismissKeyBytes bounds a dismissed version or announcement id.
const MaxDismissKeyBytes = 64

var (
	// A version as releases spell it: 0.9.0, v0.9.1, 0.9.0-rc.1+build.5.
	versionRE = LazyRegexp(`^v?[0-9]+(\.[0-9]+){0,3}([-+][0-9A-Za-z.+-]+)?$`)
	dismissID = LazyRegexp(`^[0-9A-Za-z._:-]+$`)
)

func versionLike(field, v string) error {
	if err := required(field, v); err != nil {
		return err
	}
	if len(v) > MaxDismissKeyBytes || !versionRE().MatchString(v) {
		return ParamError(field, "expected a version like 0.9.0 (at most %d bytes), got %q", MaxDismissKeyBytes, Printable(v))
	}
	return nil
}
