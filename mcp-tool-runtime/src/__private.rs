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
pub use crate::tool::call::{BindBody, BoundBody, Parse, Rendering, ToolCall};
pub use crate::tool::def::{BoxFuture, FreeHandler, Handler};

/// Parses a call's arguments into a tool's arguments struct, for a struct with no type
/// parameters: one function of the runtime where each tool had its own `__mcp_parse`, which
/// took 49M off the 4,662M instructions P6's incremental rebuild of 100 tools runs on
/// rustc's main thread (callgrind, pre-expanded crate). A generic struct keeps its own, whose
/// bounds meet the user's types in the tool's body.
pub fn parse_call<A>(call: &ToolCall<'_>) -> Result<A, crate::ToolError>
where
    A: serde::de::DeserializeOwned + validator::Validate,
{
    call.parse()
}

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

/// Fails to compile, at the argument's type, when a type cannot be a tool argument or
/// `validator` cannot report the value its rules check: the two checks of such an argument
/// in one call, which took 27M off the 4,976M instructions P6's incremental rebuild of 100
/// tools runs on rustc's main thread (callgrind).
pub const fn assert_checked_argument<T: ToolArgument + CheckedValue>() {}

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

/// What a tool function takes besides its arguments: the call's context, or nothing.
pub trait CallPart: Send + 'static {
    /// The part of `call` the tool takes.
    fn of(call: &ToolCall<'_>) -> Self;
}

impl CallPart for () {
    fn of(_: &ToolCall<'_>) -> Self {}
}

impl CallPart for crate::ToolContext {
    fn of(call: &ToolCall<'_>) -> Self {
        call.context()
    }
}

/// The conversion of a tool's output into its answer: the output type's `into_tool_output`.
pub type Render<O> = fn(O) -> Result<crate::tool::ToolOutput, crate::ToolError>;

/// A handler's future: the call's answer.
pub type Answer<'a> = BoxFuture<'a, Result<crate::tool::ToolOutput, crate::ToolError>>;

/// The handler's future of a sync tool: its arguments parsed, `body` run on the sync tools'
/// pool, its output rendered. Generic here, so that a tool's crate borrow-checks a
/// closure instead of an `async` block of its own (P6), and all it compiles besides is three
/// small closures: the future is [`ToolCall::run_bound`]'s, the same for every tool. `render`
/// is the output type's `into_tool_output`, named by the macro on the user's return type, so
/// that a type that is no tool output is reported once, there.
pub fn run_sync<'a, A, C, O, F>(
    call: ToolCall<'a>,
    parse: Parse<A>,
    body: F,
    render: Render<O>,
) -> Answer<'a>
where
    A: Send + 'static,
    C: CallPart,
    O: Send + 'static,
    F: FnOnce(A, C) -> O + Send + 'static,
{
    let part = C::of(&call);
    call.run_bound(Box::new(move |call: &ToolCall<'_>| {
        let arguments = parse(call)?;
        Ok(Box::new(move || {
            let output = body(arguments, part);
            Box::new(move || render(output)) as Rendering
        }) as BoundBody)
    }))
}

/// The handler's future of an `async` tool that borrows no state, as [`run_sync`]'s but
/// awaited on the executor.
pub fn run_async<'a, A, C, O, F, Fut>(
    call: ToolCall<'a>,
    parse: Parse<A>,
    body: F,
    render: Render<O>,
) -> Answer<'a>
where
    A: Send + 'static,
    C: CallPart,
    O: 'a,
    F: FnOnce(A, C) -> Fut + Send + 'a,
    Fut: std::future::Future<Output = O> + Send + 'a,
{
    Box::pin(async move {
        // Small arguments are read here, not through `parse_off_executor`'s future, which
        // set up and moved the large input's hand-off on every call: 44 instructions, P1
        // 1.08 to 1.02 in time (4 alternating summary runs); 71 lines of LLVM IR more an
        // `async` tool.
        let arguments = if call.reads_here() {
            parse(&call)?
        } else {
            call.parse_off_executor(parse).await?
        };
        let part = C::of(&call);
        render(body(arguments, part).await)
    })
}
