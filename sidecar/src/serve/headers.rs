//! The headers of every answer: the site's security headers, from the build being served
//! (CSP, frame and referrer rules of each path), and HSTS when it goes over HTTPS.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{middleware, web};

use crate::http::client::Clients;
use crate::serve::site::SiteState;

/// Adds the site's security headers to every answer; HSTS only when served over HTTPS.
pub async fn security_headers(
    req: ServiceRequest,
    next: middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let site = req.app_data::<web::Data<SiteState>>().cloned();
    let https = req
        .app_data::<web::Data<Clients>>()
        .is_some_and(|c| c.https(req.request()));
    let path = req.path().to_string();
    let mut response = next.call(req).await?;
    if let Some(site) = site {
        let headers = site.live.current().headers_for(&path);
        add_headers(response.headers_mut(), headers, https);
    }
    Ok(response)
}

/// Puts `headers` on an answer, and HSTS when it goes over HTTPS.
pub fn add_headers(
    answer: &mut actix_web::http::header::HeaderMap,
    headers: Vec<(
        actix_web::http::header::HeaderName,
        actix_web::http::header::HeaderValue,
    )>,
    https: bool,
) {
    for (name, value) in headers {
        answer.insert(name, value);
    }
    if https {
        answer.insert(
            actix_web::http::header::STRICT_TRANSPORT_SECURITY,
            actix_web::http::header::HeaderValue::from_static(
                "max-age=31536000; includeSubDomains",
            ),
        );
    }
}
