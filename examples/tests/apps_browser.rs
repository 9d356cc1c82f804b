//! MCP Apps in a real browser: Debian's chromium, headless, driven by puppeteer-core, opens a
//! test host page built on `@modelcontextprotocol/ext-apps`'s `AppBridge`
//! (`tests/apps_host/`), which connects to `inventory --apps` over Streamable HTTP, calls
//! `show_cart`, renders its `ui://` view in a sandboxed iframe, and clicks the view's Remove
//! button, which calls the app-only `remove_cart_line` through the bridge. The DOM is read
//! before and after; the screenshots stay in the test's target folder. Nothing is fetched
//! from outside the machine: the page, its bundle and the view are local, and a request
//! that leaves 127.0.0.1 fails the test.

use std::ffi::OsStr;
use std::path::PathBuf;

use mcp_tool_test_support::clients::node_report;
use mcp_tool_test_support::http::HttpServer;
use serde_json::{Value, json};

const INVENTORY: &str = env!("CARGO_BIN_EXE_inventory");

#[test]
fn the_cart_view_removes_a_line_in_chromium() {
    let server = HttpServer::start(INVENTORY, &["--apps"], &[]);
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("apps");
    std::fs::create_dir_all(&shots).expect("a folder for the screenshots");
    let url = server.url();
    let report = node_report(
        "apps_host/browser.mjs",
        &[OsStr::new(&url), shots.as_os_str()],
    );

    assert_eq!(report["outside"], json!([]), "requests left the machine");
    // The host declared the extension, so it sees both tools with their views.
    let tools = report["tools"].as_array().expect("tools");
    let ui_of = |name: &str| {
        tools
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["ui"].clone())
    };
    assert_eq!(
        ui_of("show_cart"),
        Some(json!({"resourceUri": "ui://inventory/cart"}))
    );
    assert_eq!(
        ui_of("remove_cart_line"),
        Some(json!({"resourceUri": "ui://inventory/cart", "visibility": ["app"]}))
    );
    assert_eq!(report["viewMeta"], json!({"prefersBorder": true}));
    assert_eq!(report["sandbox"], "allow-scripts");
    assert!(
        report["csp"]
            .as_str()
            .is_some_and(|csp| csp.contains("connect-src 'none'")),
        "{}",
        report["csp"]
    );

    let cells = |rows: &Value| -> Vec<Value> {
        rows.as_array()
            .map(|rows| rows.iter().map(|row| row["cells"].clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(
        cells(&report["before"]),
        [
            json!(["Espresso beans 1kg", "ABC-0001", "2", "$49.00"]),
            json!(["Green tea 250g", "DEF-0100", "1", "$15.50"]),
            json!(["Ceramic mug", "ABC-0003", "4", "$48.00"]),
        ]
    );
    assert_eq!(report["totalBefore"], "Total: $112.50");
    assert_eq!(
        cells(&report["after"]),
        [
            json!(["Green tea 250g", "DEF-0100", "1", "$15.50"]),
            json!(["Ceramic mug", "ABC-0003", "4", "$48.00"]),
        ]
    );
    assert_eq!(report["totalAfter"], "Total: $63.50");
    assert_eq!(report["status"], "");
    assert_eq!(report["calls"], json!(["remove_cart_line"]));
    for shot in ["cart-before.png", "cart-after.png"] {
        let bytes = std::fs::read(shots.join(shot)).expect("the screenshot");
        assert!(bytes.starts_with(b"\x89PNG"), "{shot} is not a PNG");
    }
}
