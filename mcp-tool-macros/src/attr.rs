//! The options of `#[mcp_tool(...)]` and of `#[arg(...)]` on an argument.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitBool, LitStr, Meta, Token};

use crate::errors::Errors;
use crate::icon_attr::{IconSpec, parse_icons};
use crate::suggest;

const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "meta",
    "icons",
    "schema_profile",
    "timeout",
    "timeout_ms",
    "cache_ttl",
    "tags",
    "task",
    "task_start",
    "ui",
    "ui_visibility",
    "scopes",
];

/// The values `task = "..."` accepts, with their `TaskSupport` variant.
const TASK_SUPPORT: &[(&str, &str)] = &[
    ("forbidden", "Forbidden"),
    ("optional", "Optional"),
    ("required", "Required"),
];

/// The values `task_start = "..."` accepts, with their `TaskStart` variant.
const TASK_START: &[(&str, &str)] = &[("call", "Call"), ("explicit", "Explicit")];

/// The schema profiles `schema_profile = "..."` accepts, with their `SchemaProfile` variant.
pub(crate) const SCHEMA_PROFILES: &[(&str, &str)] = &[
    ("portable", "Portable"),
    ("strict", "Strict"),
    ("gemini", "Gemini"),
    ("full", "Full"),
];

const ARG_KEYS: &[&str] = &["description", "default", "example", "input"];

/// A boolean option given as a flag (`read_only`) or a value (`read_only = false`).
#[derive(Clone, Copy)]
pub(crate) struct Flag {
    pub value: bool,
}

/// The options of `#[mcp_tool(...)]`, each `None` when not given.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: Option<Flag>,
    pub destructive: Option<Flag>,
    pub idempotent: Option<Flag>,
    pub open_world: Option<Flag>,
    pub meta: Option<LitStr>,
    /// `icons = [...]`, each checked (see `icon_attr`).
    pub icons: Option<Vec<IconSpec>>,
    /// The `SchemaProfile` variant of `schema_profile = "..."`, checked against
    /// [`SCHEMA_PROFILES`].
    pub schema_profile: Option<syn::Ident>,
    /// `timeout = "5s"` or `timeout_ms = 5000`, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// `tags = ["admin", "beta"]`: non-empty, distinct string literals.
    pub tags: Option<Vec<LitStr>>,
    /// `scopes = ["notes:write"]`: OAuth scope tokens, non-empty and distinct.
    pub scopes: Option<Vec<LitStr>>,
    /// `cache_ttl = "1m"`, in milliseconds (zero allowed: never reuse).
    pub cache_ttl_ms: Option<u64>,
    /// The `TaskSupport` variant of `task = "..."`.
    pub task: Option<syn::Ident>,
    /// The `TaskStart` variant of `task_start = "..."`.
    pub task_start: Option<syn::Ident>,
    /// `ui = "ui://..."`, the MCP Apps view (see `ui_attr`).
    pub ui: Option<LitStr>,
    /// `ui_visibility = ["app"]`, as its `UiVisibility` variant.
    pub ui_visibility: Option<syn::Ident>,
}

fn key_of(meta: &Meta) -> String {
    meta.path()
        .get_ident()
        .map(|ident| ident.to_string())
        .unwrap_or_else(|| quote::quote!(#meta).to_string())
}

fn string_value(meta: &Meta, errors: &mut Errors) -> Option<LitStr> {
    match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) => Some(text.clone()),
            other => {
                errors.spanned(other, format!("`{}` takes a string literal", key_of(meta)));
                None
            }
        },
        _ => {
            errors.spanned(meta, format!("write `{} = \"...\"`", key_of(meta)));
            None
        }
    }
}

fn flag_value(meta: &Meta, errors: &mut Errors) -> Option<Flag> {
    match meta {
        Meta::Path(_) => Some(Flag { value: true }),
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(LitBool { value, .. }),
                ..
            }) => Some(Flag { value: *value }),
            other => {
                errors.spanned(other, format!("`{}` takes `true` or `false`", key_of(meta)));
                None
            }
        },
        Meta::List(list) => {
            errors.spanned(list, format!("write `{0}` or `{0} = true`", key_of(meta)));
            None
        }
    }
}

/// Stores `value` in `slot`, reporting a key given twice.
fn set_once<T>(slot: &mut Option<T>, value: Option<T>, meta: &Meta, errors: &mut Errors) {
    if slot.is_some() {
        errors.spanned(
            meta.path(),
            format!("`{}` is given more than once", key_of(meta)),
        );
    } else {
        *slot = value;
    }
}

fn parse_list(tokens: TokenStream, errors: &mut Errors) -> Vec<Meta> {
    errors
        .collect(Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens))
        .map(|list| list.into_iter().collect())
        .unwrap_or_default()
}

/// Parses `#[mcp_tool(...)]`, reporting every bad key.
pub(crate) fn parse_tool_attr(tokens: TokenStream, errors: &mut Errors) -> ToolAttr {
    let mut attr = ToolAttr::default();
    for meta in parse_list(tokens, errors) {
        let key = key_of(&meta);
        match key.as_str() {
            "name" => {
                let value = string_value(&meta, errors);
                set_once(&mut attr.name, value, &meta, errors);
            }
            "title" => {
                let value = string_value(&meta, errors);
                set_once(&mut attr.title, value, &meta, errors);
            }
            "description" => {
                let value = string_value(&meta, errors);
                set_once(&mut attr.description, value, &meta, errors);
            }
            "meta" | "_meta" => {
                let value = string_value(&meta, errors);
                if let Some(json) = &value {
                    check_meta_json(json, errors);
                }
                set_once(&mut attr.meta, value, &meta, errors);
            }
            "icons" => {
                let value = parse_icons(&meta, errors);
                set_once(&mut attr.icons, value, &meta, errors);
            }
            "timeout" => {
                let value = string_value(&meta, errors)
                    .and_then(|text| duration_ms(&text, "timeout", 1.0, errors));
                set_once(&mut attr.timeout_ms, value, &meta, errors);
            }
            "cache_ttl" => {
                let value = string_value(&meta, errors)
                    .and_then(|text| duration_ms(&text, "cache_ttl", 0.0, errors));
                set_once(&mut attr.cache_ttl_ms, value, &meta, errors);
            }
            "timeout_ms" => {
                let value = millis_value(&meta, errors);
                set_once(&mut attr.timeout_ms, value, &meta, errors);
            }
            "tags" => {
                let value = string_list(&meta, &TAGS, errors);
                set_once(&mut attr.tags, value, &meta, errors);
            }
            "task" => {
                let value = string_value(&meta, errors)
                    .and_then(|name| choice(&name, "task", TASK_SUPPORT, errors));
                set_once(&mut attr.task, value, &meta, errors);
            }
            "task_start" => {
                let value = string_value(&meta, errors)
                    .and_then(|name| choice(&name, "task_start", TASK_START, errors));
                set_once(&mut attr.task_start, value, &meta, errors);
            }
            "ui" => {
                let value = string_value(&meta, errors)
                    .and_then(|uri| crate::ui_attr::view_value(uri, errors));
                set_once(&mut attr.ui, value, &meta, errors);
            }
            "ui_visibility" => {
                let value = crate::ui_attr::visibility_value(&meta, errors);
                set_once(&mut attr.ui_visibility, value, &meta, errors);
            }
            "scopes" => {
                let value = string_list(&meta, &SCOPES, errors);
                set_once(&mut attr.scopes, value, &meta, errors);
            }
            "schema_profile" => {
                let value =
                    string_value(&meta, errors).and_then(|name| profile_variant(&name, errors));
                set_once(&mut attr.schema_profile, value, &meta, errors);
            }
            "read_only" | "destructive" | "idempotent" | "open_world" => {
                let value = flag_value(&meta, errors);
                let slot = match key.as_str() {
                    "read_only" => &mut attr.read_only,
                    "destructive" => &mut attr.destructive,
                    "idempotent" => &mut attr.idempotent,
                    _ => &mut attr.open_world,
                };
                set_once(slot, value, &meta, errors);
            }
            _ => errors.spanned(
                meta.path(),
                suggest::unknown("`mcp_tool` option", &key, TOOL_KEYS),
            ),
        }
    }
    if let (Some(start), None) = (&attr.task_start, &attr.task) {
        errors.spanned(
            start,
            "`task_start` needs `task = \"optional\"` or `task = \"required\"`",
        );
    }
    attr
}

/// What a list of strings names, for the messages about it: `tags` or `scopes`.
struct ListKind {
    key: &'static str,
    noun: &'static str,
    example: &'static str,
    /// Why an element is not a valid one, beyond being empty or repeated.
    invalid: fn(&str) -> Option<String>,
}

const TAGS: ListKind = ListKind {
    key: "tags",
    noun: "tag",
    example: "admin",
    invalid: |_| None,
};

/// A scope is an RFC 6749 `scope-token`: printable ASCII without space, `"` or `\`, which
/// is what a `WWW-Authenticate` challenge and a space-separated `scope` can carry.
const SCOPES: ListKind = ListKind {
    key: "scopes",
    noun: "scope",
    example: "notes:write",
    invalid: |scope| {
        scope
            .chars()
            .find(|c| !matches!(c, '\x21' | '\x23'..='\x5B' | '\x5D'..='\x7E'))
            .map(|c| {
                format!(
                    "the scope \"{}\" holds {c:?}: a scope is printable ASCII without spaces, \
                     quotes or backslashes (RFC 6749 §3.3)",
                    scope.escape_default()
                )
            })
    },
};

/// `tags = ["admin", "beta"]` or `scopes = ["notes:write"]`: every element a non-empty
/// string literal given once.
fn string_list(meta: &Meta, kind: &ListKind, errors: &mut Errors) -> Option<Vec<LitStr>> {
    let ListKind {
        key, noun, example, ..
    } = kind;
    let list = match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Array(array) => array,
            other => {
                errors.spanned(
                    other,
                    format!("`{key}` takes a list of strings: `{key} = [\"{example}\"]`"),
                );
                return None;
            }
        },
        _ => {
            errors.spanned(meta, format!("write `{key} = [\"{example}\"]`"));
            return None;
        }
    };
    let mut items: Vec<LitStr> = Vec::new();
    let mut ok = true;
    for element in &list.elems {
        let Expr::Lit(ExprLit {
            lit: Lit::Str(item),
            ..
        }) = element
        else {
            errors.spanned(
                element,
                format!("a {noun} is a string literal, such as \"{example}\""),
            );
            ok = false;
            continue;
        };
        let value = item.value();
        let problem = if value.trim().is_empty() {
            Some(format!("a {noun} cannot be empty"))
        } else if items.iter().any(|known| known.value() == value) {
            Some(format!("the {noun} \"{value}\" is given twice"))
        } else {
            (kind.invalid)(&value)
        };
        match problem {
            Some(problem) => {
                errors.spanned(item, problem);
                ok = false;
            }
            None => items.push(item.clone()),
        }
    }
    ok.then_some(items)
}

/// The variant named by `name` among `choices`, or an error listing them.
fn choice(
    name: &LitStr,
    key: &str,
    choices: &[(&str, &str)],
    errors: &mut Errors,
) -> Option<syn::Ident> {
    let given = name.value();
    match choices.iter().find(|(value, _)| *value == given) {
        Some((_, variant)) => Some(syn::Ident::new(variant, name.span())),
        None => {
            let values: Vec<String> = choices.iter().map(|(v, _)| format!("\"{v}\"")).collect();
            errors.spanned(
                name,
                format!("`{key}` is one of {}; got \"{given}\"", values.join(", ")),
            );
            None
        }
    }
}

fn profile_variant(name: &LitStr, errors: &mut Errors) -> Option<syn::Ident> {
    let given = name.value();
    match SCHEMA_PROFILES
        .iter()
        .find(|(profile, _)| *profile == given)
    {
        Some((_, variant)) => Some(syn::Ident::new(variant, name.span())),
        None => {
            let names: Vec<&str> = SCHEMA_PROFILES
                .iter()
                .map(|(profile, _)| *profile)
                .collect();
            errors.spanned(name, suggest::unknown("schema profile", &given, &names));
            None
        }
    }
}

/// `"250ms"`, `"5s"`, `"1.5s"`, `"2m"`, `"1h"` in milliseconds, for option `key`; less than
/// `least` milliseconds is refused (a time limit of zero would never let a tool run).
fn duration_ms(text: &LitStr, key: &str, least: f64, errors: &mut Errors) -> Option<u64> {
    let value = text.value();
    let trimmed = value.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale = match unit.trim() {
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        _ => {
            errors.spanned(text, unit_message(key));
            return None;
        }
    };
    match number.parse::<f64>() {
        Ok(amount) if amount * scale >= least => Some((amount * scale).round() as u64),
        Ok(_) => {
            errors.spanned(text, format!("`{key}` must be at least 1ms"));
            None
        }
        Err(_) => {
            errors.spanned(text, unit_message(key));
            None
        }
    }
}

fn unit_message(key: &str) -> String {
    format!("`{key}` takes a number with a unit: \"250ms\", \"5s\", \"2m\" or \"1h\"")
}

fn millis_value(meta: &Meta, errors: &mut Errors) -> Option<u64> {
    match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Int(int), ..
            }) => match int.base10_parse::<u64>() {
                Ok(0) | Err(_) => {
                    errors.spanned(
                        int,
                        "`timeout_ms` takes a whole number of milliseconds, at least 1",
                    );
                    None
                }
                Ok(millis) => Some(millis),
            },
            other => {
                errors.spanned(other, "`timeout_ms` takes a whole number of milliseconds");
                None
            }
        },
        _ => {
            errors.spanned(meta, "write `timeout_ms = 5000`");
            None
        }
    }
}

fn check_meta_json(json: &LitStr, errors: &mut Errors) {
    match serde_json::from_str::<serde_json::Value>(&json.value()) {
        Ok(serde_json::Value::Object(_)) => {}
        Ok(_) => errors.spanned(
            json,
            "`meta` must be a JSON object, such as `r#\"{\"team\": \"cart\"}\"#`",
        ),
        Err(error) => errors.spanned(json, format!("`meta` is not valid JSON: {error}")),
    }
}

/// The options of `#[arg(...)]` on one argument.
#[derive(Default)]
pub(crate) struct ArgAttr {
    pub description: Option<LitStr>,
    /// `Some(None)` for `default`, `Some(Some(expr))` for `default = expr`.
    pub default: Option<Option<Expr>>,
    pub example: Option<Expr>,
    pub input: Option<Span>,
}

/// Parses one `#[arg(...)]` into `into`, so that several `#[arg]` on one argument add up.
pub(crate) fn parse_arg_attr(attr: &syn::Attribute, into: &mut ArgAttr, errors: &mut Errors) {
    let tokens = match &attr.meta {
        Meta::List(list) => list.tokens.clone(),
        other => {
            errors.spanned(other, "write `#[arg(description = \"...\")]`, `#[arg(default)]`, `#[arg(default = value)]`, `#[arg(example = value)]` or `#[arg(input)]`");
            return;
        }
    };
    for meta in parse_list(tokens, errors) {
        let key = key_of(&meta);
        match (key.as_str(), &meta) {
            ("description", _) => {
                let value = string_value(&meta, errors);
                set_once(&mut into.description, value, &meta, errors);
            }
            ("default", Meta::Path(_)) => set_once(&mut into.default, Some(None), &meta, errors),
            ("default", Meta::NameValue(pair)) => set_once(
                &mut into.default,
                Some(Some(pair.value.clone())),
                &meta,
                errors,
            ),
            ("example", Meta::NameValue(pair)) => {
                set_once(&mut into.example, Some(pair.value.clone()), &meta, errors)
            }
            ("input", Meta::Path(path)) => {
                set_once(&mut into.input, Some(path.span()), &meta, errors)
            }
            ("default" | "example" | "input", _) => errors.spanned(
                &meta,
                format!("malformed `{key}`; see the `#[arg]` documentation"),
            ),
            _ => errors.spanned(
                meta.path(),
                suggest::unknown("`arg` option", &key, ARG_KEYS),
            ),
        }
    }
}
