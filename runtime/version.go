package runtime

// The generated code and this package shake hands at compile time, after
// protobuf-go's protoimpl.EnforceVersion: generated code declares
//
//	const _ = runtime.EnforceVersion(G - runtime.MinVersion)
//	const _ = runtime.EnforceVersion(runtime.MaxVersion - G)
//
// for its own version G. Out of range, one of the subtractions is negative,
// which overflows the unsigned EnforceVersion: version skew is a build error
// at the generated file, at zero run-time cost.
const (
	// GenVersion is the version of generated code that this runtime's
	// skillgen emits.
	GenVersion = 1
	// MinVersion is the oldest generated code this runtime can serve.
	// Code older than this must be regenerated with a newer skillgen.
	MinVersion = 1
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
