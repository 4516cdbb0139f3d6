//! Words the server writes for people (CSV headers and values, emails), taken
//! from the PWA's own catalogues so that a label reads the same on screen, in
//! an export and in a message, and no language can fall behind.

use std::sync::LazyLock;

use serde_json::Value;

use crate::model::user::Country;

/// The PWA's languages; the first is the fallback.
pub const LANGUAGES: [&str; 3] = ["en", "fr", "sw"];

static CATALOGUES: LazyLock<[Value; 3]> = LazyLock::new(|| {
    let parse = |text: &str| serde_json::from_str(text).expect("the PWA catalogues are valid JSON");
    [
        parse(include_str!("../../pwa/src/locales/en.json")),
        parse(include_str!("../../pwa/src/locales/fr.json")),
        parse(include_str!("../../pwa/src/locales/sw.json")),
    ]
});

/// A catalogue's language, by a code such as `fr` or `fr-CD`; English otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lang(usize);

impl Lang {
    pub const EN: Lang = Lang(0);

    /// The language a code names (`fr`, `fr-CD`, `SW_tz`), English for any other.
    pub fn parse(code: Option<&str>) -> Lang {
        code.and_then(Lang::known).unwrap_or(Lang::EN)
    }

    /// The language a code names, if it is one of the three.
    pub fn known(code: &str) -> Option<Lang> {
        let base = code.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        LANGUAGES.iter().position(|l| *l == base).map(Lang)
    }

    /// Its code: `en`, `fr` or `sw`.
    pub fn code(self) -> &'static str {
        LANGUAGES[self.0]
    }

    /// Its Open Graph locale.
    pub fn locale(self) -> &'static str {
        ["en_US", "fr_FR", "sw_KE"][self.0]
    }

    /// The language to write to someone in when all we know is their country
    /// (the PWA's detector makes the same guess for Congo and Burundi).
    pub fn for_country(country: Option<Country>) -> Lang {
        match country {
            Some(Country::Drc | Country::Bdi) => Lang(1),
            Some(Country::Tza | Country::Ken) => Lang(2),
            _ => Lang::EN,
        }
    }

    /// The text at a dotted key, in this language or else in English; the key itself when missing.
    pub fn text(self, key: &str) -> String {
        self.lookup(key).or_else(|| Lang::EN.lookup(key)).unwrap_or_else(|| key.to_owned())
    }

    /// The text at `key` with `{{name}}` placeholders filled in.
    pub fn format(self, key: &str, values: &[(&str, &str)]) -> String {
        values.iter().fold(self.text(key), |text, (name, value)| text.replace(&format!("{{{{{name}}}}}"), value))
    }

    /// The text at `key` for `count` things: i18next's plural forms (`key_one`, `key_other`,
    /// then `key` alone; French says "one" for 0 and 1), with `{{count}}` and `values` filled in.
    pub fn plural(self, key: &str, count: i64, values: &[(&str, &str)]) -> String {
        let one = if self.code() == "fr" { count == 0 || count == 1 } else { count == 1 };
        let form = format!("{key}_{}", if one { "one" } else { "other" });
        let found = [self, Lang::EN].into_iter().find_map(|lang| lang.lookup(&form).or_else(|| lang.lookup(key)));
        let count = count.to_string();
        values
            .iter()
            .chain([&("count", count.as_str())])
            .fold(found.unwrap_or_else(|| key.to_owned()), |text, (name, value)| {
                text.replace(&format!("{{{{{name}}}}}"), value)
            })
    }

    /// The label of a stored choice (`options.<field>.<slug>`), or the choice itself.
    /// A whole number grouped as this language writes it, the same on every screen, SMS
    /// and USSD answer (and as the app's `Intl` does): "4,076" in English and Kiswahili,
    /// "4 076" in French (a narrow no-break space; a plain space in GSM-7).
    pub fn whole(self, number: i64) -> String {
        let grouped = thousands(number.abs(), if self.code() == "fr" { "\u{202f}" } else { "," });
        if number < 0 { format!("-{grouped}") } else { grouped }
    }

    /// Cents as an amount in this language: "1,234.50" (English, Kiswahili), "1 234,50"
    /// (French). Amounts typed or exported for machines keep `model::decimal_amount`.
    pub fn amount(self, cents: i64) -> String {
        let sign = if cents < 0 { "-" } else { "" };
        let mark = if self.code() == "fr" { ',' } else { '.' };
        format!("{sign}{}{mark}{:02}", self.whole(cents.abs() / 100), cents.abs() % 100)
    }

    /// Grams as kilograms in this language, to the tenth as the weigh book keeps them:
    /// "48.5", "1,250" (English, Kiswahili), "48,5", "1 250" (French), as its amounts.
    pub fn kilograms(self, grams: i64) -> String {
        let tenths = (grams.abs() + 50) / 100;
        let sign = if grams < 0 && tenths > 0 { "-" } else { "" };
        let whole = self.whole(tenths / 10);
        match tenths % 10 {
            0 => format!("{sign}{whole}"),
            tenth => format!("{sign}{whole}{}{tenth}", if self.code() == "fr" { ',' } else { '.' }),
        }
    }

    /// A day (`YYYY-MM-DD`, or a time from it) as the app's `formatDate(…, 'long')` writes it: "March 1, 2026", "1 mars 2026", "1 Machi 2026".
    pub fn long_date(self, iso: &str) -> String {
        const MONTHS: [[&str; 12]; 3] = [
            [
                "January",
                "February",
                "March",
                "April",
                "May",
                "June",
                "July",
                "August",
                "September",
                "October",
                "November",
                "December",
            ],
            [
                "janvier",
                "février",
                "mars",
                "avril",
                "mai",
                "juin",
                "juillet",
                "août",
                "septembre",
                "octobre",
                "novembre",
                "décembre",
            ],
            [
                "Januari", "Februari", "Machi", "Aprili", "Mei", "Juni", "Julai", "Agosti", "Septemba", "Oktoba",
                "Novemba", "Desemba",
            ],
        ];
        let mut parts = iso.get(..10).unwrap_or("").split('-').map(|p| p.parse::<usize>().ok());
        let (Some(Some(year)), Some(Some(month @ 1..=12)), Some(Some(day))) =
            (parts.next(), parts.next(), parts.next())
        else {
            return String::new();
        };
        match self.code() {
            "en" => format!("{} {day}, {year}", MONTHS[0][month - 1]),
            "fr" => format!("{day} {} {year}", MONTHS[1][month - 1]),
            _ => format!("{day} {} {year}", MONTHS[2][month - 1]),
        }
    }

    /// Days of the week as stored ("mon wed fri": `model::cooperative::WEEKDAYS`, in the
    /// week's order) as the app's `weekDays` writes them: "every day", "Monday to Saturday"
    /// (three or more in a row), "Monday, Wednesday and Friday".
    pub fn week_days(self, days: &str) -> String {
        let days: Vec<&str> = days.split_whitespace().collect();
        let at = |day: &str| crate::model::cooperative::WEEKDAYS.iter().position(|w| *w == day);
        let name = |day: &str| self.text(&format!("weekdays.{day}"));
        let in_a_row =
            days.windows(2).all(|pair| matches!((at(pair[0]), at(pair[1])), (Some(a), Some(b)) if b == a + 1));
        match days.as_slice() {
            [] => String::new(),
            all if all.len() == 7 => self.text("weekdays.every_day"),
            [first, .., last] if days.len() >= 3 && in_a_row => {
                self.format("weekdays.range", &[("from", &name(first)), ("to", &name(last))])
            }
            [one] => name(one),
            [some @ .., last] => {
                let some = some.iter().map(|d| name(d)).collect::<Vec<_>>().join(", ");
                self.format("weekdays.list", &[("some", &some), ("last", &name(last))])
            }
        }
    }

    /// A place as readers of this language read it: the provinces MAVUNO writes into
    /// places in English ("Kabare, South Kivu", from a basic phone's or an agent's
    /// registration and the demo) translated ("Kabare, Sud-Kivu"), the rest as typed.
    pub fn place(self, place: &str) -> String {
        [("South Kivu", "places.south_kivu"), ("North Kivu", "places.north_kivu")]
            .into_iter()
            .fold(place.to_owned(), |place, (english, key)| place.replace(english, &self.text(key)))
    }

    pub fn option(self, field: &str, value: &str) -> String {
        let key = format!("options.{field}.{}", slug(value));
        self.lookup(&key).or_else(|| Lang::EN.lookup(&key)).unwrap_or_else(|| value.to_owned())
    }

    fn lookup(self, key: &str) -> Option<String> {
        let mut node = &CATALOGUES[self.0];
        for part in key.split('.') {
            node = node.get(part)?;
        }
        node.as_str().map(str::to_owned)
    }
}

/// A whole number with `separator` between its thousands: "4 275", "4,275".
pub fn thousands(number: i64, separator: &str) -> String {
    let digits = number.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push_str(separator);
        }
        grouped.push(digit);
    }
    grouped
}

/// The PWA's `slug()` (features/applications/fields.ts): lower case, runs of
/// anything but letters and digits become one `_`, none at the ends.
pub fn slug(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_come_from_the_pwa_catalogues_with_english_as_fallback() {
        assert_eq!(Lang::parse(Some("fr-CD")).text("roles.user"), "Acheteur");
        assert_eq!(Lang::parse(Some("de")), Lang::EN);
        assert_eq!(Lang::EN.text("no.such.key"), "no.such.key");
        assert_eq!(Lang::EN.option("land_size", "1-2 hectares"), "1–2 hectares");
        assert_eq!(Lang::EN.option("land_size", "Something typed"), "Something typed");
        assert_eq!(slug("Hand tools (hoe)"), "hand_tools_hoe");
        assert_eq!(slug("Local/traditional"), "local_traditional");
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!(fr.plural("market.units_counted.piece", 1, &[]), "pièce");
        assert_eq!(fr.plural("market.units_counted.piece", 0, &[]), "pièce");
        assert_eq!(fr.plural("market.units_counted.piece", 200, &[]), "pièces");
        assert_eq!(Lang::EN.plural("market.units_counted.piece", 1, &[]), "piece");
        assert_eq!(fr.plural("market.in_stock", 200, &[("unit", "kg")]), "200 kg en stock");
        assert_ne!(sw.plural("market.units_counted.piece", 2, &[]), "market.units_counted.piece");
    }

    #[test]
    fn weights_are_written_as_each_language_writes_its_amounts() {
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!((fr.kilograms(48_500), fr.amount(972)), ("48,5".to_owned(), "9,72".to_owned()));
        assert_eq!((Lang::EN.kilograms(48_500), sw.kilograms(48_500)), ("48.5".to_owned(), "48.5".to_owned()));
        assert_eq!(fr.kilograms(1_250_040), "1\u{202f}250");
        assert_eq!(Lang::EN.kilograms(1_250_060), "1,250.1");
        assert_eq!((Lang::EN.kilograms(0), Lang::EN.kilograms(-2_500)), ("0".to_owned(), "-2.5".to_owned()));
    }

    #[test]
    fn days_read_as_the_app_writes_them() {
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!(Lang::EN.long_date("2026-03-01T10:00:00Z"), "March 1, 2026");
        assert_eq!(fr.long_date("2026-03-01T10:00:00Z"), "1 mars 2026");
        assert_eq!(sw.long_date("2026-12-24"), "24 Desemba 2026");
        assert_eq!(fr.long_date("2026-13-01"), "");
        assert_eq!(fr.long_date("soon"), "");
    }

    #[test]
    fn week_days_read_as_a_range_a_list_or_every_day() {
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        let store = crate::model::cooperative::STORE_DAYS;
        assert_eq!(Lang::EN.week_days(store), "Monday to Saturday");
        assert_eq!(fr.week_days(store), "du lundi au samedi");
        assert_eq!(sw.week_days(store), "Jumatatu hadi Jumamosi");
        assert_eq!(Lang::EN.week_days("mon wed fri"), "Monday, Wednesday and Friday");
        assert_eq!(Lang::EN.week_days("mon tue thu"), "Monday, Tuesday and Thursday");
        assert_eq!(fr.week_days("tue wed"), "mardi et mercredi");
        assert_eq!(sw.week_days("sat"), "Jumamosi");
        assert_eq!(Lang::EN.week_days(&crate::model::cooperative::WEEKDAYS.join(" ")), "every day");
    }
}
