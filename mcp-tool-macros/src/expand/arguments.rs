//! The tool's input as generated code sees it: either the user's `#[arg(input)]` struct, or
//! a hidden `__McpArguments` struct with one field per argument for the derives.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident, LitStr, Type};

use super::default::default_value;
use super::each;
use super::rules;
use super::validate::exclusive_bounds;
use crate::ast::{Arg, Tool};

/// The input type, how to unpack it for the call, and the user types it stands for.
pub(super) struct Input<'a> {
    /// Items nested in the definition body: default functions and the arguments struct.
    pub items: Vec<TokenStream>,
    /// One `assert_*::<T>();` per user type, so a type that does not qualify fails at its
    /// own token.
    pub checks: Vec<TokenStream>,
    /// The type parameters of the helper functions, with the user type each stands for.
    pub params: Vec<(Ident, &'a Type)>,
    /// The bounds every type parameter carries.
    pub bounds: TokenStream,
    /// The type the call's arguments parse into.
    pub ty: TokenStream,
    /// A `ToolInfo` builder call that the input type needs, if any.
    pub builder_extra: TokenStream,
    /// The pattern that unpacks the parsed value.
    pub bindings: TokenStream,
    /// The values the tool function is called with, in order, the context left out.
    pub call_args: Vec<TokenStream>,
}

impl Input<'_> {
    /// `Param: bounds` for each type parameter of the helper functions.
    pub fn generic_params(&self) -> Vec<TokenStream> {
        let bounds = &self.bounds;
        self.params
            .iter()
            .map(|(param, _)| quote!(#param: #bounds))
            .collect()
    }

    /// The user's types, in the order of [`Input::params`].
    pub fn user_types(&self) -> Vec<&Type> {
        self.params.iter().map(|(_, ty)| *ty).collect()
    }
}

/// The input of `tool`.
pub(super) fn input(tool: &Tool) -> Input<'_> {
    match tool.whole_input() {
        Some(input) => whole_input(input),
        None => argument_struct(tool),
    }
}

/// An `#[arg(input)]` struct is the input as it is.
fn whole_input(input: &Arg) -> Input<'_> {
    let ty = &input.ty;
    let param = format_ident!("__McpInput");
    Input {
        items: Vec::new(),
        checks: vec![quote!(::mcp_tool_runtime::__private::assert_input::<#ty>();)],
        params: vec![(param.clone(), ty)],
        bounds: quote! {
            ::mcp_tool_runtime::__private::ToolInput
                + ::mcp_tool_runtime::__private::serde::de::DeserializeOwned
                + ::mcp_tool_runtime::__private::schemars::JsonSchema
                + ::mcp_tool_runtime::__private::validator::Validate
        },
        ty: quote!(#param),
        builder_extra: quote!(.whole_input()),
        bindings: quote!(__mcp_input),
        call_args: vec![quote!(__mcp_input)],
    }
}

/// The hidden struct with one field per argument.
fn argument_struct(tool: &Tool) -> Input<'_> {
    let mut input = Input {
        items: Vec::new(),
        checks: Vec::new(),
        params: Vec::new(),
        bounds: quote! {
            ::mcp_tool_runtime::__private::ToolArgument
                + ::mcp_tool_runtime::__private::serde::de::DeserializeOwned
                + ::mcp_tool_runtime::__private::schemars::JsonSchema
        },
        ty: TokenStream::new(),
        builder_extra: TokenStream::new(),
        bindings: TokenStream::new(),
        call_args: Vec::new(),
    };
    let fields: Vec<TokenStream> = tool
        .args
        .iter()
        .map(|arg| field(tool, arg, &mut input))
        .collect();
    let derive_span = rules::derive_span(&tool.args);
    input.items.push(struct_item(
        &input.params,
        &fields,
        derive_span,
        tool.ident.span(),
    ));
    input.builder_extra = renames(tool);
    if let Some(check_each) = each::check_each(tool) {
        input.items.push(check_each);
        input
            .builder_extra
            .extend(quote!(.check_each(__mcp_check_each)));
    }
    let generics = input.params.iter().map(|(param, _)| param);
    input.ty = quote!(__McpArguments<#(#generics),*>);
    let bound: Vec<_> = (0..tool.args.len())
        .map(|i| format_ident!("__mcp_arg{i}"))
        .collect();
    let idents = tool.args.iter().map(|arg| &arg.ident);
    input.bindings = quote!(__McpArguments { #(#idents: #bound),* });
    input.call_args = bound.iter().map(|b| quote!(#b)).collect();
    input
}

/// `.renamed_argument(field, property)` for each argument with `#[serde(rename)]`, so that
/// the runtime names `validator`'s errors as the model sent them.
fn renames(tool: &Tool) -> TokenStream {
    let calls = tool.args.iter().filter_map(|arg| {
        let property = serde_rename(arg)?;
        let field = &arg.property;
        Some(quote!(.renamed_argument(#field, #property)))
    });
    quote!(#(#calls)*)
}

/// The property named by an argument's `#[serde(rename = "...")]` (or its `deserialize`
/// half). A malformed attribute is left to serde to report.
pub(super) fn serde_rename(arg: &Arg) -> Option<LitStr> {
    let mut found = None;
    for attribute in arg
        .passthrough
        .iter()
        .filter(|a| a.path().is_ident("serde"))
    {
        let _ = attribute.parse_nested_meta(|meta| {
            if !meta.path.is_ident("rename") {
                return skip_meta(&meta);
            }
            if meta.input.peek(syn::Token![=]) {
                found = Some(meta.value()?.parse()?);
                return Ok(());
            }
            meta.parse_nested_meta(|half| {
                if half.path.is_ident("deserialize") {
                    found = Some(half.value()?.parse()?);
                    Ok(())
                } else {
                    skip_meta(&half)
                }
            })
        });
    }
    found
}

/// Consumes the value of a serde option this macro does not read.
fn skip_meta(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

/// The derives' view of every argument, with the crate paths set so that the user's crate
/// needs none of serde, schemars or validator as a dependency. Each derive writes its crate's
/// path wherever its output names the crate: a one-word alias in this block rather than
/// `::mcp_tool_runtime::__private::..` saves rustc 23M of the 4,742M instructions P6's
/// incremental rebuild of 100 tools runs on its main thread (callgrind, pre-expanded crate).
///
/// The struct is written with `user_span`, the tool function's name, as a struct the user
/// wrote would be. An incremental build gives every span of lowered code its item as
/// parent, and a span that also carries a macro's context cannot be stored inline: rustc
/// interns it. The derives' code names the struct and its fields over and over; spanned
/// with the macro's call site, each of those spans was interned. P6's rebuild of 100 tools
/// ran 4,885M instructions on rustc's main thread, now 4,789M (`callgrind_rustc.sh`; the
/// span interner, `Span::to` and `track_span_parent` 81M less); with the fields written at
/// their arguments' names ([`field`]), 4,778M. The UI tests' diagnostics and clippy's lints
/// (every group, on P6's crate and on the examples and tests packages) are the same.
fn struct_item(
    params: &[(Ident, &Type)],
    fields: &[TokenStream],
    derive_span: Span,
    user_span: Span,
) -> TokenStream {
    let generics = params.iter().map(|(param, _)| param);
    let validate = rules::validate_derive(derive_span);
    // schemars names a generic struct after its parameters (`__McpArguments_for_String`);
    // the rename keeps one name. It is left out where there is nothing to rename: it cost
    // schemars' derive 31M of the 4,719M instructions of P6's incremental rebuild of 100
    // tools (callgrind, pre-expanded crate).
    let schema_name = (!params.is_empty()).then(|| {
        let name = Literal::string("__McpArguments");
        quote!(rename = #name)
    });
    // A string literal written in `quote!` is lexed by rustc as a source file of its own,
    // 15K instructions each in the debug build rustc runs; `Literal::string` makes the token
    // without it (with `definition`'s `path_tail`: 4M of the 4,980M instructions of P6's
    // incremental rebuild of 100 tools on rustc's main thread, callgrind).
    let [serde, schemars, validator] =
        ["__mcp_serde", "__mcp_schemars", "__mcp_validator"].map(Literal::string);
    // A struct without fields has next to no derived code; at the user's name, clippy would
    // take it for the user's own `struct __McpArguments {}` (`empty_structs_with_brackets`).
    let span = if fields.is_empty() {
        Span::call_site()
    } else {
        user_span
    };
    quote_spanned! {span=>
        // `#[validate(nested)]` calls `.validate()` on the argument's value.
        #[allow(unused_imports)]
        use ::mcp_tool_runtime::__private::validator::Validate as _;
        #[allow(unused_imports)]
        use ::mcp_tool_runtime::__private::{
            schemars as __mcp_schemars, serde as __mcp_serde, validator as __mcp_validator,
        };
        #[derive(
            ::mcp_tool_runtime::__private::serde::Deserialize,
            ::mcp_tool_runtime::__private::schemars::JsonSchema,
        )]
        #validate
        #[serde(crate = #serde, deny_unknown_fields)]
        #[schemars(crate = #schemars, #schema_name)]
        #[validate(crate = #validator)]
        #[allow(non_camel_case_types, dead_code)]
        struct __McpArguments<#(#generics),*> {
            #(#fields,)*
        }
    }
}

/// Whether an argument can be a type parameter of the hidden arguments struct: only when no
/// option of ours or of the derives depends on its concrete type.
fn is_plain(arg: &Arg) -> bool {
    arg.validate.is_empty()
        && arg.passthrough.is_empty()
        && arg.attr.default.is_none()
        && arg.attr.example.is_none()
}

/// One field of the arguments struct; records the argument's type check, its type
/// parameter and its default function in `input`. The tokens written here, its doc among
/// them, carry the argument name's span, for the reason [`struct_item`] gives.
fn field<'a>(tool: &Tool, arg: &'a Arg, input: &mut Input<'a>) -> TokenStream {
    let ident = &arg.ident;
    let ty = &arg.ty;
    input.checks.push(rules::argument_check(arg, &tool.args));
    let span = ident.span();
    let doc = field_doc(tool, arg).map(|text| {
        let mut text = Literal::string(&text);
        text.set_span(span);
        quote_spanned!(span=> #[doc = #text])
    });
    let default = arg.attr.default.as_ref().map(|default| match default {
        None => quote_spanned!(span=> #[serde(default)]),
        Some(expr) => default_function(arg, expr, &mut input.items),
    });
    let example = arg
        .attr
        .example
        .as_ref()
        .map(|expr| quote!(#[schemars(example = (#expr))]));
    let validate = rules::derive_attrs(arg);
    input.items.extend(rules::custom_wrappers(arg));
    input.checks.extend(rules::nested_check(arg));
    let passthrough = &arg.passthrough;
    let exclusive = exclusive_bounds(&arg.validate);
    let field_ty = if is_plain(arg) {
        let param = format_ident!("__McpArg{}", input.params.len());
        let field_ty = quote!(#param);
        input.params.push((param, ty));
        field_ty
    } else {
        quote!(#ty)
    };
    quote_spanned! {span=>
        #doc #default #example #(#validate)* #(#passthrough)* #exclusive
        #ident: #field_ty
    }
}

/// The argument's description: `#[arg(description)]`, else its `# Arguments` entry.
fn field_doc(tool: &Tool, arg: &Arg) -> Option<String> {
    arg.attr
        .description
        .as_ref()
        .map(LitStr::value)
        .or_else(|| {
            tool.docs
                .arguments
                .iter()
                .find(|doc| doc.name == arg.property)
                .map(|doc| doc.text.clone())
        })
}

/// `#[serde(default = "...")]` naming a function, added to `items`, that returns
/// `#[arg(default = expr)]`'s value. The function carries the expression's span, so a type
/// error in the value points at the user's expression.
fn default_function(arg: &Arg, expr: &Expr, items: &mut Vec<TokenStream>) -> TokenStream {
    let ty = &arg.ty;
    let function = format_ident!("__mcp_default_{}", arg.property);
    let path = LitStr::new(&function.to_string(), Span::call_site());
    let value = default_value(ty, expr);
    items.push(quote_spanned!(expr.span()=>
        #[allow(non_snake_case)]
        fn #function() -> #ty {
            #value
        }
        // schemars leaves out a default it cannot serialize, without a word: refuse it here.
        const _: () = ::mcp_tool_runtime::__private::assert_published_default::<#ty>();
    ));
    quote!(#[serde(default = #path)])
}
