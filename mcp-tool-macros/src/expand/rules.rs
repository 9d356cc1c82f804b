//! An argument's `#[validate]` rules as the `validator` derive receives them, and the checks
//! that report a rule the argument cannot take at the argument.
//!
//! The derive's own errors land on its invocation, which our expansion wrote: without
//! help they all point at `#[mcp_tool]`. Three things move them to the argument:
//! - each `custom(function = f)` is handed to the derive as a wrapper with the signature
//!   `validator` calls, whose body calls `f` at `f`'s tokens: a function of the wrong
//!   signature fails there, and only there;
//! - `assert_nested` and `assert_checked_argument` say, at the argument's type, that
//!   `#[validate(nested)]` needs `Validate` and that every other rule needs `Serialize`
//!   (`validator` puts the checked value in its errors);
//! - the derive invocation of a struct whose only validated field is this argument carries
//!   the argument's `#[validate]` span ([`derive_span`]), so whatever the derive still
//!   reports is shown there too.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Lit, Type};

use crate::ast::Arg;
use crate::validate_attr::{Rule, RuleOption, Validator, Written};

/// The span of the `validate` of the argument's first `#[validate]`, where the derive's
/// remaining errors about it should point.
pub(super) fn validate_span(arg: &Arg) -> Option<Span> {
    arg.validate
        .first()
        .map(|validate| validate.attr.path().span())
}

/// The one argument with `#[validate]` rules, if there is exactly one.
fn sole_validated(args: &[Arg]) -> Option<&Arg> {
    let mut validated = args.iter().filter(|arg| !arg.validate.is_empty());
    match (validated.next(), validated.next()) {
        (Some(arg), None) => Some(arg),
        _ => None,
    }
}

/// The span for the `Validate` derive of a struct with these fields: the one validated
/// field's `#[validate]`, or the macro's own when several fields have rules.
pub(super) fn derive_span(args: &[Arg]) -> Span {
    sole_validated(args)
        .and_then(validate_span)
        .unwrap_or_else(Span::call_site)
}

/// `#[derive(Validate)]`, at `span`: the derive's errors are shown where its invocation
/// is, the span of its path, every token of which must carry `span`.
pub(super) fn validate_derive(span: Span) -> TokenStream {
    quote_spanned!(span=> #[derive(::mcp_tool_runtime::__private::validator::Validate)])
}

/// The argument's `#[validate(...)]` attributes for the derive: as written, except that each
/// `custom(function = f)` names the wrapper [`custom_wrappers`] writes.
pub(super) fn derive_attrs(arg: &Arg) -> Vec<TokenStream> {
    let mut wrappers = CustomNames::new(arg);
    arg.validate
        .iter()
        .map(|validate| {
            if !validate.rules.iter().any(|rule| wrappers.wraps(rule)) {
                return validate.attr.to_token_stream();
            }
            let rules = validate.rules.iter().map(|rule| match wrappers.next(rule) {
                Some(name) => wrapped_custom(rule, &name),
                None => written(rule),
            });
            let pound = &validate.attr.pound_token;
            quote!(#pound[validate(#(#rules),*)])
        })
        .collect()
}

/// One wrapper function per `custom(function = f)` of the argument that the derive calls
/// instead of `f`.
pub(super) fn custom_wrappers(arg: &Arg) -> Vec<TokenStream> {
    let mut wrappers = CustomNames::new(arg);
    let rules = arg.validate.iter().flat_map(|validate| &validate.rules);
    rules
        .filter_map(|rule| {
            let name = wrappers.next(rule)?;
            let function = custom_function(rule)?;
            let param = wrappers.param.as_ref()?;
            // The call and the result type are located at the user's function: a wrong
            // signature is reported there, and only there. They keep the macro's hygiene, so
            // that rustc does not suggest edits of the attribute (`&weekday`).
            let span = Span::call_site().located_at(function.span());
            let call = quote_spanned!(span=> #function(value));
            let result = quote_spanned! {span=>
                ::core::result::Result<(), ::mcp_tool_runtime::__private::validator::ValidationError>
            };
            // The parameter is what `validator` passes, whatever a lint would prefer.
            Some(quote! {
                #[allow(
                    non_snake_case,
                    clippy::ptr_arg,
                    clippy::trivially_copy_pass_by_ref,
                    clippy::ref_option_ref
                )]
                fn #name(value: #param) -> #result {
                    #call
                }
            })
        })
        .collect()
}

/// The statement that requires, at the argument's type, what an argument needs: that it can
/// be read and described, and, when its rules check its value, that `validator` can report
/// that value (`Serialize`), unless the derive reports that at the argument already, as it
/// does for the only validated argument of a tool.
pub(super) fn argument_check(arg: &Arg, args: &[Arg]) -> TokenStream {
    let ty = &arg.ty;
    let reported_here = sole_validated(args).is_some_and(|sole| std::ptr::eq(sole, arg));
    let checks_value = rules(arg).any(|rule| rule.validator != Validator::Nested);
    if checks_value && !reported_here {
        quote_spanned!(ty.span()=> ::mcp_tool_runtime::__private::assert_checked_argument::<#ty>();)
    } else {
        quote!(::mcp_tool_runtime::__private::assert_argument::<#ty>();)
    }
}

/// The statement that requires, at the type inside its options, that an argument with
/// `#[validate(nested)]` is `Validate`: the derive's own error ("the method `validate`
/// exists … but its trait bounds were not satisfied") does not say what to do.
pub(super) fn nested_check(arg: &Arg) -> Option<TokenStream> {
    if !rules(arg).any(|rule| rule.validator == Validator::Nested) {
        return None;
    }
    let inner = without_options(&arg.ty);
    Some(quote_spanned!(inner.span()=> ::mcp_tool_runtime::__private::assert_nested::<#inner>();))
}

/// Every rule of the argument's `#[validate]` attributes.
fn rules(arg: &Arg) -> impl Iterator<Item = &Rule> {
    arg.validate.iter().flat_map(|validate| &validate.rules)
}

/// Names the wrappers of one argument's custom rules, in order, the same way for the
/// attributes and for the functions.
struct CustomNames<'a> {
    arg: &'a Arg,
    /// What `validator` passes to a custom function of this argument, when it is known.
    param: Option<TokenStream>,
    count: usize,
}

impl<'a> CustomNames<'a> {
    fn new(arg: &'a Arg) -> Self {
        // Worked out only for an argument with a custom rule: it prints the type, and printing
        // tokens is slow. Done for every argument, it was 40% of expanding P6's tool (6.1M
        // instructions an expansion, now 3.5M).
        let has_custom = arg
            .validate
            .iter()
            .flat_map(|validate| &validate.rules)
            .any(|rule| rule.validator == Validator::Custom);
        Self {
            arg,
            param: if has_custom {
                custom_param(&arg.ty)
            } else {
                None
            },
            count: 0,
        }
    }

    /// Whether `rule` is handed to the derive through a wrapper: a custom rule without
    /// `use_context`, whose function is a path, on an argument whose passing is known.
    fn wraps(&self, rule: &Rule) -> bool {
        rule.validator == Validator::Custom
            && self.param.is_some()
            && custom_function(rule).is_some()
            && !rule
                .options
                .iter()
                .any(|option| option.key == "use_context")
    }

    /// The wrapper's name, if `rule` gets one.
    fn next(&mut self, rule: &Rule) -> Option<syn::Ident> {
        if !self.wraps(rule) {
            return None;
        }
        self.count += 1;
        Some(format_ident!(
            "__mcp_custom_{}_{}",
            self.arg.property,
            self.count
        ))
    }
}

/// The function of `custom(function = f)` or `custom(function = "f")`.
fn custom_function(rule: &Rule) -> Option<syn::Path> {
    let value = rule
        .options
        .iter()
        .find(|option| option.key == "function")?
        .value
        .as_ref()?;
    match value {
        Expr::Path(path) if path.qself.is_none() => Some(path.path.clone()),
        Expr::Lit(literal) => match &literal.lit {
            Lit::Str(text) => text.parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

/// A rule as written.
fn written(rule: &Rule) -> TokenStream {
    match &rule.written {
        Written::Bare(path) => path.to_token_stream(),
        Written::List(list) => list.to_token_stream(),
    }
}

/// `custom(...)` with `function` naming the wrapper and the other options as written.
fn wrapped_custom(rule: &Rule, wrapper: &syn::Ident) -> TokenStream {
    let options = rule.options.iter().map(|RuleOption { key, value }| {
        let key = format_ident!("{key}");
        match (key == "function", value) {
            (true, _) => quote!(function = #wrapper),
            (false, Some(value)) => quote!(#key = #value),
            (false, None) => quote!(#key),
        }
    });
    let path = match &rule.written {
        Written::List(list) => list.path.to_token_stream(),
        Written::Bare(path) => path.to_token_stream(),
    };
    quote!(#path(#(#options),*))
}

/// The type of the value `validator` passes to a custom function of an argument of type
/// `ty`, as its derive decides it (validator_derive 0.20, `custom_actual_field`): a number
/// by value, anything else by reference, inside up to two `Option`s. `None` for the cases
/// it passes otherwise (`Cow`, references), which keep the user's function as written.
fn custom_param(ty: &Type) -> Option<TokenStream> {
    let text = ty.to_token_stream().to_string();
    if text.contains("Cow <") || text.starts_with('&') {
        return None;
    }
    let inner = without_options(ty);
    if is_number(&text) {
        Some(quote!(#inner))
    } else {
        Some(quote!(&#inner))
    }
}

/// Whether `validator` passes a value of this type text by value: its list of numbers.
fn is_number(text: &str) -> bool {
    const NUMBERS: [&str; 14] = [
        "usize", "u8", "u16", "u32", "u64", "u128", "isize", "i8", "i16", "i32", "i64", "i128",
        "f32", "f64",
    ];
    // Each candidate is printed as the type was, so that spacing can never differ: only for
    // the numbers the text names, as printing costs a trip through the compiler's token bridge.
    NUMBERS
        .iter()
        .filter(|number| text.contains(*number))
        .map(|number| syn::Ident::new(number, Span::call_site()))
        .any(|number| {
            [
                number.to_string(),
                quote!(Option<#number>).to_string(),
                quote!(Option<Option<#number> >).to_string(),
            ]
            .iter()
            .any(|known| known == text)
        })
}

/// The type inside the `Option`s that `validator` unwraps before checking a value: it
/// counts `Option`, `std::option::Option` and `core::option::Option`, and looks inside the
/// first path segment only, so `std::option::Option<Option<T>>` counts once.
fn without_options(ty: &Type) -> &Type {
    let mut current = ty;
    for _ in 0..option_depth(ty) {
        match option_argument(current) {
            Some(inner) => current = inner,
            None => break,
        }
    }
    current
}

/// How many `Option`s `validator` unwraps (its `number_options`).
fn option_depth(ty: &Type) -> usize {
    let Type::Path(path) = ty else {
        return 0;
    };
    let idents: String = path
        .path
        .segments
        .iter()
        .map(|segment| format!("{}|", segment.ident))
        .collect();
    if !["Option|", "std|option|Option|", "core|option|Option|"].contains(&idents.as_str()) {
        return 0;
    }
    match path.path.segments.first().map(|segment| &segment.arguments) {
        Some(syn::PathArguments::AngleBracketed(arguments)) => match arguments.args.first() {
            Some(syn::GenericArgument::Type(inner)) => 1 + option_depth(inner),
            _ => 1,
        },
        _ => 1,
    }
}

/// The type argument of an `Option` path, read from its last segment.
fn option_argument(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    match &path.path.segments.last()?.arguments {
        syn::PathArguments::AngleBracketed(arguments) => match arguments.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}
