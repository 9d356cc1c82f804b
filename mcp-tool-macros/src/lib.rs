//! Procedural macros of mcp-tool. Use them through `mcp-tool-runtime`, which re-exports
//! them and documents them in full.
//!
//! The crate reads like serde_derive and thiserror: `ast` turns tokens into a model
//! while collecting every error, `check` validates the model, and `expand` writes the
//! code. On any error, `fallback` emits the user's item unchanged beside the errors, so the
//! user sees our diagnostics and not a cascade of "cannot find function".

mod ast;
mod attr;
mod check;
mod docs;
mod error_derive;
mod errors;
mod expand;
mod fallback;
mod icon_attr;
mod items;
mod return_type;
mod suggest;
mod tool_set_attr;
mod ui_attr;
mod validate_attr;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool. See `mcp_tool_runtime::mcp_tool` for the full guide.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(attr.into(), item.into()).into()
}

/// What `#[mcp_tools]` leaves of `#[mcp_tool]` on a method it has expanded: the method,
/// unchanged. Re-exported as `mcp_tool_runtime::mcp_tool::__handled`.
#[doc(hidden)]
#[proc_macro_attribute]
pub fn __handled(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// `#[mcp_tools(...)]` options: `name = admin_tools` names the block, which then gets that
/// associated function instead of implementing `ToolSet`; `vis = pub` sets the function's
/// visibility (`pub(crate)` when not given).
#[proc_macro_attribute]
pub fn mcp_tools(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool_set(attr.into(), item.into()).into()
}

/// Maps an error type's values to tool errors: `#[tool_error(code = "not_found", hint = "...")]`
/// on a variant shows its `Display` text to the model with that code; a variant without the
/// attribute, or with `#[tool_error(masked)]`, is masked. See `mcp_tool_runtime::ToolError`.
#[proc_macro_derive(ToolError, attributes(tool_error))]
pub fn derive_tool_error(input: TokenStream) -> TokenStream {
    error_derive::derive(input.into()).into()
}
