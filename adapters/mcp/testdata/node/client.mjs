// An MCP client written with the official TypeScript SDK, for the Go
// test TestNodeClient. It starts the server given on its command line over
// stdio, does one round of everything, and prints what it saw as one JSON
// object; the Go test checks it. Usage: node client.mjs SERVER [ARG...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command,
  args,
  env: { ...process.env, SKILLGEN_MCP_TEST_SERVER: "stdio" },
  stderr: "inherit",
});
const client = new Client({ name: "skillgen-node-e2e", version: "0.0.1" });
await client.connect(transport);

const out = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  pages: 0,
  resources: [],
  contents: {},
  errors: {},
};

// Every page of resources/list, then every resource read; bytes go back
// as base64 so that the Go side compares them exactly.
let cursor;
do {
  const page = await client.listResources(cursor === undefined ? {} : { cursor });
  out.pages++;
  out.resources.push(...page.resources);
  cursor = page.nextCursor;
} while (cursor !== undefined);
for (const r of out.resources) {
  const { contents } = await client.readResource({ uri: r.uri });
  if (contents.length !== 1) throw new Error(`${r.uri}: ${contents.length} contents`);
  const c = contents[0];
  out.contents[r.uri] =
    "text" in c
      ? { kind: "text", uri: c.uri, mimeType: c.mimeType, base64: Buffer.from(c.text, "utf8").toString("base64") }
      : { kind: "blob", uri: c.uri, mimeType: c.mimeType, base64: c.blob };
}

out.prompts = (await client.listPrompts()).prompts;
out.prompt = await client.getPrompt({ name: "user-only", arguments: { args: "api 'eu west'" } });
out.tools = (await client.listTools()).tools;
out.tool = await client.callTool({ name: "activate_skill", arguments: { name: "odd-names" } });
out.toolError = await client.callTool({ name: "activate_skill", arguments: { name: "no-such-skill" } });
out.skills = await client.request({ method: "skills/list", params: {} }, ResultSchema);

// Errors: each must be a JSON-RPC error; record its code.
async function code(name, f) {
  try {
    out.errors[name] = { resolved: await f() };
  } catch (e) {
    out.errors[name] = { code: e.code, message: e.message };
  }
}
await code("traversal", () => client.readResource({ uri: "skill://odd-names/%2e%2e/odd-names/SKILL.md" }));
await code("backslash", () => client.readResource({ uri: "skill://odd-names/..%5c..%5cetc%5cpasswd" }));
await code("unknownPrompt", () => client.getPrompt({ name: "no-such-prompt" }));
await code("unknownTool", () => client.callTool({ name: "no_such_tool", arguments: {} }));
await code("unknownSkill", () =>
  client.request({ method: "skills/get", params: { uri: "skill://no-such/SKILL.md" } }, ResultSchema),
);

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
