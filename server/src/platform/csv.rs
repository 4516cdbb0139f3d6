//! CSV (RFC 4180): exports that open safely in spreadsheets (a cell that a
//! spreadsheet would run as a formula is neutralised with a leading `'`, the
//! OWASP advice for CSV injection), and reading uploaded files (`records`).

/// A CSV document being written, row by row.
pub struct Csv {
    out: String,
}

impl Csv {
    /// Starts with a byte-order mark so that spreadsheet programs read UTF-8
    /// (names like "Nyiramana Bénédicte", "Jeŕome").
    pub fn new() -> Csv {
        Csv { out: String::from("\u{feff}") }
    }

    pub fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for (index, cell) in cells.into_iter().enumerate() {
            if index > 0 {
                self.out.push(',');
            }
            push_cell(&mut self.out, cell.as_ref());
        }
        self.out.push_str("\r\n");
    }

    pub fn finish(self) -> String {
        self.out
    }
}

impl Default for Csv {
    fn default() -> Self {
        Csv::new()
    }
}

/// `-2.412346`: a plain negative number (a latitude south of the equator) starts no formula.
fn is_negative_number(cell: &str) -> bool {
    let Some(digits) = cell.strip_prefix('-') else { return false };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// What a reader may split a row at: `,` (RFC 4180), `;` (a spreadsheet set to French,
/// the admins' language, splits there, also inside what we quote: `a,"b;=1+2"` read at
/// `;` is `a,"b` and `=1+2"`), a tab, and line breaks.
const SPLITS: [char; 5] = [',', ';', '\t', '\r', '\n'];

/// Whether a piece of a cell, as some reader may see it, would start a formula: its
/// first character after quotes and spaces is `=`, `+`, `-` or `@` (a plain negative
/// number, a latitude south of the equator, starts none).
fn starts_formula(piece: &str) -> bool {
    let piece = piece.trim_start_matches(['"', ' ']);
    piece.starts_with(['=', '+', '-', '@']) && !is_negative_number(piece.trim_end_matches(['"', ' ']))
}

/// A cell, quoted when it holds a separator, a quote or a line break; every piece of it
/// that a reader splitting at `,`, `;`, a tab or a line break would see as a formula is
/// neutralised with a leading `'` (the whole cell for a cell that starts one).
fn push_cell(out: &mut String, cell: &str) {
    let quote = starts_formula(cell) || cell.starts_with(['\t', '\r']) || cell.contains(SPLITS) || cell.contains('"');
    if quote {
        out.push('"');
    }
    if cell.starts_with(['\t', '\r']) {
        out.push('\'');
    }
    let mut piece_start = true;
    for (at, c) in cell.char_indices() {
        if piece_start && starts_formula(&cell[at..cell[at..].find(SPLITS).map_or(cell.len(), |end| at + end)]) {
            out.push('\'');
        }
        piece_start = SPLITS.contains(&c);
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    if quote {
        out.push('"');
    }
}

/// A record longer than this, in bytes, or with more cells than `MAX_CELLS`, is not
/// read: no row of what we read comes near it, and reading on would hold a file's
/// worth of cells at once (a 16 MB line of commas is 16 million of them).
pub const MAX_RECORD_BYTES: usize = 16 * 1024;
pub const MAX_CELLS: usize = 200;

/// A record over `MAX_RECORD_BYTES` or `MAX_CELLS`, starting on `line`: nothing after it is read.
#[derive(Debug, PartialEq, Eq)]
pub struct TooLong {
    pub line: usize,
}

/// The records of a CSV text, one at a time, each with the line it starts on (1
/// first): quoted cells may hold commas, `""` and line breaks; a byte-order mark is
/// skipped, blank lines too.
pub fn records(text: &str) -> Records<'_> {
    Records { chars: text.strip_prefix('\u{feff}').unwrap_or(text).chars().peekable(), line: 1, done: false }
}

pub struct Records<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    done: bool,
}

impl Iterator for Records<'_> {
    type Item = Result<(usize, Vec<String>), TooLong>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (mut cells, mut cell) = (Vec::new(), String::new());
        let (mut start, mut size, mut quoted, mut any) = (self.line, 0, false, false);
        while let Some(c) = self.chars.next() {
            if c == '\n' {
                self.line += 1;
            }
            size += c.len_utf8();
            if size > MAX_RECORD_BYTES || cells.len() > MAX_CELLS {
                self.done = true;
                return Some(Err(TooLong { line: start }));
            }
            match (quoted, c) {
                (true, '"') if self.chars.peek() == Some(&'"') => {
                    self.chars.next();
                    cell.push('"');
                }
                (true, '"') => quoted = false,
                (true, _) => cell.push(c),
                (false, '"') if cell.is_empty() => (quoted, any) = (true, true),
                (false, ',') => {
                    cells.push(std::mem::take(&mut cell));
                    any = true;
                }
                (false, '\r') if self.chars.peek() == Some(&'\n') => {}
                (false, '\n' | '\r') => {
                    if c == '\r' {
                        self.line += 1;
                    }
                    if any || !cell.is_empty() {
                        cells.push(cell);
                        return Some(Ok((start, cells)));
                    }
                    // A blank line: the record starts on the next one.
                    (start, size) = (self.line, 0);
                }
                (false, _) => {
                    cell.push(c);
                    any = true;
                }
            }
        }
        self.done = true;
        (any || !cell.is_empty()).then(|| {
            cells.push(cell);
            Ok((start, cells))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_read_with_quotes_line_breaks_and_their_line() {
        let text = "\u{feff}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",3\n,\nlast";
        let read: Vec<_> = records(text).map(Result::unwrap).collect();
        let cells = |row: &[&str]| row.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            read,
            vec![
                (1, cells(&["a", "b"])),
                (2, cells(&["x, y", "say \"hi\""])),
                (4, cells(&["two\nlines", "3"])),
                (6, cells(&["", ""])),
                (7, cells(&["last"])),
            ]
        );
    }

    #[test]
    fn an_overlong_record_stops_the_reading_at_its_line() {
        let commas = format!("a,b\nc,d\n{}\ne,f", ",".repeat(16 * 1024 * 1024));
        let read: Vec<_> = records(&commas).collect();
        assert_eq!(read.len(), 3, "two rows, then the refusal, then nothing");
        assert_eq!(read[2], Err(TooLong { line: 3 }));
        let wide = format!("{}\n", "x,".repeat(MAX_CELLS + 1));
        assert_eq!(records(&wide).next(), Some(Err(TooLong { line: 1 })));
        let fine = format!("{}\n", "x,".repeat(MAX_CELLS - 1));
        assert!(records(&fine).next().unwrap().is_ok());
    }

    fn one_row(cells: &[&str]) -> String {
        let mut csv = Csv::new();
        csv.row(cells);
        csv.finish().trim_start_matches('\u{feff}').to_owned()
    }

    #[test]
    fn cells_are_quoted_when_they_need_it() {
        assert_eq!(
            one_row(&["plain", "a,b", "say \"hi\"", "two\nlines", ""]),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n"
        );
    }

    #[test]
    fn formulas_are_neutralised() {
        assert_eq!(
            one_row(&["=1+1", "+254700", "-3+1", "@SUM(A1)", "a=b", "-2.412346", "-3", "-.5", "-1.", "-"]),
            "\"'=1+1\",\"'+254700\",\"'-3+1\",\"'@SUM(A1)\",a=b,-2.412346,-3,\"'-.5\",\"'-1.\",\"'-\"\r\n"
        );
        assert_eq!(
            one_row(&["Kadutu;=1+2", "a\t=b", "Mulching;=cmd|' /C calc'!A0;ok", "x; @SUM(A1)", "a;-2.5"]),
            "\"Kadutu;'=1+2\",\"a\t'=b\",\"Mulching;'=cmd|' /C calc'!A0;ok\",\"x;' @SUM(A1)\",\"a;-2.5\"\r\n",
            "each piece a French spreadsheet (;) or a tab-separated reader sees"
        );
        assert_eq!(one_row(&["\t=1", "\rx"]), "\"'\t'=1\",\"'\rx\"\r\n");
        assert_eq!(one_row(&["a;\"=1\""]), "\"a;'\"\"=1\"\"\"\r\n", "a quote before the formula");
    }

    /// Whether any piece of a written row, as a reader splitting at `,`, `;`, a tab or a
    /// line break sees it (quotes and spaces before it skipped), starts a formula.
    fn formula_piece(row: &str) -> Option<&str> {
        row.trim_start_matches('\u{feff}').split([',', ';', '\t', '\r', '\n']).find(|piece| {
            let piece = piece.trim_start_matches(['"', ' ']);
            piece.starts_with(['=', '+', '-', '@']) && !is_negative_number(piece.trim_end_matches(['"', ' ']))
        })
    }

    #[test]
    fn no_piece_of_any_cell_starts_a_formula_whatever_a_reader_splits_at() {
        // xorshift64*, seeded: random cells of the characters that matter, and words.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |below: usize| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % below
        };
        let alphabet = ["=", "+", "-", "@", ",", ";", "\t", "\r", "\n", "\"", "'", " ", "1", ".", "a", "cmd|", "é"];
        for _ in 0..20_000 {
            let cells: Vec<String> =
                (0..1 + next(4)).map(|_| (0..next(12)).map(|_| alphabet[next(alphabet.len())]).collect()).collect();
            let mut csv = Csv::new();
            csv.row(&cells);
            let row = csv.finish();
            assert_eq!(formula_piece(&row), None, "{cells:?} written as {row:?}");
            // A reader that honours quotes (RFC 4180) reads the cells back, each either as
            // it was or with the `'`s that neutralise it.
            let Some(read) = records(&row).next() else { continue }; // one empty cell: a blank line
            let read = read.unwrap().1;
            assert_eq!(read.len(), cells.len(), "{cells:?} read back as {read:?}");
            for (read, cell) in read.iter().zip(&cells) {
                assert_eq!(read.replace('\'', ""), cell.replace('\'', ""));
            }
        }
    }
}
