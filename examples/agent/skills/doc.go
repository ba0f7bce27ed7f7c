// Package skills holds this agent's Workflows and Agent Skills, compiled
// by skillgen from ../.insomnia/manifest.toml. Regenerate with go generate.
package skills

//go:generate go tool skillgen
