// Drives the test host page in Debian's chromium (headless, through puppeteer-core) against
// an inventory started with --apps:
//   node browser.mjs http://127.0.0.1:PORT/mcp SCREENSHOT_DIR
// A local server serves host.html, host.js (host.mjs bundled by esbuild from the local
// node_modules) and proxies /mcp to the inventory, so the page talks to it same-origin. Every
// request the browser makes is recorded: one that leaves 127.0.0.1 fails the run. Prints a
// JSON report on its last line: the cart's rows before and after the view's Remove button,
// the tools the view called through the bridge, and the screenshots.
import http from "node:http";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(process.env.NODE_PATH + "/");
const esbuild = require("esbuild");
const puppeteer = require("puppeteer-core");

const here = path.dirname(fileURLToPath(import.meta.url));
const [mcpUrl, shots] = process.argv.slice(2);
const upstream = new URL(mcpUrl);

const bundle = await esbuild.build({
  entryPoints: [path.join(here, "host.mjs")],
  bundle: true,
  write: false,
  format: "esm",
  platform: "browser",
  nodePaths: [process.env.NODE_PATH],
  logLevel: "error",
});
const files = {
  "/": ["text/html", readFileSync(path.join(here, "host.html"))],
  "/host.js": ["text/javascript", bundle.outputFiles[0].contents],
};

const server = http.createServer((request, response) => {
  if (request.url.startsWith("/mcp")) {
    const headers = { ...request.headers, host: upstream.host };
    delete headers.origin; // same-origin for the page; the inventory checks Host and Origin
    const proxied = http.request(
      { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: request.method, headers },
      (answer) => {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
      },
    );
    proxied.on("error", (error) => response.destroy(error));
    request.pipe(proxied);
    return;
  }
  const file = files[request.url];
  if (!file) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": file[0] }).end(file[1]);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
const report = { outside: [], console: [] };
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 640, height: 400 });
  page.on("request", (request) => {
    const url = request.url();
    if (!(url.startsWith(origin) || url.startsWith("about:") || url.startsWith("data:"))) {
      report.outside.push(url);
    }
  });
  page.on("console", (message) => report.console.push(message.text()));
  await page.goto(origin + "/", { waitUntil: "load" });
  await page.waitForFunction(() => window.hostState?.rendered || window.hostState?.error, { timeout: 20000 });
  const host = await page.evaluate(() => window.hostState);
  if (host.error) throw new Error("host: " + host.error);
  report.tools = host.tools;
  report.viewMeta = host.viewMeta;
  const frame = await (await page.$("iframe")).contentFrame();
  await frame.waitForSelector("body[data-ready=true]", { timeout: 10000 });
  const rows = () => frame.$$eval("#lines tr[data-line]", (trs) =>
    trs.map((tr) => ({ line: Number(tr.dataset.line), cells: [...tr.cells].slice(0, 4).map((td) => td.textContent) })));
  report.before = await rows();
  report.totalBefore = await frame.$eval("#total", (p) => p.textContent);
  report.sandbox = await page.$eval("iframe", (iframe) => iframe.getAttribute("sandbox"));
  report.csp = await frame.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  await page.screenshot({ path: path.join(shots, "cart-before.png") });
  const removed = report.before[0].line;
  await frame.click(`button[data-remove="${removed}"]`);
  await frame.waitForSelector(`body[data-removed="${removed}"]`, { timeout: 10000 });
  report.after = await rows();
  report.totalAfter = await frame.$eval("#total", (p) => p.textContent);
  report.status = await frame.$eval("#status", (p) => p.textContent);
  report.calls = (await page.evaluate(() => window.hostState)).calls;
  await page.screenshot({ path: path.join(shots, "cart-after.png") });
  report.screenshots = ["cart-before.png", "cart-after.png"].map((name) => path.join(shots, name));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
// The proxied event stream of the MCP session stays open until the inventory's idle timeout:
// end here rather than wait for it.
process.exit();
