//! The visibility rule of a server, and what it is asked about: a leaf of `server`, read by
//! the builder and by the handler.

use std::sync::Arc;

use crate::tool::{Principal, ToolInfo};

/// Which tools a caller may see and call ([`ServerBuilder::visibility`](crate::ServerBuilder::visibility)).
pub(super) type Visibility = Arc<dyn Fn(ToolSighting<'_>) -> bool + Send + Sync>;

/// What a visibility rule ([`ServerBuilder::visibility`](crate::ServerBuilder::visibility)) is asked about: one tool, seen by
/// one caller.
#[derive(Clone, Copy, Debug)]
pub struct ToolSighting<'a> {
    pub(super) principal: Option<&'a Principal>,
    pub(super) tool: &'a ToolInfo,
}

impl<'a> ToolSighting<'a> {
    /// Who is looking: the principal the HTTP token verifier established, or `None`.
    pub fn principal(&self) -> Option<&'a Principal> {
        self.principal
    }

    /// The tool, with its name, tags and annotations.
    pub fn tool(&self) -> &'a ToolInfo {
        self.tool
    }
}
