//! The items of a large input's long lists, checked by `validator` a part at a time.
//!
//! `validator` keeps the errors of every failing item of a list (its `Vec<T>` collects them
//! all) until it has checked the whole list: about 1.6 KB an item, 98 MB for 60,000 lines
//! that each break a custom rule, which no schema states and so no walk sees. Here each long
//! list, wherever it is in the arguments (except within another's items, which that one's
//! parts carry), is handed to the tool's own reading [`LIST_PART_ITEMS`] items at a time, the
//! other long lists left empty. Each item's own problems are kept, at their place in the
//! whole list, and those apart from every long list; those of a list itself or of what
//! holds it (a custom rule of the list, a struct-level rule) depend on the whole list,
//! which a part is not, and are left to `validator`'s check of the whole.

use serde_json::{Map, Value};
use validator::ValidationErrors;

use crate::error::{ArgPath, Found, PathSegment, Violation};
use crate::input::spec::InputSpec;
use crate::input::validator::violations;
use crate::input::wire::declared_order;
use crate::large::LIST_PART_ITEMS;
use crate::schema::SchemaDoc;

/// The tool's own reading of arguments: its type's `validator` errors, `None` when they hold
/// or do not deserialize.
pub(super) type Check<'c> = dyn FnMut(&Value) -> Option<ValidationErrors> + 'c;

/// The problems of the items of the long lists of `arguments`, found a part at a time, and
/// of what lies outside those lists and does not contain one, found with the first part.
pub(super) fn item_problems(arguments: &Value, spec: &InputSpec, check: &mut Check<'_>) -> Found {
    let mut found = Found::default();
    let mut long = Vec::new();
    find_long_lists(arguments, &mut Vec::new(), &mut long);
    let paths: Vec<&ArgPath> = long.iter().map(|(path, _)| path).collect();
    let mut first = true;
    for (list, items) in &long {
        for (part, chunk) in items.chunks(LIST_PART_ITEMS).enumerate() {
            let trial = with_part(arguments, &mut Vec::new(), &paths, list, chunk);
            let Some(errors) = check(&trial) else {
                continue;
            };
            let offset = part * LIST_PART_ITEMS;
            let part_found = violations(&errors, spec, &trial);
            for violation in part_found.kept {
                if let Some(path) = item_path(&violation.path, list, offset) {
                    found.push(Violation { path, ..violation });
                } else if first && apart_from_lists(&violation.path, &paths) {
                    found.push(violation);
                }
            }
            first = false;
            // Past the kept ones a part leaves only a tally, which cannot tell its items'
            // problems from the list's: it is counted whole. Its items would have to break
            // ten rules each to get there.
            found.past.absorb(part_found.past);
        }
    }
    let doc = SchemaDoc::new(&spec.schema);
    found
        .kept
        .sort_by_cached_key(|violation| declared_order(&doc, &violation.path));
    found
}

/// Whether a problem at `path` is the same whichever part of the long lists (at `lists`) a
/// reading holds: it is neither in one nor about one or what contains one (a rule of the
/// list, of the struct holding it, of the whole input).
fn apart_from_lists(path: &ArgPath, lists: &[&ArgPath]) -> bool {
    let path = path.segments();
    !lists.iter().any(|list| {
        let list = list.segments();
        list.starts_with(path) || path.starts_with(list)
    })
}

/// A step of a path into the arguments, borrowed from them while they are searched.
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// Adds to `long` every list of more than [`LIST_PART_ITEMS`] items in `value` (at the steps
/// `at`), with its items; not those within such a list's items, which its parts carry.
fn find_long_lists<'v>(
    value: &'v Value,
    at: &mut Vec<Step<'v>>,
    long: &mut Vec<(ArgPath, &'v [Value])>,
) {
    match value {
        Value::Array(items) if items.len() > LIST_PART_ITEMS => {
            let path = at.iter().fold(ArgPath::root(), |path, step| match step {
                Step::Key(name) => path.key(*name),
                Step::Index(index) => path.index(*index),
            });
            long.push((path, items));
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                at.push(Step::Index(index));
                find_long_lists(item, at, long);
                at.pop();
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                at.push(Step::Key(name));
                find_long_lists(member, at, long);
                at.pop();
            }
        }
        _ => {}
    }
}

/// A copy of `value` (at the steps `at`) with `chunk` in place of the list at `list` and the
/// other long lists (`long`) empty.
fn with_part(
    value: &Value,
    at: &mut Vec<PathSegment>,
    long: &[&ArgPath],
    list: &ArgPath,
    chunk: &[Value],
) -> Value {
    if list.segments() == at.as_slice() {
        return Value::Array(chunk.to_vec());
    }
    if long.iter().any(|path| path.segments() == at.as_slice()) {
        return Value::Array(Vec::new());
    }
    if !long.iter().any(|path| path.segments().starts_with(at)) {
        return value.clone();
    }
    match value {
        Value::Array(items) => Value::Array(
            (items.iter().enumerate())
                .map(|(index, item)| {
                    at.push(PathSegment::Index(index));
                    let copy = with_part(item, at, long, list, chunk);
                    at.pop();
                    copy
                })
                .collect(),
        ),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(name, member)| {
                    at.push(PathSegment::Key(name.clone()));
                    let copy = with_part(member, at, long, list, chunk);
                    at.pop();
                    (name.clone(), copy)
                })
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

/// `path` at its place in the whole list at `list`, if it is in an item of that list read
/// from a part of it that starts at item `offset`.
fn item_path(path: &ArgPath, list: &ArgPath, offset: usize) -> Option<ArgPath> {
    let depth = list.segments().len();
    let segments = path.segments();
    let within = segments.starts_with(list.segments())
        && matches!(segments.get(depth), Some(PathSegment::Index(_)));
    within.then(|| path.with_index_moved(depth, offset))
}
