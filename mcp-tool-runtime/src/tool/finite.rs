//! Non-finite floats in a structured result. serde_json writes `NaN` and the infinities as
//! `null`, which breaks the output schema's `type: number` (or reads as "none" where the
//! schema allows `null`): a bug of the server, never something to send on.
//!
//! Only a result whose JSON holds a `null` can hide one, so only such a result is serialized
//! a second time, into [`Finder`], which writes nothing and stops at the first non-finite
//! float with its path.

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::Value;

/// A structured result holds a non-finite float at `path` (empty for the result itself).
#[derive(Debug)]
pub(super) struct NonFiniteOutput {
    path: String,
    value: f64,
}

impl fmt::Display for NonFiniteOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "the structured result itself".to_string()
        } else {
            format!("`{}` of the structured result", self.path)
        };
        write!(
            f,
            "{at} is {}, which JSON cannot carry (serde_json would send null)",
            self.value
        )
    }
}

impl std::error::Error for NonFiniteOutput {}

/// The first non-finite float of `output`, whose JSON is `json`; `None` without a search
/// when `json` holds no `null`.
pub(super) fn non_finite<T: Serialize + ?Sized>(
    output: &T,
    json: &Value,
) -> Option<NonFiniteOutput> {
    if !holds_null(json) {
        return None;
    }
    let mut finder = Finder { path: Vec::new() };
    match output.serialize(&mut finder) {
        Err(Found(Some(found))) => Some(found),
        _ => None,
    }
}

fn holds_null(value: &Value) -> bool {
    // A member is looked at here and only an array or object is called into: P1's call
    // 10,970 instructions before, 10,894 after (callgrind, `target/release/profile ours_valid`).
    let member_holds_null = |member: &Value| match member {
        Value::Null => true,
        Value::Array(_) | Value::Object(_) => holds_null(member),
        _ => false,
    };
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(member_holds_null),
        Value::Object(members) => members.values().any(member_holds_null),
        _ => false,
    }
}

/// Why [`Finder`] stopped: a non-finite float, or (`None`) a `Serialize` impl's own error.
#[derive(Debug)]
struct Found(Option<NonFiniteOutput>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-finite float")
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Self(None)
    }
}

/// A segment of the path to the value being serialized.
enum Segment {
    Field(&'static str),
    Key(String),
    Index(usize),
}

/// A serializer that writes nothing and fails at the first non-finite float.
struct Finder {
    path: Vec<Segment>,
}

impl Finder {
    fn float(&self, value: f64) -> Result<(), Found> {
        if value.is_finite() {
            return Ok(());
        }
        let mut path = String::new();
        for segment in &self.path {
            let key = match segment {
                Segment::Field(name) => *name,
                Segment::Key(key) => key.as_str(),
                Segment::Index(index) => {
                    path.push_str(&format!("[{index}]"));
                    continue;
                }
            };
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
        }
        Err(Found(Some(NonFiniteOutput { path, value })))
    }

    fn within<T: Serialize + ?Sized>(&mut self, segment: Segment, value: &T) -> Result<(), Found> {
        self.path.push(segment);
        let result = value.serialize(&mut *self);
        self.path.pop();
        result
    }
}

/// One compound value (a list, a map, a struct) being searched, with its next index and the
/// key of the map entry whose value comes next.
struct Compound<'f> {
    finder: &'f mut Finder,
    next: usize,
    key: Option<String>,
}

impl<'f> Compound<'f> {
    fn new(finder: &'f mut Finder) -> Self {
        Self {
            finder,
            next: 0,
            key: None,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        let index = self.next;
        self.next += 1;
        self.finder.within(Segment::Index(index), value)
    }

    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Found> {
        self.finder.within(Segment::Field(name), value)
    }
}

macro_rules! finite_scalars {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, _: $ty) -> Result<(), Found> {
            Ok(())
        })*
    };
}

impl<'f> ser::Serializer for &'f mut Finder {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Compound<'f>;
    type SerializeTuple = Compound<'f>;
    type SerializeTupleStruct = Compound<'f>;
    type SerializeTupleVariant = Compound<'f>;
    type SerializeMap = Compound<'f>;
    type SerializeStruct = Compound<'f>;
    type SerializeStructVariant = Compound<'f>;

    finite_scalars!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char,
        serialize_str: &str, serialize_bytes: &[u8], serialize_unit_struct: &'static str
    );

    fn serialize_f32(self, value: f32) -> Result<(), Found> {
        self.float(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), Found> {
        self.float(value)
    }

    fn serialize_none(self) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Found> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Found> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        self.within(Segment::Field(variant), value)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'f>, Found> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple(self, _: usize) -> Result<Compound<'f>, Found> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'f>, Found> {
        Ok(Compound::new(self))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'f>, Found> {
        self.path.push(Segment::Field(variant));
        Ok(Compound::new(self))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'f>, Found> {
        Ok(Compound::new(self))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'f>, Found> {
        Ok(Compound::new(self))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'f>, Found> {
        self.path.push(Segment::Field(variant));
        Ok(Compound::new(self))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        self.element(value)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        self.element(value)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        self.element(value)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        self.element(value)
    }

    fn end(self) -> Result<(), Found> {
        self.finder.path.pop();
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Found> {
        // A float key is a float too; any other key names the entry's value in the path.
        key.serialize(&mut *self.finder)?;
        self.key = Some(key.serialize(KeyText).unwrap_or_else(|_| "…".into()));
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Found> {
        let key = self.key.take().unwrap_or_default();
        self.finder.within(Segment::Key(key), value)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        self.field(name, value)
    }

    fn end(self) -> Result<(), Found> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Found;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Found> {
        self.field(name, value)
    }

    fn end(self) -> Result<(), Found> {
        self.finder.path.pop();
        Ok(())
    }
}

/// A map key as the text of a path segment: strings, integers and the like; any other key
/// is an error the caller replaces with a placeholder.
struct KeyText;

macro_rules! key_as_text {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, value: $ty) -> Result<String, Found> {
            Ok(value.to_string())
        })*
    };
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Found;
    type SerializeSeq = Impossible<String, Found>;
    type SerializeTuple = Impossible<String, Found>;
    type SerializeTupleStruct = Impossible<String, Found>;
    type SerializeTupleVariant = Impossible<String, Found>;
    type SerializeMap = Impossible<String, Found>;
    type SerializeStruct = Impossible<String, Found>;
    type SerializeStructVariant = Impossible<String, Found>;

    key_as_text!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_char: char, serialize_str: &str
    );

    fn serialize_bytes(self, _: &[u8]) -> Result<String, Found> {
        Err(Found(None))
    }

    fn serialize_none(self) -> Result<String, Found> {
        Err(Found(None))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, Found> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<String, Found> {
        Err(Found(None))
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Found> {
        Err(Found(None))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Found> {
        Ok(variant.to_string())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Found> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Found> {
        Err(Found(None))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Found> {
        Err(Found(None))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Found> {
        Err(Found(None))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Found> {
        Err(Found(None))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Found> {
        Err(Found(None))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Found> {
        Err(Found(None))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Found> {
        Err(Found(None))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Found> {
        Err(Found(None))
    }
}
