//! `__mcp_check_each`: the arguments whose rules the schema cannot express (custom
//! functions, nested `Validate` types, `contains`, …), each checked alone, so that the
//! runtime reports them beside another argument's type error.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::arguments::serde_rename;
use super::rules;
use crate::ast::{Arg, Tool};
use crate::validate_attr::Validator;

/// The `__mcp_check_each` function, or `None` when no argument needs it.
pub(super) fn check_each(tool: &Tool) -> Option<TokenStream> {
    // The span of the arguments struct's derive: an error both derives report is then the
    // same diagnostic, which rustc shows once.
    let derive_span = rules::derive_span(&tool.args);
    let checks: Vec<TokenStream> = tool
        .args
        .iter()
        .filter(|arg| needs_check(arg))
        .enumerate()
        .map(|(index, arg)| check_one(index, arg, derive_span))
        .collect();
    if checks.is_empty() {
        return None;
    }
    Some(quote! {
        fn __mcp_check_each(
            __mcp_arguments: &::mcp_tool_runtime::__private::serde_json::Value,
        ) -> ::std::vec::Vec<::mcp_tool_runtime::__private::validator::ValidationErrors> {
            let mut __mcp_errors = ::std::vec::Vec::new();
            #(#checks)*
            __mcp_errors
        }
    })
}

/// Whether an argument has a rule that only `validator` checks (the walk checks the
/// others from the schema) and that can run without the other arguments.
fn needs_check(arg: &Arg) -> bool {
    let mut rules = arg.validate.iter().flat_map(|attr| &attr.rules);
    let uses_context = rules.clone().any(|rule| {
        rule.validator == Validator::Custom && rule.options.iter().any(|o| o.key == "use_context")
    });
    let schema_only = [
        Validator::Range,
        Validator::Length,
        Validator::Email,
        Validator::Url,
        Validator::Regex,
    ];
    !uses_context && rules.any(|rule| !schema_only.contains(&rule.validator))
}

/// One argument checked alone: a one-field struct with its type, rules and serde options.
fn check_one(index: usize, arg: &Arg, derive_span: Span) -> TokenStream {
    let ident = &arg.ident;
    let ty = &arg.ty;
    let name = format_ident!("__McpCheck{index}");
    let validate = rules::derive_attrs(arg);
    let derive = rules::validate_derive(derive_span);
    let serde = arg
        .passthrough
        .iter()
        .filter(|a| a.path().is_ident("serde"));
    let property = serde_rename(arg)
        .map(|lit| lit.value())
        .unwrap_or_else(|| arg.property.clone());
    quote! {
        {
            #[allow(unused_imports)]
            use ::mcp_tool_runtime::__private::validator::Validate as _;
            #[derive(::mcp_tool_runtime::__private::serde::Deserialize)]
            #derive
            #[serde(crate = "::mcp_tool_runtime::__private::serde")]
            #[validate(crate = "::mcp_tool_runtime::__private::validator")]
            #[allow(non_camel_case_types, dead_code)]
            struct #name {
                #(#validate)* #(#serde)*
                #ident: #ty,
            }
            __mcp_errors.extend(::mcp_tool_runtime::__private::check_argument::<#name>(__mcp_arguments, #property));
        }
    }
}
