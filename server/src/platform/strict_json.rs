//! JSON read as the API documents it: an object where a record is expected. serde reads
//! a struct from an array too (`[null, null]` fills its fields in order), so a client's
//! `PATCH /admin/courses/4 '[null,null]'` would pass for an empty change; here a struct
//! or a map is read from an object only, at every depth. A body is parsed once into a
//! `serde_json::Value` (bounded by the request's size limit), then read through
//! `Strict`, which hands each nested value on through itself.

use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Value;

/// Reads `T` from `value`, refusing an array where `T` (or anything in it) expects an
/// object. The error names where it went wrong (`user.first_name: invalid type: ...`).
/// A text that holds a NUL character, wherever `T` reads one, is `Unreadable::Nul`.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, Unreadable> {
    serde_path_to_error::deserialize(Strict(value)).map_err(|err| {
        let path = err.path().to_string();
        let err = err.into_inner().to_string();
        if err.starts_with(NUL) {
            Unreadable::Nul
        } else if path == "." {
            Unreadable::Shape(err)
        } else {
            Unreadable::Shape(format!("{path}: {err}"))
        }
    })
}

struct Strict<'a>(&'a Value);

/// What a text read through `Strict` may not hold: it could not be stored.
const NUL: &str = "a text holds a NUL character";

/// Why a body could not be read as `T`.
#[derive(Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// A text it reads holds a NUL character.
    Nul,
    /// Another shape than `T`'s, said with where (`user.first_name: invalid type: ...`).
    Shape(String),
}

/// `value`'s text, refused when it holds a NUL character (a `String` read from it).
fn text(value: &Value) -> Result<&Value, serde_json::Error> {
    match value {
        Value::String(text) if text.contains('\0') => Err(de::Error::custom(NUL)),
        other => Ok(other),
    }
}

enum Whole {
    Signed(i64),
    Unsigned(u64),
}

/// A number written with a point but no fraction (`4.0`), as an integer: JSON Schema
/// calls it one, so a client generated from the API document may send it for an id or
/// a quantity. (A fraction, or past what a 64-bit integer holds, stays a float and is
/// refused where an integer is expected.)
fn whole(number: &serde_json::Number) -> Option<Whole> {
    let float = number.as_f64().filter(|f| number.is_f64() && f.fract() == 0.0)?;
    match float {
        f if (-9.2e18..9.2e18).contains(&f) => Some(Whole::Signed(f as i64)),
        f if (0.0..1.8e19).contains(&f) => Some(Whole::Unsigned(f as u64)),
        _ => None,
    }
}

fn expected_object(value: &Value) -> serde_json::Error {
    de::Error::invalid_type(unexpected(value), &"an object")
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("a number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

impl<'de> de::Deserializer<'de> for Strict<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.iter())),
            Value::Object(fields) => visitor.visit_map(Fields { fields: fields.iter(), value: None }),
            Value::Number(number) => match whole(number) {
                Some(Whole::Signed(whole)) => visitor.visit_i64(whole),
                Some(Whole::Unsigned(whole)) => visitor.visit_u64(whole),
                None => de::Deserializer::deserialize_any(number, visitor),
            },
            // Not checked here: JSON read as any JSON (a mutation's `args`) is read by its own
            // reader later, where one bad value refuses only what holds it.
            scalar => de::Deserializer::deserialize_any(scalar, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(fields) => visitor.visit_map(Fields { fields: fields.iter(), value: None }),
            other => Err(expected_object(other)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.iter())),
            other => de::Deserializer::deserialize_seq(other, visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(variant) => visitor.visit_enum(variant.as_str().into_deserializer()),
            // `{"Variant": content}`: serde_json's own reading (its content is not read strictly).
            other => de::Deserializer::deserialize_enum(other, name, variants, visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    // Scalars: `serde_json::Value`'s own reading, which has nothing nested to hand on.
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_bool(self.0, visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_f32(self.0, visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_f64(self.0, visitor)
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_str(text(self.0)?, visitor)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_string(text(self.0)?, visitor)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        de::Deserializer::deserialize_unit(self.0, visitor)
    }

    // Integers through `deserialize_any`, which reads `4.0` as 4 (`whole`).
    forward_to_deserialize_any! {
        i8 i16 i32 i64 u8 u16 u32 u64 i128 u128 char bytes byte_buf unit_struct identifier
    }
}

struct Items<'a>(std::slice::Iter<'a, Value>);

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = serde_json::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Self::Error> {
        self.0.next().map(|item| seed.deserialize(Strict(item))).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Fields<'a> {
    fields: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let Some((key, value)) = self.fields.next() else { return Ok(None) };
        self.value = Some(value);
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        let value = self.value.take().ok_or_else(|| de::Error::custom("a value asked for before its key"))?;
        seed.deserialize(Strict(value))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    struct Change {
        title: Option<String>,
        price: Option<f64>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Envelope {
        user: Change,
        tags: Vec<String>,
        #[serde(default)]
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Farmer,
        Buyer,
    }

    #[test]
    fn a_whole_number_with_a_point_is_an_integer() {
        #[derive(Debug, Deserialize, PartialEq)]
        struct Line {
            quantity: i64,
            price: f64,
        }
        let read: Line = from_value(&json!({"quantity": 4.0, "price": 2.0})).unwrap();
        assert_eq!(read, Line { quantity: 4, price: 2.0 });
        let read: Line = from_value(&json!({"quantity": -7779.0, "price": 2.5})).unwrap();
        assert_eq!(read, Line { quantity: -7779, price: 2.5 });
        let big: u64 = from_value(&json!(1.2e19)).unwrap();
        assert_eq!(big, 12_000_000_000_000_000_000);
        for refused in [json!({"quantity": 4.5, "price": 1}), json!({"quantity": 1e300, "price": 1})] {
            let Unreadable::Shape(err) = from_value::<Line>(&refused).unwrap_err() else { panic!("{refused}") };
            assert!(err.starts_with("quantity: invalid type: floating point"), "{err}");
        }
    }

    #[test]
    fn objects_are_read_as_serde_reads_them() {
        let read: Envelope =
            from_value(&json!({"user": {"title": "Beans", "price": 2}, "tags": ["a"], "kind": "buyer"})).unwrap();
        assert_eq!(
            read,
            Envelope {
                user: Change { title: Some("Beans".into()), price: Some(2.0) },
                tags: vec!["a".into()],
                kind: Some(Kind::Buyer)
            }
        );
        let value: Value = from_value(&json!([1, {"a": null}])).unwrap();
        assert_eq!(value, json!([1, {"a": null}]));
        let _: Kind = from_value(&json!("farmer")).unwrap();
    }

    #[test]
    fn an_array_where_an_object_is_expected_is_refused_at_any_depth() {
        let shape = |value: Value| match from_value::<Envelope>(&value) {
            Err(Unreadable::Shape(err)) => err,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            from_value::<Change>(&json!([null, null])).unwrap_err(),
            Unreadable::Shape("invalid type: sequence, expected an object".into())
        );
        assert_eq!(
            shape(json!({"user": [null, null], "tags": []})),
            "user: invalid type: sequence, expected an object"
        );
        let wrong = shape(json!({"user": {"price": "x"}, "tags": []}));
        assert!(wrong.starts_with("user.price: invalid type: string"), "{wrong}");
    }

    #[test]
    fn a_text_read_with_a_nul_character_is_refused_and_one_ignored_or_untyped_is_not() {
        let nul = |value: Value| from_value::<Envelope>(&value).unwrap_err() == Unreadable::Nul;
        assert!(nul(json!({"user": {"title": "a\0b"}, "tags": []})));
        assert!(nul(json!({"user": {}, "tags": ["ok", "\0"]})));
        let value: Value = from_value(&json!({"free": "\0"})).unwrap();
        assert_eq!(value["free"], "\0", "read as any JSON, it is left to what reads it");
        let ignored: Envelope = from_value(&json!({"user": {}, "tags": [], "extra": "\0"})).unwrap();
        assert_eq!(ignored.tags, Vec::<String>::new());
    }
}
