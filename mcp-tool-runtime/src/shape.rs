//! JSON objects of a fixed shape, for the error path.
//!
//! With `preserve_order`, `serde_json::Map` hashes every key with SipHash on insert, and on a
//! failed call that hashing cost more than writing the messages. The error path builds the
//! same few shapes of object on every failed call, so each shape's keys are laid out and
//! hashed once; each object is a clone of its layout (a clone copies the stored hashes) with
//! the values put in place.

use std::sync::OnceLock;

use serde_json::{Map, Value};

/// A JSON object's keys, in order, some of which may be absent.
pub(crate) struct Shape {
    keys: &'static [&'static str],
    /// Bit `i` is set when `keys[i]` may be absent.
    optional: u32,
    /// One layout per combination of present optional keys, built on first use.
    layouts: Box<[OnceLock<Map<String, Value>>]>,
}

impl Shape {
    /// A shape with `keys`, in this order; those also in `optional` may be absent.
    pub(crate) fn new(keys: &'static [&'static str], optional: &[&str]) -> Self {
        let optional = keys
            .iter()
            .enumerate()
            .filter(|(_, key)| optional.contains(key))
            .fold(0u32, |bits, (position, _)| bits | 1 << position);
        let combinations = 1usize << optional.count_ones();
        Self {
            keys,
            optional,
            layouts: (0..combinations).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The object with `values`, one per key in the shape's order; `None` leaves an optional
    /// key out. A `None` for a key that is not optional also leaves it out, but builds and
    /// caches nothing, so it costs a hashed insert per key like a plain `Map` would.
    pub(crate) fn object<const N: usize>(&self, values: [Option<Value>; N]) -> Value {
        Value::Object(self.map(values))
    }

    /// [`Shape::object`] as a map.
    pub(crate) fn map<const N: usize>(&self, values: [Option<Value>; N]) -> Map<String, Value> {
        let mut combination = 0usize;
        let mut optional_seen = 0;
        let mut required_missing = false;
        for (position, value) in values.iter().enumerate() {
            if self.optional & (1 << position) != 0 {
                if value.is_some() {
                    combination |= 1 << optional_seen;
                }
                optional_seen += 1;
            } else if value.is_none() {
                required_missing = true;
            }
        }
        if N != self.keys.len() || required_missing {
            return self
                .keys
                .iter()
                .zip(values)
                .filter_map(|(key, value)| Some(((*key).to_string(), value?)))
                .collect();
        }
        let layout = self.layouts[combination].get_or_init(|| {
            self.keys
                .iter()
                .zip(&values)
                .filter(|(_, value)| value.is_some())
                .map(|(key, _)| ((*key).to_string(), Value::Null))
                .collect()
        });
        let mut map = layout.clone();
        for (slot, value) in map.values_mut().zip(values.into_iter().flatten()) {
            *slot = value;
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn objects_keep_the_key_order_and_leave_absent_keys_out() {
        let shape = Shape::new(&["a", "b", "c", "d"], &["b", "d"]);
        let both = shape.object([
            Some(json!(1)),
            Some(json!(2)),
            Some(json!(3)),
            Some(json!(4)),
        ]);
        assert_eq!(
            serde_json::to_string(&both).ok(),
            Some(r#"{"a":1,"b":2,"c":3,"d":4}"#.into())
        );
        let neither = shape.object([Some(json!("x")), None, Some(json!([])), None]);
        assert_eq!(
            serde_json::to_string(&neither).ok(),
            Some(r#"{"a":"x","c":[]}"#.into())
        );
        // The same combination again comes from the cached layout, with the new values.
        let again = shape.object([Some(json!(5)), None, Some(json!(6)), None]);
        assert_eq!(again, json!({"a": 5, "c": 6}));
        let only_d = shape.object([Some(json!(0)), None, Some(json!(0)), Some(json!(true))]);
        assert_eq!(
            serde_json::to_string(&only_d).ok(),
            Some(r#"{"a":0,"c":0,"d":true}"#.into())
        );
    }

    #[test]
    fn lookups_work_on_a_filled_object() {
        let shape = Shape::new(&["path", "message"], &[]);
        let object = shape.object([Some(json!("sku")), Some(json!("Bad."))]);
        assert_eq!(object.get("message"), Some(&json!("Bad.")));
        assert_eq!(object.get("path"), Some(&json!("sku")));
    }

    #[test]
    fn a_missing_required_value_is_left_out() {
        let shape = Shape::new(&["a", "b"], &[]);
        assert_eq!(shape.object([None, Some(json!(1))]), json!({"b": 1}));
    }
}
