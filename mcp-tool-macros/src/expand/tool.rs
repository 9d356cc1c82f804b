//! A free tool: the user's function and a `NAME_tool()` function beside it that returns
//! its `ToolDef`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::definition::definition_body;
use crate::ast::FreeTool;

/// The function as written, then its definition function.
pub(super) fn expand(free: &FreeTool) -> TokenStream {
    let FreeTool { function, tool } = free;
    let vis = &function.vis;
    let definition = format_ident!(
        "{}_tool",
        tool.function_name,
        span = function.sig.ident.span()
    );
    let doc = format!(
        "The MCP tool definition of [`{}`], for `McpServer::builder(..).tool(..)`.",
        function.sig.ident
    );
    let (items, body) = definition_body(tool, None);
    // The definition and the handler do not depend on the state: built in a function of
    // their own, they are compiled once in this crate, rather than encoded for every crate
    // that names the state type and compiled once per state type (P6).
    //
    // The items they use sit beside that function, not in it: rustc looks every name of the
    // derives' code up through each block around it (P6's rebuild of 100 tools: 4,778M
    // instructions on rustc's main thread before, 4,758M, `callgrind_rustc.sh`). After it,
    // not before: rustc reports a body's errors in the order of the items, and the
    // definition's checks say what is wrong better than the derives' code does
    // (`ui/validate_nested_not_validate.rs`).
    quote! {
        #function
        #[doc = #doc]
        #vis fn #definition<__S>() -> ::mcp_tool_runtime::ToolDef<__S>
        where
            __S: ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            fn __mcp_definition() -> (&'static ::mcp_tool_runtime::ToolInfo, ::mcp_tool_runtime::__private::FreeHandler) {
                #body
            }
            #items
            let (info, handler) = __mcp_definition();
            ::mcp_tool_runtime::__private::free_tool_def(info, handler)
        }
    }
}
