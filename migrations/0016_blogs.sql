-- News and blog (docs/news.md): posts written by admins, their content HTML
-- sanitised on the server before it is stored. Published posts are public.
CREATE TABLE blogs (
    id           INTEGER PRIMARY KEY,
    uid          TEXT NOT NULL UNIQUE,
    title        TEXT NOT NULL,
    description  TEXT NOT NULL,
    full_content TEXT NOT NULL,              -- sanitised HTML
    author       TEXT NOT NULL,
    category     TEXT NOT NULL DEFAULT 'General'
                 CHECK (category IN ('General', 'Tourism', 'Conservation', 'Community', 'Technology', 'Education')),
    read_time    TEXT NOT NULL DEFAULT '5 min read',
    language     TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'fr', 'sw')),
    image        TEXT,                       -- a picture's hash in the media store
    pictures     TEXT NOT NULL DEFAULT '[]', -- hashes of the pictures inside the content (JSON)
    search_text  TEXT NOT NULL,              -- folded title, description and author
    published    INTEGER NOT NULL DEFAULT 0,
    published_at TEXT,
    created_by   INTEGER REFERENCES users (id),
    version      INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    deleted_at   TEXT
);
CREATE INDEX blogs_listed ON blogs (published, deleted_at, published_at);
CREATE INDEX blogs_version ON blogs (version);
