//! The sidecar: serves the built site and, later, the site's small dynamic API.

pub mod config;
pub mod error;
pub mod static_files;

use actix_web::{middleware, web, App, HttpServer};
use std::time::Instant;

pub use config::Config;
pub use error::Error;

/// Registers every route of the sidecar.
pub fn configure(dist: std::path::PathBuf) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(static_files::Root(dist)))
            .default_service(web::to(static_files::serve));
    }
}

/// Builds the site, then serves it until the process is stopped.
pub async fn run(config: Config) -> Result<(), Error> {
    let project = generator::Project::at(&config.root);
    let started = Instant::now();
    let report = generator::build(&project, &config.dist)?;
    tracing::info!(
        files = report.files,
        ms = started.elapsed().as_millis() as u64,
        "site built into {}",
        config.dist.display()
    );
    let dist = config.dist.clone();
    let server = HttpServer::new(move || {
        App::new()
            .wrap(middleware::Compress::default())
            .wrap(middleware::from_fn(log_request))
            .configure(configure(dist.clone()))
    })
    .bind((config.bind.as_str(), config.port))
    .map_err(|source| Error::Bind {
        address: format!("{}:{}", config.bind, config.port),
        source,
    })?;
    for address in server.addrs() {
        println!("Strona działa pod adresem http://{address}");
    }
    server.run().await.map_err(Error::Serve)
}

async fn log_request(
    req: actix_web::dev::ServiceRequest,
    next: middleware::Next<impl actix_web::body::MessageBody>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_string();
    let response = next.call(req).await?;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        us = started.elapsed().as_micros() as u64,
        "request"
    );
    Ok(response)
}
