//! The value of `#[arg(default = expr)]`, typed against the argument the way a user expects.

use proc_macro2::TokenStream;
use quote::quote;

/// The inner type of a syntactic `Option<T>`.
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match &args.args[0] {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// True for `Some(..)` and `None`, which already are `Option`s.
fn is_option_expr(expr: &syn::Expr) -> bool {
    let path = match expr {
        syn::Expr::Call(call) => match call.func.as_ref() {
            syn::Expr::Path(path) => &path.path,
            _ => return false,
        },
        syn::Expr::Path(path) => &path.path,
        _ => return false,
    };
    path.segments
        .last()
        .is_some_and(|segment| segment.ident == "Some" || segment.ident == "None")
}

/// The body of a default function for `#[arg(default = expr)]`. The expression is typed
/// against the argument's type directly, so `10` is a `u32` where the argument is one; a
/// string literal converts with `From` (`String`, `Cow`); an `Option<T>` argument takes a
/// plain `T` value and wraps it in `Some`.
pub(super) fn default_value(ty: &syn::Type, expr: &syn::Expr) -> TokenStream {
    let convert = |expr: &syn::Expr| match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        }) => quote!(::core::convert::From::from(#expr)),
        _ => quote!(#expr),
    };
    match option_inner(ty) {
        Some(_) if !is_option_expr(expr) => {
            let inner = convert(expr);
            quote!(::core::option::Option::Some(#inner))
        }
        _ => convert(expr),
    }
}
