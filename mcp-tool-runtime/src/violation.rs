//! One problem with one argument: where it is, what was expected, what arrived.

use std::fmt;
use std::sync::LazyLock;

use serde::Serialize;
use serde_json::{Number, Value};

use crate::messages;
use crate::shape::Shape;

/// A step into the arguments: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathSegment {
    /// A property of an object.
    Key(String),
    /// A position in an array.
    Index(usize),
}

/// The location of a value inside a tool's arguments, written `items[2].quantity`.
///
/// The empty path stands for the arguments object itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArgPath(Vec<PathSegment>);

impl ArgPath {
    /// The path of the arguments object itself.
    pub fn root() -> Self {
        Self::default()
    }

    /// A path of one top-level argument.
    pub fn argument(name: impl Into<String>) -> Self {
        Self(vec![PathSegment::Key(name.into())])
    }

    /// This path extended by one object key.
    pub fn key(&self, key: impl Into<String>) -> Self {
        self.extended(PathSegment::Key(key.into()))
    }

    /// This path extended by one array index.
    pub fn index(&self, index: usize) -> Self {
        self.extended(PathSegment::Index(index))
    }

    fn extended(&self, segment: PathSegment) -> Self {
        // Sized for the new step at once: a clone then a push would allocate twice.
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend_from_slice(&self.0);
        segments.push(segment);
        Self(segments)
    }

    /// The path made of `segments`, outermost first.
    pub(crate) fn from_segments(segments: Vec<PathSegment>) -> Self {
        Self(segments)
    }

    /// The steps of the path, outermost first.
    pub fn segments(&self) -> &[PathSegment] {
        &self.0
    }

    /// True for the arguments object itself.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The top-level argument this path starts at, if any.
    pub fn top_level(&self) -> Option<&str> {
        match self.0.first() {
            Some(PathSegment::Key(key)) => Some(key),
            _ => None,
        }
    }
}

fn is_plain_key(key: &str) -> bool {
    // Bytes rather than chars: every byte of a non-ASCII char fails both tests anyway.
    let mut bytes = key.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl ArgPath {
    /// About how many bytes [`ArgPath::write_into`] appends (exact for plain keys), to size
    /// a buffer once.
    pub(crate) fn written_len(&self) -> usize {
        self.0
            .iter()
            .map(|segment| match segment {
                PathSegment::Key(key) => key.len() + 1,
                PathSegment::Index(_) => 4,
            })
            .sum()
    }

    /// The path as code writes it. A path of one plain key, the usual case, is that key's
    /// own string, moved rather than copied.
    pub(crate) fn into_text(self) -> String {
        let mut segments = self.0;
        if let [PathSegment::Key(key)] = segments.as_slice()
            && is_plain_key(key)
            && let Some(PathSegment::Key(key)) = segments.pop()
        {
            return key;
        }
        let path = Self(segments);
        let mut text = String::with_capacity(path.written_len());
        path.write_into(&mut text);
        text
    }

    /// Appends the path as code writes it (`items[2].quantity`): the error path renders
    /// several paths per call, and `Display` through a formatter costs more.
    pub(crate) fn write_into(&self, out: &mut String) {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                PathSegment::Key(key) if is_plain_key(key) => {
                    if position > 0 {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                PathSegment::Key(key) => {
                    out.push('[');
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(']');
                }
                PathSegment::Index(index) => {
                    out.push('[');
                    out.push_str(&index.to_string());
                    out.push(']');
                }
            }
        }
    }
}

impl fmt::Display for ArgPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.write_into(&mut text);
        f.write_str(&text)
    }
}

impl Serialize for ArgPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What a string or collection length counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthUnit {
    /// Unicode scalar values of a string.
    Characters,
    /// Elements of an array.
    Items,
    /// Properties of an object.
    Properties,
}

/// A string format the runtime checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StringFormat {
    /// An email address.
    Email,
    /// An absolute URL.
    Url,
    /// Any other named format (for example `ip` or `credit_card`).
    Other(String),
}

/// What kind of problem a [`Violation`] is, with the facts needed to explain it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// The value has the wrong JSON type. `expected` is a phrase such as "an integer".
    TypeMismatch {
        /// What was expected, as a phrase.
        expected: String,
    },
    /// A required argument or property is absent.
    Missing {
        /// What the absent value should be, as a phrase.
        expected: String,
    },
    /// A property that the schema does not allow.
    Unknown {
        /// The closest valid name, if one is close.
        suggestion: Option<String>,
        /// Every valid name at this level.
        valid: Vec<String>,
    },
    /// A number outside its bounds.
    Range {
        /// Lower bound, if any.
        min: Option<Number>,
        /// Upper bound, if any.
        max: Option<Number>,
        /// The lower bound itself is not allowed.
        exclusive_min: bool,
        /// The upper bound itself is not allowed.
        exclusive_max: bool,
    },
    /// A string, array or object of the wrong size.
    Length {
        /// Smallest allowed size.
        min: Option<u64>,
        /// Largest allowed size.
        max: Option<u64>,
        /// What is counted.
        unit: LengthUnit,
        /// The size received.
        actual: u64,
    },
    /// A string that does not match a regular expression.
    Pattern {
        /// The regular expression.
        pattern: String,
        /// A valid example, where the schema gives one.
        example: Option<Value>,
    },
    /// A string that is not of the required format.
    Format {
        /// The format.
        format: StringFormat,
    },
    /// A value outside a fixed set.
    Enum {
        /// Every allowed value.
        allowed: Vec<Value>,
        /// The allowed value closest to what was received.
        suggestion: Option<Value>,
    },
    /// An array whose items must be unique but are not.
    NotUnique,
    /// The arguments as a whole are not a JSON object.
    NotAnObject,
    /// A check written by the tool author failed.
    Custom {
        /// The check's code.
        code: String,
        /// The check's own explanation, if it gave one.
        message: Option<String>,
    },
    /// The value was rejected for a reason the schema cannot express.
    Invalid {
        /// Why, in words.
        reason: String,
    },
}

impl ViolationKind {
    /// A stable snake_case name for this kind, used in the error envelope.
    pub fn problem(&self) -> &'static str {
        match self {
            Self::TypeMismatch { .. } => "type_mismatch",
            Self::Missing { .. } => "missing",
            Self::Unknown { .. } => "unknown_argument",
            Self::Range { .. } => "out_of_range",
            Self::Length { .. } => "length",
            Self::Pattern { .. } => "pattern",
            Self::Format { .. } => "format",
            Self::Enum { .. } => "not_allowed",
            Self::NotUnique => "not_unique",
            Self::NotAnObject => "not_an_object",
            Self::Custom { .. } => "custom",
            Self::Invalid { .. } => "invalid",
        }
    }
}

/// One problem with one argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Where the problem is.
    pub path: ArgPath,
    /// What the problem is.
    pub kind: ViolationKind,
    /// The value that was received, when there was one.
    pub received: Option<Value>,
}

impl Violation {
    /// A violation at `path` of kind `kind` about the value `received`.
    pub fn new(path: ArgPath, kind: ViolationKind, received: Option<Value>) -> Self {
        Self {
            path,
            kind,
            received,
        }
    }

    /// The sentence the model reads for this violation.
    pub fn message(&self) -> String {
        messages::violation(self)
    }

    /// What was expected, as a short phrase for the envelope.
    pub fn expected(&self) -> Option<String> {
        messages::violation_expected(&self.kind)
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// The envelope entry: `path`, `problem`, `expected`, `received`, `allowed`, `suggestion`,
/// `message`.
impl Violation {
    /// This violation's entry in the error envelope, with its `message` already written (the
    /// error path writes each message once and shares it with the text).
    pub fn to_json(&self, message: String) -> Value {
        self.clone().into_json(message)
    }

    /// [`Violation::to_json`], moving this violation's values instead of copying them.
    pub(crate) fn into_json(self, message: String) -> Value {
        static SHAPE: LazyLock<Shape> = LazyLock::new(|| {
            Shape::new(
                &[
                    "path",
                    "problem",
                    "expected",
                    "received",
                    "allowed",
                    "suggestion",
                    "message",
                ],
                &["expected", "received", "allowed", "suggestion"],
            )
        });
        let path = self.path.into_text();
        let problem = self.kind.problem();
        let (expected, allowed, suggestion) = match self.kind {
            ViolationKind::TypeMismatch { expected } | ViolationKind::Missing { expected } => {
                (Some(expected), None, None)
            }
            ViolationKind::Enum {
                allowed,
                suggestion,
            } => {
                let expected = messages::enum_expected(&allowed);
                (Some(expected), Some(Value::Array(allowed)), suggestion)
            }
            ViolationKind::Unknown { suggestion, valid } => (
                Some(messages::UNKNOWN_EXPECTED.to_string()),
                Some(valid.into_iter().map(Value::String).collect()),
                suggestion.map(Value::String),
            ),
            kind => (messages::violation_expected(&kind), None, None),
        };
        SHAPE.object([
            Some(Value::String(path)),
            Some(Value::String(problem.into())),
            expected.map(Value::String),
            self.received.map(messages::envelope_received),
            allowed,
            suggestion,
            Some(Value::String(message)),
        ])
    }
}

impl Serialize for Violation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json(self.message()).serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_code() {
        let path = ArgPath::argument("items").index(2).key("quantity");
        assert_eq!(path.to_string(), "items[2].quantity");
        assert_eq!(
            ArgPath::argument("tags").key("a b").to_string(),
            r#"tags["a b"]"#
        );
        assert_eq!(ArgPath::root().to_string(), "");
    }

    #[test]
    fn owned_text_matches_the_rendering() {
        for path in [
            ArgPath::root(),
            ArgPath::argument("sku"),
            ArgPath::argument("a b"),
            ArgPath::argument("items").index(2).key("quantity"),
            ArgPath::root().index(0),
        ] {
            assert_eq!(path.clone().into_text(), path.to_string());
        }
    }
}
