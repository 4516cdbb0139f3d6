//! CSV exports (RFC 4180) that open safely in spreadsheets: a cell that a
//! spreadsheet would run as a formula is neutralised with a leading `'`
//! (the OWASP advice for CSV injection).

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

#[cfg(test)]
mod tests {
    use super::*;

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
