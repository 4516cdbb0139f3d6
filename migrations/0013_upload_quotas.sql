-- Upload quotas count each account's uploads, in all and in the last hour
-- (docs/security.md, Disk).
CREATE INDEX uploads_by_uploader ON uploads (uploaded_by, created_at);
