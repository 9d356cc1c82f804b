//! The structure the quick read (`quick`) steps over, tallied: the commas, colons and
//! opening brackets outside strings, which bound what the limit pass (`input::limits`) would
//! count ([`SizeBound`]). A body within the limits by those counts is read once before rmcp
//! reads it, not twice. Screening a 36 KiB call of 3,000 strings took 1,432,661 instructions
//! before and 377,312 after; a 24 KiB call of 12,000 numbers 2,923,981 and 842,249
//! (callgrind, `endpoint::screen` in a loop; the quick read has been made faster since).

use crate::input::SizeBound;

/// What of a body's structure, outside strings, bounds the sizes the limit pass counts.
#[derive(Clone, Copy, Default)]
pub(super) struct Tally {
    /// The commas between the items of arrays.
    pub(super) item_commas: usize,
    /// The commas between the members of objects.
    pub(super) key_commas: usize,
    /// The colons and opening brackets of arrays: with the commas between items, what each
    /// value but the root follows.
    pub(super) leads: usize,
}

impl Tally {
    pub(super) fn bound(self) -> SizeBound {
        SizeBound {
            values: 1 + self.leads + self.item_commas,
            items: 1 + self.item_commas,
            keys: 1 + self.key_commas,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InputLimits;
    // The tally is the quick read's: its tests read bodies with it.
    use super::super::quick::{quick_request, read};

    /// The bound the quick read tallies of `body`.
    fn tallied(body: &str) -> SizeBound {
        let (_, tally) = read::<true>(body.as_bytes()).unwrap_or_else(|| panic!("read: {body}"));
        tally.bound()
    }

    /// The values, the largest array and the largest object of `body`, as the limit pass
    /// counts them when nothing is over.
    fn counted(body: &str) -> SizeBound {
        fn walk(value: &serde_json::Value, counted: &mut SizeBound) {
            counted.values += 1;
            match value {
                serde_json::Value::Array(items) => {
                    counted.items = counted.items.max(items.len());
                    items.iter().for_each(|item| walk(item, counted));
                }
                serde_json::Value::Object(members) => {
                    counted.keys = counted.keys.max(members.len());
                    members.values().for_each(|member| walk(member, counted));
                }
                _ => {}
            }
        }
        let value = serde_json::from_str(body).expect("JSON");
        let mut counted = SizeBound {
            values: 0,
            items: 0,
            keys: 0,
        };
        walk(&value, &mut counted);
        counted
    }

    #[test]
    fn the_bound_is_never_below_what_the_limit_pass_counts() {
        let bodies = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":42}}}"#,
            // Commas, colons and brackets inside strings and escaped keys are not structure.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s,:[":"a,b:[c]{d}\",","k\"\u00e9":[[],{},[1,[2,{"a":[3,4,5]}]]],"e":{"f":{"g":{"h":[1,2,3,4,5,6,7]}}}}}}"#,
            // Arguments nested in arguments, and `_meta` beside them.
            r#"{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2025-11-25"},"name":"x","arguments":{"arguments":{"arguments":[{"params":[1,2]},{"x":null,"y":[],"z":{}}]}}}}"#,
            "{ \"jsonrpc\" : \"2.0\" , \"id\" : 2 , \"method\" : \"tools/list\" , \"params\" : { \"cursor\" : \"a , b\" } }",
        ];
        for body in bodies {
            let bound = tallied(body);
            let counted = counted(body);
            assert!(
                bound.values >= counted.values,
                "{bound:?} {counted:?}: {body}"
            );
            assert!(
                bound.items >= counted.items,
                "{bound:?} {counted:?}: {body}"
            );
            assert!(bound.keys >= counted.keys, "{bound:?} {counted:?}: {body}");
            // Limits just below a count find something, which the bound never admits.
            let limits = [
                (counted.values > 1).then(|| InputLimits::default().max_values(counted.values - 1)),
                (counted.items > 0)
                    .then(|| InputLimits::default().max_array_items(counted.items - 1)),
                (counted.keys > 0)
                    .then(|| InputLimits::default().max_object_keys(counted.keys - 1)),
            ];
            for limits in limits.into_iter().flatten() {
                assert!(
                    limits.check_bytes(body.as_bytes()).is_some(),
                    "{limits:?}: {body}"
                );
                assert!(!limits.admits(bound), "{limits:?}: {body}");
            }
            assert!(InputLimits::default().admits(bound), "{body}");
        }
    }

    #[test]
    fn the_bound_counts_the_structure_outside_strings() {
        let bound = tallied;
        let plain = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_user","arguments":{"user_id":42}}}"#;
        // Seven colons: eight values; four commas between members: five keys at most.
        let expected = SizeBound {
            values: 8,
            items: 1,
            keys: 5,
        };
        assert_eq!(bound(plain), expected);
        assert_eq!(bound(&plain.replace("42", r#"",,,:::[[[{{{""#)), expected);
        let nested = plain.replace("42", "[[1,2],[]]");
        // Three brackets and two commas between items more (the empty array counts one).
        let expected = SizeBound {
            values: 13,
            items: 3,
            keys: 5,
        };
        assert_eq!(bound(&nested), expected);
        assert_eq!(counted(&nested).values, 12);
        // Many items and few keys, or the reverse, are told apart.
        let numbers = format!("[{}]", vec!["1"; 20_000].join(","));
        let bound = bound(&plain.replace("42", &numbers));
        assert_eq!((bound.items, bound.keys), (20_000, 5));
        assert!(InputLimits::default().admits(bound));
    }

    #[test]
    fn a_body_is_surely_within_the_limits_by_its_length_or_its_tally() {
        let body = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"tags":[1,2,3,4]}}}"#;
        let within = |limits: InputLimits| quick_request(body.as_bytes(), &limits).map(|r| r.1);
        let tight = InputLimits::default().max_array_items(3);
        assert!(tight.check_bytes(body.as_bytes()).is_some());
        assert_eq!(within(tight), Some(false));
        assert_eq!(within(tight.max_array_items(4)), Some(true));
        // Too short to hold more values than the limit: not tallied, and within.
        assert_eq!(
            within(InputLimits::default().max_values(body.len())),
            Some(true)
        );
        // Twelve values: seven member values, four items and the root.
        assert_eq!(within(InputLimits::default().max_values(12)), Some(true));
        let fewer = InputLimits::default().max_values(11);
        assert!(fewer.check_bytes(body.as_bytes()).is_some());
        assert_eq!(within(fewer), Some(false));
    }
}
