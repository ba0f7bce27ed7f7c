package skillgenimpl

// The generated code and the runtime shake hands at compile time, after
// protobuf-go's protoimpl.EnforceVersion: generated code declares
//
//	const _ = skillgenimpl.EnforceVersion(G - skillgenimpl.MinVersion)
//	const _ = skillgenimpl.EnforceVersion(skillgenimpl.MaxVersion - G)
//
// for its own version G. Out of range, one of the subtractions is negative,
// which overflows the unsigned EnforceVersion: version skew is a build error
// at the generated file, at zero run-time cost.
//
// The rule (ARCHITECTURE.md): any change to the table format, to Table or
// to what generated code declares bumps GenVersion; MinVersion rises to it
// when this runtime can no longer serve older generated code.
const (
	// GenVersion is the version of generated code that this module's
	// skillgen emits.
	GenVersion = 3
	// MinVersion is the oldest generated code this runtime can serve.
	// Code older than this must be regenerated with a newer skillgen.
	MinVersion = 3
	// MaxVersion is the newest generated code this runtime can serve.
	// Code newer than this needs a newer runtime (update the module).
	MaxVersion = GenVersion
)

// EnforceVersion is the unsigned type of the version handshake.
type EnforceVersion uint

const (
	_ = EnforceVersion(GenVersion - MinVersion)
	_ = EnforceVersion(MaxVersion - GenVersion)
)
