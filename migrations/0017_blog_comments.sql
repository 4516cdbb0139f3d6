-- Comments under news posts (docs/news.md): plain text from signed-in people,
-- replies one level deep, likes (one per person), hidden by admins or deleted
-- by their author (both keep the row, so replies keep their place). `uid` is
-- made on the phone: a comment written offline and sent twice is one comment.
CREATE TABLE blog_comments (
    id         INTEGER PRIMARY KEY,
    uid        TEXT NOT NULL UNIQUE,
    blog_id    INTEGER NOT NULL REFERENCES blogs (id),
    parent_id  INTEGER REFERENCES blog_comments (id),
    user_id    INTEGER NOT NULL REFERENCES users (id),
    body       TEXT NOT NULL,
    likes      INTEGER NOT NULL DEFAULT 0,
    hidden_at  TEXT,
    hidden_by  INTEGER REFERENCES users (id),
    deleted_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX blog_comments_post ON blog_comments (blog_id, parent_id, id);
CREATE INDEX blog_comments_author ON blog_comments (user_id, created_at);

CREATE TABLE blog_comment_likes (
    comment_id INTEGER NOT NULL REFERENCES blog_comments (id),
    user_id    INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (comment_id, user_id)
);
