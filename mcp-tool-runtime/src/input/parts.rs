//! The items of a large input's long lists, checked by `validator` a part at a time.
//!
//! `validator` keeps the errors of every failing item of a list (its `Vec<T>` collects them
//! all) until it has checked the whole list: about 1.6 KB an item, 98 MB for 60,000 lines
//! that each break a custom rule, which no schema states and so no walk sees. Here a long
//! list (a top-level argument, or a field of an `#[arg(input)]` type) is handed to the
//! tool's own reading [`CHECKED_ITEMS`] items at a time, the other long lists left empty,
//! and only each item's own problems are kept, at their place in the whole list: those of
//! the list itself or of the whole input (a custom rule of the list, a struct-level rule)
//! depend on the whole list, which a part is not.

use serde_json::{Map, Value};
use validator::ValidationErrors;

use super::spec::InputSpec;
use super::validator::violations;
use crate::error::{Found, PathSegment, Violation};

/// How many items of a list are checked at a time: few enough that a part's problems stay
/// within the violations kept in full (`Found`), unless its items break ten rules each.
const CHECKED_ITEMS: usize = 100;

/// The tool's own reading of arguments: its type's `validator` errors, `None` when they hold
/// or do not deserialize.
pub(super) type Check<'c> = dyn FnMut(&Value) -> Option<ValidationErrors> + 'c;

/// The problems of the items of the long lists of `arguments`, found a part at a time.
pub(super) fn item_problems(arguments: &Value, spec: &InputSpec, check: &mut Check<'_>) -> Found {
    let mut found = Found::default();
    let Value::Object(members) = arguments else {
        return found;
    };
    let long: Vec<&String> = members
        .iter()
        .filter(|(_, value)| {
            value
                .as_array()
                .is_some_and(|items| items.len() > CHECKED_ITEMS)
        })
        .map(|(name, _)| name)
        .collect();
    for list in &long {
        let Some(Value::Array(items)) = members.get(list.as_str()) else {
            continue;
        };
        for (part, chunk) in items.chunks(CHECKED_ITEMS).enumerate() {
            let trial = with_part(members, &long, list, chunk);
            let Some(errors) = check(&trial) else {
                continue;
            };
            let offset = part * CHECKED_ITEMS;
            let part_found = violations(&errors, spec, &trial);
            for violation in part_found.kept {
                if let Some(item) = of_item(violation, list, offset) {
                    found.push(item);
                }
            }
            // Past the kept ones a part leaves only a tally, which cannot tell its items'
            // problems from the list's: it is counted whole. Its items would have to break
            // ten rules each to get there.
            found.past.absorb(part_found.past);
        }
    }
    found
}

/// `members` with `chunk` in place of the list `list` and the other `long` lists empty.
fn with_part(members: &Map<String, Value>, long: &[&String], list: &str, chunk: &[Value]) -> Value {
    let part = members.iter().map(|(name, value)| {
        let value = if name == list {
            Value::Array(chunk.to_vec())
        } else if long.contains(&name) {
            Value::Array(Vec::new())
        } else {
            value.clone()
        };
        (name.clone(), value)
    });
    Value::Object(part.collect())
}

/// `violation` if it is about an item of `list` (or within one), at the item's place in the
/// whole list, whose part starts at `offset`.
fn of_item(violation: Violation, list: &str, offset: usize) -> Option<Violation> {
    let [PathSegment::Key(name), PathSegment::Index(_), ..] = violation.path.segments() else {
        return None;
    };
    (name == list).then(|| Violation {
        path: violation.path.with_index_moved(1, offset),
        ..violation
    })
}
