package mcp

// TraversalURIs are the URIs that TestTraversal reads end to end.
var TraversalURIs = traversalURIs
