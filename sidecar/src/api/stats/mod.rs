//! The statistics' endpoints: `POST /api/event` on the public site, where the page script's
//! beacon lands (refused before anything is read when it is not one: opted out, too fast,
//! from another site, not text, too big), and on the panel's origin `GET /api/stats`
//! ('Statystyki') and `GET /api/stats/export` (every count as CSV; [`report`]).

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use futures_util::StreamExt;

use crate::error::ApiError;
use crate::http::client::{self, Clients};
use crate::serve::site::SiteState;
use crate::stats::beacon::{self, Beacon};
use crate::stats::{visitor, Stats};

panel! {
    mod report;
    pub use report::configure;
}

const TITLE: &str = "Statystyki";
const TOO_FAST: &str = "Zbyt wiele zdarzeń w krótkim czasie.";
const BUSY: &str = "Serwer nie nadąża teraz liczyć zdarzeń.";
const NOT_A_BEACON: &str =
    "Zdarzenie wysyła się jako tekst (text/plain), tak jak robi to navigator.sendBeacon.";
const TOO_LARGE: &str = "Zdarzenie jest zbyt duże.";
const BAD_BODY: &str = "Nie udało się odczytać zdarzenia.";
const CROSS_SITE: &str = "Zdarzenie wysłano z innej witryny.";

/// `POST /api/event`, when the statistics are on.
pub fn configure_public(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/event", web::post().to(event));
}

fn refuse(status: StatusCode, message: &str) -> HttpResponse {
    actix_web::ResponseError::error_response(&ApiError::new(status, TITLE, message))
}

fn no_content() -> HttpResponse {
    HttpResponse::NoContent()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// Whether a browser says the request comes from another site (`Sec-Fetch-Site`, `Origin`).
fn cross_site(req: &HttpRequest, https: bool) -> bool {
    let fetch_site = req
        .headers()
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok());
    matches!(fetch_site, Some(s) if s != "same-origin") || !client::same_origin(req, https)
}

async fn body(mut payload: web::Payload) -> Result<web::BytesMut, HttpResponse> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|_| refuse(StatusCode::BAD_REQUEST, BAD_BODY))?;
        if body.len() + chunk.len() > beacon::MAX_BYTES {
            return Err(refuse(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A beacon: counted (204), not counted because the visitor asked so or is a program (204
/// too: nothing to tell them), or refused, cheapest checks first.
async fn event(
    req: HttpRequest,
    payload: web::Payload,
    stats: web::Data<Stats>,
    site: web::Data<SiteState>,
    clients: web::Data<Clients>,
) -> HttpResponse {
    if visitor::opted_out(&req) {
        return no_content();
    }
    let key = clients.key(&req);
    if stats.limiter.check_key(&key).is_err() {
        return refuse(StatusCode::TOO_MANY_REQUESTS, TOO_FAST);
    }
    if cross_site(&req, clients.https(&req)) {
        return refuse(StatusCode::FORBIDDEN, CROSS_SITE);
    }
    if req.content_type() != "text/plain" {
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, NOT_A_BEACON);
    }
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if announced.is_some_and(|n| n > beacon::MAX_BYTES) {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
    }
    let body = match body(payload).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    let Ok(beacon) = serde_json::from_slice::<Beacon>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, BAD_BODY);
    };
    let agent = req
        .headers()
        .get(header::USER_AGENT)
        .map_or(&b""[..], |v| v.as_bytes());
    if visitor::is_program(agent) {
        return no_content();
    }
    let live = site.live.current();
    let host = req.connection_info().host().to_string();
    let hit = match beacon.check(|route| live.is_page(route), &host) {
        Ok(hit) => hit,
        Err(refusal) => return refuse(StatusCode::UNPROCESSABLE_ENTITY, refusal.sentence()),
    };
    match stats.count(hit, key, agent) {
        Ok(()) => no_content(),
        Err(_) => refuse(StatusCode::TOO_MANY_REQUESTS, BUSY),
    }
}
