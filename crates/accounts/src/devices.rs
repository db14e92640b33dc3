//! A session's device in words, from its browser's User-Agent string (parsed by `woothee`):
//! 'Safari na iPhonie', 'Chrome na Windows'. No lookup leaves the server.

/// The browser's name as people know it; `None` when the parser does not know it.
fn browser(name: &str) -> Option<&str> {
    match name {
        "" | "UNKNOWN" => None,
        "SamsungBrowser" => Some("Samsung Internet"),
        "Webview" => Some("Przeglądarka w aplikacji"),
        other => Some(other),
    }
}

/// The system in the locative case, after 'na'; `None` when the parser does not know it.
fn system(os: &str) -> Option<&str> {
    match os {
        "" | "UNKNOWN" => None,
        "iPhone" => Some("iPhonie"),
        "iPad" => Some("iPadzie"),
        "iPod" => Some("iPodzie"),
        "Mac OSX" | "Mac OS Classic" => Some("Macu"),
        "Android" => Some("Androidzie"),
        "Linux" => Some("Linuksie"),
        "ChromeOS" => Some("Chromebooku"),
        windows if windows.starts_with("Windows") => Some("Windows"),
        other => Some(other),
    }
}

/// The device of a User-Agent string in words; an unknown one is said to be unknown.
pub fn describe(agent: &str) -> String {
    let parsed = woothee::parser::Parser::new().parse(agent);
    if parsed
        .as_ref()
        .is_some_and(|p| p.category == "crawler" || p.name == "HTTP Library")
    {
        return "Program, nie przeglądarka".to_string();
    }
    let (name, os) = parsed.map_or(("", ""), |p| (p.name, p.os));
    match (browser(name), system(os)) {
        (Some(b), Some(s)) => format!("{b} na {s}"),
        (Some(b), None) => b.to_string(),
        (None, Some(s)) => format!("Nieznana przeglądarka na {s}"),
        (None, None) => "Nieznane urządzenie".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_devices_are_named_in_polish() {
        for (agent, words) in [
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari na iPhonie",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
                "Chrome na Windows",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
                "Safari na Macu",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
                "Chrome na Androidzie",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
                "Firefox na Linuksie",
            ),
        ] {
            assert_eq!(describe(agent), words, "{agent}");
        }
    }

    #[test]
    fn an_unknown_or_missing_agent_is_said_to_be_unknown() {
        assert_eq!(describe(""), "Nieznane urządzenie");
        assert_eq!(describe("Zupełnie/nieznany"), "Nieznane urządzenie");
        assert_eq!(describe("curl/8.5.0"), "Program, nie przeglądarka");
    }
}
