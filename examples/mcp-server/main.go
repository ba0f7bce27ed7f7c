// Command mcp-server serves the skills and Workflows of the bundled
// example agent (examples/agent/skills) over the Model Context Protocol on
// stdio: every skill file as a skill:// resource, every user-invocable
// workflow as a prompt, and the activate_skill tool. Register it with an
// MCP host as the README shows; run it with
//
//	go -C examples/mcp-server run .
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
	"github.com/skillgen/skillgen/examples/agent/skills"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("mcp-server: ")
	server, err := skillmcp.NewServer(&mcp.Implementation{Name: "skillgen-example", Version: "v0.1.0"}, skills.Registry, nil)
	if err != nil {
		log.Fatal(err)
	}
	// Stdout carries the protocol; anything else goes to stderr.
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
