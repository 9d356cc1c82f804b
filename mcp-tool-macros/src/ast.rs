//! Tokens to a model of a tool (or of an `impl` block of tools), collecting every error on
//! the way. Parsing reports only what cannot be modelled: malformed or unknown options, an
//! argument that is not a plain name, an item that is not a function. The rules on a
//! well-formed model live in `check`.
//!
//! Names are unraw'd here, once ([`unraw`]): the rest of the crate reads `property`,
//! `function_name` and `name` and never sees an `r#`.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Ident, Item, ItemImpl, Pat, ReturnType};
use syn::{Signature, Type};

use crate::attr::{self, ArgAttr, ToolAttr};
use crate::docs::{self, Docs};
use crate::errors::Errors;
use crate::items::{FnItem, ImplBlock, Member};
use crate::return_type::{self, ErrorType};
use crate::tool_set_attr::{self, ToolSetAttr};
use crate::validate_attr::{self, ValidateAttr};

/// Where the tool function lives.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A free function (or an associated function in an impl without `#[mcp_tools]`).
    Free,
    /// A function in an `impl` block marked `#[mcp_tools]`.
    ToolSet,
}

/// One schema argument of a tool.
pub(crate) struct Arg {
    /// The identifier as written, `r#` included, for the generated field and binding.
    pub ident: Ident,
    /// The JSON property name: the identifier without `r#`.
    pub property: String,
    /// The declared type, from which the argument's schema is derived.
    pub ty: Type,
    /// The options of `#[arg(...)]`.
    pub attr: ArgAttr,
    /// Each `#[validate(...)]`, parsed into rules and handed to the derive as written.
    pub validate: Vec<ValidateAttr>,
    /// `#[serde(...)]` and `#[schemars(...)]`, handed to the derives as they are.
    pub passthrough: Vec<Attribute>,
}

/// A `ToolContext` argument: never part of the input schema.
pub(crate) struct ContextArg {
    /// How many schema arguments come before it, which is where the call passes it.
    pub position: usize,
    /// The argument as written, which the rules on how to take the context read.
    pub written: syn::PatType,
}

/// One tool function, as the checks and the expansion read it.
pub(crate) struct Tool {
    /// The options of `#[mcp_tool(...)]`.
    pub attr: ToolAttr,
    /// The description and `# Arguments` section of the doc comment.
    pub docs: Docs,
    /// The function's identifier as written, for calling it.
    pub ident: Ident,
    /// The function's name without `r#`, from which generated item names are built.
    pub function_name: String,
    /// The tool name: `name = "..."` or the function's name.
    pub name: String,
    /// The signature as written, for the rules on generics, `unsafe`, ABI and variadics.
    pub signature: Signature,
    /// Whether the call is awaited.
    pub is_async: bool,
    /// `self` in any form; the checks accept only `&self`.
    pub receiver: Option<syn::Receiver>,
    /// The schema arguments, in order.
    pub args: Vec<Arg>,
    /// Every `ToolContext` argument; the checks accept at most one.
    pub contexts: Vec<ContextArg>,
    /// The return type the runtime sees: as declared (`()` when there is none), except that a
    /// `Result` whose error the generated code masks becomes `Result<T, ToolError>`.
    pub output: Type,
    /// The return type as declared, when its error is masked by the generated code.
    pub masked_error: Option<Type>,
    /// Whether the function is free or in an `#[mcp_tools]` block.
    pub place: Place,
}

impl Tool {
    /// Where the tool name was written: the `name = "..."` literal or the function's name.
    pub fn name_span(&self) -> Span {
        self.attr
            .name
            .as_ref()
            .map_or(self.ident.span(), |name| name.span())
    }

    /// The argument that stands for the whole input, if one is marked `#[arg(input)]`.
    pub fn whole_input(&self) -> Option<&Arg> {
        self.args.iter().find(|arg| arg.attr.input.is_some())
    }

    /// The context argument the call passes, if the tool takes one.
    pub fn context(&self) -> Option<&ContextArg> {
        self.contexts.first()
    }
}

/// A free function under `#[mcp_tool]`.
pub(crate) struct FreeTool {
    /// The function as it is emitted again, without the argument attributes only the macro
    /// understands.
    pub function: FnItem,
    /// The function's model.
    pub tool: Tool,
}

/// An `impl` block under `#[mcp_tools]` and the tools among its methods.
pub(crate) struct ToolSet {
    /// The block as it is emitted again: each `#[mcp_tool]` marked as handled and the
    /// argument attributes stripped.
    pub block: ItemImpl,
    /// The models of the methods marked `#[mcp_tool]`, in order.
    pub tools: Vec<Tool>,
    /// The options of `#[mcp_tools(...)]`: a named block gets a function, not `ToolSet`.
    pub attr: ToolSetAttr,
}

/// The name an identifier stands for: `type` for `r#type`. The only place that strips `r#`.
fn unraw(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// The attribute, in the runtime's hidden module `mcp_tool`, that `#[mcp_tools]` leaves on
/// each method it has expanded; it returns the method unchanged.
const HANDLED_BY_TOOL_SET: &str = "__handled";

/// True for a type whose last path segment is `ToolContext`, however it is imported or
/// borrowed: a borrowed context is still the context, which the checks then refuse.
fn is_context_type(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "ToolContext"),
        Type::Reference(reference) => is_context_type(&reference.elem),
        Type::Paren(inner) => is_context_type(&inner.elem),
        _ => false,
    }
}

/// The argument attributes that only the macro understands.
const OUR_ARG_ATTRS: &[&str] = &["arg", "validate", "serde", "schemars"];

/// True for an argument attribute that only the macro understands.
fn is_ours(attr: &Attribute) -> bool {
    OUR_ARG_ATTRS.iter().any(|name| attr.path().is_ident(name))
}

/// Removes the argument attributes that only the macro understands, so the function the
/// user wrote still compiles as it is.
fn strip_arg_attrs(sig: &mut Signature) {
    for input in &mut sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| !is_ours(attr));
        }
    }
}

/// One schema argument; `None` (reported) when its pattern is not a plain name, which
/// the JSON property could not be named after.
fn parse_arg(typed: &syn::PatType, errors: &mut Errors) -> Option<Arg> {
    let ident = match typed.pat.as_ref() {
        Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
        other => {
            errors.spanned(
                other,
                "tool arguments must be plain names (`quantity: u32`): the name becomes the \
                 argument's JSON property",
            );
            return None;
        }
    };
    let mut arg = Arg {
        property: unraw(&ident),
        ident,
        ty: (*typed.ty).clone(),
        attr: ArgAttr::default(),
        validate: Vec::new(),
        passthrough: Vec::new(),
    };
    for attribute in &typed.attrs {
        if attribute.path().is_ident("arg") {
            attr::parse_arg_attr(attribute, &mut arg.attr, errors);
        } else if attribute.path().is_ident("validate") {
            arg.validate.push(validate_attr::parse(attribute, errors));
        } else if attribute.path().is_ident("serde") || attribute.path().is_ident("schemars") {
            arg.passthrough.push(attribute.clone());
        }
    }
    Some(arg)
}

/// Builds the model of one tool function.
pub(crate) fn parse_tool(
    attr_tokens: TokenStream,
    attrs: &[Attribute],
    sig: &Signature,
    place: Place,
    errors: &mut Errors,
) -> Tool {
    let attr = attr::parse_tool_attr(attr_tokens, errors);
    let mut receiver = None;
    let mut args = Vec::new();
    let mut contexts = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(written) => receiver = receiver.or_else(|| Some(written.clone())),
            FnArg::Typed(typed) if is_context_type(&typed.ty) => contexts.push(ContextArg {
                position: args.len(),
                written: typed.clone(),
            }),
            FnArg::Typed(typed) => args.extend(parse_arg(typed, errors)),
        }
    }
    let declared: Type = match &sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    let (output, masked_error) = match return_type::classify(&declared) {
        ErrorType::Masked { ok } => (
            syn::parse_quote_spanned!(declared.span()=> ::core::result::Result<#ok, ::mcp_tool_runtime::ToolError>),
            Some(declared.clone()),
        ),
        _ => (declared, None),
    };
    let function_name = unraw(&sig.ident);
    let name = match &attr.name {
        Some(name) => name.value(),
        None => function_name.clone(),
    };
    Tool {
        attr,
        docs: docs::parse(attrs),
        ident: sig.ident.clone(),
        function_name,
        name,
        signature: sig.clone(),
        is_async: sig.asyncness.is_some(),
        receiver,
        args,
        contexts,
        output,
        masked_error,
        place,
    }
}

/// The keyword that says what the item is (`struct`, `enum`, …), where "not a function"
/// errors point.
fn item_keyword(item: &Item) -> Span {
    match item {
        Item::Struct(item) => item.struct_token.span,
        Item::Enum(item) => item.enum_token.span,
        Item::Impl(item) => item.impl_token.span,
        Item::Mod(item) => item.mod_token.span,
        Item::Const(item) => item.const_token.span,
        Item::Static(item) => item.static_token.span,
        Item::Trait(item) => item.trait_token.span,
        Item::Type(item) => item.type_token.span,
        other => other.span(),
    }
}

/// Parses the item under `#[mcp_tool]`; `None` when it is not a function.
pub(crate) fn parse_free_tool(
    attr: TokenStream,
    item: TokenStream,
    errors: &mut Errors,
) -> Option<FreeTool> {
    // A function reads as one at once. Anything else is parsed as the item it is, which
    // says what it is, or why it is no item.
    let mut function = match syn::parse2::<FnItem>(item.clone()) {
        Ok(function) => function,
        Err(_) => match errors.collect(syn::parse2::<Item>(item))? {
            // Not expected: syn reads a function item as the signature and body above.
            Item::Fn(function) => errors.collect(syn::parse2(function.into_token_stream()))?,
            other => {
                errors.at(
                    item_keyword(&other),
                    "`#[mcp_tool]` goes on a function; for methods, put `#[mcp_tools]` on \
                     their `impl` block",
                );
                return None;
            }
        },
    };
    let tool = parse_tool(attr, &function.attrs, &function.sig, Place::Free, errors);
    strip_arg_attrs(&mut function.sig);
    Some(FreeTool { function, tool })
}

/// Parses the item under `#[mcp_tools]`; `None` when it is not an `impl` block.
pub(crate) fn parse_tool_set(
    attr: TokenStream,
    item: TokenStream,
    errors: &mut Errors,
) -> Option<ToolSet> {
    let attr = tool_set_attr::parse(attr, errors);
    // An `impl` block reads as one at once; anything else is parsed as the item it is.
    let mut block = match syn::parse2::<ImplBlock>(item.clone()) {
        Ok(block) => block,
        Err(_) => match syn::parse2::<Item>(item) {
            // Not expected: syn reads a block as its header and members, as above.
            Ok(Item::Impl(block)) => errors.collect(syn::parse2(block.into_token_stream()))?,
            Ok(Item::Fn(function)) => {
                errors.at(Span::call_site(), tools_on_function(&function.sig));
                return None;
            }
            _ => {
                errors.at(
                    Span::call_site(),
                    "`#[mcp_tools]` goes on an `impl` block of the state type whose methods are tools",
                );
                return None;
            }
        },
    };
    let mut tools = Vec::new();
    for member in &mut block.members {
        let Member::Method(method) = member else {
            continue;
        };
        take_tools_attr(&mut method.attrs, errors);
        if let Some(tokens) = take_tool_attr(&mut method.attrs, errors) {
            tools.push(parse_tool(
                tokens,
                &method.attrs,
                &method.sig,
                Place::ToolSet,
                errors,
            ));
            strip_arg_attrs(&mut method.sig);
        }
    }
    let block = block.into_item();
    Some(ToolSet { block, tools, attr })
}

/// What to write instead of `#[mcp_tools]` on a function: rustc suggests `#[mcp_tools]` for
/// a `#[mcp_tool]` that is not imported, so this is where such a user arrives.
fn tools_on_function(sig: &Signature) -> String {
    let has_receiver = sig
        .inputs
        .iter()
        .any(|input| matches!(input, FnArg::Receiver(_)));
    if has_receiver {
        "`#[mcp_tools]` goes on the `impl` block; mark this method `#[mcp_tool]`, imported \
         with `use mcp_tool_runtime::mcp_tool;`"
            .to_string()
    } else {
        "`#[mcp_tools]` goes on an `impl` block; a function is a tool with `#[mcp_tool]`, \
         imported with `use mcp_tool_runtime::mcp_tool;`"
            .to_string()
    }
}

/// Reports and removes `#[mcp_tools]` on a method of an `#[mcp_tools]` block, where
/// `#[mcp_tool]` was meant.
fn take_tools_attr(attrs: &mut Vec<Attribute>, errors: &mut Errors) {
    attrs.retain(|attr| {
        let is_tools = attr
            .path()
            .segments
            .last()
            .is_some_and(|segment| segment.ident == "mcp_tools");
        if is_tools {
            errors.spanned(
                attr.path(),
                "a method is a tool with `#[mcp_tool]`, imported with \
                 `use mcp_tool_runtime::mcp_tool;`; `#[mcp_tools]` goes on its `impl` block",
            );
        }
        !is_tools
    });
}

/// True for `#[mcp_tool]` however its path is written (`mcp_tool_runtime::mcp_tool`).
fn is_tool_attr(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "mcp_tool")
}

/// The options of a method's `#[mcp_tool(...)]`, if it has one.
///
/// Each tool attribute becomes `#[PATH::__handled]`, which expands to the method unchanged.
/// `PATH` (`mcp_tool`) then resolves to the runtime's hidden module of that name, which
/// `use mcp_tool_runtime::mcp_tool;` imports beside the macro: the user's `use` of it counts,
/// and without it rustc says which module to import, instead of suggesting `#[mcp_tools]`.
fn take_tool_attr(attrs: &mut [Attribute], errors: &mut Errors) -> Option<TokenStream> {
    let marker = Ident::new(HANDLED_BY_TOOL_SET, Span::call_site());
    let mut tool_attr = None;
    for attr in attrs.iter_mut().filter(|attr| is_tool_attr(attr)) {
        let path = attr.path().clone();
        let original = std::mem::replace(attr, syn::parse_quote!(#[#path::#marker]));
        if tool_attr.is_none() {
            tool_attr = Some(original);
        } else {
            errors.spanned(&original, "`#[mcp_tool]` is given twice on this method");
        }
    }
    Some(match tool_attr?.meta {
        syn::Meta::List(list) => list.tokens,
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::NameValue(pair) => {
            errors.spanned(&pair, "write `#[mcp_tool(...)]`");
            TokenStream::new()
        }
    })
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    /// The function as `parse_free_tool` leaves it, as text.
    fn emitted(item: TokenStream) -> Option<String> {
        let mut errors = Errors::default();
        let free = parse_free_tool(TokenStream::new(), item, &mut errors)?;
        Some(free.function.to_token_stream().to_string())
    }

    #[test]
    fn a_body_is_emitted_as_it_came_and_only_argument_attributes_go() {
        let body = quote!(
            {
                #![allow(unused_mut)]
                let mut total = quantity;
                total += weird!(a => b; [c]);
                total
            }
        );
        let item = quote! {
            /// Adds.
            #[inline]
            pub(crate) async fn add(
                #[validate(range(min = 1))] quantity: u32,
                #[serde(default)] #[cfg_attr(all(), allow(unused))] note: Option<String>,
            ) -> u32 #body
        };
        let expected = quote! {
            /// Adds.
            #[inline]
            pub(crate) async fn add(
                quantity: u32,
                #[cfg_attr(all(), allow(unused))] note: Option<String>,
            ) -> u32 #body
        };
        assert_eq!(emitted(item), Some(expected.to_string()));
        // Never parsed: a body syn would refuse reaches rustc, which says what is wrong in
        // its own words, at the user's tokens.
        let broken = quote!(fn add() -> u32 { let = ; });
        assert_eq!(emitted(broken.clone()), Some(broken.to_string()));
    }

    #[test]
    fn a_block_is_emitted_as_it_came_but_for_its_tools_attributes() {
        let body = quote!(
            {
                #![allow(unused_mut)]
                let mut total = self.base + quantity;
                total
            }
        );
        let item = |tool: TokenStream, arg: TokenStream| {
            quote! {
                #[allow(dead_code)]
                impl<T: Clone> Cart<T> where T: Send {
                    #![allow(clippy::all)]
                    const LIMIT: u32 = 3;
                    type Item = T;
                    helper!(a => b);
                    /// Adds.
                    #tool
                    pub async fn add(&self, #arg quantity: u32) -> u32 #body
                    fn other(&self) -> [u8; { 1 + 1 }] { [0; 2] }
                }
            }
        };
        let mut errors = Errors::default();
        let written = item(quote!(#[mcp_tool]), quote!(#[validate(range(min = 1))]));
        let set = parse_tool_set(TokenStream::new(), written, &mut errors).expect("a block");
        assert!(errors.is_empty());
        assert_eq!(set.tools.len(), 1);
        let expected = item(quote!(#[mcp_tool::__handled]), TokenStream::new());
        assert_eq!(
            set.block.to_token_stream().to_string(),
            expected.to_string()
        );
    }

    #[test]
    fn an_item_that_is_no_function_is_still_named() {
        let mut errors = Errors::default();
        let item = quote!(
            struct Add {
                quantity: u32,
            }
        );
        assert!(parse_free_tool(TokenStream::new(), item, &mut errors).is_none());
        let text = errors.to_compile_errors().to_string();
        assert!(text.contains("goes on a function"), "{text}");
        assert_eq!(
            emitted(quote!(
                fn add() -> u32;
            )),
            None
        );
    }
}
