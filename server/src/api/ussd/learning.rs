//! A person's courses on a basic phone (docs/ussd.md): each course and how far they
//! are, and the next lesson's text by SMS (the app has the pictures and quizzes).

use super::menu::{Ctx, Next, Picked, Screen, Show, choice, page_of, pick};
use crate::db::market::{self, Following};
use crate::db::{courses, sms};
use crate::domain::courses::markup;
use crate::error::ApiResult;
use crate::{outbound::gsm7, platform::clock};

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
    let (shown, more) = page_of(&all, page, PER_PAGE);
    Ok(Show {
        text: ctx.text("training.title"),
        choices: shown.iter().map(|c| format!("{} {}%", gsm7::cut(&c.title, 28), c.progress.percent)).collect(),
        more,
    })
}

pub fn courses_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match pick(ctx, answer, &following(ctx)?, page, PER_PAGE) {
        Picked::NextPage => Next::Open(Screen::Courses { page: page + 1 }),
        Picked::Item(course) => Next::Open(Screen::Course { id: course.course_id }),
        Picked::Wrong(why) => Next::Again(why),
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
    let title = gsm7::cut(&course.title, 40);
    Ok(match next {
        None => Show::ask(ctx.format("training.finished", &[("title", &title)])),
        Some(lesson) => Show {
            text: ctx.format(
                "training.course",
                &[
                    ("title", &title),
                    ("done", &done.to_string()),
                    ("total", &total.to_string()),
                    ("lesson", &gsm7::cut(&lesson.title, 40)),
                ],
            ),
            choices: vec![ctx.text("training.send")],
            more: false,
        },
    })
}

pub fn course_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    let Some(Place { next: Some(lesson), .. }) = place(ctx, id)? else {
        return Ok(Next::Again(ctx.text("order.nothing")));
    };
    if let Err(why) = choice(ctx, answer, 1) {
        return Ok(Next::Again(why));
    }
    ctx.write_once(
        |ctx| {
            let title = gsm7::cut(&gsm7::fold(&lesson.title), 40);
            let text = format!("{title}: {}", gsm7::fold(&markup::plain(&lesson.body)));
            if let Err(refused) = ctx.ask_for_sms() {
                return Ok(refused);
            }
            sms::enqueue(ctx.conn, ctx.phone, &gsm7::cut(&text, gsm7::SEGMENT), &clock::now())?;
            Ok(Next::End(ctx.format("training.sent", &[("lesson", &title)])))
        },
        || Next::End(String::new()),
    )
}
