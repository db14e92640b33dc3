//! Pictures from the panel: a JPEG, PNG or WebP of at most 15 MB, recognised by its first
//! bytes (not its name) and decoded whole within the site's limits (50 megapixels) before
//! anything is kept, stored under `content/images/` with a slug of its name (never over
//! another file: a number is added), its alternative text kept, and the site rebuilt so the
//! image is served at once; its variants follow from the image worker (`variants`). A
//! picture no page shows can be deleted.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use std::path::Path;

use crate::changes::{images, Pipeline};
use crate::error::ApiError;
use crate::http::admin::{Admin, Author};
use crate::http::body::read_limited;

pub use crate::changes::images::{stored_name, Format, Picture};

/// 15 MB (15 × 1024 × 1024 bytes): the same limit a pushed picture is held to.
pub use content::limits::MAX_IMAGE_BYTES;
pub const ALT_MAX_CHARS: usize = 300;
const TOO_LARGE: &str =
    "Obraz jest zbyt duży: można przesłać najwyżej 15 MB. Zmniejsz zdjęcie i spróbuj ponownie.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/images")
            .route(web::get().to(list))
            .route(web::post().to(upload)),
    )
    .route("/api/images/{file}", web::delete().to(delete));
}

#[derive(Deserialize)]
struct UploadQuery {
    #[serde(default)]
    name: String,
    #[serde(default)]
    alt: String,
}

/// `POST /api/images?name=…&alt=…` with the image as the body.
async fn upload(
    author: Author,
    req: HttpRequest,
    query: web::Query<UploadQuery>,
    payload: web::Payload,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let alt = query.alt.trim().to_string();
    if alt.is_empty() || alt.chars().count() > ALT_MAX_CHARS || alt.contains(['\n', '\r']) {
        return Err(ApiError::unprocessable(format!(
            "Podaj tekst alternatywny obrazu (co przedstawia, dla osób, które go nie widzą), w jednym wierszu, najwyżej {ALT_MAX_CHARS} znaków."
        )));
    }
    let body = read_limited(&req, payload, MAX_IMAGE_BYTES, TOO_LARGE).await?;
    let body = images::inspect(body).await?;
    let format = Format::sniff(&body)
        .ok_or_else(|| images::refused(&site::images::ImageProblem::UnknownFormat))?;
    let name = stored_name(&query.name, format);
    // The rule every name under content/ keeps (vet, make check): a slug, one extension.
    if !content::kind::is_content_name(&name) {
        let problem = content::problem::FileProblem::BadName { name };
        return Err(ApiError::unprocessable(
            content::Problem::from(problem).sentence(),
        ));
    }
    let stored = images::upload(&pipeline, &author, name, alt, body).await?;
    Ok(HttpResponse::Created()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(stored))
}

/// `DELETE /api/images/{file}`: removes a picture no page shows, and its text.
async fn delete(
    author: Author,
    file: web::Path<String>,
    pipeline: web::Data<Pipeline>,
) -> Result<HttpResponse, ApiError> {
    let file = file.into_inner();
    let safe = !file.is_empty()
        && !file.starts_with('.')
        && !file.contains(['/', '\\'])
        && Path::new(&file).extension().is_some();
    let not_found = || ApiError::status(StatusCode::NOT_FOUND, "Nie ma takiego obrazu.");
    if !safe {
        return Err(not_found());
    }
    images::delete(&pipeline, &author, file).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /api/images`: every image under `content/images/`, uploaded ones with their text.
async fn list(_admin: Admin, pipeline: web::Data<Pipeline>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(images::list(&pipeline).await?))
}
