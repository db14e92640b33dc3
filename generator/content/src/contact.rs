//! The contact form's rules, defined once: its fields' labels, the country codes it offers,
//! the limits of each field and every message it shows. The form in the browser (generated
//! into TypeScript with the panel's other shared definitions), the form without JavaScript
//! (the templates) and the server that checks what arrives all read these.
//!
//! Lengths are counted in characters (Unicode scalar values) everywhere: the browser counts
//! `[...text].length`, the server `chars().count()`.

use serde::Serialize;

/// A country code the form offers.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CountryCode {
    pub code: &'static str,
    pub country: &'static str,
}

/// The labels of the form's fields.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Labels {
    pub name: &'static str,
    pub email: &'static str,
    pub country_code: &'static str,
    pub phone: &'static str,
    pub message: &'static str,
    /// The checkbox of a booking request: the consumer's express request to have the visit
    /// before the withdrawal period ends (art. 38 ust. 1 pkt 1 of the consumer rights act),
    /// kept with the message in these very words ([`early_start_record`]).
    pub early_start: &'static str,
}

/// The most characters each text field takes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct MaxLength {
    pub name: usize,
    pub email: usize,
    pub message: usize,
}

/// What the form says when a field is not right.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Messages {
    pub name_required: &'static str,
    pub name_invalid: &'static str,
    pub name_too_long: &'static str,
    pub email_required: &'static str,
    pub email_invalid: &'static str,
    pub email_too_long: &'static str,
    pub phone_invalid: &'static str,
    pub country_code_invalid: &'static str,
    pub full_phone_invalid: &'static str,
    pub message_required: &'static str,
    pub message_too_long: &'static str,
}

/// Every rule of the form.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rules {
    pub country_codes: &'static [CountryCode],
    pub labels: Labels,
    pub default_country_code: &'static str,
    pub phone_digits: usize,
    /// How a phone number may be written, as people write it: groups of digits separated by
    /// spaces, dashes, dots, slashes or parentheses, optionally after the chosen country code
    /// (`+48`, `0048` or `48`). `{code}` stands for the digits of the chosen code; the first
    /// group captures the number without its code, whose digits are the phone. The form and
    /// the server both read it ([`national_phone`]).
    pub phone_pattern: &'static str,
    /// The most characters the phone field takes as typed.
    pub phone_max_length: usize,
    pub max_length: MaxLength,
    /// What an e-mail address must look like: a user, an @ and a host of dot-separated
    /// names, no spaces, commas, brackets or quotes. The one rule of an address ([`is_email`]),
    /// for the browser's check as one types too (the server also parses it as the mailer will).
    pub email_pattern: &'static str,
    pub messages: Messages,
}

const fn code(code: &'static str, country: &'static str) -> CountryCode {
    CountryCode { code, country }
}

/// The contact form's rules.
pub const RULES: Rules = Rules {
    country_codes: &[
        code("+48", "PL"),
        code("+380", "UA"),
        code("+420", "CZ"),
        code("+421", "SK"),
        code("+370", "LT"),
        code("+371", "LV"),
        code("+372", "EE"),
        code("+49", "DE"),
        code("+44", "GB"),
        code("+1", "US"),
        code("+33", "FR"),
        code("+39", "IT"),
    ],
    labels: Labels {
        name: "Imię",
        email: "E-mail",
        country_code: "Kierunkowy",
        phone: "Telefon",
        message: "Wiadomość",
        early_start: "Jeśli proszę w tej wiadomości o umówienie wizyty, a wizyta ma się odbyć przed upływem 14 dni od jej umówienia, żądam, by odbyła się w tym terminie, i przyjmuję do wiadomości, że po jej odbyciu utracę prawo odstąpienia od umowy (§ 9 regulaminu).",
    },
    default_country_code: "+48",
    phone_digits: 9,
    phone_pattern: r"^[\s().\-/]*(?:(?:\+|00)?{code}[\s().\-/]*)?((?:\d[\s().\-/]*){9})$",
    phone_max_length: 30,
    max_length: MaxLength {
        name: 100,
        email: 254,
        message: 5000,
    },
    email_pattern: r#"^[^\s@()<>,;:\\"\[\]]+@[^\s@()<>,;:\\"\[\].]+(?:\.[^\s@()<>,;:\\"\[\].]+)+$"#,
    messages: Messages {
        name_required: "Podaj imię.",
        name_invalid: "Imię nie może zawierać znaków nowej linii.",
        name_too_long: "Imię może mieć najwyżej 100 znaków.",
        email_required: "Podaj adres e-mail.",
        email_invalid: "Podaj poprawny adres e-mail, na przykład jan@example.pl.",
        email_too_long: "Adres e-mail może mieć najwyżej 254 znaki.",
        phone_invalid: "Numer telefonu powinien składać się z 9 cyfr",
        country_code_invalid: "Wybierz numer kierunkowy z listy.",
        full_phone_invalid: "Pełny numer telefonu nie zgadza się z numerem kierunkowym i numerem.",
        message_required: "Napisz wiadomość.",
        message_too_long: "Wiadomość może mieć najwyżej 5000 znaków.",
    },
};

/// Whether `address` is an e-mail address by [`Rules::email_pattern`]: the one rule for
/// every address the site takes — the contact form's, the practice's in `site.yaml`, the
/// contact of `security.txt` and a commit author's before a notice is mailed. The caller trims.
pub fn is_email(address: &str) -> bool {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    PATTERN
        .get_or_init(|| crate::pattern::constant_regex(RULES.email_pattern))
        .is_match(address)
}

/// The phone as the form keeps it (its digits, without the country code) from what was typed
/// with `country_code` chosen: "" for an empty field, `None` for one that is not a number of
/// [`RULES`]`.phone_digits` digits written in one of the ways [`RULES`]`.phone_pattern` allows.
pub fn national_phone(typed: &str, country_code: &str) -> Option<String> {
    if typed.trim().is_empty() {
        return Some(String::new());
    }
    if typed.chars().count() > RULES.phone_max_length {
        return None;
    }
    let (_, pattern) = phone_patterns().iter().find(|(c, _)| *c == country_code)?;
    let found = pattern.captures(typed)?;
    Some(
        found
            .get(1)?
            .as_str()
            .chars()
            .filter(char::is_ascii_digit)
            .collect(),
    )
}

/// [`RULES`]`.phone_pattern` for each country code the form offers, compiled once.
fn phone_patterns() -> &'static [(&'static str, regex::Regex)] {
    static PATTERNS: std::sync::OnceLock<Vec<(&'static str, regex::Regex)>> =
        std::sync::OnceLock::new();
    PATTERNS.get_or_init(|| {
        RULES
            .country_codes
            .iter()
            .filter_map(|c| {
                let digits: String = c.code.chars().filter(char::is_ascii_digit).collect();
                let pattern = RULES.phone_pattern.replace("{code}", &digits);
                regex::Regex::new(&pattern).ok().map(|r| (c.code, r))
            })
            .collect()
    })
}

/// What a message says of the booking request's checkbox when it was ticked: the request in
/// the words the visitor saw, after the message, so that it reaches the practice's mailbox (a
/// durable medium) with it.
pub fn early_start_record(message: &str) -> String {
    format!(
        "{message}\n\n[Zaznaczone w formularzu] {}",
        RULES.labels.early_start
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticked_booking_request_is_kept_in_the_words_the_visitor_saw() {
        let kept = early_start_record("Proszę o termin w czwartek.");
        assert!(kept.starts_with("Proszę o termin w czwartek.\n\n[Zaznaczone w formularzu] "));
        assert!(kept.ends_with(RULES.labels.early_start));
        assert!(RULES
            .labels
            .early_start
            .contains("utracę prawo odstąpienia"));
    }

    #[test]
    fn the_messages_say_the_limits_the_rules_hold() {
        let m = RULES.messages;
        let max = RULES.max_length;
        assert!(m.name_too_long.contains(&max.name.to_string()));
        assert!(m.email_too_long.contains(&max.email.to_string()));
        assert!(m.message_too_long.contains(&max.message.to_string()));
        assert!(m.phone_invalid.contains(&RULES.phone_digits.to_string()));
        assert!(RULES
            .phone_pattern
            .contains(&format!("{{{}}})$", RULES.phone_digits)));
        assert_eq!(phone_patterns().len(), RULES.country_codes.len());
        assert!(RULES
            .country_codes
            .iter()
            .any(|c| c.code == RULES.default_country_code));
    }

    #[test]
    fn an_email_address_is_a_user_an_at_and_a_dotted_host() {
        for good in [
            "jan@example.pl",
            "anna.kowalska+gabinet@poczta.example.com.pl",
            "o'brien@example.ie",
            "żaneta@przykład.pl",
        ] {
            assert!(is_email(good), "{good}");
        }
        for bad in [
            "",
            "jan",
            "jan@",
            "@example.pl",
            "jan@example",
            "jan@@example.pl",
            "jan@exa@mple.pl",
            "jan kowalski@example.pl",
            " jan@example.pl",
            "jan@example.pl\n",
            "jan@example.pl, anna@example.pl",
            "Jan <jan@example.pl>",
            "jan@.example.pl",
            "jan@example.pl.",
            "jan@example..pl",
            "\"jan\"@example.pl",
        ] {
            assert!(!is_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_phone_is_taken_as_people_write_it() {
        for typed in [
            "600100200",
            "600 100 200",
            "600-100-200",
            "+48 600 100 200",
            "48600100200",
            "0048 600 100 200",
            "(+48) 600-100-200",
            " 600.100.200 ",
        ] {
            assert_eq!(
                national_phone(typed, "+48").as_deref(),
                Some("600100200"),
                "{typed}"
            );
        }
        assert_eq!(national_phone("", "+48").as_deref(), Some(""));
        assert_eq!(national_phone("   ", "+48").as_deref(), Some(""));
        assert_eq!(
            national_phone("+380 501 234 567", "+380").as_deref(),
            Some("501234567")
        );
        assert_eq!(
            national_phone("481234567", "+48").as_deref(),
            Some("481234567"),
            "a number that begins with the code's digits is still a number"
        );
        for typed in [
            "60010020",
            "6001002001",
            "+49 600 100 200",
            "600 100 200 w",
            "tel. 600100200",
            "++48600100200",
            "600 100 200 600 100 200 600 100 200",
        ] {
            assert_eq!(national_phone(typed, "+48"), None, "{typed}");
        }
    }
}
