//! A person's courses on a basic phone (docs/ussd.md): each course and how far they
//! are, and the next lesson's text by SMS (the app has the pictures and quizzes).

use super::menu::{Chosen, Ctx, Next, Screen, Show, chosen, listed};
use crate::db::market::{self, Following};
use crate::db::{courses, sms};
use crate::domain::courses::markup;
use crate::error::ApiResult;
use crate::{platform::clock, platform::gsm7};

const PER_PAGE: usize = 4;

fn following(ctx: &Ctx<'_>) -> ApiResult<Vec<Following>> {
    let Some(person) = &ctx.person else { return Ok(Vec::new()) };
    Ok(market::courses_of(ctx.conn, person.id)?)
}

/// "My training": the courses, or why there are none.
pub fn arrive(ctx: &Ctx<'_>) -> ApiResult<Next> {
    Ok(if following(ctx)?.is_empty() {
        Next::End(ctx.text("training.none"))
    } else {
        Next::Open(Screen::Courses { page: 0 })
    })
}

pub fn courses_show(ctx: &mut Ctx<'_>, page: usize) -> ApiResult<Show> {
    let all = following(ctx)?;
    let (shown, more) = listed(ctx, &all, |c| c.course_id.to_string(), page, PER_PAGE);
    Ok(Show {
        text: ctx.text("training.title"),
        choices: shown
            .iter()
            .map(|c| match c {
                Some(c) => format!("{} {}%", gsm7::shorten(&c.title, 28), c.progress.percent),
                None => ctx.text("gone"),
            })
            .collect(),
        more,
    })
}

pub fn courses_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match chosen(ctx, answer) {
        Chosen::NextPage => Next::Open(Screen::Courses { page: page + 1 }),
        Chosen::Key(key) => match key.parse::<i64>() {
            Ok(id) if following(ctx)?.iter().any(|c| c.course_id == id) => Next::Open(Screen::Course { id }),
            _ => Next::Again(ctx.text("training.gone")),
        },
        Chosen::Wrong(why) => Next::Again(why),
        Chosen::Unknown => Next::Again(ctx.text("list_changed")),
    })
}

/// Where a person is in a course they follow.
struct Place {
    course: Following,
    done: usize,
    total: usize,
    /// The first lesson not done, in course order.
    next: Option<courses::LessonRow>,
}

fn place(ctx: &Ctx<'_>, id: i64) -> ApiResult<Option<Place>> {
    let Some(course) = following(ctx)?.into_iter().find(|c| c.course_id == id) else { return Ok(None) };
    let lessons: Vec<courses::LessonRow> =
        courses::modules(ctx.conn, id, true)?.into_iter().flat_map(|m| m.lessons).collect();
    let done = lessons.iter().filter(|l| course.progress.completed.contains(&l.id)).count();
    let next = lessons.iter().find(|l| !course.progress.completed.contains(&l.id)).cloned();
    Ok(Some(Place { course, done, total: lessons.len(), next }))
}

pub fn course_show(ctx: &mut Ctx<'_>, id: i64) -> ApiResult<Show> {
    let Some(Place { course, done, total, next }) = place(ctx, id)? else {
        return Ok(Show::ask(ctx.text("training.none")));
    };
    let title = gsm7::shorten(&course.title, 40);
    // The lesson offered is the one sent, also when another is done meanwhile (in the app).
    let fresh: Vec<String> = next.iter().map(|lesson| lesson.id.to_string()).collect();
    let (keys, _) = ctx.choices_shown(fresh, false);
    let offered = keys.first().and_then(|k| k.parse::<i64>().ok()).and_then(|k| lesson_of(ctx, id, k));
    Ok(match offered {
        None => Show::ask(ctx.format("training.finished", &[("title", &title)])),
        Some(lesson) => Show {
            text: ctx.format(
                "training.course",
                &[
                    ("title", &title),
                    ("done", &done.to_string()),
                    ("total", &total.to_string()),
                    ("lesson", &gsm7::shorten(&lesson.title, 40)),
                ],
            ),
            choices: vec![ctx.text("training.send")],
            more: false,
        },
    })
}

/// Lesson `lesson_id` of course `course_id`, if it is still there.
fn lesson_of(ctx: &Ctx<'_>, course_id: i64, lesson_id: i64) -> Option<courses::LessonRow> {
    let modules = courses::modules(ctx.conn, course_id, true).ok()?;
    modules.into_iter().flat_map(|m| m.lessons).find(|l| l.id == lesson_id)
}

pub fn course_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    let lesson = match chosen(ctx, answer) {
        Chosen::Key(key) => key.parse::<i64>().ok().and_then(|k| lesson_of(ctx, id, k)),
        Chosen::Wrong(_) if ctx.shown_nothing() => return Ok(Next::Again(ctx.text("order.nothing"))),
        Chosen::Wrong(why) => return Ok(Next::Again(why)),
        Chosen::NextPage | Chosen::Unknown => return Ok(Next::Again(ctx.text("list_changed"))),
    };
    let Some(lesson) = lesson else { return Ok(Next::Again(ctx.text("training.gone"))) };
    ctx.write_once(
        |ctx| {
            let title = gsm7::shorten(&gsm7::fold(&lesson.title), 40);
            let text = format!("{title}: {}", gsm7::fold(&markup::plain(&lesson.body)));
            if let Err(refused) = ctx.ask_for_sms()? {
                return Ok(refused);
            }
            sms::enqueue(ctx.conn, ctx.phone, &gsm7::cut(&text, gsm7::SEGMENT), &clock::now())?;
            Ok(Next::End(ctx.format("training.sent", &[("lesson", &title)])))
        },
        || Next::End(String::new()),
    )
}
