//! What a tool may return, and how each kind becomes a tool result.

use std::borrow::Cow;

use rmcp::model::{CallToolResult, ContentBlock};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::finite;
use crate::error::ToolError;
use crate::render::ToolOutput;
use crate::schema;

/// A structured result: the tool gets an `outputSchema` from `T`, and each call returns
/// `structuredContent` plus a text copy of the same JSON.
///
/// When `T`'s schema is not an object (a list, a number), results are wrapped as
/// `{"result": value}` and the output schema says so, because MCP requires an object. An
/// enum whose every variant is written as an object (`#[serde(tag = "kind")]`, adjacently
/// tagged) is an object and is sent as it is.
///
/// A result holding `NaN` or an infinity, which JSON cannot carry, is a masked internal
/// error, its place in the result logged under the correlation id.
///
/// ```
/// use mcp_tool_runtime::{Json, tool::IntoToolOutput};
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Total { cents: u64 }
/// let (schema, wrapped) = <Json<Total> as IntoToolOutput>::output_schema().unwrap();
/// assert_eq!(schema["type"], "object");
/// assert!(!wrapped);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

/// Types a tool function may return.
///
/// Implemented for text (`String`, `&'static str`, `Cow<'static, str>`), `()`,
/// [`Json<T>`], raw content ([`ContentBlock`], `Vec<ContentBlock>`, [`CallToolResult`]), and
/// `Result<T, E>` of any of these where `E` converts into [`ToolError`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP tool",
    label = "unsupported tool return type",
    note = "return `String` for text, `Json<T>` (T: Serialize + JsonSchema) for structured output, \
            `Vec<ContentBlock>` or `CallToolResult` for raw content, or a `Result<_, E>` of one \
            of these where `E: Into<ToolError>`: `ToolError` itself (`ToolError::new(code, message)`, \
            `ToolError::internal(error)`), or your own error type with `#[derive(ToolError)]`"
)]
pub trait IntoToolOutput {
    /// The canonical output schema, and whether results are wrapped in `{"result": …}`.
    fn output_schema() -> Option<(Value, bool)> {
        None
    }

    /// Converts the value.
    fn into_tool_output(self) -> Result<ToolOutput, ToolError>;
}

impl IntoToolOutput for String {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Text(self))
    }
}

impl IntoToolOutput for &'static str {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Text(self.to_string()))
    }
}

impl IntoToolOutput for Cow<'static, str> {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Text(self.into_owned()))
    }
}

impl IntoToolOutput for () {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Content(Vec::new()))
    }
}

impl<T: Serialize + JsonSchema> IntoToolOutput for Json<T> {
    fn output_schema() -> Option<(Value, bool)> {
        Some(schema::output_schema::<T>())
    }

    /// A result holding a non-finite float (`NaN`, an infinity) is a masked internal error:
    /// serde_json would send `null` where the output schema says `number`.
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        let json = serde_json::to_value(&self.0)?;
        if let Some(error) = finite::non_finite(&self.0, &json) {
            return Err(ToolError::internal(error));
        }
        Ok(ToolOutput::Structured(json))
    }
}

impl IntoToolOutput for ContentBlock {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Content(vec![self]))
    }
}

impl IntoToolOutput for Vec<ContentBlock> {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Content(self))
    }
}

impl IntoToolOutput for CallToolResult {
    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::Result(self))
    }
}

impl<T, E> IntoToolOutput for Result<T, E>
where
    T: IntoToolOutput,
    E: Into<ToolError>,
{
    fn output_schema() -> Option<(Value, bool)> {
        T::output_schema()
    }

    fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        self.map_err(Into::into)?.into_tool_output()
    }
}
