//! Tokens to a model of one tool, collecting every error on the way.
//!
//! Names are unraw'd here, once ([`unraw`]): the rest of the crate reads `property`,
//! `function_name` and `name` and never sees an `r#`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::{Attribute, FnArg, Ident, Pat, ReturnType, Signature, Type};

use crate::attr::{self, ArgAttr, ToolAttr};
use crate::docs::{self, Docs};
use crate::errors::Errors;
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
    pub ty: Type,
    pub attr: ArgAttr,
    /// Each `#[validate(...)]`, parsed into rules and handed to the derive as written.
    pub validate: Vec<ValidateAttr>,
    /// `#[serde(...)]` and `#[schemars(...)]`, handed to the derives as they are.
    pub passthrough: Vec<Attribute>,
}

/// The name an identifier stands for: `type` for `r#type`. The only place that strips `r#`.
fn unraw(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// One tool function, as the checks and the expansion read it.
pub(crate) struct Tool {
    pub attr: ToolAttr,
    pub docs: Docs,
    /// The function's identifier as written, for calling it.
    pub ident: Ident,
    /// The function's name without `r#`, from which generated item names are built.
    pub function_name: String,
    /// The tool name: `name = "..."` or the function's name.
    pub name: String,
    pub is_async: bool,
    pub has_receiver: bool,
    pub args: Vec<Arg>,
    /// The declared return type; `()` when there is none.
    pub output: Type,
    pub place: Place,
    /// The `ToolContext` argument, if the tool takes one: never part of the input schema.
    pub context: Option<ContextArg>,
}

/// A tool's context argument and where it goes in the call.
pub(crate) struct ContextArg {
    /// How many schema arguments come before it.
    pub position: usize,
}

/// True for a type whose last path segment is `ToolContext`, however it is imported.
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

fn parse_context(typed: &syn::PatType, position: usize, errors: &mut Errors) -> ContextArg {
    if let Type::Reference(reference) = typed.ty.as_ref() {
        errors.spanned(
            reference,
            "take the context by value (`ctx: ToolContext`): it is cheap to clone and the \
             handler owns it",
        );
    }
    if !matches!(typed.pat.as_ref(), Pat::Ident(_) | Pat::Wild(_)) {
        errors.spanned(
            &typed.pat,
            "name the context argument, as in `ctx: ToolContext`",
        );
    }
    ContextArg { position }
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
}

const OUR_ARG_ATTRS: &[&str] = &["arg", "validate", "serde", "schemars"];

fn is_ours(attr: &Attribute) -> bool {
    OUR_ARG_ATTRS.iter().any(|name| attr.path().is_ident(name))
}

/// Removes the argument attributes that only the macro understands, so the function the
/// user wrote still compiles as it is.
pub(crate) fn strip_arg_attrs(sig: &mut Signature) {
    for input in &mut sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| !is_ours(attr));
        }
    }
}

fn parse_receiver(receiver: &syn::Receiver, place: Place, errors: &mut Errors) -> bool {
    if place == Place::Free {
        errors.spanned(
            receiver,
            "a tool method needs `#[mcp_tools]` on its `impl` block, which registers the \
             methods as tools of that state type",
        );
        return true;
    }
    let shared_ref = receiver.reference.is_some()
        && receiver.mutability.is_none()
        && receiver.colon_token.is_none();
    if !shared_ref {
        errors.spanned(
            receiver,
            "tool methods take `&self`: one state is shared by concurrent calls; use interior \
             mutability (a Mutex) for state that changes",
        );
    }
    true
}

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
    check_arg_type(&typed.ty, errors);
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

/// A type as the user would write it (`Vec<String>`, not `Vec < String >`).
fn type_text(ty: &Type) -> String {
    let mut text = quote!(#ty).to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        ("& ", "&"),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// Argument types that can never work, reported before the derives would stumble on them.
fn check_arg_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => {
            let owned = match reference.elem.as_ref() {
                Type::Path(path) if path.path.is_ident("str") => "`String`".to_string(),
                Type::Slice(slice) => {
                    let elem = &slice.elem;
                    format!("`Vec<{}>`", type_text(elem))
                }
                other => format!("`{}`", type_text(other)),
            };
            errors.spanned(
                reference,
                format!(
                    "a tool argument cannot be a reference: arguments are deserialized from \
                     the call's JSON into owned values; take {owned} instead"
                ),
            );
        }
        Type::ImplTrait(impl_trait) => errors.spanned(
            impl_trait,
            "a tool argument cannot be `impl Trait`: name a concrete type, from which the \
             argument's JSON schema is derived",
        ),
        _ => {}
    }
}

fn check_signature(sig: &Signature, errors: &mut Errors) {
    if !sig.generics.params.is_empty() {
        let names: Vec<String> = sig
            .generics
            .params
            .iter()
            .map(|param| match param {
                syn::GenericParam::Type(param) => format!("`{}`", param.ident),
                syn::GenericParam::Lifetime(param) => format!("`{}`", param.lifetime),
                syn::GenericParam::Const(param) => format!("`{}`", param.ident),
            })
            .collect();
        errors.spanned(
            &sig.generics,
            format!(
                "a tool function cannot be generic (over {}): its input and output schemas are \
                 derived from concrete types; replace the parameters with the types you mean",
                names.join(", ")
            ),
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.spanned(unsafety, "a tool function cannot be `unsafe`");
    }
    if let Some(abi) = &sig.abi {
        errors.spanned(abi, "a tool function cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.spanned(variadic, "a tool function cannot be variadic");
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(impl_trait) = ty.as_ref()
    {
        errors.spanned(
            impl_trait,
            "a tool cannot return `impl Trait`: name a concrete type such as `String` or \
             `Json<T>` (write `async fn` instead of returning `impl Future`)",
        );
    }
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
    check_signature(sig, errors);
    let mut has_receiver = false;
    let mut args = Vec::new();
    let mut context = None;
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => has_receiver = parse_receiver(receiver, place, errors),
            FnArg::Typed(typed) if is_context_type(&typed.ty) => {
                if context.is_some() {
                    errors.spanned(typed, "a tool takes at most one `ToolContext` argument");
                }
                context = Some(parse_context(typed, args.len(), errors));
            }
            FnArg::Typed(typed) => args.extend(parse_arg(typed, errors)),
        }
    }
    let output = match &sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
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
        is_async: sig.asyncness.is_some(),
        has_receiver,
        args,
        output,
        place,
        context,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(errors: &Errors) -> String {
        errors.to_compile_errors().to_string()
    }

    #[test]
    fn type_text_reads_like_source() {
        let ty: Type = syn::parse_quote!(&std::collections::HashMap<String, Vec<u8>>);
        assert_eq!(
            type_text(&ty),
            "&std::collections::HashMap<String, Vec<u8>>"
        );
    }

    #[test]
    fn reference_arguments_suggest_an_owned_type() {
        let sig: Signature = syn::parse_quote!(fn greet(name: &str, tags: &[String]));
        let mut errors = Errors::default();
        let tool = parse_tool(TokenStream::new(), &[], &sig, Place::Free, &mut errors);
        assert_eq!(tool.args.len(), 2, "the arguments stay in the model");
        let text = messages(&errors);
        assert!(text.contains("take `String` instead"), "{text}");
        assert!(text.contains("take `Vec<String>` instead"), "{text}");
    }

    #[test]
    fn generic_functions_name_their_parameters() {
        let sig: Signature = syn::parse_quote!(fn echo<'a, T, const N: usize>(value: T));
        let mut errors = Errors::default();
        parse_tool(TokenStream::new(), &[], &sig, Place::Free, &mut errors);
        assert!(messages(&errors).contains("over `'a`, `T`, `N`"));
    }
}
