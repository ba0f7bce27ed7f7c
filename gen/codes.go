package gen

import "github.com/skillgen/skillgen/internal/compile"

// Diagnostic codes. They are a contract (README.md, "Rules and codes"):
// users' scripts and code match on them.
const (
	CodeSkillMDMissing       = compile.CodeSkillMDMissing
	CodeSkillMDLowercase     = compile.CodeSkillMDLowercase
	CodeReadFailed           = compile.CodeReadFailed
	CodeFileTooLarge         = compile.CodeFileTooLarge
	CodeEncodingInvalid      = compile.CodeEncodingInvalid
	CodeFrontmatterMissing   = compile.CodeFrontmatterMissing
	CodeFrontmatterUnclosed  = compile.CodeFrontmatterUnclosed
	CodeYAMLInvalid          = compile.CodeYAMLInvalid
	CodeFieldType            = compile.CodeFieldType
	CodeNameMissing          = compile.CodeNameMissing
	CodeNameInvalid          = compile.CodeNameInvalid
	CodeNameMismatch         = compile.CodeNameMismatch
	CodeDescriptionMissing   = compile.CodeDescriptionMissing
	CodeDescriptionTooLong   = compile.CodeDescriptionTooLong
	CodeCompatibilityTooLong = compile.CodeCompatibilityTooLong
	CodeMetadataInvalid      = compile.CodeMetadataInvalid
	CodeUnknownField         = compile.CodeUnknownField
	CodeAllowedToolsIgnored  = compile.CodeAllowedToolsIgnored
	CodeManifestMissing      = compile.CodeManifestMissing
	CodeManifestInvalid      = compile.CodeManifestInvalid
	CodeSkillsDirMissing     = compile.CodeSkillsDirMissing
	CodeSlugInvalid          = compile.CodeSlugInvalid
	CodeShadowed             = compile.CodeShadowed
	CodeSkipped              = compile.CodeSkipped
	CodeSymlinkEscape        = compile.CodeSymlinkEscape
	CodeFileSkipped          = compile.CodeFileSkipped
	CodeSizeLimit            = compile.CodeSizeLimit
	CodeLinkBroken           = compile.CodeLinkBroken
	CodeCatalogLarge         = compile.CodeCatalogLarge
	CodeCatalogTrimmed       = compile.CodeCatalogTrimmed
)
