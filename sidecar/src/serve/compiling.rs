//! What the panel's address answers while only the public site's server runs: a fresh clone's
//! first `make run` serves the site from the sidecar built without its `panel` feature until
//! the whole server is compiled. Every request is told so, and the page looks again every few
//! seconds, which lands on the panel once the whole server serves it.

use actix_web::http::header;
use actix_web::HttpResponse;

/// Nothing to load or run, and no frame of another site may hold it.
const CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// Seconds between the page's looks.
const AGAIN_SECONDS: &str = "5";

const PAGE: &str = "<!doctype html><html lang=\"pl\"><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>Panel się kompiluje</title><h1>Panel administracyjny jeszcze się kompiluje</h1>\
<p>Strona dla pacjentów już działa. Panel będzie gotowy za minutę lub dwie: ta karta \
sprawdza to co pięć sekund i sama go otworzy.</p></html>";

/// 503 with the page, nothing to keep, nothing to run.
pub fn answer() -> HttpResponse {
    HttpResponse::ServiceUnavailable()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::RETRY_AFTER, AGAIN_SECONDS))
        .insert_header(("Refresh", AGAIN_SECONDS))
        .content_type("text/html; charset=utf-8")
        .body(PAGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;

    #[test]
    fn the_panels_address_says_it_is_compiling_and_looks_again() {
        let response = answer();
        assert_eq!(response.status(), 503);
        let header = |name| {
            let value = response.headers().get(name).expect("the header is set");
            value.to_str().expect("the header is text").to_string()
        };
        assert_eq!(header("refresh"), "5");
        assert_eq!(header("retry-after"), "5");
        assert_eq!(header("cache-control"), "no-store");
        assert_eq!(
            header("content-security-policy"),
            "default-src 'none'; frame-ancestors 'none'"
        );
        let body = response.into_body().try_into_bytes().expect("a whole body");
        let text = std::str::from_utf8(&body).expect("UTF-8");
        assert!(
            text.contains("Panel administracyjny jeszcze się kompiluje"),
            "{text}"
        );
        assert!(!text.contains("<script"), "{text}");
    }
}
