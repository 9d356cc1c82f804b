//! The tools' state as a handler receives it: owned, so that a sync tool can take it to the
//! blocking pool, and reaching a part of a larger state when the tool belongs to that part.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A tool's state, shared: cheap to clone, dereferences to `S`, and `'static`, so that a sync
/// tool's call can move it onto another thread. The server holds one; each call gets a clone.
///
/// ```
/// use mcp_tool_runtime::tool::Shared;
///
/// let counter = Shared::new(41);
/// let on_another_thread = counter.clone();
/// let answer = std::thread::spawn(move || *on_another_thread + 1).join().ok();
/// assert_eq!(answer, Some(42));
/// ```
pub struct Shared<S>(Arc<dyn Reach<S>>);

/// How a `Shared` reaches its state: the state itself, or a part of a larger one.
trait Reach<S>: Send + Sync {
    fn reach(&self) -> &S;
}

/// A state that is the server's whole state.
struct Whole<S>(S);

impl<S: Send + Sync> Reach<S> for Whole<S> {
    fn reach(&self) -> &S {
        &self.0
    }
}

/// A state that is a part of a larger one, as `ToolDef::for_part_of` picks it out.
struct Part<T, S> {
    whole: Shared<T>,
    part: fn(&T) -> &S,
}

impl<T, S> Reach<S> for Part<T, S> {
    fn reach(&self) -> &S {
        (self.part)(&self.whole)
    }
}

impl<S: Send + Sync + 'static> Shared<S> {
    /// Shares `state`.
    pub fn new(state: S) -> Self {
        Self(Arc::new(Whole(state)))
    }
}

impl<T: 'static> Shared<T> {
    /// The part of this state that `part` picks out, shared with it.
    pub(crate) fn part<S: 'static>(&self, part: fn(&T) -> &S) -> Shared<S> {
        Shared(Arc::new(Part {
            whole: self.clone(),
            part,
        }))
    }
}

impl<S> Deref for Shared<S> {
    type Target = S;

    fn deref(&self) -> &S {
        self.0.reach()
    }
}

impl<S> Clone for Shared<S> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<S: fmt::Debug> fmt::Debug for Shared<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}
