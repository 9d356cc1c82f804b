//! A tool's side of the MCP Apps extension (SEP-1865): the view it names and who may call it,
//! published as the tool's `_meta.ui`.

use std::borrow::Cow;

use rmcp::model::JsonObject;
use serde_json::{Value, json};

/// The extension's identifier, the key of `capabilities.extensions` on both sides.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of a view (`text/html;profile=mcp-app`), the only one the 2026-01-26
/// specification defines.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The scheme every view's URI starts with.
pub(crate) const SCHEME: &str = "ui://";

/// Who may call a tool: published as `_meta.ui.visibility`, a subset of `["model", "app"]`.
///
/// Hosts keep an [`App`](Self::App) tool from the model and let only the views of the same
/// server call it; on this server it is listed and callable only for clients that declared
/// the extension, since a client that did not would show it to the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum UiVisibility {
    /// The model and the views (`["model", "app"]`), the specification's default, left out
    /// of `_meta`.
    #[default]
    ModelAndApp,
    /// The views only (`["app"]`): a button's action, hidden from the model.
    App,
    /// The model only (`["model"]`): no view may call it.
    Model,
}

impl UiVisibility {
    /// The published list, or `None` for the default.
    fn published(self) -> Option<Value> {
        match self {
            Self::ModelAndApp => None,
            Self::App => Some(json!(["app"])),
            Self::Model => Some(json!(["model"])),
        }
    }
}

/// What a tool says about views: the one it renders in, and who may call it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ToolUi {
    pub(crate) view: Option<Cow<'static, str>>,
    pub(crate) visibility: UiVisibility,
}

impl ToolUi {
    /// Whether the tool says anything about views.
    pub(crate) fn is_set(&self) -> bool {
        self.view.is_some() || self.visibility != UiVisibility::ModelAndApp
    }

    /// `meta` with `ui` set to what the tool says (kept beside any other `ui` key the
    /// user's own `_meta` has), or `meta` unchanged when it says nothing.
    pub(crate) fn merge_into(&self, meta: Option<JsonObject>) -> Option<JsonObject> {
        if !self.is_set() {
            return meta;
        }
        let mut meta = meta.unwrap_or_default();
        let ui = meta
            .entry("ui")
            .or_insert_with(|| Value::Object(JsonObject::new()));
        if !ui.is_object() {
            *ui = Value::Object(JsonObject::new());
        }
        if let Value::Object(ui) = ui {
            if let Some(view) = &self.view {
                ui.insert("resourceUri".into(), Value::String(view.to_string()));
            }
            if let Some(visibility) = self.visibility.published() {
                ui.insert("visibility".into(), visibility);
            }
        }
        Some(meta)
    }
}

/// `meta` without its `ui` key, and `None` once nothing is left: what a client that did not
/// declare the extension is shown.
pub(crate) fn strip_ui(meta: &mut Option<rmcp::model::MetaObject>) {
    if let Some(object) = meta {
        object.0.remove("ui");
        if object.0.is_empty() {
            *meta = None;
        }
    }
}
