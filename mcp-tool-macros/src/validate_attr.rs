//! Checks `#[validate(...)]` on arguments at compile time, so a typo points at its token
//! instead of surfacing as a derive error inside generated code.

use syn::Meta;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, Token};

use crate::errors::Errors;
use crate::suggest;

/// Each validator of the `validator` crate, with its keys and the keys it requires.
const VALIDATORS: &[(&str, &[&str], &[&str])] = &[
    (
        "range",
        &[
            "min",
            "max",
            "exclusive_min",
            "exclusive_max",
            "message",
            "code",
        ],
        &[],
    ),
    ("length", &["min", "max", "equal", "message", "code"], &[]),
    ("email", &["message", "code"], &[]),
    ("url", &["message", "code"], &[]),
    ("regex", &["path", "message", "code"], &["path"]),
    (
        "custom",
        &["function", "message", "code", "use_context"],
        &["function"],
    ),
    ("contains", &["pattern", "message", "code"], &["pattern"]),
    (
        "does_not_contain",
        &["pattern", "message", "code"],
        &["pattern"],
    ),
    ("non_control_character", &["message", "code"], &[]),
    ("required", &["message", "code"], &[]),
    ("nested", &[], &[]),
    ("credit_card", &["message", "code"], &[]),
    ("ip", &["v4", "v6", "message", "code"], &[]),
];

fn names() -> Vec<&'static str> {
    VALIDATORS.iter().map(|(name, _, _)| *name).collect()
}

pub(crate) fn check(attr: &Attribute, errors: &mut Errors) {
    let Meta::List(list) = &attr.meta else {
        errors.spanned(
            attr,
            "write `#[validate(range(min = 1, max = 10))]` or another validator",
        );
        return;
    };
    let Some(entries) =
        errors.collect(Punctuated::<Meta, Token![,]>::parse_terminated.parse2(list.tokens.clone()))
    else {
        return;
    };
    if entries.is_empty() {
        errors.spanned(list, "`#[validate()]` names no validator");
    }
    for entry in entries {
        let name = entry
            .path()
            .get_ident()
            .map(|ident| ident.to_string())
            .unwrap_or_default();
        let Some((_, keys, required)) = VALIDATORS.iter().find(|(known, _, _)| *known == name)
        else {
            errors.spanned(entry.path(), suggest::unknown("validator", &name, &names()));
            continue;
        };
        match &entry {
            Meta::Path(_) => {
                if !required.is_empty() {
                    errors.spanned(
                        &entry,
                        format!(
                            "`{name}` needs `{}`: write `{name}({} = ...)`",
                            required[0], required[0]
                        ),
                    );
                }
            }
            Meta::NameValue(pair) => {
                errors.spanned(pair, format!("write `{name}(...)`, not `{name} = ...`"))
            }
            Meta::List(inner) => {
                let Some(pairs) = errors.collect(
                    Punctuated::<Meta, Token![,]>::parse_terminated.parse2(inner.tokens.clone()),
                ) else {
                    continue;
                };
                let given: Vec<String> = pairs
                    .iter()
                    .map(|pair| {
                        pair.path()
                            .get_ident()
                            .map(|ident| ident.to_string())
                            .unwrap_or_default()
                    })
                    .collect();
                for (pair, key) in pairs.iter().zip(&given) {
                    if !keys.contains(&key.as_str()) {
                        let kind = format!("`{name}` key");
                        errors.spanned(pair.path(), suggest::unknown(&kind, key, keys));
                    }
                }
                for needed in *required {
                    if !given.iter().any(|key| key == needed) {
                        errors.spanned(inner, format!("`{name}` needs `{needed} = ...`"));
                    }
                }
                if name == "range" && given.iter().all(|key| key == "message" || key == "code") {
                    errors.spanned(
                        inner,
                        "`range` needs `min`, `max`, `exclusive_min` or `exclusive_max`",
                    );
                }
            }
        }
    }
}
