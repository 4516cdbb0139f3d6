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

/// A cell, quoted when it holds a separator: `,`, and `;` (what a spreadsheet set to
/// French splits at: an unquoted `Kadutu;=1+2` would start a formula cell), a tab, a
/// quote or a line break.
fn push_cell(out: &mut String, cell: &str) {
    let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_negative_number(cell);
    let quote = formula || cell.contains([',', ';', '\t', '"', '\n', '\r']);
    if quote {
        out.push('"');
    }
    if formula {
        out.push('\'');
    }
    for c in cell.chars() {
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
            one_row(&["Kadutu;=1+2", "a\t=b"]),
            "\"Kadutu;=1+2\",\"a\t=b\"\r\n",
            "one cell where French spreadsheets split at ;"
        );
    }
}
