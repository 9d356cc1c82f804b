//! Reads a tool's description and its argument descriptions from rustdoc comments.
//!
//! The `# Arguments` section (the rustdoc convention) describes the arguments, so it is
//! moved into the schema and left out of the tool description:
//!
//! ```text
//! /// Add an item to the cart.
//! ///
//! /// # Arguments
//! /// * `sku` - Catalog code such as "ABC-0001".
//! /// * `quantity` - How many to add.
//! ```

use proc_macro2::Span;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// One entry of the `# Arguments` section.
pub(crate) struct ArgumentDoc {
    pub name: String,
    pub text: String,
    pub span: Span,
}

/// A doc comment split into the tool description and the argument descriptions.
#[derive(Default)]
pub(crate) struct Docs {
    pub description: String,
    pub arguments: Vec<ArgumentDoc>,
}

fn doc_lines(attrs: &[Attribute]) -> Vec<(String, Span)> {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(pair) => match &pair.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => Some((text.value(), attr_span(attr))),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|(text, span)| {
            text.split('\n')
                .map(|line| (line.strip_prefix(' ').unwrap_or(line).to_string(), span))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The span `attr.span()` gives (the first token's joined with the last's), without
/// printing the attribute to a token stream first: a quarter of reading a tool's docs.
fn attr_span(attr: &Attribute) -> Span {
    let first = attr.pound_token.span;
    first.join(attr.bracket_token.span.join()).unwrap_or(first)
}

fn is_arguments_heading(line: &str) -> bool {
    let trimmed = line.trim();
    let title = trimmed.trim_start_matches('#').trim();
    trimmed.starts_with('#') && matches!(title, "Arguments" | "Parameters" | "Args")
}

/// `* \`name\` - text`, `- name: text` and the like.
fn argument_item(line: &str) -> Option<(String, String)> {
    let rest = line.trim_start().strip_prefix(['*', '-'])?.trim_start();
    let (name, text) = if let Some(quoted) = rest.strip_prefix('`') {
        let end = quoted.find('`')?;
        (&quoted[..end], &quoted[end + 1..])
    } else {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        (&rest[..end], &rest[end..])
    };
    if name.is_empty() {
        return None;
    }
    let text = text
        .trim_start()
        .trim_start_matches(['-', ':', '—', '–'])
        .trim();
    Some((name.to_string(), text.to_string()))
}

/// Reads the doc comment among `attrs`.
pub(crate) fn parse(attrs: &[Attribute]) -> Docs {
    let mut docs = Docs::default();
    let mut kept: Vec<String> = Vec::new();
    let mut in_arguments = false;
    for (line, span) in doc_lines(attrs) {
        if is_arguments_heading(&line) {
            in_arguments = true;
            continue;
        }
        if in_arguments && line.trim_start().starts_with('#') {
            in_arguments = false;
        }
        if !in_arguments {
            kept.push(line);
            continue;
        }
        if let Some((name, text)) = argument_item(&line) {
            docs.arguments.push(ArgumentDoc { name, text, span });
        } else if let Some(last) = docs.arguments.last_mut() {
            let more = line.trim();
            if !more.is_empty() {
                last.text.push(' ');
                last.text.push_str(more);
            }
        }
    }
    // Collapse runs of blank lines left where the section was.
    let mut description = String::new();
    let mut blank = false;
    for line in kept {
        if line.trim().is_empty() {
            blank = !description.is_empty();
            continue;
        }
        if blank {
            description.push_str("\n\n");
        } else if !description.is_empty() {
            description.push('\n');
        }
        blank = false;
        description.push_str(line.trim_end());
    }
    docs.description = description;
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_arguments_from_description() {
        let item: syn::ItemFn = syn::parse_quote! {
            /// Add an item to the cart.
            ///
            /// # Arguments
            /// * `sku` - Catalog code such as "ABC-0001".
            /// * `quantity` - How many
            ///   to add.
            ///
            /// # Errors
            /// Fails when the SKU is unknown.
            fn add_item() {}
        };
        let docs = parse(&item.attrs);
        assert_eq!(
            docs.description,
            "Add an item to the cart.\n\n# Errors\nFails when the SKU is unknown."
        );
        let args: Vec<(&str, &str)> = docs
            .arguments
            .iter()
            .map(|a| (a.name.as_str(), a.text.as_str()))
            .collect();
        assert_eq!(
            args,
            [
                ("sku", "Catalog code such as \"ABC-0001\"."),
                ("quantity", "How many to add.")
            ]
        );
    }
}
