//! The violations of one call as they are found: the first ones in full, the rest only
//! tallied. A call of 100,000 bad items would otherwise build 100,000 records of a few
//! hundred bytes each, some 40 MiB, for an answer that spells out 20 of them and sums up the
//! rest.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::violation::{ArgPath, Violation};

/// How many violations a call keeps in full: far more than an answer spells out, so that
/// ordering them and merging in the `validator` rules still pick the first ones.
pub(crate) const KEPT_VIOLATIONS: usize = 1_000;

/// How many places of the tallied violations are named; a summary names three at most.
const TALLIED_PLACES: usize = 4;

/// How many tallied violations are remembered by a fingerprint, 8 bytes each, so that a
/// problem both the schema and `validator` find is counted once (see [`Found::add_new`]).
/// Only inputs under the large size (`input::is_large`, 10,000 values) are checked by both,
/// and they hold fewer problems than this.
const REMEMBERED_PAST: usize = 20_000;

/// What is known of the violations past the kept ones: what a summary of them says.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    /// How many there are.
    pub(crate) count: usize,
    /// Their kinds of problem ([`ViolationKind::problem`](super::ViolationKind::problem)),
    /// each once.
    pub(crate) problems: Vec<&'static str>,
    /// Where they are, each as wide as a summary names it ([`ArgPath::place`]), each once,
    /// the first few.
    pub(crate) places: Vec<ArgPath>,
    /// Whether they are in more places than `places` names.
    pub(crate) more_places: bool,
}

impl Tally {
    fn add(&mut self, violation: &Violation) {
        self.count += 1;
        self.note_problem(violation.kind.problem());
        self.note_place(violation.path.place());
    }

    /// Adds what `other` tallied.
    pub(crate) fn absorb(&mut self, other: Tally) {
        self.count += other.count;
        for problem in other.problems {
            self.note_problem(problem);
        }
        self.more_places |= other.more_places;
        for place in other.places {
            self.note_place(place);
        }
    }

    fn note_problem(&mut self, problem: &'static str) {
        if !self.problems.contains(&problem) {
            self.problems.push(problem);
        }
    }

    fn note_place(&mut self, place: ArgPath) {
        if self.places.contains(&place) {
            return;
        }
        if self.places.len() < TALLIED_PLACES {
            self.places.push(place);
        } else {
            self.more_places = true;
        }
    }
}

/// The violations found in one call: the first [`KEPT_VIOLATIONS`] in full, the rest in
/// `past`.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// The violations kept in full, in the order found.
    pub(crate) kept: Vec<Violation>,
    /// The ones past those.
    pub(crate) past: Tally,
    /// The fingerprints of the first [`REMEMBERED_PAST`] of those.
    past_seen: Fingerprints,
}

impl Found {
    /// Adds `violation`; returns where it is kept, if it is.
    pub(crate) fn push(&mut self, violation: Violation) -> Option<usize> {
        if self.kept.len() < KEPT_VIOLATIONS {
            self.kept.push(violation);
            Some(self.kept.len() - 1)
        } else {
            self.past_seen.remember_violation(&violation);
            self.past.add(&violation);
            None
        }
    }

    /// Adds everything `other` found.
    pub(crate) fn append(&mut self, other: Found) {
        for violation in other.kept {
            self.push(violation);
        }
        self.past.absorb(other.past);
        self.past_seen.remember_all(other.past_seen);
    }

    /// Adds what `more` found and this has not (the same path and problem), as when the
    /// schema and `validator` both looked at one input. Past the remembered violations of
    /// `more`, only a count is left, and a double there is counted.
    pub(crate) fn add_new(&mut self, more: Found) {
        let mut known: HashSet<u64> = self
            .kept
            .iter()
            .map(fingerprint)
            .chain(self.past_seen.set.iter().copied())
            .collect();
        let Found {
            kept,
            mut past,
            past_seen,
        } = more;
        let repeated = past_seen.set.intersection(&known).count();
        past.count = past.count.saturating_sub(repeated);
        self.past.absorb(past);
        for print in past_seen.set.difference(&known) {
            self.past_seen.remember(*print);
        }
        for violation in kept {
            if known.insert(fingerprint(&violation)) {
                self.push(violation);
            }
        }
    }

    /// How many violations were found, kept or tallied.
    pub(crate) fn total(&self) -> usize {
        self.kept.len() + self.past.count
    }

    /// Whether nothing was found.
    pub(crate) fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

/// A violation's path and kind of problem as 64 bits: two violations that differ in either
/// share a fingerprint with odds of 1 in 2^64, and a call has at most some thousands.
fn fingerprint(violation: &Violation) -> u64 {
    // Fixed keys, so that every `Found` of the process computes the same fingerprints.
    let mut hasher = DefaultHasher::new();
    violation.path.hash(&mut hasher);
    violation.kind.problem().hash(&mut hasher);
    hasher.finish()
}

/// The fingerprints of violations, up to [`REMEMBERED_PAST`].
#[derive(Debug, Default)]
struct Fingerprints {
    set: HashSet<u64>,
}

impl Fingerprints {
    fn remember_violation(&mut self, violation: &Violation) {
        if self.set.len() < REMEMBERED_PAST {
            self.set.insert(fingerprint(violation));
        }
    }

    fn remember(&mut self, print: u64) {
        if self.set.len() < REMEMBERED_PAST {
            self.set.insert(print);
        }
    }

    fn remember_all(&mut self, other: Fingerprints) {
        for print in other.set {
            self.remember(print);
        }
    }
}

impl FromIterator<Violation> for Found {
    fn from_iter<I: IntoIterator<Item = Violation>>(violations: I) -> Self {
        let mut found = Found::default();
        for violation in violations {
            found.push(violation);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Expected, JsonType, ViolationKind};

    fn wrong_type(path: ArgPath) -> Violation {
        let expected = Expected::Types(vec![JsonType::String]);
        Violation::new(path, ViolationKind::TypeMismatch { expected }, None)
    }

    #[test]
    fn past_the_kept_violations_only_their_count_kinds_and_places_are_kept() {
        let mut found = Found::default();
        for index in 0..KEPT_VIOLATIONS + 5 {
            found.push(wrong_type(ArgPath::argument("tags").index(index)));
        }
        found.push(Violation::new(
            ArgPath::argument("query"),
            ViolationKind::Missing {
                expected: Expected::Types(vec![JsonType::String]),
            },
            None,
        ));
        assert_eq!(found.kept.len(), KEPT_VIOLATIONS);
        assert_eq!(found.total(), KEPT_VIOLATIONS + 6);
        assert_eq!(found.past.problems, ["type_mismatch", "missing"]);
        let places: Vec<String> = found.past.places.iter().map(ToString::to_string).collect();
        assert_eq!(places, ["tags[0]", "query"]);
        assert!(!found.past.more_places);
    }

    /// Two findings of `count` wrong types each: the first at `a[0]`, `a[1]`, …, the second
    /// where `second` puts them.
    fn two_findings(count: usize, second: impl Fn(usize) -> ArgPath) -> (Found, Found) {
        let first = (0..count)
            .map(|index| wrong_type(ArgPath::argument("a").index(index)))
            .collect();
        let other = (0..count).map(|index| wrong_type(second(index))).collect();
        (first, other)
    }

    #[test]
    fn a_violation_both_findings_hold_is_added_once_kept_or_tallied() {
        let (mut schema, mut rules) = two_findings(KEPT_VIOLATIONS + 500, |index| {
            ArgPath::argument("a").index(index)
        });
        rules.push(wrong_type(ArgPath::argument("b")));
        schema.add_new(rules);
        assert_eq!(schema.total(), KEPT_VIOLATIONS + 501);
        let places: Vec<String> = schema.past.places.iter().map(ToString::to_string).collect();
        assert_eq!(places, ["a[0]", "b"]);
    }

    #[test]
    fn appending_keeps_the_bound_and_adds_up_the_tallies() {
        let (mut first, second) = two_findings(KEPT_VIOLATIONS + 1, |index| {
            ArgPath::argument(format!("b{index}"))
        });
        first.append(second);
        assert_eq!(first.kept.len(), KEPT_VIOLATIONS);
        assert_eq!(first.total(), 2 * (KEPT_VIOLATIONS + 1));
        assert_eq!(first.past.places.len(), TALLIED_PLACES);
        assert!(first.past.more_places);
    }
}
