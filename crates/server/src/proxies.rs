//! Who a request comes from, for the limits kept per address (writes a minute, followers' streams): the
//! connection's peer, or, when that peer is a proxy `serve` was told to trust (`--trusted-proxy`), the client
//! the proxies name in `Forwarded` (RFC 7239) or, without it, `X-Forwarded-For`.
//!
//! The list is read from its end, the hop nearest this server: each address a trusted proxy gave is believed,
//! and the first one that is not itself a trusted proxy is the client. An entry that is no address (`unknown`,
//! an obfuscated name) ends the walk at the proxy that wrote it, so clients hidden so share that proxy's
//! limits rather than getting fresh ones by writing a header. Without trusted proxies no header is read: any
//! client could write one.

use actix_web::http::header::HeaderMap;
use ipnet::IpNet;
use std::net::IpAddr;

/// The proxies whose word on the client is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

/// A `--trusted-proxy` that is neither an address nor a network.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not an address (10.0.0.1, ::1) or a network (10.0.0.0/8, fd00::/8) of a proxy")]
pub struct NotAProxy(String);

impl TrustedProxies {
    pub fn new(proxies: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(proxies)
    }

    /// The proxies as `serve` takes them: each an address or a network.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<TrustedProxies, NotAProxy> {
        let one = |text: &str| -> Result<IpNet, NotAProxy> {
            let text = text.trim();
            match text.parse::<IpAddr>() {
                Ok(address) => Ok(IpNet::from(address.to_canonical())),
                Err(_) => text.parse::<IpNet>().map_err(|_| NotAProxy(text.to_string())),
            }
        };
        entries.iter().map(|e| one(e.as_ref())).collect::<Result<_, _>>().map(TrustedProxies)
    }

    fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The client of a request that came from `peer` with `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        for hop in forwarded_for(headers).iter().rev() {
            match hop {
                Some(address) => {
                    client = *address;
                    if !self.trusts(client) {
                        return client;
                    }
                }
                None => return client,
            }
        }
        client
    }
}

/// The addresses the proxies named, nearest the client first: `Forwarded`'s `for=` parameters when the
/// request has that header, else `X-Forwarded-For`'s entries (each header in the order it came, and each
/// list in its order). `None` for an entry that is no address.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &str| -> Vec<String> {
        headers.get_all(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()).collect()
    };
    let forwarded = values("forwarded");
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|v| v.split(',').map(str::to_string).collect::<Vec<_>>())
            .map(|element| {
                let node = element.split(';').find_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    key.trim().eq_ignore_ascii_case("for").then(|| value.trim().to_string())
                });
                node.and_then(|node| address_of(&node))
            })
            .collect();
    }
    values("x-forwarded-for")
        .iter()
        .flat_map(|v| v.split(',').map(|entry| address_of(entry.trim())).collect::<Vec<_>>())
        .collect()
}

/// The address of a node as proxies write it: `192.0.2.60`, `"192.0.2.60:4711"`, `"[2001:db8::17]:4711"`,
/// `2001:db8::17`; `None` for `unknown` or an obfuscated name.
fn address_of(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse::<IpAddr>() {
        return Some(address.to_canonical());
    }
    if let Some(rest) = node.strip_prefix('[') {
        let (inside, _port) = rest.split_once(']')?;
        return inside.parse::<IpAddr>().ok().map(|a| a.to_canonical());
    }
    let (host, port) = node.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies(nets: &[&str]) -> TrustedProxies {
        TrustedProxies::parse(nets).unwrap()
    }

    #[test]
    fn a_proxy_is_an_address_or_a_network() {
        let ours = proxies(&["10.0.0.1", "fd00::/8", " 192.168.1.0/24 "]);
        for trusted in ["10.0.0.1", "fd00::5", "192.168.1.77"] {
            assert!(ours.trusts(ip(trusted)), "{trusted}");
        }
        for not in ["10.0.0.2", "fe80::1", "192.168.2.1"] {
            assert!(!ours.trusts(ip(not)), "{not}");
        }
        let refused = TrustedProxies::parse(&["10.0.0.1", "proxy.local"]).unwrap_err().to_string();
        assert!(refused.starts_with("`proxy.local` is not an address"), "{refused}");
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_the_headers_say() {
        let said = headers(&[("x-forwarded-for", "198.51.100.7"), ("forwarded", "for=198.51.100.8")]);
        assert_eq!(TrustedProxies::default().client(ip("203.0.113.5"), &said), ip("203.0.113.5"));
        // A peer that is not the trusted proxy is not believed either.
        assert_eq!(proxies(&["10.0.0.1/32"]).client(ip("203.0.113.5"), &said), ip("203.0.113.5"));
    }

    #[test]
    fn behind_trusted_proxies_the_client_is_the_nearest_address_no_proxy_of_ours_wrote() {
        let ours = proxies(&["10.0.0.0/8", "::1/128"]);
        // One proxy: the address it names.
        assert_eq!(ours.client(ip("10.0.0.1"), &headers(&[("x-forwarded-for", "198.51.100.7")])), ip("198.51.100.7"));
        // A chain: the client's own claim (the first entry) is not believed past the first untrusted hop.
        let chain = headers(&[("x-forwarded-for", "192.0.2.1, 198.51.100.7, 10.0.0.2")]);
        assert_eq!(ours.client(ip("10.0.0.1"), &chain), ip("198.51.100.7"));
        // The list spread over two headers reads as one.
        let split = headers(&[("x-forwarded-for", "192.0.2.1"), ("x-forwarded-for", "198.51.100.7, 10.0.0.2")]);
        assert_eq!(ours.client(ip("10.0.0.1"), &split), ip("198.51.100.7"));
        // Every hop ours: the farthest one.
        assert_eq!(ours.client(ip("::1"), &headers(&[("x-forwarded-for", "10.1.1.1, 10.0.0.2")])), ip("10.1.1.1"));
        // No header: the proxy itself.
        assert_eq!(ours.client(ip("10.0.0.1"), &HeaderMap::new()), ip("10.0.0.1"));
        // A mapped IPv4 peer is its IPv4 address.
        assert_eq!(ours.client(ip("::ffff:10.0.0.1"), &headers(&[("x-forwarded-for", "192.0.2.9")])), ip("192.0.2.9"));
    }

    #[test]
    fn forwarded_is_read_as_rfc_7239_writes_it_and_wins_over_x_forwarded_for() {
        let ours = proxies(&["10.0.0.0/8"]);
        let rfc = headers(&[
            ("forwarded", r#"for=192.0.2.43;proto=https, For="[2001:db8:cafe::17]:4711";by=10.0.0.1"#),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(ours.client(ip("10.0.0.1"), &rfc), ip("2001:db8:cafe::17"));
        let ported = headers(&[("forwarded", r#"for="192.0.2.43:47011""#)]);
        assert_eq!(ours.client(ip("10.0.0.1"), &ported), ip("192.0.2.43"));
    }

    #[test]
    fn an_entry_that_is_no_address_ends_the_walk_at_the_proxy_that_wrote_it() {
        let ours = proxies(&["10.0.0.0/8"]);
        let hidden = headers(&[("forwarded", "for=unknown, for=10.0.0.2")]);
        assert_eq!(ours.client(ip("10.0.0.1"), &hidden), ip("10.0.0.2"));
        let obfuscated = headers(&[("x-forwarded-for", "_hidden")]);
        assert_eq!(ours.client(ip("10.0.0.1"), &obfuscated), ip("10.0.0.1"));
        assert_eq!(ours.client(ip("10.0.0.1"), &headers(&[("x-forwarded-for", "  ")])), ip("10.0.0.1"));
    }
}
