-- Training (docs/training.md): courses made of ordered modules of ordered
-- lessons (a reading or a quiz), enrolments, the learners' progress as
-- append-only events sent from their phones, and certificates. Money is in
-- US cents.
CREATE TABLE courses (
    id               INTEGER PRIMARY KEY,
    uid              TEXT NOT NULL UNIQUE,
    title            TEXT NOT NULL,
    description      TEXT NOT NULL,
    category         TEXT NOT NULL CHECK (category IN ('farming', 'marketing', 'finance', 'certification', 'climate', 'processing')),
    level            TEXT NOT NULL CHECK (level IN ('beginner', 'intermediate', 'advanced')),
    language         TEXT NOT NULL CHECK (language IN ('en', 'fr', 'sw')),
    instructor_name  TEXT NOT NULL,
    instructor_title TEXT NOT NULL DEFAULT '',
    instructor_bio   TEXT NOT NULL DEFAULT '',
    instructor_photo TEXT,                            -- a picture's hash in the media store
    cover_image      TEXT,                            -- a picture's hash in the media store
    price_cents      INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
    certificate      INTEGER NOT NULL DEFAULT 1,      -- completing it earns a certificate
    tags             TEXT NOT NULL DEFAULT '[]',      -- JSON arrays of short texts
    outcomes         TEXT NOT NULL DEFAULT '[]',      -- "what you'll learn"
    requirements     TEXT NOT NULL DEFAULT '[]',
    published        INTEGER NOT NULL DEFAULT 0,
    rating           REAL NOT NULL DEFAULT 0,         -- mean of the learners' ratings
    rating_count     INTEGER NOT NULL DEFAULT 0,
    download_bytes   INTEGER NOT NULL DEFAULT 0,      -- lessons and their pictures, for "Download for offline"
    search_text      TEXT NOT NULL,                   -- folded title, description and instructor
    version          INTEGER NOT NULL,                -- bumped when the course, a module or a lesson changes
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    deleted_at       TEXT
);
CREATE INDEX courses_version ON courses (version);

CREATE TABLE course_modules (
    id         INTEGER PRIMARY KEY,
    course_id  INTEGER NOT NULL REFERENCES courses (id),
    position   INTEGER NOT NULL,
    title      TEXT NOT NULL
);
CREATE INDEX course_modules_course ON course_modules (course_id, position);

CREATE TABLE course_lessons (
    id         INTEGER PRIMARY KEY,
    module_id  INTEGER NOT NULL REFERENCES course_modules (id),
    position   INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('reading', 'quiz')),
    title      TEXT NOT NULL,
    minutes    INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 600),
    body       TEXT NOT NULL DEFAULT '',              -- a reading's text in the lesson markup
    questions  TEXT NOT NULL DEFAULT '[]',            -- a quiz: JSON [{prompt, choices, answer, explanation}]
    images     TEXT NOT NULL DEFAULT '[]'             -- the picture hashes the body shows
);
CREATE INDEX course_lessons_module ON course_lessons (module_id, position);

-- One per learner and course. `progress` is derived from the events (JSON:
-- completed lessons, quiz results, the last lesson opened, percent) and
-- rewritten, with a new version, whenever an event arrives.
CREATE TABLE enrolments (
    id           INTEGER PRIMARY KEY,
    course_id    INTEGER NOT NULL REFERENCES courses (id),
    user_id      INTEGER NOT NULL REFERENCES users (id),
    status       TEXT NOT NULL CHECK (status IN ('active', 'refunded')),
    price_cents  INTEGER NOT NULL,
    progress     TEXT NOT NULL DEFAULT '{}',
    completed_at TEXT,
    version      INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (user_id, course_id)
);
CREATE INDEX enrolments_user_version ON enrolments (user_id, version);
CREATE INDEX enrolments_course ON enrolments (course_id);

-- What a learner did, as their phones saw it: never changed, never removed.
-- `uid` is made on the phone, so an event sent twice is kept once.
CREATE TABLE progress_events (
    id           INTEGER PRIMARY KEY,
    enrolment_id INTEGER NOT NULL REFERENCES enrolments (id),
    uid          TEXT NOT NULL,
    lesson_id    INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('viewed', 'completed', 'quiz')),
    answers      TEXT,                                -- a quiz attempt: JSON array of chosen choices
    score        INTEGER,                             -- a quiz attempt: percent, graded here
    client_time  TEXT,
    created_at   TEXT NOT NULL,
    UNIQUE (enrolment_id, uid)
);

CREATE TABLE certificates (
    id           INTEGER PRIMARY KEY,
    code         TEXT NOT NULL UNIQUE,                -- random, printed on the certificate
    enrolment_id INTEGER NOT NULL UNIQUE REFERENCES enrolments (id),
    learner_name TEXT NOT NULL,                       -- as they were when it was issued
    course_title TEXT NOT NULL,
    issued_at    TEXT NOT NULL
);

CREATE TABLE course_ratings (
    course_id  INTEGER NOT NULL REFERENCES courses (id),
    user_id    INTEGER NOT NULL REFERENCES users (id),
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (course_id, user_id)
);
