//! The error half of a tool's `Result` return type, read from the tokens. Two kinds need the
//! macro: `anyhow::Error` and `Box<dyn Error + Send + Sync>` are not `std::error::Error`, and
//! a `From` impl for them would overlap the runtime's blanket one (E0119), so the generated
//! code masks them itself; a bare `String` or `&str` error would only be masked silently, so
//! it is refused with what to write instead.

use syn::{GenericArgument, PathArguments, Type, TypeParamBound};

/// What the error type of a returned `Result` asks of the macro.
pub(crate) enum ErrorType<'a> {
    /// Anything else: the runtime's `IntoToolOutput` takes it (or says why not).
    Converted,
    /// `anyhow::Result<T>`, `Result<T, anyhow::Error>` or `Result<T, Box<dyn Error + …>>`:
    /// masked by the generated code; `ok` is `T`.
    Masked { ok: &'a Type },
    /// `Result<T, String>` or `Result<T, &str>`: refused, at the error type.
    Unsupported(&'a Type),
}

/// Reads the error type of `output`, if it is a `Result`.
pub(crate) fn classify(output: &Type) -> ErrorType<'_> {
    let Type::Path(path) = output else {
        return ErrorType::Converted;
    };
    let segments = &path.path.segments;
    let Some(last) = segments.last().filter(|last| last.ident == "Result") else {
        return ErrorType::Converted;
    };
    let types = type_arguments(&last.arguments);
    let from_anyhow = segments.iter().any(|segment| segment.ident == "anyhow");
    match types.as_slice() {
        [ok] if from_anyhow => ErrorType::Masked { ok },
        [ok, error] if is_dyn_error(error) => ErrorType::Masked { ok },
        [ok, error] if is_anyhow_error(error) => ErrorType::Masked { ok },
        [_, error] if is_text(error) => ErrorType::Unsupported(error),
        _ => ErrorType::Converted,
    }
}

fn type_arguments(arguments: &PathArguments) -> Vec<&Type> {
    let PathArguments::AngleBracketed(arguments) = arguments else {
        return Vec::new();
    };
    arguments
        .args
        .iter()
        .filter_map(|argument| match argument {
            GenericArgument::Type(ty) => Some(ty),
            _ => None,
        })
        .collect()
}

/// `anyhow::Error`, under any path that names the crate.
fn is_anyhow_error(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    let segments = &path.path.segments;
    segments.len() >= 2
        && segments.iter().any(|segment| segment.ident == "anyhow")
        && segments.last().is_some_and(|last| last.ident == "Error")
}

/// `Box<dyn Error + …>`, with `Error` under any path.
fn is_dyn_error(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    let Some(boxed) = path.path.segments.last().filter(|last| last.ident == "Box") else {
        return false;
    };
    let [Type::TraitObject(object)] = type_arguments(&boxed.arguments)[..] else {
        return false;
    };
    object.bounds.iter().any(|bound| match bound {
        TypeParamBound::Trait(bound) => bound
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "Error"),
        _ => false,
    })
}

/// `String` or `&str`.
fn is_text(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) => {
            matches!(&*reference.elem, Type::Path(path) if path.path.is_ident("str"))
        }
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "String" && last.arguments.is_empty()),
        _ => false,
    }
}
