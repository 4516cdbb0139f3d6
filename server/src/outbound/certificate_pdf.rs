//! A course certificate as a one-page PDF (A4, landscape), in the reader's
//! language, with the standard Helvetica so no font is embedded (a ~2 KB
//! file). Text is written in WinAnsi, which covers English, French and
//! Kiswahili; a character outside it prints as "?".

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};

use crate::labels::Lang;

const WIDTH: f32 = 842.0;
const HEIGHT: f32 = 595.0;
const GREEN: (f32, f32, f32) = (0.13, 0.45, 0.22);

/// What a certificate says.
pub struct CertificateText<'a> {
    pub learner: &'a str,
    pub course: &'a str,
    /// YYYY-MM-DD.
    pub date: &'a str,
    pub code: &'a str,
    /// Where anyone can check it, e.g. `mavuno.example/certificates/ABCD-EFGH-JKLM`.
    pub verify_at: &'a str,
}

pub fn render(text: &CertificateText<'_>, lang: Lang) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let (catalog, pages, page, regular, bold, content_id) =
        (Ref::new(1), Ref::new(2), Ref::new(3), Ref::new(4), Ref::new(5), Ref::new(6));
    pdf.catalog(catalog).pages(pages);
    pdf.pages(pages).kids([page]).count(1);
    let mut p = pdf.page(page);
    p.media_box(Rect::new(0.0, 0.0, WIDTH, HEIGHT)).parent(pages).contents(content_id);
    p.resources().fonts().pair(Name(b"F1"), regular).pair(Name(b"F2"), bold);
    p.finish();
    for (id, name) in [(regular, b"Helvetica".as_slice()), (bold, b"Helvetica-Bold".as_slice())] {
        pdf.type1_font(id).base_font(Name(name)).encoding_predefined(Name(b"WinAnsiEncoding"));
    }

    let mut c = Content::new();
    c.set_stroke_rgb(GREEN.0, GREEN.1, GREEN.2).set_line_width(4.0);
    c.rect(24.0, 24.0, WIDTH - 48.0, HEIGHT - 48.0).stroke();
    c.set_line_width(1.0).rect(34.0, 34.0, WIDTH - 68.0, HEIGHT - 68.0).stroke();
    let t = |key: &str| lang.text(&format!("training.certificate.pdf.{key}"));
    let lines: [(&str, f32, String, f32, bool); 9] = [
        ("F2", 20.0, "MAVUNO".to_owned(), 505.0, true),
        ("F2", 32.0, t("title"), 440.0, false),
        ("F1", 14.0, t("certifies"), 395.0, false),
        ("F2", 30.0, text.learner.to_owned(), 350.0, false),
        ("F1", 14.0, t("completed"), 310.0, false),
        ("F2", 20.0, text.course.to_owned(), 275.0, false),
        ("F1", 12.0, lang.format("training.certificate.pdf.issued", &[("date", text.date)]), 200.0, false),
        ("F2", 12.0, lang.format("training.certificate.pdf.code", &[("code", text.code)]), 150.0, false),
        ("F1", 10.0, lang.format("training.certificate.pdf.verify", &[("url", text.verify_at)]), 130.0, false),
    ];
    for (font, size, line, y, green) in lines {
        let bytes = win_ansi(&line);
        let width = text_width(&bytes, size, font == "F2").min(WIDTH - 80.0);
        if green {
            c.set_fill_rgb(GREEN.0, GREEN.1, GREEN.2);
        } else {
            c.set_fill_rgb(0.1, 0.1, 0.1);
        }
        c.begin_text();
        c.set_font(Name(font.as_bytes()), size);
        c.next_line((WIDTH - width) / 2.0, y);
        c.show(Str(&bytes));
        c.end_text();
    }
    pdf.stream(content_id, &c.finish());
    pdf.finish()
}

/// Text in WinAnsi (Windows-1252): Latin-1 as is, the few typographic marks
/// it adds, anything else as "?". Control characters never reach here
/// (names and titles refuse them).
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            ' '..='~' | '\u{a0}'..='\u{ff}' => c as u8,
            '€' => 0x80,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '–' => 0x96,
            '—' => 0x97,
            'œ' => 0x9c,
            'Œ' => 0x8c,
            _ => b'?',
        })
        .collect()
}

/// Helvetica's advance widths (per 1000 units of the font size) for ASCII 32..=126.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
    556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
    556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
    260, 334, 584,
];

/// The printed width of WinAnsi `bytes` at `size`, to centre a line. Accented
/// letters are as wide as their base letter; bold runs about 6% wider.
fn text_width(bytes: &[u8], size: f32, bold: bool) -> f32 {
    let units: u32 = bytes
        .iter()
        .map(|b| {
            let base = match *b {
                32..=126 => *b,
                0xc0..=0xc5 => b'A',
                0xc7 => b'C',
                0xc8..=0xcb => b'E',
                0xcc..=0xcf => b'I',
                0xd2..=0xd6 => b'O',
                0xd9..=0xdc => b'U',
                0xe0..=0xe5 => b'a',
                0xe7 => b'c',
                0xe8..=0xeb => b'e',
                0xec..=0xef => b'i',
                0xf1 => b'n',
                0xf2..=0xf6 => b'o',
                0xf9..=0xfc => b'u',
                _ => b'o',
            };
            u32::from(HELVETICA[usize::from(base - 32)])
        })
        .sum();
    units as f32 * size / 1000.0 * if bold { 1.06 } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_is_a_pdf_with_the_name_in_it() {
        let text = CertificateText {
            learner: "Amani Bahati-Mugisho",
            course: "Élevage (bases)",
            date: "2026-11-23",
            code: "ABCD-EFGH-JKLM",
            verify_at: "localhost/certificates/ABCD-EFGH-JKLM",
        };
        let pdf = render(&text, Lang::parse(Some("fr")));
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.windows(4).any(|w| w == b"%%EO"), "has a trailer");
        // Plain ASCII lines are written as literal strings, others in hex.
        let find = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
        let hex = |text: &str| win_ansi(text).iter().map(|b| format!("{b:02X}")).collect::<String>().into_bytes();
        assert!(find(b"(Amani Bahati-Mugisho)"));
        assert!(find(&hex("Élevage (bases)")));
        assert!(find(&hex("Certificat de réussite")), "in French");
        assert!(find(&hex("ABCD-EFGH-JKLM")));
    }

    #[test]
    fn characters_outside_win_ansi_print_as_question_marks() {
        assert_eq!(win_ansi("Ngozi 日本 œuvre"), b"Ngozi ?? \x9cuvre");
    }
}
