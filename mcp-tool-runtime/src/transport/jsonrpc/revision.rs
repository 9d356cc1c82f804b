//! The revision a request names in its own `_meta`, and what that revision changes.
//!
//! A request of revision 2026-07-28 carries `io.modelcontextprotocol/protocolVersion` in
//! `params._meta` instead of relying on an `initialize` handshake, and that revision
//! removed the handshake's methods: `initialize`, `ping`, `logging/setLevel` and the
//! resource subscriptions (`subscriptions/listen` replaces them). rmcp answers some of
//! them with -32601 and serves others under the old rules (`logging/setLevel`), and a
//! removed method's old params fail before that as -32602; the check here answers all of
//! them with -32601 and a sentence that names the revision, on every transport.

use serde_json::Value;

use crate::server::{SUPPORTED_METHODS, SUPPORTED_PROTOCOL_VERSIONS};

/// The `_meta` key in which a request names its revision.
pub(crate) const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The first revision without the `initialize` handshake.
const FIRST_STATELESS: &str = "2026-07-28";

/// The methods of the handshake revisions (2025-11-25 and older) that 2026-07-28 removed.
const REMOVED_IN_STATELESS: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// Whether `revision` is one without the handshake. Dates compare as text, as in rmcp, so
/// an unknown later revision counts as one too.
#[cfg(feature = "http")]
pub(crate) fn is_stateless(revision: &str) -> bool {
    revision >= FIRST_STATELESS
}

/// The revision this server speaks that a request names in `_meta`, when it is one
/// without the handshake: the revision whose methods apply to the request. An unknown
/// revision is left to rmcp, which answers it with the supported ones.
pub(crate) fn stateless_revision(message: &Value) -> Option<&'static str> {
    let named = message
        .get("params")?
        .get("_meta")?
        .get(PROTOCOL_VERSION_KEY)?
        .as_str()?;
    served_stateless(named)
}

/// `revision` as this server's own constant, when it speaks it and it has no handshake.
pub(crate) fn served_stateless(revision: &str) -> Option<&'static str> {
    SUPPORTED_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|served| *served == revision && *served >= FIRST_STATELESS)
}

/// Whether `method` is one that a stateless revision removed.
pub(crate) fn removed_method(method: &str) -> bool {
    REMOVED_IN_STATELESS.contains(&method)
}

/// The methods this server implements in a stateless revision.
pub(crate) fn stateless_methods() -> Vec<&'static str> {
    SUPPORTED_METHODS
        .iter()
        .copied()
        .filter(|method| !removed_method(method))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_served_stateless_revision_removes_methods() {
        let request = |revision: &str| json!({"method": "ping", "params": {"_meta": {PROTOCOL_VERSION_KEY: revision}}});
        assert_eq!(
            stateless_revision(&request("2026-07-28")),
            Some("2026-07-28")
        );
        assert_eq!(stateless_revision(&request("2025-11-25")), None);
        assert_eq!(stateless_revision(&request("2099-01-01")), None);
        assert_eq!(stateless_revision(&json!({"method": "ping"})), None);
        assert!(removed_method("logging/setLevel") && !removed_method("tools/call"));
        assert!(!stateless_methods().contains(&"initialize"));
        assert!(stateless_methods().contains(&"server/discover"));
    }
}
