//! The pass over a message's raw JSON: it counts the items, keys and values of every array
//! and object as serde_json reads them, builds nothing, and stops at the first one over the
//! limits with its path.

use std::borrow::Cow;
use std::fmt;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{InputLimits, MAX_DEPTH, Measure, Oversized, Step};

/// The first array or object over `limits` in the JSON `bytes`.
pub(super) fn first_oversized(limits: InputLimits, bytes: &[u8]) -> Option<Oversized> {
    let mut scan = LimitScan::new(limits);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // An error is either the stop after a find, or JSON the parser will refuse.
    let _ = Node(&mut scan).deserialize(&mut deserializer);
    scan.found
}

/// A step as it is read: keys borrow from the input unless they hold escapes.
enum ReadStep<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

struct LimitScan<'de> {
    limits: InputLimits,
    path: Vec<ReadStep<'de>>,
    /// The values seen so far.
    values: usize,
    found: Option<Oversized>,
}

impl LimitScan<'_> {
    fn new(limits: InputLimits) -> Self {
        Self {
            limits,
            path: Vec::new(),
            values: 0,
            found: None,
        }
    }

    /// Records that the container at the current path has `count` of `measure` when that
    /// is over `limit`; `Err` then stops the pass.
    fn measure<E: de::Error>(
        &mut self,
        count: usize,
        limit: usize,
        measure: Measure,
    ) -> Result<(), E> {
        if count <= limit {
            return Ok(());
        }
        let path = self
            .path
            .iter()
            .map(|step| match step {
                ReadStep::Key(key) => Step::Key(key.to_string()),
                ReadStep::Index(index) => Step::Index(*index),
            })
            .collect();
        self.found = Some(Oversized {
            path,
            measure,
            count: count as u64,
            limit: limit as u64,
        });
        Err(E::custom(Stop))
    }

    /// Counts one more value, which the current path leads to; past the limit, records the
    /// array or object it is in and stops the pass.
    fn count_value<E: de::Error>(&mut self) -> Result<(), E> {
        self.values += 1;
        if self.values <= self.limits.values {
            return Ok(());
        }
        let step = self.path.pop();
        let stopped = self.measure(self.values, self.limits.values, Measure::Values);
        self.path.extend(step);
        stopped
    }

    fn descend<E: de::Error>(&self) -> Result<(), E> {
        if self.path.len() >= MAX_DEPTH {
            return Err(E::custom(Stop));
        }
        Ok(())
    }
}

/// The error that ends the pass early.
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the size check stopped")
    }
}

/// One value of the document, visited in place.
struct Node<'s, 'de>(&'s mut LimitScan<'de>);

impl<'de> DeserializeSeed<'de> for Node<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.count_value()?;
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    /// Past its limit, the rest of an array is only counted (not looked into), so that a
    /// huge one is reported as such, with its size, rather than for the values it holds.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let scan = self.0;
        scan.descend()?;
        let limit = scan.limits.array_items;
        let mut count = 0;
        while count < limit {
            scan.path.push(ReadStep::Index(count));
            let item = seq.next_element_seed(Node(scan));
            scan.path.pop();
            if item?.is_none() {
                return Ok(());
            }
            count += 1;
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        scan.measure(count, limit, Measure::Items)
    }

    /// Past its limit, the rest of an object is only counted, like an array's.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let scan = self.0;
        scan.descend()?;
        let limit = scan.limits.object_keys;
        let mut count = 0;
        while count < limit {
            let Some(key) = map.next_key_seed(KeySeed)? else {
                return Ok(());
            };
            scan.path.push(ReadStep::Key(key));
            let value = map.next_value_seed(Node(scan));
            scan.path.pop();
            value?;
            count += 1;
        }
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            count += 1;
        }
        scan.measure(count, limit, Measure::Keys)
    }
}

/// An object key, borrowed from the input when it can be.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_string()))
    }
}
