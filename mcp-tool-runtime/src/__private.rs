//! Items the generated code refers to. Not a public API: nothing here is covered by
//! semantic versioning.

pub use schemars;
pub use serde;
pub use serde_json;
pub use validator;

pub use crate::input::check_argument;
pub use inventory;

pub use crate::error::mapping::ErrorMapping;
pub use crate::tool::blocking::run_blocking;
pub use crate::tool::call::ToolCall;
pub use crate::tool::def::{BoxFuture, FreeHandler, Handler};

/// Pairs a `#[mcp_tool]` definition with its handler.
pub fn tool_def<S: 'static>(
    info: &'static crate::ToolInfo,
    handler: Handler<S>,
) -> crate::ToolDef<S> {
    crate::ToolDef::from_static(info, handler)
}

/// Pairs a free `#[mcp_tool]` function's definition with its handler, for any state.
pub fn free_tool_def<S: 'static>(
    info: &'static crate::ToolInfo,
    handler: FreeHandler,
) -> crate::ToolDef<S> {
    crate::ToolDef::from_static_free(info, handler)
}

/// A tool's definition, built on its first use and kept in `cell`. Here rather than in the
/// generated code, so that the cell's code is compiled once, not once per tool (about 330
/// lines of LLVM IR a tool, P6).
pub fn cached_info(
    cell: &'static std::sync::OnceLock<crate::ToolInfo>,
    build: fn() -> crate::ToolInfo,
) -> &'static crate::ToolInfo {
    cell.get_or_init(build)
}

/// Masks the error of an `anyhow::Result` or a `Result<T, Box<dyn Error + Send + Sync>>`,
/// which are not `std::error::Error` and so have no `From` into `ToolError`.
pub fn mask_error<T, E>(result: Result<T, E>) -> Result<T, crate::ToolError>
where
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    result.map_err(|error| crate::ToolError::internal(error.into()))
}

/// Fails to compile, at the argument's type, when a type cannot be a tool argument.
pub const fn assert_argument<T: ToolArgument>() {}

/// Types that can be tool arguments.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an MCP tool argument",
    label = "this argument type must implement `Deserialize` and `JsonSchema`",
    note = "derive them: #[derive(serde::Deserialize, schemars::JsonSchema)]"
)]
pub trait ToolArgument {}

impl<T: serde::de::DeserializeOwned + schemars::JsonSchema> ToolArgument for T {}

/// Fails to compile, at the argument's type, when a type cannot be a whole tool input.
pub const fn assert_input<T: ToolInput>() {}

/// Types that can stand for a tool's whole input (`#[arg(input)]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the whole input of an MCP tool",
    label = "an `#[arg(input)]` type must implement `Deserialize`, `JsonSchema` and `Validate`",
    note = "derive them: #[derive(serde::Deserialize, schemars::JsonSchema, validator::Validate)]"
)]
pub trait ToolInput {}

impl<T> ToolInput for T where
    T: serde::de::DeserializeOwned + schemars::JsonSchema + validator::Validate
{
}

/// Fails to compile, at the default's expression, when an argument's default cannot be
/// published in the input schema.
pub const fn assert_published_default<T: PublishedDefault>() {}

/// Types whose `#[arg(default = ...)]` value the input schema can show.
#[diagnostic::on_unimplemented(
    message = "the default of an argument of type `{Self}` cannot be published in the input schema",
    label = "`{Self}` does not implement `Serialize`, so schemars would leave this default out",
    note = "derive it: #[derive(serde::Serialize)], or drop the default"
)]
pub trait PublishedDefault {}

impl<T: serde::Serialize> PublishedDefault for T {}

/// Fails to compile, at the argument's type, when `#[validate(nested)]` cannot check it.
pub const fn assert_nested<T: NestedArgument + ?Sized>() {}

/// Types `#[validate(nested)]` can check: `validator` calls `(&value).validate()`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be checked with `#[validate(nested)]`",
    label = "`#[validate(nested)]` runs this type's own rules, so it must implement `Validate`",
    note = "derive it: #[derive(validator::Validate)], with #[validate(...)] on its fields; or drop `nested`"
)]
pub trait NestedArgument {}

impl<T: ?Sized> NestedArgument for T where for<'a> &'a T: validator::Validate {}

/// Fails to compile, at the argument's type, when `validator` cannot report the value
/// of an argument its rules check.
pub const fn assert_checked_value<T: CheckedValue + ?Sized>() {}

/// Types whose values `#[validate(...)]` rules can check: `validator` puts the value
/// it checked in its errors.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be checked with `#[validate(...)]`",
    label = "`validator` puts the value it checks in its errors, so this type must implement `Serialize`",
    note = "derive it: #[derive(serde::Serialize)], on the element type of a collection too"
)]
pub trait CheckedValue {}

impl<T: serde::Serialize + ?Sized> CheckedValue for T {}

/// Fails to compile, at the return type, when a type cannot be returned from a tool.
pub const fn assert_output<T: crate::tool::IntoToolOutput>() {}

/// The tool error of a value `#[derive(ToolError)]` shows: its `Display` text with `code`.
pub fn shown_error(
    error: &dyn std::error::Error,
    code: crate::ErrorCode,
    hint: Option<&'static str>,
    retry_after_secs: Option<u64>,
) -> crate::ToolError {
    let mut shown = crate::ToolError::new(code, error.to_string());
    if let Some(hint) = hint {
        shown = shown.with_hint(hint);
    }
    if let Some(seconds) = retry_after_secs {
        shown = shown.with_retry_after(std::time::Duration::from_secs(seconds));
    }
    shown
}

/// Boxes a handler's future.
pub fn boxed<'a, F>(future: F) -> BoxFuture<'a, F::Output>
where
    F: std::future::Future + Send + 'a,
{
    Box::pin(future)
}
