//! The panel's own origin (`ADMIN_ORIGIN`, its own listener): the panel's page, the files it
//! and a preview need (`/assets/`, `/images/`, the icon), and the headers of every answer
//! there — a policy that allows no third party, a sandbox for previews and for anything else
//! opened as a page. No public page is served here, so no script of the public site, first-
//! or third-party, ever runs on the origin that holds the session cookie and the inbox.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::http::Method;
use actix_web::{middleware, web, HttpRequest, HttpResponse};

use crate::config::Origins;
use crate::http::client::Clients;
use crate::serve::site::SiteState;
use crate::serve::static_files::{file_response, resolve, Resolved};

/// The files of the public build the panel's origin serves too: what pages link, never a page.
const SHARED: [&str; 2] = ["/assets/", "/images/"];
const ICON: &str = "/favicon.svg";
const ROBOTS: &str = "User-agent: *\nDisallow: /\n";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/robots.txt", web::get().to(robots))
        .default_service(web::to(serve));
}

async fn robots() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(ROBOTS)
}

fn redirect(to: String) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, to))
        .insert_header((header::CACHE_CONTROL, site::headers::NOT_FOUND_CACHE))
        .finish()
}

fn not_found() -> HttpResponse {
    HttpResponse::NotFound()
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, site::headers::NOT_FOUND_CACHE))
        .body("Nie ma tu takiej strony: to adres panelu administracyjnego.")
}

/// The panel's page, a file its pages link, or — for an address of the public site (a link
/// in a preview, 'Wróć na stronę', the home page after signing out) — a redirect there.
pub async fn serve(
    req: HttpRequest,
    site: web::Data<SiteState>,
    origins: web::Data<Origins>,
) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .body("Ta metoda nie jest obsługiwana.");
    }
    let site = site.live.current();
    let path = req.path();
    if let Some(page) = site.panel.get(path) {
        return file_response(&req, page, site.panel_cache_control(path), false);
    }
    let clean = path.trim_end_matches('/');
    if clean != path && site.panel.contains_key(clean) {
        return redirect(clean.to_string());
    }
    let shared = path == ICON || SHARED.iter().any(|p| path.starts_with(p));
    match resolve(&site, path) {
        Resolved::File(file) if shared && !file.ends_with(".html") => match site.files.get(&file) {
            Some(f) => file_response(&req, f, site.panel_cache_control(path), false),
            None => not_found(),
        },
        Resolved::File(_) | Resolved::Redirect(_) if !shared => {
            let query = req
                .uri()
                .query()
                .map(|q| format!("?{q}"))
                .unwrap_or_default();
            redirect(format!("{}{path}{query}", origins.public))
        }
        _ => not_found(),
    }
}

/// Adds the panel origin's headers to every answer; HSTS when the panel is on HTTPS.
pub async fn security_headers(
    req: ServiceRequest,
    next: middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let site = req.app_data::<web::Data<SiteState>>().cloned();
    let origins = req.app_data::<web::Data<Origins>>();
    let clients = req.app_data::<web::Data<Clients>>();
    let https = match (origins, clients) {
        (Some(o), Some(c)) => crate::http::admin::https(o.admin_https(), c, req.request()),
        _ => false,
    };
    let path = req.path().to_string();
    let mut response = next.call(req).await?;
    if let Some(site) = site {
        let headers = site.live.current().panel_headers_for(&path);
        crate::serve::headers::add_headers(response.headers_mut(), headers, https);
    }
    Ok(response)
}
