//! Building a tool's definition: from a Rust type (`ToolInfo::builder`, as `#[mcp_tool]`
//! writes it) or from a JSON Schema at run time (`ToolInfo::from_schema`, refused with a
//! [`SchemaError`]), then its optional parts ([`ToolInfoBuilder`]).

use std::borrow::Cow;
use std::time::Duration;

use rmcp::model::{Icon, JsonObject};
use schemars::JsonSchema;
use serde_json::Value;

use super::info::{Hints, ToolInfo};
use super::name::ToolNameError;
use super::output::IntoToolOutput;
use super::task::{TaskStart, TaskSupport};
use super::ui::UiVisibility;
use crate::input::{self, InputSpec, SchemaProblem};
use crate::schema::{self, SchemaProfile};

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
        let input = schema::input_schema::<A>();
        Self::builder_of(name, description, input, R::output_schema())
    }

    /// [`ToolInfo::builder`]'s work past the two generic schemas, compiled once rather than
    /// once per tool (P6).
    fn builder_of(
        name: &'static str,
        description: &'static str,
        input_schema: Value,
        output: Option<(Value, bool)>,
    ) -> ToolInfoBuilder {
        let (output_schema, output_wrapped) = match output {
            Some((schema, wrapped)) => (Some(schema), wrapped),
            None => (None, false),
        };
        let input = InputSpec::new(Cow::Borrowed(name), input_schema);
        ToolInfoBuilder {
            info: ToolInfo::with_input(Cow::Borrowed(name), Cow::Borrowed(description), input)
                .with_output(output_schema, output_wrapped),
        }
    }

    /// Starts the definition of a tool built at run time, whose input is described by
    /// `input_schema` (JSON Schema 2020-12, as a client would see it) rather than a Rust
    /// type. Pair it with a handler with [`ToolDef::from_info`](crate::ToolDef::from_info);
    /// [`ToolDef::from_schema`](crate::ToolDef::from_schema) does both at once.
    ///
    /// Every call is checked against the schema with the same messages as a `#[mcp_tool]`'s.
    /// Fails when the name is not an MCP tool name ([`ToolNameError`], the error
    /// `#[mcp_tool]` gives at compile time), when the schema does not describe an object, or
    /// when it uses a keyword the runtime cannot check (`not`, `if`, `patternProperties`, a
    /// `$ref` that is not `#/$defs/...`, ...): a rule the server published but did not
    /// enforce would let bad calls through.
    ///
    /// ```
    /// use mcp_tool_runtime::ToolInfo;
    /// let schema = serde_json::json!({"type": "object", "not": {"required": ["a"]}});
    /// let refused = ToolInfo::from_schema("pick", "Pick one.", schema).unwrap_err();
    /// assert_eq!(
    ///     refused.to_string(),
    ///     "the input schema of tool 'pick' uses `not` at `#/not`, which the runtime cannot \
    ///      check; describe the input without it"
    /// );
    /// ```
    pub fn from_schema(
        name: impl Into<Cow<'static, str>>,
        description: impl Into<Cow<'static, str>>,
        input_schema: Value,
    ) -> Result<ToolInfoBuilder, SchemaError> {
        let name = name.into();
        let refused = match ToolNameError::check(&name) {
            Err(error) => Some(Refused::Name(error)),
            Ok(()) => input::check_schema(&input_schema)
                .err()
                .map(Refused::Schema),
        };
        if let Some(refused) = refused {
            return Err(SchemaError {
                tool: name.into_owned(),
                refused,
            });
        }
        let input = InputSpec::exact(name.clone(), input_schema);
        Ok(ToolInfoBuilder {
            info: ToolInfo::with_input(name, description.into(), input),
        })
    }
}

/// Why a run-time tool was refused ([`ToolInfo::from_schema`]): its name is not an MCP
/// tool name, or its input schema is not one the runtime can check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    tool: String,
    refused: Refused,
}

/// What [`SchemaError`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Refused {
    Name(ToolNameError),
    Schema(SchemaProblem),
}

impl SchemaError {
    /// The name of the tool that was refused.
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tool = &self.tool;
        let problem = match &self.refused {
            Refused::Schema(problem) => problem,
            Refused::Name(error) => return error.fmt(f),
        };
        match problem {
            SchemaProblem::NotAnObject => write!(
                f,
                "the input schema of tool '{tool}' does not describe a JSON object: \
                 its root must say \"type\": \"object\""
            ),
            SchemaProblem::Unsupported { keyword, at } => write!(
                f,
                "the input schema of tool '{tool}' uses `{keyword}` at `{at}`, which the \
                 runtime cannot check; describe the input without it"
            ),
            SchemaProblem::BesideUnion { keyword, union, at } => write!(
                f,
                "the input schema of tool '{tool}' has `{keyword}` beside `{union}` at `{at}`, \
                 where the runtime checks only the branches; move it into every branch"
            ),
            SchemaProblem::Unresolved { reference, at } => write!(
                f,
                "the input schema of tool '{tool}' refers to `{reference}` at `{at}`, which \
                 is not one of its own `#/$defs/...`: only local definitions are followed"
            ),
        }
    }
}

/// The source of a refused name is its [`ToolNameError`].
impl std::error::Error for SchemaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.refused {
            Refused::Name(error) => Some(error),
            Refused::Schema(_) => None,
        }
    }
}

/// Sets the optional parts of a [`ToolInfo`].
#[derive(Debug)]
pub struct ToolInfoBuilder {
    info: ToolInfo,
}

impl ToolInfoBuilder {
    /// A human-readable title.
    pub fn title(mut self, title: impl Into<Cow<'static, str>>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// Labels by which [`LiveTools`](crate::registry::LiveTools) enables and disables tools together
    /// (`#[mcp_tool(tags = ["admin"])]` writes them).
    pub fn tags<T: Into<Cow<'static, str>>>(mut self, tags: impl IntoIterator<Item = T>) -> Self {
        self.info.tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// The OAuth scopes a caller's token must grant to call the tool
    /// (`#[mcp_tool(scopes = ["notes:write"])]` writes them); see [`ToolInfo::scopes`].
    ///
    /// ```
    /// use mcp_tool_runtime::ToolInfo;
    /// let schema = serde_json::json!({"type": "object"});
    /// let info = ToolInfo::from_schema("purge", "Delete every note.", schema)?
    ///     .scopes(["notes:admin"])
    ///     .build();
    /// assert_eq!(info.scopes().collect::<Vec<_>>(), ["notes:admin"]);
    /// # Ok::<(), mcp_tool_runtime::tool::SchemaError>(())
    /// ```
    pub fn scopes<T: Into<Cow<'static, str>>>(
        mut self,
        scopes: impl IntoIterator<Item = T>,
    ) -> Self {
        for scope in scopes {
            let scope = scope.into();
            if !self.info.scopes.contains(&scope) {
                self.info.scopes.push(scope);
            }
        }
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

    /// The view the tool's results render in on an MCP Apps host, a `ui://` resource the
    /// server registers with [`ServerBuilder::ui_resource`](crate::ServerBuilder::ui_resource)
    /// (`#[mcp_tool(ui = "ui://...")]` writes it); published as `_meta.ui.resourceUri` to
    /// clients that declared the extension. `build()` refuses a view the server does not
    /// register ([`RegistryError::ViewNotRegistered`](crate::registry::RegistryError)).
    pub fn ui(mut self, resource_uri: impl Into<Cow<'static, str>>) -> Self {
        self.info.ui.view = Some(resource_uri.into());
        self
    }

    /// Who may call the tool (`#[mcp_tool(ui_visibility = ["app"])]` writes it); published
    /// as `_meta.ui.visibility` unless it is the default, model and app.
    pub fn ui_visibility(mut self, visibility: UiVisibility) -> Self {
        self.info.ui.visibility = visibility;
        self
    }

    /// Icons a client may show for the tool (`#[mcp_tool(icons = [...])]` checks them at
    /// compile time).
    ///
    /// ```
    /// use mcp_tool_runtime::ToolInfo;
    /// use mcp_tool_runtime::rmcp::model::Icon;
    /// #[derive(schemars::JsonSchema)]
    /// struct NoArguments {}
    /// let info = ToolInfo::builder::<NoArguments, String>("ping", "Answer pong.")
    ///     .icons([Icon::new("https://example.com/ping.png").with_mime_type("image/png")])
    ///     .build();
    /// let published = info.publish(Default::default());
    /// assert_eq!(published.icons.as_deref(), Some(info.icons()));
    /// ```
    pub fn icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.info.icons.extend(icons);
        self
    }

    /// The arguments are a user's own type, which may not reject unknown keys itself: the
    /// runtime checks them. The canonical schema says so too (`additionalProperties: false`),
    /// so that an unknown key is reported as such, with a suggestion. A type that declares
    /// its own `additionalProperties` (a flattened map) keeps accepting extra keys.
    pub fn whole_input(mut self) -> Self {
        let input = &mut self.info.input;
        input.whole_input = true;
        if let Some(root) = input.schema.as_object_mut()
            && !root.contains_key("additionalProperties")
        {
            root.insert("additionalProperties".into(), Value::Bool(false));
            input.checks_unknown_keys = true;
        }
        self
    }

    /// The argument whose Rust name is `field` is sent as `property`
    /// (`#[serde(rename = "...")]`), so that a `validator` error names what the model sent.
    pub fn renamed_argument(mut self, field: &'static str, property: &'static str) -> Self {
        self.info.input.renames.push((field, property));
        self
    }

    /// Checks the arguments whose rules only `validator` knows (custom functions, nested
    /// types) one by one when another argument fails, so that one answer reports both.
    /// `#[mcp_tool]` writes `check`: it returns each failing argument's errors.
    pub fn check_each(mut self, check: fn(&Value) -> Vec<validator::ValidationErrors>) -> Self {
        self.info.input.check_each = Some(check);
        self
    }

    /// The tool's time limit in milliseconds; overrides the server's default.
    pub fn timeout_ms(mut self, millis: u64) -> Self {
        self.info.timeout = Some(Duration::from_millis(millis));
        self
    }

    /// How long, at most, a 2026-07-28 client may reuse a `tools/list` that holds this tool
    /// (its `ttlMs`): for a tool whose definition changes more often than the server's
    /// [`cache_hints`](crate::ServerBuilder::cache_hints) say. The list's TTL is the least of
    /// the server's and its tools'.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.info.cache_ttl = Some(ttl);
        self
    }

    /// [`ToolInfoBuilder::cache_ttl`] in milliseconds, as `#[mcp_tool(cache_ttl = "1m")]`
    /// writes it.
    pub fn cache_ttl_ms(self, millis: u64) -> Self {
        self.cache_ttl(Duration::from_millis(millis))
    }

    /// Lets the tool run as a task (the tasks extension, SEP-2663): a client that declared
    /// the extension gets the task's id at once and polls `tasks/get` for the result;
    /// [`TaskSupport::Required`] refuses other clients with -32021. The same handler runs
    /// either way. `#[mcp_tool(task = "optional")]` writes it.
    pub fn task_support(mut self, support: TaskSupport) -> Self {
        self.info.task_support = support;
        self
    }

    /// When the call becomes a task: [`TaskStart::Explicit`] waits for the tool's
    /// [`ToolContext::start_task`](crate::ToolContext::start_task).
    /// `#[mcp_tool(task_start = "explicit")]` writes it.
    pub fn task_start(mut self, start: TaskStart) -> Self {
        self.info.task_start = start;
        self
    }

    /// Marks a tool whose handler runs its work on the blocking pool (`#[mcp_tool]` on a sync
    /// function writes it), so that a timeout says the work may still finish.
    pub fn runs_blocking(mut self) -> Self {
        self.info.blocking = true;
        self
    }

    /// Where the tool is defined: its crate (the macro passes `CARGO_PKG_NAME` and
    /// `CARGO_PKG_VERSION`; a server with no `implementation` of its own is named after it)
    /// and the Rust path of its function.
    pub fn defined_in(
        mut self,
        crate_name: &'static str,
        crate_version: &'static str,
        rust_path: &'static str,
    ) -> Self {
        self.info.crate_info = Some((crate_name, crate_version));
        self.info.rust_path = Some(rust_path);
        self
    }

    /// The finished definition.
    pub fn build(self) -> ToolInfo {
        self.info
    }
}
