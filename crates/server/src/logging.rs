//! One line per request: method, path, status and milliseconds, through `tracing`.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::time::Instant;

pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let (method, path) = (req.method().clone(), req.path().to_string());
    let response = next.call(req).await?;
    let ms = started.elapsed().as_secs_f64() * 1e3;
    tracing::info!(target: "almanac::http", "{method} {path} {} {ms:.1} ms", response.status().as_u16());
    Ok(response)
}
