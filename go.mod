module github.com/skillgen/skillgen

go 1.24.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/dave/jennifer v1.7.1
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/tools v0.42.0

tool github.com/skillgen/skillgen/cmd/skillgen
