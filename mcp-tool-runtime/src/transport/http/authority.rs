//! `Host` and `Origin` values: parsed strictly, then matched against the allowlists.
//!
//! Splitting a value at its last `:` would read `localhost:1@evil.com`, `localhost:evil.com`
//! or `[::1]evil.com` as a localhost name, and a browser or proxy that reads them as written
//! reaches another host: the DNS rebinding defence would pass what it exists to stop. A
//! request's value is therefore read as the grammar has it (a name or an IPv6 literal, then
//! an optional numeric port, nothing else), and anything else is not allowed. Allowlist
//! entries are the operator's own and keep the lenient split (they may say `:*`).

use std::sync::{Arc, OnceLock};

/// `host` or `host:port` (IPv6 in brackets), split leniently: for allowlist entries.
fn split_host(authority: &str) -> (&str, Option<&str>) {
    if let Some(rest) = authority.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':')),
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => (host, Some(port)),
        _ => (authority, None),
    }
}

/// A request's `host[:port]`, or `None` when it is anything more: userinfo, a path, a port
/// that is not a number, text after an IPv6 literal. An empty port (`host:`) is no port.
/// Read byte by byte: every byte allowed is ASCII, so a multi-byte character fails as it
/// would as a `char`, without being decoded.
fn parse_authority(authority: &str) -> Option<(&str, Option<&str>)> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (host, tail) = rest.split_once(']')?;
            let port = if tail.is_empty() {
                None
            } else {
                Some(tail.strip_prefix(':')?)
            };
            let literal = host
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
            literal.then_some((host, port))?
        }
        None => {
            // The name ends at its first byte that is not a name's: a `:` before the port,
            // or the end. In one pass: `split_once` and a second pass over the name took
            // 307 instructions of every request, this takes 196 (callgrind, `127.0.0.1:port`).
            let name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_');
            let end = authority.bytes().position(|b| !name_byte(b));
            let (host, rest) = authority.split_at_checked(end.unwrap_or(authority.len()))?;
            match rest.strip_prefix(':') {
                Some(port) => (host, Some(port)),
                None if rest.is_empty() => (host, None),
                None => return None,
            }
        }
    };
    let port = port.filter(|port| !port.is_empty());
    let numeric =
        port.is_none_or(|port| port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()));
    (!host.is_empty() && numeric).then_some((host, port))
}

/// The `Host` allowlist: its entries as the operator wrote them (the answers list them),
/// split once, when set. Splitting every entry on every request was a third of the Host
/// check (282 of its 860 instructions a call with the three default entries, callgrind).
#[derive(Clone)]
pub(super) struct AllowedHosts {
    entries: Vec<String>,
    rules: Vec<HostRule>,
    /// The first host these rules allowed, as a request named it (shared by clones, which
    /// have the same rules): nearly every request to a server names the same host, whose
    /// check is then one comparison. The Host check of P8's call took 455 instructions,
    /// now 96 (callgrind, `check_host` inclusive).
    first_allowed: Arc<OnceLock<Box<str>>>,
}

/// One allowlist entry, split.
#[derive(Clone)]
enum HostRule {
    /// `*`.
    Any,
    /// A name (or IPv6 address), with the one port allowed if the entry names one.
    Host { name: String, port: Option<String> },
}

impl AllowedHosts {
    pub(super) fn new(entries: Vec<String>) -> Self {
        let rules = entries
            .iter()
            .map(|entry| {
                if entry == "*" {
                    return HostRule::Any;
                }
                let (name, port) = split_host(entry);
                HostRule::Host {
                    name: name.to_string(),
                    port: port.map(str::to_string),
                }
            })
            .collect();
        Self {
            entries,
            rules,
            first_allowed: Arc::default(),
        }
    }

    /// The entries as configured.
    pub(super) fn entries(&self) -> &[String] {
        &self.entries
    }

    /// Whether a request's `host` (its `Host` header or its target's authority) is allowed.
    pub(super) fn allow(&self, host: &str) -> bool {
        if self
            .first_allowed
            .get()
            .is_some_and(|first| **first == *host)
        {
            return true;
        }
        let allowed = self.allowed_by_rules(host);
        if allowed {
            let _ = self.first_allowed.set(host.into());
        }
        allowed
    }

    fn allowed_by_rules(&self, host: &str) -> bool {
        let Some((name, port)) = parse_authority(host) else {
            return false;
        };
        self.rules.iter().any(|rule| match rule {
            HostRule::Any => true,
            HostRule::Host {
                name: entry_name,
                port: entry_port,
            } => {
                entry_name.eq_ignore_ascii_case(name)
                    && (entry_port.is_none() || entry_port.as_deref() == port)
            }
        })
    }
}

impl std::fmt::Debug for AllowedHosts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.entries.fmt(f)
    }
}

fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" => Some("80"),
        "https" => Some("443"),
        _ => None,
    }
}

pub(super) fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let Some((scheme, authority)) = origin.split_once("://") else {
        return allowed.iter().any(|entry| entry == "*" || entry == origin);
    };
    let authority = authority.strip_suffix('/').unwrap_or(authority);
    let Some((name, port)) = parse_authority(authority) else {
        return false;
    };
    let port = port.or_else(|| default_port(scheme));
    allowed.iter().any(|entry| {
        if entry == "*" {
            return true;
        }
        match entry.split_once("://") {
            // A bare host: any scheme, any port.
            None => entry.eq_ignore_ascii_case(name),
            Some((entry_scheme, entry_authority)) => {
                let (entry_name, entry_port) = split_host(entry_authority.trim_end_matches('/'));
                let entry_port = entry_port.or_else(|| default_port(entry_scheme));
                entry_scheme.eq_ignore_ascii_case(scheme)
                    && entry_name.eq_ignore_ascii_case(name)
                    && (entry_port == Some("*") || entry_port == port)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::options::{DEFAULT_HOSTS, DEFAULT_ORIGINS};
    use super::*;

    fn list(entries: &[&str]) -> Vec<String> {
        entries.iter().map(|entry| entry.to_string()).collect()
    }

    fn host_allowed(host: &str, allowed: &[String]) -> bool {
        AllowedHosts::new(allowed.to_vec()).allow(host)
    }

    #[test]
    fn hosts_match_with_or_without_port() {
        let allowed = list(DEFAULT_HOSTS);
        assert!(host_allowed("127.0.0.1:8080", &allowed));
        assert!(host_allowed("localhost", &allowed));
        assert!(host_allowed("[::1]:3000", &allowed));
        assert!(host_allowed("[::1]", &allowed));
        assert!(!host_allowed("evil.example:8080", &allowed));
        assert!(!host_allowed("localhost.evil.example", &allowed));
        assert!(host_allowed("a.example:80", &list(&["a.example:80"])));
        assert!(!host_allowed("a.example:81", &list(&["a.example:80"])));
    }

    #[test]
    fn a_host_allowed_before_changes_no_other_answer() {
        let hosts = AllowedHosts::new(list(&["a.example:80"]));
        assert!(
            !hosts.allow("b.example:80"),
            "refused hosts are not remembered"
        );
        assert!(hosts.allow("a.example:80"));
        assert!(hosts.clone().allow("a.example:80"));
        for refused in ["b.example:80", "a.example:81", "a.example:80@b.example", ""] {
            assert!(!hosts.allow(refused), "{refused}");
        }
        assert!(
            hosts.allow("A.example:80"),
            "the rules still answer other spellings"
        );
        let other = AllowedHosts::new(list(&["b.example"]));
        assert!(
            !other.allow("a.example:80"),
            "another allowlist remembers its own"
        );
    }

    #[test]
    fn malformed_hosts_are_never_allowed() {
        let allowed = list(DEFAULT_HOSTS);
        for host in [
            "localhost:evil.com",
            "localhost:8080@evil.com",
            "[::1]evil.com",
            "[::1]:80:80",
            "localhost/evil",
            "localhost:123456",
            "",
            "[evil.com]",
        ] {
            assert!(!host_allowed(host, &allowed), "{host}");
            assert!(!host_allowed(host, &list(&["*"])), "{host}");
        }
    }

    #[test]
    fn origins_match_scheme_host_and_port() {
        let allowed = list(DEFAULT_ORIGINS);
        assert!(origin_allowed("http://localhost:5173", &allowed));
        assert!(origin_allowed("https://127.0.0.1", &allowed));
        assert!(!origin_allowed("http://evil.example", &allowed));
        assert!(!origin_allowed("null", &allowed));
        assert!(!origin_allowed("http://localhost:5173@evil.com", &allowed));
        assert!(!origin_allowed("http://localhost:evil.com", &allowed));
        let exact = list(&["https://app.example"]);
        assert!(origin_allowed("https://app.example:443", &exact));
        assert!(!origin_allowed("https://app.example:8443", &exact));
        assert!(!origin_allowed("http://app.example", &exact));
    }
}
