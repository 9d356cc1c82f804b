//! Every rule on a parsed model: the signature, the receiver and the context, the argument
//! types, the `#[validate]` rules, the name and the descriptions, the arguments taken
//! together, and the names across one `#[mcp_tools]` block. Each rule reports and goes on,
//! so the user sees every problem at once.

use std::collections::HashMap;

use quote::quote;
use syn::{Pat, Signature, Type};

use crate::ast::{Place, Tool, ToolSet};
use crate::errors::Errors;
use crate::return_type::{self, ErrorType};
use crate::suggest;
use crate::validate_attr::{Rule, Validator, Written};

/// The rules on one tool.
pub(crate) fn tool(tool: &Tool, errors: &mut Errors) {
    check_signature(&tool.signature, &tool.output, errors);
    check_receiver(tool, errors);
    check_borrowed_output(&tool.output, errors);
    check_error_type(&tool.output, errors);
    check_contexts(tool, errors);
    for arg in &tool.args {
        check_arg_type(&arg.ty, errors);
        for rule in arg.validate.iter().flat_map(|validate| &validate.rules) {
            check_rule(rule, errors);
        }
    }
    check_name(tool, errors);
    check_description(tool, errors);
    check_argument_docs(tool, errors);
    check_whole_input(tool, errors);
}

/// The rules on an `#[mcp_tools]` block and each of its tools.
pub(crate) fn tool_set(set: &ToolSet, errors: &mut Errors) {
    if let Some((_, path, _)) = &set.block.trait_ {
        errors.spanned(
            path,
            "`#[mcp_tools]` goes on an inherent `impl` block, not a trait implementation",
        );
    }
    for each in &set.tools {
        tool(each, errors);
    }
    check_unique_names(&set.tools, errors);
}

/// What a tool function's signature cannot be: generic, `unsafe`, `extern`, variadic, or
/// returning `impl Trait`.
fn check_signature(sig: &Signature, output: &Type, errors: &mut Errors) {
    if !sig.generics.params.is_empty() {
        let names: Vec<String> = sig
            .generics
            .params
            .iter()
            .map(|param| match param {
                syn::GenericParam::Type(param) => format!("`{}`", param.ident),
                syn::GenericParam::Lifetime(param) => format!("`{}`", param.lifetime),
                syn::GenericParam::Const(param) => format!("`{}`", param.ident),
            })
            .collect();
        errors.spanned(
            &sig.generics,
            format!(
                "a tool function cannot be generic (over {}): its input and output schemas are \
                 derived from concrete types; replace the parameters with the types you mean",
                names.join(", ")
            ),
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.spanned(unsafety, "a tool function cannot be `unsafe`");
    }
    if let Some(abi) = &sig.abi {
        errors.spanned(abi, "a tool function cannot have an `extern` ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.spanned(variadic, "a tool function cannot be variadic");
    }
    if let Type::ImplTrait(impl_trait) = output {
        errors.spanned(
            impl_trait,
            "a tool cannot return `impl Trait`: name a concrete type such as `String` or \
             `Json<T>` (write `async fn` instead of returning `impl Future`)",
        );
    }
}

/// A result lives on after the call, so it cannot borrow from the arguments or the state:
/// only `&'static` references may be returned.
fn check_borrowed_output(output: &Type, errors: &mut Errors) {
    let Type::Reference(reference) = output else {
        return;
    };
    let is_static = reference
        .lifetime
        .as_ref()
        .is_some_and(|lifetime| lifetime.ident == "static");
    if !is_static {
        errors.spanned(
            reference,
            format!(
                "a tool's result outlives the call, so it cannot borrow from `self` or an \
                 argument: return an owned value such as `String` instead of `{}`",
                type_text(output)
            ),
        );
    }
}

/// A text error would reach the model only masked, which is not what its author meant.
fn check_error_type(output: &Type, errors: &mut Errors) {
    if let ErrorType::Unsupported(error) = return_type::classify(output) {
        errors.spanned(
            error,
            format!(
                "`{}` cannot be a tool's error type: return `ToolError` instead, built with \
                 `ToolError::new(ErrorCode::NOT_FOUND, message)` to show the message to the \
                 model or `ToolError::internal(error)` to mask it, or an error type of your own \
                 with `#[derive(ToolError)]`",
                type_text(error)
            ),
        );
    }
}

/// A method is a tool only inside `#[mcp_tools]`, and shares its state through `&self`.
fn check_receiver(tool: &Tool, errors: &mut Errors) {
    let Some(receiver) = &tool.receiver else {
        return;
    };
    if tool.place == Place::Free {
        errors.spanned(
            receiver,
            "a tool method needs `#[mcp_tools]` on its `impl` block, which registers the \
             methods as tools of that state type",
        );
        return;
    }
    let shared_ref = receiver.reference.is_some()
        && receiver.mutability.is_none()
        && receiver.colon_token.is_none();
    if !shared_ref {
        errors.spanned(
            receiver,
            "tool methods take `&self`: one state is shared by concurrent calls; use interior \
             mutability (a Mutex) for state that changes",
        );
    }
}

/// At most one `ToolContext`, taken by value under a name.
fn check_contexts(tool: &Tool, errors: &mut Errors) {
    for (index, context) in tool.contexts.iter().enumerate() {
        let written = &context.written;
        if index > 0 {
            errors.spanned(written, "a tool takes at most one `ToolContext` argument");
        }
        if let Type::Reference(reference) = written.ty.as_ref() {
            errors.spanned(
                reference,
                "take the context by value (`ctx: ToolContext`): it is cheap to clone and the \
                 handler owns it",
            );
        }
        if !matches!(written.pat.as_ref(), Pat::Ident(_) | Pat::Wild(_)) {
            errors.spanned(
                &written.pat,
                "name the context argument, as in `ctx: ToolContext`",
            );
        }
    }
}

/// A type as the user would write it (`Vec<String>`, not `Vec < String >`).
fn type_text(ty: &Type) -> String {
    let mut text = quote!(#ty).to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        ("& ", "&"),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// Argument types that can never work, reported before the derives would stumble on them.
fn check_arg_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::Reference(reference) => {
            let owned = match reference.elem.as_ref() {
                Type::Path(path) if path.path.is_ident("str") => "`String`".to_string(),
                Type::Slice(slice) => {
                    let elem = &slice.elem;
                    format!("`Vec<{}>`", type_text(elem))
                }
                other => format!("`{}`", type_text(other)),
            };
            errors.spanned(
                reference,
                format!(
                    "a tool argument cannot be a reference: arguments are deserialized from \
                     the call's JSON into owned values; take {owned} instead"
                ),
            );
        }
        Type::ImplTrait(impl_trait) => errors.spanned(
            impl_trait,
            "a tool argument cannot be `impl Trait`: name a concrete type, from which the \
             argument's JSON schema is derived",
        ),
        _ => {}
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
            if has("use_context") {
                errors.spanned(
                    list,
                    "`use_context` cannot be used on a tool's arguments: no validation context \
                     reaches a tool call. Check what needs the server's state inside the tool \
                     and return a `ToolError`, or drop `use_context` from the custom rule",
                );
            }
            if rule.validator == Validator::Range && only_messages {
                errors.spanned(
                    list,
                    "`range` needs `min`, `max`, `exclusive_min` or `exclusive_max`",
                );
            }
        }
    }
}

/// The MCP rule for tool names: 1 to 128 of `A-Z a-z 0-9 _ - .`. The runtime applies the
/// same rule to tools built at run time (`mcp-tool-runtime/src/tool/name.rs`), which this
/// crate cannot call; `tests/core/registry_errors.rs` checks that both give these messages.
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

/// The tool name must be one MCP accepts.
fn check_name(tool: &Tool, errors: &mut Errors) {
    if let Some(problem) = name_problem(&tool.name) {
        errors.at(tool.name_span(), problem);
    }
}

/// The model reads the description to decide when to call the tool, so one is required.
fn check_description(tool: &Tool, errors: &mut Errors) {
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
}

/// The `# Arguments` section names only real arguments, each described in one place.
fn check_argument_docs(tool: &Tool, errors: &mut Errors) {
    let known: Vec<&str> = tool.args.iter().map(|arg| arg.property.as_str()).collect();
    for doc in &tool.docs.arguments {
        if !known.contains(&doc.name.as_str()) {
            errors.at(doc.span, unknown_documented_argument(&doc.name, &known));
        }
    }
    for arg in &tool.args {
        let documented = tool
            .docs
            .arguments
            .iter()
            .any(|doc| doc.name == arg.property);
        if let (true, Some(from_attr)) = (documented, &arg.attr.description) {
            errors.spanned(
                from_attr,
                format!(
                    "argument `{}` is described twice: in `# Arguments` and here",
                    arg.property
                ),
            );
        }
    }
}

/// The message for a `# Arguments` entry that names no argument, with the closest one.
fn unknown_documented_argument(name: &str, known: &[&str]) -> String {
    if known.is_empty() {
        return format!(
            "the `# Arguments` section documents `{name}`, but the tool takes no arguments"
        );
    }
    let hint = suggest::closest(name, known)
        .map(|best| format!("; did you mean `{best}`?"))
        .unwrap_or_default();
    let list = known
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "the `# Arguments` section documents `{name}`, which is not an argument of this \
         tool{hint} (the arguments are {list})"
    )
}

/// An `#[arg(input)]` struct is the whole input: no other arguments, no options of its own.
fn check_whole_input(tool: &Tool, errors: &mut Errors) {
    let Some(input) = tool.whole_input() else {
        return;
    };
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

/// Two tools of one server may not share a name; within one `#[mcp_tools]` block that is
/// known at compile time.
fn check_unique_names(tools: &[Tool], errors: &mut Errors) {
    let mut seen: HashMap<&str, &Tool> = HashMap::new();
    for tool in tools {
        match seen.get(tool.name.as_str()) {
            Some(first) => errors.at(
                tool.name_span(),
                format!(
                    "two tools of this block are named `{}` (the other is `fn {}`): tool \
                     names must be unique within a server; rename one with \
                     `#[mcp_tool(name = \"...\")]`",
                    tool.name, first.ident
                ),
            ),
            None => {
                seen.insert(&tool.name, tool);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;

    use super::*;
    use crate::ast;

    /// The messages of parsing and checking one free function's signature.
    fn messages(sig: Signature) -> String {
        let mut errors = Errors::default();
        let tool = ast::parse_tool(TokenStream::new(), &[], &sig, Place::Free, &mut errors);
        super::tool(&tool, &mut errors);
        errors.to_compile_errors().to_string()
    }

    #[test]
    fn type_text_reads_like_source() {
        let ty: Type = syn::parse_quote!(&std::collections::HashMap<String, Vec<u8>>);
        assert_eq!(
            type_text(&ty),
            "&std::collections::HashMap<String, Vec<u8>>"
        );
    }

    #[test]
    fn reference_arguments_suggest_an_owned_type() {
        let text = messages(syn::parse_quote!(fn greet(name: &str, tags: &[String])));
        assert!(text.contains("take `String` instead"), "{text}");
        assert!(text.contains("take `Vec<String>` instead"), "{text}");
    }

    #[test]
    fn generic_functions_name_their_parameters() {
        let text = messages(syn::parse_quote!(fn echo<'a, T, const N: usize>(value: T)));
        assert!(text.contains("over `'a`, `T`, `N`"), "{text}");
    }
}
