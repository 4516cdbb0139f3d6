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

fn push_cell(out: &mut String, cell: &str) {
    let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let quote = formula || cell.contains([',', '"', '\n', '\r']);
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

/// The records of a CSV text, each with the line it starts on (1 first): quoted
/// cells may hold commas, `""` and line breaks; a byte-order mark is skipped.
pub fn records(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut records = Vec::new();
    let (mut cells, mut cell) = (Vec::new(), String::new());
    let (mut line, mut start, mut quoted, mut any) = (1, 1, false, false);
    let mut chars = text.strip_prefix('\u{feff}').unwrap_or(text).chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
        }
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, _) => cell.push(c),
            (false, '"') if cell.is_empty() => (quoted, any) = (true, true),
            (false, ',') => {
                cells.push(std::mem::take(&mut cell));
                any = true;
            }
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n' | '\r') => {
                if any || !cell.is_empty() {
                    cells.push(std::mem::take(&mut cell));
                    records.push((start, std::mem::take(&mut cells)));
                }
                any = false;
                start = line + usize::from(c == '\r');
                if c == '\r' {
                    line += 1;
                }
            }
            (false, _) => {
                cell.push(c);
                any = true;
            }
        }
    }
    if any || !cell.is_empty() {
        cells.push(cell);
        records.push((start, cells));
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_read_with_quotes_line_breaks_and_their_line() {
        let text = "\u{feff}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",3\n,\nlast";
        let read = records(text);
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
            one_row(&["=1+1", "+254700", "-3", "@SUM(A1)", "a=b"]),
            "\"'=1+1\",\"'+254700\",\"'-3\",\"'@SUM(A1)\",a=b\r\n"
        );
    }
}
