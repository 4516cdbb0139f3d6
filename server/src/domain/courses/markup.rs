//! The lesson markup (docs/training.md): a small, line-based text format
//! that the PWA draws as React elements (never as HTML), so a lesson can
//! carry no script. `## ` and `### ` start headings, `- ` and `1. ` list
//! items, `![caption](sha256)` on its own line shows a picture from the
//! media store, `**bold**` inside a line; blank lines separate paragraphs.

/// The picture hashes a body shows, in order, each once.
pub fn pictures(body: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in body.lines() {
        if let Some(hash) = picture(line.trim()) {
            if !found.iter().any(|h| h == hash) {
                found.push(hash.to_owned());
            }
        }
    }
    found
}

/// `![caption](hash)` → hash.
fn picture(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("![")?;
    let (_, rest) = rest.split_once("](")?;
    let hash = rest.strip_suffix(')')?;
    (hash.len() == 64 && hash.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))).then_some(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_picture_lines_only() {
        let hash = "a".repeat(64);
        let body = format!(
            "## Spacing\n![Rows 75 cm apart]({hash})\nText with ![inline]({hash}) is not a picture\n![again]({hash})\n![bad](../etc/passwd)"
        );
        assert_eq!(pictures(&body), vec![hash]);
    }
}
