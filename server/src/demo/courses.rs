//! The demo courses (`demo/courses.json`), loaded by `--demo` through the
//! admin's domain functions, once (also into a demo database made before
//! courses existed).

use crate::db::{meta, uploads, users};
use crate::demo::pictures;
use crate::domain::courses;
use crate::error::{ApiResult, AppError};
use crate::model::course::CourseCategory;
use crate::outbound::media;
use crate::state::AppState;

const COURSES_SEEDED_KEY: &str = "demo_courses_seeded";

/// The six demo courses (`demo/courses.json`): their text, drawn covers and
/// a figure two lessons share; published, through the admin's domain
/// functions. The demo farmer has started the French marketing course.
pub async fn seed(state: &AppState) -> ApiResult<bool> {
    if state.db.read(|conn| Ok(meta::get(conn, COURSES_SEEDED_KEY)?)).await?.is_some() {
        return Ok(false);
    }
    let courses: Vec<serde_json::Value> =
        serde_json::from_str(include_str!("../../demo/courses.json")).map_err(AppError::internal)?;
    let mut pictures = std::collections::HashMap::new();
    for name in ["field", "market", "coins", "certificate", "hills", "sacks", "rows"] {
        let scene = pictures::Scene::parse(name).ok_or_else(|| AppError::internal("unknown scene"))?;
        let bytes = pictures::scene(scene);
        let size = bytes.len() as i64;
        pictures.insert(name, (state.media.store_image(bytes, media::PHOTO_SIZES).await?, size));
    }
    let media = state.media.clone();
    state
        .db
        .write(move |tx| {
            if meta::get(tx, COURSES_SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            let Some(admin) = users::find_by_email(tx, "admin@mavuno.demo")? else { return Ok(false) };
            let now = crate::platform::clock::now();
            for (hash, size) in pictures.values() {
                uploads::insert(tx, hash, admin.id, *size, &now)?;
            }
            let picture = |name: &str| pictures.get(name).map(|(hash, _)| hash.clone()).unwrap_or_default();
            for demo in &courses {
                let mut fields = demo.clone();
                let cover = picture(demo["cover"].as_str().unwrap_or_default());
                let object = fields.as_object_mut().ok_or_else(|| AppError::internal("a course is an object"))?;
                for key in ["cover", "modules", "instructor"] {
                    object.remove(key);
                }
                object.insert("cover_image".into(), cover.into());
                for (from, to) in
                    [("name", "instructor_name"), ("title", "instructor_title"), ("bio", "instructor_bio")]
                {
                    object.insert(to.into(), demo["instructor"][from].clone());
                }
                let input: courses::CourseInput = serde_json::from_value(fields).map_err(AppError::internal)?;
                let course = courses::create(tx, &admin, &input)?;
                for module in demo["modules"].as_array().into_iter().flatten() {
                    let module_id =
                        courses::add_module(tx, &admin, course.id, module["title"].as_str().unwrap_or_default())?;
                    for lesson in module["lessons"].as_array().into_iter().flatten() {
                        let quiz = lesson.get("quiz");
                        let body =
                            lesson["body"].as_str().unwrap_or_default().replace("picture:rows", &picture("rows"));
                        let input = courses::LessonInput {
                            title: lesson["title"].as_str().unwrap_or_default().to_owned(),
                            kind: if quiz.is_some() { "quiz" } else { "reading" }.to_owned(),
                            minutes: lesson["minutes"].as_i64().unwrap_or(5),
                            body,
                            questions: quiz
                                .map(|q| serde_json::from_value(q.clone()))
                                .transpose()
                                .map_err(AppError::internal)?
                                .unwrap_or_default(),
                        };
                        courses::add_lesson(tx, &admin, module_id, &input)?;
                    }
                }
                let publish = courses::CourseInput { published: Some(true), ..Default::default() };
                courses::update(tx, &admin, course.id, &publish)?;
                crate::api::courses::refresh_download_size(tx, &media, course.id)?;
            }
            seed_learning(tx)?;
            meta::set(tx, COURSES_SEEDED_KEY, &now)?;
            Ok(true)
        })
        .await
}

/// The demo farmer enrolled in the marketing course, its first lesson read.
fn seed_learning(tx: &crate::db::Connection) -> ApiResult<()> {
    let Some(farmer) = users::find_by_email(tx, "farmer@mavuno.demo")? else { return Ok(()) };
    let found = crate::db::courses::list_all(tx)?.into_iter().find(|c| c.fields.category == CourseCategory::Marketing);
    let Some(course) = found else { return Ok(()) };
    courses::enrol(tx, &farmer, courses::CourseKey::Id(course.id))?;
    let first = crate::db::courses::lesson_kinds(tx, course.id)?.first().map(|(id, _)| *id);
    if let Some(lesson_id) = first {
        for (uid, kind) in [("demo-viewed", "viewed"), ("demo-completed", "completed")] {
            let event = courses::ProgressInput { event_uid: uid, lesson_id, kind, answers: None, client_time: None };
            courses::record_progress(tx, &farmer, courses::CourseKey::Id(course.id), &event)?;
        }
    }
    Ok(())
}
