//! A tool's outcome as the protocol result the client receives.

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::{Map, Value};

use super::error::error_text;
use super::tool::completed;
use crate::error::{META_KEY, ToolError};

/// The property that carries a structured result whose own schema is not an object.
pub(crate) const WRAPPED_RESULT_KEY: &str = "result";

/// A tool's return value, converted but not yet a protocol result.
#[derive(Debug)]
#[non_exhaustive]
pub enum ToolOutput {
    /// One text block.
    Text(String),
    /// Structured JSON, matching the tool's output schema.
    Structured(Value),
    /// Content blocks as they are (images, audio, several blocks).
    Content(Vec<ContentBlock>),
    /// A complete result built by the tool author.
    Result(CallToolResult),
}

/// The successful result of `tool`; `wrapped` when its structured output goes under
/// [`WRAPPED_RESULT_KEY`] because the output type's schema is not an object.
pub(crate) fn success_result(tool: &str, wrapped: bool, output: ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Text(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        ToolOutput::Content(blocks) if blocks.is_empty() => {
            CallToolResult::success(vec![ContentBlock::text(completed(tool))])
        }
        ToolOutput::Content(blocks) => CallToolResult::success(blocks),
        ToolOutput::Result(result) => result,
        ToolOutput::Structured(value) => {
            let value = if wrapped {
                Value::Object(Map::from_iter([(WRAPPED_RESULT_KEY.to_string(), value)]))
            } else {
                value
            };
            // `to_string` writes straight into a byte buffer; `Value`'s `Display` goes through
            // the formatter and costs about twice as much for the same compact text, on
            // every structured call.
            let text = serde_json::to_string(&value).unwrap_or_else(|_| value.to_string());
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            result
        }
    }
}

/// The `isError` result of `error` from `tool`, logged under `correlation_id`: the text the
/// model reads (with `valid_call`, the tool's "Valid call" line, for argument problems) and
/// the envelope in `_meta`.
///
/// No `structuredContent`: pydantic-ai shows the model a result's `structuredContent` rather
/// than its text, and a TypeScript SDK 1.x client validates it against the output schema
/// even on errors.
pub(crate) fn error_result(
    tool: &str,
    valid_call: &str,
    error: &ToolError,
    correlation_id: &str,
) -> CallToolResult {
    let envelope = error.envelope(tool, correlation_id);
    let text = error_text(error, &envelope, tool, valid_call);
    let mut wire = serde_json::to_value(&envelope).unwrap_or_default();
    if !envelope.violations.is_empty()
        && let Value::Object(wire) = &mut wire
    {
        // The text's headline; its lines are the violations' messages.
        wire.shift_remove("error");
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.meta = Some(MetaObject(Map::from_iter([(META_KEY.to_string(), wire)])));
    result
}
