//! Values as they cross the storage seam: SQLite's five kinds, what a query takes
//! ([`ToValue`], [`Params`], `params!`) and what a column is read as ([`FromValue`]).

use crate::model::{Word, blog, cooperative, course, order, payment, price, product, survey, user};

/// A value as it crosses the seam, borrowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRef<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value as it crosses the seam, owned (lists of parameters built at run time).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Null => ValueRef::Null,
            Value::Integer(n) => ValueRef::Integer(*n),
            Value::Real(x) => ValueRef::Real(*x),
            Value::Text(text) => ValueRef::Text(text),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Integer(n)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Real(x)
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::Text(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::Text(text.to_owned())
    }
}

impl From<ValueRef<'_>> for Value {
    fn from(value: ValueRef<'_>) -> Self {
        match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Integer(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(text) => Value::Text(text.to_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        }
    }
}

/// A type a query takes as a parameter.
pub trait ToValue {
    fn to_value(&self) -> ValueRef<'_>;
}

/// A type a row's column is read as.
pub trait FromValue: Sized {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String>;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> ValueRef<'_> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> ValueRef<'_> {
        self.as_ref().map_or(ValueRef::Null, ToValue::to_value)
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        match value {
            ValueRef::Null => Ok(None),
            value => T::from_value(value).map(Some),
        }
    }
}

macro_rules! integers {
    ($($t:ty),+) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> ValueRef<'_> {
                ValueRef::Integer(i64::from(*self))
            }
        }
        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
                match value {
                    ValueRef::Integer(n) => <$t>::try_from(n).map_err(|_| format!("{n} is out of range for {}", stringify!($t))),
                    other => Err(format!("{other:?} is not an integer")),
                }
            }
        }
    )+};
}
integers!(i64, i32, u32, u16, u8, i16, i8);

impl ToValue for usize {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl FromValue for usize {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        usize::try_from(i64::from_value(value)?).map_err(|err| err.to_string())
    }
}

impl ToValue for u64 {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl FromValue for u64 {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        u64::try_from(i64::from_value(value)?).map_err(|err| err.to_string())
    }
}

impl ToValue for bool {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::from(*self))
    }
}

impl FromValue for bool {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        Ok(i64::from_value(value)? != 0)
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Real(*self)
    }
}

impl FromValue for f64 {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        match value {
            ValueRef::Real(x) => Ok(x),
            #[allow(clippy::cast_precision_loss)]
            ValueRef::Integer(n) => Ok(n as f64),
            other => Err(format!("{other:?} is not a number")),
        }
    }
}

impl ToValue for str {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl ToValue for String {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl FromValue for String {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        match value {
            ValueRef::Text(text) => Ok(text.to_owned()),
            other => Err(format!("{other:?} is not text")),
        }
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        match value {
            ValueRef::Blob(bytes) => Ok(bytes.to_vec()),
            ValueRef::Text(text) => Ok(text.as_bytes().to_vec()),
            other => Err(format!("{other:?} is not bytes")),
        }
    }
}

impl ToValue for Value {
    fn to_value(&self) -> ValueRef<'_> {
        self.as_ref()
    }
}

impl ToValue for ValueRef<'_> {
    fn to_value(&self) -> ValueRef<'_> {
        *self
    }
}

impl FromValue for Value {
    fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
        Ok(value.into())
    }
}

/// The model's word-backed enums (roles, statuses, …) are stored as their words.
macro_rules! words {
    ($($t:ty),+ $(,)?) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> ValueRef<'_> {
                ValueRef::Text(self.word())
            }
        }
        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> std::result::Result<Self, String> {
                word(value)
            }
        }
    )+};
}

fn word<T: Word>(value: ValueRef<'_>) -> std::result::Result<T, String> {
    match value {
        ValueRef::Text(text) => T::from_word(text).ok_or_else(|| format!("unknown {} {text:?}", T::NAME)),
        other => Err(format!("{other:?} is not a {}", T::NAME)),
    }
}

words!(
    blog::BlogCategory,
    cooperative::Grade,
    cooperative::MemberRole,
    cooperative::MemberStatus,
    cooperative::Status,
    cooperative::WeighUnit,
    product::Category,
    user::Country,
    course::CourseCategory,
    course::CourseLanguage,
    price::Currency,
    order::Delivery,
    course::EnrolmentStatus,
    course::LessonKind,
    course::Level,
    order::PartStatus,
    order::PaymentMethod,
    payment::PaymentStatus,
    price::PriceUnit,
    product::ProductStatus,
    user::Role,
    price::Source,
    user::Status,
    survey::SurveyStatus,
    product::Unit,
);

/// What a query is given: `params![a, b]`, `[a]`, `[]`, or `params_from_iter(list)`.
pub trait Params {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R;
}

impl Params for &[&dyn ToValue] {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        let values: Vec<ValueRef<'_>> = self.iter().map(|p| p.to_value()).collect();
        f(&values)
    }
}

impl Params for [&dyn ToValue; 0] {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        f(&[])
    }
}

macro_rules! tuples {
    ($(($($name:ident),+))+) => {$(
        impl<$($name: ToValue),+> Params for ($($name,)+) {
            #[allow(non_snake_case)]
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let ($($name,)+) = &self;
                f(&[$($name.to_value()),+])
            }
        }
    )+};
}
tuples!((A)(A, B)(A, B, C)(A, B, C, D)(A, B, C, D, E)(A, B, C, D, E, F)(A, B, C, D, E, F, G)(A, B, C, D, E, F, G, H));

macro_rules! arrays {
    ($($n:literal)+) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let values: Vec<ValueRef<'_>> = self.iter().map(ToValue::to_value).collect();
                f(&values)
            }
        }
        impl<T: ToValue> Params for &[T; $n] {
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let values: Vec<ValueRef<'_>> = self.iter().map(ToValue::to_value).collect();
                f(&values)
            }
        }
    )+};
}
arrays!(1 2 3 4 5 6 7 8);

/// Parameters from a list made at run time.
pub struct ParamsFromIter<I>(I);

pub fn params_from_iter<I>(iter: I) -> ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    ParamsFromIter(iter)
}

impl<I> Params for ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        let items: Vec<I::Item> = self.0.into_iter().collect();
        let values: Vec<ValueRef<'_>> = items.iter().map(ToValue::to_value).collect();
        f(&values)
    }
}

/// `params![a, b, c]`: parameters of different types, numbered from 1.
#[macro_export]
macro_rules! params {
    () => { $crate::db::sql::param_list(&[]) };
    ($($param:expr),+ $(,)?) => { $crate::db::sql::param_list(&[$($crate::db::sql::param(&$param)),+]) };
}
pub use crate::params;

#[doc(hidden)]
pub fn param<T: ToValue>(value: &T) -> &dyn ToValue {
    value
}

#[doc(hidden)]
pub fn param_list<'a, const N: usize>(values: &'a [&'a dyn ToValue; N]) -> &'a [&'a dyn ToValue] {
    values
}
