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

/// A body as plain sentences, for a text message: headings end with a full stop,
/// list items become sentences, bold marks and pictures go.
pub fn plain(body: &str) -> String {
    let mut sentences: Vec<String> = Vec::new();
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty() && picture(l).is_none()) {
        let text = line.trim_start_matches('#').trim_start_matches("- ").trim();
        let text =
            text.split_once(". ").filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit())).map_or(text, |(_, t)| t);
        let text = text.replace("**", "");
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let ends = text.ends_with(['.', '!', '?', ':']);
        sentences.push(if ends { text.to_owned() } else { format!("{text}.") });
    }
    sentences.join(" ")
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
    fn a_body_reads_as_plain_sentences() {
        let hash = "a".repeat(64);
        let body = format!(
            "## Start with the soil\nGood yields start **before** planting.\n\n![A field]({hash})\n- Rows 75 cm apart\n1. Plant deep"
        );
        assert_eq!(
            plain(&body),
            "Start with the soil. Good yields start before planting. Rows 75 cm apart. Plant deep."
        );
    }

    #[test]
    fn finds_picture_lines_only() {
        let hash = "a".repeat(64);
        let body = format!(
            "## Spacing\n![Rows 75 cm apart]({hash})\nText with ![inline]({hash}) is not a picture\n![again]({hash})\n![bad](../etc/passwd)"
        );
        assert_eq!(pictures(&body), vec![hash]);
    }
}
