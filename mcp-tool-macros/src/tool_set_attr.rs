//! The options of `#[mcp_tools(...)]`: `name = admin_tools` and `vis = pub`.
//!
//! The values are an identifier and a visibility, which `syn::Meta` cannot hold (`pub` is not
//! an expression), so the list is read by hand; a bad option is reported and skipped, and
//! the next one is still read.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Ident, LitStr, Token, Visibility};

use crate::errors::Errors;
use crate::suggest;

const KEYS: &[&str] = &["name", "vis"];

/// What a block's `name = ...` must be, in the messages.
const NAME_EXAMPLE: &str =
    "`name = admin_tools`, the associated function that returns this block's tools";

/// The options of `#[mcp_tools(...)]`, each `None` when not given.
#[derive(Default)]
pub(crate) struct ToolSetAttr {
    /// `name = admin_tools`: the block gets that associated function instead of the
    /// `ToolSet` impl, so one type can have several blocks.
    pub name: Option<Ident>,
    /// `vis = pub`: the visibility of that function, `pub(crate)` when not given.
    pub vis: Option<Visibility>,
    /// Where `vis` was written, for the error when it comes without a name.
    vis_key: Option<Span>,
    /// Whether any option was written: a block with malformed options is not taken for
    /// the block without a name.
    pub written: bool,
}

impl ToolSetAttr {
    /// The named function's visibility: `vis`, else `pub(crate)` at `span`.
    pub(crate) fn visibility(&self, span: Span) -> TokenStream {
        match &self.vis {
            Some(vis) => quote::quote!(#vis),
            None => quote::quote_spanned!(span=> pub(crate)),
        }
    }
}

/// Parses `#[mcp_tools(...)]`, reporting every bad option.
pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> ToolSetAttr {
    let mut attr = ToolSetAttr {
        written: !tokens.is_empty(),
        ..ToolSetAttr::default()
    };
    let parser = |input: ParseStream<'_>| {
        while !input.is_empty() {
            option(input, &mut attr, errors)?;
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(())
    };
    let parsed = parser.parse2(tokens);
    errors.collect(parsed);
    if let (None, Some(vis)) = (&attr.name, attr.vis_key) {
        errors.at(
            vis,
            "`vis` is the visibility of the function a named block generates; add \
             `name = admin_tools` (a block without a name implements `ToolSet` instead)",
        );
    }
    attr
}

/// One `key = value`.
fn option(input: ParseStream<'_>, attr: &mut ToolSetAttr, errors: &mut Errors) -> syn::Result<()> {
    if !input.peek(Ident::peek_any) {
        let value = skip_value(input)?;
        errors.spanned(
            &value,
            format!("`#[mcp_tools]` takes {NAME_EXAMPLE}, and `vis = pub`"),
        );
        return Ok(());
    }
    let key = input.call(Ident::parse_any)?;
    let known = KEYS.contains(&key.to_string().as_str());
    if !input.peek(Token![=]) {
        let message = if known {
            format!("write `{key} = ...`; `#[mcp_tools]` takes {NAME_EXAMPLE}, and `vis = pub`")
        } else {
            format!("to name this block, write `name = {key}`")
        };
        errors.at(key.span(), message);
        return skip_value(input).map(drop);
    }
    input.parse::<Token![=]>()?;
    match key.to_string().as_str() {
        "name" => {
            let name = name_value(input, errors)?;
            set_once(&mut attr.name, name, &key, errors);
        }
        "vis" => {
            let vis = vis_value(input, errors)?;
            set_once(&mut attr.vis, vis, &key, errors);
            attr.vis_key = Some(key.span());
        }
        other => {
            errors.at(
                key.span(),
                suggest::unknown("`mcp_tools` option", other, KEYS),
            );
            skip_value(input)?;
        }
    }
    Ok(())
}

/// The identifier of `name = ...`. A string literal holding one is reported and still used,
/// so that the rest of the crate, which calls the function, does not fail as well.
fn name_value(input: ParseStream<'_>, errors: &mut Errors) -> syn::Result<Option<Ident>> {
    if input.peek(LitStr) {
        let text: LitStr = input.parse()?;
        errors.spanned(
            &text,
            format!(
                "`name` takes an identifier, not a string: `name = {}`",
                text.value()
            ),
        );
        return Ok(syn::parse_str::<Ident>(&text.value())
            .ok()
            .map(|ident| Ident::new(&ident.to_string(), text.span())));
    }
    if !input.peek(Ident) {
        let value = skip_value(input)?;
        errors.spanned(
            &value,
            format!("`name` takes an identifier: {NAME_EXAMPLE}"),
        );
        return Ok(None);
    }
    let name: Ident = input.parse()?;
    if name == "tools" {
        errors.spanned(
            &name,
            "a block named `tools` would hide `ToolSet::tools`, which a block without a name \
             implements; pick another name, such as `admin_tools`",
        );
    }
    Ok(Some(name))
}

/// The visibility of `vis = ...`.
fn vis_value(input: ParseStream<'_>, errors: &mut Errors) -> syn::Result<Option<Visibility>> {
    let vis: Visibility = input.parse()?;
    if matches!(vis, Visibility::Inherited) {
        let value = skip_value(input)?;
        let message = "`vis` takes a visibility: `vis = pub`, `vis = pub(super)`; without \
                       `vis` the function is `pub(crate)`";
        if value.is_empty() {
            errors.at(input.span(), message);
        } else {
            errors.spanned(&value, message);
        }
        return Ok(None);
    }
    Ok(Some(vis))
}

/// Stores `value` in `slot`, reporting a key given twice.
fn set_once<T>(slot: &mut Option<T>, value: Option<T>, key: &Ident, errors: &mut Errors) {
    if slot.is_some() {
        errors.at(key.span(), format!("`{key}` is given more than once"));
    } else {
        *slot = value;
    }
}

/// The tokens up to the next comma, consumed.
fn skip_value(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    let mut skipped = TokenStream::new();
    while !input.is_empty() && !input.peek(Token![,]) {
        skipped.extend([input.parse::<TokenTree>()?]);
    }
    Ok(skipped)
}
