package runtime

// Generated code of version 1, from before the generated-code ABI moved to
// runtime/skillgenimpl, shook hands with these names:
//
//	_ = runtime.EnforceVersion(1 - runtime.MinVersion)
//
// They stay so that such code fails to build on that line, whose comment
// says to run go generate with a newer skillgen, rather than on a missing
// name. Nothing else uses them.
const (
	// Deprecated: for generated code of version 1 only, which this
	// runtime refuses; see runtime/skillgenimpl.MinVersion.
	MinVersion = 2
	// Deprecated: for generated code of version 1 only.
	MaxVersion = 2
)

// EnforceVersion is the handshake type of generated code of version 1.
//
// Deprecated: for generated code of version 1 only.
type EnforceVersion uint
