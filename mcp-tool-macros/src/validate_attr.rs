//! `#[validate(...)]` on an argument, parsed once into typed rules. The checks judge the
//! rules and the expansion derives schema keywords from them; the attribute itself goes to
//! the `validator` derive as the user wrote it.

use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Meta, MetaList, Token};

use crate::errors::Errors;
use crate::suggest;

/// A validator of the `validator` crate that `#[validate(...)]` may name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validator {
    // The variants are the validators of the same name in snake case.
    Range,
    Length,
    Email,
    Url,
    Regex,
    Custom,
    Contains,
    DoesNotContain,
    NonControlCharacter,
    Required,
    Nested,
    CreditCard,
    Ip,
}

impl Validator {
    /// Every validator, in the order the "expected one of" hint lists them.
    const ALL: [Validator; 13] = [
        Validator::Range,
        Validator::Length,
        Validator::Email,
        Validator::Url,
        Validator::Regex,
        Validator::Custom,
        Validator::Contains,
        Validator::DoesNotContain,
        Validator::NonControlCharacter,
        Validator::Required,
        Validator::Nested,
        Validator::CreditCard,
        Validator::Ip,
    ];

    /// The name the user writes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Validator::Range => "range",
            Validator::Length => "length",
            Validator::Email => "email",
            Validator::Url => "url",
            Validator::Regex => "regex",
            Validator::Custom => "custom",
            Validator::Contains => "contains",
            Validator::DoesNotContain => "does_not_contain",
            Validator::NonControlCharacter => "non_control_character",
            Validator::Required => "required",
            Validator::Nested => "nested",
            Validator::CreditCard => "credit_card",
            Validator::Ip => "ip",
        }
    }

    /// The keys it accepts inside its parentheses.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Validator::Range => &[
                "min",
                "max",
                "exclusive_min",
                "exclusive_max",
                "message",
                "code",
            ],
            Validator::Length => &["min", "max", "equal", "message", "code"],
            Validator::Regex => &["path", "message", "code"],
            Validator::Custom => &["function", "message", "code", "use_context"],
            Validator::Contains | Validator::DoesNotContain => &["pattern", "message", "code"],
            Validator::Ip => &["v4", "v6", "message", "code"],
            Validator::Nested => &[],
            Validator::Email
            | Validator::Url
            | Validator::NonControlCharacter
            | Validator::Required
            | Validator::CreditCard => &["message", "code"],
        }
    }

    /// The keys it cannot work without.
    pub(crate) fn required_keys(self) -> &'static [&'static str] {
        match self {
            Validator::Regex => &["path"],
            Validator::Custom => &["function"],
            Validator::Contains | Validator::DoesNotContain => &["pattern"],
            _ => &[],
        }
    }

    /// How its options are written, for the error on options that are not `key = value`.
    fn example(self) -> &'static str {
        match self {
            Validator::Range => "range(min = 1, max = 100)",
            Validator::Length => "length(min = 1, max = 5)` or `length(equal = 8)",
            Validator::Regex => "regex(path = *MY_REGEX)",
            Validator::Custom => "custom(function = my_check)",
            Validator::Contains => "contains(pattern = \"text\")",
            Validator::DoesNotContain => "does_not_contain(pattern = \"text\")",
            Validator::Ip => "ip(v4)",
            Validator::Nested => "nested",
            Validator::Email => "email(message = \"...\")",
            Validator::Url => "url(message = \"...\")",
            Validator::NonControlCharacter => "non_control_character(message = \"...\")",
            Validator::Required => "required(message = \"...\")",
            Validator::CreditCard => "credit_card(message = \"...\")",
        }
    }

    /// The validator the user named, if it exists.
    fn named(name: &str) -> Option<Validator> {
        Validator::ALL
            .into_iter()
            .find(|validator| validator.name() == name)
    }
}

/// How a rule was written, kept whole because its errors underline all of it.
pub(crate) enum Written {
    /// `email`.
    Bare(syn::Path),
    /// `range(min = 1)`.
    List(MetaList),
}

/// One `key = value` (or bare `key`) inside a rule's parentheses.
pub(crate) struct RuleOption {
    /// The key, or `""` for a path that is not a single identifier. Unknown keys are kept
    /// (and reported) so that the checks see every key the user wrote.
    pub key: String,
    /// The value of `key = value`; `None` for a bare key.
    pub value: Option<Expr>,
}

/// One validator of a `#[validate(...)]` attribute with its options.
pub(crate) struct Rule {
    /// Which validator it is.
    pub validator: Validator,
    /// The rule's tokens, where its errors point.
    pub written: Written,
    /// The options inside its parentheses, in order; none for a bare rule.
    pub options: Vec<RuleOption>,
}

/// A `#[validate(...)]` attribute: as written, for the derive, and as typed rules.
pub(crate) struct ValidateAttr {
    /// The attribute as written, handed to the `validator` derive unchanged.
    pub attr: Attribute,
    /// The rules that parsed; a rule with a syntax error is reported and left out.
    pub rules: Vec<Rule>,
}

/// A comma-separated list of `Meta`, or `None` (reported) when it does not parse.
fn entries(tokens: proc_macro2::TokenStream, errors: &mut Errors) -> Option<Vec<Meta>> {
    errors
        .collect(Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens))
        .map(|entries| entries.into_iter().collect())
}

/// A path's single identifier, or `""` for any other path.
fn ident_text(path: &syn::Path) -> String {
    path.get_ident()
        .map(|ident| ident.to_string())
        .unwrap_or_default()
}

/// Parses one `#[validate(...)]`, reporting unknown validators and keys at their tokens.
pub(crate) fn parse(attr: &Attribute, errors: &mut Errors) -> ValidateAttr {
    ValidateAttr {
        attr: attr.clone(),
        rules: parse_rules(attr, errors),
    }
}

/// The rules of one attribute; none when the attribute is not a list.
fn parse_rules(attr: &Attribute, errors: &mut Errors) -> Vec<Rule> {
    let Meta::List(list) = &attr.meta else {
        errors.spanned(
            attr,
            "write `#[validate(range(min = 1, max = 10))]` or another validator",
        );
        return Vec::new();
    };
    let Some(entries) = entries(list.tokens.clone(), errors) else {
        return Vec::new();
    };
    if entries.is_empty() {
        errors.spanned(list, "`#[validate()]` names no validator");
    }
    entries
        .into_iter()
        .filter_map(|entry| parse_rule(entry, errors))
        .collect()
}

/// One rule; `None` (reported) for an unknown validator or a malformed rule.
fn parse_rule(entry: Meta, errors: &mut Errors) -> Option<Rule> {
    let name = ident_text(entry.path());
    let Some(validator) = Validator::named(&name) else {
        let names = Validator::ALL.map(Validator::name);
        errors.spanned(entry.path(), suggest::unknown("validator", &name, &names));
        return None;
    };
    match entry {
        Meta::Path(path) => Some(Rule {
            validator,
            written: Written::Bare(path),
            options: Vec::new(),
        }),
        Meta::NameValue(pair) => {
            errors.spanned(pair, format!("write `{name}(...)`, not `{name} = ...`"));
            None
        }
        Meta::List(list) => {
            let parsed =
                Punctuated::<Meta, Token![,]>::parse_terminated.parse2(list.tokens.clone());
            let Ok(parsed) = parsed else {
                // `range(1, 100)`: syn would only say "expected identifier".
                errors.spanned(
                    &list.tokens,
                    format!(
                        "name each option of `{name}`: write `{}`",
                        validator.example()
                    ),
                );
                return None;
            };
            let options = parsed
                .into_iter()
                .map(|option| parse_option(validator, option, errors))
                .collect();
            Some(Rule {
                validator,
                written: Written::List(list),
                options,
            })
        }
    }
}

/// One option of a rule, reporting a key the validator does not take.
fn parse_option(validator: Validator, option: Meta, errors: &mut Errors) -> RuleOption {
    let key = ident_text(option.path());
    let keys = validator.keys();
    if !keys.contains(&key.as_str()) {
        let kind = format!("`{}` key", validator.name());
        errors.spanned(option.path(), suggest::unknown(&kind, &key, keys));
    }
    let value = match option {
        Meta::NameValue(pair) => Some(pair.value),
        Meta::Path(_) | Meta::List(_) => None,
    };
    RuleOption { key, value }
}
