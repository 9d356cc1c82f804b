//! What `#[mcp_tool]` costs to expand, outside rustc: the macro's own modules, included by
//! path, run on each function of P6's generated crate (100 tools), on `proc_macro2`'s token
//! types rather than rustc's. Under callgrind it counts the macro's instructions, which a
//! compile time hides in its noise:
//!
//! ```text
//! cargo build --release -p mcp-tool-bench --bin macro_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/macro_cost [STATEMENTS]
//! ```
//!
//! `STATEMENTS` lengthens each tool's body by that many statements (none by default), as
//! real tools' bodies are longer than P6's one expression. With `block` after it, the same
//! tools are methods of one `#[mcp_tools]` block.

#![allow(dead_code)]

#[path = "../../../mcp-tool-macros/src/ast.rs"]
mod ast;
#[path = "../../../mcp-tool-macros/src/attr.rs"]
mod attr;
#[path = "../../../mcp-tool-macros/src/check.rs"]
mod check;
#[path = "../../../mcp-tool-macros/src/docs.rs"]
mod docs;
#[path = "../../../mcp-tool-macros/src/errors.rs"]
mod errors;
#[path = "../../../mcp-tool-macros/src/expand/mod.rs"]
mod expand;
#[path = "../../../mcp-tool-macros/src/fallback.rs"]
mod fallback;
#[path = "../../../mcp-tool-macros/src/icon_attr.rs"]
mod icon_attr;
#[path = "../../../mcp-tool-macros/src/items.rs"]
mod items;
#[path = "../../../mcp-tool-macros/src/return_type.rs"]
mod return_type;
#[path = "../../../mcp-tool-macros/src/suggest.rs"]
mod suggest;
#[path = "../../../mcp-tool-macros/src/tool_set_attr.rs"]
mod tool_set_attr;
#[path = "../../../mcp-tool-macros/src/ui_attr.rs"]
mod ui_attr;
#[path = "../../../mcp-tool-macros/src/validate_attr.rs"]
mod validate_attr;

use std::str::FromStr;
use std::time::Instant;

use proc_macro2::{TokenStream, TokenTree};

const ATTRIBUTE: &str = "#[mcp_tool]\n";
const BODY_START: &str = "-> Json<CartLine> {\n";

fn main() {
    let statements: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("STATEMENTS is a number"))
        .unwrap_or(0);
    let source = mcp_tool_bench::compile::ours_source(100, 0);
    let padding: String = (0..statements)
        .map(|i| format!("    let _v{i} = format!(\"{{}}-{i}\", sku.len() + {i});\n"))
        .collect();
    let source = source.replace(BODY_START, &format!("{BODY_START}{padding}"));
    let tools = tool_items(&source);
    let start = Instant::now();
    let shape = if std::env::args().nth(2).as_deref() == Some("block") {
        let methods: String = tools
            .iter()
            .map(|tool| {
                format!(
                    "#[mcp_tool]\n{}",
                    tool.replacen("(\n", "(\n    &self,\n", 1)
                )
            })
            .collect();
        let block = format!("impl Shop {{\n{methods}}}");
        expanded(expand::tool_set, &block);
        "as methods of one block"
    } else {
        for item in &tools {
            expanded(expand::tool, item);
        }
        "as free functions"
    };
    let elapsed = start.elapsed();
    println!(
        "{} tools of {statements} extra statements expanded {shape} in {elapsed:?}",
        tools.len()
    );
}

/// `item` expanded by `macro_fn`, which must find no error in it (errors are top-level
/// `compile_error!` calls).
fn expanded(macro_fn: fn(TokenStream, TokenStream) -> TokenStream, item: &str) {
    let item = TokenStream::from_str(item).expect("the generated crate lexes");
    let output = macro_fn(TokenStream::new(), item);
    let failed = output
        .into_iter()
        .any(|token| matches!(token, TokenTree::Ident(ident) if ident == "compile_error"));
    assert!(!failed, "the generated tools expand without errors");
}

/// Each `#[mcp_tool]` function of `source`, doc comment included, attribute left out.
fn tool_items(source: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find(ATTRIBUTE) {
        let doc_start = rest[..at].rfind("\n\n").map_or(0, |blank| blank + 2);
        let after = &rest[at + ATTRIBUTE.len()..];
        let end = after.find("\n}\n").map_or(after.len(), |close| close + 3);
        items.push(format!("{}{}", &rest[doc_start..at], &after[..end]));
        rest = &after[end..];
    }
    items
}
