//! An `#[mcp_tools]` block: the block as written, a hidden definition function per tool,
//! and what registers them: the `ToolSet` impl, or for a named block
//! (`#[mcp_tools(name = admin_tools)]`) an associated function of that name.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;

use super::definition::definition_body;
use crate::ast::{Tool, ToolSet};

/// The hidden associated function that returns one tool's `ToolDef`.
fn definition_ident(tool: &Tool) -> syn::Ident {
    format_ident!("__mcp_tool_{}", tool.function_name)
}

/// The block as written, its definition functions, and its `ToolSet` impl or named function.
pub(super) fn expand(set: &ToolSet) -> TokenStream {
    let ToolSet { block, tools, attr } = set;
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    // In a named block, only the named function may be reported as never used: the
    // definitions stay live, and so do the user's methods they call.
    let allow = attr.name.as_ref().map(|_| quote!(#[allow(dead_code)]));
    let definitions = tools.iter().map(|tool| {
        let ident = definition_ident(tool);
        let (items, body) = definition_body(tool, Some(quote!(Self)));
        quote! {
            #[doc(hidden)]
            #allow
            fn #ident() -> ::mcp_tool_runtime::ToolDef<Self> {
                #items
                #body
            }
        }
    });
    let registration = match &attr.name {
        None => tool_set_impl(set),
        Some(name) => named_function(set, name),
    };
    quote! {
        #block

        impl #impl_generics #self_ty #where_clause {
            #(#definitions)*
        }

        #registration
    }
}

/// `impl ToolSet`, for a block without a name.
fn tool_set_impl(set: &ToolSet) -> TokenStream {
    let (impl_generics, _, where_clause) = set.block.generics.split_for_impl();
    let self_ty = &set.block.self_ty;
    let calls = set.tools.iter().map(definition_ident);
    quote! {
        impl #impl_generics ::mcp_tool_runtime::tool::ToolSet for #self_ty #where_clause {
            fn tools() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<Self>> {
                ::std::vec![#(Self::#calls()),*]
            }
        }
    }
}

/// `fn NAME<S: Borrow<Self>>() -> Vec<ToolDef<S>>`, for a named block.
///
/// Generic over the server's state like a free tool's definition function, so that
/// `.tools(Shop::admin_tools())` infers it: `Shop` and `Arc<Shop>` both borrow as `Shop`.
/// `pub(crate)` unless `vis` says otherwise, so that a block nobody registers is reported by
/// the `dead_code` lint at its name.
fn named_function(set: &ToolSet, name: &Ident) -> TokenStream {
    let (impl_generics, _, where_clause) = set.block.generics.split_for_impl();
    let self_ty = &set.block.self_ty;
    let vis = set.attr.visibility(name.span());
    let calls = set.tools.iter().map(definition_ident);
    let doc = format!(
        "The tools of the `#[mcp_tools(name = {name})]` block, for \
         `McpServer::builder(state).tools(Self::{name}())` where the state is, or borrows as, \
         this type (`Arc<Self>` does)."
    );
    // The function carries the name's span: rustc reports dead code only in items whose
    // span is the user's, not a macro's.
    let function = quote_spanned! {name.span()=>
        #[doc = #doc]
        #vis fn #name<__S>() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<__S>>
            where
                __S: ::core::borrow::Borrow<Self> + ::core::marker::Send + ::core::marker::Sync + 'static,
            {
                ::std::vec![#(
                    Self::#calls().for_part_of(<__S as ::core::borrow::Borrow<Self>>::borrow)
                ),*]
            }
    };
    quote! {
        impl #impl_generics #self_ty #where_clause {
            #function
        }
    }
}
