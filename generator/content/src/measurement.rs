//! How visits to the site are measured: the operator's settings, never content's (an editor's
//! commit cannot add a script or a cookie). The site's own statistics (`STATS`, on unless
//! `off`) send a beacon to the sidecar, which keeps aggregates only: no cookie, no third party,
//! nothing to consent to. A third-party analytics tag (`ANALYTICS_ID`, Google's `G-…` or an
//! ads conversion tag `AW-…`) is off unless the operator sets it; only then does the site set
//! cookies that need consent, ask for it with the banner and list those cookies.

use serde::Serialize;

/// The operator's choice of measurement, which a build is made with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Measurement {
    /// The page script sends its beacon to `/api/event`.
    pub statistics: bool,
    /// How many whole months the statistics' counts are kept (`STATS_RETENTION_MONTHS`).
    pub retention_months: u32,
    /// The analytics tag loaded after consent; `None`: no tag, and no banner.
    pub analytics_id: Option<String>,
}

impl Default for Measurement {
    /// As the site ships: its own statistics, no third party.
    fn default() -> Self {
        Measurement {
            statistics: true,
            retention_months: 25,
            analytics_id: None,
        }
    }
}

impl Measurement {
    /// The operator's settings: `STATS` (on unless `off`, `0` or `false`),
    /// `STATS_RETENTION_MONTHS` (25) and `ANALYTICS_ID` (unset: no tag), from `get`; a wrong
    /// one is named with why.
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Measurement, (&'static str, String)> {
        Self::read(
            get("STATS").as_deref(),
            get("STATS_RETENTION_MONTHS").as_deref(),
            get("ANALYTICS_ID").as_deref(),
        )
    }

    /// The settings from the values of `STATS`, `STATS_RETENTION_MONTHS` and `ANALYTICS_ID`
    /// (`None` or blank: unset).
    pub fn read(
        stats: Option<&str>,
        retention: Option<&str>,
        analytics_id: Option<&str>,
    ) -> Result<Measurement, (&'static str, String)> {
        let off = stats.is_some_and(|v| {
            ["off", "0", "false"].contains(&v.trim().to_ascii_lowercase().as_str())
        });
        let analytics_id = analytics_id
            .filter(|v| !v.trim().is_empty())
            .map(|id| check_analytics_id(id).map_err(|message| ("ANALYTICS_ID", message)))
            .transpose()?;
        let retention_months = match retention.filter(|v| !v.trim().is_empty()) {
            Some(text) => match text.trim().parse::<u32>() {
                Ok(months) if months >= 1 => months,
                _ => {
                    let message = format!("'{text}' is not a number of months (at least 1)");
                    return Err(("STATS_RETENTION_MONTHS", message));
                }
            },
            None => Measurement::default().retention_months,
        };
        Ok(Measurement {
            statistics: !off,
            retention_months,
            analytics_id,
        })
    }

    /// Whether some cookie of the site needs the visitor's consent (and the banner asks).
    pub fn asks_consent(&self) -> bool {
        self.analytics_id.is_some()
    }
}

/// The privacy policy's words on how visits are measured (`{{ statystyka }}`): what the
/// site counts and why it is not personal data, its legal basis and how long it is kept, and
/// whether a third party's analytics runs.
pub fn policy_text(m: &Measurement) -> String {
    let own = match m.statistics {
        true => format!(
            "Odwiedziny strony liczymy sami, na własnym serwerze, bez plików cookies i bez firm trzecich. \
             Gdy strona się wczyta, Twoja przeglądarka wysyła do naszego serwera krótką informację: którą stronę czytasz, \
             z jakiej witryny na nią trafiłeś lub trafiłaś (tylko adres tej witryny, na przykład google.com) \
             i czy oglądasz ją na telefonie, tablecie czy komputerze; a także to, że dotknięto przycisku rezerwacji, \
             telefonu gabinetu lub numeru pomocy albo wysłano wiadomość (nigdy jej treść). \
             Serwer zapisuje wyłącznie zbiorcze liczby dla każdego dnia, na przykład „12 wyświetleń cennika na telefonach”.\n\n\
             Żeby policzyć, ile różnych osób odwiedziło stronę danego dnia, serwer na chwilę łączy adres IP i nazwę przeglądarki \
             z losowym kluczem, który zmienia się co dzień i istnieje tylko w jego pamięci. Powstałego skrótu nigdzie nie zapisujemy, \
             a po zmianie klucza nie da się go odtworzyć. Adresu IP, nazwy przeglądarki ani żadnego identyfikatora nie zapisujemy, \
             więc zebranych liczb nie da się powiązać z Tobą: nie są to dane osobowe. Chwilowe użycie adresu IP w pamięci serwera \
             opieramy na naszym prawnie uzasadnionym interesie (art. 6 ust. 1 lit. f RODO): chcemy wiedzieć, czy strona pomaga \
             osobom szukającym pomocy psychologicznej i które jej części warto poprawić. \
             Jeśli Twoja przeglądarka wysyła sygnał „Do Not Track” albo Global Privacy Control, Twoich odwiedzin nie liczymy wcale. \
             Zbiorcze liczby przechowujemy przez {} miesięcy, potem serwer usuwa je sam.",
            m.retention_months
        ),
        false => "Obecnie nie liczymy odwiedzin strony.".to_string(),
    };
    let analytics = match m.asks_consent() {
        true => "Oprócz tego, wyłącznie za Twoją zgodą, korzystamy z Google Analytics; zgodę zmienisz albo wycofasz \
                 przyciskiem „Ustawienia cookies” w stopce strony.",
        false => "Strona nie korzysta z Google Analytics ani z innych narzędzi analitycznych lub reklamowych firm trzecich \
                  i nie zapisuje plików analitycznych ani reklamowych, dlatego nie pyta o zgodę na cookies. \
                  To, co ta polityka mówi o Google Analytics i plikach analitycznych, będzie dotyczyć strony tylko wtedy, \
                  gdy je włączymy; strona zapyta Cię wtedy o zgodę.",
    };
    format!("{own}\n\n{analytics}")
}

/// `id` if it is a Google tag's id (`G-7QH2KX4M1B`, `AW-123456789`), else why not.
pub fn check_analytics_id(id: &str) -> Result<String, String> {
    let id = id.trim();
    let valid = id.split_once('-').is_some_and(|(kind, rest)| {
        ["G", "AW", "GT", "DC"].contains(&kind)
            && (4..=20).contains(&rest.len())
            && rest
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    });
    match valid {
        true => Ok(id.to_string()),
        false => Err(format!(
            "'{id}' is not a Google tag's id such as G-7QH2KX4M1B or AW-123456789"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_tag_id_is_taken() {
        assert_eq!(
            check_analytics_id(" G-7QH2KX4M1B "),
            Ok("G-7QH2KX4M1B".into())
        );
        assert!(check_analytics_id("AW-123456789").is_ok());
        assert!(check_analytics_id("G-1\"><script>").is_err());
        assert!(check_analytics_id("https://evil.example/x.js").is_err());
        assert!(!Measurement::default().asks_consent());
    }

    #[test]
    fn the_settings_are_read_as_the_operator_writes_them() {
        let read = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Measurement::from_lookup(|key| {
                pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
            })
        };
        assert_eq!(read(&[]), Ok(Measurement::default()));
        let set = read(&[("STATS", "off"), ("ANALYTICS_ID", "G-7QH2KX4M1B")]).expect("read");
        assert!(!set.statistics && set.asks_consent());
        assert_eq!(
            read(&[("ANALYTICS_ID", "nope")]).map_err(|e| e.0),
            Err("ANALYTICS_ID")
        );
    }
}
