//! The profiles: which clients a published schema is shaped for.

use serde_json::Value;

use super::role::SchemaRole;
use super::{gemini::gemini, portable::portable, strict::strict};

/// How published schemas are shaped. Set once per server (a tool may set its own).
///
/// # The portable profile
/// Clients disagree about JSON Schema, and one rejected schema can make a client drop every
/// tool of a server. The default profile therefore publishes the subset that all of them
/// accept:
/// - sub-schemas are inlined: no `$ref`, no `$defs`;
/// - integer formats such as `uint32` are replaced by `minimum`/`maximum` (see *Integers*);
/// - an optional property is simply left out of `required` rather than typed `["T","null"]`;
/// - no object says `additionalProperties: true` or `false` (google-genai's MCP conversion
///   fails on every tool that does); a map keeps its value schema there. The runtime still
///   rejects unknown keys at every depth of a struct, against the canonical schema, with a
///   suggestion and the valid keys;
/// - there is no `$schema` keyword (2020-12 is the MCP default);
/// - a `default` of `null`, `[]` or `{}` is left out: leaving the argument out says as much,
///   and serde fills the default in.
///
/// ## Recursive types
/// A recursive type cannot be inlined: it would never end. For those, and only those, the
/// portable schema keeps a `$defs` entry per recursive type and refers to it with `$ref`.
/// Everything that is not part of a cycle is still inlined.
///
/// Portable also spells two things the Inspector 2.x `--strict` lint and single-type clients
/// flag: an any-value schema (`serde_json::Value`, a bare `true`) becomes an `anyOf` of every
/// single type, and a `type` array becomes an `anyOf` of single types.
///
/// # The strict profile (OpenAI strict mode)
/// - every object has `additionalProperties: false` and lists every property in `required`;
///   an optional property is made nullable (`type: ["T","null"]`, or `anyOf` with `null`),
///   and the runtime treats `null` for it as absent;
/// - only `strict::STRICT_KEYWORDS` stay (`oneOf` becomes `anyOf`, `allOf` is merged); other
///   constraints (`maxLength`, `uniqueItems`, `default`, …) are left out of the schema but
///   still enforced at run time;
/// - a map has no closed-object spelling, so it is published as a list of
///   `{"key": …, "value": …}` pairs, which the runtime turns back into the map; a tuple is
///   an array of a fixed length whose items are the union of its element types; a
///   `serde_json::Value` is any scalar (strict mode has no open object);
/// - recursive types are unrolled `strict::STRICT_RECURSION_DEPTH` levels, and below that
///   a recursive type is described without its recursive properties (OpenAI strict mode
///   takes `$ref`, but openai-agents' MCP conversion falls back to non-strict on any `$ref`
///   it cannot check); the runtime still accepts deeper values;
/// - tool names must match `^[a-zA-Z0-9_-]{1,64}$`: a server with a tool published under
///   this profile whose name does not fit refuses to build
///   ([`RegistryError::NameNotAccepted`](crate::registry::RegistryError::NameNotAccepted)),
///   because OpenAI rejects the whole request, not one tool.
///
/// # The gemini profile (OpenAPI 3.0 subset of function declarations)
/// - no `additionalProperties`, `$schema`, `$defs` or `$ref`; only `gemini::GEMINI_KEYWORDS`;
///   `const` becomes `enum`, a `null` branch becomes `nullable: true`, exclusive bounds
///   become inclusive ones (exact for integers);
/// - no `anyOf` inside `items`: a union there is collapsed into one schema (the union of
///   string enums, or one object with every branch's properties, or the common type), so
///   the schema is looser than the type and the runtime does the exact check;
/// - recursive types are unrolled `gemini::GEMINI_RECURSION_DEPTH` levels; below that the schema
///   only says "an object";
/// - names must start with a letter or `_` and have at most 64 characters, checked like
///   strict's.
///
/// # The full profile
/// schemars's 2020-12 output unchanged, with `$schema`, `$defs` and its integer formats.
///
/// # Output schemas
/// Output schemas follow the serialize contract. The portable and full profiles shape them
/// like input schemas (without closing the root). OpenAI and Gemini never show an output
/// schema to the model; the MCP client validates `structuredContent` with a JSON Schema
/// validator, so servers under strict and gemini publish output schemas in the portable
/// form.
///
/// # Integers
/// Integer formats become the bounds the Rust type takes where JSON clients can hold them
/// exactly (±2^53): `u32` publishes `minimum: 0, maximum: 4294967295`, `u64` and `usize`
/// only `minimum: 0`, `i64` no width bound at all (`#[validate(range(min = 1))]` publishes
/// `minimum: 1`). A wider bound would only restate the Rust type in digits a JavaScript
/// client cannot even represent. Within ±2^53 a value the schema accepts is one the runtime
/// accepts; beyond, the runtime rejects a value outside the Rust type with its range error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// Inlined, standard-only schemas every client accepts (the default).
    #[default]
    Portable,
    /// OpenAI strict mode: every object closed, every property required (optional ones
    /// nullable), only the keywords strict mode supports.
    Strict,
    /// The OpenAPI 3.0 subset of Gemini function declarations: no `additionalProperties`,
    /// `$schema`, `$defs`/`$ref`, or `anyOf` inside `items`.
    Gemini,
    /// JSON Schema 2020-12 exactly as schemars writes it, with `$schema` and `$defs`.
    Full,
}

/// A profile name that is none of `portable`, `strict`, `gemini`, `full`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl std::fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = SchemaProfile::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown schema profile '{}' (expected one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl std::str::FromStr for SchemaProfile {
    type Err = UnknownProfile;

    /// Parses a profile name as `#[mcp_tool(schema_profile = "...")]` and the examples'
    /// `--schema-profile` take it.
    ///
    /// ```
    /// use mcp_tool_runtime::SchemaProfile;
    /// assert_eq!("full".parse::<SchemaProfile>(), Ok(SchemaProfile::Full));
    /// assert!("draft7".parse::<SchemaProfile>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|profile| profile.name() == name)
            .ok_or_else(|| UnknownProfile(name.to_string()))
    }
}

impl std::fmt::Display for SchemaProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl SchemaProfile {
    /// Every profile, in the order the documentation lists them.
    pub const ALL: [SchemaProfile; 4] = [Self::Portable, Self::Strict, Self::Gemini, Self::Full];

    /// The profile's name: `portable`, `full`, …
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Strict => "strict",
            Self::Gemini => "gemini",
            Self::Full => "full",
        }
    }

    /// Why `name` cannot be a tool name under this profile, if it cannot: OpenAI accepts
    /// `^[a-zA-Z0-9_-]{1,64}$`, Gemini a letter or underscore first and 64 characters at most.
    ///
    /// ```
    /// use mcp_tool_runtime::SchemaProfile;
    /// assert!(SchemaProfile::Strict.name_problem("cart.add").is_some());
    /// assert!(SchemaProfile::Portable.name_problem("cart.add").is_none());
    /// ```
    pub fn name_problem(self, name: &str) -> Option<&'static str> {
        let length = name.chars().count();
        match self {
            Self::Strict => {
                let fits = (1..=64).contains(&length)
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                (!fits).then_some("OpenAI strict mode takes 1 to 64 of `a-z A-Z 0-9 _ -`")
            }
            Self::Gemini => {
                let first_ok = name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
                let rest_ok = name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
                (!(first_ok && rest_ok && length <= 64)).then_some(
                    "Gemini takes a letter or `_` first, then `a-z A-Z 0-9 _ - .`, 64 characters at most",
                )
            }
            Self::Portable | Self::Full => None,
        }
    }

    /// The published form of a canonical schema under this profile.
    pub(crate) fn publish(self, canonical: &Value, role: SchemaRole) -> Value {
        match (self, role) {
            (Self::Portable, _) => portable(canonical),
            (Self::Full, _) => canonical.clone(),
            (Self::Strict, SchemaRole::Input) => strict(canonical),
            (Self::Gemini, SchemaRole::Input) => gemini(canonical),
            // Neither OpenAI nor Gemini shows an output schema to the model; the MCP client
            // validates `structuredContent` with a JSON Schema validator, for which the
            // portable form is the right one.
            (Self::Strict | Self::Gemini, SchemaRole::Output) => portable(canonical),
        }
    }
}
