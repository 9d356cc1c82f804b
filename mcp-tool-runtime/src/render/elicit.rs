//! Sentences about asking the user through the client (elicitation), for a tool whose
//! question could not be asked or answered.

/// A call made in-process has no client, so no user to ask.
pub(crate) const NO_CLIENT_TO_ASK: &str =
    "This call has no client, so the tool cannot ask the user for input.";

/// The client did not declare `capability` ("form elicitation", "sampling", "roots").
pub(crate) fn capability_not_declared(capability: &str) -> String {
    let whom = match capability {
        "sampling" => "ask the model",
        "roots" => "read the client's roots",
        _ => "ask the user for input",
    };
    format!("The client does not support {capability}, so the tool cannot {whom}.")
}

/// The client accepted with content that does not fit the form.
pub(crate) fn unusable_answer(detail: &str) -> String {
    format!("The user's answer did not fit the requested form: {detail}.")
}

/// A 2026-07-28 call that asked the client for input: replaced by the round's
/// `InputRequiredResult`, so only middleware sees it.
pub(crate) const WAITING_FOR_INPUT: &str =
    "The tool asked the client for input; the call continues when the client answers.";
