//! The rmcp `ServerHandler`: `tools/list`, `tools/call` and `logging/setLevel`.

#![allow(deprecated)] // rmcp marks MCP logging deprecated (SEP-2577); 2025-11-25 has it.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, DiscoverResult, ErrorCode, ErrorData,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, SetLevelRequestParams, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};

use super::McpServer;
use super::methods::{
    OVERSIZED_META_KEY, RAW_ARGUMENTS_META_KEY, SUPPORTED_METHODS, SUPPORTED_PROTOCOL_VERSIONS,
    method_not_found,
};
use crate::dispatch::{ToolRegistry, UnknownTool};
use crate::input::Oversized;
use crate::render::CANCELLED_BY_CLIENT;
use crate::tool::{CallScope, principal_of};

impl From<UnknownTool> for ErrorData {
    fn from(unknown: UnknownTool) -> Self {
        let data = json!({
            "tool": unknown.name,
            "suggestions": unknown.suggestions,
            "available": unknown.available,
        });
        ErrorData::invalid_params(unknown.to_string(), Some(data))
    }
}

impl<S: Send + Sync + 'static> ServerHandler for McpServer<S> {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_logging()
            .build();
        let mut info =
            ServerConfig::new(capabilities).with_server_info(self.inner.implementation.clone());
        if let Some(instructions) = &self.inner.instructions {
            info = info.with_instructions(instructions.clone());
        }
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let registry = self.inner.live.load();
        let tools = match &self.inner.visibility {
            None => registry.list().to_vec(),
            Some(_) => {
                let principal = principal_of(&context.extensions);
                registry
                    .entries()
                    .filter(|(tool, _)| self.visible(principal, tool.info()))
                    .map(|(_, published)| published.clone())
                    .collect()
            }
        };
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.live.load().published(name).cloned()
    }

    /// Each connected client is told when the tool set changes: registered here, before
    /// the client can send anything else (`notifications/initialized` is handled
    /// concurrently with the first requests).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.inner.live.connect(context.peer);
        self.negotiate_initialize(&request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(
            ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .filter(|version| SUPPORTED_PROTOCOL_VERSIONS.contains(&version.as_str()))
                .cloned()
                .collect(),
        )
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            method_not_found("server/discover"),
            Some(json!({"method": "server/discover", "supported": SUPPORTED_METHODS})),
        ))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.set_level(request.level);
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let RequestContext {
            ct,
            id,
            mut meta,
            peer,
            extensions,
            ..
        } = context;
        if let Some(request_meta) = request.meta {
            meta.extend(request_meta);
        }
        // A non-object `arguments`, or the refusal of an oversized one, carried here by the
        // transport (see `methods`).
        let (raw, oversized) = if meta.is_empty() {
            (None, None)
        } else {
            let oversized = meta.remove(OVERSIZED_META_KEY);
            (meta.remove(RAW_ARGUMENTS_META_KEY), oversized)
        };
        let arguments = match (request.arguments, raw) {
            (Some(object), _) => Some(Value::Object(object)),
            (None, raw) => raw,
        };
        let registry = self.inner.live.load();
        // Read only for a visibility rule: a call without one pays no extension lookup.
        let principal = match &self.inner.visibility {
            Some(_) => principal_of(&extensions),
            None => None,
        };
        let tool = self.lookup(&registry, &request.name, principal)?;
        if let Some(oversized) = oversized.as_ref().and_then(Oversized::from_marker) {
            return Ok(ToolRegistry::refuse(tool, oversized.violation(0)).into());
        }
        let scope = CallScope::connected(
            peer,
            Arc::clone(&self.session),
            id,
            meta,
            tool.info().name_cow(),
            ct,
        );
        let call = registry.run(
            &self.inner.state,
            tool,
            arguments,
            &scope,
            self.inner.default_timeout,
        );
        // rmcp cancels the request's token on `notifications/cancelled` and drops whatever
        // is answered after; dropping the call here is what stops the tool's work. The call
        // goes first: most finish in their first poll, before any waiter is registered.
        tokio::select! {
            biased;
            result = call => Ok(result.into()),
            () = scope.client_cancelled() => {
                tracing::info!(tool = %request.name, "{}", CANCELLED_BY_CLIENT);
                Err(ErrorData::new(ErrorCode::INTERNAL_ERROR, CANCELLED_BY_CLIENT.to_string(), None))
            }
        }
    }
}
