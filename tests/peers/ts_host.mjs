// A real host made with the TypeScript MCP SDK, with roots of its own: it connects to the
// command in argv[2] (a JSON array), answers roots/list with the roots in argv[3] (a JSON
// array) and counts how often it did, calls the server's "report" tool and prints
// {"asked": N, "report": TEXT} on stdout.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = JSON.parse(process.argv[2]);
const hostRoots = JSON.parse(process.argv[3]);
let asked = 0;
const client = new Client(
  { name: "ts-host", version: "1.0.0" },
  { capabilities: { roots: { listChanged: true } } },
);
client.setRequestHandler(ListRootsRequestSchema, async () => {
  asked += 1;
  return { roots: hostRoots };
});
client.onerror = (err) => process.stderr.write(`host: ${err}\n`);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);
const result = await client.callTool({ name: "report", arguments: {} });
process.stdout.write(JSON.stringify({ asked, report: result.content[0].text }) + "\n");
await client.close();
