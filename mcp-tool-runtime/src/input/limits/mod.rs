//! Limits on the size of the arrays and objects in one message, found by one pass over its
//! JSON that builds nothing.
//!
//! Parsed JSON costs far more than its text: `0,` is two bytes on the wire and a 32-byte
//! value once parsed, and rmcp's message types buffer a message again on their way in. A 4
//! MiB line of a million small items took the server past 500 MB. The transports run this
//! pass over the raw bytes before anything is parsed (the HTTP one only on a body that the
//! tally of its quick read, `SizeBound`, does not clear), and dispatch runs it again over
//! the arguments of a call that did not come through them (in-process, or another
//! transport).

mod scan;

use serde_json::Value;

use crate::error::{ArgPath, LengthUnit, Violation, ViolationKind};
use crate::large::{DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_OBJECT_KEYS, DEFAULT_MAX_VALUES};

/// How deep the pass follows, as serde_json's parser does: a message nested deeper is
/// refused by the parser anyway, and a value built in-process this deep is left to the rest
/// of the checks.
pub(super) const MAX_DEPTH: usize = 128;

/// How large the arrays and objects of one message may be, checked before it is parsed.
///
/// A message with an array of more than [`InputLimits::max_array_items`] items, or an
/// object of more than [`InputLimits::max_object_keys`] keys, anywhere in it, or more than
/// [`InputLimits::max_values`] values in all, is answered without being parsed: a `tools/call` whose arguments hold it gets an `isError` result that
/// names the argument and the limit; any other request a JSON-RPC error (-32602). Set them on
/// [`ServerBuilder::input_limits`](crate::ServerBuilder::input_limits).
///
/// ```
/// use mcp_tool_runtime::InputLimits;
/// let limits = InputLimits::default().max_array_items(1_000).max_object_keys(100);
/// assert_eq!(limits.array_items(), 1_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLimits {
    pub(super) array_items: usize,
    pub(super) object_keys: usize,
    pub(super) values: usize,
}

impl Default for InputLimits {
    fn default() -> Self {
        Self {
            array_items: DEFAULT_MAX_ARRAY_ITEMS,
            object_keys: DEFAULT_MAX_OBJECT_KEYS,
            values: DEFAULT_MAX_VALUES,
        }
    }
}

impl InputLimits {
    /// The most items one array may have (default 100,000).
    pub fn max_array_items(mut self, items: usize) -> Self {
        self.array_items = items;
        self
    }

    /// The most keys one object may have (default 10,000).
    pub fn max_object_keys(mut self, keys: usize) -> Self {
        self.object_keys = keys;
        self
    }

    /// The most values one message may hold in all, every scalar, array and object counted
    /// (default 200,000). For a call made in-process, its arguments are counted.
    pub fn max_values(mut self, values: usize) -> Self {
        self.values = values;
        self
    }

    /// The limit on the values of one message.
    pub fn values(&self) -> usize {
        self.values
    }

    /// The limit on the items of one array.
    pub fn array_items(&self) -> usize {
        self.array_items
    }

    /// The limit on the keys of one object.
    pub fn object_keys(&self) -> usize {
        self.object_keys
    }

    /// The first array or object over the limits in the JSON `bytes`; `None` when there is
    /// none, or when the bytes are not JSON (the parser that comes next says so).
    pub(crate) fn check_bytes(&self, bytes: &[u8]) -> Option<Oversized> {
        if self.within_by_length(bytes.len()) {
            return None;
        }
        scan::first_oversized(*self, bytes)
    }

    /// Whether a message of `length` bytes is within the limits whatever it holds: every
    /// item, key and value takes at least one byte of it, so one no longer than the
    /// smallest limit is within all of them, and most calls are far smaller.
    pub(crate) fn within_by_length(&self, length: usize) -> bool {
        length <= self.array_items.min(self.object_keys).min(self.values)
    }

    /// How many values `value` holds (itself included) when it is within the limits, which
    /// says whether it is large as well (`input::is_large`, a walk of its own before); else
    /// the first array or object over them, as a violation of the arguments it is. `None`
    /// for the count past the depth the walk follows. The violation is boxed: a call's future
    /// keeps the answer across its first await, and most answers are counts.
    // In line in each call (`Arguments::checked` says why).
    #[inline]
    pub(crate) fn size_arguments(&self, value: &Value) -> Result<Option<usize>, Box<Violation>> {
        self.size_value(value)
            .map_err(|oversized| Box::new(oversized.violation(0)))
    }

    /// [`InputLimits::check_bytes`] for a value already built: the same pass in the same
    /// order, but the path is only built for what it finds, as the search unwinds, so that
    /// arguments within the limits (a server walks every call's) cost no allocation.
    fn size_value(&self, value: &Value) -> Result<Option<usize>, Oversized> {
        let mut values = 0;
        let walked = count_one(&mut values, self).and_then(|()| walk(value, self, &mut values, 0));
        match walked {
            Ok(()) => Ok(Some(values)),
            Err(None) => Ok(None),
            Err(Some(mut found)) => {
                found.path.reverse();
                Err(found)
            }
        }
    }

    #[cfg(test)]
    fn check_value(&self, value: &Value) -> Option<Oversized> {
        self.size_value(value).err()
    }
}

/// Upper bounds on what the limit pass counts in a message, from a pass that only splits it
/// into tokens (the HTTP transport's quick read of a body's envelope,
/// `transport/jsonrpc/quick.rs`). A body within them needs no limit pass of its own, so
/// that its bytes are read once before rmcp reads them; one past them gets the limit pass,
/// which alone says what is over and where.
#[cfg(feature = "http")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SizeBound {
    /// At least the values of the message: every value but the root follows a colon, an
    /// array's opening bracket or a comma between items, so one more than those.
    pub(crate) values: usize,
    /// At least the items of its largest array: one more than the commas between items.
    pub(crate) items: usize,
    /// At least the keys of its largest object: one more than the commas between members.
    pub(crate) keys: usize,
}

#[cfg(feature = "http")]
impl InputLimits {
    /// Whether a message within `bound` is within these limits, whatever its shape.
    pub(crate) fn admits(&self, bound: SizeBound) -> bool {
        bound.values <= self.values
            && bound.items <= self.array_items
            && bound.keys <= self.object_keys
    }
}

/// What [`walk`] stops at: what it found, its path reversed and missing the steps above the
/// value walked; `None` past the depth the pass follows.
type Walked = Result<(), Option<Oversized>>;

/// Walks `value` (at `depth`), counting its values into `values`.
fn walk(value: &Value, limits: &InputLimits, values: &mut usize, depth: usize) -> Walked {
    let (count, limit, measure) = match value {
        Value::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(None);
            }
            for (index, item) in items.iter().enumerate().take(limits.array_items) {
                count_one(values, limits)?;
                if holds_values(item) {
                    walk(item, limits, values, depth + 1)
                        .map_err(|found| found.map(|o| o.above(Step::Index(index))))?;
                }
            }
            (items.len(), limits.array_items, Measure::Items)
        }
        Value::Object(members) => {
            if depth >= MAX_DEPTH {
                return Err(None);
            }
            for (key, member) in members.iter().take(limits.object_keys) {
                count_one(values, limits)?;
                if holds_values(member) {
                    // The key is copied only for what was found.
                    walk(member, limits, values, depth + 1)
                        .map_err(|found| found.map(|o| o.above(Step::Key(key.clone()))))?;
                }
            }
            (members.len(), limits.object_keys, Measure::Keys)
        }
        _ => return Ok(()),
    };
    if count <= limit {
        return Ok(());
    }
    let (count, limit) = (count as u64, limit as u64);
    Err(Some(Oversized {
        path: Vec::new(),
        measure,
        count,
        limit,
    }))
}

/// Whether `value` is an array or an object, which `walk` steps into; a scalar is counted
/// by its container, without a call of its own: P1's call 11,075 instructions before, 10,970
/// after (callgrind, `target/release/profile ours_valid`, 12,000 calls less 2,000).
fn holds_values(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// Counts one more value; past the limit, what is found is the array or object it is in.
fn count_one(values: &mut usize, limits: &InputLimits) -> Walked {
    *values += 1;
    if *values <= limits.values {
        return Ok(());
    }
    Err(Some(Oversized {
        path: Vec::new(),
        measure: Measure::Values,
        count: *values as u64,
        limit: limits.values as u64,
    }))
}

/// One step of a path through a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// What a limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Measure {
    /// The items of one array.
    Items,
    /// The keys of one object.
    Keys,
    /// The values of the whole message.
    Values,
}

/// A limit passed: where (the array or object over it, or the one whose value took the
/// message past [`InputLimits::max_values`]; from the root of what was checked), what it
/// counts, how many there are (for values, one past the limit: the pass stops there) and
/// how many are allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Oversized {
    pub(crate) path: Vec<Step>,
    pub(crate) measure: Measure,
    pub(crate) count: u64,
    pub(crate) limit: u64,
}

impl Oversized {
    /// The same, found one `step` further down (paths are built backwards as a walk
    /// unwinds).
    fn above(mut self, step: Step) -> Self {
        self.path.push(step);
        self
    }

    /// The problem as a violation of the arguments, whose object is at depth `from` of the
    /// path (0 when the arguments were checked on their own).
    pub(crate) fn violation(&self, from: usize) -> Violation {
        let mut path = ArgPath::root();
        for step in self.path.iter().skip(from) {
            path = match step {
                Step::Key(key) => path.key(key.as_str()),
                Step::Index(index) => path.index(*index),
            };
        }
        let limit = self.limit;
        let kind = match self.measure {
            Measure::Values => ViolationKind::TooManyValues { limit },
            Measure::Items => ViolationKind::TooLarge {
                unit: LengthUnit::Items,
                actual: self.count,
                limit,
            },
            Measure::Keys => ViolationKind::TooLarge {
                unit: LengthUnit::Properties,
                actual: self.count,
                limit,
            },
        };
        Violation::new(path, kind, None)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn limits() -> InputLimits {
        InputLimits::default().max_array_items(3).max_object_keys(2)
    }

    #[test]
    fn the_first_container_over_its_limit_is_found_with_its_path_and_size() {
        let bytes = br#"{"a":[1,2,3],"b":{"c":[{"d":1,"e":2,"f\"g":3}]},"h":[1,2,3,4]}"#;
        let found = limits().check_bytes(bytes).expect("over");
        assert_eq!(
            found.path,
            vec![Step::Key("b".into()), Step::Key("c".into()), Step::Index(0)]
        );
        assert_eq!(
            (found.measure, found.count, found.limit),
            (Measure::Keys, 3, 2)
        );
    }

    #[test]
    fn values_and_bytes_are_checked_alike() {
        let value = json!({"x": {"y": [1, [2, 3, 4, 5]]}});
        let from_bytes = limits().check_bytes(value.to_string().as_bytes());
        let from_value = limits().check_value(&value);
        assert_eq!(from_bytes, from_value);
        let found = from_value.expect("over");
        assert_eq!(found.count, 4);
        assert_eq!(found.violation(1).path.to_string(), "y[1]");
    }

    #[test]
    fn the_violation_describes_the_problem_from_the_arguments_on() {
        let bytes = br#"{"params":{"arguments":{"tags":["a","b","c","d"]}}}"#;
        let found = limits().check_bytes(bytes).expect("over");
        let violation = found.violation(2);
        assert_eq!(violation.path.to_string(), "tags");
        assert_eq!(
            violation.kind,
            ViolationKind::TooLarge {
                unit: LengthUnit::Items,
                actual: 4,
                limit: 3
            }
        );
    }

    #[test]
    fn a_message_past_its_values_is_stopped_in_the_container_that_passed_it() {
        let limits = InputLimits::default().max_values(6);
        let bytes = br#"{"a":[1,2],"b":{"c":[3,4]}}"#;
        let found = limits.check_bytes(bytes).expect("over");
        assert_eq!(
            found.path,
            vec![Step::Key("b".into()), Step::Key("c".into())]
        );
        assert_eq!(
            (found.measure, found.count, found.limit),
            (Measure::Values, 7, 6)
        );
        assert_eq!(limits.max_values(8).check_bytes(bytes), None);
    }

    #[test]
    fn an_array_past_its_limit_is_counted_to_its_end_and_not_looked_into() {
        let limits = InputLimits::default().max_array_items(2).max_values(5);
        let bytes = br#"[1,2,[3,4,5,6,7],8,9]"#;
        let found = limits.check_bytes(bytes).expect("over");
        assert_eq!(found.path, vec![]);
        assert_eq!((found.measure, found.count), (Measure::Items, 5));
        let value: Value = serde_json::from_slice(bytes).expect("JSON");
        assert_eq!(limits.check_value(&value), Some(found));
    }

    #[test]
    fn only_messages_longer_than_the_smallest_limit_are_scanned() {
        let limits = InputLimits::default()
            .max_array_items(100)
            .max_object_keys(100)
            .max_values(7);
        // 7 values in 13 bytes: within, and scanned.
        assert_eq!(limits.check_bytes(b"[[[[[[1]]]]]]"), None);
        // 8 values in 15 bytes: the scan finds them.
        let found = limits.check_bytes(b"[[[[[[[1]]]]]]]").expect("over");
        assert_eq!((found.measure, found.count), (Measure::Values, 8));
        // 7 bytes cannot hold 8 values: not scanned, and nothing could have been found.
        assert_eq!(limits.check_bytes(b"[1,2,3]"), None);
    }

    #[test]
    fn within_the_limits_or_not_json_is_nothing_found() {
        assert_eq!(
            limits().check_bytes(br#"{"a":[1,2,3],"b":{"c":1,"d":2}}"#),
            None
        );
        assert_eq!(limits().check_bytes(b"[1,2,3,4"), None);
    }
}
