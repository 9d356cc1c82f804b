//! Tool definitions, built once, and the registry that lists and dispatches them.

use std::any::Any;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::coerce::InputMode;
use crate::context::{CallScope, ToolContext};
use crate::error::{ERROR_META_KEY, ErrorCode, ToolError};
use crate::messages;
use crate::output::{IntoToolOutput, ToolOutput};
use crate::schema::{self, SchemaProfile, SchemaRole, WRAPPED_RESULT_KEY};
use crate::shape::Shape;
use crate::suggest;
use crate::validate;
use crate::violation::Violation;

/// A boxed, sendable future, as tool handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The four behaviour hints of a tool. `None` leaves a hint at its protocol default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// The tool does not modify its environment (default false).
    pub read_only: Option<bool>,
    /// The tool may destroy data (default true).
    pub destructive: Option<bool>,
    /// Repeating a call has no further effect (default false).
    pub idempotent: Option<bool>,
    /// The tool reaches outside systems (default true).
    pub open_world: Option<bool>,
}

/// Everything about a tool that does not change between calls: name, description, hints,
/// schemas. Built once per tool (the macro keeps it in a `static`).
#[derive(Debug)]
pub struct ToolInfo {
    name: &'static str,
    title: Option<&'static str>,
    description: &'static str,
    hints: Hints,
    meta: Option<JsonObject>,
    input_schema: Value,
    output_schema: Option<Value>,
    output_wrapped: bool,
    argument_names: Vec<String>,
    checks_unknown_keys: bool,
    signature: OnceLock<String>,
    /// A per-tool profile that wins over the server's (`#[mcp_tool(schema_profile = ...)]`).
    profile: Option<SchemaProfile>,
    /// The tool's own time limit (`#[mcp_tool(timeout = "5s")]`).
    timeout: Option<Duration>,
}

impl ToolInfo {
    /// Starts a definition for a tool taking arguments of type `A` and returning `R`.
    ///
    /// ```
    /// use mcp_tool_runtime::ToolInfo;
    /// #[derive(schemars::JsonSchema)]
    /// struct Args { city: String }
    /// let info = ToolInfo::builder::<Args, String>("weather", "Current weather.").build();
    /// assert_eq!(info.input_schema()["properties"]["city"]["type"], "string");
    /// ```
    pub fn builder<A: JsonSchema, R: IntoToolOutput>(
        name: &'static str,
        description: &'static str,
    ) -> ToolInfoBuilder {
        let (output_schema, output_wrapped) = match R::output_schema() {
            Some((schema, wrapped)) => (Some(schema), wrapped),
            None => (None, false),
        };
        ToolInfoBuilder {
            info: ToolInfo {
                name,
                title: None,
                description,
                hints: Hints::default(),
                meta: None,
                input_schema: schema::input_schema::<A>(),
                output_schema,
                output_wrapped,
                argument_names: Vec::new(),
                checks_unknown_keys: false,
                signature: OnceLock::new(),
                profile: None,
                timeout: None,
            },
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The tool's description.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// The canonical input schema (as schemars writes it).
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The canonical output schema, if the tool returns structured output.
    pub fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    /// The tool's own time limit (`#[mcp_tool(timeout = "5s")]`), if it has one.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The top-level argument names, in declaration order.
    pub fn argument_names(&self) -> &[String] {
        &self.argument_names
    }

    pub(crate) fn checks_unknown_keys(&self) -> bool {
        self.checks_unknown_keys
    }

    /// The "Valid call" line of error messages, built on the first error.
    fn signature(&self) -> &str {
        self.signature
            .get_or_init(|| validate::signature(&self.input_schema))
    }

    /// The profile this tool's schemas are published under when the server's is
    /// `server_profile`: the tool's own, if it sets one.
    pub fn effective_profile(&self, server_profile: SchemaProfile) -> SchemaProfile {
        self.profile.unwrap_or(server_profile)
    }

    /// The tool as clients see it on a server whose profile is `profile` (a profile set on
    /// the tool itself wins).
    pub fn publish(&self, profile: SchemaProfile) -> Tool {
        let profile = self.effective_profile(profile);
        let input = match profile.publish(&self.input_schema, SchemaRole::Input) {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        };
        let mut tool = Tool::new(self.name, self.description, Arc::new(input));
        tool.title = self.title.map(str::to_string);
        tool.output_schema = self.output_schema.as_ref().and_then(|schema| {
            match profile.publish(schema, SchemaRole::Output) {
                Value::Object(object) => Some(Arc::new(object)),
                _ => None,
            }
        });
        let hints = &self.hints;
        if hints != &Hints::default() || self.title.is_some() {
            let mut annotations = ToolAnnotations::new();
            annotations.title = self.title.map(str::to_string);
            annotations.read_only_hint = hints.read_only;
            annotations.destructive_hint = hints.destructive;
            annotations.idempotent_hint = hints.idempotent;
            annotations.open_world_hint = hints.open_world;
            tool.annotations = Some(annotations);
        }
        tool.meta = self.meta.clone().map(MetaObject);
        tool
    }
}

/// Sets the optional parts of a [`ToolInfo`].
#[derive(Debug)]
pub struct ToolInfoBuilder {
    info: ToolInfo,
}

impl ToolInfoBuilder {
    /// A human-readable title.
    pub fn title(mut self, title: &'static str) -> Self {
        self.info.title = Some(title);
        self
    }

    /// Publishes this tool's schemas under `profile` whatever the server's profile is.
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.info.profile = Some(profile);
        self
    }

    /// The behaviour hints.
    pub fn hints(mut self, hints: Hints) -> Self {
        self.info.hints = hints;
        self
    }

    /// The tool's `_meta`, as a JSON object text. Anything but an object is ignored (the
    /// macro has already checked it at compile time).
    pub fn meta_json(mut self, json: &str) -> Self {
        self.info.meta = serde_json::from_str::<JsonObject>(json).ok();
        self
    }

    /// The arguments are a user's own type, which may not reject unknown keys itself: the
    /// runtime checks them. The canonical schema says so too (`additionalProperties: false`),
    /// so that an unknown key is reported as such, with a suggestion. A type that declares
    /// its own `additionalProperties` (a flattened map) keeps accepting extra keys.
    pub fn whole_input(mut self) -> Self {
        if let Some(root) = self.info.input_schema.as_object_mut()
            && !root.contains_key("additionalProperties")
        {
            root.insert("additionalProperties".into(), Value::Bool(false));
            self.info.checks_unknown_keys = true;
        }
        self
    }

    /// The tool's time limit in milliseconds; overrides the server's default.
    pub fn timeout_ms(mut self, millis: u64) -> Self {
        self.info.timeout = Some(Duration::from_millis(millis));
        self
    }

    /// The finished definition.
    pub fn build(mut self) -> ToolInfo {
        self.info.argument_names = self
            .info
            .input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default();
        self.info
    }
}

/// The arguments and surroundings of one call, handed to a tool's handler.
pub struct ToolCall<'a> {
    arguments: Option<&'a Value>,
    info: &'static ToolInfo,
    scope: Option<&'a CallScope>,
    input_mode: InputMode,
}

impl<'a> ToolCall<'a> {
    /// A call of the tool `info` with `arguments` as the client sent them, with a detached
    /// context.
    pub fn new(info: &'static ToolInfo, arguments: Option<&'a Value>) -> Self {
        Self {
            arguments,
            info,
            scope: None,
            input_mode: InputMode::default(),
        }
    }

    /// The same call parsed under `mode`.
    pub fn with_input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    fn in_scope(mut self, scope: &'a CallScope) -> Self {
        self.scope = Some(scope);
        self
    }

    /// The call's context, for a tool that takes a [`ToolContext`] argument; detached when
    /// the call was built with [`ToolCall::new`] alone.
    pub fn context(&self) -> ToolContext {
        self.scope
            .map_or_else(ToolContext::detached, CallScope::context)
    }

    /// Deserializes and validates the arguments, or reports every violation.
    pub fn parse<A>(&self) -> Result<A, ToolError>
    where
        A: DeserializeOwned + validator::Validate,
    {
        validate::parse_arguments_with(self.arguments, self.info, self.input_mode)
    }

    /// The tool being called.
    pub fn info(&self) -> &'static ToolInfo {
        self.info
    }
}

/// The function that runs one tool for state `S`.
pub type Handler<S> =
    for<'a> fn(&'a S, ToolCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>>;

/// A tool ready to register: its cached definition and its handler.
pub struct ToolDef<S> {
    info: &'static ToolInfo,
    handler: Handler<S>,
}

impl<S> ToolDef<S> {
    /// Pairs a definition with its handler. The macros call this; users rarely do.
    pub fn new(info: &'static ToolInfo, handler: Handler<S>) -> Self {
        Self { info, handler }
    }

    /// The definition.
    pub fn info(&self) -> &'static ToolInfo {
        self.info
    }
}

impl<S> Clone for ToolDef<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for ToolDef<S> {}

impl<S> fmt::Debug for ToolDef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDef")
            .field("name", &self.info.name)
            .finish()
    }
}

/// A state type whose methods are tools, as `#[mcp_tools]` on its `impl` block generates.
pub trait ToolSet: Sized + Send + Sync + 'static {
    /// The tools of this type, in declaration order.
    fn tools() -> Vec<ToolDef<Self>>;
}

/// Why a registry could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools share a name.
    DuplicateTool {
        /// The name used twice.
        name: String,
    },
    /// A tool's input schema does not describe a JSON object.
    InputNotAnObject {
        /// The tool.
        name: String,
    },
    /// A tool's name is not accepted by the clients its schema profile targets: the whole
    /// request (every tool) would be rejected there, so the server refuses to start.
    NameNotAccepted {
        /// The tool.
        name: String,
        /// The profile the tool is published under.
        profile: SchemaProfile,
        /// What that profile's clients accept.
        rule: &'static str,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateTool { name } => write!(
                f,
                "two tools are named '{name}': tool names must be unique within a server \
                 (rename one with #[mcp_tool(name = \"...\")])"
            ),
            Self::InputNotAnObject { name } => write!(
                f,
                "the input of tool '{name}' is not a JSON object: a whole-input argument \
                 must be a struct with named fields"
            ),
            Self::NameNotAccepted {
                name,
                profile,
                rule,
            } => write!(
                f,
                "tool '{name}' is published under the {profile} schema profile, whose clients \
                 reject its name ({rule}); rename it with #[mcp_tool(name = \"...\")]"
            ),
        }
    }
}

impl std::error::Error for RegistryError {}

/// A call to a tool this server does not have: a protocol error, not a tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name that was called.
    pub name: String,
    /// Likely intended names, closest first.
    pub suggestions: Vec<String>,
    /// Every tool the server has.
    pub available: Vec<String>,
}

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suggestions: Vec<&str> = self.suggestions.iter().map(String::as_str).collect();
        let available: Vec<&str> = self.available.iter().map(String::as_str).collect();
        f.write_str(&messages::unknown_tool(
            &self.name,
            &suggestions,
            &available,
        ))
    }
}

impl std::error::Error for UnknownTool {}

/// The tools of one server: definitions published once, calls dispatched by name.
pub struct ToolRegistry<S> {
    tools: Vec<ToolDef<S>>,
    /// Names and their index in `tools`, sorted by name: a binary search costs less than
    /// hashing the name with SipHash, and the set never changes after `new`.
    by_name: Vec<(&'static str, usize)>,
    published: Vec<Tool>,
    input_mode: InputMode,
}

impl<S> fmt::Debug for ToolRegistry<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.tools.iter().map(|t| t.info.name))
            .finish()
    }
}

impl<S: Send + Sync + 'static> ToolRegistry<S> {
    /// A registry of `tools`, publishing schemas under `profile`. Fails on duplicate names.
    pub fn new(tools: Vec<ToolDef<S>>, profile: SchemaProfile) -> Result<Self, RegistryError> {
        let mut by_name: Vec<(&'static str, usize)> = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.info.name, index))
            .collect();
        by_name.sort_unstable();
        let mut seen = HashSet::with_capacity(tools.len());
        for tool in &tools {
            let name = tool.info.name;
            if !seen.insert(name) {
                return Err(RegistryError::DuplicateTool {
                    name: name.to_string(),
                });
            }
            if !schema::is_object_schema(&tool.info.input_schema) {
                return Err(RegistryError::InputNotAnObject {
                    name: name.to_string(),
                });
            }
            let effective = tool.info.effective_profile(profile);
            if let Some(rule) = effective.name_problem(name) {
                return Err(RegistryError::NameNotAccepted {
                    name: name.to_string(),
                    profile: effective,
                    rule,
                });
            }
        }
        let published = tools
            .iter()
            .map(|tool| tool.info.publish(profile))
            .collect();
        Ok(Self {
            tools,
            by_name,
            published,
            input_mode: InputMode::default(),
        })
    }

    /// The same registry parsing arguments under `mode`.
    pub fn with_input_mode(mut self, mode: InputMode) -> Self {
        self.input_mode = mode;
        self
    }

    /// The published tool list, as `tools/list` returns it.
    pub fn list(&self) -> &[Tool] {
        &self.published
    }

    /// The published definition of one tool.
    pub fn published(&self, name: &str) -> Option<&Tool> {
        self.index_of(name).map(|index| &self.published[index])
    }

    /// The definition and handler of one tool.
    pub fn get(&self, name: &str) -> Option<&ToolDef<S>> {
        self.index_of(name).map(|index| &self.tools[index])
    }

    fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|(known, _)| (*known).cmp(name))
            .ok()
            .map(|at| self.by_name[at].1)
    }

    /// Calls `name` with `arguments`. Every failure of the tool itself (bad arguments, an
    /// error, a panic) is an `isError` result; only an unknown name is an `Err`.
    pub async fn call(
        &self,
        state: &S,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<CallToolResult, UnknownTool> {
        let Some(tool) = self.get(name) else {
            return Err(self.unknown(name));
        };
        Ok(self
            .run(state, tool, arguments, &CallScope::detached(), None)
            .await)
    }

    /// Runs `tool`, stopping it when its time limit passes: the tool's own
    /// (`#[mcp_tool(timeout = ...)]`), else `default_timeout`. A call that runs over is
    /// dropped at the limit, its context is cancelled (for work it spawned), and the result
    /// is a retryable `timeout` error.
    pub(crate) async fn run(
        &self,
        state: &S,
        tool: &ToolDef<S>,
        arguments: Option<Value>,
        scope: &CallScope,
        default_timeout: Option<Duration>,
    ) -> CallToolResult {
        let info = tool.info;
        let call = ToolCall::new(info, arguments.as_ref())
            .in_scope(scope)
            .with_input_mode(self.input_mode);
        let running = CatchUnwind((tool.handler)(state, call));
        let outcome = match info.timeout.or(default_timeout) {
            None => running.await,
            Some(limit) => match tokio::time::timeout(limit, running).await {
                Ok(outcome) => outcome,
                Err(_elapsed) => {
                    scope.cancel_tool();
                    let error = ToolError::timeout(messages::timed_out(info.name, limit));
                    return error_result(info, error);
                }
            },
        };
        match outcome {
            Ok(Ok(output)) => success_result(info, output),
            Ok(Err(error)) => error_result(info, error),
            Err(payload) => error_result(info, ToolError::internal(Panicked::from(payload))),
        }
    }

    pub(crate) fn unknown(&self, name: &str) -> UnknownTool {
        let available: Vec<String> = self.tools.iter().map(|t| t.info.name.to_string()).collect();
        let suggestions = suggest::ranked(name, available.iter().map(String::as_str))
            .into_iter()
            .take(3)
            .map(str::to_string)
            .collect();
        UnknownTool {
            name: name.to_string(),
            suggestions,
            available,
        }
    }
}

/// A successful result from a tool's output.
pub fn success_result(info: &ToolInfo, output: ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Text(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        ToolOutput::Content(blocks) if blocks.is_empty() => {
            CallToolResult::success(vec![ContentBlock::text(messages::completed(info.name))])
        }
        ToolOutput::Content(blocks) => CallToolResult::success(blocks),
        ToolOutput::Result(result) => result,
        ToolOutput::Structured(value) => {
            let value = if info.output_wrapped {
                let mut wrapper = Map::new();
                wrapper.insert(WRAPPED_RESULT_KEY.into(), value);
                Value::Object(wrapper)
            } else {
                value
            };
            // Straight into a byte buffer: `Value`'s `Display` goes through the formatter
            // machinery and costs twice as much for the same compact text.
            let text = serde_json::to_string(&value).unwrap_or_else(|_| value.to_string());
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            result
        }
    }
}

/// A fresh id that ties what the model saw to the server's log: 32 hex digits, a random
/// per-process half and a counter through a bijective mix, so ids never repeat within a
/// process and are unlikely to across processes. No system call per error, unlike a v4 UUID.
fn correlation_id() -> String {
    static PROCESS: LazyLock<u64> = LazyLock::new(|| {
        let random = uuid::Uuid::new_v4().as_u64_pair();
        random.0 ^ random.1.rotate_left(32)
    });
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mixed = splitmix64(count ^ PROCESS.rotate_left(17));
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut digits = [0u8; 32];
    let halves = (u128::from(*PROCESS) << 64) | u128::from(mixed);
    for (position, digit) in digits.iter_mut().enumerate() {
        *digit = HEX[((halves >> (124 - 4 * position)) & 0xf) as usize];
    }
    // Every byte is an ASCII hex digit, so the text is always valid.
    std::str::from_utf8(&digits).unwrap_or_default().to_owned()
}

/// A bijection on `u64` that scatters consecutive inputs (SplitMix64's finalizer).
fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The `isError` result of a failed call, with its envelope; logs the failure.
pub fn error_result(info: &ToolInfo, error: ToolError) -> CallToolResult {
    let correlation_id = correlation_id();
    let tool = info.name;
    let code = error.code().as_str();
    match error.internal_detail() {
        Some(detail) => tracing::error!(
            tool, code, correlation_id = %correlation_id, error = %detail,
            detail = ?detail, "tool call failed; the cause is masked for the client"
        ),
        None if error.code() == &ErrorCode::INVALID_ARGUMENTS => tracing::info!(
            tool, code, correlation_id = %correlation_id, violations = error.violations().len(),
            "tool call rejected: invalid arguments"
        ),
        None => tracing::warn!(
            tool, code, correlation_id = %correlation_id, message = error.message(),
            "tool call failed"
        ),
    }
    let envelope = error.into_envelope(tool, correlation_id);
    // Each violation's message is written once: into the text, then moved into the envelope.
    let written: Vec<String> = envelope.violations.iter().map(Violation::message).collect();
    let text = if envelope.violations.is_empty() {
        messages::error_text(
            &envelope.error,
            envelope.hint.as_deref(),
            envelope.retryable,
            envelope.retry_after,
        )
    } else {
        messages::invalid_arguments_text(&envelope.error, &written, tool, info.signature())
    };
    let envelope = envelope.into_json(written);
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    // A TypeScript SDK 1.x client validates structuredContent against the outputSchema even
    // on errors, so a tool with an output schema carries the envelope in `_meta` only.
    if info.output_schema.is_none() {
        result.structured_content = Some(envelope.clone());
    }
    static META: LazyLock<Shape> = LazyLock::new(|| Shape::new(&[ERROR_META_KEY], &[]));
    result.meta = Some(MetaObject(META.map([Some(envelope)])));
    result
}

/// A panic, turned into an error for the log.
#[derive(Debug)]
struct Panicked(String);

impl From<Box<dyn Any + Send>> for Panicked {
    fn from(payload: Box<dyn Any + Send>) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-text payload".to_string());
        Self(message)
    }
}

impl fmt::Display for Panicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the tool panicked: {}", self.0)
    }
}

impl std::error::Error for Panicked {}

/// Runs a future and turns a panic during any poll into an `Err`, so one call's panic
/// becomes that call's error result instead of taking the session down.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::correlation_id;

    #[test]
    fn correlation_ids_are_32_hex_digits_and_never_repeat() {
        let ids: HashSet<String> = (0..10_000).map(|_| correlation_id()).collect();
        assert_eq!(ids.len(), 10_000);
        assert!(
            ids.iter()
                .all(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        );
    }
}
