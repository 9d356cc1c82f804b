//! `#[mcp_tool(icons = [...])]`: the tool's icons (spec 2025-11-25 `Icon`), checked at
//! compile time.
//!
//! ```text
//! icons = ["https://example.com/cart.png"]
//! icons = [icon(src = "https://example.com/cart.svg", mime_type = "image/svg+xml",
//!               sizes = ["any"], theme = "dark")]
//! ```

use syn::{Expr, ExprArray, ExprAssign, ExprCall, ExprLit, Lit, LitStr, Meta};

use crate::errors::Errors;
use crate::suggest;

const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];
const THEMES: &[&str] = &["light", "dark"];
/// Schemes a client may fetch an icon from; the spec has clients refuse `javascript:`,
/// `file:` and the like.
const SCHEMES: &[&str] = &["https:", "http:", "data:"];

const USAGE: &str = "write `icons = [\"https://…/icon.png\"]`, or with details \
    `icons = [icon(src = \"https://…/icon.svg\", mime_type = \"image/svg+xml\", sizes = [\"any\"], theme = \"dark\")]`";

/// One icon: where it is, and what the client may want to know before fetching it.
pub(crate) struct IconSpec {
    pub src: LitStr,
    pub mime_type: Option<LitStr>,
    pub sizes: Vec<LitStr>,
    /// `Light` or `Dark`, the `IconTheme` variant.
    pub theme: Option<syn::Ident>,
}

/// Parses `icons = [...]`, reporting every malformed icon.
pub(crate) fn parse_icons(meta: &Meta, errors: &mut Errors) -> Option<Vec<IconSpec>> {
    let Meta::NameValue(pair) = meta else {
        errors.spanned(meta, USAGE);
        return None;
    };
    let Expr::Array(ExprArray { elems, .. }) = &pair.value else {
        errors.spanned(&pair.value, USAGE);
        return None;
    };
    let icons: Vec<Option<IconSpec>> = elems.iter().map(|icon| parse_icon(icon, errors)).collect();
    icons.into_iter().collect()
}

fn parse_icon(icon: &Expr, errors: &mut Errors) -> Option<IconSpec> {
    match icon {
        Expr::Lit(ExprLit {
            lit: Lit::Str(src), ..
        }) => check_src(src, errors).then(|| IconSpec {
            src: src.clone(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }),
        Expr::Call(call) if is_icon_call(call) => parse_icon_call(call, errors),
        other => {
            errors.spanned(
                other,
                "an icon is a URL string or `icon(src = \"…\", mime_type = \"…\", sizes = [\"48x48\"], theme = \"light\")`",
            );
            None
        }
    }
}

fn is_icon_call(call: &ExprCall) -> bool {
    matches!(&*call.func, Expr::Path(path) if path.path.is_ident("icon"))
}

fn parse_icon_call(call: &ExprCall, errors: &mut Errors) -> Option<IconSpec> {
    let mut src = None;
    let mut mime_type = None;
    let mut sizes = None;
    let mut theme = None;
    let mut valid = true;
    for argument in &call.args {
        let Expr::Assign(ExprAssign { left, right, .. }) = argument else {
            errors.spanned(argument, "write `key = value` inside `icon(...)`");
            valid = false;
            continue;
        };
        let key = match &**left {
            Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
            _ => None,
        }
        .unwrap_or_default();
        let parsed = match key.as_str() {
            "src" => string(right, "src", errors)
                .filter(|text| check_src(text, errors))
                .map(|text| src = Some(text)),
            "mime_type" => string(right, "mime_type", errors)
                .filter(|text| check_mime_type(text, errors))
                .map(|text| mime_type = Some(text)),
            "sizes" => parse_sizes(right, errors).map(|list| sizes = Some(list)),
            "theme" => string(right, "theme", errors)
                .and_then(|text| theme_variant(&text, errors))
                .map(|variant| theme = Some(variant)),
            _ => {
                errors.spanned(left, suggest::unknown("icon option", &key, ICON_KEYS));
                None
            }
        };
        valid &= parsed.is_some();
    }
    if src.is_none() && valid {
        errors.spanned(call, "`icon(...)` needs `src = \"https://…\"`");
    }
    Some(IconSpec {
        src: src?,
        mime_type,
        sizes: sizes.unwrap_or_default(),
        theme,
    })
    .filter(|_| valid)
}

fn string(value: &Expr, key: &str, errors: &mut Errors) -> Option<LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => Some(text.clone()),
        other => {
            errors.spanned(other, format!("icon `{key}` takes a string literal"));
            None
        }
    }
}

fn check_src(src: &LitStr, errors: &mut Errors) -> bool {
    let text = src.value();
    let lower = text.to_ascii_lowercase();
    let fetchable = SCHEMES.iter().any(|scheme| lower.starts_with(scheme))
        && text.len() > text.find(':').map_or(0, |colon| colon + 1);
    if !fetchable {
        errors.spanned(
            src,
            format!("an icon's `src` is an `https:` or `http:` URL or a `data:` URI, not '{text}'"),
        );
    }
    fetchable
}

fn check_mime_type(mime_type: &LitStr, errors: &mut Errors) -> bool {
    let text = mime_type.value();
    let valid = text
        .split_once('/')
        .is_some_and(|(kind, subtype)| !kind.is_empty() && !subtype.is_empty())
        && !text.contains(char::is_whitespace);
    if !valid {
        errors.spanned(
            mime_type,
            format!("`mime_type` is a MIME type such as \"image/png\", not '{text}'"),
        );
    }
    valid
}

fn parse_sizes(value: &Expr, errors: &mut Errors) -> Option<Vec<LitStr>> {
    let Expr::Array(ExprArray { elems, .. }) = value else {
        errors.spanned(
            value,
            "icon `sizes` takes a list such as `[\"48x48\", \"96x96\"]`",
        );
        return None;
    };
    let sizes: Vec<Option<LitStr>> = elems.iter().map(|size| parse_size(size, errors)).collect();
    sizes.into_iter().collect()
}

fn parse_size(size: &Expr, errors: &mut Errors) -> Option<LitStr> {
    let text = string(size, "sizes", errors)?;
    let value = text.value();
    let dimension = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let valid = value == "any"
        || value
            .split_once('x')
            .is_some_and(|(width, height)| dimension(width) && dimension(height));
    if !valid {
        errors.spanned(
            &text,
            format!("an icon size is \"WxH\" (such as \"48x48\") or \"any\", not '{value}'"),
        );
        return None;
    }
    Some(text)
}

fn theme_variant(theme: &LitStr, errors: &mut Errors) -> Option<syn::Ident> {
    match theme.value().as_str() {
        "light" => Some(syn::Ident::new("Light", theme.span())),
        "dark" => Some(syn::Ident::new("Dark", theme.span())),
        other => {
            errors.spanned(theme, suggest::unknown("icon theme", other, THEMES));
            None
        }
    }
}
