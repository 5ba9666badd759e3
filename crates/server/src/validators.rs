//! Answers that do not change for a given tag (a static file of this build, a game's chart at a given event
//! count) carry an `ETag`; a client that already holds it is answered `304 Not Modified`, with no body.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};

/// A tag for a body: 64 bits of FNV-1a over it (cheap, and stable for the life of a build).
pub fn tag_of(body: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in body {
        h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{h:016x}\"")
}

/// Whether the request already holds the answer tagged `tag` (`If-None-Match`, any of its tags, or `*`).
fn held(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

/// `body` as `content_type`, tagged `tag` and to be revalidated before each use (`no-cache`: the tag makes
/// that a round trip without a body); `private` keeps shared caches from holding a club's game.
pub fn tagged(
    req: &HttpRequest,
    tag: &str,
    content_type: &str,
    private: bool,
    body: impl Into<bytes::Bytes>,
) -> HttpResponse {
    let cache = if private { "private, no-cache" } else { "no-cache" };
    let mut response = if held(req, tag) {
        HttpResponse::build(StatusCode::NOT_MODIFIED).finish()
    } else {
        HttpResponse::Ok().content_type(content_type).body(body.into())
    };
    let headers = response.headers_mut();
    // Weak: the same body is sent gzipped to one client and plain to another, which a strong tag forbids.
    headers.insert(header::ETAG, HeaderValue::from_str(&format!("W/{tag}")).expect("a tag is ASCII"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn a_client_holding_the_tag_gets_304_and_no_body_and_one_holding_another_gets_the_body() {
        let tag = tag_of(b"body");
        assert_eq!(tag, tag_of(b"body"));
        assert_ne!(tag, tag_of(b"bodz"));
        let fresh = tagged(&TestRequest::default().to_http_request(), &tag, "text/plain", false, "body");
        assert_eq!(fresh.status(), StatusCode::OK);
        assert_eq!(fresh.headers().get(header::ETAG).unwrap(), format!("W/{tag}").as_str());
        let held =
            TestRequest::default().insert_header((header::IF_NONE_MATCH, format!("\"x\", W/{tag}"))).to_http_request();
        assert_eq!(tagged(&held, &tag, "text/plain", true, "body").status(), StatusCode::NOT_MODIFIED);
        let other = TestRequest::default().insert_header((header::IF_NONE_MATCH, "\"other\"")).to_http_request();
        assert_eq!(tagged(&other, &tag, "text/plain", true, "body").status(), StatusCode::OK);
    }
}
