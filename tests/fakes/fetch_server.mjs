// A small MCP server in Node.js whose one tool fetches a URL with Node's own fetch, for the
// tests of a server limited to domains: which Node finds the proxy in its environment.
// Tool "attack" with {"what": "fetch", "url": URL}: "ok:" and the body, "status N:" and the
// body, or the failure's cause.
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin });
const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

async function attack(args) {
  if (args.what === "version") return "ok:" + process.version;
  try {
    const got = await fetch(args.url, { signal: AbortSignal.timeout(20000) });
    const body = await got.text();
    return (got.status === 200 ? "ok:" : `status ${got.status}:`) + body;
  } catch (err) {
    const cause = err.cause ? `${err.cause.code || ""} ${err.cause.message || ""}` : "";
    return `${err.name}: ${err.message} (${cause.trim()})`;
  }
}

lines.on("line", async (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === "initialize") {
    send({ jsonrpc: "2.0", id: msg.id, result: {
      protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: "fetch-server", version: "1" } } });
  } else if (msg.method === "tools/call") {
    const text = await attack(msg.params.arguments);
    send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text }] } });
  } else {
    send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no such method" } });
  }
});
