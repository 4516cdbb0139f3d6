//! A news or blog post (docs/news.md): the spec's fields and categories.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::course::CourseLanguage;

/// The spec's fixed list, written as it shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// Minutes to read `html` at 200 words a minute (at least one): what a post says when its
/// admin left the read time empty, in the reader's language ("5 min de lecture"), where
/// the spec's English "5 min read" default read the same in every language.
pub fn read_minutes(html: &str) -> i64 {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let words = i64::try_from(text.split_whitespace().count()).unwrap_or(i64::MAX);
    ((words + 199) / 200).max(1)
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn a_post_takes_a_minute_for_every_two_hundred_words() {
        assert_eq!(super::read_minutes(""), 1);
        assert_eq!(super::read_minutes(&"<p>mot</p> ".repeat(200)), 1);
        assert_eq!(super::read_minutes(&"<p>mot</p> ".repeat(201)), 2);
        assert_eq!(super::read_minutes("<p>a<b>b</b></p>"), 1);
    }
}
