//! Request targets longer than nginx takes (its request line of 8 KiB) are refused with 414
//! before anything else reads them, on both origins. Past 65,534 characters actix-http's own
//! parser refuses the request (400, the `http` crate's limit of a URI) before this runs.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{middleware, HttpResponse};

/// The longest path and query a request may name, in bytes as sent.
pub(crate) const MAX_TARGET: usize = 8 * 1024;

pub(crate) async fn refuse_long_targets(
    req: ServiceRequest,
    next: middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let length = req.uri().path_and_query().map_or(0, |t| t.as_str().len());
    if length > MAX_TARGET {
        let refusal = HttpResponse::UriTooLong()
            .content_type("text/plain; charset=utf-8")
            .body("Adres jest za długi.");
        return Ok(req.into_response(refusal).map_into_right_body());
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_left_body)
}
