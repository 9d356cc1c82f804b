// The test host page's script: an MCP Apps host in a few lines, built on
// @modelcontextprotocol/ext-apps's AppBridge and the MCP client 2.x, bundled by esbuild (see
// browser.mjs). It connects to the inventory over Streamable HTTP (same origin, proxied),
// declares the extension, seeds the cart, calls show_cart, reads the ui:// resource its
// `_meta.ui.resourceUri` names and renders it in a sandboxed iframe whose CSP the resource's
// `_meta.ui` decides; the bridge forwards the view's tools/call to the server.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const EXTENSION_ID = "io.modelcontextprotocol/ui";
const MIME_TYPE = "text/html;profile=mcp-app";
const state = (window.hostState = { calls: [], error: null, rendered: false });

// The specification's restrictive default, widened only by what the resource declares.
function contentSecurityPolicy(csp = {}) {
  const list = (domains) => (domains && domains.length ? " " + domains.join(" ") : "");
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `img-src 'self' data:${resources}`,
    `media-src 'self' data:${resources}`,
    `connect-src${list(csp.connectDomains) || " 'none'"}`,
    `frame-src${list(csp.frameDomains) || " 'none'"}`,
  ].join("; ");
}

function withCsp(html, csp) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(csp)}">`;
  return html.replace(/<head>/i, `<head>${meta}`);
}

async function main() {
  const client = new Client(
    { name: "mcp-tool-test-host", version: "1.0.0" },
    { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [MIME_TYPE] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  const { tools } = await client.listTools();
  state.tools = tools.map((tool) => ({ name: tool.name, ui: tool._meta?.ui ?? null }));
  for (const [sku, quantity] of [["ABC-0001", 2], ["DEF-0100", 1], ["ABC-0003", 4]]) {
    await client.callTool({ name: "add_item", arguments: { sku, quantity } });
  }
  const showCart = tools.find((tool) => tool.name === "show_cart");
  const uri = showCart?._meta?.ui?.resourceUri;
  if (!uri) throw new Error("show_cart names no view");
  const result = await client.callTool({ name: "show_cart", arguments: {} });
  const { contents } = await client.readResource({ uri });
  const view = contents[0];
  if (view.mimeType !== MIME_TYPE) throw new Error(`view MIME type ${view.mimeType}`);
  state.viewMeta = view._meta?.ui ?? null;

  const iframe = document.createElement("iframe");
  iframe.sandbox = "allow-scripts";
  iframe.title = "Cart view";
  iframe.style.cssText = "width: 560px; height: 300px; border: 1px solid #ccc; border-radius: 8px";
  document.getElementById("views").append(iframe);

  const bridge = new AppBridge(
    client,
    { name: "mcp-tool-test-host", version: "1.0.0" },
    { serverTools: {}, serverResources: {} },
  );
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: {} });
    await bridge.sendToolResult(result);
    state.rendered = true;
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  // connect() installed the forwarding of the view's tools/call to the server: record them.
  const forward = bridge.oncalltool;
  bridge.oncalltool = async (params, extra) => {
    state.calls.push(params.name);
    return forward(params, extra);
  };
  iframe.srcdoc = withCsp(view.text, view._meta?.ui?.csp);
}

main().catch((error) => {
  state.error = String(error?.stack || error);
  console.error(error);
});
