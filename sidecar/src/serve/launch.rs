//! Going live. A production start (`PUBLIC_ORIGIN` with `https://`, or `FORCE_HTTPS=1`)
//! publishes nothing while `site.yaml` lists any of the practice's facts as example data: the
//! public listener answers every page with 'Strona w przygotowaniu' (503), `dist/` and the
//! CDN keep what they had, and the log, 'Stan systemu' and the panel's first screen name the
//! facts. Once the owner confirms the last of them in 'Dane gabinetu', the build that save
//! makes is published like any other. `make run` (no `https://` anywhere) publishes with the
//! examples, as development needs.
//!
//! The same start also reports what else a site that goes live needs (outgoing mail,
//! backups, a second factor, HTTPS): [`Checklist`], shown beside the facts.

use actix_web::http::header;
use actix_web::HttpResponse;
use content::model::ExampleFact;
use serde::Serialize;
use ts_rs::TS;

use crate::config::Config;

/// What the configuration says about going live, read once at start.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// A production start: `PUBLIC_ORIGIN` with `https://`, or `FORCE_HTTPS=1`.
    pub production: bool,
    /// `SMTP_URL` is set: contact messages are e-mailed.
    pub smtp: bool,
    /// `BACKUP_REPOSITORY` is set: encrypted backups run on their schedule.
    pub backups: bool,
    /// The public site's origin, as browsers reach it.
    pub public_origin: String,
    /// The panel's origin.
    pub admin_origin: String,
}

impl Launch {
    pub fn new(config: &Config) -> Self {
        Launch {
            production: config.production(),
            smtp: config.smtp_url.is_some(),
            backups: config.backup.is_some(),
            public_origin: config.origins.public.clone(),
            admin_origin: config.origins.admin.clone(),
        }
    }

    /// The facts that keep a build of `site` from being published: on a production start,
    /// those still listed as example data; otherwise none.
    pub fn held(&self, site: &content::SiteConfig) -> Vec<ExampleFact> {
        match self.production {
            true => site.example_data.clone(),
            false => Vec::new(),
        }
    }
}

/// The keys of `facts` as `site.yaml` writes them, for the log.
pub fn keys(facts: &[ExampleFact]) -> String {
    facts.iter().map(|f| f.key()).collect::<Vec<_>>().join(", ")
}

/// What a save says while the site is held: saved, and why visitors do not see it yet.
pub fn held_warning(facts: &[ExampleFact]) -> String {
    let labels: Vec<&str> = facts.iter().map(|f| f.label()).collect();
    format!(
        "Zmiana jest zapisana, ale strona nie jest jeszcze opublikowana: dane gabinetu są przykładowe ({}). Potwierdź je w „Dane gabinetu”.",
        labels.join(", ")
    )
}

/// What the public listener answers while the site is held: no fact of the practice (they
/// are examples), a way to emergency help, and a hint to come back.
pub fn not_published() -> HttpResponse {
    const PAGE: &str = "<!doctype html>\n<html lang=\"pl\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"robots\" content=\"noindex\">\n<title>Strona w przygotowaniu</title>\n</head>\n<body>\n<main>\n<h1>Strona w przygotowaniu</h1>\n<p>Strona gabinetu jeszcze nie działa. Zajrzyj tu wkrótce.</p>\n<p>Jeśli zagrożone jest życie lub zdrowie, zadzwoń pod numer alarmowy <a href=\"tel:112\">112</a>.</p>\n</main>\n</body>\n</html>\n";
    HttpResponse::ServiceUnavailable()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::RETRY_AFTER, "3600"))
        .body(PAGE)
}

/// One step of going live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "LaunchStep")]
pub enum Step {
    /// Every fact of the practice confirmed, none listed as example data.
    Facts,
    /// `SMTP_URL`: contact messages reach the practice's mailbox.
    Mail,
    /// `BACKUP_REPOSITORY`: encrypted backups.
    Backups,
    /// The administrator's authenticator app.
    SecondFactor,
    /// The site and the panel reached over HTTPS.
    Https,
}

/// A step and where it stands, in the owner's words.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "LaunchItem")]
pub struct Item {
    pub step: Step,
    pub done: bool,
    pub title: String,
    /// What is done, or what is missing and who does it, in the owner's words.
    pub detail: String,
    /// What the person who runs the server sets for it (the settings' names): shown under
    /// 'Szczegóły dla informatyka', never in her words. Empty when there is nothing to set.
    pub technical: String,
    /// For [`Step::Facts`]: the facts still listed as example data, by their Polish names.
    pub facts: Vec<String>,
}

/// `GET /api/launch`: whether this is a production start, whether the site is published, and
/// each step of going live.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "LaunchChecklist")]
pub struct Checklist {
    pub production: bool,
    /// The public site answers with its pages (not 'Strona w przygotowaniu').
    pub published: bool,
    pub items: Vec<Item>,
}

impl Checklist {
    /// The checklist for `launch`, the facts still `example` data, whether the site is
    /// `published` and whether the administrator has a `second_factor`.
    pub fn new(
        launch: &Launch,
        example: &[ExampleFact],
        published: bool,
        second_factor: bool,
    ) -> Self {
        let https = launch.public_origin.starts_with("https://")
            && launch.admin_origin.starts_with("https://");
        let item = |step, done, title: &str, detail: String| Item {
            step,
            done,
            title: title.to_string(),
            detail,
            technical: String::new(),
            facts: Vec::new(),
        };
        let to_set = |item: Item, technical: &str| Item {
            technical: if item.done {
                String::new()
            } else {
                technical.to_string()
            },
            ..item
        };
        let facts = Item {
            facts: example.iter().map(|f| f.label().to_string()).collect(),
            ..item(
                Step::Facts,
                example.is_empty(),
                "Dane gabinetu potwierdzone",
                match example.is_empty() {
                    true => "Wszystkie dane gabinetu są potwierdzone jako prawdziwe.".into(),
                    false => "Te dane są jeszcze przykładowe. Wpisz prawdziwe w „Dane gabinetu” i potwierdź każde; tych, których tam nie ma, zmienia informatyk lub redaktor.".into(),
                },
            )
        };
        let facts = to_set(facts, "content/site.yaml: the facts not in 'Dane gabinetu' (site name, base URL, analytics and telephony IDs); example_data lists what is unconfirmed");
        let items = vec![
            facts,
            to_set(item(
                Step::Mail,
                launch.smtp,
                "Poczta wychodząca",
                match launch.smtp {
                    true => "Wiadomości z formularza kontaktowego trafiają e-mailem do gabinetu.".into(),
                    false => "Serwer nie ma ustawionej poczty: wiadomości z formularza zostają na serwerze i nikt nie dostaje e-maila. Poproś informatyka o jej ustawienie.".into(),
                },
            ), "SMTP_URL is not set"),
            to_set(item(
                Step::Backups,
                launch.backups,
                "Kopie zapasowe",
                match launch.backups {
                    true => "Serwer robi zaszyfrowane kopie zapasowe według harmonogramu (stan ostatniej kopii: „Stan systemu”).".into(),
                    false => "Kopie zapasowe są wyłączone: awaria dysku zabrałaby wiadomości i historię zmian. Poproś informatyka o ich włączenie.".into(),
                },
            ), "BACKUP_REPOSITORY is not set (restic; its password in BACKUP_PASSWORD_FILE)"),
            item(
                Step::SecondFactor,
                second_factor,
                "Drugi składnik logowania",
                match second_factor {
                    true => "Logowanie do panelu wymaga kodu z aplikacji uwierzytelniającej.".into(),
                    false => "Do panelu wystarcza hasło. Włącz aplikację uwierzytelniającą w „Bezpieczeństwo”: panel daje dostęp do wiadomości o zdrowiu.".into(),
                },
            ),
            to_set(item(
                Step::Https,
                https,
                "Szyfrowane połączenie (HTTPS)",
                match https {
                    true => format!("Strona ({}) i panel ({}) działają przez HTTPS.", launch.public_origin, launch.admin_origin),
                    false => format!("Strona ({}) albo panel ({}) nie używa HTTPS. Poproś informatyka o certyfikat i adresy zaczynające się od https://.", launch.public_origin, launch.admin_origin),
                },
            ), "PUBLIC_ORIGIN and ADMIN_ORIGIN must be https:// origins behind a TLS certificate"),
        ];
        Checklist {
            production: launch.production,
            published,
            items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(production: bool) -> Launch {
        Launch {
            production,
            public_origin: "https://gabinet.pl".into(),
            admin_origin: "https://panel.gabinet.pl".into(),
            ..Launch::default()
        }
    }

    #[test]
    fn only_a_production_start_holds_example_data_back() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../content/site.yaml");
        let text = std::fs::read_to_string(path).expect("site.yaml");
        let mut config: content::SiteConfig = content::yaml::parse(&text).expect("parses");
        let facts = vec![ExampleFact::Nip, ExampleFact::Phone];
        config.example_data = facts.clone();
        assert_eq!(launch(true).held(&config), facts);
        assert!(launch(false).held(&config).is_empty(), "make run publishes");
        assert_eq!(keys(&facts), "nip, phone");
    }

    #[test]
    fn the_checklist_says_what_is_missing_in_the_owners_words() {
        let list = Checklist::new(&launch(true), &[ExampleFact::Nip], false, true);
        let by = |step| list.items.iter().find(|i| i.step == step).expect("step");
        assert!(!by(Step::Facts).done);
        assert_eq!(by(Step::Facts).facts, ["NIP"]);
        // The setting's name is for whoever sets it, under 'Szczegóły dla informatyka', never
        // in the owner's sentence.
        let mail = by(Step::Mail);
        assert!(
            !mail.done && mail.technical.contains("SMTP_URL") && !mail.detail.contains("SMTP_URL")
        );
        assert!(!by(Step::Backups).done);
        assert!(by(Step::SecondFactor).done);
        assert!(by(Step::Https).done);
        let plain = Launch::default();
        let dev = Checklist::new(&plain, &[], true, false);
        assert!(
            !dev.items
                .iter()
                .find(|i| i.step == Step::Https)
                .expect("https")
                .done
        );
    }
}
