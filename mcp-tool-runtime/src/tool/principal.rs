//! Who is calling: what a token verifier learned from the request's credentials.

use std::sync::Arc;

use serde_json::{Map, Value};

/// The authenticated caller of a request, as a token verifier established it.
///
/// Over HTTP the guard puts it in the request's extensions, where tools
/// (`ToolContext::principal`), middleware and visibility rules read it. It is absent when no
/// verifier is configured, and on stdio, whose one client is whoever started the process.
///
/// ```
/// use mcp_tool_runtime::Principal;
///
/// let alice = Principal::new("alice").with_claim("scope", "inventory:read");
/// assert_eq!(alice.subject(), "alice");
/// assert_eq!(alice.claim("scope").and_then(|v| v.as_str()), Some("inventory:read"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Principal {
    // Shared: a request's principal is cloned into rmcp's request context and again for each
    // call, and a JWT's claims are a dozen strings; a clone is one reference count.
    inner: Arc<Inner>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    subject: String,
    claims: Map<String, Value>,
    /// The scopes the credentials grant, which the tools' scopes are checked against
    /// (`#[mcp_tool(scopes = [...])]`).
    scopes: Vec<String>,
}

impl std::fmt::Debug for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Principal")
            .field("subject", &self.inner.subject)
            .field("claims", &self.inner.claims)
            .field("scopes", &self.inner.scopes)
            .finish()
    }
}

impl Principal {
    /// A caller known by `subject` (a user id, a client id, a key name), without claims.
    pub fn new(subject: impl Into<String>) -> Self {
        Self {
            inner: Arc::new(Inner {
                subject: subject.into(),
                claims: Map::new(),
                scopes: Vec::new(),
            }),
        }
    }

    /// The same caller, granted `scopes` besides those it already has: what a tool's
    /// `#[mcp_tool(scopes = [...])]` is checked against. A JWT or introspection verifier
    /// sets them from the token's `scope`.
    ///
    /// ```
    /// use mcp_tool_runtime::Principal;
    ///
    /// let alice = Principal::new("alice").with_scopes(["notes:read", "notes:write"]);
    /// assert!(alice.has_scope("notes:write"));
    /// assert!(!alice.has_scope("admin"));
    /// ```
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let own = &mut Arc::make_mut(&mut self.inner).scopes;
        for scope in scopes {
            let scope = scope.into();
            if !own.contains(&scope) {
                own.push(scope);
            }
        }
        self
    }

    /// The scopes the caller's credentials grant.
    pub fn scopes(&self) -> &[String] {
        &self.inner.scopes
    }

    /// Whether the caller's credentials grant `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.inner.scopes.iter().any(|own| own == scope)
    }

    /// The OAuth client the token was issued to (the `client_id` claim, RFC 9068), if the
    /// verifier recorded it.
    pub fn client_id(&self) -> Option<&str> {
        self.claim("client_id").and_then(Value::as_str)
    }

    /// The same caller with one more claim (a scope, a tenant, a role).
    pub fn with_claim(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        Arc::make_mut(&mut self.inner)
            .claims
            .insert(name.into(), value.into());
        self
    }

    /// Who the caller is.
    pub fn subject(&self) -> &str {
        &self.inner.subject
    }

    /// One claim, if the verifier recorded it.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.inner.claims.get(name)
    }

    /// Every claim the verifier recorded.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.inner.claims
    }
}

/// The principal of a request, from rmcp's request extensions: put there directly (in-process
/// transports, tests), or in the HTTP request's `Parts`, which rmcp's HTTP service copies in.
pub(crate) fn principal_of(extensions: &rmcp::model::Extensions) -> Option<&Principal> {
    if let Some(principal) = extensions.get::<Principal>() {
        return Some(principal);
    }
    #[cfg(feature = "http")]
    if let Some(parts) = extensions.get::<http::request::Parts>() {
        return parts.extensions.get::<Principal>();
    }
    None
}
