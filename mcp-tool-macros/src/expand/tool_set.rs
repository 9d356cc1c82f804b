//! An `#[mcp_tools]` block: the block as written, a hidden definition function per tool,
//! and the `ToolSet` impl that lists them.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::definition::definition_body;
use crate::ast::{Tool, ToolSet};

/// The hidden associated function that returns one tool's `ToolDef`.
fn definition_ident(tool: &Tool) -> syn::Ident {
    format_ident!("__mcp_tool_{}", tool.function_name)
}

/// The block as written, its definition functions, and its `ToolSet` impl.
pub(super) fn expand(set: &ToolSet) -> TokenStream {
    let ToolSet { block, tools } = set;
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let definitions = tools.iter().map(|tool| {
        let ident = definition_ident(tool);
        let body = definition_body(tool, quote!(Self));
        quote! {
            #[doc(hidden)]
            fn #ident() -> ::mcp_tool_runtime::ToolDef<Self> {
                #body
            }
        }
    });
    let calls = tools.iter().map(definition_ident);
    quote! {
        #block

        impl #impl_generics #self_ty #where_clause {
            #(#definitions)*
        }

        impl #impl_generics ::mcp_tool_runtime::ToolSet for #self_ty #where_clause {
            fn tools() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<Self>> {
                ::std::vec![#(Self::#calls()),*]
            }
        }
    }
}
