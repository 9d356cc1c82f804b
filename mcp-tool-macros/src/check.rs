//! Rules on a parsed tool that need the whole model: its name, its descriptions, its
//! arguments taken together.

use crate::ast::Tool;
use crate::errors::Errors;
use crate::suggest;
use crate::validate_attr::{Rule, Validator, Written};

/// The MCP rule for tool names: 1 to 128 of `A-Z a-z 0-9 _ - .`.
fn name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if length == 0 {
        return Some("a tool name cannot be empty".into());
    }
    if length > 128 {
        return Some(format!(
            "tool name is {length} characters long; MCP allows at most 128"
        ));
    }
    let bad: Vec<String> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map(|c| format!("{c:?}"))
        .collect();
    if bad.is_empty() {
        None
    } else {
        Some(format!(
            "tool name `{name}` contains {}; MCP tool names use only A-Z, a-z, 0-9, `_`, `-` and `.`",
            bad.join(", ")
        ))
    }
}

/// The keys a `#[validate]` rule cannot do without, and `range` without any bound.
fn check_rule(rule: &Rule, errors: &mut Errors) {
    let name = rule.validator.name();
    let required = rule.validator.required_keys();
    match &rule.written {
        Written::Bare(path) => {
            if let Some(needed) = required.first() {
                errors.spanned(
                    path,
                    format!("`{name}` needs `{needed}`: write `{name}({needed} = ...)`"),
                );
            }
        }
        Written::List(list) => {
            let has = |key: &str| rule.options.iter().any(|option| option.key == key);
            for needed in required.iter().filter(|needed| !has(needed)) {
                errors.spanned(list, format!("`{name}` needs `{needed} = ...`"));
            }
            let only_messages = rule
                .options
                .iter()
                .all(|option| option.key == "message" || option.key == "code");
            if rule.validator == Validator::Range && only_messages {
                errors.spanned(
                    list,
                    "`range` needs `min`, `max`, `exclusive_min` or `exclusive_max`",
                );
            }
        }
    }
}

pub(crate) fn check(tool: &Tool, errors: &mut Errors) {
    let rules = tool.args.iter().flat_map(|arg| &arg.validate);
    for rule in rules.flat_map(|attr| &attr.rules) {
        check_rule(rule, errors);
    }
    if let Some(problem) = name_problem(&tool.name) {
        errors.at(tool.name_span(), problem);
    }

    let has_description = tool
        .attr
        .description
        .as_ref()
        .map_or(!tool.docs.description.trim().is_empty(), |d| {
            !d.value().trim().is_empty()
        });
    if !has_description {
        errors.at(
            tool.ident.span(),
            format!(
                "tool `{}` has no description: the model reads it to decide when to call the \
                 tool. Add a doc comment (`/// ...`) or `#[mcp_tool(description = \"...\")]`",
                tool.name
            ),
        );
    }

    let known: Vec<&str> = tool.args.iter().map(|arg| arg.property.as_str()).collect();
    for doc in &tool.docs.arguments {
        if !known.contains(&doc.name.as_str()) {
            let message = if known.is_empty() {
                format!(
                    "the `# Arguments` section documents `{}`, but the tool takes no arguments",
                    doc.name
                )
            } else {
                let hint = suggest::closest(&doc.name, &known)
                    .map(|best| format!("; did you mean `{best}`?"))
                    .unwrap_or_default();
                let list = known
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "the `# Arguments` section documents `{}`, which is not an argument of \
                     this tool{hint} (the arguments are {list})",
                    doc.name
                )
            };
            errors.at(doc.span, message);
        }
    }
    for arg in &tool.args {
        if let (Some(_), Some(from_attr)) = (
            tool.docs
                .arguments
                .iter()
                .find(|doc| doc.name == arg.property),
            &arg.attr.description,
        ) {
            errors.spanned(
                from_attr,
                format!(
                    "argument `{}` is described twice: in `# Arguments` and here",
                    arg.property
                ),
            );
        }
    }

    if let Some(input) = tool.whole_input() {
        if tool.args.len() > 1 {
            for other in tool.args.iter().filter(|arg| arg.attr.input.is_none()) {
                errors.spanned(
                    &other.ident,
                    "a tool whose input is one `#[arg(input)]` struct takes no other arguments: \
                     move this one into the struct",
                );
            }
        }
        let extra = input.attr.default.is_some()
            || input.attr.description.is_some()
            || input.attr.example.is_some()
            || !input.validate.is_empty();
        if extra {
            errors.spanned(
                &input.ident,
                "an `#[arg(input)]` struct describes and validates itself: put descriptions, \
                 defaults and `#[validate]` on its fields",
            );
        }
    }
}
