//! Writes the P6 workspace: a crate of N tools with `#[mcp_tool]` and the same with rmcp's
//! `#[tool]`.
//!
//! ```text
//! cargo run -p mcp-tool-bench --bin gen_compile_crate -- [DIR] [TOOLS]
//! ```

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(mcp_tool_bench::compile::default_dir);
    let tools = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    mcp_tool_bench::compile::generate(&dir, tools)?;
    println!("{}", dir.display());
    Ok(())
}
