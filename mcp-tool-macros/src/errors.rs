//! Collects every error of one expansion instead of stopping at the first.

use proc_macro2::TokenStream;
use std::fmt::Display;

/// The errors of one expansion, combined into one `syn::Error` in the order reported.
#[derive(Default)]
pub(crate) struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    /// Adds an error after the ones already reported.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(existing) => existing.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// Reports `message` over `tokens`, from their first to their last token.
    pub(crate) fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Reports `message` at one span.
    pub(crate) fn at(&mut self, span: proc_macro2::Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Runs a parse step, keeping its error and going on.
    pub(crate) fn collect<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    /// True when nothing was reported.
    pub(crate) fn is_empty(&self) -> bool {
        self.combined.is_none()
    }

    /// One `compile_error!` per error, or nothing.
    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        self.combined
            .as_ref()
            .map(syn::Error::to_compile_error)
            .unwrap_or_default()
    }
}
