//! `#[derive(ToolError)]`: parse each variant's `#[tool_error(...)]`, check it, and write the
//! `IntoToolError` impl and its registration. Like the attribute macros, every error is
//! collected and the derive emits nothing but the errors when there are any.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Attribute, Data, DeriveInput, Expr, Fields, Ident, Lit, LitStr, Meta, Token};

use crate::errors::Errors;
use crate::suggest;

/// The keys `#[tool_error(...)]` takes.
const KEYS: &[&str] = &[
    "code",
    "hint",
    "retry_after_secs",
    "class",
    "retryable",
    "masked",
];

/// The classes a custom code may have.
const CLASSES: &[&str] = &["input", "dependency", "system"];

/// How one variant (or a struct) maps to a tool error.
struct Mapping {
    /// The variant's (or the struct's) name, where errors about the whole mapping point.
    span: Span,
    code: Option<LitStr>,
    hint: Option<LitStr>,
    retry_after_secs: Option<syn::LitInt>,
    class: Option<LitStr>,
    retryable: Option<syn::LitBool>,
    masked: bool,
}

/// The derive's entry point.
pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(input) = errors.collect(syn::parse2::<DeriveInput>(input)) else {
        return errors.to_compile_errors();
    };
    let arms = match &input.data {
        Data::Enum(data) => data
            .variants
            .iter()
            .map(|variant| {
                let mapping = parse_mapping(&variant.attrs, variant.ident.span(), &mut errors);
                let ident = &variant.ident;
                let pattern = match variant.fields {
                    Fields::Named(_) => quote!(Self::#ident { .. }),
                    Fields::Unnamed(_) => quote!(Self::#ident(..)),
                    Fields::Unit => quote!(Self::#ident),
                };
                (pattern, mapping)
            })
            .collect(),
        Data::Struct(_) => {
            let mapping = parse_mapping(&input.attrs, input.ident.span(), &mut errors);
            vec![(quote!(_), mapping)]
        }
        Data::Union(_) => {
            errors.at(
                Span::call_site(),
                "`#[derive(ToolError)]` takes an enum or a struct",
            );
            Vec::new()
        }
    };
    for (_, mapping) in &arms {
        check(mapping, &mut errors);
    }
    if !errors.is_empty() {
        return errors.to_compile_errors();
    }
    expand(&input, &arms)
}

/// The `#[tool_error(...)]` of one variant; none at all means masked.
fn parse_mapping(attrs: &[Attribute], span: Span, errors: &mut Errors) -> Mapping {
    let mut mapping = Mapping {
        span,
        code: None,
        hint: None,
        retry_after_secs: None,
        class: None,
        retryable: None,
        masked: false,
    };
    let mut found = false;
    for attr in attrs
        .iter()
        .filter(|attr| attr.path().is_ident("tool_error"))
    {
        found = true;
        let parsed = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated);
        for option in errors.collect(parsed).into_iter().flatten() {
            parse_option(option, &mut mapping, errors);
        }
    }
    mapping.masked |= !found;
    mapping
}

fn parse_option(option: Meta, mapping: &mut Mapping, errors: &mut Errors) {
    let key = option
        .path()
        .get_ident()
        .map(Ident::to_string)
        .unwrap_or_default();
    let literal = match &option {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(literal) => Some(literal.lit.clone()),
            other => {
                errors.spanned(other, format!("`{key}` takes a literal"));
                return;
            }
        },
        _ => None,
    };
    match (key.as_str(), literal) {
        ("masked", None) => mapping.masked = true,
        ("code", Some(Lit::Str(text))) => mapping.code = Some(text),
        ("hint", Some(Lit::Str(text))) => mapping.hint = Some(text),
        ("class", Some(Lit::Str(text))) => mapping.class = Some(text),
        ("retry_after_secs", Some(Lit::Int(seconds))) => mapping.retry_after_secs = Some(seconds),
        ("retryable", Some(Lit::Bool(flag))) => mapping.retryable = Some(flag),
        (known, _) if KEYS.contains(&known) => errors.spanned(
            &option,
            "write `code = \"not_found\"`, `hint = \"...\"`, `retry_after_secs = 5`, \
             `class = \"input\"`, `retryable = true` or `masked`",
        ),
        (unknown, _) => errors.spanned(
            option.path(),
            suggest::unknown("`tool_error` key", unknown, KEYS),
        ),
    }
}

/// A shown variant needs a snake_case code; a masked one takes nothing else.
fn check(mapping: &Mapping, errors: &mut Errors) {
    if let Some(code) = &mapping.code {
        let name = code.value();
        let snake = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !snake {
            errors.spanned(
                code,
                "an error code is snake_case, such as \"out_of_stock\"",
            );
        }
    }
    if let Some(class) = &mapping.class
        && !CLASSES.contains(&class.value().as_str())
    {
        errors.spanned(class, "`class` is \"input\", \"dependency\" or \"system\"");
    }
    if mapping.masked && (mapping.code.is_some() || mapping.hint.is_some()) {
        errors.at(
            mapping.span,
            "a `masked` variant shows nothing to the model: drop its `code` and `hint`",
        );
    }
    if !mapping.masked && mapping.code.is_none() {
        errors.at(
            mapping.span,
            "a variant shown to the model needs a `code`, such as `#[tool_error(code = \"not_found\")]`; \
             write `#[tool_error(masked)]` to hide it",
        );
    }
}

fn expand(input: &DeriveInput, arms: &[(TokenStream, Mapping)]) -> TokenStream {
    let ty = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let arms = arms.iter().map(|(pattern, mapping)| {
        let body = arm_body(mapping);
        quote!(#pattern => #body,)
    });
    quote! {
        impl #impl_generics ::mcp_tool_runtime::error::IntoToolError for #ty #type_generics #where_clause {
            fn into_tool_error(self) -> ::mcp_tool_runtime::ToolError {
                match &self {
                    #(#arms)*
                }
            }
        }

        ::mcp_tool_runtime::register_error_mapping!(#ty);
    }
}

fn arm_body(mapping: &Mapping) -> TokenStream {
    let Some(code) = &mapping.code else {
        return quote!(::mcp_tool_runtime::ToolError::internal(self));
    };
    let class = mapping.class.as_ref().map_or_else(
        || Ident::new("Input", Span::call_site()),
        |class| {
            let value = class.value();
            let mut chars = value.chars();
            let capitalised: String = chars
                .next()
                .map(|first| first.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
                .collect();
            Ident::new(&capitalised, class.span())
        },
    );
    let retryable = mapping
        .retryable
        .as_ref()
        .map_or_else(|| quote!(false), |flag| quote!(#flag));
    let hint = mapping.hint.as_ref().map_or_else(
        || quote!(::core::option::Option::None),
        |hint| quote!(::core::option::Option::Some(#hint)),
    );
    let retry_after = mapping.retry_after_secs.as_ref().map_or_else(
        || quote!(::core::option::Option::None),
        |seconds| quote!(::core::option::Option::Some(#seconds)),
    );
    quote! {
        ::mcp_tool_runtime::__private::shown_error(
            &self,
            ::mcp_tool_runtime::ErrorCode::lookup(#code).unwrap_or(
                ::mcp_tool_runtime::ErrorCode::custom(
                    #code,
                    ::mcp_tool_runtime::error::ErrorClass::#class,
                    #retryable,
                ),
            ),
            #hint,
            #retry_after,
        )
    }
}
