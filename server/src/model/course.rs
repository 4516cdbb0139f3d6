//! Courses (docs/training.md): what a course, a module and a lesson are made
//! of, and how a learner's progress is derived from their events.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CourseCategory {
    /// "Farming Techniques"
    Farming,
    /// "Marketing & Sales"
    Marketing,
    /// "Financial Management"
    Finance,
    Certification,
    /// "Climate Smart"
    Climate,
    /// "Value Addition"
    Processing,
}
string_enum!(CourseCategory {
    Farming => "farming",
    Marketing => "marketing",
    Finance => "finance",
    Certification => "certification",
    Climate => "climate",
    Processing => "processing",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Beginner,
    Intermediate,
    Advanced,
}
string_enum!(Level { Beginner => "beginner", Intermediate => "intermediate", Advanced => "advanced" });

/// The language a course is taught in (one of the PWA's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CourseLanguage {
    En,
    Fr,
    Sw,
}
string_enum!(CourseLanguage { En => "en", Fr => "fr", Sw => "sw" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum LessonKind {
    /// Text with headings, lists and pictures (the lesson markup, docs/training.md).
    Reading,
    /// Multiple-choice questions with explanations.
    Quiz,
}
string_enum!(LessonKind { Reading => "reading", Quiz => "quiz" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum EnrolmentStatus {
    Active,
    /// Paid back (within 30 days): the lessons are closed again.
    Refunded,
}
string_enum!(EnrolmentStatus { Active => "active", Refunded => "refunded" });

/// What an admin says about a course. Money is in US cents; pictures are hashes in the media store.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseFields {
    pub title: String,
    pub description: String,
    pub category: CourseCategory,
    pub level: Level,
    pub language: CourseLanguage,
    pub instructor_name: String,
    pub instructor_title: String,
    pub instructor_bio: String,
    pub instructor_photo: Option<String>,
    pub cover_image: Option<String>,
    pub price: i64,
    pub certificate: bool,
    pub tags: Vec<String>,
    pub outcomes: Vec<String>,
    pub requirements: Vec<String>,
    pub published: bool,
}

impl CourseFields {
    /// What search looks through: title, description and instructor, folded.
    pub fn search_text(&self) -> String {
        super::product::fold(&format!("{} {} {}", self.title, self.description, self.instructor_name))
    }
}

/// One multiple-choice question of a quiz.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Question {
    pub prompt: String,
    /// 2 to 6 (`domain::courses`).
    #[schema(min_items = 2, max_items = 6)]
    pub choices: Vec<String>,
    /// The index of the right choice, among at most 6.
    #[schema(maximum = 5)]
    pub answer: usize,
    /// Shown after answering, right or wrong.
    #[serde(default)]
    pub explanation: String,
}

/// A quiz is passed at this score (percent) or more.
pub const PASS_MARK: i64 = 70;

/// A certificate's code as it is kept: codes are printed in capitals with dashes
/// (`ABCD-EFGH-JKLM`); people type them any way.
pub fn certificate_code(typed: &str) -> String {
    let plain: String = typed.chars().filter(char::is_ascii_alphanumeric).take(12).collect::<String>().to_uppercase();
    if plain.len() == 12 { format!("{}-{}-{}", &plain[0..4], &plain[4..8], &plain[8..12]) } else { plain }
}

/// The percent of `questions` that `answers` gets right (an answer per question, in order).
pub fn grade(questions: &[Question], answers: &[usize]) -> i64 {
    if questions.is_empty() {
        return 100;
    }
    let right = questions.iter().zip(answers).filter(|(q, a)| q.answer == **a).count();
    (right as i64 * 100) / questions.len() as i64
}

/// A quiz's results for one learner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct QuizResult {
    /// The best score (percent).
    pub best: i64,
    pub attempts: i64,
    pub passed: bool,
}

/// A learner's progress in a course, derived from their events (stored as JSON on the enrolment).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default)]
pub struct Progress {
    /// Lessons done: readings marked complete, quizzes passed (in course order).
    pub completed: Vec<i64>,
    /// Quiz lesson id → results.
    pub quizzes: BTreeMap<i64, QuizResult>,
    /// The lesson opened last (where "Continue" resumes).
    pub last_lesson_id: Option<i64>,
    /// Completed lessons out of all the course's lessons (0 to 100).
    pub percent: i64,
}

/// What a phone recorded, as the server keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    Viewed,
    Completed,
    /// A quiz attempt and its graded score.
    Quiz(i64),
}

/// A progress event as read back to derive progress, in the order the learner made them.
#[derive(Debug, Clone)]
pub struct Event {
    pub lesson_id: i64,
    pub kind: EventKind,
}

impl Progress {
    /// Progress from `events` (in the order they happened) over the course's
    /// `lessons` (id, kind, in course order). Events of lessons the course no
    /// longer has are ignored, so two phones' events in any order merge into
    /// the same progress.
    pub fn derive(lessons: &[(i64, LessonKind)], events: &[Event]) -> Progress {
        let mut progress = Progress::default();
        let mut done = std::collections::BTreeSet::new();
        for event in events {
            let Some((_, kind)) = lessons.iter().find(|(id, _)| *id == event.lesson_id) else {
                continue;
            };
            progress.last_lesson_id = Some(event.lesson_id);
            match (&event.kind, kind) {
                (EventKind::Completed, LessonKind::Reading) => {
                    done.insert(event.lesson_id);
                }
                (EventKind::Quiz(score), LessonKind::Quiz) => {
                    let result = progress.quizzes.entry(event.lesson_id).or_default();
                    result.attempts += 1;
                    result.best = result.best.max(*score);
                    result.passed = result.best >= PASS_MARK;
                    if result.passed {
                        done.insert(event.lesson_id);
                    }
                }
                _ => {}
            }
        }
        progress.completed = lessons.iter().map(|(id, _)| *id).filter(|id| done.contains(id)).collect();
        progress.percent =
            if lessons.is_empty() { 0 } else { progress.completed.len() as i64 * 100 / lessons.len() as i64 };
        progress
    }

    /// Every lesson done.
    pub fn is_complete(&self, lesson_count: usize) -> bool {
        lesson_count > 0 && self.completed.len() == lesson_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(answer: usize) -> Question {
        Question {
            prompt: "?".into(),
            choices: vec!["a".into(), "b".into(), "c".into()],
            answer,
            explanation: String::new(),
        }
    }

    #[test]
    fn grades_by_the_right_choices() {
        let questions = [q(0), q(1), q(2)];
        assert_eq!(grade(&questions, &[0, 1, 2]), 100);
        assert_eq!(grade(&questions, &[0, 1, 0]), 66);
        assert_eq!(grade(&questions, &[0]), 33);
    }

    #[test]
    fn progress_counts_completed_readings_and_passed_quizzes_in_course_order() {
        let lessons = [(1, LessonKind::Reading), (2, LessonKind::Quiz), (3, LessonKind::Reading)];
        let ev = |lesson_id, kind| Event { lesson_id, kind };
        let events = [
            ev(3, EventKind::Completed),
            ev(2, EventKind::Quiz(50)),
            ev(2, EventKind::Quiz(80)),
            ev(2, EventKind::Completed), // a quiz is done by passing, not by a tick
            ev(99, EventKind::Completed),
            ev(1, EventKind::Viewed),
        ];
        let progress = Progress::derive(&lessons, &events);
        assert_eq!(progress.completed, vec![2, 3]);
        assert_eq!(progress.quizzes[&2], QuizResult { best: 80, attempts: 2, passed: true });
        assert_eq!(progress.last_lesson_id, Some(1));
        assert_eq!(progress.percent, 66);
        assert!(!progress.is_complete(3));
    }
}
