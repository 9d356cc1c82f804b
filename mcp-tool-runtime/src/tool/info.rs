//! A tool's definition: everything about it that does not change between calls.
//! `info_builder` builds it.

use std::borrow::Cow;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model::{Icon, JsonObject, MetaObject, Tool, ToolAnnotations};
use serde_json::Value;

use super::task::{TaskStart, TaskSupport};
use super::ui::{ToolUi, UiVisibility};
use crate::input::InputSpec;
use crate::render;
use crate::schema::{self, SchemaProfile, SchemaRole};

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
    // `Cow`: a `#[mcp_tool]`'s definition lives in a static and borrows its literals; a tool
    // built at run time (`ToolDef::from_schema`) owns its text and is freed with it.
    name: Cow<'static, str>,
    pub(super) title: Option<Cow<'static, str>>,
    description: Cow<'static, str>,
    /// Labels that enable or disable tools together (`#[mcp_tool(tags = ["admin"])]`).
    pub(super) tags: Vec<Cow<'static, str>>,
    /// The OAuth scopes a caller's token must grant to call it
    /// (`#[mcp_tool(scopes = ["notes:write"])]`).
    pub(super) scopes: Vec<Cow<'static, str>>,
    pub(super) hints: Hints,
    pub(super) meta: Option<JsonObject>,
    /// The view it renders in and who may call it (MCP Apps), published in `_meta.ui`.
    pub(super) ui: ToolUi,
    /// Published as the tool's `icons` (`#[mcp_tool(icons = [...])]`).
    pub(super) icons: Vec<Icon>,
    pub(super) input: InputSpec,
    output_schema: Option<Value>,
    output_wrapped: bool,
    /// The "Valid call" line of error messages, written on the first error.
    valid_call: OnceLock<String>,
    /// A per-tool profile that wins over the server's (`#[mcp_tool(schema_profile = ...)]`).
    pub(super) profile: Option<SchemaProfile>,
    /// The tool's own time limit (`#[mcp_tool(timeout = "5s")]`).
    pub(super) timeout: Option<Duration>,
    /// How long a client may reuse a `tools/list` that holds this tool, at most
    /// (`#[mcp_tool(cache_ttl = "1m")]`).
    pub(super) cache_ttl: Option<Duration>,
    /// Whether the tool may run as a task (`#[mcp_tool(task = "optional")]`).
    pub(super) task_support: TaskSupport,
    /// When a task-supporting call becomes a task.
    pub(super) task_start: TaskStart,
    /// Whether the tool runs on the blocking pool (a sync function), where a time limit
    /// abandons its answer but cannot stop its thread.
    pub(super) blocking: bool,
    /// The name and version of the crate that defines the tool.
    pub(super) crate_info: Option<(&'static str, &'static str)>,
    /// The Rust path of the function the tool runs, such as `shop::add_item`.
    pub(super) rust_path: Option<&'static str>,
}

impl ToolInfo {
    /// A definition with `input` and nothing optional set, where a builder starts.
    pub(super) fn with_input(
        name: Cow<'static, str>,
        description: Cow<'static, str>,
        input: InputSpec,
    ) -> Self {
        ToolInfo {
            name,
            title: None,
            description,
            tags: Vec::new(),
            scopes: Vec::new(),
            hints: Hints::default(),
            meta: None,
            ui: ToolUi::default(),
            icons: Vec::new(),
            input,
            output_schema: None,
            output_wrapped: false,
            valid_call: OnceLock::new(),
            profile: None,
            timeout: None,
            cache_ttl: None,
            task_support: TaskSupport::Forbidden,
            task_start: TaskStart::Call,
            blocking: false,
            crate_info: None,
            rust_path: None,
        }
    }

    /// The same definition with the output schema of a result type (`IntoToolOutput`).
    pub(crate) fn with_output(mut self, schema: Option<Value>, wrapped: bool) -> Self {
        self.output_schema = schema;
        self.output_wrapped = wrapped;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's name, shared without a copy when it is a literal.
    // In line in each call (`Arguments::checked` says why).
    #[inline]
    pub(crate) fn name_cow(&self) -> Cow<'static, str> {
        self.name.clone()
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The tool's tags (`#[mcp_tool(tags = ["admin"])]`), by which
    /// [`LiveTools`](crate::registry::LiveTools) enables and disables tools together.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = &str> {
        self.tags.iter().map(|tag| &**tag)
    }

    /// Whether the tool has the tag `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|own| own == tag)
    }

    /// The OAuth scopes a caller's token must grant to call the tool
    /// (`#[mcp_tool(scopes = ["notes:write"])]`). Over HTTP with a token verifier, a call
    /// whose [`Principal`](crate::Principal) lacks one is answered 403 with a scope
    /// challenge; the server's protected-resource metadata lists them all.
    pub fn scopes(&self) -> impl ExactSizeIterator<Item = &str> {
        self.scopes.iter().map(|scope| &**scope)
    }

    /// The tool's scopes that `granted` lacks (checked where a request's token is: HTTP).
    #[cfg(feature = "http")]
    pub(crate) fn missing_scopes<'s>(&'s self, granted: &[String]) -> Vec<&'s str> {
        self.scopes()
            .filter(|scope| !granted.iter().any(|own| own == scope))
            .collect()
    }

    /// The tool's icons, as `tools/list` publishes them.
    pub fn icons(&self) -> &[Icon] {
        &self.icons
    }

    /// The canonical input schema (as schemars writes it).
    pub fn input_schema(&self) -> &Value {
        &self.input.schema
    }

    /// The canonical output schema, if the tool returns structured output.
    pub fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    /// The tool's own time limit (`#[mcp_tool(timeout = "5s")]`), if it has one.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// How long a client may reuse a `tools/list` that holds this tool, at most
    /// (`#[mcp_tool(cache_ttl = "1m")]`), if the tool limits it.
    pub fn cache_ttl(&self) -> Option<Duration> {
        self.cache_ttl
    }

    /// Whether the tool may run as a task (the tasks extension of 2026-07-28).
    pub fn task_support(&self) -> TaskSupport {
        self.task_support
    }

    /// When a task-supporting call becomes a task: as it starts, or when the tool says.
    pub fn task_start(&self) -> TaskStart {
        self.task_start
    }

    /// Whether the tool runs on the blocking pool, as a sync function does: at its time limit
    /// the call answers `timeout`, but its thread runs on to the end.
    pub fn runs_blocking(&self) -> bool {
        self.blocking
    }

    /// The name and version of the crate that defines the tool, when the macro built it.
    pub fn crate_info(&self) -> Option<(&'static str, &'static str)> {
        self.crate_info
    }

    /// The Rust path of the function the tool runs (`shop::add_item`), when the macro built
    /// it: where a tool comes from, for errors about the server's set of tools.
    pub fn rust_path(&self) -> Option<&'static str> {
        self.rust_path
    }

    /// The top-level argument names, in declaration order.
    pub fn argument_names(&self) -> &[String] {
        &self.input.argument_names
    }

    /// What validation needs to know about the input.
    pub(crate) fn input(&self) -> &InputSpec {
        &self.input
    }

    /// Whether structured results go under `{"result": …}`.
    pub(crate) fn output_wrapped(&self) -> bool {
        self.output_wrapped
    }

    /// The "Valid call" line of error messages, written on the first error.
    pub(crate) fn valid_call(&self) -> &str {
        self.valid_call
            .get_or_init(|| render::valid_call(&schema::signature(&self.input.schema)))
    }

    /// The `ui://` resource this tool's results render in (MCP Apps), if it names one.
    pub fn ui(&self) -> Option<&str> {
        self.ui.view.as_deref()
    }

    /// Who may call the tool: the model, the views of an MCP Apps host, or both (default).
    pub fn ui_visibility(&self) -> UiVisibility {
        self.ui.visibility
    }

    /// Whether the tool names a view or restricts who may call it.
    pub(crate) fn uses_apps(&self) -> bool {
        self.ui.is_set()
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
        let input = match profile.publish(&self.input.schema, SchemaRole::Input) {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        };
        let mut tool = Tool::new(self.name.clone(), self.description.clone(), Arc::new(input));
        tool.title = self.title.as_deref().map(str::to_string);
        tool.output_schema = self.output_schema.as_ref().and_then(|schema| {
            match profile.publish(schema, SchemaRole::Output) {
                Value::Object(object) => Some(Arc::new(object)),
                _ => None,
            }
        });
        tool.annotations = self.annotations();
        tool.meta = self.ui.merge_into(self.meta.clone()).map(MetaObject);
        tool.icons = (!self.icons.is_empty()).then(|| self.icons.clone());
        tool
    }

    /// The hints and title as annotations, when any is set.
    fn annotations(&self) -> Option<ToolAnnotations> {
        let hints = &self.hints;
        if hints == &Hints::default() && self.title.is_none() {
            return None;
        }
        let mut annotations = ToolAnnotations::new();
        annotations.title = self.title.as_deref().map(str::to_string);
        annotations.read_only_hint = hints.read_only;
        annotations.destructive_hint = hints.destructive;
        annotations.idempotent_hint = hints.idempotent;
        annotations.open_world_hint = hints.open_world;
        Some(annotations)
    }
}

/// Where a tool's definition lives: in a static, as `#[mcp_tool]` keeps it (copying the
/// reference costs nothing), or shared, for a tool built at run time, which is freed with
/// the last server snapshot and call that hold it.
#[derive(Clone)]
pub(crate) enum InfoRef {
    Static(&'static ToolInfo),
    Shared(Arc<ToolInfo>),
}

impl Deref for InfoRef {
    type Target = ToolInfo;

    fn deref(&self) -> &ToolInfo {
        match self {
            Self::Static(info) => info,
            Self::Shared(info) => info,
        }
    }
}
