//! A news or blog post (docs/news.md): the spec's fields and categories.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::course::CourseLanguage;

/// The spec's fixed list, written as it shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum BlogCategory {
    General,
    Tourism,
    Conservation,
    Community,
    Technology,
    Education,
}
string_enum!(BlogCategory {
    General => "General",
    Tourism => "Tourism",
    Conservation => "Conservation",
    Community => "Community",
    Technology => "Technology",
    Education => "Education",
});

/// The spec's default read time.
pub const DEFAULT_READ_TIME: &str = "5 min read";

/// What an admin writes; `full_content` is sanitised HTML.
#[derive(Debug, Clone, PartialEq)]
pub struct BlogFields {
    pub title: String,
    pub description: String,
    pub full_content: String,
    pub author: String,
    pub category: BlogCategory,
    pub read_time: String,
    pub language: CourseLanguage,
    /// A picture's hash in the media store.
    pub image: Option<String>,
    /// The pictures inside `full_content`, by hash.
    pub pictures: Vec<String>,
    pub published: bool,
}
