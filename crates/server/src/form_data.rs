//! Reading a `multipart/form-data` body (RFC 7578): what a browser sends for a form with a file, when the
//! page has no script to send the file itself.

/// One field of a form: its name, the file name when it is a file, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub data: Vec<u8>,
}

/// The parts of `body`, sent with the `Content-Type` `content_type`; why not, in words.
pub fn parse(content_type: &str, body: &[u8]) -> Result<Vec<Part>, String> {
    let boundary = content_type
        .split(';')
        .map(str::trim)
        .find_map(|p| p.strip_prefix("boundary="))
        .map(|b| b.trim_matches('"'))
        .filter(|b| !b.is_empty() && b.len() <= 70)
        .ok_or("the form names no boundary")?;
    let delimiter = format!("--{boundary}").into_bytes();
    let mut at = find(body, &delimiter, 0).ok_or("the form has no part")? + delimiter.len();
    let mut parts = Vec::new();
    loop {
        if body[at..].starts_with(b"--") {
            return Ok(parts);
        }
        at += skip_line_end(&body[at..]);
        let head_end = find(body, b"\r\n\r\n", at).ok_or("a part of the form has no end to its headers")?;
        let head = std::str::from_utf8(&body[at..head_end]).map_err(|_| "a part's headers are not text")?;
        let (name, filename) = disposition(head)?;
        let data_start = head_end + 4;
        let mut next = b"\r\n".to_vec();
        next.extend_from_slice(&delimiter);
        let data_end = find(body, &next, data_start).ok_or("a part of the form does not end")?;
        parts.push(Part { name, filename, data: body[data_start..data_end].to_vec() });
        at = data_end + next.len();
    }
}

fn skip_line_end(rest: &[u8]) -> usize {
    if rest.starts_with(b"\r\n") {
        2
    } else if rest.starts_with(b"\n") {
        1
    } else {
        0
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|i| i + from)
}

/// The field name and file name of a part's `Content-Disposition: form-data; name="…"; filename="…"`.
fn disposition(head: &str) -> Result<(String, Option<String>), String> {
    let line = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("content-disposition:"))
        .ok_or("a part of the form has no Content-Disposition")?;
    let param = |key: &str| {
        line.split(';').map(str::trim).find_map(|p| p.strip_prefix(key)).map(|v| v.trim_matches('"').to_string())
    };
    let name = param("name=").ok_or("a part of the form has no name")?;
    Ok((name, param("filename=")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_browsers_form_with_a_file() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"proof\"\r\n\r\nabc\r\n\
                    --XyZ\r\nContent-Disposition: form-data; name=\"log\"; filename=\"game.jsonl\"\r\nContent-Type: application/octet-stream\r\n\r\n{\"a\":1}\r\n--X\r\n{\"b\":2}\r\n--XyZ--\r\n";
        let parts = parse("multipart/form-data; boundary=XyZ", body.as_bytes()).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[0].name.as_str(), parts[0].data.as_slice()), ("proof", b"abc".as_slice()));
        assert_eq!(parts[1].filename.as_deref(), Some("game.jsonl"));
        assert_eq!(parts[1].data, b"{\"a\":1}\r\n--X\r\n{\"b\":2}", "a line like a boundary inside the file stays");
    }

    #[test]
    fn says_what_is_wrong_with_a_broken_form() {
        assert!(parse("multipart/form-data", b"").unwrap_err().contains("boundary"));
        let cut = "--B\r\nContent-Disposition: form-data; name=\"log\"\r\n\r\nhalf a file";
        assert!(parse("multipart/form-data; boundary=B", cut.as_bytes()).unwrap_err().contains("does not end"));
    }
}
