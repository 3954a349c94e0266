// An MCP client that signs in with OAuth the way remote connectors do,
// using the MCP TypeScript SDK's client auth: discovery from the 401,
// dynamic client registration, authorization code with PKCE, and the
// token on every request. oauthcheck_test.go drives it:
//
//   argv[2]   the MCP endpoint URL
//   stdout    AUTHORIZE <url>   open this in a browser (the test's Chromium)
//             CONNECTED         signed in and initialized
//             RESULT <json>     a tool call's result
//             ERROR <message>   a failure
//   stdin     call <tool> <json arguments>
//             quit
import http from "node:http";
import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const mcpURL = new URL(process.argv[2]);
const say = (line) => process.stdout.write(line + "\n");

// The redirect lands on a listener of this process, as a native app's
// does (RFC 8252): it hands the code over and the browser tab is done.
let gotCode;
const codeArrived = new Promise((resolve) => { gotCode = resolve; });
const listener = http.createServer((req, res) => {
  const u = new URL(req.url, "http://127.0.0.1");
  if (u.pathname !== "/callback") { res.writeHead(404).end(); return; }
  const code = u.searchParams.get("code");
  res.writeHead(200, { "content-type": "text/plain" }).end(code ? "dsh: you can close this tab" : "denied: " + u.searchParams.get("error"));
  gotCode({ code, error: u.searchParams.get("error") });
});
await new Promise((resolve) => listener.listen(0, "127.0.0.1", resolve));
const redirectUrl = `http://127.0.0.1:${listener.address().port}/callback`;

// An in-memory OAuthClientProvider: what a client keeps between runs.
const kept = {};
const provider = {
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() {
    return { client_name: "oauthcheck", redirect_uris: [redirectUrl], grant_types: ["authorization_code"],
      response_types: ["code"], token_endpoint_auth_method: "none" };
  },
  clientInformation: () => kept.client,
  saveClientInformation: (c) => { kept.client = c; },
  tokens: () => kept.tokens,
  saveTokens: (t) => { kept.tokens = t; },
  redirectToAuthorization: (url) => { say("AUTHORIZE " + url.toString()); },
  saveCodeVerifier: (v) => { kept.verifier = v; },
  codeVerifier: () => kept.verifier,
};

const client = new Client({ name: "oauthcheck", version: "1.0.0" });
const transport = () => new StreamableHTTPClientTransport(mcpURL, { authProvider: provider });
try {
  let t = transport();
  try {
    await client.connect(t);
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
    const { code, error } = await codeArrived;
    if (!code) throw new Error("authorization refused: " + error);
    await t.finishAuth(code);
    t = transport();
    await client.connect(t);
  }
  say("CONNECTED");
} catch (e) {
  say("ERROR " + (e?.message ?? String(e)).replace(/\n/g, " "));
  listener.close();
  process.exit(1);
}
listener.close();

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === "quit") break;
  const m = /^call (\S+) (.*)$/.exec(line);
  if (!m) { say("ERROR unknown command"); continue; }
  try {
    const res = await client.callTool({ name: m[1], arguments: JSON.parse(m[2]) });
    say("RESULT " + JSON.stringify(res));
  } catch (e) {
    say("ERROR " + (e?.message ?? String(e)).replace(/\n/g, " "));
  }
}
await client.close().catch(() => {});
process.exit(0);
