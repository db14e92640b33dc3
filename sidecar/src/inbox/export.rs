//! The copy of one person's messages that the right of access (RODO art. 15) gives her, as a
//! document she can read and print: Polish field names, dates as people write them in
//! Warsaw time, the delivery state in words. The JSON beside it is for machines (art. 20).

use pulldown_cmark_escape::escape_html;

use crate::db::StoredMessage;

/// "12 marca 2025, 14:05" in Warsaw time.
pub fn polish_time(unix: i64) -> String {
    let (date, seconds) = content::dates::warsaw(unix);
    format!(
        "{}, {:02}:{:02}",
        date.polish(),
        seconds / 3600,
        seconds / 60 % 60
    )
}

fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Writing into a String cannot fail.
    let _ = escape_html(&mut out, text);
    out
}

/// The delivery state of a message in words.
fn state(m: &StoredMessage) -> String {
    if m.held {
        return "zatrzymana jako podejrzana, nie przekazana dalej".into();
    }
    match (m.status.as_str(), m.delivered_at) {
        ("delivered", Some(at)) => format!("przekazana do skrzynki gabinetu {}", polish_time(at)),
        ("delivered", None) => "przekazana do skrzynki gabinetu".into(),
        ("failed", _) => "nie udało się jej przekazać do skrzynki gabinetu".into(),
        _ => "czeka na przekazanie do skrzynki gabinetu".into(),
    }
}

fn row(label: &str, value: &str) -> String {
    format!(
        "<tr><th scope=\"row\">{label}</th><td>{}</td></tr>",
        escaped(value)
    )
}

fn message(number: usize, m: &StoredMessage) -> String {
    let phone = if m.full_phone.is_empty() {
        "nie podano"
    } else {
        &m.full_phone
    };
    let spam = m.spam.map_or("nie", |s| s.label());
    format!(
        "<section><h2>Wiadomość {number}</h2><table>{}{}{}{}{}{}</table>\
         <h3>Treść wiadomości</h3><p class=\"text\">{}</p></section>",
        row("Data otrzymania", &polish_time(m.received_at)),
        row("Imię i nazwisko", &m.name),
        row("Adres e-mail", &m.email),
        row("Numer telefonu", phone),
        row("Stan", &state(m)),
        row("Podejrzenie spamu", spam),
        escaped(&m.message),
    )
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #ccc}\
th{width:40%;font-weight:600}.text{white-space:pre-wrap;border-left:3px solid #888;padding-left:.8rem}\
section{break-inside:avoid;margin-top:2rem}@media print{body{margin:0}}";

/// The whole document for the messages of `email` from the practice `practice`, made at `now`.
pub fn document(practice: &str, email: &str, messages: &[StoredMessage], now: i64) -> String {
    let intro = format!(
        "<p>Dokument przygotowano {} na prośbę osoby, której dane dotyczą (art. 15 RODO: prawo \
         dostępu do danych). Zawiera wszystkie wiadomości wysłane formularzem kontaktowym na \
         stronie gabinetu z adresu e-mail <strong>{}</strong>, które serwer strony przechowuje \
         w dniu przygotowania dokumentu. Liczba wiadomości: {}.</p>\
         <p>Dane z formularza służą wyłącznie do odpowiedzi na wiadomość i umówienia wizyty.</p>",
        polish_time(now),
        escaped(email),
        messages.len()
    );
    let body: String = if messages.is_empty() {
        "<p>Serwer strony nie przechowuje żadnej wiadomości z tego adresu.</p>".into()
    } else {
        messages
            .iter()
            .enumerate()
            .map(|(i, m)| message(i + 1, m))
            .collect()
    };
    format!(
        "<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Twoje dane w {practice}</title><style>{STYLE}</style></head>\
         <body><main><h1>Twoje dane w {practice}</h1>{intro}{body}</main></body></html>",
        practice = escaped(practice),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Spam;

    fn stored() -> StoredMessage {
        StoredMessage {
            id: 3,
            // 2026-07-01 10:30 UTC: 12:30 in Warsaw (summer time).
            received_at: 1_782_901_800,
            name: "Anna <Kowalska>".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            full_phone: "+48501234567".into(),
            message: "Dzień dobry,\nproszę o termin.".into(),
            status: "delivered".into(),
            attempts: 1,
            last_error: None,
            delivered_at: Some(1_782_901_860),
            spam: Some(Spam::TooFast),
            held: false,
        }
    }

    #[test]
    fn the_document_is_polish_with_local_dates_and_no_raw_values() {
        let html = document(
            "Gabinet Harmonia",
            "anna@example.pl",
            &[stored()],
            1_782_901_900,
        );
        for expected in [
            "<html lang=\"pl\">",
            "Data otrzymania</th><td>1 lipca 2026, 12:30</td>",
            "przekazana do skrzynki gabinetu 1 lipca 2026, 12:31",
            "Anna &lt;Kowalska&gt;",
            "Numer telefonu</th><td>+48501234567",
            Spam::TooFast.label(),
            "Liczba wiadomości: 1.",
        ] {
            assert!(html.contains(expected), "{expected:?} missing: {html}");
        }
        for raw in [
            "1782901800",
            "received",
            "delivered",
            "status",
            "too_fast",
            "<Kowalska>",
        ] {
            assert!(!html.contains(raw), "{raw:?} in {html}");
        }
    }

    #[test]
    fn winter_time_is_an_hour_ahead_of_utc_and_an_empty_export_says_so() {
        // 2026-01-15 23:30 UTC is already the 16th in Warsaw.
        assert_eq!(polish_time(1_768_519_800), "16 stycznia 2026, 00:30");
        let html = document("Gabinet", "nikt@example.pl", &[], 0);
        assert!(html.contains("nie przechowuje żadnej wiadomości"), "{html}");
    }
}
