//! The MCP Apps options of `#[mcp_tool(...)]`: `ui = "ui://..."`, the view the tool's
//! results render in, and `ui_visibility = ["app"]`, who may call it.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, ExprLit, Lit, LitStr, Meta};

use crate::errors::Errors;

/// `ui = "ui://server/view"`: a `ui://` URI with something after the scheme and no
/// whitespace, as MCP Apps requires of a view.
pub(crate) fn view_value(text: LitStr, errors: &mut Errors) -> Option<LitStr> {
    let value = text.value();
    let rest = value.strip_prefix("ui://");
    match rest {
        Some(rest) if !rest.is_empty() && !rest.contains(char::is_whitespace) => Some(text),
        _ => {
            errors.spanned(
                &text,
                format!(
                    "`ui` names a view by its ui:// URI, such as \"ui://inventory/cart\"; \
                     \"{value}\" is not one"
                ),
            );
            None
        }
    }
}

/// `ui_visibility = ["app"]`: a non-empty subset of `["model", "app"]`, each given once,
/// as the `UiVisibility` variant it means.
pub(crate) fn visibility_value(meta: &Meta, errors: &mut Errors) -> Option<syn::Ident> {
    const USAGE: &str = "`ui_visibility` takes [\"app\"], [\"model\"] or [\"model\", \"app\"]";
    let Meta::NameValue(pair) = meta else {
        errors.spanned(meta, USAGE);
        return None;
    };
    let Expr::Array(array) = &pair.value else {
        errors.spanned(&pair.value, USAGE);
        return None;
    };
    let mut seen: Vec<String> = Vec::new();
    for element in &array.elems {
        match element {
            Expr::Lit(ExprLit {
                lit: Lit::Str(who), ..
            }) if matches!(who.value().as_str(), "model" | "app")
                && !seen.contains(&who.value()) =>
            {
                seen.push(who.value());
            }
            other => {
                errors.spanned(other, USAGE);
                return None;
            }
        }
    }
    let variant = match (
        seen.iter().any(|w| w == "model"),
        seen.iter().any(|w| w == "app"),
    ) {
        (true, true) => "ModelAndApp",
        (false, true) => "App",
        (true, false) => "Model",
        (false, false) => {
            errors.spanned(array, USAGE);
            return None;
        }
    };
    Some(syn::Ident::new(variant, array.bracket_token.span.join()))
}

/// `.ui(...)` and `.ui_visibility(...)` for the tool's `ToolInfo` builder.
pub(crate) fn builder_calls(view: Option<&LitStr>, visibility: Option<&syn::Ident>) -> TokenStream {
    let view = view.map(|uri| quote!(.ui(#uri)));
    let visibility = visibility
        .map(|variant| quote!(.ui_visibility(::mcp_tool_runtime::apps::UiVisibility::#variant)));
    quote!(#view #visibility)
}
