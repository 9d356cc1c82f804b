//! Sentences about a tool's questions to the client (elicitation, sampling, roots): one
//! that could not be asked or answered, and a 2026-07-28 retry whose sealed state does not
//! open.

/// A call made in-process has no client, so no user to ask.
pub(crate) const NO_CLIENT_TO_ASK: &str =
    "This call has no client, so the tool cannot ask the user for input.";

/// The client did not declare elicitation in `mode` (`form` or `URL`).
pub(crate) fn elicitation_not_declared(mode: &str) -> String {
    format!(
        "The client does not support {mode} elicitation, so the tool cannot ask the user for input."
    )
}

/// The client did not declare sampling.
pub(crate) const SAMPLING_NOT_DECLARED: &str =
    "The client does not support sampling, so the tool cannot ask the model.";

/// The client did not declare roots.
pub(crate) const ROOTS_NOT_DECLARED: &str =
    "The client does not support roots, so the tool cannot read the client's roots.";

/// The client accepted with content that does not fit the form.
pub(crate) fn unusable_answer(detail: &str) -> String {
    format!("The user's answer did not fit the requested form: {detail}.")
}

/// A 2026-07-28 call that asked the client for input: replaced by the round's
/// `InputRequiredResult`, so only middleware sees it.
pub(crate) const WAITING_FOR_INPUT: &str =
    "The tool asked the client for input; the call continues when the client answers.";

/// A 2026-07-28 retry whose `requestState` does not open: altered, expired, or from another
/// call (`why` is the codec's reason). A JSON-RPC -32602 message.
pub(crate) fn tampered_state(why: &str) -> String {
    format!(
        "Invalid params: the requestState was not issued for this call ({why}). Send it back \
         exactly as the InputRequiredResult gave it, with the same tool and arguments, or call \
         again without requestState and inputResponses to start over."
    )
}
