//! One problem with one argument, as facts: where it is, what was expected, what arrived.
//! `render` writes the sentence.

use std::fmt;

use serde_json::{Number, Value};

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
        let mut segments = self.0.clone();
        segments.push(segment);
        Self(segments)
    }

    /// This path with `by` added to the index at step `at`, if that step is an index: the
    /// place in a whole list of an item read from a part of it.
    pub(crate) fn with_index_moved(&self, at: usize, by: usize) -> Self {
        let mut segments = self.0.clone();
        if let Some(PathSegment::Index(index)) = segments.get_mut(at) {
            *index += by;
        }
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

    /// The path as wide as a summary of many problems names it: its argument, and the
    /// first item for anything within that argument's items (`tags[0]` for `tags[7].name`).
    pub(crate) fn place(&self) -> Self {
        let segments = match self.0.as_slice() {
            [key @ PathSegment::Key(_), PathSegment::Index(_), ..] => {
                vec![key.clone(), PathSegment::Index(0)]
            }
            [key @ PathSegment::Key(_), ..] => vec![key.clone()],
            [PathSegment::Index(_), ..] => vec![PathSegment::Index(0)],
            [] => Vec::new(),
        };
        Self(segments)
    }

    /// The top-level argument this path starts at, if any.
    pub fn top_level(&self) -> Option<&str> {
        match self.0.first() {
            Some(PathSegment::Key(key)) => Some(key),
            _ => None,
        }
    }
}

/// A key that reads as an identifier is written `.key`; any other as `["a key"]`.
fn is_plain_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The path as code writes it: `items[2].quantity`.
impl fmt::Display for ArgPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                PathSegment::Key(key) if is_plain_key(key) => {
                    if position > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                PathSegment::Key(key) => write!(f, "[{}]", Value::String(key.clone()))?,
                PathSegment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
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

/// A JSON type, as a schema's `type` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// A number without a fractional part.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// `true` or `false`.
    Boolean,
    /// An array.
    Array,
    /// An object.
    Object,
    /// `null`.
    Null,
}

impl JsonType {
    /// Every type, in the order schemas usually list them.
    pub const ALL: [JsonType; 7] = [
        Self::Integer,
        Self::Number,
        Self::String,
        Self::Boolean,
        Self::Array,
        Self::Object,
        Self::Null,
    ];

    /// The type a schema names `name`, if it is one of the seven.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|known| known.name() == name)
    }

    /// The name a schema uses: `integer`, `string`, …
    pub const fn name(self) -> &'static str {
        match self {
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::Boolean => "boolean",
            Self::Array => "array",
            Self::Object => "object",
            Self::Null => "null",
        }
    }

    /// The type of a value, telling integers from other numbers.
    pub fn of(value: &Value) -> Self {
        match value {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Boolean,
            Value::Number(n) if n.is_f64() => Self::Number,
            Value::Number(_) => Self::Integer,
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Array,
            Value::Object(_) => Self::Object,
        }
    }

    /// Whether `value` is of this type, as JSON Schema counts: an integer is also a number,
    /// and a number without a fractional part is an integer (`2e19`, read as a float
    /// because no 64-bit integer holds it, is one).
    pub fn admits(self, value: &Value) -> bool {
        match self {
            Self::Integer => {
                value.is_i64()
                    || value.is_u64()
                    || value.as_f64().is_some_and(|float| float.fract() == 0.0)
            }
            Self::Number => value.is_number(),
            Self::String => value.is_string(),
            Self::Boolean => value.is_boolean(),
            Self::Array => value.is_array(),
            Self::Object => value.is_object(),
            Self::Null => value.is_null(),
        }
    }
}

/// Numeric bounds, each inclusive unless marked exclusive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumberRange {
    /// Lower bound, if any.
    pub min: Option<Number>,
    /// Upper bound, if any.
    pub max: Option<Number>,
    /// The lower bound itself is not allowed.
    pub exclusive_min: bool,
    /// The upper bound itself is not allowed.
    pub exclusive_max: bool,
}

/// What a value should have been, as its schema says.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Expected {
    /// A value of one of these types.
    Types(Vec<JsonType>),
    /// One of these values.
    OneOf(Vec<Value>),
    /// An array whose items are of these types (none named: any items).
    ArrayOf(Vec<JsonType>),
    /// A value of these types within numeric bounds.
    InRange(Vec<JsonType>, NumberRange),
    /// A value of these types that matches a regular expression.
    Matching(Vec<JsonType>, String),
    /// A value of these types whose length, in characters, is within bounds.
    OfLength(Vec<JsonType>, Option<u64>, Option<u64>),
    /// An object with these properties, each with whether it is required.
    ObjectWith(Vec<(String, bool)>),
}

/// What kind of problem a [`Violation`] is, with the facts needed to explain it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// The value has the wrong JSON type.
    TypeMismatch {
        /// What was expected.
        expected: Expected,
    },
    /// A required argument or property is absent.
    Missing {
        /// What the absent value should be.
        expected: Expected,
    },
    /// A property that the schema does not allow.
    Unknown {
        /// The closest valid name, if one is close.
        suggestion: Option<String>,
        /// Every valid name at this level.
        valid: Vec<String>,
    },
    /// A number outside its bounds.
    Range(NumberRange),
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
    /// An array item past the last position a tuple allows.
    ExtraItem,
    /// A value nested deeper than the validator follows.
    TooDeep {
        /// The deepest nesting followed.
        limit: usize,
    },
    /// An array or object larger than the server accepts in any call (see
    /// [`InputLimits`](crate::InputLimits)), refused before the arguments were parsed.
    TooLarge {
        /// What is counted: [`LengthUnit::Items`] or [`LengthUnit::Properties`].
        unit: LengthUnit,
        /// How many it has.
        actual: u64,
        /// How many the server accepts.
        limit: u64,
    },
    /// More values in all than the server accepts in one call (see
    /// [`InputLimits::max_values`](crate::InputLimits::max_values)); the path is the array
    /// or object in which the count passed the limit. Refused before the arguments were
    /// parsed.
    TooManyValues {
        /// How many values the server accepts.
        limit: u64,
    },
    /// A check written by the tool author failed.
    Custom {
        /// The check's code.
        code: String,
        /// The check's own explanation, if it gave one.
        message: Option<String>,
    },
    /// The type's own deserializer rejected the arguments for a reason the schema does not
    /// express.
    Invalid {
        /// The deserializer's words, if it gave any.
        reason: Option<String>,
    },
}

impl ViolationKind {
    /// A stable snake_case name for this kind, used in the error envelope.
    pub fn problem(&self) -> &'static str {
        match self {
            Self::TypeMismatch { .. } => "type_mismatch",
            Self::Missing { .. } => "missing",
            Self::Unknown { .. } => "unknown_argument",
            Self::Range(_) => "out_of_range",
            Self::Length { .. } => "length",
            Self::Pattern { .. } => "pattern",
            Self::Format { .. } => "format",
            Self::Enum { .. } => "not_allowed",
            Self::NotUnique => "not_unique",
            Self::NotAnObject => "not_an_object",
            Self::TooLarge { .. } | Self::TooManyValues { .. } => "too_large",
            Self::Custom { .. } => "custom",
            Self::ExtraItem | Self::TooDeep { .. } | Self::Invalid { .. } => "invalid",
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
    /// The value that was received, when there was one. Violations the server finds keep
    /// only the start of a large value, some 2,000 characters of it: more than an answer shows.
    pub received: Option<Value>,
}

/// How much of a received value, in characters of compact JSON, a violation the server finds
/// keeps: more than any answer echoes (`render`'s 1,024), so what is shown is the same.
pub(crate) const KEPT_RECEIVED_CHARS: usize = 2048;

impl Violation {
    /// A violation at `path` of kind `kind` about the value `received`.
    pub fn new(path: ArgPath, kind: ViolationKind, received: Option<Value>) -> Self {
        Self {
            path,
            kind,
            received,
        }
    }

    /// A violation about `received`, of which it keeps a copy of the start only (see
    /// [`kept_received`]).
    pub(crate) fn about(path: ArgPath, kind: ViolationKind, received: &Value) -> Self {
        Self::new(path, kind, Some(kept_received(received)))
    }
}

/// A copy of `value` cut to at least [`KEPT_RECEIVED_CHARS`] characters of compact JSON:
/// the answer shows 80 characters of a large value, and copying all of a 100,000-item array
/// to show them made a bad call cost as much memory again as its arguments.
pub(crate) fn kept_received(value: &Value) -> Value {
    let mut budget = KEPT_RECEIVED_CHARS;
    cut_copy(value, &mut budget)
}

/// `value` copied until `budget` runs out. Each part costs no more than its JSON's length,
/// so what is kept of a value that was cut is longer than the budget.
fn cut_copy(value: &Value, budget: &mut usize) -> Value {
    match value {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map_while(|item| spend(budget, 1).then(|| cut_copy(item, budget)))
                .collect(),
        ),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map_while(|(key, member)| {
                    spend(budget, key.len() + 3).then(|| (key.clone(), cut_copy(member, budget)))
                })
                .collect(),
        ),
        Value::String(text) => {
            let kept = match text.char_indices().nth(*budget) {
                Some((cut, _)) => &text[..cut],
                None => text.as_str(),
            };
            spend(budget, kept.chars().count() + 2);
            Value::String(kept.to_string())
        }
        scalar => {
            spend(budget, 1);
            scalar.clone()
        }
    }
}

/// Takes `cost` from `budget`; false when it had already run out.
fn spend(budget: &mut usize, cost: usize) -> bool {
    let had = *budget > 0;
    *budget = budget.saturating_sub(cost);
    had
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_received_value_is_kept_cut() {
        let large = Value::from(vec![7; 100_000]);
        let kept = kept_received(&large);
        let text = kept.to_string();
        assert!(large.to_string().starts_with(&text[..text.len() - 1]));
        assert!(text.len() > KEPT_RECEIVED_CHARS);
        assert!(text.len() < 2 * KEPT_RECEIVED_CHARS + 16, "{}", text.len());
        let small = serde_json::json!({"a": [1, "two", {"b": null}]});
        assert_eq!(kept_received(&small), small);
        let nested = serde_json::json!([{"deep": ["x".repeat(10_000)]}]);
        let kept = kept_received(&nested).to_string();
        assert!(kept.starts_with(r#"[{"deep":["xxx"#));
        assert!((KEPT_RECEIVED_CHARS..KEPT_RECEIVED_CHARS + 32).contains(&kept.len()));
    }

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
}
