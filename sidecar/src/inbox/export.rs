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
    // The automatic check against spam, said as what it meant for the message.
    let checked = match (m.held, m.spam) {
        (true, _) => "zatrzymana do sprawdzenia przez gabinet, zanim trafi do skrzynki",
        (false, Some(_)) => "oznaczona do sprawdzenia przez gabinet, przekazana jak inne",
        (false, None) => "bez zastrzeżeń",
    };
    format!(
        "<section><h2>Wiadomość {number}</h2><table>{}{}{}{}{}{}</table>\
         <h3>Treść wiadomości</h3><p class=\"text\">{}</p></section>",
        row("Data otrzymania", &polish_time(m.received_at)),
        row("Imię i nazwisko", &m.name),
        row("Adres e-mail", &m.email),
        row("Numer telefonu", phone),
        row("Co się z nią stało", &state(m)),
        row("Automatyczna ochrona przed spamem", checked),
        escaped(&m.message),
    )
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #ccc}\
th{width:40%;font-weight:600}.text{white-space:pre-wrap;border-left:3px solid #888;padding-left:.8rem}\
section{break-inside:avoid;margin-top:2rem}@media print{body{margin:0}}";

/// Who keeps the messages and for how long: what the document tells the person.
pub struct Kept<'a> {
    /// The practice's name, as the site writes it.
    pub practice: &'a str,
    /// Days a message stays on the site's server before it is deleted by itself.
    pub days: i64,
}

/// What is kept, why, how long, and what the person may do: the document's first part.
fn intro(days: i64, email: &str, count: usize, now: i64) -> String {
    format!(
        "<p>Ten dokument przygotowano {made} na Twoją prośbę (art. 15 RODO: \
         prawo dostępu do danych). Są w nim wszystkie wiadomości wysłane z adresu \
         <strong>{email}</strong> formularzem kontaktowym na stronie gabinetu, które są dziś na \
         serwerze strony. Liczba wiadomości: {count}.</p>\
         <h2>Co przechowujemy i po co</h2>\
         <p>Z każdej wiadomości: imię, adres e-mail, numer telefonu (jeśli go podano), treść \
         i chwilę jej wysłania. Służą one tylko do tego, by odpowiedzieć na wiadomość i umówić \
         wizytę.</p>\
         <h2>Jak długo</h2>\
         <p>Serwer strony usuwa każdą wiadomość sam po {days} dniach od jej otrzymania. Kopia \
         przekazana do skrzynki e-mail gabinetu zostaje tam tak długo, jak trwa rozmowa \
         o wizycie; o jej usunięcie możesz poprosić gabinet w każdej chwili.</p>\
         <h2>Twoje prawa</h2>\
         <p>Możesz poprosić gabinet o poprawienie lub usunięcie tych danych, o ograniczenie ich \
         użycia, sprzeciwić się mu albo otrzymać je w pliku do przeniesienia. Jeśli uważasz, \
         że gabinet używa Twoich danych niezgodnie z prawem, możesz złożyć skargę do Prezesa \
         Urzędu Ochrony Danych Osobowych (PUODO): ul. Stawki 2, 00-193 Warszawa, \
         www.uodo.gov.pl.</p>",
        made = polish_time(now),
        email = escaped(email),
    )
}

/// The whole document for the messages of `email`, kept as `kept` says, made at `now`.
pub fn document(kept: &Kept, email: &str, messages: &[StoredMessage], now: i64) -> String {
    let body: String = if messages.is_empty() {
        "<p>Serwer strony nie przechowuje żadnej wiadomości z tego adresu.</p>".into()
    } else {
        let all: String = messages
            .iter()
            .enumerate()
            .map(|(i, m)| message(i + 1, m))
            .collect();
        format!("<h2>Wiadomości</h2>{all}")
    };
    format!(
        "<!doctype html><html lang=\"pl\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{practice}: Twoje wiadomości i dane</title><style>{STYLE}</style></head>\
         <body><main><h1>{practice}: Twoje wiadomości i dane</h1>{intro}{body}</main></body></html>",
        practice = escaped(kept.practice),
        intro = intro(kept.days, email, messages.len(), now),
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
        let kept = Kept {
            practice: "Gabinet Harmonia",
            days: 30,
        };
        let html = document(&kept, "anna@example.pl", &[stored()], 1_782_901_900);
        for expected in [
            "<html lang=\"pl\">",
            "Data otrzymania</th><td>1 lipca 2026, 12:30</td>",
            "przekazana do skrzynki gabinetu 1 lipca 2026, 12:31",
            "Anna &lt;Kowalska&gt;",
            "Numer telefonu</th><td>+48501234567",
            "oznaczona do sprawdzenia przez gabinet",
            "Liczba wiadomości: 1.",
            "usuwa każdą wiadomość sam po 30 dniach",
            "skargę do Prezesa Urzędu Ochrony Danych Osobowych (PUODO)",
            "<h1>Gabinet Harmonia: Twoje wiadomości i dane</h1>",
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
            Spam::TooFast.label(),
            "Podejrzenie spamu",
            "w Gabinet",
        ] {
            assert!(!html.contains(raw), "{raw:?} in {html}");
        }
    }

    #[test]
    fn winter_time_is_an_hour_ahead_of_utc_and_an_empty_export_says_so() {
        // 2026-01-15 23:30 UTC is already the 16th in Warsaw.
        assert_eq!(polish_time(1_768_519_800), "16 stycznia 2026, 00:30");
        let kept = Kept {
            practice: "Gabinet",
            days: 30,
        };
        let html = document(&kept, "nikt@example.pl", &[], 0);
        assert!(html.contains("nie przechowuje żadnej wiadomości"), "{html}");
    }
}
