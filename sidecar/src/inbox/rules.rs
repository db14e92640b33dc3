//! What the contact form sends, checked by its rules ([`content::contact::RULES`], the
//! same the form in the browser applies: the phone as people write it, by
//! `content::contact::national_phone`), and the server's own: `fullPhone` must match.

use serde::Deserialize;
use std::collections::BTreeMap;

use content::contact::RULES;

/// A contact message as sent by the form.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ContactInput {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone: String,
    #[serde(default)]
    pub country_code: String,
    #[serde(default)]
    pub message: String,
    /// Sent by the JavaScript form; the no-JS form leaves it out and it is computed.
    #[serde(default)]
    pub full_phone: Option<String>,
    /// The booking request's checkbox ([`content::contact::RULES`]'s `early_start`): the
    /// express request to have a visit within the withdrawal period.
    #[serde(default, deserialize_with = "ticked")]
    pub early_start: bool,
    /// The signed time the form was shown.
    #[serde(default)]
    pub token: Option<String>,
    /// The honeypot: people never see it, bots fill it in.
    #[serde(default)]
    pub website: Option<String>,
}

/// A checkbox as either form sends it: `true` in JSON, `true` or `on` from a form without
/// JavaScript; anything else is not ticked.
fn ticked<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Sent {
        Flag(bool),
        Text(String),
    }
    Ok(match Sent::deserialize(d)? {
        Sent::Flag(on) => on,
        Sent::Text(text) => matches!(text.as_str(), "true" | "on"),
    })
}

impl ContactInput {
    /// The message as it is kept: with the booking request in its own words when ticked.
    pub fn kept_message(&self) -> String {
        let text = self.message.trim();
        match self.early_start {
            true => content::contact::early_start_record(text),
            false => text.to_string(),
        }
    }

    /// The phone as kept: its digits without the country code, from however it was typed
    /// (`content::contact::national_phone`, the rule the form applies too); `None` when it is
    /// no number. A code the form does not offer is judged by the default one (the code has
    /// its own error).
    pub fn national_phone(&self) -> Option<String> {
        let known = RULES
            .country_codes
            .iter()
            .any(|c| c.code == self.country_code);
        let code = if known {
            self.country_code.as_str()
        } else {
            RULES.default_country_code
        };
        content::contact::national_phone(&self.phone, code)
    }

    /// Country code plus phone, or empty when there is no phone.
    pub fn expected_full_phone(&self) -> String {
        match self.national_phone() {
            Some(phone) if !phone.is_empty() => format!("{}{}", self.country_code, phone),
            _ => String::new(),
        }
    }
}

pub type Errors = BTreeMap<&'static str, String>;

fn check_name(name: &str, max: usize) -> Option<&'static str> {
    let m = RULES.messages;
    if name.trim().is_empty() {
        Some(m.name_required)
    } else if name.contains(['\r', '\n']) {
        Some(m.name_invalid)
    } else if name.trim().chars().count() > max {
        Some(m.name_too_long)
    } else {
        None
    }
}

fn check_email(email: &str, max: usize) -> Option<&'static str> {
    let m = RULES.messages;
    let trimmed = email.trim();
    if trimmed.is_empty() {
        Some(m.email_required)
    } else if trimmed.chars().count() > max {
        Some(m.email_too_long)
    } else if email.contains(['\r', '\n'])
        || !content::contact::is_email(trimmed)
        || trimmed.parse::<lettre::Address>().is_err()
    {
        // The form's pattern catches the common mistakes as one types; lettre, which will
        // deliver the reply, has the last word.
        Some(m.email_invalid)
    } else {
        None
    }
}

/// Every rule the form applies, and the server's own: `fullPhone` must match.
pub fn validate(input: &ContactInput) -> Errors {
    let (r, m) = (RULES, RULES.messages);
    let mut errors = Errors::new();
    let mut add = |field: &'static str, message: Option<&'static str>| {
        if let Some(message) = message {
            errors.insert(field, message.to_string());
        }
    };
    add("name", check_name(&input.name, r.max_length.name));
    add("email", check_email(&input.email, r.max_length.email));
    add(
        "phone",
        input.national_phone().is_none().then_some(m.phone_invalid),
    );
    let code_ok = r.country_codes.iter().any(|c| c.code == input.country_code);
    add("countryCode", (!code_ok).then_some(m.country_code_invalid));
    // A phone that is no number has its own error; the full phone is checked against a good one.
    let full_ok = input.national_phone().is_none()
        || input
            .full_phone
            .as_ref()
            .is_none_or(|f| *f == input.expected_full_phone());
    add("fullPhone", (!full_ok).then_some(m.full_phone_invalid));
    let text = input.message.trim();
    let message = if text.is_empty() {
        Some(m.message_required)
    } else if input.message.chars().count() > r.max_length.message {
        Some(m.message_too_long)
    } else {
        None
    };
    add("message", message);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> ContactInput {
        ContactInput {
            name: "Anna Kowalska".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            message: "Dzień dobry, chciałabym umówić konsultację.".into(),
            full_phone: Some("+48501234567".into()),
            ..ContactInput::default()
        }
    }

    /// A field of a shared case: a text, or `{ repeat, times }`.
    fn text(value: Option<&serde_json::Value>) -> Option<String> {
        let value = value?;
        Some(match value {
            serde_json::Value::Object(o) => {
                let times = o["times"].as_u64().unwrap_or(0) as usize;
                o["repeat"].as_str().unwrap_or("").repeat(times)
            }
            other => other.as_str().unwrap_or("").to_string(),
        })
    }

    #[test]
    fn the_shared_vectors_hold_here_as_in_the_form() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/vectors/contact.json"))
                .expect("json");
        let messages = serde_json::to_value(RULES.messages).expect("messages");
        let cases = vectors["cases"].as_array().expect("cases");
        for case in cases {
            let field = |name: &str| {
                text(case["input"].get(name))
                    .or_else(|| text(vectors["base"].get(name)))
                    .unwrap_or_default()
            };
            let input = ContactInput {
                name: field("name"),
                email: field("email"),
                phone: field("phone"),
                country_code: field("countryCode"),
                message: field("message"),
                ..ContactInput::default()
            };
            let expected: Errors = case["errors"]
                .as_object()
                .expect("errors")
                .iter()
                .map(|(k, v)| {
                    let key: &'static str = ["name", "email", "phone", "countryCode", "message"]
                        .into_iter()
                        .find(|f| f == k)
                        .expect("a field");
                    (
                        key,
                        messages[v.as_str().expect("a key")]
                            .as_str()
                            .expect("a message")
                            .to_string(),
                    )
                })
                .collect();
            assert_eq!(validate(&input), expected, "{case}");
        }
        assert!(cases.len() >= 20);
    }

    #[test]
    fn the_rules_offer_exactly_the_twelve_codes_of_the_spec() {
        let codes: Vec<_> = RULES
            .country_codes
            .iter()
            .map(|c| format!("{} {}", c.code, c.country))
            .collect();
        assert_eq!(
            codes.join(", "),
            "+48 PL, +380 UA, +420 CZ, +421 SK, +370 LT, +371 LV, +372 EE, +49 DE, +44 GB, +1 US, +33 FR, +39 IT"
        );
        assert_eq!(RULES.default_country_code, "+48");
    }

    #[test]
    fn a_valid_message_has_no_errors() {
        assert!(validate(&valid()).is_empty());
        let no_phone = ContactInput {
            phone: String::new(),
            full_phone: Some(String::new()),
            ..valid()
        };
        assert!(validate(&no_phone).is_empty());
    }

    #[test]
    fn each_rule_names_its_field() {
        let cases: Vec<(ContactInput, &str)> = vec![
            (
                ContactInput {
                    name: " ".into(),
                    ..valid()
                },
                "name",
            ),
            (
                ContactInput {
                    name: "Anna\r\nBcc: x@y.pl".into(),
                    ..valid()
                },
                "name",
            ),
            (
                ContactInput {
                    email: "anna@".into(),
                    ..valid()
                },
                "email",
            ),
            (
                ContactInput {
                    email: "anna@example.pl\nBcc: x@y.pl".into(),
                    ..valid()
                },
                "email",
            ),
            (
                ContactInput {
                    phone: "50123456".into(),
                    full_phone: Some("+4850123456".into()),
                    ..valid()
                },
                "phone",
            ),
            (
                ContactInput {
                    phone: "50123456a".into(),
                    full_phone: None,
                    ..valid()
                },
                "phone",
            ),
            (
                ContactInput {
                    country_code: "+999".into(),
                    full_phone: None,
                    ..valid()
                },
                "countryCode",
            ),
            (
                ContactInput {
                    full_phone: Some("+49501234567".into()),
                    ..valid()
                },
                "fullPhone",
            ),
            (
                ContactInput {
                    message: "".into(),
                    ..valid()
                },
                "message",
            ),
            (
                ContactInput {
                    message: "a".repeat(5001),
                    ..valid()
                },
                "message",
            ),
            (
                ContactInput {
                    name: "a".repeat(101),
                    ..valid()
                },
                "name",
            ),
        ];
        for (input, field) in cases {
            let errors = validate(&input);
            assert_eq!(
                errors.keys().copied().collect::<Vec<_>>(),
                vec![field],
                "{input:?}"
            );
        }
    }

    /// The form's pattern and lettre agree: what the form lets through, the server takes.
    #[test]
    fn the_email_rule_accepts_what_lettre_can_deliver_to() {
        let good = [
            "anna@example.pl",
            "anna.kowalska+gabinet@poczta.example.com",
            "o'brien@example.ie",
            "jan@żółw.pl",
        ];
        let bad = [
            "a(b)@example.pl",
            "anna@",
            "anna@example",
            "\"anna kowalska\"@example.pl",
            "anna@exa mple.pl",
            "anna@[300.1.1.1]",
            "an<na@example.pl",
        ];
        for email in good {
            assert!(
                check_email(email, 254).is_none(),
                "{email} should be accepted"
            );
            assert!(content::contact::is_email(email), "the form takes {email}");
        }
        for email in bad {
            assert_eq!(
                check_email(email, 254),
                Some(RULES.messages.email_invalid),
                "{email} should be refused"
            );
            let form = content::contact::is_email(email);
            let lettre = email.parse::<lettre::Address>().is_ok();
            assert!(!form || !lettre, "{email}: at least the server refuses");
        }
        assert!(
            !content::contact::is_email("a(b)@example.pl"),
            "the form refuses it as it is typed"
        );
    }

    #[test]
    fn the_phone_is_taken_as_people_write_it_and_kept_as_digits() {
        for (typed, code) in [
            ("600 100 200", "+48"),
            ("600-100-200", "+48"),
            ("+48 600 100 200", "+48"),
            ("48600100200", "+48"),
            ("600100200", "+48"),
            ("+380 600 100 200", "+380"),
        ] {
            let input = ContactInput {
                phone: typed.into(),
                country_code: code.into(),
                full_phone: Some(format!("{code}600100200")),
                ..valid()
            };
            assert!(
                validate(&input).is_empty(),
                "{typed}: {:?}",
                validate(&input)
            );
            assert_eq!(input.national_phone().as_deref(), Some("600100200"));
            assert_eq!(input.expected_full_phone(), format!("{code}600100200"));
        }
        let wrong_code = ContactInput {
            phone: "+49 600 100 200".into(),
            full_phone: None,
            ..valid()
        };
        assert_eq!(
            validate(&wrong_code).keys().copied().collect::<Vec<_>>(),
            ["phone"]
        );
    }

    #[test]
    fn the_phone_message_is_the_one_of_the_spec() {
        let errors = validate(&ContactInput {
            phone: "12345678".into(),
            full_phone: None,
            ..valid()
        });
        assert_eq!(
            errors["phone"],
            "Numer telefonu powinien składać się z 9 cyfr"
        );
    }
}
