//! What to emit when the input has errors: the user's own item, so that the rest of their
//! crate still resolves, plus stand-ins for what we would have generated. The user then sees
//! only our diagnostics, not a cascade of "cannot find function `x_tool`".

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{FreeTool, ToolSet};
use crate::errors::Errors;

/// A free tool's function, its stand-in definition function, and the errors.
pub(crate) fn free(free: &FreeTool, errors: &Errors) -> TokenStream {
    let errors = errors.to_compile_errors();
    let function = &free.function;
    let vis = &function.vis;
    let definition = format_ident!("{}_tool", free.tool.function_name);
    quote! {
        #errors
        #function
        #[allow(dead_code)]
        #vis fn #definition<__S>() -> ::mcp_tool_runtime::ToolDef<__S> {
            ::core::unreachable!()
        }
    }
}

/// An impl block, its stand-in `ToolSet` or named function, and the errors.
pub(crate) fn tool_set(set: &ToolSet, errors: &Errors) -> TokenStream {
    let errors = errors.to_compile_errors();
    let item = &set.block;
    let (impl_generics, _, where_clause) = item.generics.split_for_impl();
    let self_ty = &item.self_ty;
    let stand_in = match &set.attr.name {
        _ if item.trait_.is_some() => None,
        Some(name) => {
            let vis = set.attr.visibility(name.span());
            Some(quote! {
                impl #impl_generics #self_ty #where_clause {
                    #[allow(dead_code)]
                    #vis fn #name<__S>() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<__S>> {
                        ::core::unreachable!()
                    }
                }
            })
        }
        // Options written but no name read from them: either stand-in could only add an error.
        None if set.attr.written => None,
        None => Some(quote! {
            impl #impl_generics ::mcp_tool_runtime::tool::ToolSet for #self_ty #where_clause {
                fn tools() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<Self>> {
                    ::core::unreachable!()
                }
            }
        }),
    };
    quote! {
        #errors
        #item
        #stand_in
    }
}
