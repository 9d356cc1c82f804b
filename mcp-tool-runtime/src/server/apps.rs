//! MCP Apps (SEP-1865) on the server: the `ui://` resources it serves beside the handler's,
//! whether a client declared the extension, and what a client that did not sees of the tools.
//! A leaf of `server`, read by the builder and by the handler.

use std::borrow::Cow;
use std::path::Path;

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, JsonObject, MetaObject, ReadResourceResult, Resource, ResourceContents,
    Tool,
};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use crate::dispatch::RegistryError;
use crate::tool::ui::{EXTENSION_ID, MIME_TYPE, SCHEME, strip_ui};
use crate::tool::{ToolDef, ToolInfo, UiVisibility};

/// A browser capability a view asks the host for (`_meta.ui.permissions`); hosts may grant
/// it through the iframe's `allow` attribute, and views should not count on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Permission {
    /// `camera`.
    Camera,
    /// `microphone`.
    Microphone,
    /// `geolocation`.
    Geolocation,
    /// `clipboardWrite`.
    ClipboardWrite,
}

impl Permission {
    fn key(self) -> &'static str {
        match self {
            Self::Camera => "camera",
            Self::Microphone => "microphone",
            Self::Geolocation => "geolocation",
            Self::ClipboardWrite => "clipboardWrite",
        }
    }
}

/// A view: one HTML document served as a `ui://` resource of MIME type
/// `text/html;profile=mcp-app`, which hosts render in a sandboxed iframe beside the results
/// of the tools that name it. Register it with
/// [`ServerBuilder::ui_resource`](crate::ServerBuilder::ui_resource).
///
/// Its `_meta.ui` says what the host's Content Security Policy must allow (nothing outside
/// by default), which browser permissions it asks for, a dedicated origin and whether the
/// host draws a border.
///
/// ```
/// use mcp_tool_runtime::apps::{Permission, UiResource};
///
/// let view = UiResource::html("ui://weather/dashboard", "<!DOCTYPE html><p>Sunny</p>")
///     .name("Weather dashboard")
///     .connect_domains(["https://api.example.com"])
///     .permission(Permission::ClipboardWrite)
///     .prefers_border(true);
/// assert_eq!(view.uri(), "ui://weather/dashboard");
/// ```
#[derive(Clone, Debug)]
pub struct UiResource {
    uri: String,
    name: Option<String>,
    description: Option<String>,
    html: Cow<'static, str>,
    /// `_meta.ui.csp`: each directive's key and origins.
    csp: JsonObject,
    permissions: Vec<Permission>,
    domain: Option<String>,
    prefers_border: Option<bool>,
}

impl UiResource {
    /// A view at `uri` (which must start with `ui://`: `build()` checks it) whose document is
    /// `html`, such as a `&'static str` from `include_str!`.
    pub fn html(uri: impl Into<String>, html: impl Into<Cow<'static, str>>) -> Self {
        Self {
            uri: uri.into(),
            name: None,
            description: None,
            html: html.into(),
            csp: JsonObject::new(),
            permissions: Vec::new(),
            domain: None,
            prefers_border: None,
        }
    }

    /// A view whose document is read from the file at `path` now.
    pub fn from_file(uri: impl Into<String>, path: impl AsRef<Path>) -> std::io::Result<Self> {
        let html = std::fs::read_to_string(path)?;
        Ok(Self::html(uri, html))
    }

    /// Its name in `resources/list` (default: its URI).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// What the view shows, for `resources/list`.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Origins the view may reach with fetch, XHR or WebSocket (CSP `connect-src`).
    pub fn connect_domains<T: Into<String>>(self, domains: impl IntoIterator<Item = T>) -> Self {
        self.csp("connectDomains", domains)
    }

    /// Origins the view may load scripts, images, styles, fonts and media from.
    pub fn resource_domains<T: Into<String>>(self, domains: impl IntoIterator<Item = T>) -> Self {
        self.csp("resourceDomains", domains)
    }

    /// Origins the view may embed in nested iframes (CSP `frame-src`).
    pub fn frame_domains<T: Into<String>>(self, domains: impl IntoIterator<Item = T>) -> Self {
        self.csp("frameDomains", domains)
    }

    /// Base URIs the document may declare (CSP `base-uri`).
    pub fn base_uri_domains<T: Into<String>>(self, domains: impl IntoIterator<Item = T>) -> Self {
        self.csp("baseUriDomains", domains)
    }

    /// Asks the host for a browser permission.
    pub fn permission(mut self, permission: Permission) -> Self {
        if !self.permissions.contains(&permission) {
            self.permissions.push(permission);
        }
        self
    }

    /// A dedicated origin for the view's sandbox, in the format the host documents.
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.domain = Some(domain.into());
        self
    }

    /// Whether the host should draw a border and background around the view (hosts'
    /// defaults differ, so saying it is recommended).
    pub fn prefers_border(mut self, border: bool) -> Self {
        self.prefers_border = Some(border);
        self
    }

    /// Its `ui://` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    fn csp<T: Into<String>>(mut self, key: &str, domains: impl IntoIterator<Item = T>) -> Self {
        let list = domains
            .into_iter()
            .map(|domain| Value::String(domain.into()))
            .collect();
        self.csp.insert(key.into(), Value::Array(list));
        self
    }

    /// `{"ui": {...}}`, or nothing when the view says nothing.
    fn meta(&self) -> Option<MetaObject> {
        let mut ui = JsonObject::new();
        if !self.csp.is_empty() {
            ui.insert("csp".into(), Value::Object(self.csp.clone()));
        }
        if !self.permissions.is_empty() {
            let granted = self.permissions.iter().map(|p| (p.key().into(), json!({})));
            ui.insert("permissions".into(), Value::Object(granted.collect()));
        }
        if let Some(domain) = &self.domain {
            ui.insert("domain".into(), Value::String(domain.clone()));
        }
        if let Some(border) = self.prefers_border {
            ui.insert("prefersBorder".into(), Value::Bool(border));
        }
        if ui.is_empty() {
            return None;
        }
        let mut meta = JsonObject::new();
        meta.insert("ui".into(), Value::Object(ui));
        Some(MetaObject(meta))
    }

    /// Its entry in `resources/list`.
    fn listed(&self) -> Resource {
        let mut resource = Resource::new(&self.uri, self.name.as_deref().unwrap_or(&self.uri));
        resource.description = self.description.clone();
        resource.mime_type = Some(MIME_TYPE.into());
        resource.meta = self.meta();
        resource
    }

    /// Its `resources/read` answer.
    fn read(&self) -> ReadResourceResult {
        ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
            uri: self.uri.clone(),
            mime_type: Some(MIME_TYPE.into()),
            text: self.html.to_string(),
            meta: self.meta(),
        }])
    }
}

/// The views of a server whose tools or resources use MCP Apps.
#[derive(Debug)]
pub(super) struct Apps {
    views: Vec<UiResource>,
}

impl Apps {
    /// The views, checked against each other and against the tools that name them; `None`
    /// for a server that does not use the extension at all.
    pub(super) fn new<S>(
        views: Vec<UiResource>,
        tools: &[ToolDef<S>],
    ) -> Result<Option<Self>, RegistryError> {
        for (index, view) in views.iter().enumerate() {
            let duplicate = views[..index].iter().any(|other| other.uri == view.uri);
            if duplicate || !view.uri.starts_with(SCHEME) {
                return Err(RegistryError::InvalidUiResource {
                    uri: view.uri.clone(),
                    duplicate,
                });
            }
        }
        for tool in tools {
            let info = tool.info();
            if let Some(uri) = info.ui()
                && !views.iter().any(|view| view.uri == uri)
            {
                return Err(RegistryError::ViewNotRegistered {
                    tool: info.name().to_string(),
                    uri: uri.to_string(),
                });
            }
        }
        let used = !views.is_empty() || tools.iter().any(|tool| tool.info().uses_apps());
        Ok(used.then_some(Self { views }))
    }

    /// Whether the server has views to serve (and so the resources capability).
    pub(super) fn has_views(&self) -> bool {
        !self.views.is_empty()
    }

    /// The views' `resources/list` entries.
    pub(super) fn listed(&self) -> impl Iterator<Item = Resource> + '_ {
        self.views.iter().map(UiResource::listed)
    }

    /// The `resources/read` answer for `uri`, if it is one of the views.
    pub(super) fn read(&self, uri: &str) -> Option<ReadResourceResult> {
        self.views
            .iter()
            .find(|view| view.uri == uri)
            .map(UiResource::read)
    }
}

/// What the server advertises under `capabilities.extensions`.
pub(super) fn advertised() -> (String, JsonObject) {
    let mut settings = JsonObject::new();
    settings.insert("mimeTypes".into(), json!([MIME_TYPE]));
    (EXTENSION_ID.to_string(), settings)
}

/// Whether the client of this request declared the extension with the view MIME type: in
/// the request's `_meta` on 2026-07-28, at `initialize` before.
pub(super) fn client_declares(context: &RequestContext<RoleServer>) -> bool {
    let declared = |capabilities: &ClientCapabilities| {
        capabilities
            .extensions
            .as_ref()
            .and_then(|extensions| extensions.get(EXTENSION_ID))
            .and_then(|settings| settings.get("mimeTypes"))
            .and_then(Value::as_array)
            .is_some_and(|types| types.iter().any(|mime| mime == MIME_TYPE))
    };
    if let Some(capabilities) = context.meta.client_capabilities() {
        return declared(&capabilities);
    }
    context
        .peer
        .peer_info()
        .is_some_and(|info| declared(&info.capabilities))
}

/// Whether only the views of an MCP Apps host may call the tool.
pub(super) fn for_views_only(info: &ToolInfo) -> bool {
    info.ui_visibility() == UiVisibility::App
}

/// A listed tool as a client sees it: without its `_meta.ui` when the client did not
/// declare MCP Apps.
pub(super) fn published_for(published: &Tool, without_apps: bool) -> Tool {
    let mut tool = published.clone();
    if without_apps {
        strip_ui(&mut tool.meta);
    }
    tool
}

/// Whether a server with `apps` uses MCP Apps and the request's client did not declare
/// them: it then sees no view and no tool meant for views only, as the specification asks of
/// a server that checks its client's capabilities.
pub(super) fn without_apps(apps: Option<&Apps>, context: &RequestContext<RoleServer>) -> bool {
    apps.is_some() && !client_declares(context)
}
