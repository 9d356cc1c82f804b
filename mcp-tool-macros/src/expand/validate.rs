//! What `#[validate]` rules add to the schema beyond what schemars derives.

use proc_macro2::TokenStream;
use quote::quote;

use crate::validate_attr::{ValidateAttr, Validator};

/// `validator`'s `range(exclusive_min = .., exclusive_max = ..)` as the schema's
/// `exclusiveMinimum`/`exclusiveMaximum`, which schemars does not derive: without them the
/// published schema would accept the bound itself, which the runtime rejects.
///
/// Only a literal (`10`, `-1.5`) can go into the schema; another expression (a `const`) is
/// left to the runtime check.
pub(super) fn exclusive_bounds(validate: &[ValidateAttr]) -> TokenStream {
    let ranges = validate
        .iter()
        .flat_map(|attr| &attr.rules)
        .filter(|rule| rule.validator == Validator::Range);
    let bounds = ranges.flat_map(|rule| &rule.options).filter_map(|option| {
        let keyword = match option.key.as_str() {
            "exclusive_min" => "exclusiveMinimum",
            "exclusive_max" => "exclusiveMaximum",
            _ => return None,
        };
        let value = option.value.as_ref()?;
        matches!(value, syn::Expr::Lit(_) | syn::Expr::Unary(_))
            .then(|| quote!(#[schemars(extend(#keyword = #value))]))
    });
    quote!(#(#bounds)*)
}
